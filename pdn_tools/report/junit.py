"""JUnit XML, as test dashboards read it: one test case per game.

``<testsuites>`` holds one ``<testsuite>`` per file and one ``<testcase>`` per game
(``game 0`` for a file without games), then a ``<testsuite name="events">`` with one
``<testcase>`` per event that has findings.  A game that fails the run (an error, or a
warning with ``--fail-on warning``) gets a ``<failure>`` listing its failing
findings; its other findings go to ``<system-out>``.  Suites are written as each file
ends and spooled to a temporary file, so memory stays flat and the totals can head
the document.
"""

from __future__ import annotations

import re
import tempfile
from typing import IO, TextIO

from pdn_tools.diagnostics import EventFinding, Issue, Severity
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.text import event_where, issue_lines

#: Characters XML 1.0 does not allow, even escaped.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(text: str) -> str:
    """*text* with the characters XML cannot hold replaced by U+FFFD."""
    return _INVALID_XML.sub("\ufffd", text)


def attr(value: str | int) -> str:
    """An XML attribute value, quoted and escaped."""
    from xml.sax.saxutils import quoteattr  # imported when used: it imports urllib

    return quoteattr(clean(str(value)))


def _spool() -> IO[str]:
    """A text buffer kept in memory up to 8 MB, then on disk."""
    return tempfile.SpooledTemporaryFile(max_size=1 << 23, mode="w+", encoding="utf-8")


def _copy(source: IO[str], target: IO[str] | TextIO) -> None:
    """Copy *source* from its start to *target*, then close it."""
    source.seek(0)
    while block := source.read(1 << 16):
        target.write(block)
    source.close()


class JunitReporter:
    """Collects the test cases of the current file, writes each suite when it ends."""

    def __init__(self, out: TextIO, fail_on: Severity = Severity.ERROR) -> None:
        self.out = out
        self.fail_on = fail_on
        self.suites = _spool()  # closed in close(), when copied to the output
        self.cases = _spool()  # the current file's test cases; renewed per file
        self.file_no: int | None = None
        self.file = ""
        self.suite_tests = 0
        self.suite_failures = 0
        self.tests = 0
        self.failures = 0
        self.event: tuple[str | None, str | None, int | None] | None = None
        self.event_place = ""
        self.event_findings: list[EventFinding] = []

    def add(self, game: GameReport) -> None:
        """Add the game's test case to the suite of its file."""
        if game.file_no != self.file_no:
            self._flush()
            self.file_no, self.file = game.file_no, game.file
        failing = [i for i in game.issues if i.level.rank >= self.fail_on.rank]
        others = [i for i in game.issues if i.level.rank < self.fail_on.rank]
        name = f"game {game.game}" if game.game else "file"
        head = (
            f"    <testcase classname={attr(game.file)} name={attr(name)} "
            f"file={attr(game.file)} line={attr(game.line)}"
        )
        body = []
        if failing:
            self.suite_failures += 1
            first = failing[0]
            body.append(
                f"      <failure type={attr(first.code)} message={attr(first.message)}>"
                f"{_text(game, failing)}</failure>"
            )
        if others:
            body.append(f"      <system-out>{_text(game, others)}</system-out>")
        self.tests += 1
        self.suite_tests += 1
        if body:
            self.cases.write("\n".join([head + ">", *body, "    </testcase>"]) + "\n")
        else:
            self.cases.write(head + "/>\n")

    def add_event(self, finding: EventFinding) -> None:
        """Add the finding to the test case of its event (in the suite ``events``)."""
        if self.file_no != -1:
            self._flush()
            self.file_no, self.file = -1, "events"
        key = (finding.event, finding.site, finding.year)
        if key != self.event:
            self._event_case()
            self.event = key
            self.event_place = finding.place().split(", round ")[0]
        self.event_findings.append(finding)

    def _event_case(self) -> None:
        findings = self.event_findings
        if not findings:
            return
        failing = [f for f in findings if f.level.rank >= self.fail_on.rank]
        others = [f for f in findings if f.level.rank < self.fail_on.rank]
        first = findings[0]
        head = (
            f'    <testcase classname="events" name={attr(self.event_place)} '
            f"file={attr(first.file)} line={attr(first.line)}"
        )
        body = []
        if failing:
            self.suite_failures += 1
            body.append(
                f"      <failure type={attr(failing[0].code)} message={attr(failing[0].message)}>"
                f"{_event_text(failing)}</failure>"
            )
        if others:
            body.append(f"      <system-out>{_event_text(others)}</system-out>")
        self.tests += 1
        self.suite_tests += 1
        self.cases.write("\n".join([head + ">", *body, "    </testcase>"]) + "\n")
        self.event_findings = []

    def _flush(self) -> None:
        if self.file_no == -1:
            self._event_case()
        if self.file_no is None:
            return
        self.suites.write(
            f'  <testsuite name={attr(self.file)} tests="{self.suite_tests}" '
            f'failures="{self.suite_failures}" errors="0" skipped="0">\n'
        )
        _copy(self.cases, self.suites)
        self.suites.write("  </testsuite>\n")
        self.failures += self.suite_failures
        self.cases = _spool()
        self.suite_tests = self.suite_failures = 0

    def close(self, totals: Totals) -> None:
        """Write the document: the totals, then the spooled suites."""
        self._flush()
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(
            f'<testsuites name="pdn validate" tests="{self.tests}" failures="{self.failures}" '
            'errors="0">\n'
        )
        _copy(self.suites, self.out)
        self.cases.close()
        self.out.write("</testsuites>\n")


def _event_text(findings: list[EventFinding]) -> str:
    """Event findings as text lines, escaped for an XML element."""
    from xml.sax.saxutils import escape

    lines = [
        f"{f.file}:{f.line}:1: {f.level.value} {f.code} {f.message} [{event_where(f)}]"
        for f in findings
    ]
    return escape(clean("\n".join(lines)))


def _text(game: GameReport, issues: list[Issue]) -> str:
    """The findings as text lines, escaped for an XML element."""
    from xml.sax.saxutils import escape

    lines = issue_lines(game.file, game.game, issues, show_info=True)
    return escape(clean("\n".join(lines)))
