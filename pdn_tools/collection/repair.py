"""Repairing games: the edit the replay proposes for an illegal move, made in the
record, when with it the whole record validates without an error.

The replay searches, for an illegal move, the mis-recorded move behind it: a single
edit of the record (a move written wrongly at the failing ply or before it, two moves
exchanged, a move omitted or written twice) after which the rest of the line replays
(:attr:`pdn_tools.replay.ReplayResult.repairs`, :mod:`pdn_tools.replay.misrecord`).
When one edit is the unique best, :func:`repair_game` makes it: the move meant is
written in place of the one written, with a comment after it saying what was written
and the code of the finding (``{repaired: was 39-43 (E05)}``; for a move before the
failing one also where the replay broke and the kind of slip, ``{repaired: was 23-28
(E05 at ply 44: digit transposition)}``); an omitted move is inserted with a comment
saying so, and a move written twice or superfluous is struck out, its comments and a
note going to the move before it.  The game is then replayed again: a later illegal
move may now come to light and be repaired the same way (at most :data:`MAX_ROUNDS`
times).  The repair stands only if the game then has no error left; otherwise the
game is put back exactly as it was.  A game without an error is never touched.  An
edit of the last move of a line is never made: any legal move would let the (empty)
rest replay, so nothing confirms it; nor is an edit that tied with others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pdn_tools.diagnostics import Issue, Severity
from pdn_tools.pdn.model import Comment, Game, MoveText, Node
from pdn_tools.replay.options import Mend, ReplayOptions, ReplayResult
from pdn_tools.replay.slips import OMITTED, SLIPS
from pdn_tools.replay.validate import check_game
from pdn_tools.rules import Move, Variant, canonical_path, geometry_for, variant_by_name
from pdn_tools.rules.geometry import Geometry

MAX_ROUNDS = 8
"""Replays at most per game: each round makes the edits the last replay proposed."""
COMMENT = "repaired: was {written} ({code})"
"""The comment written after a move repaired where the replay broke."""
COMMENT_BEFORE = "repaired: was {written} ({code} at ply {ply}: {kind})"
"""The comment written after a move repaired before the ply where the replay broke."""
COMMENT_INSERTED = "repaired: missing from the record ({code}: {kind})"
"""The comment written after a move inserted where the record omitted it."""
COMMENT_DELETED = "repaired: {written} struck out after this move ({code}: {kind})"
"""The comment written after the move before one struck out."""


@dataclass(slots=True)
class Fix:
    """One edit made: the node it is noted on, the finding's code, and how to undo it."""

    node: Node
    code: str
    comment: Comment
    undo: Callable[[], None]


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
    fixes: list[Fix] = []
    current: ReplayResult | None = replay
    for _ in range(MAX_ROUNDS):
        assert current is not None
        made = _apply(game, current, variant, {id(fix.node) for fix in fixes})
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
        fix.undo()
    game.issues, game.draws = issues, draws
    return None


def _apply(game: Game, replay: ReplayResult, variant: Variant, done: set[int]) -> list[Fix]:
    """Make the unique edit proposed for each error that has one (and whose nodes
    were not edited before: *done* holds the ids of those)."""
    errors = {(i.line, i.column): i for i in _errors(game)}
    nodes = _nodes(game)
    geometry = geometry_for(variant.board)
    made: list[Fix] = []
    for where, repair in replay.repairs.items():
        issue = errors.get(where)
        if issue is None or len(repair.edits) != 1 or not repair.confirmed:
            continue
        mend = repair.edits[0]
        if nodes.get((mend.node.line, mend.node.column)) is not mend.node:
            continue
        touched = [mend.node] if mend.second is None else [mend.node, mend.second.node]
        if any(id(node) in done for node in touched):
            continue
        fixes = _make(mend, issue, variant, geometry)
        made.extend(fixes)
        done.update(id(fix.node) for fix in fixes)
    return made


def _make(mend: Mend, issue: Issue, variant: Variant, geometry: Geometry) -> list[Fix]:
    """Make one edit in the tree (nothing when the tree's shape does not allow it)."""
    label = SLIPS[mend.kind].label
    code = issue.code
    if mend.kind == OMITTED:
        return _insert(mend, code, label, variant, geometry)
    if mend.move is None:
        return _strike(mend, code, label)
    out = [_replace(mend, issue, label, variant, geometry)]
    if mend.second is not None:
        out.append(_replace(mend.second, issue, label, variant, geometry))
    return out


