"""Which games a run keeps: tags, players, dates, results, variants, plies, status
and positions reached, combined with AND (``--invert`` keeps the others).

A :class:`GameFilter` is plain, picklable data: the worker processes of a parallel
run (:mod:`pdn_tools.run.parallel`) test each game where it was replayed, so that
only the games kept travel back and every report, count and output sees the same
selection whatever ``--jobs`` says.  :meth:`GameFilter.matches` looks at the game
tree, what its replay established and the findings that count (the caller applies
``--select``/``--ignore`` first).

The meaning of each test is in docs/collections.md; in short:

* a tag test (``Event=WK*`` glob, ``Event~^WK`` regular expression) holds when the
  game has the tag (aliases such as ``Bianco`` for ``White`` included) and its value
  matches; globs ignore letter case, regular expressions search as written;
* a player test holds when White or Black matches the glob (any letter case);
* a date range holds when the Date tag, as far as it is known (at least its year),
  may lie in the range: ``1998.??.??`` lies in ``--date-from 1998.06``; a date read
  two ways (``01/06/1998``: 1 June or 6 January) holds when either reading may;
* a result test holds for the result as written (``2-0``) or the outcome by colour
  (``white``, ``black``, ``draw``, ``unknown``);
* the ply count is the report's ``plies``: main-line half-moves replayed, or read
  when the game was not replayed;
* a status test holds for ``clean`` (no warning or error), ``warnings`` (the worst
  finding is a warning), ``errors``, or a finding whose code starts with a prefix;
* a position test holds when the main line, as far as it replayed, reaches the
  position (with the side to move when the FEN gives it, else the placement only).

Each option given is one test; a repeated option adds a test (``--player A
--player B``: games of A against B), except that one ``--result``, ``--status`` or
``--only-variant`` value list is a choice (``--result 2-0,1-1``: either).
"""

from __future__ import annotations

import datetime
import fnmatch
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from pdn_tools.diagnostics import STATUS_WORDS, Issue, status_of
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.results import OUTCOMES, colour_outcome
from pdn_tools.pdn.tags import date_range, date_readings, written_dates
from pdn_tools.replay.options import ReplayResult
from pdn_tools.replay.positions import positions_reached
from pdn_tools.rules import Color, FenError, parse_fen, variant_by_name, variants


class FilterError(ValueError):
    """A filter value that cannot be read; the message says why."""


