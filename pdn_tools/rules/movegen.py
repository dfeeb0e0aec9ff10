"""Legal move generation for every rules description, on bitboards.

One generator serves all variants: it reads the :class:`~pdn_tools.rules.variant.Variant`
fields (men's capture directions, king range and landing, capture choice, removal
timing, promotion during a capture) and the board's precomputed tables.  Nothing here
knows a variant by name or a board by size.

Capture sequences are searched depth first from every piece that can capture.  With
removal after the move (the "Turkish strike" rule) the jumped pieces stay on the board,
block the capturing piece and cannot be jumped again; the moving piece's own start
square counts as empty, so a sequence may cross or end on it.  A king that can continue
after a capture must land on a square from which it continues.  Complete sequences are
gathered under their identity (from, to, captured set); every route is kept as a path of
landing squares, because notation needs them.  The capture-choice rule is applied last
(majority: keep the sequences taking the most pieces), then king priority (Czech: only
captures by a king when a king can capture) and the Italian precedence rules (by a
king, most kings, a king met first).  Men that may not jump kings (Italian) see only
the opposing men as prey, in the bulk tests as in the search.

Most positions need no search: whole-board shifts find every man step and every
one-piece jump at once, and when no jump can continue and no king can capture, the
moves come ready-made from :mod:`.movetables`.  Only longer captures build new
:class:`Move` objects.

:class:`Generator` also has a path-free entry point, :meth:`Generator.raw_moves`, and a
leaf counter, used by :mod:`.perft` to avoid building :class:`Move` objects.
"""

from __future__ import annotations

import itertools
from typing import Final

from pdn_tools.rules.bits import popcount
from pdn_tools.rules.geometry import Geometry, geometry_for
from pdn_tools.rules.move import Move
from pdn_tools.rules.movetables import CHUNK, CHUNK_MASK, tables_for
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import (
    CaptureChoice,
    CapturePromotion,
    Color,
    KingLanding,
    KingRange,
    Removal,
    Variant,
)

RawMove = tuple[int, int, int, bool]
"""(from bit, to bit, captured mask, promotes): a move without squares or paths."""
BitPath = tuple[int, ...]
CaptureEntry = tuple[bool, list[BitPath]]
"""(promoted, routes) of one capture identity found by :meth:`Generator.captures`."""


_WHITE: Final = Color.WHITE


