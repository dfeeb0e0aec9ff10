"""What a search says about a position: score, principal variation, depth, nodes.

:func:`analyse` is the searcher's public face: it takes a
:class:`~pdn_tools.rules.board.Board` (or a position and its variant), searches it
with a depth, node or time budget, and returns an :class:`Analysis` whose principal
variation is made of the engine's own :class:`~pdn_tools.rules.move.Move` objects,
each legal in the position it is played from.  Importing this package also gives
``Board.analyse`` (the rules engine's registry :data:`~pdn_tools.rules.board.ANALYSERS`),
so that the board does not import the layer above it.
"""

from __future__ import annotations

from collections.abc import Callable

from pdn_tools.rules.board import Board
from pdn_tools.rules.generators import legal_moves
from pdn_tools.rules.move import Move
from pdn_tools.rules.notation import move_text
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import INTERNATIONAL, Color, Variant
from pdn_tools.search.searcher import MAX_PLY, WIN, Iteration, RawMove, Searcher


class Analysis:
    """The result of a search.

    ``score`` is in centi-men (a man is 100) from the side to move's point of view;
    ``white_score`` from White's.  ``win_in`` is set when the search found a forced
    end: the number of plies to it, positive when the side to move wins, negative
    when it loses (``score`` is then ± :data:`~pdn_tools.search.searcher.WIN` less
    those plies).  ``pv`` is the principal variation from the position searched,
    ``pv_text`` the same in canonical notation.
    """

    __slots__ = ("depth", "nodes", "pv", "pv_text", "score", "seconds", "turn", "win_in")

    def __init__(
        self,
        score: int,
        pv: list[Move],
        pv_text: list[str],
        depth: int,
        nodes: int,
        seconds: float,
        turn: Color,
    ) -> None:
        self.score = score
        self.pv = pv
        self.pv_text = pv_text
        self.depth = depth
        self.nodes = nodes
        self.seconds = seconds
        self.turn = turn
        self.win_in: int | None = None
        if abs(score) > WIN - MAX_PLY:
            plies = WIN - abs(score)
            self.win_in = plies if score > 0 else -plies

    @property
    def white_score(self) -> int:
        """The score from White's point of view (centi-men)."""
        return self.score if self.turn is Color.WHITE else -self.score

    @property
    def white_win_in(self) -> int | None:
        """Plies to a forced end, positive when White wins, negative when Black does."""
        if self.win_in is None:
            return None
        return self.win_in if self.turn is Color.WHITE else -self.win_in

    @property
    def best_move(self) -> Move | None:
        """The first move of the principal variation (None: no legal move)."""
        return self.pv[0] if self.pv else None

    def __repr__(self) -> str:
        line = " ".join(self.pv_text)
        return f"<Analysis score={self.score} depth={self.depth} nodes={self.nodes} pv={line!r}>"


def engine_line(
    position: Position, variant: Variant, raw: list[RawMove]
) -> tuple[list[Move], list[str]]:
    """The raw moves of a principal variation as legal :class:`Move` objects and their
    canonical texts, played from *position* (stops at a move that is not legal there,
    which a correct search never gives)."""
    moves: list[Move] = []
    texts: list[str] = []
    for frm, to, cap, _promotes in raw:
        legal = legal_moves(position, variant)
        found = None
        for move in legal:
            if move.from_mask == 1 << frm and move.to_mask == 1 << to and move.capture_mask == cap:
                found = move
                break
        if found is None:
            break
        moves.append(found)
        texts.append(move_text(found, legal, variant))
        position = position.apply(found)
    return moves, texts


def _check_budget(depth: int | None, nodes: int | None, seconds: float | None) -> None:
    """Refuse a budget that allows no search (see :func:`analyse`)."""
    for name, value in (("depth", depth), ("nodes", nodes)):
        if value is not None and value < 1:
            raise ValueError(f"{name} must be at least 1, not {value}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be above 0, not {seconds}")


def analyse(
    board: Board | Position,
    variant: Variant = INTERNATIONAL,
    *,
    depth: int | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    searcher: Searcher | None = None,
    check: Callable[[], bool] | None = None,
    report: Callable[[Analysis], None] | None = None,
) -> Analysis:
    """Search *board* (a :class:`Board`, or a :class:`Position` of *variant*) and say
    what the searcher found.

    The budget is any of *depth* (plies), *nodes* and *seconds*; the first spent ends
    the search (depth 4 when none is given).  A node budget gives the same result on
    every run.  Pass one *searcher* per variant to keep its transposition table
    between positions (a game annotated ply by ply); *check* may stop the search
    (return True), and *report* sees each completed iteration.  A budget of no search
    (a depth or node count below 1, seconds not above 0, NaN) is a ValueError, not a
    quiet depth-1 search.
    """
    _check_budget(depth, nodes, seconds)
    if isinstance(board, Board):
        position, variant = board.position, board.variant
    else:
        position = board
    if searcher is None or searcher.variant is not variant:
        searcher = Searcher(variant)

    def wrap(iteration: Iteration) -> Analysis:
        pv, texts = engine_line(position, variant, iteration.pv)
        return Analysis(
            iteration.score,
            pv,
            texts,
            iteration.depth,
            iteration.nodes,
            iteration.seconds,
            position.turn,
        )

    on_iteration = None
    if report is not None:
        callback = report

        def on_iteration(iteration: Iteration) -> None:
            callback(wrap(iteration))

    result = searcher.search(position, depth, nodes, seconds, check, on_iteration)
    return wrap(result)


def _board_analyse(
    board: Board, depth: int | None = None, nodes: int | None = None, seconds: float | None = None
) -> Analysis:
    return analyse(board, depth=depth, nodes=nodes, seconds=seconds)
