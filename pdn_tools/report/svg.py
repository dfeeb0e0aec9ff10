"""Board diagrams as SVG: any variant's board, its pieces, highlights and move arrows.

python-chess's ``chess.svg`` for draughts, with no dependency.  A diagram is drawn from
the engine's own geometry (:mod:`pdn_tools.rules.geometry`), so every board the engine
knows is drawn the same way: 10x10 and 8x8 boards of dark playing squares, Italian's
turned board (its near-left corner is light) and the orthogonal Turkish board on which
all 64 squares are played.  Square numbers (or algebraic coordinates) show where a
move such as 32-28 goes; the board can be turned so that Black sits at the bottom.

The picture renders the same everywhere SVG is read: in browsers, in librsvg
(``rsvg-convert``, Inkscape, GNOME), in ImageMagick's own renderer, in LaTeX and
office imports.  So every element carries its colours as presentation attributes
(``fill``, ``stroke``): there is no ``<style>``, no CSS class that decides a colour, no
``<use>``, no ``<marker>`` and no ``transform``, which some of those renderers ignore;
a piece is its circles, an arrow head is a triangle computed here.  Text names a list
of fonts ending in the generic ``sans-serif``.  Square numbers are drawn last, over the
pieces, with a halo in the square's colour, so that they stay legible at the default
size (:data:`PIXELS_PER_SQUARE` pixels a square, 384 px for an 8x8 board and 480 px
for 10x10, as python-chess's 390 px for chess).

The ``viewBox`` is in whole units (a square is :data:`SQUARE` units wide), so the
diagram stays crisp at any size; the ``<title>`` holds the FEN for screen readers and
tooltips.  The HTML report (:mod:`pdn_tools.report.html`) draws its boards in the
browser from :func:`board_frame` and the numbers of :func:`page_style`, with the
elements :func:`board_svg` writes, so a board in the report and one written by
``pdn show --svg`` look alike (the browser tests compare them element by element).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pdn_tools.rules import Board, BoardSpec, Color, Move, Position, geometry_for, write_fen

Coordinates = Literal["numbers", "algebraic", "none"]
"""How squares are named on the diagram: PDN numbers in the corner of each playing
square, files and ranks in the margin, or nothing."""

COORDINATES: tuple[Coordinates, ...] = ("numbers", "algebraic", "none")
COLOURS: tuple[str, ...] = ("red", "green", "blue")
"""Colours of highlights, arrows and capture marks."""

SQUARE = 50
"""Width of one square in viewBox units."""
MARGIN = 22
"""Width of the margins that hold algebraic coordinates (left and bottom)."""
RADIUS = 19
"""Radius of a piece."""
PIXELS_PER_SQUARE = 48
"""Default size of a square in pixels (the ``width`` of a diagram follows from it)."""
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
"""The fonts of numbers and coordinates, the generic family last."""
NUMBER_SIZE = 14
"""Font size of the square numbers, in viewBox units (about 13 px at the default size)."""

PALETTE = {"red": "#d7261e", "green": "#12813a", "blue": "#2f6fd0"}
"""The colour of each of :data:`COLOURS`."""
LIGHT = "#efe2c6"
DARK = "#9c6b43"
TURKISH = "#e8d3a9"
"""Colours of the light squares, the dark playing squares and the squares of a board
on which every square is played."""
WHITE_PIECE = "#fbf7ec"
BLACK_PIECE = "#262626"
CROWN = "#d9a621"
"""Fill colours of the pieces and of a king's crown (the pixel tests read them)."""
_EDGE = {"w": "#3a3a3a", "b": "#000000"}
_RING = {"w": "#b9b2a0", "b": "#5c5c5c"}
_FILL = {"w": WHITE_PIECE, "b": BLACK_PIECE}
_NUMBER = {"d": ("#fff8e6", "#4a2f18"), "t": ("#3d2a14", "#f4e7cc")}
"""Fill and halo of the square numbers on dark squares (``d``) and on the squares of an
all-squares board (``t``)."""
_COORDINATE = "#5a4128"
_GRID = "#8a6a44"
_FRAME = "#4a3520"

