"""The HTML report: one self-contained page with every finding and its board.

``pdn report PATHS -o report.html`` and ``pdn validate --format html`` write it.  The
page needs nothing but itself: its style, its script and its board drawings are
inline, a Content-Security-Policy (``default-src 'none'``, the script and the style
admitted by their SHA-256) forbids every request, and it works from ``file://``.

What it holds:

* a summary, written as HTML: files, games, findings by severity, the codes by
  count and the files with findings, each linking to the list filtered on it;
* the findings as data (JSON in the page) with, for each game that has one, its
  tags, its main line and the boards of :mod:`pdn_tools.report.detail`; the page
  script lists them a page at a time, draws a board only when its finding is shown,
  filters by code, severity and file, and moves between findings with the keyboard
  (``j``/``k``).  So a report of tens of thousands of findings stays quick: the
  browser never holds more than one page of boards.
* one empty board per kind of board used (:func:`pdn_tools.report.svg.board_frame`)
  and the shapes and colours of :mod:`pdn_tools.report.svg`, so a board drawn by the
  page matches the one :func:`~pdn_tools.report.svg.board_svg` writes.

Info-level findings are listed with ``--info`` only, as in the text format; they are
counted in the summary either way.  The games are spooled to a temporary file as they
come, so memory stays flat and the summary can head the page.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from html import escape
from importlib import resources
from typing import IO, Any, TextIO

from pdn_tools.diagnostics import CATALOGUE, EventFinding, Issue, Severity
from pdn_tools.report import events_html
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.detail import BoardView, GameDetail
from pdn_tools.report.svg import (
    CSS,
    DEFS,
    LANE,
    SQUARE,
    Coordinates,
    board_frame,
    layout_for,
)
from pdn_tools.rules import BoardSpec
from pdn_tools.version import __version__

PAGE_SIZE = 50
"""Findings per page of the list (and so boards in the page at once, at most)."""

_SURROGATES = re.compile("[\ud800-\udfff]")
_LEVELS = ("error", "warning", "info")


@cache
def _asset(name: str) -> str:
    return resources.files("pdn_tools.report").joinpath("assets", name).read_text("utf-8")


def _digest(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _text(value: object) -> str:
    """*value* as HTML text (lone surrogates, which UTF-8 cannot hold, replaced)."""
    return escape(_SURROGATES.sub("\ufffd", str(value)))


def _data(value: object) -> str:
    """JSON that can sit inside ``<script>``: ASCII, no ``<``, ``>`` or ``&``."""
    text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _spool() -> IO[str]:
    """A text buffer kept in memory up to 8 MB, then on disk."""
    return tempfile.SpooledTemporaryFile(max_size=1 << 23, mode="w+", encoding="utf-8")


@dataclass(slots=True)
class _FileCounts:
    name: str
    games: int = 0
    levels: Counter[str] = field(default_factory=Counter)
    """Reported findings by severity."""
    index: int | None = None
    """Position in the page's file list, once a finding of the file is listed."""


