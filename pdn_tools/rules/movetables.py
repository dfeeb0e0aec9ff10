"""Precomputed move tables of one rules description (built once per variant).

The generator hands out one-piece moves -- every quiet move and every one-jump capture
by a man -- from these tables instead of building them: such a move is fully determined
by its from and to squares, and :class:`~pdn_tools.rules.move.Move` objects are
immutable, so the same object can serve every position.  Moves are keyed by an integer
*code* that sorts by (from, to), so a list of codes sorted as integers gives the moves in
the engine's order.

Also here: per side, the directions in which men step and capture, split into
left-shift and right-shift amounts of the bit layout, so the hot loops need no sign
tests.
"""

from __future__ import annotations

from typing import Any, final

from pdn_tools.rules.frozen import freeze
from pdn_tools.rules.geometry import DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT, Geometry
from pdn_tools.rules.move import NO_CAPTURES, Move
from pdn_tools.rules.variant import KingRange, Variant

CHUNK = 11
"""Target bits turned into move codes per table lookup."""
CHUNK_MASK = (1 << CHUNK) - 1

Shifts = tuple[tuple[int, ...], tuple[int, ...]]
"""(left-shift amounts, right-shift amounts) for a set of directions."""


@final
class ChunkCodes:
    """The codes of the men steps that land in one run of :data:`CHUNK` target bits,
    by the value the run reads.

    Each entry is made the first time its value is met: made whole up front, the
    tables of the international board cost 10-20 ms each time a program started,
    for entries that most games never read.
    """

    singles: tuple[int, ...]
    """Per bit of the run: the code of the step landing there, or -1 where none does."""
    by_value: list[tuple[int, ...] | None]
    """Per value of the run: the codes of its bits in ascending order (None: not yet
    met); read directly by the generator, filled by :meth:`codes`."""

    def __init__(self, singles: tuple[int, ...]) -> None:
        self.singles = singles
        self.by_value = [None] * (1 << CHUNK)

    def codes(self, value: int) -> tuple[int, ...]:
        """The codes of the steps landing on the bits of *value*, ascending."""
        known = self.by_value[value]
        if known is None:
            known = tuple(
                code for bit, code in enumerate(self.singles) if value >> bit & 1 and code >= 0
            )
            self.by_value[value] = known
        return known


ChunkTables = tuple[tuple[int, bool, tuple[ChunkCodes, ...]], ...]
"""Per step direction: (shift, is left shift, the :class:`ChunkCodes` of each run of
target bits, lowest first)."""


@final
class KingMoves:
    """The quiet moves of kings, made square by square the first time a king stands
    there.

    A flying king's moves are most of the quiet moves of the international board
    (570 of them, against 90 steps of each side's men), and many games, and every
    position before the first crowning, never need them: made all at once they were
    about a third of what a process paid to set up the 10x10 generator.  The moves
    are alike for both sides, so one object serves both: :meth:`make` puts it into
    both sides' quiet tables, by the same code as the men's steps.
    """

    made: list[bool]
    """Per bit: whether the moves from that square are in the tables yet; read
    directly by the generator before it looks a king's move up."""
    with_between: dict[int, tuple[Move, int]]
    """Per ``code >> 1`` of every king move made: the move and the mask of the
    squares it passes over (what a one-move look-up checks for blockers)."""

    def __init__(
        self,
        square_of: tuple[int, ...],
        reach: tuple[tuple[tuple[int, ...], ...], ...],
        code_bits: int,
        quiet: tuple[dict[int, Move], ...],
    ) -> None:
        self.square_of = square_of
        self.reach = reach
        self.code_bits = code_bits
        self.quiet = quiet
        self.made = [False] * len(reach)
        self.with_between = {}

    def make(self, frm: int) -> None:
        """Add the moves of a king on bit *frm* to both sides' quiet tables."""
        sq = self.square_of
        bits = self.code_bits
        white, black = self.quiet[0], self.quiet[1]
        with_between = self.with_between
        for ray in self.reach[frm]:
            between = 0
            for to in ray:
                code = move_code(frm, to, True, bits)
                move = Move(
                    sq[frm], sq[to], NO_CAPTURES, ((sq[frm], sq[to]),), False,
                    1 << frm, 1 << to, 0,
                )  # fmt: skip
                white[code] = move
                black[code] = move
                with_between[code >> 1] = (move, between)
                between |= 1 << to
        self.made[frm] = True  # last: the tables are whole before anyone skips this


