"""GitHub Actions workflow commands: one annotation per finding.

``::error file=games.pdn,line=3,col=7,title=E05::message [game 2, ply 5]``.  Errors
and warnings map to ``error`` and ``warning``; info findings (only with ``--info``)
to ``notice``.  Values are escaped as the Actions runner expects: ``%``, CR and LF
everywhere, and also ``:`` and ``,`` in properties, so a message can never end the
command early or inject another one.
"""

from __future__ import annotations

from typing import TextIO

from pdn_tools.diagnostics import EventFinding, Severity
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.text import event_where, where

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape the message part of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (file, title) of a workflow command."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubReporter:
    """Writes workflow annotations on stdout, where the Actions runner reads them."""

    def __init__(self, out: TextIO, show_info: bool = False) -> None:
        self.out = out
        self.show_info = show_info

    def add(self, game: GameReport) -> None:
        """Write one annotation per finding of the game."""
        for issue in game.issues:
            if issue.level is Severity.INFO and not self.show_info:
                continue
            props = ",".join(
                f"{key}={escape_property(value)}"
                for key, value in (
                    ("file", game.file),
                    ("line", str(max(1, issue.line))),
                    ("col", str(max(1, issue.column))),
                    ("title", issue.code),
                )
            )
            message = escape_data(f"{issue.message} [{where(game.game, issue)}]")
            self.out.write(f"::{_COMMAND[issue.level]} {props}::{message}\n")

    def add_event(self, finding: EventFinding) -> None:
        """Write one annotation for an event finding, placed at its first game."""
        if finding.level is Severity.INFO and not self.show_info:
            return
        props = ",".join(
            f"{key}={escape_property(value)}"
            for key, value in (
                ("file", finding.file),
                ("line", str(max(1, finding.line))),
                ("col", "1"),
                ("title", finding.code),
            )
        )
        message = escape_data(f"{finding.message} [{event_where(finding)}]")
        self.out.write(f"::{_COMMAND[finding.level]} {props}::{message}\n")

    def close(self, totals: Totals) -> None:
        """Nothing to finish."""
