"""Evaluating positions for an annotated collection: the built-in searcher or a Hub
engine, behind one cache per process.

Every position of a game is searched once (the best move *at* a ply and the
evaluation *after* the ply before it come from the same search), and positions shared
by many games — openings above all — are searched once per process: the cache is keyed
by the variant, the position and the engine with its budget, and holds the result, not
the search.  It is bounded (:data:`CACHE_LIMIT` entries, emptied when full) and lives
in the process that annotates (each worker of ``--jobs`` or of a Dask cluster has its
own), so the results do not depend on which worker met a position first: the built-in
searcher starts each position with an empty transposition table, so that a node
budget gives the same answer for a position whatever was searched before it.

A Hub engine is started once per thread of a process (a Dask worker may run several
threads, which share the cache but not a searcher or an engine) and command, on first
use, and ended when the process ends (or by :func:`close_engines`).
"""

from __future__ import annotations

import atexit
import threading
from dataclasses import dataclass

from pdn_tools.replay.resolve import canonical_move_text
from pdn_tools.rules import Position, Variant, legal_moves
from pdn_tools.search import Searcher, analyse
from pdn_tools.search.hub_client import HubEngine, HubResult

CACHE_LIMIT = 200_000
"""Positions kept in a process's cache before it is emptied."""
MATE = 100_000
"""The centi-men a forced win counts for when evaluations are compared (less the plies
to it): beyond any material count."""
UNKNOWN_PLIES = 1000
"""The plies a forced win of unknown distance counts as away, when compared: behind
every win whose distance is known, beyond any material count."""


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """Which engine evaluates, with which budget (hashable: part of the cache key)."""

    nodes: int | None = 2000
    depth: int | None = None
    command: str | None = None
    """A Hub engine's command line (None: the built-in searcher)."""
    params: tuple[tuple[str, str], ...] = ()
    """Hub ``set-param`` values."""
    timeout: float = 60.0
    """Longest wait for a Hub engine's answer, in seconds."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position's evaluation, from White's point of view.

    ``cp`` in centi-men (None when the engine gave no score); ``mate`` the moves to a
    forced end, positive when White wins, negative when Black does (None: none found);
    ``pv`` the best line in canonical notation (first move: the best move).
    """

    cp: int | None
    mate: int | None
    pv: tuple[str, ...]
    mate_plies: int | None = None
    """The plies to the forced end (signed as ``mate``)."""
    over: int = 0
    """The game is over on the board: 1 White has won, -1 Black has (no evaluation)."""
    won: int = 0
    """A forced win whose distance the engine did not give (Scan's won endgames): 1
    for White, -1 for Black."""

    def comparable(self) -> int | None:
        """One number to compare evaluations by: centi-men, forced wins beyond all;
        None when the engine gave no score (nothing to compare: no blunder is judged
        on it)."""
        if self.over:
            return self.over * MATE
        if self.mate_plies is not None:
            plies = abs(self.mate_plies)
            return MATE - plies if self.mate_plies > 0 else plies - MATE
        if self.won:
            return self.won * (MATE - UNKNOWN_PLIES)
        return self.cp

    def text(self) -> str:
        """The value of the ``[%eval …]`` command: ``+0.35`` in men, ``#N`` / ``#-N``
        (empty when the game is over on the board, when the engine gave no score — a
        missing score is never written as an even game — and for a forced win of
        unknown distance, which :meth:`words` says)."""
        if self.over:
            return ""
        if self.mate is not None:
            return f"#{self.mate}"
        if self.cp is None:
            return ""
        return f"{self.cp / 100:+.2f}"

    def outcome(self) -> int | None:
        """The forced result the evaluation announces: 1 White wins, -1 Black does, 0
        none (a count of material); None when the engine gave no score."""
        if self.over:
            return self.over
        if self.mate_plies is not None:
            return 1 if self.mate_plies > 0 else -1
        if self.mate is not None:
            return 1 if self.mate > 0 else -1
        if self.won:
            return self.won
        return None if self.cp is None else 0

    def words(self) -> str:
        """A forced win of unknown distance in words (``forced win for White``), where
        ``[%eval]`` cannot say it; empty otherwise."""
        if not self.won:
            return ""
        return f"forced win for {'White' if self.won > 0 else 'Black'}"