class Generator:
    """Move generation for one rules description (get it from :func:`generator_for`).

    Bulk work (which men can step, which men can capture, counting quiet moves) uses
    whole-board shifts; capture sequences and king moves walk the precomputed tables.
    Per side, the shift amounts are split into left and right shifts up front so the
    hot loops contain no sign tests or helper calls.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        geo = geometry_for(variant.board)
        self.geometry: Geometry = geo
        self.step = geo.step
        self.rays = geo.rays
        self.valid = geo.valid
        self.square_of = geo.square_of
        self.flying = variant.king_range is KingRange.FLYING
        self.land_first_only = (
            variant.king_landing is KingLanding.DIRECTLY_BEHIND or not self.flying
        )
        self.immediate = variant.removal is Removal.IMMEDIATE
        self.majority = variant.capture_choice is CaptureChoice.MAJORITY
        self.men_take_kings = variant.men_capture_kings
        self.king_priority = variant.king_capture_priority
        self.precedence = variant.capture_precedence
        # One-jump captures by men are interchangeable under every choice rule unless
        # quality rules could tell a man taken from a king taken: then search.
        self.simple_jumps = not (variant.capture_precedence and variant.men_capture_kings)
        self.capture_promotion = variant.capture_promotion
        tables = tables_for(variant, geo)
        self.man_capture_dirs = tables.man_capture_dirs
        self.step_shifts = tables.step_shifts
        self.capture_shifts = tables.capture_shifts
        self.promotion_rows: tuple[int, ...] = (geo.white_promotion, geo.black_promotion)
        """White's and Black's promotion rows (a tuple of any length: see MoveTables)."""
        self.ray_masks = geo.ray_masks
        self.ray_index = geo.ray_index
        self.increasing: tuple[bool, ...] = geo.increasing
        self.code_bits = tables.code_bits
        self.king_reach = tables.king_reach
        self.king_reach_masks = tables.king_reach_masks
        self.king_codes = tables.king_codes
        self.quiet_table = tables.quiet
        self.kings = tables.kings
        self.king_made = tables.kings.made
        self.step_chunks = tables.step_chunks
        self.jump_table = tables.jumps
        self._one_quiet: dict[int, Move] | None = None

    # ------------------------------------------------------------------ captures
    def has_capture(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> bool:
        """Whether the side to move must capture (cheaper than generating captures).

        *opp* is every opposing piece, *opp_kings* the opposing kings among them (men
        of some variants may not jump kings)."""
        empty = self.valid & ~(own_men | own_kings | opp)
        prey = opp if self.men_take_kings else opp & ~opp_kings
        left, right = self.capture_shifts[0 if white else 1]
        for n in left:
            if (((own_men << n) & prey) << n) & empty:
                return True
        for n in right:
            if (((own_men >> n) & prey) >> n) & empty:
                return True
        if own_kings:
            return self._king_can_capture(own_kings, opp, empty)
        return False

    def _king_can_capture(self, kings: int, opp: int, empty: int) -> bool:
        """Whether one of *kings* can capture: the nearest piece on one of its rays is
        an opponent's (adjacent for a short king) with an empty square behind it."""
        flying = self.flying
        step = self.step
        occupied = self.valid & ~empty
        while kings:
            low = kings & -kings
            kings ^= low
            square = low.bit_length() - 1
            index = self.ray_index[square]
            for d, mask in enumerate(self.ray_masks[square]):
                blockers = mask & occupied
                if not blockers:
                    continue
                if self.increasing[d]:
                    near = (blockers & -blockers).bit_length() - 1
                else:
                    near = blockers.bit_length() - 1
                if (opp >> near) & 1 and (flying or not index[d][near]):
                    behind = step[near][d]
                    if behind >= 0 and (empty >> behind) & 1:
                        return True
        return False

    def _king_free(self, square: int, occupied: int) -> list[int]:
        """How many squares a king on *square* can move along each ray (quiet moves)."""
        out = []
        index = self.ray_index[square]
        increasing = self.increasing
        reach = self.king_reach[square]
        for d, mask in enumerate(self.king_reach_masks[square]):
            blockers = mask & occupied
            if not blockers:
                out.append(len(reach[d]))
            elif increasing[d]:
                out.append(index[d][(blockers & -blockers).bit_length() - 1])
            else:
                out.append(index[d][blockers.bit_length() - 1])
        return out

    def single_captures(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> list[RawMove] | None:
        """The legal moves when every capture is one man taking one piece, else None.

        The common case (most captures in play and in perft) needs no search: the
        landing squares of all jumps in one direction come from two whole-board shifts,
        and :meth:`_jumps_continue` tells in bulk whether any jump could go on.  If a
        king can capture, or a jump could continue, the answer is None and
        :meth:`captures` searches.
        """
        if not self.simple_jumps:
            return None
        empty = self.valid & ~(own_men | own_kings | opp)
        prey = opp if self.men_take_kings else opp & ~opp_kings
        side = 0 if white else 1
        left, right = self.capture_shifts[side]
        by_direction = []
        lands_all = 0
        for n in left:
            lands = (((own_men << n) & prey) << n) & empty
            if lands:
                by_direction.append((n, True, lands))
                lands_all |= lands
        for n in right:
            lands = (((own_men >> n) & prey) >> n) & empty
            if lands:
                by_direction.append((n, False, lands))
                lands_all |= lands
        if own_kings and self._king_can_capture(own_kings, opp, empty):
            return None
        if self._jumps_continue(lands_all, prey, empty, side):
            return None
        promo_row = self.promotion_rows[side]
        out: list[RawMove] = []
        for n, shift_left, lands in by_direction:
            while lands:
                land = lands & -lands
                lands ^= land
                to = land.bit_length() - 1
                if shift_left:
                    out.append((to - n - n, to, land >> n, bool(land & promo_row)))
                else:
                    out.append((to + n + n, to, land << n, bool(land & promo_row)))
        return out

    def _jumps_continue(self, lands: int, opp: int, empty: int, side: int) -> bool:
        """Whether a man that has just jumped onto one of *lands* may jump again.

        *opp* holds the pieces a man may jump (all opposing pieces, or only the men).

        Checked in bulk on the position before the move: from a landing square the
        jump back over its own victim would land on the origin, which is occupied in
        that picture, and no other jump meets the victim or the origin; so the test
        counts exactly the real continuations.  Crowning rules may end or change the
        sequence on the far row.
        """
        if not lands:
            return False
        promo_row = self.promotion_rows[side]
        rule = self.capture_promotion
        if lands & promo_row:
            if rule is CapturePromotion.CROWN_AND_CONTINUE:
                return True
            if rule is CapturePromotion.CROWN_AND_STOP:
                lands &= ~promo_row
        left, right = self.capture_shifts[side]
        for n in left:
            if (((lands << n) & opp) << n) & empty:
                return True
        for n in right:  # noqa: SIM110 - a generator expression is slower here
            if (((lands >> n) & opp) >> n) & empty:
                return True
        return False

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

        Returns identity (from bit, to bit, captured mask) -> (promoted, routes): the
        routes as paths of bits, gathered only *with_paths*; promoted is true if any
        route crowns the man.
        """
        side = 0 if white else 1
        if self.precedence:
            with_paths = True  # the quality rules read the order of the captures
        prey = opp if self.men_take_kings else opp & ~opp_kings
        search = _DiagonalSearch(self, opp, prey, with_paths, side)
        search.walk(own_men, own_kings, self.capture_shifts[side])
        found = search.found
        if self.king_priority and found:
            by_king = {k: v for k, v in found.items() if (own_kings >> k[0]) & 1}
            if by_king:
                found = by_king
        if self.precedence and found:
            found = self._precedence(found, own_kings, opp_kings)
        return found

    def _precedence(
        self,
        found: dict[tuple[int, int, int], CaptureEntry],
        own_kings: int,
        opp_kings: int,
    ) -> dict[tuple[int, int, int], CaptureEntry]:
        """Keep the sequences the Italian quality rules prefer (rules.md §4.5): a
        capture by a king, then the most kings taken, then a king met earliest.  The
        majority rule has already been applied; routes of one identity are ranked one
        by one, as they may meet the kings in a different order."""
        ranked: list[tuple[tuple[int, int, tuple[int, ...]], tuple[int, int, int], bool, BitPath]]
        ranked = []
        for key, (promoted, routes) in found.items():
            by_king = (own_kings >> key[0]) & 1
            for route in routes:
                order = self._victims(route, key[2])
                kings_at = tuple(-i for i, v in enumerate(order) if (opp_kings >> v) & 1)
                ranked.append(((by_king, len(kings_at), kings_at), key, promoted, route))
        best = max(r[0] for r in ranked)
        out: dict[tuple[int, int, int], CaptureEntry] = {}
        for rank, key, promoted, route in ranked:
            if rank == best:
                entry = out.setdefault(key, (promoted, []))
                entry[1].append(route)
        return out

    def _victims(self, route: BitPath, captured: int) -> list[int]:
        """Bits of the pieces a route jumps, in the order it jumps them."""
        out: list[int] = []
        rays = self.rays
        for a, b in itertools.pairwise(route):
            for d in range(4):
                ray = rays[a][d]
                if b in ray:
                    out.extend(x for x in ray[: ray.index(b)] if (captured >> x) & 1)
                    break
        return out

    # ------------------------------------------------------------------ quiet moves
    def quiet(self, own_men: int, own_kings: int, opp: int, white: bool) -> list[RawMove]:
        """Non-capturing moves (valid only when no capture exists), in generation order."""
        empty = self.valid & ~(own_men | own_kings | opp)
        side = 0 if white else 1
        promo_row = self.promotion_rows[side]
        left, right = self.step_shifts[side]
        moves: list[RawMove] = []
        for n in left:
            targets = (own_men << n) & empty
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                targets ^= low
                moves.append((to - n, to, 0, bool(low & promo_row)))
        for n in right:
            targets = (own_men >> n) & empty
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                targets ^= low
                moves.append((to + n, to, 0, bool(low & promo_row)))
        kings = own_kings
        occupied = self.valid & ~empty
        while kings:
            low = kings & -kings
            square = low.bit_length() - 1
            kings ^= low
            reach = self.king_reach[square]
            for d, free in enumerate(self._king_free(square, occupied)):
                for to in reach[d][:free]:
                    moves.append((square, to, 0, False))
        return moves

    def raw_moves(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> list[RawMove]:
        """Legal moves without paths: captures if any, else quiet moves."""
        if self.has_capture(own_men, own_kings, opp, opp_kings, white):
            singles = self.single_captures(own_men, own_kings, opp, opp_kings, white)
            if singles is not None:
                return singles
            found = self.captures(own_men, own_kings, opp, opp_kings, white, False)
            return [
                (frm, to, cap, (1 << frm) & own_men != 0 and entry[0])
                for (frm, to, cap), entry in found.items()
            ]
        return self.quiet(own_men, own_kings, opp, white)

    def count_moves(
        self, own_men: int, own_kings: int, opp: int, opp_kings: int, white: bool
    ) -> int:
        """Number of distinct legal moves (the perft leaf count), without listing them.

        One-jump captures are counted by population counts of the landing masks (each
        landing in a direction belongs to exactly one origin); quiet men moves likewise.
        """
        empty = self.valid & ~(own_men | own_kings | opp)
        prey = opp if self.men_take_kings else opp & ~opp_kings
        side = 0 if white else 1
        left, right = self.capture_shifts[side]
        lands_all = 0
        jumps = 0
        for n in left:
            lands = (((own_men << n) & prey) << n) & empty
            if lands:
                lands_all |= lands
                jumps += popcount(lands)
        for n in right:
            lands = (((own_men >> n) & prey) >> n) & empty
            if lands:
                lands_all |= lands
                jumps += popcount(lands)
        if (own_kings and self._king_can_capture(own_kings, opp, empty)) or (
            lands_all
            and (not self.simple_jumps or self._jumps_continue(lands_all, prey, empty, side))
        ):
            return len(self.captures(own_men, own_kings, opp, opp_kings, white, False))
        if jumps:
            return jumps
        total = 0
        left, right = self.step_shifts[side]
        for n in left:
            total += popcount((own_men << n) & empty)
        for n in right:
            total += popcount((own_men >> n) & empty)
        kings = own_kings
        occupied = self.valid & ~empty
        while kings:
            low = kings & -kings
            kings ^= low
            total += sum(self._king_free(low.bit_length() - 1, occupied))
        return total

    # ------------------------------------------------------------------ one quiet move
    def _quiet_index(self) -> dict[int, Move]:
        """Men steps by (from bit, to bit, side) code, read off the generator's own
        quiet tables (the king moves have theirs: :attr:`KingMoves.with_between`)."""
        index = self._one_quiet
        if index is None:
            bits = self.code_bits
            index = {}
            for side, table in enumerate(self.quiet_table):
                for code, move in table.items():
                    if not code & 1:
                        index[(code >> 1) | side << (2 * bits)] = move
            self._one_quiet = index
        return index

    def quiet_move(self, position: Position, frm: int, to: int) -> Move | None:
        """The legal quiet move from square *frm* to square *to*, or None.

        None means "not established here": the squares are off the board, the move is
        not a quiet move of the side to move, or a capture is compulsory.  It answers
        without generating the position's moves, which is what a replay needs for
        most plies; callers fall back to :meth:`legal_moves` on None.  The answer is
        read off the same tables as :meth:`legal_moves` and is always one of its moves.
        """
        white_men, white_kings, black_men, black_kings, turn, geometry = position.fields()
        if geometry is not self.geometry:
            return None
        bit_of = geometry.bit_of
        if not (0 < frm < len(bit_of) and 0 < to < len(bit_of)):
            return None
        if turn is _WHITE:
            own_men, own_kings, opp_kings, side = white_men, white_kings, black_kings, 0
            opp = black_men | black_kings
        else:
            own_men, own_kings, opp_kings, side = black_men, black_kings, white_kings, 1
            opp = white_men | white_kings
        f, t = bit_of[frm], bit_of[to]
        occupied = own_men | own_kings | opp
        if (occupied >> t) & 1:
            return None
        bits = self.code_bits
        key = (f << bits) | t
        if (own_men >> f) & 1:
            men = self._one_quiet if self._one_quiet is not None else self._quiet_index()
            move = men.get(key | side << (2 * bits))
            if move is None:
                return None
        elif (own_kings >> f) & 1:
            if not self.king_made[f]:
                self.kings.make(f)
            entry = self.kings.with_between.get(key)
            if entry is None or entry[1] & occupied:
                return None
            move = entry[0]
        else:
            return None
        if self.has_capture(own_men, own_kings, opp, opp_kings, turn is _WHITE):
            return None
        return move

    def short_capture(self, position: Position, frm: int, to: int) -> Move | None:
        """The legal capture *frm* x *to* when every capture of the position is one
        jump by a man, or None.

        None means "not established here": a longer capture or a king's capture exists
        somewhere (then the maximum-capture rule needs the full search), or the jump is
        not legal.  In the one-jump case a capture is fixed by its two squares, so the
        answer is the only legal move written ``frm x to``; it is read off the same
        jump table as :meth:`legal_moves` and is always one of its moves.  This is what
        a replay needs for most captures, without listing every move.
        """
        white_men, white_kings, black_men, black_kings, turn, geometry = position.fields()
        if geometry is not self.geometry or not self.simple_jumps:
            return None
        bit_of = geometry.bit_of
        if not (0 < frm < len(bit_of) and 0 < to < len(bit_of)):
            return None
        if turn is _WHITE:
            own_men, own_kings, opp_kings, side = white_men, white_kings, black_kings, 0
            opp = black_men | black_kings
        else:
            own_men, own_kings, opp_kings, side = black_men, black_kings, white_kings, 1
            opp = white_men | white_kings
        f, t = bit_of[frm], bit_of[to]
        if not (own_men >> f) & 1:
            return None
        move = self.jump_table[side].get(((f << self.code_bits) | t) << 1)
        empty = self.valid & ~(own_men | own_kings | opp)
        prey = opp if self.men_take_kings else opp & ~opp_kings
        if move is None or not move.capture_mask & prey or not (empty >> t) & 1:
            return None
        lands_all = 0
        left, right = self.capture_shifts[side]
        for n in left:
            lands_all |= (((own_men << n) & prey) << n) & empty
        for n in right:
            lands_all |= (((own_men >> n) & prey) >> n) & empty
        if own_kings and self._king_can_capture(own_kings, opp, empty):
            return None
        if self._jumps_continue(lands_all, prey, empty, side):
            return None
        return move

    # ------------------------------------------------------------------ public moves
    def legal_moves(self, position: Position) -> list[Move]:
        """All legal moves of *position*, sorted by (from, to, captured squares).

        Quiet moves and one-jump captures come from precomputed tables of immutable
        :class:`Move` objects (sorted through integer codes); only longer captures
        build new moves, with every route.
        """
        if position.geometry is not self.geometry:
            raise ValueError(
                f"a position on {position.geometry} given to the {self.variant.name} rules"
            )
        own_men, own_kings, opp, opp_kings, white = sides(position)
        side = 0 if white else 1
        bits = self.code_bits
        empty = self.valid & ~(own_men | own_kings | opp)
        prey = opp if self.men_take_kings else opp & ~opp_kings
        left, right = self.capture_shifts[side]
        jumps_by_direction = []
        lands_all = 0
        for n in left:
            lands = (((own_men << n) & prey) << n) & empty
            if lands:
                jumps_by_direction.append((n + n, lands))
                lands_all |= lands
        for n in right:
            lands = (((own_men >> n) & prey) >> n) & empty
            if lands:
                jumps_by_direction.append((-n - n, lands))
                lands_all |= lands
        king_capture = bool(own_kings) and self._king_can_capture(own_kings, opp, empty)
        must_capture = king_capture or bool(lands_all)
        if not must_capture:
            codes: list[int] = []
            for n, is_left, tables in self.step_chunks[side]:
                targets = ((own_men << n) if is_left else (own_men >> n)) & empty
                for table in tables:
                    chunk = targets & CHUNK_MASK
                    if chunk:
                        ready = table.by_value[chunk]
                        codes.extend(ready if ready is not None else table.codes(chunk))
                    targets >>= CHUNK
                    if not targets:
                        break
            kings = own_kings
            occupied = self.valid & ~empty
            while kings:
                low = kings & -kings
                kings ^= low
                square = low.bit_length() - 1
                if not self.king_made[square]:
                    self.kings.make(square)
                king_codes = self.king_codes[square]
                for d, free in enumerate(self._king_free(square, occupied)):
                    if free:
                        codes.extend(king_codes[d][:free])
            codes.sort()
            quiet = self.quiet_table[side]
            return [quiet[code] for code in codes]
        if (
            not king_capture
            and self.simple_jumps
            and not self._jumps_continue(lands_all, prey, empty, side)
        ):
            # Only one-jump captures by men: moves from the table, as for quiet moves.
            codes = []
            for distance, lands in jumps_by_direction:
                while lands:
                    land = lands & -lands
                    lands ^= land
                    to = land.bit_length() - 1
                    codes.append((((to - distance) << bits) | to) << 1)
            codes.sort()
            jumps = self.jump_table[side]
            return [jumps[code] for code in codes]
        found = self.captures(own_men, own_kings, opp, opp_kings, white, True)
        build = self.capture_object
        moves = [build(key, entry, own_men) for key, entry in found.items()]
        if len(moves) > 1:
            moves.sort(key=capture_sort_key)
        return moves

    def capture_object(self, key: tuple[int, int, int], entry: CaptureEntry, own_men: int) -> Move:
        """The :class:`Move` of one entry of :meth:`captures` (found with paths): its
        routes as square numbers, the captured squares, and whether a man crowns."""
        frm, to, cap = key
        promoted, routes = entry
        sq = self.square_of
        square_at = sq.__getitem__
        paths: tuple[tuple[int, ...], ...]
        if len(routes) == 1:
            paths = (tuple(map(square_at, routes[0])),)
        else:
            paths = tuple(sorted({tuple(map(square_at, route)) for route in routes}))
        taken = []
        rest = cap
        while rest:
            low = rest & -rest
            taken.append(sq[low.bit_length() - 1])
            rest ^= low
        promotes = promoted and bool((1 << frm) & own_men)
        return Move(sq[frm], sq[to], frozenset(taken), paths, promotes, 1 << frm, 1 << to, cap)

    def capture_between(self, position: Position, frm: int, to: int) -> Move | None:
        """The legal capture from square *frm* to square *to* when it is the only one
        with these two squares, or None.

        For the captures :meth:`short_capture` leaves open (longer sequences, kings'
        captures): it runs the capture search, with the capture-choice rules, but
        builds only the move asked for instead of every legal move.  None means "not
        established here" (no such capture, or two of them: ambiguous); callers fall
        back to :meth:`legal_moves`.  The answer is always one of its moves.
        """
        geometry = position.geometry
        if geometry is not self.geometry:
            return None
        bit_of = geometry.bit_of
        if not (0 < frm < len(bit_of) and 0 < to < len(bit_of)):
            return None
        own_men, own_kings, opp, opp_kings, white = sides(position)
        f, t = bit_of[frm], bit_of[to]
        if not ((own_men | own_kings) >> f) & 1:
            return None
        hit: tuple[tuple[int, int, int], CaptureEntry] | None = None
        for key, entry in self.captures(own_men, own_kings, opp, opp_kings, white, True).items():
            if key[0] == f and key[1] == t:
                if hit is not None:
                    return None
                hit = (key, entry)
        if hit is None:
            return None
        return self.capture_object(hit[0], hit[1], own_men)


def sides(position: Position) -> tuple[int, int, int, int, bool]:
    """The side to move's men and kings, every opposing piece, the opposing kings, and
    whether White is to move.  (The per-ply checks ``quiet_move`` and ``short_capture``
    read the position's fields in place instead: there a call costs more than the lines.)"""
    white_men = position.white_men
    white_kings = position.white_kings
    black_men = position.black_men
    black_kings = position.black_kings
    turn = position.turn
    if turn is _WHITE:
        return white_men, white_kings, black_men | black_kings, black_kings, True
    return black_men, black_kings, white_men | white_kings, white_kings, False


def capture_sort_key(move: Move) -> tuple[int, int, list[int]]:
    """Order of capture moves in move lists: from, to, captured squares."""
    return (move.from_sq, move.to_sq, sorted(move.captures))


class CaptureSearch:
    """One search for the capture sequences of the side to move, depth first.

    Holds what the walk reads (the generator's ray tables and rules, the opposing
    pieces) and what it has found: :attr:`found` maps each identity (from bit, to bit,
    captured mask) to (promoted, routes).  The king's walk is the same for every
    generator, :meth:`king`: only the directions a king captures in and the ban on
    turning back (Frisian, Turkish) vary.  A subclass walks the men (:meth:`man`, on
    its own tables) and chooses among the sequences (:meth:`record`).
    """

    def __init__(
        self,
        gen: Generator,
        opp: int,
        with_paths: bool,
        king_dirs: tuple[int, ...],
        opposite: tuple[int, ...] | None,
    ) -> None:
        self.rays = gen.rays
        self.ray_masks = gen.ray_masks
        self.ray_index = gen.ray_index
        self.increasing = gen.increasing
        self.valid = gen.valid
        self.flying = gen.flying
        self.first_only = gen.land_first_only
        self.immediate = gen.immediate
        self.opp = opp
        self.with_paths = with_paths
        self.king_dirs = king_dirs
        self.opposite = opposite
        """Direction -> its reverse, when a capture may not turn back (else None)."""
        self.found: dict[tuple[int, int, int], CaptureEntry] = {}
        self.origin = 0
        """Bit of the piece whose sequences are being walked."""

    def record(self, square: int, captured: int, path: BitPath, promoted: bool) -> None:
        """Keep a complete sequence under its identity (every route with paths)."""
        key = (self.origin, square, captured)
        entry = self.found.get(key)
        if entry is None:
            self.found[key] = (promoted, [path])
            return
        if promoted and not entry[0]:
            self.found[key] = entry = (True, entry[1])
        if self.with_paths:
            entry[1].append(path)

    def king(
        self, square: int, captured: int, empty: int, path: BitPath, crowned: bool, last: int
    ) -> bool:
        """Extend a king's sequence from *square*; True if it captured further.

        *last* is the direction of the capture that led here (-1 at the start);
        *crowned* marks a man crowned during this capture (it records as promoting).
        A king that can capture again from a landing square must land there.
        """
        ray_masks = self.ray_masks
        ray_index = self.ray_index
        increasing = self.increasing
        valid = self.valid
        occupied = valid & ~empty
        banned = -1 if self.opposite is None or last < 0 else self.opposite[last]
        any_capture = False
        for d in self.king_dirs:
            blockers = ray_masks[square][d] & occupied
            if not blockers or d == banned:
                continue
            if increasing[d]:
                victim = (blockers & -blockers).bit_length() - 1
            else:
                victim = blockers.bit_length() - 1
            if not self.flying and ray_index[square][d][victim]:
                continue  # a short king captures only an adjacent piece
            vbit = 1 << victim
            if not self.opp & vbit or captured & vbit:
                continue
            after = captured | vbit
            now_empty = empty | vbit if self.immediate else empty
            lands = self.rays[victim][d]
            beyond = ray_masks[victim][d] & valid & ~now_empty
            if beyond:
                if increasing[d]:
                    near = (beyond & -beyond).bit_length() - 1
                else:
                    near = beyond.bit_length() - 1
                lands = lands[: ray_index[victim][d][near]]
            if self.first_only:
                lands = lands[:1]
            if not lands:
                continue
            any_capture = True
            continued = False
            stops = []
            for land in lands:
                nxt = (*path, land) if self.with_paths else path
                if self.king(land, after, now_empty, nxt, crowned, d):
                    continued = True
                elif not continued:
                    stops.append((land, nxt))
            if not continued:
                for land, nxt in stops:
                    self.record(land, after, nxt, crowned)
        return any_capture


class _DiagonalSearch(CaptureSearch):
    """The capture search of :class:`Generator`: men jump along the step tables, and
    the majority rule keeps the sequences that take the most pieces."""

    def __init__(self, gen: Generator, opp: int, prey: int, with_paths: bool, side: int) -> None:
        super().__init__(gen, opp, with_paths, _DIAGONALS, None)
        self.step = gen.step
        self.man_dirs = gen.man_capture_dirs[side]
        self.promo_row = gen.promotion_rows[side]
        self.promotion_rule = gen.capture_promotion
        self.majority = gen.majority
        self.prey = prey
        """The pieces a man may jump (all opposing pieces, or only the men)."""
        self.best = 1
        """Most pieces taken by a sequence so far (majority rule)."""

    def walk(self, men: int, kings: int, shifts: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        """Search from every man that can capture (found with whole-board shifts) and
        from every king."""
        base_empty = self.valid & ~(men | kings | self.opp)
        prey = self.prey
        candidates = 0
        left, right = shifts
        for n in left:
            candidates |= (((base_empty >> n) & prey) >> n) & men
        for n in right:
            candidates |= (((base_empty << n) & prey) << n) & men
        with_paths = self.with_paths
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            square = self.origin = low.bit_length() - 1
            self.man(square, 0, base_empty | low, (square,) if with_paths else ())
        while kings:
            low = kings & -kings
            kings ^= low
            square = self.origin = low.bit_length() - 1
            self.king(square, 0, base_empty | low, (square,) if with_paths else (), False, -1)

    def record(self, square: int, captured: int, path: BitPath, promoted: bool) -> None:
        if self.majority:
            n = popcount(captured)
            if n < self.best:
                return
            if n > self.best:
                self.best = n
                self.found.clear()
        super().record(square, captured, path, promoted)

    def man(self, square: int, captured: int, empty: int, path: BitPath) -> bool:
        """Extend a man's sequence from *square*; True if it captured further."""
        step = self.step
        any_capture = False
        for d in self.man_dirs:
            victim = step[square][d]
            if victim < 0:
                continue
            vbit = 1 << victim
            if not self.prey & vbit or captured & vbit:
                continue
            land = step[victim][d]
            now_empty = empty | vbit if self.immediate else empty
            if land < 0 or not (now_empty >> land) & 1:
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
            if not self.man(land, after, now_empty, nxt):
                self.record(land, after, nxt, bool((1 << land) & self.promo_row))
        return any_capture


_DIAGONALS: Final = (0, 1, 2, 3)
"""The four diagonal directions of the ray tables."""
