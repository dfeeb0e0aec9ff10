"""Repairing games: the one move the replay proposes for an illegal move, written in
its place, when with it the whole record validates without an error.

The replay finds, for an illegal move, the legal moves with which the rest of the
line replays ("did you mean", :attr:`pdn_tools.replay.ReplayResult.repairs`).  When
it proposes exactly one, :func:`repair_game` writes that move in place of the one
written, with a comment after it saying what was written and the code of the
finding (``{repaired: was 39-43 (E05)}``), and replays the game again: a later
illegal move may now come to light and be repaired the same way (at most
:data:`MAX_ROUNDS` times).  The repair stands only if the game then has no error
left; otherwise the game is put back exactly as it was.  A game without an error is
never touched.  The last move of a line is never repaired: any legal move would let
the (empty) rest replay, so no proposal there is the only one.
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn_tools.diagnostics import Issue, Severity
from pdn_tools.pdn.model import Comment, Game, MoveText, Node
from pdn_tools.replay.options import ReplayOptions, ReplayResult
from pdn_tools.replay.validate import check_game
from pdn_tools.rules import Move, Variant, canonical_path, geometry_for, variant_by_name
from pdn_tools.rules.geometry import Geometry

MAX_ROUNDS = 8
"""Replays at most per game: each round repairs the illegal moves the last replay
proposed a single move for."""
COMMENT = "repaired: was {written} ({code})"
"""The comment written after a repaired move."""


@dataclass(slots=True)
class Fix:
    """One repaired move: the node, what it held before, and the finding's code."""

    node: Node
    move: MoveText | None
    raw: str
    code: str
    comment: Comment


@dataclass(slots=True)
class Repaired:
    """A repaired game's new replay and its fixes, in the order they were made."""

    replay: ReplayResult
    fixes: list[Fix]


def _nodes(game: Game) -> dict[tuple[int, int], Node]:
    """Every move node of the tree by (line, column)."""
    out: dict[tuple[int, int], Node] = {}
    stack = list(game.variations)
    while stack:
        node = stack.pop()
        if node.kind == "move":
            out.setdefault((node.line, node.column), node)
        stack.extend(node.variations)
    return out


def _square_text(square: int, geometry: Geometry, algebraic: bool) -> str:
    if not algebraic:
        return str(square)
    for (row, col), number in geometry.square_at.items():
        if number == square:
            return f"{chr(ord('a') + col)}{geometry.spec.height - row}"
    return str(square)  # not reached: every playing square has a place


def move_written(
    move: Move, variant: Variant, geometry: Geometry, like: MoveText | None
) -> MoveText:
    """*move* as a written move: its full path (unambiguous whatever else is legal),
    in algebraic squares when the move it replaces was written so."""
    algebraic = like is not None and any(not s.isdigit() for s in like.squares)
    path = canonical_path(move, variant)
    squares = tuple(_square_text(s, geometry, algebraic) for s in path)
    return MoveText(squares, bool(move.captures), like.mark if like is not None else None)


def _errors(game: Game) -> list[Issue]:
    return [issue for issue in game.issues if issue.level is Severity.ERROR]


def repair_game(
    game: Game,
    replay: ReplayResult | None,
    options: ReplayOptions,
    reading: list[Issue],
    *,
    strict: bool = False,
) -> Repaired | None:
    """Repair *game* in place (see the module's description) and return its new
    replay, or None and leave it as it was.

    *replay* is the game's replay and *reading* the findings of reading it (those
    in ``game.issues`` before the replay added its own).
    """
    if replay is None or not replay.replayed or replay.variant is None or not _errors(game):
        return None
    variant = variant_by_name(replay.variant)
    issues, draws = list(game.issues), game.draws
    nodes = _nodes(game)
    fixes: list[Fix] = []
    current: ReplayResult | None = replay
    for _ in range(MAX_ROUNDS):
        assert current is not None
        made = _apply(game, current, nodes, variant, {id(fix.node) for fix in fixes})
        if not made:
            break
        fixes.extend(made)
        game.issues = list(reading)
        game.draws = []
        current = check_game(game, options, strict=strict)
        if current is None:
            break
        if not _errors(game):
            return Repaired(current, fixes)
    for fix in reversed(fixes):  # put the game back as it was
        fix.node.move = fix.move
        fix.node.raw = fix.raw
        fix.node.comments.remove(fix.comment)
    game.issues, game.draws = issues, draws
    return None


def _apply(
    game: Game,
    replay: ReplayResult,
    nodes: dict[tuple[int, int], Node],
    variant: Variant,
    done: set[int],
) -> list[Fix]:
    """Write the single proposed move in place of each illegal move that has one (and
    was not repaired before: *done* holds the ids of those nodes)."""
    errors = {(i.line, i.column): i for i in _errors(game)}
    geometry = geometry_for(variant.board)
    made: list[Fix] = []
    for where, proposed in replay.repairs.items():
        issue = errors.get(where)
        node = nodes.get(where)
        if len(proposed) != 1 or issue is None or node is None or id(node) in done:
            continue
        if not node.variations:
            continue  # the last move of a line: any legal move would "replay the rest"
        written = node.raw or node.element_text()
        comment = Comment(COMMENT.format(written=written, code=issue.code))
        fix = Fix(node, node.move, node.raw, issue.code, comment)
        new = move_written(proposed[0], variant, geometry, node.move)
        node.move = new
        node.raw = new.text()
        node.comments.insert(0, comment)
        made.append(fix)
    return made


__all__ = ["COMMENT", "MAX_ROUNDS", "Fix", "Repaired", "move_written", "repair_game"]