_CACHE: dict[tuple[str, tuple[int, int, int, int, bool], EngineChoice], Evaluation] = {}
_OWN = threading.local()
"""This thread's searchers (by variant) and Hub engines (by choice)."""
_STARTED: list[HubEngine] = []
"""Every Hub engine this process started, whichever thread uses it."""
_STARTING = threading.Lock()


def _searchers() -> dict[str, Searcher]:
    own: dict[str, Searcher] | None = getattr(_OWN, "searchers", None)
    if own is None:
        own = _OWN.searchers = {}
    return own


def _engines() -> dict[EngineChoice, HubEngine]:
    own: dict[EngineChoice, HubEngine] | None = getattr(_OWN, "engines", None)
    if own is None:
        own = _OWN.engines = {}
    return own


def _white(
    score: int | None, win_in: int | None, white_to_move: bool, pv: tuple[str, ...]
) -> Evaluation:
    sign = 1 if white_to_move else -1
    if win_in is not None:
        plies = sign * win_in
        moves = (abs(plies) + 1) // 2
        return Evaluation(None, moves if plies > 0 else -moves, pv, plies)
    return Evaluation(None if score is None else sign * score, None, pv)


def _texts(position: Position, variant: Variant, moves: list[object]) -> tuple[str, ...]:
    texts: list[str] = []
    for move in moves:
        legal = legal_moves(position, variant)
        if move not in legal:
            break
        # In the notation of the canonical moves the line is written among.
        texts.append(canonical_move_text(move, legal, variant))  # type: ignore[arg-type]
        position = position.apply(move)  # type: ignore[arg-type]
    return tuple(texts)


def evaluate_position(position: Position, variant: Variant, choice: EngineChoice) -> Evaluation:
    """The evaluation of *position* (a game's variant *variant*) by *choice*, from this
    process's cache when it was met before.  Raises
    :class:`~pdn_tools.search.hub.HubError` when a Hub engine fails."""
    key = (variant.name, position.key(), choice)
    known = _CACHE.get(key)
    if known is not None:
        return known
    white = position.white_to_move
    if not legal_moves(position, variant):
        # A side without a move has lost: no search, no line.
        found = Evaluation(None, None, (), None, -1 if white else 1)
    elif choice.command is None:
        searchers = _searchers()
        searcher = searchers.get(variant.name)
        if searcher is None or searcher.variant is not variant:
            searcher = Searcher(variant)
            searchers[variant.name] = searcher
        searcher.clear()  # a node budget then gives the same answer whatever came before
        result = analyse(
            position, variant, depth=choice.depth, nodes=choice.nodes, searcher=searcher
        )
        found = _white(
            result.score, result.win_in, white, _texts(position, variant, list(result.pv))
        )
    else:
        hub = _engine(choice)
        answer: HubResult = hub.analyse(position, variant, depth=choice.depth, nodes=choice.nodes)
        # The engine's move is the one of ``done``; its last pv is the best line only
        # when it starts with that move (a pv of an earlier depth may not).
        line: list[object] = list(answer.pv)
        if answer.best_move is not None and (not line or line[0] != answer.best_move):
            line = [answer.best_move]
        found = _white(answer.score, answer.win_in, white, _texts(position, variant, line))
        if answer.won and found.mate is None:
            found = Evaluation(None, None, found.pv, won=answer.won if white else -answer.won)
    if len(_CACHE) >= CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[key] = found
    return found


def _engine(choice: EngineChoice) -> HubEngine:
    engines = _engines()
    engine = engines.get(choice)
    if engine is not None:
        with _STARTING:
            if not any(started is engine for started in _STARTED):
                engine = None  # closed by close_engines: start another
    if engine is None:
        assert choice.command is not None
        engine = HubEngine(choice.command, timeout=choice.timeout, params=dict(choice.params))
        with _STARTING:
            _STARTED.append(engine)
        engines[choice] = engine
    return engine


def close_engines() -> None:
    """End every Hub engine this process started (in any thread)."""
    with _STARTING:
        started = list(_STARTED)
        _STARTED.clear()
    for engine in started:
        engine.close()
    _engines().clear()


atexit.register(close_engines)
