"""The human format: ``path:line:col: severity CODE message [game N, ply P]``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from pdn_tools.diagnostics import Issue, Severity
from pdn_tools.report.base import GameReport, Totals


def where(game: int, issue: Issue) -> str:
    """``game N, ply P`` (``file`` for a file without games), as shown in brackets."""
    text = f"game {game}" if game else "file"
    if issue.ply is not None:
        text += f", ply {issue.ply}"
    if issue.in_variation:
        text += ", in a variation"
    return text


def issue_lines(
    path: str, game: int, issues: Iterable[Issue], show_info: bool = False
) -> list[str]:
    """One line per issue of one game (info-level issues only if *show_info*)."""
    lines = []
    for issue in issues:
        if issue.level is Severity.INFO and not show_info:
            continue
        lines.append(
            f"{path}:{issue.line}:{issue.column}: {issue.level.value} {issue.code} "
            f"{issue.message} [{where(game, issue)}]"
        )
        if issue.context is not None:
            lines.extend("    " + part for part in issue.context.split("\n"))
    return lines


class TextReporter:
    """Writes one line per finding; the summary is the command's business (stderr)."""

    def __init__(self, out: TextIO, show_info: bool = False) -> None:
        self.out = out
        self.show_info = show_info

    def add(self, game: GameReport) -> None:
        """Write the game's findings."""
        for text in issue_lines(game.file, game.game, game.issues, self.show_info):
            self.out.write(text + "\n")

    def close(self, totals: Totals) -> None:
        """Nothing to finish."""
