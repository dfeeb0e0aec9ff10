"""SVG board diagrams: pieces, arrows, marks and coordinates where they belong, for every
kind of board, read back by parsing the SVG; and ``pdn show --svg``."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from svg_helpers import inherited, read_diagram

import pdn_tools
from pdn_tools import Board
from pdn_tools.cli import main
from pdn_tools.report.svg import LANE, MARGIN, SQUARE, Arrow, board_svg, layout_for
from pdn_tools.rules import Color, Position, variant_by_name, write_fen

HALF = SQUARE // 2


def dark_square_cell(square: int, width: int, dark_near_left: bool) -> tuple[int, int]:
    """(row, column) of a playing square on a board of dark squares, by the PDN rule
    (rules.md §1): numbered row by row from White's top-left; on a standard board the
    bottom row starts with a playing square, on the turned board with a light one."""
    per_row = width // 2
    row, index = divmod(square - 1, per_row)
    # The bottom row (odd, as heights are even) starts dark on a standard board.
    starts_dark = (row % 2 == 1) == dark_near_left
    return row, 2 * index if starts_dark else 2 * index + 1


def centre(row: int, col: int, left: int = 0) -> tuple[int, int]:
    return left + col * SQUARE + HALF, row * SQUARE + HALF


def pieces_of_fen(board: Board) -> dict[int, str]:
    out = {}
    for square in range(1, board.position.geometry.size + 1):
        piece = board.piece_at(square)
        if piece is not None:
            letter = "w" if piece[0] is Color.WHITE else "b"
            out[square] = letter.upper() if piece[1] else letter
    return out


@pytest.mark.parametrize(
    ("variant", "width", "dark_near_left", "white", "black"),
    [
        ("international", 10, True, range(31, 51), range(1, 21)),
        ("english", 8, True, range(21, 33), range(1, 13)),
        ("russian", 8, True, range(21, 33), range(1, 13)),
        ("italian", 8, False, range(21, 33), range(1, 13)),
        ("frisian", 10, True, range(31, 51), range(1, 21)),
    ],
)
def test_start_positions_of_the_diagonal_boards(
    variant: str, width: int, dark_near_left: bool, white: range, black: range
) -> None:
    board = Board(variant=variant)
    diagram = read_diagram(board_svg(board))
    assert diagram.view_box == (0, 0, width * SQUARE, width * SQUARE)
    assert diagram.title == board.fen()
    assert len(diagram.squares) == width * width // 2
    for square in range(1, width * width // 2 + 1):
        row, col = dark_square_cell(square, width, dark_near_left)
        assert diagram.squares[square] == (col * SQUARE, row * SQUARE), square
    assert {s for s, p in diagram.pieces.items() if p[0] == "w"} == set(white)
    assert {s for s, p in diagram.pieces.items() if p[0] == "b"} == set(black)
    for square, (_, x, y) in diagram.pieces.items():
        assert (x, y) == centre(*dark_square_cell(square, width, dark_near_left))
    assert sorted(diagram.texts, key=int) == [str(n) for n in range(1, width * width // 2 + 1)]


def test_italian_board_is_turned() -> None:
    """Italian's near-left corner (a1) is a light square: square 29 is b1, 32 is h1,
    while on the standard 8x8 board 29 is a1 and 32 is g1."""
    italian = read_diagram(board_svg(Board(variant="italian")))
    english = read_diagram(board_svg(Board(variant="english")))
    bottom = 7 * SQUARE
    assert italian.squares[29] == (1 * SQUARE, bottom)
    assert italian.squares[32] == (7 * SQUARE, bottom)
    assert english.squares[29] == (0, bottom)
    assert english.squares[32] == (6 * SQUARE, bottom)


def test_turkish_board_plays_every_square() -> None:
    board = Board(variant="turkish")
    diagram = read_diagram(board_svg(board))
    assert len(diagram.squares) == 64
    for square in range(1, 65):
        row, col = divmod(square - 1, 8)
        assert diagram.squares[square] == (col * SQUARE, row * SQUARE)
    # Sixteen men each on the second and third rows, the back rows empty (rules.md §4.7).
    assert {s for s, p in diagram.pieces.items() if p[0] == "b"} == set(range(9, 25))
    assert {s for s, p in diagram.pieces.items() if p[0] == "w"} == set(range(41, 57))
    rook = Board.from_fen("W:WK36:B38,K1", variant="turkish")
    move = next(m for m in rook.legal_moves if m.captures)
    shown = read_diagram(board_svg(rook, arrows=[Arrow.of_move(move)]))
    assert shown.pieces[36][0] == "W" and shown.pieces[1][0] == "B"
    colour, path, points = shown.arrows[0]
    assert path == move.paths[0] and colour == "red"
    # An orthogonal capture: every point of the route lies on row 4 (squares 33-40).
    assert {y for _, y in points} == {4 * SQUARE + HALF}
    assert shown.marks == [(38, "red")]


def test_kings_men_arrows_and_capture_marks() -> None:
    board = Board.from_fen("W:W32,K46:B27,17,K5")
    capture = board.parse_move("32x12")
    diagram = read_diagram(
        board_svg(board, arrows=[Arrow.of_move(capture)], highlights={32: "red", 12: "green"})
    )
    assert {s: p[0] for s, p in diagram.pieces.items()} == {
        32: "w",
        46: "W",
        27: "b",
        17: "b",
        5: "B",
    }
    assert diagram.highlights == {32: "red", 12: "green"}
    assert sorted(diagram.marks) == [(17, "red"), (27, "red")]
    colour, path, points = diagram.arrows[0]
    assert colour == "red"
    assert path == capture.paths[0] == (32, 21, 12)
    assert points == [centre(*dark_square_cell(s, 10, True)) for s in path]


def test_a_move_and_its_reverse_are_drawn_side_by_side() -> None:
    """ "Did you mean 43-39 (from and to swapped)": the recorded move and the repair
    join the same squares; each is drawn LANE units to its own left, so both show."""
    diagram = read_diagram(
        board_svg(
            Board(), arrows=[Arrow((39, 43), "red"), Arrow((43, 39), "green"), Arrow((32, 28))]
        )
    )
    (_, _, red), (_, _, green), (_, _, alone) = diagram.arrows
    c39, c43 = (centre(*dark_square_cell(s, 10, True)) for s in (39, 43))
    assert alone == [centre(*dark_square_cell(s, 10, True)) for s in (32, 28)]
    for points, (start, end) in ((red, (c39, c43)), (green, (c43, c39))):
        # Moved perpendicular to the line by LANE (rounded), the same for both ends.
        shift = (points[0][0] - start[0], points[0][1] - start[1])
        assert shift == (points[1][0] - end[0], points[1][1] - end[1])
        assert abs(shift[0] ** 2 + shift[1] ** 2 - LANE**2) <= 2 * LANE
        direction = (end[0] - start[0], end[1] - start[1])
        assert shift[0] * direction[0] + shift[1] * direction[1] == 0
    assert red[0] != green[1]  # on opposite sides of the line


@pytest.mark.parametrize("variant", ["international", "english", "italian", "turkish"])
def test_colours_are_presentation_attributes(variant: str) -> None:
    """Renderers that read no CSS (librsvg, ImageMagick, office imports) get every
    colour from the elements themselves: no style sheet, no class decides a colour, no
    ``<use>``, ``<marker>`` or ``transform`` that some of them ignore."""
    board = Board(variant=variant)
    move = board.legal_moves[0]
    text = board_svg(board, arrows=[Arrow.of_move(move), Arrow.of_move(move, "green")])
    for banned in ("<style", "<use", "<marker", "transform=", "href=", 'class="l"'):
        assert banned not in text, banned
    root = ET.fromstring(text)
    for node in root.iter():
        tag = node.tag.removeprefix("{http://www.w3.org/2000/svg}")
        if tag in ("rect", "circle", "polygon", "path", "polyline", "text"):
            assert inherited(root, node, "fill") is not None, (tag, node.attrib)
        if tag == "text":
            assert (inherited(root, node, "font-family") or "").endswith("sans-serif")
            assert int(inherited(root, node, "font-size") or "0") >= 14


def test_recorded_and_repair_arrows_differ() -> None:
    """Red (the move as recorded) is solid and wide; green (the repair) dashed and
    narrower: two arrows over the same squares can still be told apart."""
    text = board_svg(Board(), arrows=[Arrow((39, 43), "red"), Arrow((43, 39), "green")])
    root = ET.fromstring(text)
    lines = {
        g.get("class"): g.find("{http://www.w3.org/2000/svg}polyline")
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "arrow" in (g.get("class") or "")
    }
    red, green = lines["arrow red"], lines["arrow green"]
    assert red is not None and green is not None
    assert red.get("stroke-dasharray") is None and green.get("stroke-dasharray")
    assert float(red.get("stroke-width", "")) > float(green.get("stroke-width", ""))
    assert red.get("stroke") != green.get("stroke")


def test_algebraic_coordinates_and_flipping() -> None:
    board = Board(variant="russian")
    plain = read_diagram(board_svg(board, coordinates="algebraic"))
    turned = read_diagram(board_svg(board, coordinates="algebraic", flipped=True))
    side = 8 * SQUARE
    assert plain.view_box == (0, 0, MARGIN + side, side + MARGIN)
    assert sorted(plain.texts) == sorted([*"abcdefgh", *"12345678"])
    for square in range(1, 33):
        row, col = dark_square_cell(square, 8, True)
        assert plain.squares[square] == (MARGIN + col * SQUARE, row * SQUARE)
        x, y = plain.squares[square]
        # Turned half a circle: the square opposite through the board's centre.
        assert turned.squares[square] == (2 * MARGIN + side - SQUARE - x, side - SQUARE - y)
    # White's men are at the top once flipped.
    assert all(turned.pieces[s][2] < side // 2 for s in range(21, 33))


def test_size_title_and_description() -> None:
    board = Board()
    diagram = read_diagram(board_svg(board, size=320, title="a <b> & c", description="d"))
    assert (diagram.width, diagram.height) == ("320", "320")
    assert diagram.title == "a <b> & c"
    # By default a size that reads well: 48 px a square (10x10: 480 px, 8x8: 384 px,
    # with the algebraic margin 405 px, as python-chess's 390 px chess board).
    assert read_diagram(board_svg(board)).width == "480"
    assert read_diagram(board_svg(Board(variant="english"))).width == "384"
    russian = read_diagram(board_svg(Board(variant="russian"), coordinates="algebraic"))
    assert (russian.width, russian.height) == ("405", "405")
    assert read_diagram(board_svg(board, size=0)).width is None  # fills its box
    text = board_svg(board, coordinates="none")
    assert "<text" not in text and "<image" not in text


def test_bad_arguments_say_why() -> None:
    with pytest.raises(ValueError, match="colour"):
        Arrow((1, 2), "purple")
    with pytest.raises(ValueError, match="two squares"):
        Arrow((1,))
    with pytest.raises(ValueError, match="coordinates"):
        layout_for(Board().position.geometry.spec, "roman")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="colour"):
        board_svg(Board(), highlights={1: "pink"})


VARIANTS = ["international", "english", "italian", "russian", "frisian", "turkish"]


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    cells=st.lists(st.integers(0, 4), min_size=64, max_size=64),
    coordinates=st.sampled_from(["numbers", "algebraic", "none"]),
    flipped=st.booleans(),
)
def test_every_piece_sits_on_its_square(
    variant: str, cells: list[int], coordinates: str, flipped: bool
) -> None:
    """Whatever the position: one piece shape per occupied square, at that square's
    centre, every square inside the picture and no two squares on one spot."""
    rules = variant_by_name(variant)
    size = Position.initial(rules).geometry.size
    kinds: dict[str, list[int]] = {"w": [], "W": [], "b": [], "B": []}
    for square, cell in zip(range(1, size + 1), cells, strict=False):
        if cell:
            kinds["wWbB"[cell - 1]].append(square)
    position = Position.from_squares(
        rules,
        white_men=kinds["w"],
        white_kings=kinds["W"],
        black_men=kinds["b"],
        black_kings=kinds["B"],
    )
    diagram = read_diagram(board_svg(position, coordinates=coordinates, flipped=flipped))  # type: ignore[arg-type]
    assert diagram.title == write_fen(position)
    assert len(set(diagram.squares.values())) == size
    _, _, width, height = diagram.view_box
    for x, y in diagram.squares.values():
        assert 0 <= x <= width - SQUARE and 0 <= y <= height - SQUARE
    expected = {s: k for k, squares in kinds.items() for s in squares}
    assert {s: p[0] for s, p in diagram.pieces.items()} == expected
    for square, (_, x, y) in diagram.pieces.items():
        corner = diagram.squares[square]
        assert (x, y) == (corner[0] + HALF, corner[1] + HALF)


# -- pdn show --svg ----------------------------------------------------------------------
def test_show_writes_the_board_at_a_ply(tmp_path: Path) -> None:
    target = tmp_path / "ply4.svg"
    game = "corpus/faults/illegal-moves.pdn"
    result = CliRunner().invoke(main, ["show", game, "--ply", "4", "--svg", str(target)])
    assert result.exit_code == 0, result.output
    assert "ply 4 of 10" in result.stdout  # the text board is still printed
    diagram = read_diagram(target.read_text(encoding="utf-8"))
    first = next(iter(pdn_tools.validate(game)))
    board = first.node_at(4).board()
    assert diagram.title == board.fen()
    assert {s: p[0] for s, p in diagram.pieces.items()} == pieces_of_fen(board)
    move = board.move_stack[-1][0]
    assert [(c, p) for c, p, _ in diagram.arrows] == [("blue", move.paths[0])]
    assert diagram.highlights == {move.from_sq: "blue", move.to_sq: "blue"}
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left behind


def test_show_svg_to_stdout_flipped_algebraic(tmp_path: Path) -> None:
    record = tmp_path / "russian.pdn"
    record.write_text('[GameType "25"]\n1. c3-d4 f6-e5 *\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["show", str(record), "--ply", "1", "--svg", "-", "--flip"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<svg")  # only the diagram on stdout
    diagram = read_diagram(result.stdout)
    assert "c" in diagram.texts and "3" in diagram.texts  # as the game writes squares
    plain = read_diagram(board_svg(Board(variant="russian"), coordinates="algebraic"))
    assert diagram.squares[1] != plain.squares[1]
    numbered = CliRunner().invoke(
        main, ["show", str(record), "--svg", "-", "--coordinates", "numbers"]
    )
    assert "32" in read_diagram(numbered.stdout).texts


def test_show_svg_without_a_board_or_a_folder_exits_2(tmp_path: Path) -> None:
    record = tmp_path / "g.pdn"
    record.write_text('[GameType "20"]\n[FEN "W:Wxx"]\n1. 32-28 *\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["show", str(record), "--svg", str(tmp_path / "b.svg")])
    assert result.exit_code == 2 and "no board to draw" in result.stderr
    missing = tmp_path / "no" / "b.svg"
    result = CliRunner().invoke(
        main, ["show", "corpus/clean/club-evening.pdn", "--svg", str(missing)]
    )
    assert result.exit_code == 2 and f"cannot write {missing}" in result.stderr


# -- pdn show --png / --gif ----------------------------------------------------------------
def test_show_writes_a_png_and_a_gif(tmp_path: Path) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: the Cairo library is missing
        pytest.skip(f"the png extra (pip install 'pdn-tools[png]') and Cairo are needed: {exc}")
    from PIL import Image, ImageSequence

    from pdn_tools.report.svg import BLACK_PIECE, DARK, WHITE_PIECE

    png, gif = tmp_path / "b.png", tmp_path / "g.gif"
    game = "corpus/faults/illegal-moves.pdn"
    args = ["show", game, "--game", "4", "--ply", "3", "--png", str(png), "--gif", str(gif)]
    result = CliRunner().invoke(main, [*args, "--frame-ms", "250"])
    assert result.exit_code == 0, result.output
    picture = Image.open(png).convert("RGB")
    assert picture.size == (480, 480)  # the default size
    board = next(g for g in pdn_tools.validate(game) if g.index == 4).node_at(3).board()
    layout = layout_for(board.position.geometry.spec)
    seen = 0
    for square in range(1, 51):
        piece = board.piece_at(square)
        if piece is not None and piece[1]:
            continue  # a king: its crown is at the centre
        x, y = layout.centre(square)
        found = picture.getpixel((round(x * 0.96), round(y * 0.96)))
        assert isinstance(found, tuple)
        colour = DARK if piece is None else WHITE_PIECE if piece[0].value == "W" else BLACK_PIECE
        wanted = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
        if square in (42, 47):  # the squares of the move of ply 3, highlighted
            continue
        assert all(abs(a - b) <= 12 for a, b in zip(found, wanted, strict=True)), square
        seen += 1
    assert seen > 40
    frames = [
        (frame.info["duration"], frame.convert("RGB").tobytes())
        for frame in ImageSequence.Iterator(Image.open(gif))
    ]
    assert [duration for duration, _ in frames] == [250, 250, 250, 500]  # plies 0 to 3
    assert len({pixels for _, pixels in frames}) == 4  # each ply differs


def test_show_png_without_the_extra_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    target = tmp_path / "b.png"
    result = CliRunner().invoke(
        main, ["show", "corpus/clean/club-evening.pdn", "--png", str(target)]
    )
    assert result.exit_code == 2 and "pip install 'pdn-tools[png]'" in result.stderr
    assert not target.exists() and list(tmp_path.iterdir()) == []