class MoveTables:
    """Everything :class:`~pdn_tools.rules.movegen.Generator` precomputes.

    Tuples indexed by side hold White's entry first, Black's second.  They are typed
    as tuples of any length (``tuple[X, ...]``), not pairs: the compiled build keeps a
    pair unboxed and has to build a new tuple object each time one is indexed by a
    side only known at run time, which the generator does on every call.
    """

    code_bits: int
    man_capture_dirs: tuple[tuple[int, ...], ...]
    step_shifts: tuple[Shifts, ...]
    capture_shifts: tuple[Shifts, ...]
    king_reach: tuple[tuple[tuple[int, ...], ...], ...]
    """``king_reach[bit][d]``: bits a king may move to along a ray with nothing in the
    way (the whole ray for flying kings, its first square for short kings)."""
    king_reach_masks: tuple[tuple[int, ...], ...]
    king_codes: tuple[tuple[tuple[int, ...], ...], ...]
    """Move codes of ``king_reach``."""
    quiet: tuple[dict[int, Move], ...]
    """The quiet moves of each side by code: every step of its men from the start,
    the moves of a king from a square once :attr:`kings` has made them (the same
    objects in both sides' tables)."""
    kings: KingMoves
    """Makes the king moves of :attr:`quiet` square by square, as they are needed."""
    step_chunks: tuple[ChunkTables, ...]
    """Men steps: target masks to codes, :data:`CHUNK` bits at a time."""
    jumps: tuple[dict[int, Move], ...]
    """Every one-jump capture by a man of each side by code."""

    __slots__ = (
        "capture_shifts",
        "code_bits",
        "jumps",
        "king_codes",
        "king_reach",
        "king_reach_masks",
        "kings",
        "man_capture_dirs",
        "quiet",
        "step_chunks",
        "step_shifts",
    )

    def __init__(
        self,
        code_bits: int,
        man_capture_dirs: tuple[tuple[int, ...], ...],
        step_shifts: tuple[Shifts, ...],
        capture_shifts: tuple[Shifts, ...],
        king_reach: tuple[tuple[tuple[int, ...], ...], ...],
        king_reach_masks: tuple[tuple[int, ...], ...],
        king_codes: tuple[tuple[tuple[int, ...], ...], ...],
        quiet: tuple[dict[int, Move], ...],
        kings: KingMoves,
        step_chunks: tuple[ChunkTables, ...],
        jumps: tuple[dict[int, Move], ...],
    ) -> None:
        self.code_bits = code_bits
        self.man_capture_dirs = man_capture_dirs
        self.step_shifts = step_shifts
        self.capture_shifts = capture_shifts
        self.king_reach = king_reach
        self.king_reach_masks = king_reach_masks
        self.king_codes = king_codes
        self.quiet = quiet
        self.kings = kings
        self.step_chunks = step_chunks
        self.jumps = jumps

    def __repr__(self) -> str:
        return (
            f"MoveTables(code_bits={self.code_bits!r}, "
            f"man_capture_dirs={self.man_capture_dirs!r}, "
            f"step_shifts={self.step_shifts!r}, "
            f"capture_shifts={self.capture_shifts!r}, "
            f"king_reach={self.king_reach!r}, "
            f"king_reach_masks={self.king_reach_masks!r}, "
            f"king_codes={self.king_codes!r}, "
            f"quiet={self.quiet!r}, "
            f"kings={self.kings!r}, "
            f"step_chunks={self.step_chunks!r}, "
            f"jumps={self.jumps!r})"
        )

    def __reduce__(self) -> tuple[type[MoveTables], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            MoveTables,
            (
                self.code_bits,
                self.man_capture_dirs,
                self.step_shifts,
                self.capture_shifts,
                self.king_reach,
                self.king_reach_masks,
                self.king_codes,
                self.quiet,
                self.kings,
                self.step_chunks,
                self.jumps,
            ),
        )


freeze(MoveTables)


def move_code(frm: int, to: int, king: bool, code_bits: int) -> int:
    """Sortable key of a one-piece move: by from bit, then to bit (bits follow squares)."""
    return (((frm << code_bits) | to) << 1) | king


def _split(deltas: tuple[int, ...]) -> Shifts:
    """Split signed bit distances into left-shift and right-shift amounts."""
    return tuple(d for d in deltas if d > 0), tuple(-d for d in deltas if d < 0)


