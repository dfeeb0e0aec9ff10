"""The JSON formats: ``jsonl`` (one record per game) and ``json`` (one document).

Both carry the per-game record of :mod:`pdn_tools.report.records` with every reported
finding: nothing is grouped away from the records; then one record per finding about
an event (:meth:`pdn_tools.diagnostics.EventFinding.to_dict`: ``event`` where a game
record has ``game``).  ``json`` wraps the records as ``{"tool": …, "games": […],
"events": […], "habits": […], "summary": …}`` (``events`` only when the event checks
ran) and is written one game per line, file by file; ``habits`` lists each file's
habits (:mod:`pdn_tools.report.habits`) with every occurrence under it (empty with
``--no-group``).  ``jsonl`` is written game by game as each is checked.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from typing import IO, TextIO

from pdn_tools.diagnostics import EventFinding
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.habits import ByFile, Habits, split
from pdn_tools.version import __version__


def _spool() -> IO[str]:
    """A text buffer kept in memory up to 8 MB, then on disk."""
    return tempfile.SpooledTemporaryFile(max_size=1 << 23, mode="w+", encoding="utf-8")


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


class JsonlReporter:
    """One JSON object per line and per game, in input order."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def add(self, game: GameReport) -> None:
        """Write the game's record."""
        self.out.write(_dump(game.record) + "\n")

    def add_event(self, finding: EventFinding) -> None:
        """Write the record of one event finding."""
        self.out.write(_dump(finding.to_dict()) + "\n")

    def close(self, totals: Totals) -> None:
        """Nothing to finish."""


class JsonReporter:
    """A single JSON document holding every record, the habits and the run's summary."""

    def __init__(self, out: TextIO, group: bool = True) -> None:
        self.out = out
        self.first = True
        self.habits = _spool()
        self.habit_count = 0
        self.files = ByFile(self._file, group=group)
        self.in_events = False
        tool = _dump({"name": "pdn-tools", "version": __version__})
        self.out.write(f'{{"tool": {tool},\n "games": [')

    def add(self, game: GameReport) -> None:
        """Take the game (its record is written when its file is complete)."""
        self.files.add(game)

    def _file(self, games: Iterator[GameReport], habits: Habits) -> None:
        for game in games:
            split(game, habits)
            self.out.write(("\n  " if self.first else ",\n  ") + _dump(game.record))
            self.first = False
        for habit in habits.found:
            self.habits.write(("," if self.habit_count else "") + "\n  " + _dump(habit.to_dict()))
            self.habit_count += 1

    def _events(self) -> None:
        """Close ``games`` and open ``events`` (once): the last file's games first."""
        self.files.flush()
        if not self.in_events:
            self.out.write('\n ],\n "events": [')
            self.in_events = True
            self.first = True

    def add_event(self, finding: EventFinding) -> None:
        """Write the record of one event finding as the next element of ``events``."""
        self._events()
        self.out.write(("\n  " if self.first else ",\n  ") + _dump(finding.to_dict()))
        self.first = False

    def close(self, totals: Totals) -> None:
        """Close ``games`` (and ``events``), write the habits and the summary."""
        self.files.flush()
        if totals.events is not None:
            self._events()
        self.out.write('\n ],\n "habits": [')
        self.habits.seek(0)
        while block := self.habits.read(1 << 16):
            self.out.write(block)
        self.habits.close()
        end = "\n ]" if self.habit_count else "]"
        self.out.write(f'{end},\n "summary": {_dump(totals.to_dict())}}}\n')
