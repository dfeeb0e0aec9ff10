"""What every report format sees of a game, and the totals of a run.

A :class:`GameReport` is a checked game after ``--select``/``--ignore``: only the
reported findings, the status they give, and whether the game fails the run under
``--fail-on``.  Formats implement :class:`Reporter`: they get the games in input
order and write as they go, so a report of any size streams; then the findings
about events (:class:`~pdn_tools.diagnostics.EventFinding`), which can only be known
once every game is read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from pdn_tools.diagnostics import EventFinding, Issue, Severity, status_of
from pdn_tools.report.detail import GameDetail
from pdn_tools.report.records import Checked
from pdn_tools.report.selection import Selection


@dataclass(slots=True)
class GameReport:
    """One game (``game`` 0: a file without games) as the reports show it."""

    file_no: int
    file: str
    game: int
    line: int
    issues: list[Issue]
    status: str
    failed: bool
    record: dict[str, Any]
    """The JSON record (``--format jsonl``) with the reported findings and status."""
    detail: GameDetail | None = None
    """Tags, moves and boards (HTML report), aligned with the reported findings."""


def game_report(checked: Checked, selection: Selection, fail_on: Severity) -> GameReport:
    """Apply *selection* to *checked*; *fail_on* is the least severity that fails."""
    issues = selection.filter(checked.issues)
    status = status_of(issues)
    record = dict(checked.record)
    record["status"] = status
    record["issues"] = [issue.to_dict() for issue in issues]
    detail = checked.detail
    if detail is not None and len(issues) != len(checked.issues):
        kept = {id(issue) for issue in issues}
        detail = detail.only([n for n, issue in enumerate(checked.issues) if id(issue) in kept])
    return GameReport(
        file_no=checked.file_no,
        file=checked.file,
        game=checked.game,
        line=int(checked.record["line"]),
        issues=issues,
        status=status,
        failed=any(issue.level.rank >= fail_on.rank for issue in issues),
        record=record,
        detail=detail,
    )


@dataclass(slots=True)
class Totals:
    """Counts over a whole run, for the summary line and the exit status."""

    files: int = 0
    games: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {"error": 0, "warning": 0, "info": 0})
    with_errors: int = 0
    failed: int = 0
    filtered: int | None = None
    """Games the filter options left out (None: no filter option was given)."""
    codes: dict[str, Counter[str]] = field(
        default_factory=lambda: {"error": Counter(), "warning": Counter(), "info": Counter()}
    )
    """Reported findings by severity and code."""
    events: int | None = None
    """Events checked (None: the event checks did not run)."""
    event_findings: int = 0
    failed_events: int = 0
    """Event findings that fail the run (``--fail-on``)."""

    @property
    def failing(self) -> int:
        """Games and event findings that fail the run: the exit status is 1 when any."""
        return self.failed + self.failed_events

    def add_event(self, finding: EventFinding, fail_on: Severity) -> None:
        """Count one reported event finding; *fail_on* is the least severity that fails."""
        self.counts[finding.level.value] += 1
        self.codes[finding.level.value][finding.code] += 1
        self.event_findings += 1
        if finding.level.rank >= fail_on.rank:
            self.failed_events += 1

    def add(self, game: GameReport) -> None:
        """Count one game's reported findings."""
        if game.game:
            self.games += 1
        for issue in game.issues:
            self.counts[issue.level.value] += 1
            self.codes[issue.level.value][issue.code] += 1
        if game.status == "error" and game.game:
            self.with_errors += 1  # a file without games (E12, game 0) is no game
        if game.failed:
            self.failed += 1

    def line(self) -> str:
        """The summary printed on stderr after a text report."""
        line = (
            f"{self.files} file(s), {self.games} game(s): {self.counts['error']} error(s), "
            f"{self.counts['warning']} warning(s), {self.counts['info']} info; "
            f"{self.with_errors} game(s) with errors"
        )
        if self.filtered is not None:
            line += f"; {self.filtered} game(s) filtered out"
        if self.events is not None and self.event_findings:
            line += f"; {self.event_findings} finding(s) about events ({self.events} checked)"
        return line

    def code_lines(self) -> list[str]:
        """The codes by severity, errors first, each severity's codes by count
        (printed under :meth:`line` by the formats read by people)."""
        out = []
        for level, label in (("error", "errors"), ("warning", "warnings"), ("info", "info")):
            found = self.codes[level]
            if found:
                ranked = sorted(found.items(), key=lambda item: (-item[1], item[0]))
                counts = ", ".join(f"{code} {count:,}" for code, count in ranked)
                out.append(f"  {label + ':':<9} {counts}")
        return out

    def to_dict(self) -> dict[str, int]:
        """The summary as JSON data (``filtered`` only when a filter was given)."""
        data = {
            "files": self.files,
            "games": self.games,
            "errors": self.counts["error"],
            "warnings": self.counts["warning"],
            "infos": self.counts["info"],
            "games_with_errors": self.with_errors,
            "failed_games": self.failed,
        }
        if self.filtered is not None:
            data["filtered"] = self.filtered
        if self.events is not None:
            data["events"] = self.events
            data["event_findings"] = self.event_findings
            data["failed_event_findings"] = self.failed_events
        return data


class Reporter(Protocol):
    """A report format: told each game in order, then each event finding (after every
    game), then closed with the totals."""

    def add(self, game: GameReport) -> None:
        """Write (or keep) what the report says about *game*."""

    def add_event(self, finding: EventFinding) -> None:
        """Write (or keep) one reported finding about an event."""

    def close(self, totals: Totals) -> None:
        """Finish the report."""
