"""Implausible moves: the mis-recordings that leave a game legal to the end (W70).

A slip of the pen can turn a move into another legal one — a digit transposed, a
square off by one — and the game then replays to its end: no legality check can
prove it.  It leaves a trace a strong player sees at once: the recorded move drops
material to a shot, and the opponent, who would not miss it, "ignores" it.  This
module looks for that trace with an engine (:mod:`.engines`):

1. **the move loses**: the recorded move at ply *k* loses at least the threshold
   against the engine's best move there (from the mover's point of view);
2. **the opponent ignores it**: the recorded reply at ply *k* + 1 gives that win
   back (it loses at least the threshold against the opponent's best move);
3. **a slip explains it**: a legal move *m* of the same position, written with one
   slip of the transcription-error model (:mod:`pdn_tools.replay.slips`: a square off
   by one, digits transposed, from and to swapped, a capture's landing or route, an
   algebraic square one character off), is what was written, and *m* is sound (it
   loses less than the threshold);
4. **the game goes on consistently**: with *m* in its place, every later recorded
   move is still legal to the end, the recorded result fits the final position (a
   side left without a move has lost), and the reply at *k* + 1 is no longer a
   mistake (it loses less than the threshold).

Then the move is reported — a warning, W70 "possibly mis-recorded" — with the
candidate as a ``repair`` object of the same shape as the legality repairs'
(``"kind": "implausible"``, the slip in ``"slip"``).  When several moves qualify,
the likeliest slip (the model's priors), then the soundest move, is named first and
the others are counted in ``candidates``.

The threshold (:data:`PLAUSIBILITY_THRESHOLD` centi-men by default) trades recall
for false alarms: masters do blunder, and the opponent sometimes misses it; both
rates, measured on errors planted into real games, are in docs/analysis.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pdn_tools.analysis.engines import EngineChoice, Evaluation, evaluate_position
from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Comment, Game, Node
from pdn_tools.pdn.results import colour_outcome
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.replay import square_names
from pdn_tools.replay.resolve import resolve
from pdn_tools.replay.slips import ANYWHERE, SLIPS, move_slip
from pdn_tools.rules import Color, Move, Position, Variant, legal_moves, move_text, parse_move

PLAUSIBILITY_THRESHOLD = 150
"""Centi-men a recorded move (and the reply that ignores it) must lose to be doubted."""
CODE = "W70"


@dataclass(frozen=True, slots=True)
class PlausibilityOptions:
    """The engine and threshold of the plausibility check."""

    engine: EngineChoice = field(default_factory=lambda: EngineChoice(nodes=1000))
    threshold: int = PLAUSIBILITY_THRESHOLD
    variant: str | None = None
    """The variant assumed for games that do not say."""


@dataclass(slots=True)
class _Ply:
    node: Node
    before: Position
    move: Move


@dataclass(slots=True)
class Suspect:
    """A doubted move: its ply (1-based), the move written, the candidate and its slip,
    how many candidates qualified, and what the recorded move (and its reply) lost."""

    ply: int
    node: Node
    written: str
    candidate: str
    slip: str
    candidates: int
    lost: int


def _main_line(
    game: Game, replay: ReplayResult | None, variant_name: str | None
) -> tuple[Variant | None, list[_Ply]]:
    """The variant and every main-line ply, when the whole main line resolved as
    plain moves (no set-up, no capture written jump by jump); else no plies."""
    if replay is None or not replay.completed:
        return None, []
    resolution = resolve(game, replay, variant_name)
    if resolution.variant is None or resolution.start is None or resolution.merged:
        return None, []
    plies: list[_Ply] = []
    before = resolution.start
    for node in game.mainline():
        resolved = resolution.get(node)
        if node.kind != "move" or resolved is None or node.move is None:
            return None, []
        plies.append(_Ply(node, before, resolved.move))
        before = resolved.after
    return resolution.variant, plies


class _Judge:
    """Evaluations of one game's positions, by the engine, from the mover's side."""

    def __init__(self, variant: Variant, choice: EngineChoice) -> None:
        self.variant = variant
        self.choice = choice

    def value(self, position: Position) -> int:
        """The position's evaluation from White's point of view (comparable)."""
        found: Evaluation = evaluate_position(position, self.variant, self.choice)
        return found.comparable()

    def loss(self, before: Position, move: Move) -> int:
        """What *move* loses against the best move, for the side that plays it."""
        sign = 1 if before.turn is Color.WHITE else -1
        return sign * (self.value(before) - self.value(before.apply(move)))


def _rest_is_legal(after: Position, plies: list[_Ply], variant: Variant) -> Position | None:
    """Whether the recorded moves *plies* all replay from *after* (written squares
    matched to the legal moves as the replay matches them): the final position, or
    None when one is not legal."""
    position = after
    geometry = position.geometry
    for ply in plies:
        assert ply.node.move is not None
        squares = [geometry.square_named(s) for s in ply.node.move.squares]
        if any(s is None for s in squares):
            return None
        legal = legal_moves(position, variant)
        match = parse_move(
            tuple(s for s in squares if s is not None),
            legal,
            variant,
            capture=ply.node.move.capture,
        )
        if not match.accepted or match.move is None:
            return None
        position = position.apply(match.move)
    return position


def _fits(game: Game, final: Position, variant: Variant) -> bool:
    """Whether the recorded result fits *final*: a side without a legal move there has
    lost, and a recorded result must not say otherwise (any result fits a position
    where the side to move can still move: it may have resigned or agreed a draw)."""
    if legal_moves(final, variant):
        return True
    winner = "black" if final.turn is Color.WHITE else "white"
    recorded = colour_outcome(game.result, variant.name)
    return recorded is None or recorded == winner


@dataclass(slots=True)
class Doubt:
    """What the engine makes of one recorded move: ``lost`` the smaller of what the
    move and the reply that follows lose; for every slip that explains it, the larger
    of what the candidate and the reply after it lose (``cost``), the slip's prior,
    what the candidate loses, the candidate and the slip."""

    index: int
    lost: int
    options: list[tuple[int, float, int, Move, str]]

    def candidates(self, threshold: int) -> list[tuple[int, float, int, Move, str]]:
        """The candidates that qualify at *threshold*, likeliest first."""
        if self.lost < threshold:
            return []
        found = [option for option in self.options if option[0] < threshold]
        found.sort(key=lambda option: (-option[1], option[2]))
        return found


def doubts(
    game: Game, replay: ReplayResult | None, options: PlausibilityOptions, floor: int | None = None
) -> tuple[Variant | None, list[_Ply], list[Doubt]]:
    """Every recorded move that loses at least *floor* (the threshold when None) and
    whose reply loses as much, with the slips that explain it (see the module)."""
    variant, plies = _main_line(game, replay, options.variant)
    if variant is None or len(plies) < 2:
        return variant, plies, []
    judge = _Judge(variant, options.engine)
    least = options.threshold if floor is None else floor
    row = variant.board.width // 2
    out: list[Doubt] = []
    for index in range(len(plies) - 1):
        here, reply = plies[index], plies[index + 1]
        lost = judge.loss(here.before, here.move)
        if lost < least:
            continue
        lost = min(lost, judge.loss(reply.before, reply.move))
        if lost < least:
            continue  # the opponent took what was offered: a blunder, not a slip
        written = here.node.move
        assert written is not None
        algebraic = not written.squares[0].isdigit()
        names = square_names(here.before.geometry, algebraic)
        doubt = Doubt(index, lost, [])
        for move in legal_moves(here.before, variant):
            if move == here.move:
                continue
            slip = move_slip(
                written.squares,
                written.capture,
                names[move.from_sq],
                names[move.to_sq],
                bool(move.captures),
                row,
            )
            if slip is None or slip not in ANYWHERE:
                continue
            after = here.before.apply(move)
            final = _rest_is_legal(after, plies[index + 1 :], variant)
            if final is None or not _fits(game, final, variant):
                continue
            reply_move = _replayed(after, reply, variant)
            if reply_move is None:
                continue
            sound = judge.loss(here.before, move)
            cost = max(sound, judge.loss(after, reply_move))
            doubt.options.append((cost, SLIPS[slip].prior, sound, move, slip))
        if doubt.options:
            out.append(doubt)
    return variant, plies, out


def suspects(
    game: Game, replay: ReplayResult | None, options: PlausibilityOptions
) -> list[Suspect]:
    """The doubted moves of *game*'s main line (see the module), in ply order."""
    variant, plies, found = doubts(game, replay, options)
    out: list[Suspect] = []
    for doubt in found:
        qualified = doubt.candidates(options.threshold)
        if not qualified or variant is None:
            continue
        here = plies[doubt.index]
        best, slip = qualified[0][3], qualified[0][4]
        legal = legal_moves(here.before, variant)
        written = here.node.move
        assert written is not None
        out.append(
            Suspect(
                doubt.index + 1,
                here.node,
                here.node.raw or written.text(),
                move_text(best, legal, variant),
                slip,
                len(qualified),
                doubt.lost,
            )
        )
    return out


