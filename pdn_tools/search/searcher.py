"""The searcher: negamax alpha-beta on the engine's bitboards.

One :class:`Searcher` per variant.  It searches a position by iterative deepening
(depth 1, 2, … until the depth, node or time budget is spent), each iteration a
negamax alpha-beta search whose leaves are resolved by a quiescence search over the
capture sequences: captures are compulsory in every variant, so a leaf where the side
to move must capture is never judged statically — the captures are played out (up to
:data:`QUIESCENCE_PLIES` deep) and only quiet positions are evaluated
(:mod:`.evaluate`).

A transposition table (position → depth, score, bound, best move) orders the moves
(its best move first) and cuts the search where a result of the same depth is known.
Only a result of *exactly* the depth asked for is reused as a score, so the score of a
search to depth *d* is the minimax value of the tree to depth *d* (plus quiescence)
whatever was searched before: results are reproducible, the same for a position however
it was reached and whatever the table held, and the colour-flipped position gets the
same score (tested).  The table survives between searches of one searcher (that is the
evaluation cache of a worker that annotates many games) and is emptied when it
outgrows its bound.

Scores are centi-men from the side to move's point of view.  A side with no legal
move has lost: such a leaf scores ``-(WIN - ply)``, so a shorter win scores higher;
``abs(score) > WIN - MAX_PLY`` marks a forced win or loss.  Draw rules that depend on
the history (repetition, move counts, Frisian king-move limits) are not searched: the
searcher judges the board alone.

Moves are the generator's raw tuples (from bit, to bit, captured mask, promotes); the
callers turn them into :class:`~pdn_tools.rules.move.Move` objects.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pdn_tools.rules.generators import generator_for
from pdn_tools.rules.geometry import geometry_for
from pdn_tools.rules.movegen import Generator
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import Color, Variant
from pdn_tools.search.evaluate import Weights, score_white, weights_for

RawMove = tuple[int, int, int, bool]
"""A move as the generator lists it: from bit, to bit, captured mask, promotes."""
TableEntry = tuple[int, int, int, RawMove | None]
"""depth, score, bound (:data:`EXACT`, :data:`LOWER`, :data:`UPPER`), best move."""

WIN = 1_000_000
"""The score of a won position (less the plies to the win)."""
MAX_PLY = 1000
"""More plies than any search reaches: scores beyond ``WIN - MAX_PLY`` are wins."""
MAX_DEPTH = 64
"""Deepest iteration searched."""
QUIESCENCE_PLIES = 24
"""Longest run of capture plies the quiescence search plays out beyond the depth."""
TABLE_LIMIT = 1_000_000
"""Entries of the transposition table before it is emptied."""
CHECK_EVERY = 1023
"""The time budget and the stop callback are looked at every 1024 nodes."""

EXACT = 0
LOWER = 1
UPPER = 2


class SearchStopped(Exception):
    """Raised inside the search when its budget is spent (caught by :meth:`Searcher.search`)."""


class Iteration:
    """The result of one completed iteration of the deepening."""

    __slots__ = ("depth", "nodes", "pv", "score", "seconds")

    def __init__(
        self, depth: int, score: int, pv: list[RawMove], nodes: int, seconds: float
    ) -> None:
        self.depth = depth
        self.score = score
        """Centi-men for the side to move (see :data:`WIN`)."""
        self.pv = pv
        self.nodes = nodes
        self.seconds = seconds


class Searcher:
    """Alpha-beta search for one variant, with its transposition table."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.gen: Generator = generator_for(variant)
        self.weights: Weights = weights_for(variant, geometry_for(variant.board))
        self.table: dict[tuple[int, int, int, int, bool], TableEntry] = {}
        self.nodes = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.limited = False
        self.check: Callable[[], bool] | None = None
        self.pv: list[list[RawMove]] = [[] for _ in range(MAX_PLY + 1)]

    def clear(self) -> None:
        """Forget the transposition table (a new, unrelated game)."""
        self.table = {}

    # ------------------------------------------------------------------ driver
    def search(
        self,
        position: Position,
        depth: int | None = None,
        nodes: int | None = None,
        seconds: float | None = None,
        check: Callable[[], bool] | None = None,
        report: Callable[[Iteration], None] | None = None,
    ) -> Iteration:
        """Search *position* by iterative deepening and return the deepest completed
        iteration.

        The search stops after *depth* plies, or once it has visited *nodes* nodes, or
        after *seconds*, or when *check* (called every 1024 nodes) returns True —
        whichever comes first; depth 1 is always completed.  Without any limit it
        searches to depth 4.  *report* is called after each completed iteration.  A
        node budget gives the same result on every run; a time budget does not.
        """
        if depth is None and nodes is None and seconds is None and check is None:
            depth = 4
        max_depth = MAX_DEPTH if depth is None else max(1, min(depth, MAX_DEPTH))
        start = time.monotonic()
        self.nodes = 0
        self.node_limit = nodes if nodes is not None else -1
        self.deadline = start + seconds if seconds is not None else -1.0
        self.check = check
        if len(self.table) > TABLE_LIMIT:
            self.table = {}
        white = position.turn is Color.WHITE
        wm, wk = position.white_men, position.white_kings
        bm, bk = position.black_men, position.black_kings
        best: Iteration | None = None
        for iteration in range(1, max_depth + 1):
            self.limited = iteration > 1
            try:
                score = self.negamax(wm, wk, bm, bk, white, iteration, -WIN - 1, WIN + 1, 0)
            except SearchStopped:
                break
            best = Iteration(
                iteration, score, list(self.pv[0]), self.nodes, time.monotonic() - start
            )
            if report is not None:
                report(best)
            if abs(score) > WIN - MAX_PLY and WIN - abs(score) <= iteration:
                break  # a forced end within the horizon: deeper finds nothing new
            if self.out_of_budget():
                break
        assert best is not None  # depth 1 is never stopped
        return best

    def out_of_budget(self) -> bool:
        """Whether the node or time budget is spent."""
        if 0 <= self.node_limit <= self.nodes:
            return True
        return self.deadline >= 0 and time.monotonic() >= self.deadline

    def tick(self) -> None:
        """Count a node and stop the iteration when the budget is spent."""
        self.nodes += 1
        if not self.limited:
            return
        if 0 <= self.node_limit < self.nodes:
            raise SearchStopped
        if self.nodes & CHECK_EVERY == 0:
            if self.deadline >= 0 and time.monotonic() >= self.deadline:
                raise SearchStopped
            check = self.check
            if check is not None and check():
                raise SearchStopped

    # ------------------------------------------------------------------ search
    def moves(self, wm: int, wk: int, bm: int, bk: int, white: bool) -> list[RawMove]:
        """The legal moves of the side to move (raw)."""
        if white:
            return self.gen.raw_moves(wm, wk, bm | bk, bk, True)
        return self.gen.raw_moves(bm, bk, wm | wk, wk, False)

    def negamax(
        self,
        wm: int,
        wk: int,
        bm: int,
        bk: int,
        white: bool,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        """The score of a node for the side to move, searched *depth* plies deep."""
        self.pv[ply] = []
        if depth <= 0 or ply >= MAX_PLY - QUIESCENCE_PLIES - 1:
            return self.quiesce(wm, wk, bm, bk, white, alpha, beta, ply, 0)
        self.tick()
        key = (wm, wk, bm, bk, white)
        entry = self.table.get(key)
        first: RawMove | None = None
        if entry is not None:
            first = entry[3]
            if entry[0] == depth:
                stored = from_table(entry[1], ply)
                bound = entry[2]
                if (
                    bound == EXACT
                    or (bound == LOWER and stored >= beta)
                    or (bound == UPPER and stored <= alpha)
                ):
                    if first is not None:
                        self.pv[ply] = [first]
                    return stored
        moves = self.moves(wm, wk, bm, bk, white)
        if not moves:
            return ply - WIN
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        else:
            first = None
            if not moves[0][2]:
                moves.sort(key=_quiet_order, reverse=True)
        original = alpha
        best = -WIN - 1
        best_move: RawMove | None = None
        for move in moves:
            cwm, cwk, cbm, cbk = play(wm, wk, bm, bk, white, move)
            score = -self.negamax(cwm, cwk, cbm, cbk, not white, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    self.pv[ply] = [move, *self.pv[ply + 1]]
                    if score >= beta:
                        break
        bound = EXACT
        if best <= original:
            bound = UPPER
        elif best >= beta:
            bound = LOWER
        self.table[key] = (depth, to_table(best, ply), bound, best_move)
        return best

    def quiesce(
        self,
        wm: int,
        wk: int,
        bm: int,
        bk: int,
        white: bool,
        alpha: int,
        beta: int,
        ply: int,
        plies: int,
    ) -> int:
        """The score of a leaf: captures played out while the side to move must capture,
        the static evaluation of the first quiet position (a side without moves has
        lost)."""
        self.tick()
        self.pv[ply] = []
        gen = self.gen
        if white:
            own_men, own_kings, opp, opp_kings = wm, wk, bm | bk, bk
        else:
            own_men, own_kings, opp, opp_kings = bm, bk, wm | wk, wk
        if plies < QUIESCENCE_PLIES and gen.has_capture(own_men, own_kings, opp, opp_kings, white):
            best = -WIN - 1
            for move in gen.raw_moves(own_men, own_kings, opp, opp_kings, white):
                cwm, cwk, cbm, cbk = play(wm, wk, bm, bk, white, move)
                score = -self.quiesce(
                    cwm, cwk, cbm, cbk, not white, -beta, -alpha, ply + 1, plies + 1
                )
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        self.pv[ply] = [move, *self.pv[ply + 1]]
                        if score >= beta:
                            break
            return best
        if not own_men | own_kings or not gen.count_moves(
            own_men, own_kings, opp, opp_kings, white
        ):
            return ply - WIN
        score = score_white(self.weights, wm, wk, bm, bk)
        return score if white else -score


def play(
    wm: int, wk: int, bm: int, bk: int, white: bool, move: RawMove
) -> tuple[int, int, int, int]:
    """The bitboards (white men, white kings, black men, black kings) after *move*."""
    frm, to, cap, promotes = move
    src = 1 << frm
    dst = 1 << to
    keep = ~cap
    if white:
        if wm & src:
            if promotes:
                return wm ^ src, wk | dst, bm & keep, bk & keep
            return wm ^ src | dst, wk, bm & keep, bk & keep
        return wm, wk ^ src | dst, bm & keep, bk & keep
    if bm & src:
        if promotes:
            return wm & keep, wk & keep, bm ^ src, bk | dst
        return wm & keep, wk & keep, bm ^ src | dst, bk
    return wm & keep, wk & keep, bm, bk ^ src | dst


def _quiet_order(move: RawMove) -> int:
    """Quiet moves that crown first (a cheap ordering; the table does the rest)."""
    return 1 if move[3] else 0


def to_table(score: int, ply: int) -> int:
    """A score as stored: wins counted from the node, not from the root."""
    if score > WIN - MAX_PLY:
        return score + ply
    if score < MAX_PLY - WIN:
        return score - ply
    return score


def from_table(score: int, ply: int) -> int:
    """A stored score seen from a node *ply* plies below the root."""
    if score > WIN - MAX_PLY:
        return score - ply
    if score < MAX_PLY - WIN:
        return score + ply
    return score
