"""A position as a text board, with the square numbers beside it.

White men ``w``, white kings ``W``, black men ``b``, black kings ``B``, empty playing
squares ``.``; light squares stay blank.  Row 0 (Black's side, squares 1, 2, …) is at
the top, as in diagrams.  Beside each row are the numbers of its playing squares, so
a move such as 32-28 can be followed on the board.
"""

from __future__ import annotations

from pdn_tools.rules import Color, Position

_PIECES = {
    (Color.WHITE, False): "w",
    (Color.WHITE, True): "W",
    (Color.BLACK, False): "b",
    (Color.BLACK, True): "B",
}


def board_lines(position: Position) -> list[str]:
    """The board of *position*, one text line per row, framed, numbers on the right."""
    geo = position.geometry
    width, height = geo.spec.width, geo.spec.height
    digits = len(str(geo.size))
    cells = [[" "] * width for _ in range(height)]
    numbers = [[" " * digits] * width for _ in range(height)]
    for square in range(1, geo.size + 1):
        row, col = geo.coords[square]
        piece = position.piece_at(square)
        cells[row][col] = _PIECES[piece] if piece is not None else "."
        numbers[row][col] = str(square).rjust(digits)
    frame = "+" + "-" * (2 * width + 1) + "+"
    lines = [frame]
    for row in range(height):
        lines.append(f"| {' '.join(cells[row])} |   {' '.join(numbers[row])}".rstrip())
    lines.append(frame)
    return lines
