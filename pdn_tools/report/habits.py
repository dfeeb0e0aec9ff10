"""Habits: the same finding in most games of a file, reported once for the file.

Real archives are written by programs, and a program writes every game the same way:
a file whose writer puts ``x`` in every quiet move has the same W12 in nearly every
game (2,326 times in the 724 games of one real tournament file).  Listed one by one,
such a house style buries the few findings that are real errors.  A **habit** is a
(code, cause) pair that a file shows in more than half of its games, in a file of at
least :data:`MIN_GAMES` games; the human formats report it once per file, with how
often and where (``docs/diagnostics.md`` defines it for users).  Errors are never a
habit: each is listed on its own.

The *cause* of a finding is its message with the particulars of one occurrence
abstracted (:func:`cause`): square numbers and digits become ``#``, the letters of a
quoted move ``a``/``A``, so that "a quiet move written with 'x' (22x18)" and "… (9x14)"
are one cause while the tag names of "tag name 'Bianco' read as White" keep theirs.

:class:`ByFile` holds the games of the file being read (spooled to a temporary file
past a few megabytes, so that memory stays flat), finds its habits when the next file
begins or the run ends, and hands both to the format that writes them.  Without
grouping (``--no-group``) games are handed on at once, one by one.
"""

from __future__ import annotations

import pickle
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from pdn_tools.diagnostics import Issue, Severity
from pdn_tools.report.base import GameReport

MIN_GAMES = 3
"""Fewest games a file must hold for a finding to be one of its habits."""

_QUOTED = re.compile(r"'([^']*\d[^']*)'")
_DIGITS = re.compile(r"\d+")


def cause(issue: Issue) -> str:
    """The message of *issue* without what is particular to one occurrence."""

    def shape(match: re.Match[str]) -> str:
        text = re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", match.group(1)))
        return f"'{text}'"

    return _DIGITS.sub("#", _QUOTED.sub(shape, issue.message))


Key = tuple[str, str, str]
"""(code, severity, cause)."""


def key_of(issue: Issue) -> Key:
    """What two findings share when they are the same habit."""
    return issue.code, issue.level.value, cause(issue)


@dataclass(slots=True)
class Habit:
    """One habit of one file, with every occurrence (filled as the file's games are
    handed on: ``occurrences`` holds (game, finding) in file order)."""

    file_no: int
    file: str
    code: str
    severity: Severity
    cause: str
    first: Issue
    first_game: int
    count: int
    games: int
    file_games: int
    occurrences: list[tuple[int, Issue]] = field(default_factory=list)

    @property
    def message(self) -> str:
        """The first occurrence's message and how often the file does the same."""
        return (
            f"{self.first.message} — a habit of this file: {self.count:,} time(s) in "
            f"{self.games:,} of its {self.file_games:,} games"
        )

    def is_first(self, game: int, issue: Issue) -> bool:
        """Whether *issue* of game *game* is the habit's first occurrence (the games
        handed on are copies: compared by place, not identity)."""
        first = self.first
        return (game, issue.line, issue.column, issue.code, issue.message) == (
            self.first_game,
            first.line,
            first.column,
            first.code,
            first.message,
        )

    def where(self) -> str:
        """Where the first occurrence is, as the text format says it."""
        text = f"habit; first in game {self.first_game}"
        if self.first.ply is not None:
            text += f", ply {self.first.ply}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """The habit as JSON data, every occurrence under it (``--format json``)."""
        return {
            "file": self.file,
            "code": self.code,
            "severity": self.severity.value,
            "cause": self.cause,
            "message": self.message,
            "count": self.count,
            "games": self.games,
            "file_games": self.file_games,
            "occurrences": [
                {
                    "game": game,
                    "line": issue.line,
                    "column": issue.column,
                    "ply": issue.ply,
                    "message": issue.message,
                }
                for game, issue in self.occurrences
            ],
        }


class Habits:
    """The habits of one file and which of its findings belong to them."""

    def __init__(self, found: list[Habit]) -> None:
        self.found = found
        self._by_key = {(h.code, h.severity.value, h.cause): h for h in found}

    def of(self, issue: Issue) -> Habit | None:
        """The habit *issue* belongs to, if any."""
        if not self._by_key or issue.level is Severity.ERROR:
            return None
        return self._by_key.get(key_of(issue))

    def __bool__(self) -> bool:
        return bool(self.found)


NO_HABITS = Habits([])


@dataclass(slots=True)
class _Tally:
    count: int = 0
    games: int = 0
    last_game: int = -1
    first: tuple[int, Issue] | None = None


Emit = Callable[[Iterator[GameReport], Habits], None]
"""What a format does with one file's games (in order) and its habits."""


class ByFile:
    """Collects each file's games, finds the file's habits, and hands both on.

    *emit* is called once per file (once per game without *group*), with an iterator
    over the file's games that must be consumed before the call returns.
    """

    def __init__(self, emit: Emit, *, group: bool = True) -> None:
        self.emit = emit
        self.group = group
        self.file_no: int | None = None
        self.file = ""
        self.spool: IO[bytes] | None = None
        self.games = 0
        self.tallies: dict[Key, _Tally] = {}

    def add(self, game: GameReport) -> None:
        """Take the next game (games come file by file, in order)."""
        if not self.group:
            self.emit(iter((game,)), NO_HABITS)
            return
        if game.file_no != self.file_no:
            self.flush()
            self.file_no, self.file = game.file_no, game.file
            self.spool = _spool()
        assert self.spool is not None
        pickle.dump(game, self.spool, protocol=pickle.HIGHEST_PROTOCOL)
        if not game.game:
            return
        self.games += 1
        for issue in game.issues:
            if issue.level is Severity.ERROR:
                continue
            tally = self.tallies.get(key := key_of(issue))
            if tally is None:
                tally = self.tallies[key] = _Tally(first=(game.game, issue))
            tally.count += 1
            if tally.last_game != game.game:
                tally.last_game = game.game
                tally.games += 1

    def flush(self) -> None:
        """Hand on the file being collected (called at the end of the run too)."""
        spool = self.spool
        if spool is None or self.file_no is None:
            return
        found = []
        if self.games >= MIN_GAMES:
            for (code, level, why), tally in self.tallies.items():
                if 2 * tally.games > self.games and tally.first is not None:
                    found.append(
                        Habit(
                            self.file_no,
                            self.file,
                            code,
                            Severity(level),
                            why,
                            tally.first[1],
                            tally.first[0],
                            tally.count,
                            tally.games,
                            self.games,
                        )
                    )
        habits = Habits(found)
        spool.seek(0)
        try:
            self.emit(_replay(spool), habits)
        finally:
            spool.close()
            self.spool = None
            self.file_no = None
            self.games = 0
            self.tallies = {}


def _spool() -> IO[bytes]:
    """A byte buffer kept in memory up to 8 MB, then on disk."""
    return tempfile.SpooledTemporaryFile(max_size=1 << 23)


def _replay(spool: IO[bytes]) -> Iterator[GameReport]:
    while True:
        try:
            game = pickle.load(spool)
        except EOFError:
            return
        assert isinstance(game, GameReport)
        yield game


def split(game: GameReport, habits: Habits) -> list[Issue]:
    """The findings of *game* that are not part of a habit; those that are are added
    to their habit's occurrences."""
    if not habits:
        return game.issues
    own = []
    for issue in game.issues:
        habit = habits.of(issue)
        if habit is None:
            own.append(issue)
        else:
            habit.occurrences.append((game.game, issue))
    return own