ARROWS: dict[str, tuple[int, str | None, float]] = {
    "red": (9, None, 0.85),
    "green": (6, "12 7", 0.95),
    "blue": (7, None, 0.85),
}
"""Stroke width, dash pattern and opacity of each arrow colour: the move as recorded
(red) is a wide solid line, the repair or alternative (green) a narrower dashed one,
so that the two stay apart even where they overlap."""
HEAD = (20, 12)
"""Length and half width of an arrow head (a triangle whose tip is the target's centre)."""
LANE = 8
"""How far (viewBox units) two arrows between the same two squares are drawn apart."""
HIGHLIGHT_OPACITY = 0.5
MARK_WIDTH = 5

_PIECE_LETTERS = {
    (Color.WHITE, False): "w",
    (Color.WHITE, True): "W",
    (Color.BLACK, False): "b",
    (Color.BLACK, True): "B",
}
_CROWN_POINTS = ((-11, 7), (-13, -6), (-6, 0), (0, -10), (6, 0), (13, -6), (11, 7))


def page_style() -> dict[str, Any]:
    """Every number and colour the HTML report's script needs to draw a board as
    :func:`board_svg` does (it is put into the page as data)."""
    return {
        "square": SQUARE,
        "radius": RADIUS,
        "palette": PALETTE,
        "fill": _FILL,
        "edge": _EDGE,
        "ring": _RING,
        "crown": CROWN,
        "crownPoints": _CROWN_POINTS,
        "arrows": ARROWS,
        "head": HEAD,
        "lane": LANE,
        "highlight": HIGHLIGHT_OPACITY,
        "mark": MARK_WIDTH,
    }


