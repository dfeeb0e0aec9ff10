"""Implausible moves: the mis-recordings that leave a game legal to the end (W70).

A slip of the pen can turn a move into another legal one — a digit transposed, a
square off by one — and the game then replays to its end: no legality check can
prove it.  It can leave a trace a strong player sees: as written, the game drops
material for no reason, or a side "ignores" a shot, because a man stands where it
never stood; with the move that was played in its place, the same recorded moves are
the sound moves of strong players.  This module weighs the two lines with an engine
(:mod:`.engines`), over a window of the move at ply *k* and the
:data:`PLAUSIBILITY_WINDOW` recorded plies after it:

1. **a slip explains the move**: a legal move *m* of the same position, written with
   one slip of the transcription-error model (:mod:`pdn_tools.replay.slips`: a square
   off by one, digits transposed, from and to swapped, a capture's landing or route,
   an algebraic square one character off), is what was written;
2. **the game goes on consistently**: with *m* in its place, every later recorded
   move is still legal to the end, and the recorded result fits the final position (a
   side left without a move has lost);
3. **the written line is the worse explanation**: what the recorded moves of the
   window lose as written (each against the engine's best move there, for the side
   that plays it, gains left out, at most :data:`LOSS_CAP` a move) exceeds what the
   same recorded moves lose with *m* in place by at least the threshold.

Then the move is reported — a warning, W70 "possibly mis-recorded" — with the
candidate as a ``repair`` object of the same shape as the legality repairs'
(``"kind": "implausible"``, the slip in ``"slip"``) and both sums, the window and its
costliest ply in the message.  When several moves qualify, the likeliest slip (the
model's priors), then the candidate whose line loses least, is named first and the
others are counted in ``candidates``.  When the windows of two doubted moves overlap
(they are :data:`PLAUSIBILITY_WINDOW` plies apart or less), only the one whose
candidate explains away most is reported (:func:`select`): one slip spoils the
windows of the plies before it too.

The written line's positions are searched once each (one search gives every ply's
loss); a candidate's line costs a search per position of its window, and only at the
plies whose window loses at least the threshold as written (no candidate can explain
away more) and where a candidate replays to the end.  The threshold
(:data:`PLAUSIBILITY_THRESHOLD` centi-men by default on 8x8 boards,
:data:`PLAUSIBILITY_THRESHOLD_LARGE` on larger ones) trades recall for false alarms:
masters do blunder, and a shallow search misjudges some of their moves; both rates,
measured on errors planted into real games, are in docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from pdn_tools.analysis.engines import EngineChoice, Evaluation, evaluate_position
from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Comment, Game, Node
from pdn_tools.pdn.results import colour_outcome
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.replay import square_names
from pdn_tools.replay.resolve import canonical_move_text, resolve
from pdn_tools.replay.slips import ANYWHERE, SLIPS, move_slip
from pdn_tools.rules import Color, Move, Position, Variant, legal_moves, move_text, parse_move

PLAUSIBILITY_THRESHOLD = 200
"""Centi-men the recorded moves of a window must lose more as written than with a
slip's candidate in place for the written move to be doubted, on boards of eight
squares a side (English draughts and the other 8x8 games)."""
PLAUSIBILITY_THRESHOLD_LARGE = 350
"""The same on larger boards (international draughts and the other 10x10 games): the
searcher misjudges more master moves there, so the evidence must be stronger for the
same rate of false alarms (docs/analysis.md)."""
PLAUSIBILITY_WINDOW = 10
"""Recorded plies after a move weighed with it (the window: the move and these)."""
LOSS_CAP = 1000
"""The most one move counts as losing (ten men): a forced win, scored beyond any
material count, must not outweigh everything else in a window."""
CODE = "W70"


@dataclass(frozen=True, slots=True)
class PlausibilityOptions:
    """The engine and threshold of the plausibility check."""

    engine: EngineChoice = field(default_factory=lambda: EngineChoice(nodes=1000))
    threshold: int | None = None
    """Centi-men (None: the board's default, :func:`default_threshold`)."""
    variant: str | None = None
    """The variant assumed for games that do not say."""
    window: int = PLAUSIBILITY_WINDOW
    """Recorded plies after a move weighed with it."""


@dataclass(slots=True)
class _Ply:
    node: Node
    before: Position
    move: Move


@dataclass(slots=True)
class Suspect:
    """A doubted move: its ply (1-based), the move written, the candidate and its slip,
    how many candidates qualified, what the window's recorded moves lose as written
    (``lost``) and with the candidate in place (``cost``), how many plies the window
    holds, and its costliest ply as written (1-based) with what that ply loses."""

    ply: int
    node: Node
    written: str
    candidate: str
    slip: str
    candidates: int
    lost: int
    cost: int
    plies: int
    worst_ply: int
    worst: int
    shown: str = ""
    """The candidate in the notation of the game's canonical moves (the comment
    ``pdn analyse`` writes among them; ``candidate`` is in the record's own)."""


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
    """Evaluations of one game's positions, by the engine, from White's side."""

    def __init__(self, variant: Variant, choice: EngineChoice) -> None:
        self.variant = variant
        self.choice = choice

    def value(self, position: Position) -> int | None:
        """The position's evaluation from White's point of view (comparable; None when
        the engine gave no score)."""
        found: Evaluation = evaluate_position(position, self.variant, self.choice)
        return found.comparable()

    def loss(self, before: Position, move: Move) -> int:
        """What *move* loses against the best move, for the side that plays it."""
        return _loss(before, self.value(before), self.value(before.apply(move)))

    def losses(self, line: list[Position]) -> list[int]:
        """What each move of *line* (the positions one after another) loses, capped
        (:data:`LOSS_CAP`)."""
        values = [self.value(position) for position in line]
        return [_loss(line[i], values[i], values[i + 1]) for i in range(len(line) - 1)]


def default_threshold(variant: Variant) -> int:
    """The threshold of *variant*'s board when none is given."""
    return PLAUSIBILITY_THRESHOLD if variant.board.width <= 8 else PLAUSIBILITY_THRESHOLD_LARGE


def threshold_of(options: PlausibilityOptions, variant: Variant) -> int:
    """The threshold *options* apply to a game of *variant*."""
    return default_threshold(variant) if options.threshold is None else options.threshold


def _loss(before: Position, value: int | None, after: int | None) -> int:
    """What a move from *before* (evaluated *value*) to a position evaluated *after*
    loses for the side that plays it, within ±:data:`LOSS_CAP` (nothing when either
    has no score: a missing score is no evidence)."""
    if value is None or after is None:
        return 0
    sign = 1 if before.turn is Color.WHITE else -1
    return max(-LOSS_CAP, min(LOSS_CAP, sign * (value - after)))


def _rest_line(after: Position, plies: list[_Ply], variant: Variant) -> list[Position] | None:
    """The positions the recorded moves *plies* lead through from *after* (*after*
    first, the final position last; written squares matched to the legal moves as the
    replay matches them), or None when one of them is not legal there."""
    position = after
    line = [after]
    for ply in plies:
        move = _replayed(position, ply, variant)
        if move is None:
            return None
        position = position.apply(move)
        line.append(position)
    return line


def _fits(game: Game, final: Position, variant: Variant) -> bool:
    """Whether the recorded result fits *final*: a side without a legal move there has
    lost, and a recorded result must not say otherwise (any result fits a position
    where the side to move can still move: it may have resigned or agreed a draw)."""
    if legal_moves(final, variant):
        return True
    winner = "black" if final.turn is Color.WHITE else "white"
    recorded = colour_outcome(game.result, variant.name)
    return recorded is None or recorded == winner


class Option(NamedTuple):
    """One slip that explains a doubted move: what the recorded moves of the window
    lose with *move* in the written move's place (``cost``), the slip's prior, what
    *move* itself loses (``sound``), the move and the slip."""

    cost: int
    prior: float
    sound: int
    move: Move
    slip: str


@dataclass(slots=True)
class Doubt:
    """What the engine makes of the recorded moves from one ply on: ``losses`` what
    each recorded move of the window (the ply and up to :data:`PLAUSIBILITY_WINDOW`
    after it) loses as written, ``lost`` their sum (the gains left out), and the slips
    that explain the move at the ply (``options``)."""

    index: int
    lost: int
    options: list[Option]
    losses: list[int] = field(default_factory=list)

    def candidates(self, threshold: int) -> list[Option]:
        """The candidates that qualify at *threshold* (the window loses at least that
        much more as written than with the candidate), likeliest first."""
        found = [option for option in self.options if self.lost - option.cost >= threshold]
        found.sort(key=lambda option: (-option.prior, option.cost, option.sound))
        return found


def _lost(losses: list[int]) -> int:
    """What moves losing *losses* lose in all: the losses added, the gains left out (an
    evaluation that rises after a move is the search seeing deeper, not a move that
    gained)."""
    return sum(loss for loss in losses if loss > 0)


def slip_candidates(
    game: Game, plies: list[_Ply], index: int, variant: Variant
) -> Iterator[tuple[Move, str, list[Position]]]:
    """The legal moves of the position before ply *index* (0-based) that one slip of
    the transcription-error model turns into what was written there, and with which
    the game replays to its end with a result that fits: each with its slip and the
    positions after it (the candidates of rule 1 and 2 of the module)."""
    here = plies[index]
    written = here.node.move
    assert written is not None
    names = square_names(here.before.geometry, not written.squares[0].isdigit())
    row = variant.board.width // 2
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
        rest = _rest_line(here.before.apply(move), plies[index + 1 :], variant)
        if rest is not None and _fits(game, rest[-1], variant):
            yield move, slip, rest


def doubts(
    game: Game, replay: ReplayResult | None, options: PlausibilityOptions, floor: int | None = None
) -> tuple[Variant | None, list[_Ply], list[Doubt]]:
    """Every ply whose window loses at least *floor* (the threshold when None) as
    written, with the slips that explain its move and what the window loses with
    each in its place (see the module)."""
    variant, plies = _main_line(game, replay, options.variant)
    if variant is None or len(plies) < 2:
        return variant, plies, []
    judge = _Judge(variant, options.engine)
    least = threshold_of(options, variant) if floor is None else floor
    count = len(plies)
    line = [ply.before for ply in plies]
    line.append(plies[-1].before.apply(plies[-1].move))
    written_losses = judge.losses(line)  # one search per position, shared by every window
    out: list[Doubt] = []
    for index in range(count):
        end = min(count, index + 1 + options.window)
        window = written_losses[index:end]
        lost = _lost(window)
        if lost < least:
            continue  # no candidate can explain away more than the window loses
        here = plies[index]
        doubt = Doubt(index, lost, [], window)
        for move, slip, rest in slip_candidates(game, plies, index, variant):
            candidate = judge.losses([here.before, *rest[: end - index]])
            doubt.options.append(
                Option(_lost(candidate), SLIPS[slip].prior, candidate[0], move, slip)
            )
        if doubt.options:
            out.append(doubt)
    return variant, plies, out


def select(found: list[Doubt], threshold: int, window: int) -> list[tuple[Doubt, list[Option]]]:
    """The doubts of *found* reported at *threshold*, each with its qualified
    candidates, in ply order.  Two reported doubts are more than *window* plies apart:
    of those nearer, only the one whose candidate explains away most (then the
    earlier) is kept — one slip leaves its trace in the windows of the plies before
    it too, and another move's candidate may happen to change the line enough to hide
    it."""
    ranked: list[tuple[int, int, Doubt, list[Option]]] = []
    for doubt in found:
        qualified = doubt.candidates(threshold)
        if qualified:
            excess = doubt.lost - min(option.cost for option in qualified)
            ranked.append((-excess, doubt.index, doubt, qualified))
    ranked.sort(key=lambda item: (item[0], item[1]))
    kept: list[tuple[Doubt, list[Option]]] = []
    for _, index, doubt, qualified in ranked:
        if all(abs(index - other.index) > window for other, _ in kept):
            kept.append((doubt, qualified))
    kept.sort(key=lambda item: item[0].index)
    return kept


def suspects(
    game: Game, replay: ReplayResult | None, options: PlausibilityOptions
) -> list[Suspect]:
    """The doubted moves of *game*'s main line (see the module), in ply order."""
    variant, plies, found = doubts(game, replay, options)
    out: list[Suspect] = []
    if variant is None:
        return out
    for doubt, qualified in select(found, threshold_of(options, variant), options.window):
        here = plies[doubt.index]
        best = qualified[0]
        legal = legal_moves(here.before, variant)
        written = here.node.move
        assert written is not None
        # the candidate is written as the record writes its squares (numbers or c3)
        names = square_names(here.before.geometry, not written.squares[0].isdigit())
        worst = max(range(len(doubt.losses)), key=lambda i: (doubt.losses[i], -i))
        out.append(
            Suspect(
                doubt.index + 1,
                here.node,
                here.node.raw or written.text(),
                move_text(best.move, legal, variant, names),
                best.slip,
                len(qualified),
                doubt.lost,
                best.cost,
                len(doubt.losses),
                doubt.index + 1 + worst,
                doubt.losses[worst],
                canonical_move_text(best.move, legal, variant),
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


def _span(ply: int, plies: int) -> str:
    """The plies of a window in words: ``ply 41`` or ``plies 41-51``."""
    return f"ply {ply}" if plies == 1 else f"plies {ply}-{ply + plies - 1}"


def flag_implausible(
    game: Game, replay: ReplayResult | None, options: PlausibilityOptions, comment: bool = False
) -> list[Issue]:
    """Add the W70 findings of *game* to it (and return them); with *comment*, also a
    comment after each doubted move (``possibly mis-recorded (W70): 32-28?``), which
    is how a PDN output shows them: the candidate in the notation of the canonical
    moves the comment is written among (:func:`~pdn_tools.replay.resolve.canonical_move_text`),
    not the record's."""
    issues = implausible_moves(game, replay, options)
    for issue, suspect in issues:
        game.add_issue(issue)
        if comment:
            suspect.node.comments.append(
                Comment(f"possibly mis-recorded (W70): {suspect.shown or suspect.candidate}?")
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
        span = _span(suspect.ply, suspect.plies)
        message = (
            f"possibly mis-recorded: as written, the recorded moves of {span} lose "
            f"{suspect.lost / 100:.2f} (ply {suspect.worst_ply}: {suspect.worst / 100:.2f}); "
            f"with {suspect.candidate} ({label}) in place of {suspect.written} they lose "
            f"{suspect.cost / 100:.2f} and the game goes on consistently to its end"
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
