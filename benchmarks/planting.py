"""Transcription errors planted into real games: the test corpus of the search for the
mis-recorded move (``pdn_tools.replay.misrecord``).

The games come from the shared corpus (read in place, never copied): every game of
a variant that replays completely, with at least :data:`MIN_PLIES` plies, no set-up
or placeholder in its main line, no capture written jump by jump and no result that
contradicts its final position, one copy of each (by game id).  Each planted record
is made of the game's tags that matter (GameType, FEN, Result) and its main line as
written, with one slip of the transcription-error model (:data:`KINDS`) made at a
random ply where that kind can be made.  :func:`judge` validates a planted record
and says what the search made of it.

Used by ``bench_misrecorded.py`` (the table of rates and the speed of a file where
every game is broken) and by ``tests/replay/test_misrecorded.py``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pdn_tools import validate, validate_string
from pdn_tools.pdn.model import Game
from pdn_tools.replay.options import Mend, ReplayResult
from pdn_tools.replay.replay import square_names
from pdn_tools.replay.slips import (
    ALGEBRAIC,
    CAPTURE_ROUTE,
    DOUBLED,
    EXCHANGED,
    OFF_BY_ONE,
    OMITTED,
    SHIFTED,
    SWAPPED,
    TRANSPOSITION,
)
from pdn_tools.replay.validate import GameReplay
from pdn_tools.rules import (
    Move,
    Position,
    Variant,
    geometry_for,
    legal_moves,
    move_text,
    parse_fen,
    parse_move,
    variant_by_name,
)

VARIANTS = ("international", "english", "italian", "russian", "brazilian")
KINDS = (
    OFF_BY_ONE,
    TRANSPOSITION,
    ALGEBRAIC,
    SWAPPED,
    CAPTURE_ROUTE,
    EXCHANGED,
    SHIFTED,
    OMITTED,
    DOUBLED,
)
"""The kinds of the model that are planted (the fallbacks at the failing ply —
a mistyped digit, a superfluous ply, another move — are not slips of the model)."""
NUMERIC_ONLY = frozenset({OFF_BY_ONE, TRANSPOSITION})
ALGEBRAIC_ONLY = frozenset({ALGEBRAIC})
SUBSTITUTIONS = frozenset({OFF_BY_ONE, TRANSPOSITION, ALGEBRAIC, SWAPPED, CAPTURE_ROUTE})
MIN_PLIES = 20
_SEP = re.compile(r"([-x:])")
_SCORE = re.compile(r"[0-2]-[0-2]")


@dataclass(slots=True)
class Source:
    """A real game that replays completely: its main line as written and as moves."""

    file: str
    index: int
    variant: str
    gametype: str
    fen: str | None
    result: str | None
    texts: list[str]
    moves: list[Move]
    positions: list[Position]
    """The position before each move."""
    algebraic: bool

    def record(self) -> str:
        """The game as PDN: the tags that matter and its main line as written."""
        return _record(self, self.texts)


@dataclass(slots=True)
class Planted:
    """A source with one slip made at ``ply`` (1-based, the ply of the record)."""

    source: Source
    kind: str
    ply: int
    texts: list[str]

    def record(self) -> str:
        """The planted game as PDN."""
        return _record(self.source, self.texts)

    def clean(self) -> str:
        """The source game as PDN, written the same way."""
        return self.source.record()


def _record(source: Source, texts: list[str]) -> str:
    tags = [f'[GameType "{source.gametype}"]']
    if source.fen:
        tags.append(f'[FEN "{source.fen}"]')
    tags.append(f'[Result "{source.result or "*"}"]')
    first_white = True
    if source.fen:
        first_white = source.positions[0].turn is variant_by_name(source.variant).first_mover
    words: list[str] = []
    number = 1
    first = first_white
    if not first:
        words.append("1...")
    for text in texts:
        if first:
            words.append(f"{number}.")
        words.append(text)
        if not first:
            number += 1
        first = not first
    body = " ".join(words) + f" {source.result or '*'}"
    lines: list[str] = []
    line = ""
    for word in body.split(" "):
        if len(line) + len(word) + 1 > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n\n"


def _usable(game: Game) -> bool:
    state = game.replay_state
    if not isinstance(state, GameReplay) or state.result is None:
        return False
    result = state.result
    if not result.completed or result.plies < MIN_PLIES or game.status == "error":
        return False
    if any(i.code in ("W24", "W32", "W17", "W34", "W25", "E08") for i in game.issues):
        return False
    nodes = list(game.mainline())
    return all(n.kind == "move" for n in nodes) and len(nodes) == result.plies


def sources(corpus: Path, variants: tuple[str, ...] = VARIANTS) -> dict[str, list[Source]]:
    """The usable games of the shared corpus, by variant, in file order."""
    out: dict[str, list[Source]] = {v: [] for v in variants}
    seen: set[str] = set()
    for path in sorted(corpus.rglob("*.pdn")):
        if "portnov__hcheckers" in path.parts:
            continue  # opening presets: a few plies each
        for game in validate(path):
            if game.variant not in out or not _usable(game):
                continue
            state = game.replay_state
            assert isinstance(state, GameReplay) and state.result is not None
            result = state.result
            key = _identity(result)
            if key in seen:
                continue
            seen.add(key)
            out[game.variant].append(_source(str(path), game, result))
    return out


def source_of(text: str, name: str = "<string>") -> Source | None:
    """The usable game of a PDN *text* (None when it is not usable)."""
    [game] = validate_string(text, name=name)
    if not _usable(game):
        return None
    state = game.replay_state
    assert isinstance(state, GameReplay) and state.result is not None
    return _source(name, game, state.result)


def _identity(result: ReplayResult) -> str:
    return (result.start_fen or "") + " " + " ".join(m.text for m in result.moves)


def _source(file: str, game: Game, result: ReplayResult) -> Source:
    variant = variant_by_name(game.variant)
    fen = game.tag("FEN")
    fen = fen if fen and fen.strip() not in ("", "?") else None
    start = parse_fen(fen, variant).position if fen else Position.initial(variant)
    positions = []
    here = start
    for record in result.moves:
        positions.append(here)
        here = here.apply(record.move)
    texts = [r.node.element_text() for r in result.moves]
    gametype = game.tag("GameType") or str(variant.gametype)
    return Source(
        file,
        game.index,
        game.variant,
        gametype,
        fen,
        game.result,
        texts,
        [r.move for r in result.moves],
        positions,
        any(t[:1].isalpha() for t in texts),
    )


# -- planting ------------------------------------------------------------------------
def _split(text: str) -> tuple[list[str], list[str]]:
    parts = _SEP.split(text)
    return parts[0::2], parts[1::2]


def _join(squares: list[str], seps: list[str]) -> str:
    out = squares[0]
    for sep, square in zip(seps, squares[1:], strict=True):
        out += sep + square
    return out


def _on_board(text: str, variant: Variant) -> bool:
    return text.isdigit() and not text.startswith("0") and 1 <= int(text) <= variant.board.squares


def _row(variant: Variant) -> int:
    """Squares per row of the board's numbering."""
    return geometry_for(variant.board).row_masks[0].bit_count()


