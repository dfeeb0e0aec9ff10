"""The human format: ``path:line:col: severity CODE message [game N, ply P]``.

Findings come game by game in file order.  A file's habits (the same finding in most of
its games, :mod:`pdn_tools.report.habits`) are written once each, after the file's
other findings, at the place of their first occurrence::

    tinsley.pdn:12:7: warning W12 separator does not match the move: a quiet move
    written with 'x' (22x18) — a habit of this file: 2,326 time(s) in 700 of its 724
    games [habit; first in game 1, ply 3]

(one line); ``--no-group`` lists every occurrence instead.

With colour (a terminal, ``--color always``) the place is bold and the severity
coloured as compilers and linters colour theirs: errors red, warnings yellow, info
cyan.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TextIO

from pdn_tools.atomic import printable, shown, shown_context
from pdn_tools.diagnostics import EventFinding, Issue, Severity
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.habits import ByFile, Habit, Habits, split


def where(game: int, issue: Issue) -> str:
    """``game N, ply P`` (``file`` for a file without games), as shown in brackets."""
    text = f"game {game}" if game else "file"
    if issue.ply is not None:
        text += f", ply {issue.ply}"
    if issue.in_variation:
        text += ", in a variation"
    return text


def event_where(finding: EventFinding) -> str:
    """``event 'NK 2003' (Amsterdam, 2003), round 3; games 4, 9`` (``file:game`` for
    the games of other files than the first), as shown in brackets."""
    text = finding.place()
    if finding.games:
        first = finding.games[0].file_no
        games = [str(g.game) if g.file_no == first else f"{g.file}:{g.game}" for g in finding.games]
        text += f"; game{'s' if len(games) > 1 else ''} {', '.join(games)}"
    return text


_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"
_COLOURS = {
    Severity.ERROR: "\x1b[1;31m",
    Severity.WARNING: "\x1b[1;33m",
    Severity.INFO: "\x1b[1;36m",
}


def issue_lines(
    path: str, game: int, issues: Iterable[Issue], show_info: bool = False, colour: bool = False
) -> list[str]:
    """One line per issue of one game (info-level issues only if *show_info*),
    coloured with ANSI escapes when *colour*.  What the input wrote (the file name,
    quoted text, the source line) is escaped (:func:`pdn_tools.atomic.shown`), so
    that no escape sequence of the input reaches the terminal."""
    lines = []
    for issue in issues:
        if issue.level is Severity.INFO and not show_info:
            continue
        place = f"{printable(path)}:{issue.line}:{issue.column}:"
        level = issue.level.value
        if colour:
            place = f"{_BOLD}{place}{_RESET}"
            level = f"{_COLOURS[issue.level]}{level}{_RESET}"
        message = shown(issue.message)
        lines.append(f"{place} {level} {issue.code} {message} [{where(game, issue)}]")
        if issue.context is not None:
            lines.extend("    " + part for part in shown_context(issue.context).split("\n"))
    return lines


def habit_line(habit: Habit, colour: bool = False) -> str:
    """The one line of a habit, at its first occurrence."""
    place = f"{printable(habit.file)}:{habit.first.line}:{habit.first.column}:"
    level = habit.severity.value
    if colour:
        place = f"{_BOLD}{place}{_RESET}"
        level = f"{_COLOURS[habit.severity]}{level}{_RESET}"
    return f"{place} {level} {habit.code} {shown(habit.message)} [{habit.where()}]"


class TextReporter:
    """Writes one line per finding and one per habit; the summary is the command's
    business (stderr)."""

    def __init__(
        self, out: TextIO, show_info: bool = False, colour: bool = False, group: bool = True
    ) -> None:
        self.out = out
        self.show_info = show_info
        self.colour = colour
        self.files = ByFile(self._file, group=group)

    def add(self, game: GameReport) -> None:
        """Take the game's findings (written when its file is complete)."""
        self.files.add(game)

    def _file(self, games: Iterator[GameReport], habits: Habits) -> None:
        for game in games:
            own = split(game, habits)
            for text in issue_lines(game.file, game.game, own, self.show_info, self.colour):
                self.out.write(text + "\n")
        for habit in habits.found:
            if habit.severity is not Severity.INFO or self.show_info:
                self.out.write(habit_line(habit, self.colour) + "\n")

    def add_event(self, finding: EventFinding) -> None:
        """Write one event finding, placed at its first game (after every game's: the
        last file's are written first)."""
        self.files.flush()
        if finding.level is Severity.INFO and not self.show_info:
            return
        place = f"{printable(finding.file)}:{finding.line}:{finding.column}:"
        level = finding.level.value
        if self.colour:
            place = f"{_BOLD}{place}{_RESET}"
            level = f"{_COLOURS[finding.level]}{level}{_RESET}"
        self.out.write(
            f"{place} {level} {finding.code} {shown(finding.message)} "
            f"[{shown(event_where(finding))}]\n"
        )

    def close(self, totals: Totals) -> None:
        """Write the last file's findings."""
        self.files.flush()
