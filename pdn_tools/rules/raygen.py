"""Move generation by walking rays, for variants with orthogonal moves or captures.

Frisian and Turkish draughts (rules.md §4.6, §4.7) give their pieces directions the
diagonal bitboard engine of :mod:`.movegen` does not have.  Rather than bend that
engine (its shifts and tables are tuned for the four diagonals), a variant whose
:attr:`~pdn_tools.rules.variant.Variant.rays` is set gets a :class:`RayGenerator`:
for every square and every direction of the variant it precomputes the ray of squares
to the board's edge, and generates moves by walking those rays piece by piece.  The
tables are built from the board's (row, column) grid, so one generator serves any
direction set on any board, dark squares only (Frisian) or all 64 (Turkish).

It reads the same :class:`~pdn_tools.rules.variant.Variant` fields as the diagonal
engine (king range and landing, removal timing, promotion during a capture, majority
or free choice) plus the :class:`~pdn_tools.rules.rayrules.RayRules` extras: piece
values and the king-first tie-break for the capture choice, and the ban on turning 180
degrees within a capture.  Its public methods are those of
:class:`~pdn_tools.rules.movegen.Generator` (it is one, to callers), so
:func:`~pdn_tools.rules.generators.legal_moves`, perft and the replay need no change.

Also here: :class:`KingMoveLimit`, the Frisian rule on consecutive king moves, which
depends on the history of the game and so is kept by the replay, not by positions.
"""

from __future__ import annotations

from pdn_tools.rules.bits import popcount
from pdn_tools.rules.geometry import Geometry, geometry_for
from pdn_tools.rules.move import NO_CAPTURES, Move
from pdn_tools.rules.movegen import (
    BitPath,
    CaptureEntry,
    CaptureSearch,
    Generator,
    RawMove,
    capture_sort_key,
    sides,
)
from pdn_tools.rules.position import Position
from pdn_tools.rules.rayrules import RayRules, Step
from pdn_tools.rules.variant import (
    CaptureChoice,
    CapturePromotion,
    Color,
    KingLanding,
    KingRange,
    Removal,
    Variant,
)

_WHITE = Color.WHITE

Jump = tuple[int, int, int]
"""(direction index, victim bit, landing bit) of a man's short jump."""