def _substitute(
    source: Source, ply: int, kind: str, rng: random.Random, variant: Variant
) -> str | None:
    """The move at *ply* written with the slip *kind*, or None when it cannot be made."""
    text = source.texts[ply - 1]
    squares, seps = _split(text)
    move = source.moves[ply - 1]
    if kind == SWAPPED:
        if len(squares) != 2:
            return None
        return _join([squares[1], squares[0]], seps)
    if kind == CAPTURE_ROUTE:
        if not move.captures:
            return None
        legal = legal_moves(source.positions[ply - 1], variant)
        others = [m for m in legal if m.captures and m.from_sq == move.from_sq and m != move]
        if others and rng.random() < 0.5:
            other = rng.choice(others)
            if not source.algebraic:
                return move_text(other, legal, variant)
            names = square_names(geometry_for(variant.board), True)
            return f"{names[other.from_sq]}{seps[0]}{names[other.to_sq]}"
        last = squares[-1]
        choices = _near(last, variant, source.algebraic)
        choices = [c for c in choices if c not in squares]
        if not choices:
            return None
        return _join([*squares[:-1], rng.choice(choices)], seps)
    which = rng.randrange(2)
    index = 0 if which == 0 else len(squares) - 1
    square = squares[index]
    if kind == OFF_BY_ONE:
        if not square.isdigit():
            return None
        gap = _row(variant)
        choices = [str(int(square) + d) for d in (-1, 1, -gap, gap)]
        choices = [c for c in choices if _on_board(c, variant) and c not in squares]
    elif kind == TRANSPOSITION:
        flipped = square[::-1]
        if len(square) != 2 or flipped == square or not _on_board(flipped, variant):
            return None
        choices = [flipped] if flipped not in squares else []
    elif kind == ALGEBRAIC:
        if square[:1].isdigit():
            return None
        choices = _near(square, variant, True)
        choices = [c for c in choices if c not in squares]
    else:
        return None
    if not choices:
        return None
    new = list(squares)
    new[index] = rng.choice(choices)
    return _join(new, seps)


