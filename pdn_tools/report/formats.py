"""The report formats of ``pdn validate --format``, by name.

Each writer is imported when its format is asked for: a run writes one format, and
some writers import much that the others do not need (SARIF reads the package
metadata through :mod:`importlib.metadata`, HTML the board diagrams), which every
run would otherwise pay for at start-up.
"""

from __future__ import annotations

from typing import TextIO

from pdn_tools.diagnostics import Severity
from pdn_tools.report.base import Reporter

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
    group: bool = True,
) -> Reporter:
    """The reporter for format *name*, writing to *out* (``text`` in colour when
    *colour*; a file's habits reported once when *group*, see
    :mod:`pdn_tools.report.habits`)."""
    if name == "text":
        from pdn_tools.report.text import TextReporter

        return TextReporter(out, show_info, colour, group)
    if name == "jsonl":
        from pdn_tools.report.jsonfmt import JsonlReporter

        return JsonlReporter(out)
    if name == "json":
        from pdn_tools.report.jsonfmt import JsonReporter

        return JsonReporter(out, group)
    if name == "github":
        from pdn_tools.report.github import GithubReporter

        return GithubReporter(out, show_info, group)
    if name == "sarif":
        from pdn_tools.report.sarif import SarifReporter

        return SarifReporter(out)
    if name == "junit":
        from pdn_tools.report.junit import JunitReporter

        return JunitReporter(out, fail_on)
    if name == "html":
        from pdn_tools.report.html import HtmlReporter

        return HtmlReporter(out, show_info=show_info, fail_on=fail_on, group=group)
    raise ValueError(f"unknown report format {name!r}")