@dataclass(frozen=True, slots=True)
class Arrow:
    """A move drawn on the board: its route as squares (from, landing squares, to) and
    the pieces it captures, in one of :data:`COLOURS`."""

    path: tuple[int, ...]
    colour: str = "red"
    captures: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.path) < 2:
            raise ValueError("an arrow needs at least two squares")
        if self.colour not in COLOURS:
            raise ValueError(f"unknown colour {self.colour!r} (known: {', '.join(COLOURS)})")

    @classmethod
    def of_move(cls, move: Move, colour: str = "red") -> Arrow:
        """The arrow of an engine move: its first route and its captured pieces."""
        return cls(move.paths[0], colour, tuple(sorted(move.captures)))


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each square of a board sits in the picture (built by :func:`layout_for`)."""

    spec: BoardSpec
    coordinates: Coordinates
    flipped: bool
    left: int
    """Left margin (algebraic coordinates), in viewBox units."""
    width: int
    height: int
    cells: tuple[tuple[int, int], ...]
    """``cells[square]``: the top-left corner (x, y) of a playing square (index 0
    unused)."""

    def corner(self, square: int) -> tuple[int, int]:
        """Top-left corner of *square*."""
        return self.cells[square]

    def centre(self, square: int) -> tuple[int, int]:
        """Centre of *square* (where its piece and its arrows sit)."""
        x, y = self.cells[square]
        return x + SQUARE // 2, y + SQUARE // 2

    @property
    def key(self) -> str:
        """A name for this board drawing, e.g. ``10x10-numbers``,
        ``8x8-turned-algebraic-flipped``, ``8x8-all-numbers``."""
        spec = self.spec
        parts = [f"{spec.width}x{spec.height}"]
        if spec.all_squares:
            parts.append("all")
        elif not spec.dark_near_left:
            parts.append("turned")
        parts.append(self.coordinates)
        if self.flipped:
            parts.append("flipped")
        return "-".join(parts)

    def pixels(self) -> tuple[int, int]:
        """The default width and height in pixels (:data:`PIXELS_PER_SQUARE`)."""
        return (
            round(self.width * PIXELS_PER_SQUARE / SQUARE),
            round(self.height * PIXELS_PER_SQUARE / SQUARE),
        )


@cache
def layout_for(
    spec: BoardSpec, coordinates: Coordinates = "numbers", flipped: bool = False
) -> Layout:
    """The layout of a board (cached): White at the bottom, or Black when *flipped*."""
    if coordinates not in COORDINATES:
        raise ValueError(f"unknown coordinates {coordinates!r} (known: {', '.join(COORDINATES)})")
    geo = geometry_for(spec)
    margin = MARGIN if coordinates == "algebraic" else 0
    cells = [(0, 0)]
    for square in range(1, geo.size + 1):
        row, col = geo.coords[square]
        if flipped:
            row, col = spec.height - 1 - row, spec.width - 1 - col
        cells.append((margin + col * SQUARE, row * SQUARE))
    return Layout(
        spec=spec,
        coordinates=coordinates,
        flipped=flipped,
        left=margin,
        width=margin + spec.width * SQUARE,
        height=spec.height * SQUARE + margin,
        cells=tuple(cells),
    )


def board_frame(layout: Layout) -> list[str]:
    """The SVG elements of the empty board: the light background and the playing
    squares (each a ``<rect>`` carrying its number as ``data-sq``, in a group that
    gives them their colour)."""
    spec = layout.spec
    side = spec.width * SQUARE
    tall = spec.height * SQUARE
    out: list[str] = []
    if not spec.all_squares:
        out.append(f'<rect x="{layout.left}" y="0" width="{side}" height="{tall}" fill="{LIGHT}"/>')
    out.append(f'<g fill="{TURKISH if spec.all_squares else DARK}" shape-rendering="crispEdges">')
    for square in range(1, len(layout.cells)):
        x, y = layout.cells[square]
        out.append(f'<rect data-sq="{square}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>')
    out.append("</g>")
    if spec.all_squares:
        # The lines between the squares, 2 units wide: a thinner stroke on the cell
        # edges is placed differently by each renderer.
        lines = [f"M{layout.left + k * SQUARE},0V{tall}" for k in range(1, spec.width)]
        lines += [
            f"M{layout.left},{k * SQUARE}H{layout.left + side}" for k in range(1, spec.height)
        ]
        out.append(f'<path d="{"".join(lines)}" fill="none" stroke="{_GRID}" stroke-width="2"/>')
    return out


def board_labels(layout: Layout) -> list[str]:
    """What is drawn over the pieces: square numbers (each over a halo of its square's
    colour, so that a piece never hides it) or the algebraic coordinates in the
    margin, and the board's edge.  The texts take their font and colours from the
    groups around them."""
    spec = layout.spec
    out: list[str] = []
    if layout.coordinates == "numbers":
        fill, halo = _NUMBER["t" if spec.all_squares else "d"]
        places = [(square, *layout.cells[square]) for square in range(1, len(layout.cells))]
        out.append(
            f'<g font-family="{FONT}" font-size="{NUMBER_SIZE}" font-weight="bold">'
            f'<g fill="none" stroke="{halo}" stroke-width="3" stroke-linejoin="round" '
            'stroke-opacity="0.85">'
        )
        out.extend(f'<text x="{x + 3}" y="{y + 14}">{square}</text>' for square, x, y in places)
        out.append(f'</g><g fill="{fill}">')
        out.extend(
            f'<text data-sq="{square}" x="{x + 3}" y="{y + 14}">{square}</text>'
            for square, x, y in places
        )
        out.append("</g></g>")
    elif layout.coordinates == "algebraic":
        out.extend(_algebraic(layout))
    side = spec.width * SQUARE
    tall = spec.height * SQUARE
    out.append(
        f'<rect x="{layout.left}" y="0" width="{side}" height="{tall}" fill="none" '
        f'stroke="{_FRAME}" stroke-width="2"/>'
    )
    return out


def _algebraic(layout: Layout) -> list[str]:
    """Files under the board and ranks left of it (a1 is White's near-left corner)."""
    spec = layout.spec
    out = [
        f'<g font-family="{FONT}" font-size="15" font-weight="bold" fill="{_COORDINATE}" '
        'text-anchor="middle">'
    ]
    for col in range(spec.width):
        shown = spec.width - 1 - col if layout.flipped else col
        x = layout.left + shown * SQUARE + SQUARE // 2
        y = spec.height * SQUARE + MARGIN - 5
        out.append(f'<text x="{x}" y="{y}">{chr(ord("a") + col)}</text>')
    for rank in range(1, spec.height + 1):
        row = spec.height - rank
        shown = spec.height - 1 - row if layout.flipped else row
        y = shown * SQUARE + SQUARE // 2 + 5
        out.append(f'<text x="{MARGIN // 2}" y="{y}">{rank}</text>')
    out.append("</g>")
    return out


def highlight_elements(layout: Layout, highlights: Mapping[int, str]) -> list[str]:
    """A translucent square over each highlighted square, in its colour."""
    out = []
    for square, colour in sorted(highlights.items()):
        _check_colour(colour)
        x, y = layout.corner(square)
        out.append(
            f'<rect class="hl {colour}" data-sq="{square}" x="{x}" y="{y}" '
            f'width="{SQUARE}" height="{SQUARE}" fill="{PALETTE[colour]}" '
            f'fill-opacity="{HIGHLIGHT_OPACITY}"/>'
        )
    return out


def piece_element(x: int, y: int, letter: str) -> str:
    """One piece (``w`` ``W`` ``b`` ``B``) centred on (x, y): a disc, an inner ring
    and, for a king, a crown."""
    side = letter.lower()
    parts = [
        f'<g data-piece="{letter}">',
        f'<circle cx="{x}" cy="{y}" r="{RADIUS}" fill="{_FILL[side]}" stroke="{_EDGE[side]}" '
        'stroke-width="2"/>',
        f'<circle cx="{x}" cy="{y}" r="{RADIUS - 6}" fill="none" stroke="{_RING[side]}" '
        'stroke-width="1.5"/>',
    ]
    if letter.isupper():
        points = " ".join(f"{x + dx},{y + dy}" for dx, dy in _CROWN_POINTS)
        parts.append(f'<polygon points="{points}" fill="{CROWN}" stroke="{_EDGE[side]}"/>')
    parts.append("</g>")
    return "".join(parts)


def piece_elements(layout: Layout, pieces: Iterable[tuple[int, Color, bool]]) -> list[str]:
    """One piece per (square, colour, is king), at the square's centre."""
    out = []
    for square, colour, king in pieces:
        x, y = layout.centre(square)
        element = piece_element(x, y, _PIECE_LETTERS[(colour, king)])
        out.append(element.replace("<g ", f'<g data-sq="{square}" ', 1))
    return out


def arrow_points(layout: Layout, arrows: Sequence[Arrow]) -> list[list[tuple[int, int]]]:
    """The points of each arrow's route: the centres of its squares, except that arrows
    joining the same two squares (a move and its reverse, as for "from and to
    swapped") are each moved :data:`LANE` units to their left, so that both stay
    visible."""
    ends = [frozenset((arrow.path[0], arrow.path[-1])) for arrow in arrows]
    out = []
    for n, arrow in enumerate(arrows):
        points = [layout.centre(square) for square in arrow.path]
        if ends.count(ends[n]) > 1:
            (x1, y1), (x2, y2) = points[0], points[-1]
            length = math.hypot(x2 - x1, y2 - y1)
            if length:
                # Left of the direction (dx, dy), y pointing down: (dy, -dx).
                dx, dy = LANE * (y2 - y1) / length, -LANE * (x2 - x1) / length
                points = [(_round(x + dx), _round(y + dy)) for x, y in points]
        out.append(points)
    return out


def _round(value: float) -> int:
    """Half up, as the page script's ``Math.round``."""
    return math.floor(value + 0.5)


Points = list[tuple[int, int]]


def arrow_shape(points: Points) -> tuple[Points, Points]:
    """The line and the head of an arrow along *points*: the line stops where the head
    begins, and the head is a triangle whose tip is the last point."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    long, half = HEAD
    bx, by = x2 - long * ux, y2 - long * uy
    # The line ends a little inside the head, so that no gap shows between them.
    line = [*points[:-1], (_round(bx + 2 * ux), _round(by + 2 * uy))]
    head = [
        (x2, y2),
        (_round(bx - half * uy), _round(by + half * ux)),
        (_round(bx + half * uy), _round(by - half * ux)),
    ]
    return line, head


def _pairs(points: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def arrow_elements(layout: Layout, arrows: Sequence[Arrow]) -> list[str]:
    """Capture marks over the captured pieces, then each arrow: a line along the
    route and a triangular head (see :data:`ARROWS` for how the colours differ)."""
    out = []
    for arrow in arrows:
        colour = PALETTE[arrow.colour]
        for square in arrow.captures:
            x, y = layout.centre(square)
            out.append(
                f'<path class="x {arrow.colour}" data-sq="{square}" '
                f'd="M{x - 12},{y - 12}L{x + 12},{y + 12}M{x + 12},{y - 12}L{x - 12},{y + 12}" '
                f'fill="none" stroke="{colour}" stroke-width="{MARK_WIDTH}" '
                'stroke-linecap="round"/>'
            )
    for arrow, points in zip(arrows, arrow_points(layout, arrows), strict=True):
        width, dash, opacity = ARROWS[arrow.colour]
        colour = PALETTE[arrow.colour]
        line, head = arrow_shape(points)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<g class="arrow {arrow.colour}" data-path="{"-".join(map(str, arrow.path))}" '
            f'data-points="{_pairs(points)}" opacity="{opacity}">'
            f'<polyline points="{_pairs(line)}" fill="none" stroke="{colour}" '
            f'stroke-width="{width}" stroke-linecap="butt" stroke-linejoin="round"{dashes}/>'
            f'<polygon points="{_pairs(head)}" fill="{colour}"/></g>'
        )
    return out


def pieces_of(position: Position) -> list[tuple[int, Color, bool]]:
    """(square, colour, is king) of every piece of *position*, by square."""
    out = []
    for square in range(1, position.geometry.size + 1):
        piece = position.piece_at(square)
        if piece is not None:
            out.append((square, piece[0], piece[1]))
    return out


def _check_colour(colour: str) -> None:
    if colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r} (known: {', '.join(COLOURS)})")


def board_svg(
    board: Board | Position,
    *,
    arrows: Sequence[Arrow] = (),
    highlights: Mapping[int, str] | None = None,
    coordinates: Coordinates = "numbers",
    flipped: bool = False,
    size: int | None = None,
    title: str | None = None,
    description: str | None = None,
) -> str:
    """The diagram of *board* as a standalone SVG document.

    *arrows* draw moves (:meth:`Arrow.of_move` for an engine move), with a cross over
    each captured piece; *highlights* colour squares (square -> colour); *coordinates*
    names the squares (``numbers``, ``algebraic``, ``none``); *flipped* puts Black at
    the bottom.  *size* sets the width in pixels (the height follows); by default a
    square is :data:`PIXELS_PER_SQUARE` pixels; ``size=0`` leaves width and height out,
    so that the picture fills whatever box it is put in.  The ``<title>`` is *title*,
    by default the FEN; *description* becomes a ``<desc>``.

    >>> svg = board_svg(Board.from_fen("W:W28:B23"), arrows=[Arrow((28, 19), "red", (23,))])
    >>> svg.count('data-piece="'), 'data-path="28-19"' in svg, "<style" in svg
    (2, True, False)
    """
    from html import escape  # here, not at the top: the reports import this module

    position = board.position if isinstance(board, Board) else board
    layout = layout_for(position.geometry.spec, coordinates, flipped)
    name = title if title is not None else write_fen(position)
    if size is None:
        width, height = layout.pixels()
        dims = f' width="{width}" height="{height}"'
    elif size:
        dims = f' width="{size}" height="{round(size * layout.height / layout.width)}"'
    else:
        dims = ""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pdn-board" role="img" '
        f'viewBox="0 0 {layout.width} {layout.height}"{dims}>',
        f"<title>{escape(name)}</title>",
    ]
    if description:
        parts.append(f"<desc>{escape(description)}</desc>")
    parts.extend(board_frame(layout))
    parts.extend(highlight_elements(layout, highlights or {}))
    parts.extend(piece_elements(layout, pieces_of(position)))
    parts.extend(arrow_elements(layout, arrows))
    parts.extend(board_labels(layout))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
