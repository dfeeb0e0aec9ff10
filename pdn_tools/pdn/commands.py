"""Embedded commands inside comments: ``[%clock w1:29:46 B1:29:40]``, ``[%eval 0.3]``.

pdn-format.md §9: commands keep their order and the comment text around them; the
reader never rewrites a comment, so writing it back keeps every command unchanged.

Clocks and evaluations are also read as data (``node.clock``, ``node.eval``, the
``clock_ms`` / ``eval_cp`` / ``eval_mate`` columns; docs/export.md, *Clocks and
evaluations*).  The forms understood:

- ``[%clock w1:29:46 B1:29:40]`` — both clocks after the move, each marked with its
  colour; the colour in capitals is the side to move, whose clock now runs (the form of
  lidraughts' exports and broadcasts).
- ``[%clock 0:04:55]`` and ``[%clk 0:04:55]`` — one clock: the time left to the side
  that made the move (``%clk`` is the chess servers' and DGT boards' spelling).
- ``[%eval +0.35]`` — an evaluation in men from White's point of view (a man is 100
  centi-men: +35); ``[%eval 0.35,18]`` adds the search depth (ignored);
  ``[%eval #5]`` / ``[%eval #-5]`` — a forced win for White / Black in 5 moves.

Times are ``H:MM:SS``, ``M:SS`` or seconds, with an optional fraction of a second.
A command of these names whose value is none of these forms is reported (W66) and
reads as no value; its text stays in the comment as written.  So is a value beyond
:data:`LARGEST` (milliseconds, centi-men or moves): every output holds the same
numbers, and the 64-bit integer columns of the Parquet tables hold each of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pdn_tools.pdn.model import Node

_COMMAND = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_]*)\s*([^\]]*)\]")

CLOCK_COMMANDS = frozenset({"clock", "clk"})
"""Command names that carry a clock."""
EVAL_COMMANDS = frozenset({"eval"})
"""Command names that carry an evaluation."""

Side = Literal["white", "black"]

LARGEST = (1 << 63) - 1
"""The largest clock (milliseconds), evaluation (centi-men) or mate distance (moves)
read as data, in either sign: the largest 64-bit signed integer, what the ``clock_ms``,
``eval_cp`` and ``eval_mate`` columns hold.  A larger value is not understood (W66),
rather than one output holding it and another losing it."""

_TIME = re.compile(r"(?:(?:(\d+):)?([0-5]?\d):)?([0-5]?\d|\d+)(?:\.(\d{1,3}))?")
_SIDED = re.compile(r"([wWbB])(\S+)")
_EVAL = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:\s*,\s*\d+)?")
_MATE = re.compile(r"#\s*([+-]?\d+)(?:\s*,\s*\d+)?")


@dataclass(frozen=True, slots=True)
class Clock:
    """The clocks a ``[%clock …]`` or ``[%clk …]`` command gives after a move.

    ``white_ms`` / ``black_ms``: each side's time left, in milliseconds, when the
    command names the colours (None otherwise); ``to_move``: the side whose clock
    runs, when the command marks it (the capital letter); ``own_ms``: the time left
    to the side that made the move when the command says it (a single clock, or two
    clocks with the side to move marked).
    """

    white_ms: int | None
    black_ms: int | None
    own_ms: int | None
    to_move: Side | None = None

    def remaining(self, mover: Side | None) -> int | None:
        """The time left to *mover* (the side that made the move; None: as the
        command alone says)."""
        if mover is None or (self.white_ms is None and self.black_ms is None):
            return self.own_ms
        return self.white_ms if mover == "white" else self.black_ms


@dataclass(frozen=True, slots=True)
class Evaluation:
    """An ``[%eval …]`` command: ``cp`` in centi-men from White's point of view (a man
    is 100), or ``mate``: a forced win in that many moves, positive for White and
    negative for Black (``cp`` then None)."""

    cp: int | None
    mate: int | None = None


def _commands(text: str) -> Iterator[re.Match[str]]:
    """The ``[%name value]`` commands of *text* in order, as ``_COMMAND.finditer``
    finds them, in time linear in *text*: each attempt is bounded by the first ``]``
    after its ``[%`` (no command runs past it), and none is made once no ``]`` is left.
    Left to ``finditer``, a comment of many ``[%`` and no ``]`` took time quadratic in
    its length (every attempt scanned to its end)."""
    pos = 0
    close = -1
    while True:
        start = text.find("[%", pos)
        if start < 0:
            return
        if close < start:
            close = text.find("]", start)
            if close < 0:
                return
        match = _COMMAND.match(text, start, close + 1)
        if match is None:
            pos = start + 1
            continue
        yield match
        pos = match.end()


def parse_commands(text: str) -> list[tuple[str, str]]:
    """All ``[%name value]`` commands in *text*, as (name, value) pairs in order."""
    return [(m.group(1), m.group(2).strip()) for m in _commands(text)]


def parse_time(text: str, largest: int | None = LARGEST) -> int | None:
    """``H:MM:SS``, ``M:SS`` or ``SS`` (with an optional fraction) in milliseconds."""
    match = _TIME.fullmatch(text)
    if match is None:
        return None
    hours, minutes, seconds, fraction = match.groups()
    if hours is not None and minutes is None:
        return None
    if minutes is not None and int(seconds) > 59:
        return None
    total = (int(hours or 0) * 60 + int(minutes or 0)) * 60 + int(seconds)
    ms = total * 1000 + (int(fraction.ljust(3, "0")) if fraction else 0)
    return ms if largest is None or ms <= largest else None


def parse_clock(value: str, largest: int | None = LARGEST) -> Clock | None:
    """The clock a ``[%clock]`` / ``[%clk]`` value gives, or None when it reads as none
    of the forms above."""
    parts = value.split()
    if len(parts) == 1 and not parts[0][:1].isalpha():
        own = parse_time(parts[0], largest)
        return None if own is None else Clock(None, None, own)
    if len(parts) != 2:
        return None
    times: dict[str, int] = {}
    running: list[Side] = []
    for part in parts:
        sided = _SIDED.fullmatch(part)
        if sided is None:
            return None
        letter = sided.group(1)
        side: Side = "white" if letter in "wW" else "black"
        ms = parse_time(sided.group(2), largest)
        if ms is None or side in times:
            return None
        times[side] = ms
        if letter.isupper():
            running.append(side)
    to_move = running[0] if len(running) == 1 else None
    own = None
    if to_move is not None:
        own = times["black" if to_move == "white" else "white"]
    return Clock(times["white"], times["black"], own, to_move)


def parse_eval(value: str) -> Evaluation | None:
    """The evaluation an ``[%eval]`` value gives, or None when it reads as none of the
    forms above."""
    text = value.strip()
    mate = _MATE.fullmatch(text)
    if mate is not None:
        moves = int(mate.group(1))
        return None if moves == 0 or abs(moves) > LARGEST else Evaluation(None, moves)
    match = _EVAL.fullmatch(text)
    if match is None:
        return None
    # Imported here: a file without evaluations never loads the decimal module.
    from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

    try:
        men = Decimal(match.group(1))
    except InvalidOperation:  # pragma: no cover - the pattern admits decimals only
        return None
    if men.adjusted() > 18:
        return None  # beyond LARGEST (and too long for the decimal context's rounding)
    cp = int((men * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return Evaluation(cp) if abs(cp) <= LARGEST else None


def clock_of(texts: Iterable[str]) -> Clock | None:
    """The first readable clock command in the comment texts *texts*."""
    for text in texts:
        if "[%" not in text:
            continue
        for name, value in parse_commands(text):
            if name.lower() in CLOCK_COMMANDS:
                clock = parse_clock(value)
                if clock is not None:
                    return clock
    return None


def eval_of(texts: Iterable[str]) -> Evaluation | None:
    """The first readable evaluation command in the comment texts *texts*."""
    for text in texts:
        if "[%" not in text:
            continue
        for name, value in parse_commands(text):
            if name.lower() in EVAL_COMMANDS:
                evaluation = parse_eval(value)
                if evaluation is not None:
                    return evaluation
    return None


def _evaluation_form(value: str) -> bool:
    """Whether *value* is written as an evaluation, whatever its size (``#0`` is none)."""
    text = value.strip()
    mate = _MATE.fullmatch(text)
    if mate is not None:
        return int(mate.group(1)) != 0
    return _EVAL.fullmatch(text) is not None


_BEYOND = "is beyond the values read (at most {:,} {})"
"""W66 for a value written in a form pdn-tools reads but too large to hold."""


def unreadable(text: str) -> list[tuple[int, str]]:
    """The clock and evaluation commands of the comment text *text* whose value reads
    as none of their forms: (offset of the command in *text*, why) for W66."""
    found: list[tuple[int, str]] = []
    for match in _commands(text):
        name, value = match.group(1).lower(), match.group(2).strip()
        command = f"[%{match.group(1)} {value}]"
        if name in CLOCK_COMMANDS and parse_clock(value) is None:
            if parse_clock(value, None) is None:
                why = "is not a clock"
            else:
                why = _BEYOND.format(LARGEST, "milliseconds")
            found.append((match.start(), f"{command} {why}"))
        elif name in EVAL_COMMANDS and parse_eval(value) is None:
            why = "is not an evaluation"
            if _evaluation_form(value):
                why = _BEYOND.format(LARGEST, "centi-men or moves")
            found.append((match.start(), f"{command} {why}"))
    return found


def clock_and_eval(node: Node, mover: Side | None) -> dict[str, int | None]:
    """``clock_ms``, ``eval_cp`` and ``eval_mate`` of the move at *node*, played by
    *mover* (None when not known): the time left to the side that moved, in
    milliseconds, and the evaluation after the move (centi-men from White's point of
    view, or moves to a forced win, positive for White); None when the comments say
    nothing of it (docs/export.md, Clocks and evaluations)."""
    clock = node.clock
    evaluation = node.eval
    return {
        "clock_ms": clock.remaining(mover) if clock is not None else None,
        "eval_cp": evaluation.cp if evaluation is not None else None,
        "eval_mate": evaluation.mate if evaluation is not None else None,
    }
