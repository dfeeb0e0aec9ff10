"""A game annotated ply by ply: evaluation, best move, best line, blunders.

For every ply of the main line that the replay resolved, the position before it and
the position after it are evaluated (:mod:`.engines`; each position once — the
position after a ply is the one before the next).  The ply's node gets one comment,
after any it had::

    {[%eval +0.35] [%best 33-28] 19-23 28x19 14x23}
    {[%eval -2.10] [%best 32-28] blunder -2.15: 17-22 28x17 11x22}

* ``[%eval …]`` — the evaluation of the position *after* the move, in men from
  White's point of view (``+0.35``: White is a third of a man better; a man is 1.00,
  the moves table's ``eval_cp`` 35); ``#N`` a forced win for White in N moves,
  ``#-N`` for Black; absent when the move ended the game (the other side has no
  move) and when the engine gave no score (no blunder is judged then);
* ``[%best …]`` — the engine's move in the position *before* the move (what it would
  have played instead; the moves table's ``best_move``);
* ``blunder -2.15:`` — the move lost at least the blunder threshold
  (:data:`BLUNDER_THRESHOLD` centi-men unless set) against the best move, for the side
  that played it: the evaluation before the move (with the best move) less the
  evaluation after it, seen from the mover; never the engine's own best move (a drop
  after it is the first search's horizon); a move that changes a forced result is
  said in words instead — ``blunder (allows a forced loss, #3)``, ``blunder (misses
  a forced win, #-4)`` — never as the distance between a forced win's internal
  score and material;
* then the best line from the position after the move (at most :data:`LINE_PLIES`
  plies).

With plausibility options, the moves an engine finds implausible — legal moves that
look mis-recorded (W70, :mod:`.plausibility`) — become findings of the game and get a
second comment, ``{possibly mis-recorded (W70): 32-28?}``.

An earlier analysis of an annotated node is removed — the comments written as this
module writes them go whole, and ``[%eval]`` / ``[%best]`` commands go from any other
comment, whose own text stays (a comment left empty goes with them) — so a file
analysed twice holds one analysis, the same as analysed once.  The
annotation stops at the first ply that the replay did not resolve (an illegal move)
or at a set-up in the middle of the moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pdn_tools.analysis.engines import EngineChoice, Evaluation, evaluate_position
from pdn_tools.analysis.plausibility import PlausibilityOptions, flag_implausible
from pdn_tools.pdn.model import Comment, Game, Node
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.resolve import resolve
from pdn_tools.rules import Color, Position

BLUNDER_THRESHOLD = 150
"""Centi-men a move must lose against the best move to be flagged a blunder (a man
and a half: beyond what a shallow search misjudges in quiet positions)."""
LINE_PLIES = 12
"""Longest best line written after a move."""
_OWN_COMMANDS = re.compile(r"\s*\[%(?:eval|best)\s[^\]]*\]")
_MOVE = r"[0-9a-z]+(?:[-x:][0-9a-z]+)+"
_OWN_COMMENT = re.compile(
    r"(?:(?:\[%eval [^\]\s]+\]|forced win for (?:White|Black))(?:\s+\[%best [^\]\s]+\])?"
    r"|\[%best [^\]\s]+\])"
    r"(?:\s+blunder(?: [+-]\d+\.\d\d| \([^()]*\)):?)?"
    rf"(?:\s+{_MOVE})*"
    r"|possibly mis-recorded \(W70\): \S+\?"
)
"""A whole comment as this module writes it (the analysis of a ply, or the W70
doubt): an earlier analysis's, replaced when the game is analysed again.  It starts
with the evaluation or the best move, so a comment of moves alone — a reader's line —
is never taken for one."""


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    """How games are analysed: the engine and its budget, the blunder threshold."""

    engine: EngineChoice = field(default_factory=EngineChoice)
    blunder: int = BLUNDER_THRESHOLD
    variant: str | None = None
    """The variant assumed for games that do not say (``--variant``)."""
    plausibility: PlausibilityOptions | None = None
    """Also doubt implausible moves (W70; None: not looked for)."""


@dataclass(slots=True)
class Annotated:
    """What the analysis of one game did: plies annotated, and the blunders as (ply,
    centi-men lost) pairs."""

    plies: int = 0
    blunders: list[tuple[int, int]] = field(default_factory=list)
    doubted: int = 0
    """Moves found possibly mis-recorded (W70)."""


def _plies(
    game: Game, replay: ReplayResult | None, variant: str | None
) -> tuple[object, list[tuple[Node, Position, Position, int, str]]]:
    """The variant and the resolved main-line plies: (node, before, after, ply, the
    move's canonical text)."""
    resolution = resolve(game, replay, variant)
    if resolution.variant is None or resolution.start is None:
        return None, []
    out: list[tuple[Node, Position, Position, int, str]] = []
    before = resolution.start
    ply = 0
    for node in game.mainline():
        if node.kind == "setup":
            break
        ply += 1
        if id(node) in resolution.merged:
            continue
        resolved = resolution.get(node)
        if resolved is None:
            break
        out.append((node, before, resolved.after, ply, resolved.text))
        before = resolved.after
    return resolution.variant, out


def annotate_game(game: Game, replay: ReplayResult | None, options: AnalysisOptions) -> Annotated:
    """Write the analysis of *game*'s main line into its nodes (see the module)."""
    variant, plies = _plies(game, replay, options.variant)
    done = Annotated()
    if not plies:
        return done
    from pdn_tools.rules import Variant

    assert isinstance(variant, Variant)
    evaluations: list[Evaluation] = [evaluate_position(plies[0][1], variant, options.engine)]
    for _node, _before, after, _ply, _text in plies:
        evaluations.append(evaluate_position(after, variant, options.engine))
    for index, (node, before, _after, ply, text) in enumerate(plies):
        ahead, behind = evaluations[index], evaluations[index + 1]
        sign = 1 if before.turn is Color.WHITE else -1
        parts: list[str] = []
        if behind.text():
            parts.append(f"[%eval {behind.text()}]")
        elif behind.words():
            parts.append(behind.words())
        if ahead.pv:
            parts.append(f"[%best {ahead.pv[0]}]")
        line = " ".join(behind.pv[:LINE_PLIES])
        # The engine's own move loses nothing against itself: a drop between the two
        # searches is their horizon, not the move.
        verdict = _blunder(ahead, behind, sign, options.blunder)
        if verdict is not None and ahead.pv and ahead.pv[0] != text:
            lost, words = verdict
            done.blunders.append((ply, lost))
            parts.append(f"{words}:" if line else words)
        _drop_own_commands(node)
        if parts:  # neither evaluation nor move: no comment (a line alone says nothing)
            if line:
                parts.append(line)
            node.comments.append(Comment(" ".join(parts)))
        done.plies += 1
    if options.plausibility is not None and game.status != "error":
        done.doubted = len(flag_implausible(game, replay, options.plausibility, comment=True))
    return done


def _blunder(
    ahead: Evaluation, behind: Evaluation, sign: int, threshold: int
) -> tuple[int, str] | None:
    """Whether a move from a position evaluated *ahead* (with the best move) to one
    evaluated *behind* is a blunder for the side that played it (*sign*: 1 White, -1
    Black): what it lost (centi-men; the comparable scale when a forced result is
    lost) and how the comment says it, or None.

    A forced result lost is said in words with the evaluation that shows it
    (``blunder (allows a forced loss, #-3)``, ``blunder (misses a forced win, #4)``),
    never as the distance between the internal scores of a forced win and of
    material; a forced win that only gets longer, or a forced loss that only gets
    nearer, is no blunder: the result stands.  Nothing is judged when either side has
    no score."""
    was, now = ahead.outcome(), behind.outcome()
    first, second = ahead.comparable(), behind.comparable()
    if was is None or now is None or first is None or second is None:
        return None
    lost = sign * (first - second)
    was, now = sign * was, sign * now  # from the mover's side
    if was == 0 and now == 0:
        if lost < threshold:
            return None
        return lost, f"blunder {-lost / 100:+.2f}"
    if now >= was:
        return None
    said: list[str] = []
    if was > 0:
        shown = ahead.text()
        said.append(f"misses a forced win, {shown}" if shown else "misses a forced win")
    if now < 0:
        shown = behind.text()
        said.append(f"allows a forced loss, {shown}" if shown else "allows a forced loss")
    return lost, f"blunder ({'; '.join(said)})"


def _drop_own_commands(node: Node) -> None:
    """Remove an earlier analysis from *node*'s comments: the comments this module
    wrote (:data:`_OWN_COMMENT`) go whole, and ``[%eval]`` / ``[%best]`` commands
    go from any other comment, whose own text stays."""
    if not node.comments:
        return
    kept: list[Comment] = []
    for comment in node.comments:
        if _OWN_COMMENT.fullmatch(comment.text.strip()):
            continue
        text = _OWN_COMMANDS.sub("", comment.text)
        if text == comment.text:
            kept.append(comment)
        elif text.strip():
            kept.append(Comment(text.strip(), comment.kind, comment.line, comment.column))
    node.comments[:] = kept
