"""The human format: ``path:line:col: severity CODE message [game N, ply P]``.

With colour (a terminal, ``--color always``) the place is bold and the severity
coloured as compilers and linters colour theirs: errors red, warnings yellow, info
cyan.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from pdn_tools.diagnostics import EventFinding, Issue, Severity
from pdn_tools.report.base import GameReport, Totals


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
    coloured with ANSI escapes when *colour*."""
    lines = []
    for issue in issues:
        if issue.level is Severity.INFO and not show_info:
            continue
        place = f"{path}:{issue.line}:{issue.column}:"
        level = issue.level.value
        if colour:
            place = f"{_BOLD}{place}{_RESET}"
            level = f"{_COLOURS[issue.level]}{level}{_RESET}"
        lines.append(f"{place} {level} {issue.code} {issue.message} [{where(game, issue)}]")
        if issue.context is not None:
            lines.extend("    " + part for part in issue.context.split("\n"))
    return lines


class TextReporter:
    """Writes one line per finding; the summary is the command's business (stderr)."""

    def __init__(self, out: TextIO, show_info: bool = False, colour: bool = False) -> None:
        self.out = out
        self.show_info = show_info
        self.colour = colour

    def add(self, game: GameReport) -> None:
        """Write the game's findings."""
        for text in issue_lines(game.file, game.game, game.issues, self.show_info, self.colour):
            self.out.write(text + "\n")

    def add_event(self, finding: EventFinding) -> None:
        """Write one event finding, placed at its first game."""
        if finding.level is Severity.INFO and not self.show_info:
            return
        place = f"{finding.file}:{finding.line}:{finding.column}:"
        level = finding.level.value
        if self.colour:
            place = f"{_BOLD}{place}{_RESET}"
            level = f"{_COLOURS[finding.level]}{level}{_RESET}"
        self.out.write(
            f"{place} {level} {finding.code} {finding.message} [{event_where(finding)}]\n"
        )

    def close(self, totals: Totals) -> None:
        """Nothing to finish."""