class HtmlReporter:
    """Collects the games as page data; writes the page when the run ends."""

    def __init__(
        self,
        out: TextIO,
        *,
        show_info: bool = False,
        fail_on: Severity = Severity.ERROR,
        page_size: int = PAGE_SIZE,
    ) -> None:
        self.out = out
        self.show_info = show_info
        self.fail_on = fail_on
        self.page_size = page_size
        self.body = _spool()  # closed in close(), when copied to the output
        self.written = 0
        self.files: dict[int, _FileCounts] = {}
        self.listed_files: list[str] = []
        self.codes: Counter[str] = Counter()
        self.listed: Counter[str] = Counter()
        self.levels: dict[str, set[str]] = {}
        self.unlisted = 0
        """Info-level findings counted but not listed (without ``--info``)."""
        self.layouts: set[tuple[BoardSpec, Coordinates]] = set()
        self.event_findings: list[EventFinding] = []
        self.event_tables: list[dict[str, Any]] = []

    # -- games --------------------------------------------------------------------------
    def add(self, game: GameReport) -> None:
        """Count the game's findings; keep it for the list when one of them is listed."""
        counts = self.files.get(game.file_no)
        if counts is None:
            counts = self.files[game.file_no] = _FileCounts(game.file)
        if game.game:
            counts.games += 1
        listed: list[int] = []
        for n, issue in enumerate(game.issues):
            level = issue.level.value
            counts.levels[level] += 1
            self.codes[issue.code] += 1
            self.levels.setdefault(issue.code, set()).add(level)
            if self.show_info or issue.level is not Severity.INFO:
                listed.append(n)
                self.listed[issue.code] += 1
            else:
                self.unlisted += 1
        if not listed:
            return
        if counts.index is None:
            counts.index = len(self.listed_files)
            self.listed_files.append(counts.name)
        entry = self._entry(game, counts.index, listed)
        self.body.write(("," if self.written else "") + "\n" + _data(entry))
        self.written += 1

    def _entry(self, game: GameReport, file_index: int, listed: list[int]) -> dict[str, Any]:
        """The page data of one game (the keys are short: there may be many games)."""
        detail = game.detail if game.detail is not None else GameDetail()
        record = game.record
        boards = [self._board(view, detail.coordinates) for view in detail.boards]
        issues = [
            _issue(game.issues[n], detail.issue_boards[n] if detail.issue_boards else None)
            for n in listed
        ]
        draws = [
            [
                event["rule"],
                event["ply"],
                event["article"],
                1 if event.get("in_variation") else 0,
                event.get("line"),
                event.get("column"),
                detail.draw_boards[k] if k < len(detail.draw_boards) else None,
            ]
            for k, event in enumerate(record.get("draws") or [])
        ]
        return {
            "f": file_index,
            "g": game.game,
            "l": game.line,
            "v": record.get("variant"),
            "r": record.get("result"),
            "h": [list(pair) for pair in detail.tags],
            "m": " ".join(move.replace(" ", "\u00a0") for move in detail.moves),
            "o": detail.number_offset,
            "b": boards,
            "i": issues,
            "d": draws,
        }

    def _board(self, view: BoardView, coordinates: Coordinates) -> list[Any]:
        layout = layout_for(view.spec, coordinates)
        self.layouts.add((view.spec, coordinates))
        return [
            layout.key,
            view.fen,
            view.pieces,
            [[a.colour, list(a.path), list(a.captures)] for a in view.arrows],
            [[square, colour] for square, colour in view.highlights],
            view.caption,
        ]

    # -- events (their own section: pdn_tools.report.events_html) -----------------------
    def add_event(self, finding: EventFinding) -> None:
        """Keep an event finding for the events section."""
        self.event_findings.append(finding)

    def add_event_table(self, table: dict[str, Any]) -> None:
        """Keep an event's crosstable (its JSON form) for the events section."""
        self.event_tables.append(table)

    # -- the page -----------------------------------------------------------------------
    def close(self, totals: Totals) -> None:
        """Write the page: head, summary, controls, the data and the script."""
        script = _asset("report.js")
        style = CSS + "\n" + _asset("report.css") + events_html.CSS
        policy = (
            "default-src 'none'; "
            f"script-src 'sha256-{_digest(script)}'; style-src 'sha256-{_digest(style)}'; "
            "base-uri 'none'; form-action 'none'"
        )
        title = f"PDN report: {totals.files} file(s), {totals.games} game(s)"
        write = self.out.write
        write(
            "<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="pdn-tools {__version__}">\n'
            f"<title>{_text(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
            f'<svg class="pdn-defs" aria-hidden="true"><defs>{DEFS}</defs></svg>\n'
        )
        write(self._summary(totals, title))
        write(events_html.events_section(self.event_findings, self.event_tables, self.show_info))
        write(self._controls())
        write(
            '<main id="findings"><noscript><p>The list of findings needs JavaScript; '
            "the summary above is complete without it.</p></noscript></main>\n"
        )
        # The data: {"square", "lane", "pageSize", "files": […], "games": [one per line]}
        # with the games copied from the spool.
        head = _data(
            {"square": SQUARE, "lane": LANE, "pageSize": self.page_size, "files": self.listed_files}
        )
        write(f'<script type="application/json" id="pdn-data">{head[:-1]},"games":[')
        self.body.seek(0)
        while block := self.body.read(1 << 16):
            write(block)
        self.body.close()
        write("\n]}</script>\n")
        write(self._templates())
        write(
            f"<footer>Written by pdn-tools {__version__}. Keys: <kbd>j</kbd> / <kbd>k</kbd> "
            "next / previous finding, <kbd>n</kbd> / <kbd>p</kbd> next / previous page."
            "</footer>\n"
        )
        write(f"<script>{script}</script>\n</body>\n</html>\n")

    def _summary(self, totals: Totals, title: str) -> str:
        counts = totals.to_dict()
        parts = [
            f'<header class="top"><h1>PDN report</h1><p>{_text(title)}</p></header>\n',
            '<section class="summary">\n<ul class="totals">',
            f"<li><b>{counts['files']}</b>file(s)</li>",
            f"<li><b>{counts['games']}</b>game(s)</li>",
            f'<li class="error"><b>{counts["errors"]}</b>error(s)</li>',
            f'<li class="warning"><b>{counts["warnings"]}</b>warning(s)</li>',
            f'<li class="info"><b>{counts["infos"]}</b>info</li>',
            f'<li class="error"><b>{counts["games_with_errors"]}</b>game(s) with errors</li>',
            f"<li><b>{counts['failed_games']}</b>game(s) failing "
            f"(--fail-on {self.fail_on.value})</li>",
        ]
        if "filtered" in counts:
            parts.append(f"<li><b>{counts['filtered']}</b>game(s) filtered out</li>")
        parts.append("</ul>\n")
        if self.unlisted:
            parts.append(
                "<p>Info-level findings are counted here and listed with <code>--info</code>.</p>"
            )
        parts.append('<div class="tables">\n<div><table class="counts" id="codes">')
        parts.append("<tr><th>Code</th><th>Title</th><th>Severity</th><th>Count</th></tr>")
        for code, count in sorted(self.codes.items(), key=lambda kv: (-kv[1], kv[0])):
            name = _text(code)
            if self.listed[code]:
                name = f'<a href="#code={name}">{name}</a>'
            else:
                name += ' <span class="unlisted">(not listed)</span>'
            level = ", ".join(sorted(self.levels[code]))
            parts.append(
                f"<tr><td>{name}</td><td>{_text(CATALOGUE[code].title)}</td>"
                f'<td>{level}</td><td class="n">{count}</td></tr>'
            )
        parts.append('</table></div>\n<div><table class="counts" id="files">')
        parts.append(
            "<tr><th>File</th><th>Games</th><th>Errors</th><th>Warnings</th><th>Info</th></tr>"
        )
        for file in self.files.values():
            if not file.levels:
                continue
            name = _text(file.name)
            if file.index is not None:
                name = f'<a href="#file={file.index}">{name}</a>'
            parts.append(
                f'<tr><td>{name}</td><td class="n">{file.games}</td>'
                + "".join(f'<td class="n">{file.levels[level]}</td>' for level in _LEVELS)
                + "</tr>"
            )
        parts.append("</table></div>\n</div>\n</section>\n")
        return "".join(parts)

    def _controls(self) -> str:
        codes = "".join(
            f'<option value="{_text(code)}">{_text(code)} {_text(CATALOGUE[code].title)} '
            f"({self.listed[code]})</option>"
            for code in sorted(self.listed)
        )
        levels = ["error", "warning"] + (["info"] if self.show_info else [])
        severities = "".join(f'<option value="{level}">{level}</option>' for level in levels)
        return (
            '<nav class="controls" aria-label="Filters"><div>'
            f'<label>Code <select id="f-code"><option value="">all codes</option>{codes}'
            "</select></label>"
            f'<label>Severity <select id="f-sev"><option value="">any</option>{severities}'
            "</select></label>"
            '<label>File <select id="f-file"><option value="">all files</option>'
            "</select></label>"
            '<button type="button" id="prev" aria-label="Previous page">&#9664;</button>'
            '<span id="status" role="status"></span>'
            '<button type="button" id="next" aria-label="Next page">&#9654;</button>'
            '<span class="keys"><kbd>j</kbd>/<kbd>k</kbd> findings, '
            "<kbd>n</kbd>/<kbd>p</kbd> pages</span>"
            "</div></nav>\n"
        )

    def _templates(self) -> str:
        """One empty board per kind used, for the script to copy."""
        parts = ['<template id="pdn-boards">']
        for spec, coordinates in sorted(self.layouts, key=lambda item: layout_for(*item).key):
            layout = layout_for(spec, coordinates)
            parts.append(
                f'<svg xmlns="http://www.w3.org/2000/svg" class="pdn-board" role="img" '
                f'viewBox="0 0 {layout.width} {layout.height}" data-key="{layout.key}">'
                '<g shape-rendering="crispEdges">' + "".join(board_frame(layout)) + "</g></svg>"
            )
        parts.append("</template>\n")
        return "".join(parts)


def _issue(issue: Issue, board: int | None) -> list[Any]:
    """A finding as page data: code, severity, message, line, column, ply,
    in a variation (0/1), board index."""
    return [
        issue.code,
        issue.level.value,
        issue.message,
        issue.line,
        issue.column,
        issue.ply,
        1 if issue.in_variation else 0,
        board,
    ]