def tables_for(variant: Variant, geo: Geometry) -> MoveTables:
    """Build the move tables of *variant* on its board *geo* (a few milliseconds on
    10x10, once per process: the generator that owns them is built once per variant)."""
    flying = variant.king_range is KingRange.FLYING
    back = variant.men_capture_backward
    up = (UP_LEFT, UP_RIGHT)
    down = (DOWN_LEFT, DOWN_RIGHT)
    d = geo.deltas
    man_capture_dirs = (up + (down if back else ()), down + (up if back else ()))
    step_shifts = (_split((d[UP_LEFT], d[UP_RIGHT])), _split((d[DOWN_LEFT], d[DOWN_RIGHT])))
    capture_shifts = (
        _split(tuple(d[x] for x in man_capture_dirs[0])),
        _split(tuple(d[x] for x in man_capture_dirs[1])),
    )
    code_bits = len(geo.square_of).bit_length()
    reach = tuple(
        tuple(ray if flying else ray[:1] for ray in square_rays) for square_rays in geo.rays
    )
    steps = (_men_steps(geo, 0, code_bits), _men_steps(geo, 1, code_bits))
    return MoveTables(
        code_bits=code_bits,
        man_capture_dirs=man_capture_dirs,
        step_shifts=step_shifts,
        capture_shifts=capture_shifts,
        king_reach=reach,
        king_reach_masks=tuple(tuple(sum(1 << b for b in ray) for ray in rays) for rays in reach),
        king_codes=tuple(
            tuple(tuple(move_code(frm, to, True, code_bits) for to in ray) for ray in rays)
            for frm, rays in enumerate(reach)
        ),
        quiet=steps,
        kings=KingMoves(geo.square_of, reach, code_bits, steps),
        step_chunks=(
            _step_chunks(geo, step_shifts[0], code_bits),
            _step_chunks(geo, step_shifts[1], code_bits),
        ),
        jumps=(
            _jumps(geo, 0, man_capture_dirs[0], code_bits),
            _jumps(geo, 1, man_capture_dirs[1], code_bits),
        ),
    )


def _promotion_row(geo: Geometry, side: int) -> int:
    return geo.white_promotion if side == 0 else geo.black_promotion


def _men_steps(geo: Geometry, side: int, code_bits: int) -> dict[int, Move]:
    """Every possible step forward of a man of *side*."""
    sq = geo.square_of
    promo_row = _promotion_row(geo, side)
    forward = (UP_LEFT, UP_RIGHT) if side == 0 else (DOWN_LEFT, DOWN_RIGHT)
    table: dict[int, Move] = {}
    for frm, neighbours in enumerate(geo.step):
        if not sq[frm]:
            continue
        for d in forward:
            to = neighbours[d]
            if to >= 0:
                table[move_code(frm, to, False, code_bits)] = Move(
                    sq[frm], sq[to], NO_CAPTURES, ((sq[frm], sq[to]),),
                    bool((1 << to) & promo_row), 1 << frm, 1 << to, 0,
                )  # fmt: skip
    return table


def _step_chunks(geo: Geometry, shifts: Shifts, code_bits: int) -> ChunkTables:
    """Codes of men steps, looked up :data:`CHUNK` target bits at a time.

    Turning a target mask into codes bit by bit costs a Python loop turn per move; by
    chunks it costs one per chunk.  Entry v of a chunk's table lists the codes of v's
    bits in ascending order (see :class:`ChunkCodes`).
    """
    left, right = shifts
    size = len(geo.square_of)
    out = []
    for amounts, is_left in ((left, True), (right, False)):
        for n in amounts:
            tables = []
            for base in range(0, size, CHUNK):
                singles = []
                for to in range(base, base + CHUNK):
                    frm = to - n if is_left else to + n
                    if to < size and geo.square_of[to] and 0 <= frm < size and geo.square_of[frm]:
                        singles.append(move_code(frm, to, False, code_bits))
                    else:
                        singles.append(-1)
                tables.append(ChunkCodes(tuple(singles)))
            out.append((n, is_left, tuple(tables)))
    return tuple(out)


def _jumps(
    geo: Geometry, side: int, directions: tuple[int, ...], code_bits: int
) -> dict[int, Move]:
    """Every possible capture by a man of *side* that takes one piece and stops."""
    sq = geo.square_of
    promo_row = _promotion_row(geo, side)
    table: dict[int, Move] = {}
    for frm, neighbours in enumerate(geo.step):
        if not sq[frm]:
            continue
        for d in directions:
            victim = neighbours[d]
            to = geo.step[victim][d] if victim >= 0 else -1
            if to >= 0:
                table[move_code(frm, to, False, code_bits)] = Move(
                    sq[frm], sq[to], frozenset((sq[victim],)), ((sq[frm], sq[to]),),
                    bool((1 << to) & promo_row), 1 << frm, 1 << to, 1 << victim,
                )  # fmt: skip
    return table