def _mirror(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """Black's steps: White's turned top to bottom."""
    return tuple((-dr, dc) for dr, dc in steps)


class RayGenerator(Generator):
    """Legal moves of a variant with :attr:`Variant.rays` (get it from
    :func:`~pdn_tools.rules.generators.generator_for`).

    Same interface as the diagonal :class:`Generator`, but none of its bitboard
    shortcuts: every method walks the precomputed rays of the pieces of the side to
    move.  (The parent's initialiser is not run: its tables describe diagonals only.)
    """

    def __init__(self, variant: Variant) -> None:
        rules = variant.rays
        if rules is None:
            raise ValueError(f"variant {variant.name!r} has no ray rules")
        self.variant = variant
        self.rules: RayRules = rules
        geo = geometry_for(variant.board)
        self.geometry: Geometry = geo
        self.valid = geo.valid
        self.square_of = geo.square_of
        self.flying = variant.king_range is KingRange.FLYING
        self.land_first_only = (
            variant.king_landing is KingLanding.DIRECTLY_BEHIND or not self.flying
        )
        self.immediate = variant.removal is Removal.IMMEDIATE
        self.choose = variant.capture_choice is not CaptureChoice.FREE
        self.capture_promotion = variant.capture_promotion
        self.promotion_rows = (geo.white_promotion, geo.black_promotion)

        per_side = (
            (rules.man_steps, rules.man_captures, rules.king_steps, rules.king_captures),
            (
                _mirror(rules.man_steps),
                _mirror(rules.man_captures),
                _mirror(rules.king_steps),
                _mirror(rules.king_captures),
            ),
        )
        dirs: list[Step] = sorted({step for side in per_side for group in side for step in group})
        self.dirs: tuple[Step, ...] = tuple(dirs)
        index = {step: d for d, step in enumerate(dirs)}
        self.opposite: tuple[int, ...] = tuple(index.get((-dr, -dc), -1) for dr, dc in dirs)
        # Bits grow with square numbers, which run row by row: along a direction that
        # goes down, or right within a row, the nearest piece is the lowest set bit.
        self.increasing = tuple(dr > 0 or (dr == 0 and dc > 0) for dr, dc in dirs)

        size = len(geo.square_of)
        by_coord = {geo.coords[sq]: geo.bit_of[sq] for sq in range(1, geo.size + 1)}
        rays: list[tuple[tuple[int, ...], ...]] = [()] * size
        for sq in range(1, geo.size + 1):
            row, col = geo.coords[sq]
            square_rays = []
            for dr, dc in dirs:
                ray = []
                r, c = row + dr, col + dc
                while (r, c) in by_coord:
                    ray.append(by_coord[(r, c)])
                    r, c = r + dr, c + dc
                square_rays.append(tuple(ray))
            rays[geo.bit_of[sq]] = tuple(square_rays)
        self.rays = tuple(rays)
        self.ray_masks = tuple(tuple(sum(1 << b for b in ray) for ray in r) for r in rays)
        self.ray_index = tuple(tuple({b: i for i, b in enumerate(ray)} for ray in r) for r in rays)

        def indices(steps: tuple[Step, ...]) -> tuple[int, ...]:
            return tuple(index[s] for s in steps)

        self.man_step_dirs = (indices(per_side[0][0]), indices(per_side[1][0]))
        self.man_capture_dirs = (indices(per_side[0][1]), indices(per_side[1][1]))
        self.king_step_dirs = (indices(per_side[0][2]), indices(per_side[1][2]))
        self.king_capture_dirs = (indices(per_side[0][3]), indices(per_side[1][3]))
        men_steps: list[list[tuple[int, ...]]] = [[], []]
        men_jumps: list[list[tuple[Jump, ...]]] = [[], []]
        for side in (0, 1):
            for bit in range(size):
                own = rays[bit]
                if not own:
                    men_steps[side].append(())
                    men_jumps[side].append(())
                    continue
                men_steps[side].append(tuple(own[d][0] for d in self.man_step_dirs[side] if own[d]))
                men_jumps[side].append(
                    tuple(
                        (d, own[d][0], own[d][1])
                        for d in self.man_capture_dirs[side]
                        if len(own[d]) >= 2
                    )
                )
        self.men_steps = (tuple(men_steps[0]), tuple(men_steps[1]))
        self.men_jumps = (tuple(men_jumps[0]), tuple(men_jumps[1]))
        # A king's quiet reach from each square: to bit -> squares passed on the way.
        king_lines: list[list[dict[int, int]]] = [[], []]
        for side in (0, 1):
            for bit in range(size):
                line: dict[int, int] = {}
                if rays[bit]:
                    for d in self.king_step_dirs[side]:
                        between = 0
                        for to in rays[bit][d] if self.flying else rays[bit][d][:1]:
                            line[to] = between
                            between |= 1 << to
                king_lines[side].append(line)
        self.king_lines = (tuple(king_lines[0]), tuple(king_lines[1]))
        self._moves: dict[tuple[int, int, bool], Move] = {}
        self._jumps: dict[tuple[int, int, int, int], Move] = {}

    # ------------------------------------------------------------------ captures
    def _nearest(self, square: int, d: int, occupied: int) -> int:
        """Bit of the first occupied square along ray *d* from *square*, or -1."""
        blockers = self.ray_masks[square][d] & occupied
        if not blockers:
            return -1
        if self.increasing[d]:
            return (blockers & -blockers).bit_length() - 1
        return blockers.bit_length() - 1

    def has_capture(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> bool:
        """Whether the side to move must capture (cheaper than generating captures)."""
        empty = self.valid & ~(own_men | own_kings | opp)
        side = 0 if white else 1
        jumps = self.men_jumps[side]
        men = own_men
        while men:
            low = men & -men
            men ^= low
            for _, victim, land in jumps[low.bit_length() - 1]:
                if (opp >> victim) & 1 and (empty >> land) & 1:
                    return True
        return bool(own_kings) and self._kings_capture(own_kings, opp, empty, side)

    def single_captures(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> list[RawMove] | None:
        """Always None: this generator has no one-jump shortcut (see :meth:`captures`)."""
        return None

    def captures(
        self,
        own_men: int,
        own_kings: int,
        opp: int,
        opp_kings: int,
        white: bool,
        with_paths: bool,
    ) -> dict[tuple[int, int, int], CaptureEntry]:
        """All capture sequences after the capture-choice rule.

        Returns identity (from bit, to bit, captured mask) -> (promoted, routes), as
        :meth:`Generator.captures`.  The choice keeps the sequences of the highest
        value (captured men times ``man_value`` plus kings times ``king_value``); with
        ``king_captures_first`` a king's capture beats a man's of the same value.
        *opp_kings* (the opponent's kings among *opp*) matters only when kings and men
        are worth differently.
        """
        side = 0 if white else 1
        search = _RaySearch(self, opp, opp_kings, with_paths, side)
        search.walk(own_men, own_kings)
        return search.found

    # ------------------------------------------------------------------ quiet moves
    def quiet(self, own_men: int, own_kings: int, opp: int, white: bool) -> list[RawMove]:
        """Non-capturing moves (valid only when no capture exists)."""
        empty = self.valid & ~(own_men | own_kings | opp)
        side = 0 if white else 1
        promo_row = self.promotion_rows[side]
        steps = self.men_steps[side]
        moves: list[RawMove] = []
        men = own_men
        while men:
            low = men & -men
            men ^= low
            frm = low.bit_length() - 1
            for to in steps[frm]:
                if (empty >> to) & 1:
                    moves.append((frm, to, 0, bool((1 << to) & promo_row)))
        rays = self.rays
        flying = self.flying
        kings = own_kings
        while kings:
            low = kings & -kings
            kings ^= low
            frm = low.bit_length() - 1
            for d in self.king_step_dirs[side]:
                for to in rays[frm][d]:
                    if not (empty >> to) & 1:
                        break
                    moves.append((frm, to, 0, False))
                    if not flying:
                        break
        return moves

    def raw_moves(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> list[RawMove]:
        """Legal moves without paths: captures if any, else quiet moves.

        *opp_kings* as for :meth:`captures`; :func:`ray_perft` passes it.
        """
        if self.has_capture(own_men, own_kings, opp, opp_kings, white):
            found = self.captures(own_men, own_kings, opp, opp_kings, white, False)
            return [
                (frm, to, cap, (1 << frm) & own_men != 0 and entry[0])
                for (frm, to, cap), entry in found.items()
            ]
        return self.quiet(own_men, own_kings, opp, white)

    def count_moves(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> int:
        """Number of distinct legal moves (the perft leaf count)."""
        if self.has_capture(own_men, own_kings, opp, opp_kings, white):
            return len(self.captures(own_men, own_kings, opp, opp_kings, white, False))
        return len(self.quiet(own_men, own_kings, opp, white))

    # ------------------------------------------------------------------ one quiet move
    def _quiet_object(self, frm: int, to: int, promotes: bool) -> Move:
        """The (shared, immutable) move object of a quiet move, made once."""
        key = (frm, to, promotes)
        move = self._moves.get(key)
        if move is None:
            sq = self.square_of
            move = self._moves[key] = Move(
                sq[frm], sq[to], NO_CAPTURES, ((sq[frm], sq[to]),), promotes,
                1 << frm, 1 << to, 0,
            )  # fmt: skip
        return move

    def quiet_move(self, position: Position, frm: int, to: int) -> Move | None:
        """The legal quiet move from square *frm* to square *to*, or None (same
        contract as :meth:`Generator.quiet_move`: None also when a capture is due)."""
        white_men, white_kings, black_men, black_kings, turn, geometry = position.fields()
        if geometry is not self.geometry:
            return None
        bit_of = geometry.bit_of
        if not (0 < frm < len(bit_of) and 0 < to < len(bit_of)):
            return None
        white = turn is _WHITE
        if white:
            own_men, own_kings, opp_kings, side = white_men, white_kings, black_kings, 0
            opp = black_men | black_kings
        else:
            own_men, own_kings, opp_kings, side = black_men, black_kings, white_kings, 1
            opp = white_men | white_kings
        f, t = bit_of[frm], bit_of[to]
        occupied = own_men | own_kings | opp
        if (occupied >> t) & 1:
            return None
        if (own_men >> f) & 1:
            if t not in self.men_steps[side][f]:
                return None
            promotes = bool((1 << t) & self.promotion_rows[side])
        elif (own_kings >> f) & 1:
            between = self.king_lines[side][f].get(t)
            if between is None or between & occupied:
                return None
            promotes = False
        else:
            return None
        if self.has_capture(own_men, own_kings, opp, opp_kings, white):
            return None
        return self._quiet_object(f, t, promotes)

    # ------------------------------------------------------------------ one short capture
    def short_capture(self, position: Position, frm: int, to: int) -> Move | None:
        """The legal capture *frm* x *to* when every capture of the position is one
        jump by a man, or None (same contract as :meth:`Generator.short_capture`).

        All men's jumps are listed; if a king can capture or any jump could go on, the
        answer is None (the full search decides).  Otherwise the capture-choice rule
        compares single pieces: the jump must take a piece of the highest value.
        """
        white_men, white_kings, black_men, black_kings, turn, geometry = position.fields()
        if geometry is not self.geometry:
            return None
        bit_of = geometry.bit_of
        if not (0 < frm < len(bit_of) and 0 < to < len(bit_of)):
            return None
        white = turn is _WHITE
        if white:
            own_men, own_kings, side = white_men, white_kings, 0
            opp, opp_kings = black_men | black_kings, black_kings
        else:
            own_men, own_kings, side = black_men, black_kings, 1
            opp, opp_kings = white_men | white_kings, white_kings
        f, t = bit_of[frm], bit_of[to]
        if not (own_men >> f) & 1:
            return None
        empty = self.valid & ~(own_men | own_kings | opp)
        wanted = next((j for j in self.men_jumps[side][f] if j[2] == t and (opp >> j[1]) & 1), None)
        if wanted is None or not (empty >> t) & 1:
            return None
        if own_kings and self._kings_capture(own_kings, opp, empty, side):
            return None
        rules = self.rules
        promo_row = self.promotion_rows[side]
        jumps = self.men_jumps[side]
        best = 0
        men = own_men
        while men:
            low = men & -men
            men ^= low
            origin = low.bit_length() - 1
            for d, victim, land in jumps[origin]:
                if not (opp >> victim) & 1 or not (empty >> land) & 1:
                    continue
                if (1 << land) & promo_row:
                    rule = self.capture_promotion
                    if rule is CapturePromotion.CROWN_AND_CONTINUE:
                        return None
                    if rule is CapturePromotion.CROWN_AND_STOP:
                        continue
                now_empty = empty | low
                if self.immediate:
                    now_empty |= 1 << victim
                banned = self.opposite[d] if rules.no_reversal else -1
                for d2, v2, l2 in jumps[land]:
                    if d2 != banned and v2 != victim and (opp >> v2) & 1 and (now_empty >> l2) & 1:
                        return None
                value = rules.king_value if (opp_kings >> victim) & 1 else rules.man_value
                best = max(best, value)
        victim = wanted[1]
        value = rules.king_value if (opp_kings >> victim) & 1 else rules.man_value
        if self.choose and value < best:
            return None
        # The side is part of the key: the same jump crowns a man of one side only.
        key = (side, f, t, victim)
        move = self._jumps.get(key)
        if move is None:
            sq = self.square_of
            move = self._jumps[key] = Move(
                sq[f], sq[t], frozenset((sq[victim],)), ((sq[f], sq[t]),),
                bool((1 << t) & promo_row), 1 << f, 1 << t, 1 << victim,
            )  # fmt: skip
        return move

    def _kings_capture(self, kings: int, opp: int, empty: int, side: int) -> bool:
        """Whether one of *kings* can capture."""
        occupied = self.valid & ~empty
        while kings:
            low = kings & -kings
            kings ^= low
            square = low.bit_length() - 1
            for d in self.king_capture_dirs[side]:
                near = self._nearest(square, d, occupied)
                if near < 0 or not (opp >> near) & 1:
                    continue
                if not self.flying and near != self.rays[square][d][0]:
                    continue
                behind = self.rays[near][d]
                if behind and (empty >> behind[0]) & 1:
                    return True
        return False

    # ------------------------------------------------------------------ public moves
    def legal_moves(self, position: Position) -> list[Move]:
        """All legal moves of *position*, sorted by (from, to, captured squares)."""
        if position.geometry is not self.geometry:
            raise ValueError(
                f"a position on {position.geometry} given to the {self.variant.name} rules"
            )
        own_men, own_kings, opp, opp_kings, white = sides(position)
        if not self.has_capture(own_men, own_kings, opp, opp_kings, white):
            quiet = self.quiet(own_men, own_kings, opp, white)
            quiet.sort()
            return [self._quiet_object(f, t, p) for f, t, _, p in quiet]
        found = self.captures(own_men, own_kings, opp, opp_kings, white, True)
        build = self.capture_object
        moves = [build(key, entry, own_men) for key, entry in found.items()]
        moves.sort(key=capture_sort_key)
        return moves


def ray_perft(gen: RayGenerator, position: Position, depth: int) -> int:
    """Perft (*depth* >= 1) for a ray-walking variant.

    Like :func:`pdn_tools.rules.perft.perft`'s walk, but it keeps the opponent's kings
    apart, which the capture choice needs when kings and men have different values.
    The Frisian limit on consecutive king moves depends on history and is not applied
    (it cannot matter before a king exists, many plies deep).
    """
    return ray_walk(
        gen,
        position.white_men,
        position.white_kings,
        position.black_men,
        position.black_kings,
        position.turn is _WHITE,
        depth,
    )


def ray_walk(gen: RayGenerator, wm: int, wk: int, bm: int, bk: int, white: bool, depth: int) -> int:
    """The perft walk of a ray-walking variant from the given bitboards; *depth* >= 1."""
    if white:
        own_men, own_kings, opp_men, opp_kings = wm, wk, bm, bk
    else:
        own_men, own_kings, opp_men, opp_kings = bm, bk, wm, wk
    opp = opp_men | opp_kings
    if depth == 1:
        return gen.count_moves(own_men, own_kings, opp, opp_kings, white)
    total = 0
    for frm, to, cap, promotes in gen.raw_moves(own_men, own_kings, opp, opp_kings, white):
        src = 1 << frm
        dst = 1 << to
        keep = ~cap
        if own_men & src:
            if promotes:
                men, kings = own_men ^ src, own_kings | dst
            else:
                men, kings = own_men ^ src | dst, own_kings
        else:
            men, kings = own_men, own_kings ^ src | dst
        if white:
            total += ray_walk(gen, men, kings, bm & keep, bk & keep, False, depth - 1)
        else:
            total += ray_walk(gen, wm & keep, wk & keep, men, kings, True, depth - 1)
    return total


class KingMoveLimit:
    """Frisian's limit on consecutive king moves (rules.md §4.6), along one line of play.

    While a player still has men, one king may make at most ``limit`` non-capturing
    moves in a row; then that player must move another piece or capture.  Any capture,
    any move of another piece, and losing the last man end the run.  The rule depends
    on the moves that led to a position, which a :class:`Position` does not hold, so
    the replay keeps one of these per line (copied for variations) and asks
    :meth:`refuses` before playing a move; legal-move generation and perft do not
    apply it.
    """

    __slots__ = ("limit", "runs")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.runs: dict[Color, tuple[int, int]] = {}
        """Per side: (bit mask of the king's square after its last move, run length)."""

    def copy(self) -> KingMoveLimit:
        """An independent copy (for a variation branching here)."""
        other = KingMoveLimit(self.limit)
        other.runs = dict(self.runs)
        return other

    def reset(self) -> None:
        """Forget the runs (a set-up position carries no history)."""
        self.runs.clear()

    @staticmethod
    def _counts(before: Position, move: Move) -> bool:
        """Whether *move* is a king's quiet move by a side that still has men."""
        if move.capture_mask:
            return False
        if before.turn is _WHITE:
            men, kings = before.white_men, before.white_kings
        else:
            men, kings = before.black_men, before.black_kings
        return bool(men) and bool(move.from_mask & kings)

    def refuses(self, before: Position, move: Move) -> bool:
        """Whether playing *move* from *before* would exceed the limit."""
        if not self._counts(before, move):
            return False
        square, run = self.runs.get(before.turn, (0, 0))
        return square == move.from_mask and run >= self.limit

    def play(self, before: Position, move: Move) -> None:
        """Count *move*, played from *before*."""
        if self._counts(before, move):
            square, run = self.runs.get(before.turn, (0, 0))
            self.runs[before.turn] = (move.to_mask, run + 1 if square == move.from_mask else 1)
        else:
            self.runs.pop(before.turn, None)


class _RaySearch(CaptureSearch):
    """The capture search of :class:`RayGenerator`: men jump along the jump tables of
    the variant's directions, and the choice keeps the sequences of the highest value
    (captured men times ``man_value`` plus kings times ``king_value``); with
    ``king_captures_first`` a king's capture beats a man's of the same value."""

    def __init__(
        self, gen: RayGenerator, opp: int, opp_kings: int, with_paths: bool, side: int
    ) -> None:
        rules = gen.rules
        opposite = gen.opposite if rules.no_reversal else None
        super().__init__(gen, opp, with_paths, gen.king_capture_dirs[side], opposite)
        self.jumps = gen.men_jumps[side]
        self.promo_row = gen.promotion_rows[side]
        self.promotion_rule = gen.capture_promotion
        self.choose = gen.choose
        self.opp_kings = opp_kings
        self.man_value = rules.man_value
        self.king_value = rules.king_value
        self.king_first = rules.king_captures_first
        self.by_king = 0
        """1 while the sequences of a king are walked (for the tie-break)."""
        self.best = (0, 0)
        """(value, by a king) of the best sequence so far."""

    def walk(self, men: int, kings: int) -> None:
        """Search from every man and every king of the side to move."""
        base_empty = self.valid & ~(men | kings | self.opp)
        with_paths = self.with_paths
        self.by_king = 0
        while men:
            low = men & -men
            men ^= low
            square = self.origin = low.bit_length() - 1
            self.man(square, 0, base_empty | low, (square,) if with_paths else (), -1)
        self.by_king = 1
        while kings:
            low = kings & -kings
            kings ^= low
            square = self.origin = low.bit_length() - 1
            self.king(square, 0, base_empty | low, (square,) if with_paths else (), False, -1)

    def record(self, square: int, captured: int, path: BitPath, promoted: bool) -> None:
        if self.choose:
            kings_taken = popcount(captured & self.opp_kings)
            men_taken = popcount(captured) - kings_taken
            value = self.man_value * men_taken + self.king_value * kings_taken
            score = (value, self.by_king if self.king_first else 0)
            if score < self.best:
                return
            if score > self.best:
                self.best = score
                self.found.clear()
        super().record(square, captured, path, promoted)

    def man(self, square: int, captured: int, empty: int, path: BitPath, last: int) -> bool:
        """Extend a man's sequence from *square* (its last capture went in direction
        *last*, -1 at the start); True if it captured further."""
        opposite = self.opposite
        banned = -1 if opposite is None or last < 0 else opposite[last]
        any_capture = False
        for d, victim, land in self.jumps[square]:
            if d == banned:
                continue
            vbit = 1 << victim
            if not self.opp & vbit or captured & vbit:
                continue
            now_empty = empty | vbit if self.immediate else empty
            if not (now_empty >> land) & 1:
                continue
            any_capture = True
            after = captured | vbit
            nxt = (*path, land) if self.with_paths else path
            if (1 << land) & self.promo_row:
                if self.promotion_rule is CapturePromotion.CROWN_AND_STOP:
                    self.record(land, after, nxt, True)
                    continue
                if self.promotion_rule is CapturePromotion.CROWN_AND_CONTINUE:
                    if not self.king(land, after, now_empty, nxt, True, d):
                        self.record(land, after, nxt, True)
                    continue
            if not self.man(land, after, now_empty, nxt, d):
                self.record(land, after, nxt, bool((1 << land) & self.promo_row))
        return any_capture
