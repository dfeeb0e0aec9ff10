"""The HTML report: one self-contained page with every finding and every game.

``pdn report PATHS -o report.html`` and ``pdn validate --format html`` write it.  The
page needs nothing but itself: its style, its script and its board drawings are
inline, a Content-Security-Policy (``default-src 'none'``, the script and the style
admitted by their SHA-256) forbids every request, and it works from ``file://``.

What it holds, in the order a reader meets it:

* one title, and the summary written as HTML (:attr:`HtmlReporter.sections`): the
  totals; the codes, errors first, then warnings, then info, each by count; the files
  (path shortened in the middle, the whole path on hover), each linking to its
  findings and to its games.  Further sections are added to that list.
* the findings, listed by the page script a page at a time, **errors first**, then
  warnings, then info (``--info``), in file order within each severity.  A file's
  habits (:mod:`pdn_tools.report.habits`) are one finding each, with their count and
  the list of their occurrences (folded).  A finding shows its place, its game, its
  message, the source line with a caret for syntax findings, and its board.
* the game viewer: every game can be opened (``#game=N``), stepped through ply by ply
  with the keyboard (←/→, Home/End) or by clicking a move, its findings marked on the
  move list, its variations shown where they branch off.

The findings are data in the page (``#pdn-data``: what the list needs, small), and
each game is data too, in blocks of about :data:`CHUNK_BYTES` (``script.pdn-chunk``)
that the script parses only when a game in the block is shown: so a page of tens of
thousands of games opens as fast as a small one, and the browser never holds more
than one page of boards (docs/report.md gives the sizes and the bound per game).

The games are spooled to temporary files as they come, so memory stays flat and the
summary can head the page.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from html import escape
from importlib import resources
from typing import IO, Any, TextIO

from pdn_tools.diagnostics import CATALOGUE, EventFinding, Issue, Severity
from pdn_tools.report import events_html
from pdn_tools.report.base import GameReport, Totals
from pdn_tools.report.detail import BoardView, GameDetail
from pdn_tools.report.habits import ByFile, Habits
from pdn_tools.report.svg import (
    Coordinates,
    board_frame,
    board_labels,
    layout_for,
    page_style,
)
from pdn_tools.rules import BoardSpec
from pdn_tools.version import __version__

PAGE_SIZE = 50
"""Findings per page of the list (and so boards in the page at once, at most)."""
CHUNK_BYTES = 1 << 16
"""About how many bytes of game data one block of the page holds (a block is parsed
when one of its games is shown)."""
PATH_CHARS = 72
"""Longest file name shown in the files table (longer ones lose their middle)."""

_SURROGATES = re.compile("[\ud800-\udfff]")
_LEVELS = ("error", "warning", "info")
_RANK = {"error": 0, "warning": 1, "info": 2}


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


def _copy(source: IO[str], write: Callable[[str], Any]) -> None:
    source.seek(0)
    while block := source.read(1 << 16):
        write(block)
    source.close()


def shorten(path: str, most: int = PATH_CHARS) -> str:
    """*path* with its middle replaced by ``…`` when longer than *most* characters,
    keeping its start and, longer, its end (the file's own name).

    >>> shorten("/archive/2019/national/round-robin/final/games.pdn", 30)
    '/archive/2…/final/games.pdn'
    """
    if len(path) <= most:
        return path
    tail = (most - 1) * 2 // 3
    head = most - 1 - tail
    return path[:head] + "…" + path[len(path) - tail :]


@dataclass(slots=True)
class _FileCounts:
    name: str
    games: int = 0
    first: int = -1
    """Index of the file's first game among the page's games (-1: none)."""
    levels: Counter[str] = field(default_factory=Counter)
    """Reported findings by severity."""
    habits: int = 0


class HtmlReporter:
    """Collects the games as page data; writes the page when the run ends.

    The summary is made of :attr:`sections`, functions of the run's totals that each
    return a piece of HTML; a report that needs another section appends its function.
    """

    def __init__(
        self,
        out: TextIO,
        *,
        show_info: bool = False,
        fail_on: Severity = Severity.ERROR,
        page_size: int = PAGE_SIZE,
        group: bool = True,
    ) -> None:
        self.out = out
        self.show_info = show_info
        self.fail_on = fail_on
        self.page_size = page_size
        self.findings = _spool()  # closed when copied to the output
        self.chunks = _spool()
        self.chunk: list[str] = []
        self.chunk_size = 0
        self.finding_count = 0
        self.game_count = 0
        self.files: list[_FileCounts] = []
        self.file_index: dict[int, int] = {}
        self.codes: Counter[str] = Counter()
        self.listed: Counter[str] = Counter()
        self.levels: dict[str, set[str]] = {}
        self.habit_codes: Counter[str] = Counter()
        self.unlisted = 0
        """Info-level findings counted but not listed (without ``--info``)."""
        self.layouts: set[tuple[BoardSpec, Coordinates]] = set()
        self.by_file = ByFile(self._file, group=group)
        self.sections: list[Callable[[Totals], str]] = [
            self._totals_section,
            self._codes_section,
            self._files_section,
            self._events_section,
        ]
        self.event_findings: list[EventFinding] = []
        self.event_tables: list[dict[str, Any]] = []
        self.event_codes: Counter[str] = Counter()
        """Codes of the findings about events (listed in the events section)."""

    # -- games --------------------------------------------------------------------------
    def add(self, game: GameReport) -> None:
        """Take the game (its data is made when its file is complete)."""
        self.by_file.add(game)

    def _listed(self, level: Severity) -> bool:
        return self.show_info or level is not Severity.INFO

    def _file(self, games: Iterator[GameReport], habits: Habits) -> None:
        """The page data of one file's games, its findings and its habits."""
        shown = [h for h in habits.found if self._listed(h.severity)]
        habit_ids = {id(h): self.finding_count + k for k, h in enumerate(shown)}
        next_id = self.finding_count + len(shown)
        places: dict[int, list[list[Any]]] = {id(h): [] for h in shown}
        firsts: dict[int, tuple[int, int | None]] = {}
        own = _spool()
        own_count = 0
        counts: _FileCounts | None = None
        for game in games:
            if counts is None:
                counts = self._counts(game)
            viewer = -1
            if game.game:
                viewer = self.game_count
                self.game_count += 1
                counts.games += 1
                if counts.first < 0:
                    counts.first = viewer
            detail = game.detail if game.detail is not None else GameDetail()
            marks: list[list[Any]] = []
            for n, issue in enumerate(game.issues):
                level = issue.level.value
                counts.levels[level] += 1
                self.codes[issue.code] += 1
                self.levels.setdefault(issue.code, set()).add(level)
                board = detail.issue_boards[n] if n < len(detail.issue_boards) else None
                habit = habits.of(issue)
                ref: int | None = None
                if habit is not None and id(habit) in habit_ids:
                    ref = habit_ids[id(habit)]
                    places[id(habit)].append(
                        [viewer, game.game, issue.line, issue.column, issue.ply]
                    )
                    if habit.is_first(game.game, issue):
                        firsts[id(habit)] = (viewer, board)
                    self.listed[issue.code] += 1
                elif habit is None and self._listed(issue.level):
                    ref = next_id
                    next_id += 1
                    entry = _finding(self.file_index[game.file_no], viewer, game.game, issue, board)
                    own.write(("," if own_count or self.finding_count or shown else "") + "\n")
                    own.write(_data(entry))
                    own_count += 1
                    self.listed[issue.code] += 1
                else:
                    self.unlisted += 1
                marks.append(
                    [issue.ply, level, issue.code, issue.message, issue.line, issue.column, ref]
                )
            if game.game:
                self._viewer(counts, game, detail, marks)
        if counts is None:
            own.close()
            return
        for k, habit in enumerate(shown):
            viewer, board = firsts.get(id(habit), (-1, None))
            file = self.file_index[habit.file_no]
            entry = _finding(file, viewer, habit.first_game, habit.first, board)
            entry[5] = habit.message
            entry.append([habit.count, habit.games, habit.file_games, places[id(habit)]])
            prefix = "," if self.finding_count or k else ""
            self.findings.write(prefix + "\n" + _data(entry))
        for habit in habits.found:
            self.habit_codes[habit.code] += 1
            counts.habits += 1
        _copy(own, self.findings.write)
        self.finding_count = next_id

    def _counts(self, game: GameReport) -> _FileCounts:
        index = self.file_index.get(game.file_no)
        if index is None:
            index = self.file_index[game.file_no] = len(self.files)
            self.files.append(_FileCounts(game.file))
        return self.files[index]

    def _viewer(
        self, counts: _FileCounts, game: GameReport, detail: GameDetail, marks: list[list[Any]]
    ) -> None:
        """The data of one game for the viewer (and for the boards of its findings)."""
        record = game.record
        key = None
        if detail.spec is not None:
            key = layout_for(detail.spec, detail.coordinates).key
            self.layouts.add((detail.spec, detail.coordinates))
        entry = {
            "f": self.file_index[game.file_no],
            "g": game.game,
            "l": game.line,
            "v": record.get("variant"),
            "r": record.get("result"),
            "h": [list(pair) for pair in detail.tags],
            "m": " ".join(move.replace(" ", "\u00a0") for move in detail.moves),
            "o": detail.number_offset,
            "k": key,
            "s": detail.start,
            "e": " ".join(detail.engine),
            "z": detail.stop,
            "x": [list(pair) for pair in detail.variations],
            "b": [self._board(view, detail.coordinates) for view in detail.boards],
            "n": marks,
            "d": [
                [
                    event["rule"],
                    event["ply"],
                    event["article"],
                    1 if event.get("in_variation") else 0,
                    detail.draw_boards[k] if k < len(detail.draw_boards) else None,
                ]
                for k, event in enumerate(record.get("draws") or [])
            ],
        }
        text = _data(entry)
        self.chunk.append(text)
        self.chunk_size += len(text)
        if self.chunk_size >= CHUNK_BYTES:
            self._end_chunk()

    def _end_chunk(self) -> None:
        if not self.chunk:
            return
        first = self.game_count - len(self.chunk)
        self.chunks.write(
            f'<script type="application/json" class="pdn-chunk" data-first="{first}">['
            + ",\n".join(self.chunk)
            + "]</script>\n"
        )
        self.chunk = []
        self.chunk_size = 0

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
        """Keep an event finding for the events section, and count its code in the
        Codes table, as the title counts it."""
        self.event_findings.append(finding)
        self.event_codes[finding.code] += 1
        self.levels.setdefault(finding.code, set()).add(finding.level.value)

    def add_event_table(self, table: dict[str, Any]) -> None:
        """Keep an event's crosstable (its JSON form) for the events section."""
        self.event_tables.append(table)

    # -- the page -----------------------------------------------------------------------
    def close(self, totals: Totals) -> None:
        """Write the page: head, summary, controls, the list, the data, the script and
        the games."""
        self.by_file.flush()
        self._end_chunk()
        script = _asset("report.js")
        style = _asset("report.css") + events_html.CSS
        policy = (
            "default-src 'none'; "
            f"script-src 'sha256-{_digest(script)}'; style-src 'sha256-{_digest(style)}'; "
            "base-uri 'none'; form-action 'none'"
        )
        title = (
            f"PDN report: {totals.files:,} file(s), {totals.games:,} game(s), "
            f"{totals.counts['error']:,} error(s)"
        )
        write = self.out.write
        write(
            "<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="pdn-tools {__version__}">\n'
            f"<title>{_text(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
            f'<header class="top"><h1>{_text(title)}</h1></header>\n'
            '<section class="summary">\n'
        )
        for section in self.sections:
            write(section(totals))
        write("</section>\n")
        write(self._controls())
        write(
            '<main id="findings"><noscript><p>The list of findings and the game viewer need '
            "JavaScript; the summary above is complete without it.</p></noscript></main>\n"
            '<section id="viewer" hidden></section>\n'
        )
        head = _data(
            {
                "style": page_style(),
                "pageSize": self.page_size,
                "files": [file.name for file in self.files],
                "fileGames": [[file.first, file.games] for file in self.files],
                "games": self.game_count,
                "titles": {code: CATALOGUE[code].title for code in sorted(self.codes)},
            }
        )
        write(f'<script type="application/json" id="pdn-data">{head[:-1]},"findings":[')
        _copy(self.findings, write)
        write("\n]}</script>\n")
        write(self._templates())
        write(
            "<footer>Written by pdn-tools "
            f"{__version__}. Keys: <kbd>j</kbd> / <kbd>k</kbd> next / previous finding, "
            "<kbd>n</kbd> / <kbd>p</kbd> next / previous page, <kbd>o</kbd> open the "
            "finding's game; in a game <kbd>←</kbd> / <kbd>→</kbd> ply by ply, "
            "<kbd>Home</kbd> / <kbd>End</kbd> start and end, <kbd>Esc</kbd> back.</footer>\n"
        )
        write(f"<script>{script}</script>\n")
        _copy(self.chunks, write)
        write("</body>\n</html>\n")

    def _totals_section(self, totals: Totals) -> str:
        counts = totals.to_dict()
        parts = [
            '<ul class="totals">',
            f'<li class="error"><b>{counts["errors"]:,}</b>error(s)</li>',
            f'<li class="error"><b>{counts["games_with_errors"]:,}</b>game(s) with errors</li>',
            f'<li class="warning"><b>{counts["warnings"]:,}</b>warning(s)</li>',
            f'<li class="info"><b>{counts["infos"]:,}</b>info</li>',
            f"<li><b>{counts['files']:,}</b>file(s)</li>",
            f"<li><b>{counts['games']:,}</b>game(s)</li>",
            f"<li><b>{counts['failed_games']:,}</b>game(s) failing "
            f"(--fail-on {self.fail_on.value})</li>",
        ]
        if "filtered" in counts:
            parts.append(f"<li><b>{counts['filtered']:,}</b>game(s) filtered out</li>")
        parts.append("</ul>\n")
        if self.unlisted:
            parts.append(
                '<p class="note">Info-level findings are counted here and listed with '
                "<code>--info</code>.</p>\n"
            )
        about_events = sum(self.event_codes.values())
        if about_events:
            errors = sum(1 for f in self.event_findings if f.level is Severity.ERROR)
            of_which = f", {errors:,} of them error(s)," if errors else ""
            parts.append(
                f'<p class="note">{about_events:,} finding(s) about events{of_which} are '
                'listed under <a href="#events">Events</a>, each with its games; the list '
                "of findings below holds those about single games.</p>\n"
            )
        if self.habit_codes:
            parts.append(
                '<p class="note">A <b>habit</b> is a finding a file makes in most of its '
                "games (its writer's house style): it is listed once for the file, with its "
                "count and the list of its occurrences.</p>\n"
            )
        return "".join(parts)

    def _codes_section(self, totals: Totals) -> str:
        parts = ['<h2>Codes</h2>\n<table class="counts" id="codes">']
        parts.append(
            '<thead><tr><th>Code</th><th>Title</th><th>Severity</th><th class="n">Count</th>'
            '<th class="n">Habits</th></tr></thead><tbody>'
        )

        def order(item: tuple[str, int]) -> tuple[int, int, str]:
            code, count = item
            worst = min(_RANK[level] for level in self.levels[code])
            return worst, -count, code

        counted = self.codes + self.event_codes
        for code, count in sorted(counted.items(), key=order):
            name = _text(code)
            if self.event_codes[code] and not self.codes[code]:
                # About events: listed in their section, each with its games.
                if self.show_info or min(self.levels[code], key=_RANK.__getitem__) != "info":
                    name = f'<a href="#events">{name}</a> <span class="unlisted">(events)</span>'
                else:
                    name += ' <span class="unlisted">(not listed)</span>'
            elif self.listed[code]:
                name = f'<a href="#code={name}">{name}</a>'
            else:
                name += ' <span class="unlisted">(not listed)</span>'
            levels = sorted(self.levels[code], key=_RANK.__getitem__)
            habits = self.habit_codes[code]
            parts.append(
                f'<tr class="sev-{levels[0]}"><td>{name}</td>'
                f"<td>{_text(CATALOGUE[code].title)}</td>"
                f'<td>{", ".join(levels)}</td><td class="n">{count:,}</td>'
                f'<td class="n">{f"{habits:,}" if habits else ""}</td></tr>'
            )
        parts.append("</tbody></table>\n")
        return "".join(parts)

    def _events_section(self, totals: Totals) -> str:
        """The section per event (:mod:`pdn_tools.report.events_html`): its findings, its
        crosstable and standings, each game linked; empty when no event was checked."""
        return events_html.events_section(self.event_findings, self.event_tables, self.show_info)

    def _files_section(self, totals: Totals) -> str:
        with_findings = sum(1 for file in self.files if file.levels)
        folded = len(self.files) > 20
        parts = [
            f'<details class="files"{"" if folded else " open"}><summary><h2>Files</h2> '
            f"{len(self.files):,} file(s), {with_findings:,} with findings</summary>\n"
            '<table class="counts" id="files"><thead><tr><th class="name">File</th>'
            '<th class="n">Games</th><th class="n">Errors</th><th class="n">Warnings</th>'
            '<th class="n">Info</th><th class="n">Habits</th></tr></thead><tbody>'
        ]
        for index, file in enumerate(self.files):
            name = f'<a href="#file={index}" title="{_text(file.name)}">'
            name += f"{_text(shorten(file.name))}</a>"
            games = f"{file.games:,}"
            if file.games:
                games = f'<a href="#games={index}">{games}</a>'
            parts.append(
                f'<tr><td class="name">{name}</td><td class="n">{games}</td>'
                + "".join(_count_cell(file.levels[level]) for level in _LEVELS)
                + f'<td class="n">{file.habits or ""}</td></tr>'
            )
        parts.append("</tbody></table></details>\n")
        return "".join(parts)

    def _controls(self) -> str:
        codes = "".join(
            f'<option value="{_text(code)}">{_text(code)} {_text(CATALOGUE[code].title)} '
            f"({self.listed[code]:,})</option>"
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
            "<kbd>n</kbd>/<kbd>p</kbd> pages, <kbd>o</kbd> open game</span>"
            "</div></nav>\n"
        )

    def _templates(self) -> str:
        """One empty board per kind used, for the script to copy: the squares, then
        the labels (numbers, coordinates, the edge) that the script keeps on top."""
        parts = ['<template id="pdn-boards">']
        for spec, coordinates in sorted(self.layouts, key=lambda item: layout_for(*item).key):
            layout = layout_for(spec, coordinates)
            width, height = layout.pixels()
            parts.append(
                f'<svg xmlns="http://www.w3.org/2000/svg" class="pdn-board" role="img" '
                f'viewBox="0 0 {layout.width} {layout.height}" width="{width}" '
                f'height="{height}" data-key="{layout.key}">'
                + "".join(board_frame(layout))
                + '<g class="labels">'
                + "".join(board_labels(layout))
                + "</g></svg>"
            )
        parts.append("</template>\n")
        return "".join(parts)


def _count_cell(count: int) -> str:
    return f'<td class="n">{count:,}</td>' if count else "<td></td>"


def _finding(file: int, viewer: int, game: int, issue: Issue, board: int | None) -> list[Any]:
    """A finding as page data: file, game (its index in the page, -1 for a file
    without games), its number in its file, code, severity, message, line, column,
    ply, in a variation (0/1), board (index into the game's boards), source excerpt;
    a habit adds [count, games, games of the file, occurrences]."""
    return [
        file,
        viewer,
        game,
        issue.code,
        issue.level.value,
        issue.message,
        issue.line,
        issue.column,
        issue.ply,
        1 if issue.in_variation else 0,
        board,
        issue.context,
    ]