def glob_pattern(text: str) -> re.Pattern[str]:
    """A shell glob (``*``, ``?``, ``[…]``) over the whole value, in any letter case."""
    return re.compile(fnmatch.translate(text), re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class TagTest:
    """``NAME=GLOB`` or ``NAME~REGEX``: the tag's value matches."""

    name: str
    pattern: re.Pattern[str]
    regex: bool = False
    """A regular expression is searched in the value; a glob matches all of it."""

    def holds(self, game: Game) -> bool:
        value = game.tag(self.name)
        if value is None:
            return False
        found = self.pattern.search(value) if self.regex else self.pattern.match(value)
        return found is not None


def parse_tag_test(text: str) -> TagTest:
    """Read ``NAME=GLOB`` (whole value, any case) or ``NAME~REGEX`` (searched)."""
    match = re.match(r"\s*([^=~]+?)\s*([=~])(.*)\Z", text, re.DOTALL)
    if match is None or not match.group(1):
        raise FilterError(f"{text!r}: expected NAME=GLOB or NAME~REGEX (e.g. Event='WK*')")
    name, kind, value = match.groups()
    if kind == "=":
        return TagTest(name, glob_pattern(value))
    try:
        return TagTest(name, re.compile(value), regex=True)
    except re.error as exc:
        raise FilterError(f"{text!r}: not a regular expression: {exc}") from None


@dataclass(frozen=True, slots=True)
class DateBound:
    """One end of a date range as (year, month, day); missing parts are filled
    towards the outside of the range (``1998`` from: 1998-01-01, to: 1998-12-31)."""

    year: int
    month: int
    day: int


def parse_date_bound(text: str, *, end: bool) -> DateBound:
    """``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD`` (also with ``-`` or ``/``, or any
    other form a Date tag is read in with one reading) as the start (*end* False) or
    the end of a range.

    A bound is read as a Date tag is (:func:`~pdn_tools.pdn.tags.written_dates`), but
    what the tag reading passes over is refused here, each with a
    :class:`FilterError` naming the value: no year, a year outside 1000-2999, a
    month or a day that does not exist (``1998.13.01``, ``1998.02.30``, ``1998.00``),
    a day without its month, and a value read two ways (``01/06/1998``).
    """
    written = written_dates(text)
    if not written or written[0][0] is None:
        raise FilterError(f"{text!r}: expected a date YYYY, YYYY.MM or YYYY.MM.DD")
    if len(written) > 1:
        raise FilterError(f"{text!r}: its day and month may be read either way; write YYYY.MM.DD")
    year, month, day = written[0]
    assert year is not None
    if not 1000 <= year <= 2999:
        raise FilterError(f"{text!r}: year {year} is out of range (1000-2999)")
    if month is not None and not 1 <= month <= 12:
        raise FilterError(f"{text!r}: there is no month {month}")
    if day is not None:
        if month is None:
            raise FilterError(f"{text!r}: a day without its month")
        try:
            datetime.date(year, month, day)
        except ValueError:
            raise FilterError(f"{text!r}: {year}.{month:02d} has no day {day}") from None
    return DateBound(
        year,
        month if month is not None else (12 if end else 1),
        day if day is not None else (31 if end else 1),
    )


def _date_spans(value: str | None) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """The earliest and latest day each reading of a Date value may mean (two for
    ``01/06/1998``, read day first or month first; a range of days, an event's span,
    from its first day to its last); none without a year."""
    days = date_range(value)
    if days is not None:
        first, last = days
        return [((first.year, first.month, first.day), (last.year, last.month, last.day))]
    spans = []
    for parts in date_readings(value):
        assert parts.year is not None
        low = (parts.year, parts.month or 1, parts.day or 1)
        high = (parts.year, parts.month or 12, parts.day or 31)
        spans.append((low, high))
    return spans


@dataclass(frozen=True, slots=True)
class Reach:
    """A position the main line must reach: a FEN, with or without the side to move."""

    fen: str

    def reached_by(self, game: Game, replay: ReplayResult | None) -> bool:
        if replay is None or not replay.replayed or replay.variant is None:
            return False
        target = _target(self.fen, replay.variant)
        if target is None:
            return False
        placement, turn = target
        variant = variant_by_name(replay.variant)
        for position in positions_reached(game, variant, replay):
            if position.placement_key() == placement and (turn is None or position.turn is turn):
                return True
        return False


def _with_turn_field(fen: str) -> str:
    """*fen* with a ``?`` side to move put first when it starts with a side list."""
    text = fen.strip()
    if re.match(r"[WBwb?]\s*:", text):
        return text
    return "?:" + text.lstrip(":")


@lru_cache(maxsize=64)
def _target(fen: str, variant: str) -> tuple[tuple[int, int, int, int], Color | None] | None:
    """The placement bitboards and side to move (None: any) of *fen* on *variant*'s
    board; None when it describes no position there."""
    try:
        result = parse_fen(_with_turn_field(fen), variant_by_name(variant))
    except (FenError, KeyError):
        return None
    position = result.position
    return position.placement_key(), position.turn if result.turn_known else None


def parse_reach(text: str) -> Reach:
    """Check that *text* is a FEN on some board (``W:W31,32:B1,2``, or ``W31,32:B1,2``
    without the side to move)."""
    for variant in variants():
        try:
            parse_fen(_with_turn_field(text), variant)
        except FenError:
            continue
        return Reach(text.strip())
    raise FilterError(f"{text!r}: not a FEN position on any board (e.g. W:W31,32:B1,2)")


def _colour_words(game: Game) -> str:
    outcome = colour_outcome(game.result, game.variant)
    return outcome if outcome is not None else "unknown"


def record_plies(game: Game, replay: ReplayResult | None) -> int:
    """The ``plies`` of the reports: replayed when the game was replayed, else read."""
    return replay.plies if replay is not None and replay.replayed else game.plies


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Every test a game must pass (all of them; with ``invert``, not all of them)."""

    tags: tuple[TagTest, ...] = ()
    players: tuple[re.Pattern[str], ...] = ()
    date_from: DateBound | None = None
    date_to: DateBound | None = None
    results: tuple[str, ...] = ()
    """Results as written and outcome words; a game passes with any of them."""
    variants: tuple[str, ...] = ()
    """Variant names; a game passes with any of them."""
    min_plies: int | None = None
    max_plies: int | None = None
    statuses: tuple[str, ...] = ()
    """Status words (``ok``, ``warning``, ``error``) and code prefixes; any of them."""
    reaches: tuple[Reach, ...] = ()
    invert: bool = False

    def __post_init__(self) -> None:
        # Variants by the names games carry: an alias or GameType number stands for its
        # variant, and a name no variant has is refused (UnknownVariantError) rather
        # than a filter that silently keeps no game.
        names = tuple(variant_by_name(v).name for v in self.variants)
        if names != self.variants:
            object.__setattr__(self, "variants", names)

    @property
    def active(self) -> bool:
        """Whether any test is set (a filter without tests keeps every game)."""
        return bool(
            self.tags
            or self.players
            or self.date_from
            or self.date_to
            or self.results
            or self.variants
            or self.min_plies is not None
            or self.max_plies is not None
            or self.statuses
            or self.reaches
        )

    def matches(self, game: Game, replay: ReplayResult | None, issues: Iterable[Issue]) -> bool:
        """Whether *game* is kept, given its replay and the findings that count."""
        return self._all(game, replay, issues) != self.invert

    def _all(self, game: Game, replay: ReplayResult | None, issues: Iterable[Issue]) -> bool:
        if not all(test.holds(game) for test in self.tags):
            return False
        if self.players:
            names = [game.tag("White"), game.tag("Black")]
            for pattern in self.players:
                if not any(n is not None and pattern.match(n) for n in names):
                    return False
        if self.date_from is not None or self.date_to is not None:
            # a date read two ways passes when either reading may lie in the range
            start, end = self.date_from, self.date_to
            if not any(
                (start is None or high >= (start.year, start.month, start.day))
                and (end is None or low <= (end.year, end.month, end.day))
                for low, high in _date_spans(game.tag("Date"))
            ):
                return False
        if self.results:
            written = (game.result or "").strip()
            outcome = _colour_words(game)
            if not any(value in (written, outcome) for value in self.results):
                return False
        if self.variants:
            played = {game.variant, replay.variant if replay is not None else None}
            if not played.intersection(self.variants):
                return False
        if self.min_plies is not None or self.max_plies is not None:
            plies = record_plies(game, replay)
            if self.min_plies is not None and plies < self.min_plies:
                return False
            if self.max_plies is not None and plies > self.max_plies:
                return False
        if self.statuses:
            counted = list(issues)
            status = status_of(counted)
            if not any(
                value == status
                if value in ("ok", "warning", "error")
                else any(issue.code.startswith(value) for issue in counted)
                for value in self.statuses
            ):
                return False
        return all(reach.reached_by(game, replay) for reach in self.reaches)


def normalise_result(value: str) -> str:
    """A ``--result`` value: an outcome word in lower case, else the result as written."""
    text = value.strip()
    return text.lower() if text.lower() in OUTCOMES else text


__all__ = [
    "OUTCOMES",
    "STATUS_WORDS",
    "DateBound",
    "FilterError",
    "GameFilter",
    "Reach",
    "TagTest",
    "glob_pattern",
    "normalise_result",
    "parse_date_bound",
    "parse_reach",
    "parse_tag_test",
    "record_plies",
]
