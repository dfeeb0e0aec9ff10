"""Board diagrams as SVG: any variant's board, its pieces, highlights and move arrows.

python-chess's ``chess.svg`` for draughts, with no dependency.  A diagram is drawn from
the engine's own geometry (:mod:`pdn_tools.rules.geometry`), so every board the engine
knows is drawn the same way: 10x10 and 8x8 boards of dark playing squares, Italian's
turned board (its near-left corner is light) and the orthogonal Turkish board on which
all 64 squares are played.  Square numbers (or algebraic coordinates) show where a
move such as 32-28 goes; the board can be turned so that Black sits at the bottom.

The picture is vector only: a ``viewBox`` in whole units (a square is
:data:`SQUARE` units wide) and no raster, so it stays crisp at any size; the
``<title>`` holds the FEN for screen readers and tooltips.

Pieces and capture marks are ``<use>`` references to shapes in :data:`DEFS`, and
colours are CSS classes (:data:`CSS`).  A standalone diagram (:func:`board_svg`)
carries both; the HTML report (:mod:`pdn_tools.report.html`) puts them in the page
once and draws its boards in the browser from :func:`board_frame` and the same
classes, so a board in the report and a board written by ``pdn show --svg`` look
alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import Literal

from pdn_tools.rules import Board, BoardSpec, Color, Move, Position, geometry_for, write_fen

Coordinates = Literal["numbers", "algebraic", "none"]
"""How squares are named on the diagram: PDN numbers in the corner of each playing
square, files and ranks in the margin, or nothing."""

COORDINATES: tuple[Coordinates, ...] = ("numbers", "algebraic", "none")
COLOURS: tuple[str, ...] = ("red", "green", "blue")
"""Colours of highlights, arrows and capture marks (CSS classes of :data:`CSS`)."""

SQUARE = 50
"""Width of one square in viewBox units."""
MARGIN = 18
"""Width of the margins that hold algebraic coordinates (left and bottom)."""
RADIUS = 19
"""Radius of a piece."""

_PIECE_IDS = {
    (Color.WHITE, False): "pdn-wm",
    (Color.WHITE, True): "pdn-wk",
    (Color.BLACK, False): "pdn-bm",
    (Color.BLACK, True): "pdn-bk",
}

PALETTE = {"red": "#d7261e", "green": "#1e9c3a", "blue": "#2f6fd0"}
"""The colour of each of :data:`COLOURS`."""

CSS = (
    ".pdn-board .l{fill:#efe2c6}"
    ".pdn-board .d{fill:#9c6b43}"
    ".pdn-board .t{fill:#e8d3a9;stroke:#7a5a36;stroke-width:1}"
    ".pdn-board .f{fill:none;stroke:#4a3520;stroke-width:2}"
    ".pdn-board text{font-family:sans-serif;font-weight:600}"
    ".pdn-board .n{font-size:10px;fill:#f6ead0}"
    ".pdn-board .nt{font-size:10px;fill:#6b4f2e}"
    ".pdn-board .c{font-size:12px;fill:#6b4f2e;text-anchor:middle}"
    ".pdn-board .hl{fill-opacity:.5}"
    ".pdn-board .arrow{fill:none;stroke-width:6;stroke-linecap:round;"
    "stroke-linejoin:round;stroke-opacity:.85}"
    ".pdn-board .arrow.red{stroke-width:9}"
    ".pdn-board .arrow.green{stroke-width:5}"
    ".pdn-board .x{fill:none;stroke-width:5;stroke-linecap:round}"
) + "".join(
    f".pdn-board .arrow.{name},.pdn-board .x.{name}{{stroke:{value}}}"
    f".pdn-board .hl.{name}{{fill:{value}}}"
    for name, value in PALETTE.items()
)
"""The diagram's colours, by class: ``l``/``d`` light and dark squares, ``t`` the
squares of a board where every square is played, ``n``/``nt``/``c`` square numbers
and margin coordinates, ``hl`` a highlighted square, ``arrow`` a move, ``x`` a
captured piece; ``red``, ``green``, ``blue`` colour the last three."""

WHITE_PIECE = "#fbf7ec"
BLACK_PIECE = "#262626"
CROWN = "#d9a621"
"""Fill colours of the pieces and of a king's crown (the pixel tests read them)."""

_CROWN_POINTS = "-11,7 -13,-6 -6,0 0,-10 6,0 13,-6 11,7"


def _piece(ident: str, fill: str, edge: str, ring: str, king: bool) -> str:
    crown = f'<polygon points="{_CROWN_POINTS}" fill="{CROWN}" stroke="{edge}"/>' if king else ""
    return (
        f'<g id="{ident}"><circle r="{RADIUS}" fill="{fill}" stroke="{edge}" stroke-width="2"/>'
        f'<circle r="{RADIUS - 6}" fill="none" stroke="{ring}" stroke-width="1.5"/>{crown}</g>'
    )


def _head(colour: str) -> str:
    # The tip of the head lies on the end of the line: the arrow points at the
    # centre of its target square.
    return (
        f'<marker id="pdn-head-{colour}" viewBox="0 0 10 10" refX="7" '
        'refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse">'
        f'<path d="M0,0L10,5L0,10z" fill="{PALETTE[colour]}"/></marker>'
    )


