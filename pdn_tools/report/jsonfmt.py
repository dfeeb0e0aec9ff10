"""The JSON formats: ``jsonl`` (one record per game) and ``json`` (one document).

Both carry the per-game record of :mod:`pdn_tools.report.records` with the reported
findings, then one record per finding about an event
(:meth:`pdn_tools.diagnostics.EventFinding.to_dict`: ``event`` where a game record
has ``game``).  ``json`` wraps the records as ``{"tool": …, "games": […],
"events": […], "summary": …}`` (``events`` only when the event checks ran) and is
written as it goes, one record per line, so it streams like ``jsonl``.
"""

from __future__ import annotations

import json
from typing import TextIO

from pdn_tools.diagnostics import EventFinding
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.version import __version__


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
    """A single JSON document holding every record and the run's summary."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.first = True
        self.in_events = False
        tool = _dump({"name": "pdn-tools", "version": __version__})
        self.out.write(f'{{"tool": {tool},\n "games": [')

    def add(self, game: GameReport) -> None:
        """Write the game's record as the next element of ``games``."""
        self.out.write(("\n  " if self.first else ",\n  ") + _dump(game.record))
        self.first = False

    def _events(self) -> None:
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
        """Close ``games`` (and ``events``) and write the summary."""
        if totals.events is not None:
            self._events()
        self.out.write(f'\n ],\n "summary": {_dump(totals.to_dict())}}}\n')
