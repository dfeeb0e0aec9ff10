"""The human format: ``path:line:col: severity CODE message [game N, ply P]``."""

from __future__ import annotations

from collections.abc import Iterable

from pdn_tools.diagnostics import Issue, Severity


def issue_lines(
    path: str, game: int, issues: Iterable[Issue], show_info: bool = False
) -> list[str]:
    """One line per issue of one game (info-level issues only if *show_info*)."""
    lines = []
    for issue in issues:
        if issue.level is Severity.INFO and not show_info:
            continue
        where = f"game {game}" if game else "file"
        if issue.ply is not None:
            where += f", ply {issue.ply}"
        if issue.in_variation:
            where += ", in a variation"
        lines.append(
            f"{path}:{issue.line}:{issue.column}: {issue.level.value} {issue.code} "
            f"{issue.message} [{where}]"
        )
        if issue.context is not None:
            lines.extend("    " + part for part in issue.context.split("\n"))
    return lines
