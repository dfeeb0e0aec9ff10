"""GitHub Actions workflow commands: one annotation per finding.

``::error file=games.pdn,line=3,col=7,title=E05::message [game 2, ply 5]``.  Errors
and warnings map to ``error`` and ``warning``; info findings (only with ``--info``)
to ``notice``.  Values are escaped as the Actions runner expects: ``%``, CR and LF
everywhere, and also ``:`` and ``,`` in properties, so a message can never end the
command early or inject another one; control characters of the input are escaped
first (:func:`pdn_tools.atomic.shown`), so a log viewer never receives one.  A file's
habits (:mod:`pdn_tools.report.habits`) are one annotation each, at their first
occurrence.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from pdn_tools.atomic import printable, shown
from pdn_tools.diagnostics import EventFinding, Issue, Severity
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.habits import ByFile, Habits, split
from pdn_tools.report.locations import member_place, zip_member
from pdn_tools.report.text import event_where, where

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape the message part of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (file, title) of a workflow command."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _placed(file: str, line: int, column: int, code: str, message: str) -> tuple[str, str]:
    """The properties of an annotation at (*line*, *column*) of the file reports name
    *file*, and its *message*.  A zip member is no file of the repository: the
    annotation is on the archive as a whole, the member and place opening the
    message (``round1.pdn:3:7: …``)."""
    inside = zip_member(file)
    if inside is not None:
        archive, member = inside
        place = [("file", printable(archive))]
        message = f"{member_place(member, line, column)}: {message}"
    else:
        place = [
            ("file", printable(file)),
            ("line", str(max(1, line))),
            ("col", str(max(1, column))),
        ]
    props = ",".join(f"{key}={escape_property(value)}" for key, value in [*place, ("title", code)])
    return props, message


class GithubReporter:
    """Writes workflow annotations on stdout, where the Actions runner reads them."""

    def __init__(self, out: TextIO, show_info: bool = False, group: bool = True) -> None:
        self.out = out
        self.show_info = show_info
        self.files = ByFile(self._file, group=group)

    def add(self, game: GameReport) -> None:
        """Take the game's findings (written when its file is complete)."""
        self.files.add(game)

    def _file(self, games: Iterator[GameReport], habits: Habits) -> None:
        for game in games:
            for issue in split(game, habits):
                self._write(game.file, issue, f"{issue.message} [{where(game.game, issue)}]")
        for habit in habits.found:
            self._write(habit.file, habit.first, f"{habit.message} [{habit.where()}]")

    def _write(self, file: str, issue: Issue, message: str) -> None:
        """One annotation (none for an info-level finding without ``--info``)."""
        if issue.level is Severity.INFO and not self.show_info:
            return
        props, message = _placed(file, issue.line, issue.column, issue.code, message)
        self.out.write(f"::{_COMMAND[issue.level]} {props}::{escape_data(shown(message))}\n")

    def add_event(self, finding: EventFinding) -> None:
        """Write one annotation for an event finding, placed at its first game (after
        every game's: the last file's are written first)."""
        self.files.flush()
        if finding.level is Severity.INFO and not self.show_info:
            return
        text = f"{finding.message} [{event_where(finding)}]"
        props, text = _placed(finding.file, finding.line, 1, finding.code, text)
        self.out.write(f"::{_COMMAND[finding.level]} {props}::{escape_data(shown(text))}\n")

    def close(self, totals: Totals) -> None:
        """Write the last file's annotations."""
        self.files.flush()