def _near(square: str, variant: Variant, algebraic: bool) -> list[str]:
    """Squares a slip of one character (algebraic) or off by one (numbers) makes of
    *square*."""
    if not algebraic:
        gap = _row(variant)
        out = [str(int(square) + d) for d in (-1, 1, -gap, gap)]
        return [c for c in out if _on_board(c, variant)]
    width = variant.board.width
    letters = "abcdefghijklmnop"[:width]
    out = [c + square[1:] for c in letters if c != square[0]]
    out += [square[0] + str(d) for d in range(1, variant.board.height + 1) if str(d) != square[1:]]
    return out


LEGAL_KINDS = (OFF_BY_ONE, TRANSPOSITION, ALGEBRAIC, SWAPPED, CAPTURE_ROUTE, EXCHANGED)
"""The kinds that can leave the written move legal where it stands."""


def _legal(source: Source, ply: int, written: str) -> bool:
    """Whether *written* is a legal move at *ply* of *source*."""
    variant = variant_by_name(source.variant)
    geometry = geometry_for(variant.board)
    squares = [geometry.square_named(s) for s in _split(written)[0]]
    if any(s is None for s in squares):
        return False
    legal = legal_moves(source.positions[ply - 1], variant)
    return parse_move(tuple(s for s in squares if s is not None), legal, variant).accepted


def plant(
    source: Source, kind: str, rng: random.Random, legal_only: bool = False
) -> Planted | None:
    """*source* with one slip of *kind* at a random ply where it can be made (None
    when there is none); with *legal_only*, where the slipped move is legal (the
    slips that let the game go on: it breaks later, or never)."""
    variant = variant_by_name(source.variant)
    count = len(source.texts)
    if legal_only and kind not in LEGAL_KINDS:
        return None
    if kind in NUMERIC_ONLY and source.algebraic:
        return None
    if kind in ALGEBRAIC_ONLY and not source.algebraic:
        return None
    plies = list(range(1, count + 1))
    rng.shuffle(plies)
    first_mover = variant.first_mover
    for ply in plies:
        texts = list(source.texts)
        if kind in SUBSTITUTIONS:
            written = _substitute(source, ply, kind, rng, variant)
            if written is None or written == texts[ply - 1] or _SCORE.fullmatch(written):
                continue  # (a move such as 1-2 would be read as a result)
            if legal_only and not _legal(source, ply, written):
                continue
            texts[ply - 1] = written
        elif kind == EXCHANGED:
            if ply + 2 > count or texts[ply - 1] == texts[ply + 1]:
                continue
            if legal_only and not _legal(source, ply, texts[ply + 1]):
                continue
            texts[ply - 1], texts[ply + 1] = texts[ply + 1], texts[ply - 1]
        elif kind == SHIFTED:
            if ply + 1 > count or source.positions[ply - 1].turn is not first_mover:
                continue
            texts[ply - 1], texts[ply] = texts[ply], texts[ply - 1]
        elif kind == OMITTED:
            if ply == count:
                continue
            del texts[ply - 1]
        elif kind == DOUBLED:
            if ply == count:
                continue
            texts.insert(ply, texts[ply - 1])
            return Planted(source, kind, ply + 1, texts)  # the copy is the slip
        else:
            raise ValueError(kind)
        return Planted(source, kind, ply, texts)
    return None


