"""The JSON formats: ``jsonl`` (one record per game) and ``json`` (one document).

Both carry the per-game record of :mod:`pdn_tools.report.records` with the reported
findings.  ``json`` wraps the records as ``{"tool": …, "games": […], "summary": …}``
and is written as it goes, one game per line, so it streams like ``jsonl``.
"""

from __future__ import annotations

import json
from typing import TextIO

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

    def close(self, totals: Totals) -> None:
        """Nothing to finish."""


class JsonReporter:
    """A single JSON document holding every record and the run's summary."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.first = True
        tool = _dump({"name": "pdn-tools", "version": __version__})
        self.out.write(f'{{"tool": {tool},\n "games": [')

    def add(self, game: GameReport) -> None:
        """Write the game's record as the next element of ``games``."""
        self.out.write(("\n  " if self.first else ",\n  ") + _dump(game.record))
        self.first = False

    def close(self, totals: Totals) -> None:
        """Close ``games`` and write the summary."""
        self.out.write(f'\n ],\n "summary": {_dump(totals.to_dict())}}}\n')