def _replace(mend: Mend, issue: Issue, label: str, variant: Variant, geometry: Geometry) -> Fix:
    """Write the move meant in place of the one written at ``mend.node``."""
    node = mend.node
    assert mend.move is not None
    written = node.raw or node.element_text()
    if issue.ply is not None and mend.ply != issue.ply:
        text = COMMENT_BEFORE.format(written=written, code=issue.code, ply=issue.ply, kind=label)
    else:
        text = COMMENT.format(written=written, code=issue.code)
    comment = Comment(text)
    old_move, old_raw = node.move, node.raw
    new = move_written(mend.move, variant, geometry, node.move)
    node.move = new
    node.raw = new.text()
    node.comments.insert(0, comment)

    def undo() -> None:
        node.move = old_move
        node.raw = old_raw
        node.comments.remove(comment)

    return Fix(node, issue.code, comment, undo)


def _insert(mend: Mend, code: str, label: str, variant: Variant, geometry: Geometry) -> list[Fix]:
    """Insert the omitted move before ``mend.node`` (not when that node has
    alternatives, which would become alternatives of the inserted move)."""
    node = mend.node
    parent = node.parent
    if mend.move is None or parent is None or len(parent.variations) != 1:
        return []
    new_move = move_written(mend.move, variant, geometry, node.move)
    inserted = Node(
        "move", parent, new_move, raw=new_move.text(), line=node.line, column=node.column
    )
    comment = Comment(COMMENT_INSERTED.format(code=code, kind=label))
    inserted.comments.append(comment)
    inserted.number, inserted.number_dots = node.number, node.number_dots
    inserted.number_line, inserted.number_column = node.number_line, node.number_column
    old_number, old_dots = node.number, node.number_dots
    old_place = node.number_line, node.number_column
    node.number = node.number_dots = None
    node.number_line = node.number_column = 0
    parent.variations[0] = inserted
    inserted.variations.append(node)
    node.parent = inserted

    def undo() -> None:
        parent.variations[0] = node
        node.parent = parent
        node.number, node.number_dots = old_number, old_dots
        node.number_line, node.number_column = old_place

    return [Fix(inserted, code, comment, undo)]


def _strike(mend: Mend, code: str, label: str) -> list[Fix]:
    """Strike out ``mend.node`` (a move written twice or superfluous): its comments,
    NAGs and a note go to the move before it (not done when there is none, or when
    the node or the one after it has alternatives)."""
    node = mend.node
    parent = node.parent
    if parent is None or parent.kind != "move" or len(parent.variations) != 1:
        return []
    if len(node.variations) > 1:
        return []
    following = node.variations[0] if node.variations else None
    written = node.raw or node.element_text()
    comment = Comment(COMMENT_DELETED.format(written=written, code=code, kind=label))
    old_comments, old_nags = parent.comments, parent.nags
    old_number = (following.number, following.number_dots) if following is not None else None
    old_place = (following.number_line, following.number_column) if following is not None else None
    parent.comments = [*old_comments, comment, *node.comments]
    parent.nags = [*old_nags, *node.nags]
    parent.variations[:] = [following] if following is not None else []
    if following is not None:
        following.parent = parent
        if following.number is None:
            following.number, following.number_dots = node.number, node.number_dots
            following.number_line, following.number_column = node.number_line, node.number_column

    def undo() -> None:
        parent.variations[:] = [node]
        parent.comments, parent.nags = old_comments, old_nags
        if following is not None and old_number is not None and old_place is not None:
            following.parent = node
            following.number, following.number_dots = old_number
            following.number_line, following.number_column = old_place

    return [Fix(parent, code, comment, undo)]


__all__ = [
    "COMMENT",
    "COMMENT_BEFORE",
    "COMMENT_DELETED",
    "COMMENT_INSERTED",
    "MAX_ROUNDS",
    "Fix",
    "Repaired",
    "move_written",
    "repair_game",
]
