"""Square numbering and precomputed tables for a diagonal board of any even size.

Squares are the PDN numbers 1..N (rules.md §1).  Internally each square owns one bit of
a Python ``int``.  Bits are laid out row by row with one unused "ghost" bit after every
pair of rows, so that each diagonal direction is one constant shift (on 10x10: -6, -5,
+5, +6) and a shift never wraps from one edge to the other: whatever crosses an edge
lands on a ghost bit or outside the board and is cut by :attr:`Geometry.valid`.  This
lets the generator move all men at once with two shifts, while flying kings walk the
precomputed rays.

The tables are computed from a :class:`~pdn_tools.rules.variant.BoardSpec`, never
hard-coded, and cached per spec.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from pdn_tools.rules.frozen import freeze
from pdn_tools.rules.variant import BoardSpec

UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
"""Direction indices as seen by White; ``3 - d`` is the opposite of ``d``."""
DIRECTIONS: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
"""(row step, column step) of each direction; row 0 is the top (Black's side)."""


class Geometry:
    """Numbering and move tables of one board (built by :func:`geometry_for`)."""

    spec: BoardSpec
    size: int
    """Number of playing squares."""
    bit_of: tuple[int, ...]
    """``bit_of[square]`` is the bit index of square 1..N (index 0 unused)."""
    square_of: tuple[int, ...]
    """``square_of[bit]`` is the square of a bit index, 0 for ghost bits."""
    coords: tuple[tuple[int, int], ...]
    """``coords[square]`` is (row, column), row 0 at the top (index 0 unused)."""
    valid: int
    """Mask of all playing-square bits."""
    deltas: tuple[int, int, int, int]
    """Bit-index difference of one step in each direction."""
    step: tuple[tuple[int, ...], ...]
    """``step[bit][d]``: neighbouring bit in direction d, or -1 off the board (four
    directions; typed as a tuple of any length so that the compiled build indexes the
    stored tuple rather than building a new one for each look-up)."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """``rays[bit][d]``: bits from the square (exclusive) to the edge in direction d."""
    ray_masks: tuple[tuple[int, ...], ...]
    """``ray_masks[bit][d]``: the squares of ``rays[bit][d]`` as one mask."""
    ray_index: tuple[tuple[dict[int, int], ...], ...]
    """``ray_index[bit][d][b]``: position of bit *b* along ``rays[bit][d]``."""
    increasing: tuple[bool, bool, bool, bool]
    """Whether bit indices grow along each direction (then the nearest piece on a ray
    is its lowest set bit, else its highest)."""
    white_promotion: int
    """Mask of the top row, where White men are crowned."""
    black_promotion: int
    """Mask of the bottom row, where Black men are crowned."""
    row_masks: tuple[int, ...]
    """Mask of every row, top to bottom."""
    square_at: dict[tuple[int, int], int]
    """Square on (row, column), for playing squares only."""

    __slots__ = (
        "bit_of",
        "black_promotion",
        "coords",
        "deltas",
        "increasing",
        "ray_index",
        "ray_masks",
        "rays",
        "row_masks",
        "size",
        "spec",
        "square_at",
        "square_of",
        "step",
        "valid",
        "white_promotion",
    )

    def __init__(
        self,
        spec: BoardSpec,
        size: int,
        bit_of: tuple[int, ...],
        square_of: tuple[int, ...],
        coords: tuple[tuple[int, int], ...],
        valid: int,
        deltas: tuple[int, int, int, int],
        step: tuple[tuple[int, ...], ...],
        rays: tuple[tuple[tuple[int, ...], ...], ...],
        ray_masks: tuple[tuple[int, ...], ...],
        ray_index: tuple[tuple[dict[int, int], ...], ...],
        increasing: tuple[bool, bool, bool, bool],
        white_promotion: int,
        black_promotion: int,
        row_masks: tuple[int, ...],
        square_at: dict[tuple[int, int], int],
    ) -> None:
        self.spec = spec
        self.size = size
        self.bit_of = bit_of
        self.square_of = square_of
        self.coords = coords
        self.valid = valid
        self.deltas = deltas
        self.step = step
        self.rays = rays
        self.ray_masks = ray_masks
        self.ray_index = ray_index
        self.increasing = increasing
        self.white_promotion = white_promotion
        self.black_promotion = black_promotion
        self.row_masks = row_masks
        self.square_at = square_at

    def __reduce__(self) -> tuple[Any, ...]:
        # One geometry per board lives for the run (compared by identity): unpickle as it.
        return (geometry_for, (self.spec,))

    def __repr__(self) -> str:
        return f"Geometry({self.spec.width}x{self.spec.height})"

    def mask_of(self, squares: Iterable[int]) -> int:
        """Bitboard of the given squares."""
        mask = 0
        for square in squares:
            mask |= 1 << self.bit_of[square]
        return mask

    def squares(self, mask: int) -> list[int]:
        """Squares of a bitboard, ascending."""
        square_of = self.square_of
        out: list[int] = []
        while mask:
            low = mask & -mask
            out.append(square_of[low.bit_length() - 1])
            mask ^= low
        out.sort()
        return out

    def square_named(self, text: str) -> int | None:
        """The square number written as *text*: a PDN number (``22``, ``07``) or, on
        boards at most 8 wide, an algebraic square (``c3``, ``C3``; a1 = White's
        near-left corner, rules.md §1.3); None if it names no playing square."""
        if text.isdigit():
            number = int(text)
            return number if 1 <= number <= self.size else None
        if self.spec.width > 8 or len(text) < 2 or not text[1:].isdigit():
            return None
        col = ord(text[0].lower()) - ord("a")
        row = self.spec.height - int(text[1:])
        if not 0 <= col < self.spec.width:
            return None
        return self.square_at.get((row, col))

    def on_board(self, square: int) -> bool:
        """Whether *square* is a playing-square number of this board."""
        return 1 <= square <= self.size


freeze(Geometry)


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of *mask*, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _coordinates(spec: BoardSpec) -> list[tuple[int, int]]:
    """(row, column) of squares 1..N, numbered row by row from White's top-left."""
    if spec.all_squares:
        return [divmod(k, spec.width) for k in range(spec.squares)]
    per_row = spec.width // 2
    # On a standard board the bottom row (odd index, as height is even) starts with a
    # dark square, so odd rows use even columns; the turned board is the mirror case.
    odd_rows_start_dark = spec.dark_near_left
    coords = []
    for k in range(spec.squares):
        row, index = divmod(k, per_row)
        starts_dark = (row % 2 == 1) == odd_rows_start_dark
        coords.append((row, 2 * index if starts_dark else 2 * index + 1))
    return coords


def _layout(coords: list[tuple[int, int]], per_row: int) -> tuple[list[int], tuple[int, ...]]:
    """Choose a ghost-bit layout in which every direction is one constant shift."""
    by_coord = {rc: k for k, rc in enumerate(coords)}
    # A ghost bit after every pair of rows suits boards of dark squares; a board where
    # every square is played needs one after every row (the last layout tried).
    for phase in (0, 1, 2):
        if phase == 2:
            bits = [k + row for k, (row, _) in enumerate(coords)]
        else:
            bits = [k + (row + phase) // 2 for k, (row, _) in enumerate(coords)]
        deltas: list[set[int]] = [set() for _ in DIRECTIONS]
        valid_bits = set(bits)
        clean = True
        for k, (row, col) in enumerate(coords):
            for d, (dr, dc) in enumerate(DIRECTIONS):
                target = by_coord.get((row + dr, col + dc))
                if target is not None:
                    deltas[d].add(bits[target] - bits[k])
        if any(len(found) != 1 for found in deltas):
            continue
        shift = tuple(next(iter(found)) for found in deltas)
        # A step off the board must never land on another playing square.
        for k, (row, col) in enumerate(coords):
            for d, (dr, dc) in enumerate(DIRECTIONS):
                if (row + dr, col + dc) not in by_coord and bits[k] + shift[d] in valid_bits:
                    clean = False
        if clean:
            return bits, shift
    raise ValueError("no constant-shift bit layout for this board")  # pragma: no cover


@cache
def geometry_for(spec: BoardSpec) -> Geometry:
    """Build (once per board spec) the numbering and move tables."""
    coords = _coordinates(spec)
    per_row = spec.width // 2
    bits, shift = _layout(coords, per_row)
    top = max(bits) + 1
    square_of = [0] * top
    for k, bit in enumerate(bits):
        square_of[bit] = k + 1
    by_coord = {rc: bits[k] for k, rc in enumerate(coords)}
    step: list[tuple[int, ...]] = [(-1, -1, -1, -1)] * top
    rays: list[tuple[tuple[int, ...], ...]] = [((), (), (), ())] * top
    for k, (row, col) in enumerate(coords):
        neighbours = []
        square_rays = []
        for dr, dc in DIRECTIONS:
            neighbours.append(by_coord.get((row + dr, col + dc), -1))
            ray = []
            r, c = row + dr, col + dc
            while (r, c) in by_coord:
                ray.append(by_coord[(r, c)])
                r, c = r + dr, c + dc
            square_rays.append(tuple(ray))
        step[bits[k]] = tuple(neighbours)
        rays[bits[k]] = tuple(square_rays)
    row_masks = []
    for row in range(spec.height):
        mask = 0
        for k, (r, _) in enumerate(coords):
            if r == row:
                mask |= 1 << bits[k]
        row_masks.append(mask)
    valid = 0
    for bit in bits:
        valid |= 1 << bit
    return Geometry(
        spec=spec,
        size=spec.squares,
        bit_of=(0, *bits),
        square_of=tuple(square_of),
        coords=((-1, -1), *coords),
        valid=valid,
        deltas=(shift[0], shift[1], shift[2], shift[3]),
        step=tuple(step),
        rays=tuple(rays),
        white_promotion=row_masks[0],
        black_promotion=row_masks[-1],
        row_masks=tuple(row_masks),
        ray_masks=tuple(
            tuple(sum(1 << b for b in ray) for ray in square_rays) for square_rays in rays
        ),
        ray_index=tuple(
            tuple({b: i for i, b in enumerate(ray)} for ray in square_rays) for square_rays in rays
        ),
        increasing=(shift[0] > 0, shift[1] > 0, shift[2] > 0, shift[3] > 0),
        square_at={rc: k + 1 for k, rc in enumerate(coords)},
    )