def _replayed(position: Position, ply: _Ply, variant: Variant) -> Move | None:
    """The legal move of *position* that *ply*'s written move names, or None."""
    assert ply.node.move is not None
    geometry = position.geometry
    squares = [geometry.square_named(s) for s in ply.node.move.squares]
    if any(s is None for s in squares):
        return None
    match = parse_move(
        tuple(s for s in squares if s is not None),
        legal_moves(position, variant),
        variant,
        capture=ply.node.move.capture,
    )
    return match.move if match.accepted else None


def flag_implausible(
    game: Game, replay: ReplayResult | None, options: PlausibilityOptions, comment: bool = False
) -> list[Issue]:
    """Add the W70 findings of *game* to it (and return them); with *comment*, also a
    comment after each doubted move (``possibly mis-recorded: 32-28?``), which is how
    a PDN output shows them."""
    issues = implausible_moves(game, replay, options)
    for issue, suspect in issues:
        game.add_issue(issue)
        if comment:
            suspect.node.comments.append(
                Comment(f"possibly mis-recorded (W70): {suspect.candidate}?")
            )
    return [issue for issue, _ in issues]


def implausible_moves(
    game: Game, replay: ReplayResult | None, options: PlausibilityOptions
) -> list[tuple[Issue, Suspect]]:
    """The W70 findings of *game* with their suspects (not added to it)."""
    issues: list[tuple[Issue, Suspect]] = []
    for suspect in suspects(game, replay, options):
        node = suspect.node
        label = SLIPS[suspect.slip].label
        message = (
            f"possibly mis-recorded: {suspect.written} loses {suspect.lost / 100:.2f} and the "
            f"reply ignores it; {suspect.candidate} ({label}) keeps the game going "
            "consistently"
        )
        repair = {
            "ply": suspect.ply,
            "line": node.line,
            "column": node.column,
            "written": suspect.written,
            "move": suspect.candidate,
            "kind": "implausible",
            "slip": suspect.slip,
            "candidates": suspect.candidates,
            "replays": "to the end",
            "fits_result": True,
            "confirmed": True,
        }
        issue = Issue(
            CODE,
            message,
            node.line,
            node.column,
            ply=suspect.ply,
            move=suspect.written,
            repair=repair,
        )
        issues.append((issue, suspect))
    return issues