def planted_set(
    sources_by_variant: dict[str, list[Source]],
    per_variant: int,
    seed: int,
    legal_only: bool = False,
) -> Iterator[Planted]:
    """*per_variant* games of each variant (at random), each with every kind that can
    be planted in it, at its own random ply (with *legal_only*: where the slipped move
    is legal)."""
    rng = random.Random(seed)
    for variant in sorted(sources_by_variant):
        games = list(sources_by_variant[variant])
        rng.shuffle(games)
        for source in games[:per_variant]:
            for kind in KINDS:
                planted = plant(source, kind, rng, legal_only)
                if planted is not None:
                    yield planted


# -- judging -------------------------------------------------------------------------
@dataclass(slots=True)
class Verdict:
    """What the replay made of a planted record."""

    planted: Planted
    breaks: bool = False
    """Whether the planted record fails to replay (an error on its main line)."""
    break_ply: int | None = None
    outcome: str = "silent"
    """``silent`` (the slip left the game legal), ``unique`` (the planted ply and the
    original move named as the unique best edit), ``listed`` (among tied best edits),
    ``tie`` (tied edits without it), ``wrong`` (another edit named as the unique
    best), ``none`` (no edit found)."""
    candidates: int = 0
    repair: dict[str, object] | None = field(default=None)

    @property
    def later(self) -> bool:
        """Whether the replay broke after the planted ply."""
        return self.break_ply is not None and self.break_ply > self.planted.ply


def right(planted: Planted, mend: Mend) -> bool:
    """Whether *mend* undoes the planted slip: names the planted ply and the move
    played there (both moves for an exchange; either copy of a ply written twice)."""
    truth = planted.source.moves
    ply = planted.ply
    kind = planted.kind
    if kind in SUBSTITUTIONS:
        return (
            mend.second is None
            and mend.written is not None
            and mend.move is not None
            and mend.ply == ply
            and mend.move == truth[ply - 1]
        )
    if kind in (EXCHANGED, SHIFTED):
        gap = 2 if kind == EXCHANGED else 1
        second = mend.second
        return (
            second is not None
            and mend.ply == ply
            and second.ply == ply + gap
            and mend.move == truth[ply - 1]
            and second.move == truth[ply + gap - 1]
        )
    if kind == OMITTED:
        return mend.written is None and mend.ply == ply and mend.move == truth[ply - 1]
    if kind == DOUBLED:
        return mend.move is None and mend.ply in (ply - 1, ply)
    return False


def judge(planted: Planted, **options: object) -> Verdict:
    """Validate *planted* and say whether the search named the slip."""
    [game] = validate_string(planted.record(), **options)
    verdict = Verdict(planted)
    errors = [i for i in game.issues if i.level.value == "error" and not i.in_variation]
    if not errors:
        return verdict
    first = errors[0]
    verdict.breaks = True
    verdict.break_ply = first.ply
    verdict.repair = first.repair
    state = game.replay_state
    assert isinstance(state, GameReplay) and state.result is not None
    repair = state.result.repairs.get((first.line, first.column))
    if repair is None or first.repair is None:
        verdict.outcome = "none"
        return verdict
    verdict.candidates = len(repair.edits)
    hits = [right(planted, mend) for mend in repair.edits]
    if len(hits) == 1:
        verdict.outcome = "unique" if hits[0] else "wrong"
    else:
        verdict.outcome = "listed" if any(hits) else "tie"
    return verdict


__all__ = [
    "KINDS",
    "LEGAL_KINDS",
    "VARIANTS",
    "Planted",
    "Source",
    "Verdict",
    "judge",
    "plant",
    "planted_set",
    "right",
    "source_of",
    "sources",
]
