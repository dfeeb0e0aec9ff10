"""The report formats of ``pdn validate --format``, by name."""

from __future__ import annotations

from typing import TextIO

from pdn_tools.diagnostics import Severity
from pdn_tools.report.base import Reporter
from pdn_tools.report.github import GithubReporter
from pdn_tools.report.html import HtmlReporter
from pdn_tools.report.jsonfmt import JsonlReporter, JsonReporter
from pdn_tools.report.junit import JunitReporter
from pdn_tools.report.sarif import SarifReporter
from pdn_tools.report.text import TextReporter

#: Format names, the human one first.
FORMATS = ("text", "jsonl", "json", "github", "sarif", "junit", "html")
#: Formats read by people: they get the summary on stderr and honour ``--info``.
HUMAN = frozenset({"text", "github", "html"})
#: Formats that show the tags, moves and boards of games (``CheckOptions.detail``).
DETAILED = frozenset({"html"})


def make_reporter(
    name: str,
    out: TextIO,
    *,
    show_info: bool = False,
    fail_on: Severity = Severity.ERROR,
    colour: bool = False,
) -> Reporter:
    """The reporter for format *name*, writing to *out* (``text`` in colour when
    *colour*)."""
    if name == "text":
        return TextReporter(out, show_info, colour)
    if name == "jsonl":
        return JsonlReporter(out)
    if name == "json":
        return JsonReporter(out)
    if name == "github":
        return GithubReporter(out, show_info)
    if name == "sarif":
        return SarifReporter(out)
    if name == "junit":
        return JunitReporter(out, fail_on)
    if name == "html":
        return HtmlReporter(out, show_info=show_info, fail_on=fail_on)
    raise ValueError(f"unknown report format {name!r}")
