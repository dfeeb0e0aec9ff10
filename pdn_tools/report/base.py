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
from typing import TYPE_CHECKING, Any, Protocol

from pdn_tools.diagnostics import EventFinding, Issue, Severity, status_of
from pdn_tools.report.records import Checked
from pdn_tools.report.selection import Selection

if TYPE_CHECKING:
    from pdn_tools.report.detail import GameDetail


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
    detail: GameDetail | None
    """Tags, moves and boards (HTML report), aligned with the reported findings."""

    __slots__ = (
        "detail",
        "failed",
        "file",
        "file_no",
        "game",
        "issues",
        "line",
        "record",
        "status",
    )

    def __init__(
        self,
        file_no: int,
        file: str,
        game: int,
        line: int,
        issues: list[Issue],
        status: str,
        failed: bool,
        record: dict[str, Any],
        detail: GameDetail | None = None,
    ) -> None:
        self.file_no = file_no
        self.file = file
        self.game = game
        self.line = line
        self.issues = issues
        self.status = status
        self.failed = failed
        self.record = record
        self.detail = detail

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameReport) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.file_no,
            self.file,
            self.game,
            self.line,
            self.issues,
            self.status,
            self.failed,
            self.record,
            self.detail,
        ) == (
            other.file_no,
            other.file,
            other.game,
            other.line,
            other.issues,
            other.status,
            other.failed,
            other.record,
            other.detail,
        )

    def __repr__(self) -> str:
        return (
            f"GameReport(file_no={self.file_no!r}, "
            f"file={self.file!r}, "
            f"game={self.game!r}, "
            f"line={self.line!r}, "
            f"issues={self.issues!r}, "
            f"status={self.status!r}, "
            f"failed={self.failed!r}, "
            f"record={self.record!r}, "
            f"detail={self.detail!r})"
        )

    def __reduce__(self) -> tuple[type[GameReport], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            GameReport,
            (
                self.file_no,
                self.file,
                self.game,
                self.line,
                self.issues,
                self.status,
                self.failed,
                self.record,
                self.detail,
            ),
        )


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


class Totals:
    """Counts over a whole run, for the summary line and the exit status."""

    files: int
    games: int
    counts: dict[str, int]
    with_errors: int
    failed: int
    filtered: int | None
    """Games the filter options left out (None: no filter option was given)."""
    codes: dict[str, Counter[str]]
    """Reported findings by severity and code."""
    events: int | None
    """Events checked (None: the event checks did not run)."""
    event_findings: int
    failed_events: int
    """Event findings that fail the run (``--fail-on``)."""

    __slots__ = (
        "codes",
        "counts",
        "event_findings",
        "events",
        "failed",
        "failed_events",
        "files",
        "filtered",
        "games",
        "with_errors",
    )

    def __init__(
        self,
        files: int = 0,
        games: int = 0,
        counts: dict[str, int] | None = None,
        with_errors: int = 0,
        failed: int = 0,
        filtered: int | None = None,
        codes: dict[str, Counter[str]] | None = None,
        events: int | None = None,
        event_findings: int = 0,
        failed_events: int = 0,
    ) -> None:
        self.files = files
        self.games = games
        self.counts = {"error": 0, "warning": 0, "info": 0} if counts is None else counts
        self.with_errors = with_errors
        self.failed = failed
        self.filtered = filtered
        self.codes = (
            {"error": Counter(), "warning": Counter(), "info": Counter()}
            if codes is None
            else codes
        )
        self.events = events
        self.event_findings = event_findings
        self.failed_events = failed_events

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Totals) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.files,
            self.games,
            self.counts,
            self.with_errors,
            self.failed,
            self.filtered,
            self.codes,
            self.events,
            self.event_findings,
            self.failed_events,
        ) == (
            other.files,
            other.games,
            other.counts,
            other.with_errors,
            other.failed,
            other.filtered,
            other.codes,
            other.events,
            other.event_findings,
            other.failed_events,
        )

    def __repr__(self) -> str:
        return (
            f"Totals(files={self.files!r}, "
            f"games={self.games!r}, "
            f"counts={self.counts!r}, "
            f"with_errors={self.with_errors!r}, "
            f"failed={self.failed!r}, "
            f"filtered={self.filtered!r}, "
            f"codes={self.codes!r}, "
            f"events={self.events!r}, "
            f"event_findings={self.event_findings!r}, "
            f"failed_events={self.failed_events!r})"
        )

    def __reduce__(self) -> tuple[type[Totals], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Totals,
            (
                self.files,
                self.games,
                self.counts,
                self.with_errors,
                self.failed,
                self.filtered,
                self.codes,
                self.events,
                self.event_findings,
                self.failed_events,
            ),
        )

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