DEFS = (
    _piece("pdn-wm", WHITE_PIECE, "#3a3a3a", "#b9b2a0", king=False)
    + _piece("pdn-wk", WHITE_PIECE, "#3a3a3a", "#b9b2a0", king=True)
    + _piece("pdn-bm", BLACK_PIECE, "#000", "#5c5c5c", king=False)
    + _piece("pdn-bk", BLACK_PIECE, "#000", "#5c5c5c", king=True)
    + '<path id="pdn-x" d="M-12,-12L12,12M12,-12L-12,12"/>'
    + "".join(_head(colour) for colour in COLOURS)
)
"""The shapes the diagrams refer to: the four pieces (centred on 0,0), the capture
mark and one arrow head per colour."""


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
    """The SVG elements of the empty board: squares, coordinates and the frame.

    Every playing square is a ``<rect>`` carrying its number as ``data-sq``.
    """
    spec = layout.spec
    side = spec.width * SQUARE
    tall = spec.height * SQUARE
    out: list[str] = []
    if not spec.all_squares:
        out.append(f'<rect class="l" x="{layout.left}" y="0" width="{side}" height="{tall}"/>')
    square_class = "t" if spec.all_squares else "d"
    number_class = "nt" if spec.all_squares else "n"
    numbers: list[str] = []
    for square in range(1, len(layout.cells)):
        x, y = layout.cells[square]
        out.append(
            f'<rect class="{square_class}" data-sq="{square}" x="{x}" y="{y}" '
            f'width="{SQUARE}" height="{SQUARE}"/>'
        )
        if layout.coordinates == "numbers":
            numbers.append(f'<text class="{number_class}" x="{x + 3}" y="{y + 11}">{square}</text>')
    out.extend(numbers)
    if layout.coordinates == "algebraic":
        out.extend(_algebraic(layout))
    out.append(f'<rect class="f" x="{layout.left}" y="0" width="{side}" height="{tall}"/>')
    return out


def _algebraic(layout: Layout) -> list[str]:
    """Files under the board and ranks left of it (a1 is White's near-left corner)."""
    spec = layout.spec
    out = []
    for col in range(spec.width):
        shown = spec.width - 1 - col if layout.flipped else col
        x = layout.left + shown * SQUARE + SQUARE // 2
        y = spec.height * SQUARE + MARGIN - 4
        out.append(f'<text class="c" x="{x}" y="{y}">{chr(ord("a") + col)}</text>')
    for rank in range(1, spec.height + 1):
        row = spec.height - rank
        shown = spec.height - 1 - row if layout.flipped else row
        y = shown * SQUARE + SQUARE // 2 + 4
        out.append(f'<text class="c" x="{MARGIN // 2}" y="{y}">{rank}</text>')
    return out


def highlight_elements(layout: Layout, highlights: Mapping[int, str]) -> list[str]:
    """A translucent square over each highlighted square, in its colour."""
    out = []
    for square, colour in sorted(highlights.items()):
        _check_colour(colour)
        x, y = layout.corner(square)
        out.append(
            f'<rect class="hl {colour}" data-sq="{square}" x="{x}" y="{y}" '
            f'width="{SQUARE}" height="{SQUARE}"/>'
        )
    return out


def piece_elements(layout: Layout, pieces: Iterable[tuple[int, Color, bool]]) -> list[str]:
    """One ``<use>`` of a piece shape per (square, colour, is king), at the square's
    centre."""
    out = []
    for square, colour, king in pieces:
        x, y = layout.centre(square)
        ident = _PIECE_IDS[(colour, king)]
        out.append(f'<use href="#{ident}" data-sq="{square}" x="{x}" y="{y}"/>')
    return out


LANE = 6
"""How far (viewBox units) two arrows between the same two squares are drawn apart."""


def arrow_points(layout: Layout, arrows: Sequence[Arrow]) -> list[list[tuple[int, int]]]:
    """The points of each arrow: the centres of its squares, except that arrows joining
    the same two squares (a move and its reverse, as for "from and to swapped") are
    each moved :data:`LANE` units to their left, so that both stay visible."""
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


def arrow_elements(layout: Layout, arrows: Sequence[Arrow]) -> list[str]:
    """Capture marks over the captured pieces, then a line with a head along each
    route."""
    out = []
    for arrow in arrows:
        for square in arrow.captures:
            x, y = layout.centre(square)
            out.append(
                f'<use class="x {arrow.colour}" href="#pdn-x" data-sq="{square}" x="{x}" y="{y}"/>'
            )
    for arrow, points in zip(arrows, arrow_points(layout, arrows), strict=True):
        shown = " ".join(f"{x},{y}" for x, y in points)
        out.append(
            f'<polyline class="arrow {arrow.colour}" data-path="{"-".join(map(str, arrow.path))}" '
            f'points="{shown}" marker-end="url(#pdn-head-{arrow.colour})"/>'
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
    the bottom.  *size* sets the width in pixels (the height follows); without it
    the picture fills whatever box it is put in.  The ``<title>`` is *title*, by
    default the FEN; *description* becomes a ``<desc>``.

    >>> svg = board_svg(Board.from_fen("W:W28:B23"), arrows=[Arrow((28, 19), "red", (23,))])
    >>> svg.count('<use href="#pdn-'), 'data-path="28-19"' in svg
    (2, True)
    """
    position = board.position if isinstance(board, Board) else board
    layout = layout_for(position.geometry.spec, coordinates, flipped)
    name = title if title is not None else write_fen(position)
    dims = ""
    if size is not None:
        height = round(size * layout.height / layout.width)
        dims = f' width="{size}" height="{height}"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pdn-board" role="img" '
        f'viewBox="0 0 {layout.width} {layout.height}"{dims}>',
        f"<title>{escape(name)}</title>",
    ]
    if description:
        parts.append(f"<desc>{escape(description)}</desc>")
    parts.append(f"<defs><style>{CSS}</style>{DEFS}</defs>")
    parts.append('<g shape-rendering="crispEdges">')
    parts.extend(board_frame(layout))
    parts.append("</g>")
    parts.extend(highlight_elements(layout, highlights or {}))
    parts.extend(piece_elements(layout, pieces_of(position)))
    parts.extend(arrow_elements(layout, arrows))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
