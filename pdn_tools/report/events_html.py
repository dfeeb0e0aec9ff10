"""The events section of the HTML report: a table of events, then one block per event
with its findings, its crosstable and its games.

Rendered from the JSON forms of :mod:`pdn_tools.collection.events.standings` (the
crosstables ``pdn events --format json`` writes) and the
:class:`~pdn_tools.diagnostics.EventFinding` values, as static HTML: it needs no
script, and each crosstable cell links to its game's line in the block's list of
games (round, players, result, file, line and game number).  Its style is
:data:`CSS`, which the page includes in its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from pdn_tools.diagnostics import EventFinding, Severity
from pdn_tools.report.events import event_label, points_text, rounds_text
from pdn_tools.report.text import event_where

CSS = """
section.events{margin:1.5rem 0}
section.events h2{font-size:1.2rem}
section.events details{margin:.6rem 0;border:1px solid #ccc;border-radius:4px;padding:.3rem .6rem}
section.events summary{cursor:pointer;font-weight:600}
table.crosstable,table.event-games,table.event-list{border-collapse:collapse;margin:.5rem 0}
table.crosstable td,table.crosstable th,table.event-games td,table.event-games th,
table.event-list td,table.event-list th{border:1px solid #ddd;padding:.15rem .4rem;
text-align:center}
table.crosstable td.name,table.event-games td.name,table.event-list td.name{text-align:left}
table.crosstable td.self{background:#eee}
table.event-games tr:target{background:#ffeeb0}
ul.event-findings li.error{color:#a00}
ul.event-findings li.warning{color:#850}
"""

_GUESS = {"round robin": "round robin", "swiss": "Swiss", "match": "match", "unknown": "unknown"}


def _t(value: object) -> str:
    return escape(str(value))


def _key(event: str | None, site: str | None, year: int | None) -> tuple[str, str, int]:
    return (event or "", site or "", year or 0)


def events_section(
    findings: Iterable[EventFinding], tables: Iterable[dict[str, Any]], show_info: bool = False
) -> str:
    """The section (empty when there is neither a finding nor a table)."""
    by_event: dict[tuple[str, str, int], list[EventFinding]] = {}
    for finding in findings:
        if finding.level is Severity.INFO and not show_info:
            continue
        by_event.setdefault(_key(finding.event, finding.site, finding.year), []).append(finding)
    listed = list(tables)
    if not by_event and not listed:
        return ""
    parts = ['<section class="events" id="events">\n<h2>Events</h2>\n']
    parts.append(
        '<table class="event-list"><tr><th>Event</th><th>Games</th><th>Rounds</th>'
        "<th>Players</th><th>Format (guess)</th><th>Complete</th><th>Findings</th></tr>"
    )
    anchors: dict[tuple[str, str, int], str] = {}
    for number, table in enumerate(listed, 1):
        key = _key(table["event"], table["site"], table["year"])
        anchors[key] = f"event-{number}"
        share = table["completeness"]
        parts.append(
            f'<tr><td class="name"><a href="#event-{number}">{_t(event_label(table))}</a></td>'
            f"<td>{table['games']}</td><td>{_t(rounds_text(table['rounds']))}</td>"
            f"<td>{table['players']}</td><td>{_t(_GUESS[table['format']['guess']])}</td>"
            f"<td>{'-' if share is None else f'{round(100 * share)}%'}</td>"
            f"<td>{len(by_event.get(key, []))}</td></tr>"
        )
    parts.append("</table>\n")
    for number, table in enumerate(listed, 1):
        key = _key(table["event"], table["site"], table["year"])
        parts.append(_block(f"event-{number}", table, by_event.pop(key, [])))
    for findings_of in by_event.values():  # events with findings but no table
        parts.append(_findings_block(findings_of))
    parts.append("</section>\n")
    return "".join(parts)


def _findings_list(findings: list[EventFinding], games: dict[tuple[str, int], str]) -> str:
    if not findings:
        return ""
    items = []
    for finding in findings:
        links = ", ".join(
            f'<a href="#{games[(g.file, g.game)]}">{_t(g.game)}</a>'
            if (g.file, g.game) in games
            else _t(f"{g.file}:{g.game}")
            for g in finding.games
        )
        where = f"round {_t(finding.round)}; " if finding.round is not None else ""
        items.append(
            f'<li class="{finding.level.value}"><b>{_t(finding.code)}</b> {_t(finding.message)} '
            f"<small>[{where}game(s) {links}]</small></li>"
        )
    return '<ul class="event-findings">' + "".join(items) + "</ul>\n"


def _findings_block(findings: list[EventFinding]) -> str:
    first = findings[0]
    title = first.place().split(", round ")[0]
    items = "".join(
        f'<li class="{f.level.value}"><b>{_t(f.code)}</b> {_t(f.message)} '
        f"<small>[{_t(event_where(f))}]</small></li>"
        for f in findings
    )
    return (
        f"<details open><summary>{_t(title)} ({len(findings)} finding(s))</summary>"
        f'<ul class="event-findings">{items}</ul></details>\n'
    )


def _block(anchor: str, table: dict[str, Any], findings: list[EventFinding]) -> str:
    standings = table["standings"]
    names = {s["number"]: s["name"] for s in standings}
    games: dict[tuple[str, int], str] = {}
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for line in standings:
        for cell in line["cells"]:
            place = (cell["file"], cell["game"])
            if place not in games:
                games[place] = f"{anchor}-game-{len(games) + 1}"
                rows[place] = {"round": cell["round"], "cell": cell, "line": cell["line"]}
            row = rows[place]
            row[cell["colour"]] = line["number"]
            if cell["colour"] == "white":
                row["result"] = cell["result"]
            else:
                row["black_result"] = cell["result"]
    guess = table["format"]
    parts = [
        f'<details id="{anchor}"{" open" if findings else ""}><summary>'
        f"{_t(event_label(table))}: {table['games']} game(s), {table['players']} player(s), "
        f"{_t(_GUESS[guess['guess']])} (guess)</summary>\n",
        f"<p>{_t(guess['guess'])} (guess: {_t(guess['reason'])}); scoring "
        f"{_t(table['scoring'])}; tie-break {_t(table['tiebreak'])}.</p>\n",
        _findings_list(findings, games),
        _crosstable(table, games),
        '<table class="event-games"><tr><th>Round</th><th>White</th><th>Black</th>'
        "<th title=\"White's points - Black's points\">Score</th><th>Record</th></tr>",
    ]
    for place, target in games.items():
        row = rows[place]
        white = names.get(row.get("white", -1), "?")
        black = names.get(row.get("black", -1), "?")
        # The points of the columns' players, not the Result tag: an English 1-0 (a
        # win of Black, the first mover) is 0-1 here, as its crosstable cells are.
        result = f"{row.get('result', '*')}-{row.get('black_result', '*')}"
        parts.append(
            f'<tr id="{target}"><td>{_t(row["round"] or "?")}</td><td class="name">{_t(white)}</td>'
            f'<td class="name">{_t(black)}</td><td>{_t(result)}</td>'
            f'<td class="name">{_t(place[0])}:{row["line"]} (game {place[1]})</td></tr>'
        )
    parts.append("</table>\n</details>\n")
    return "".join(parts)


def _crosstable(table: dict[str, Any], games: dict[tuple[str, int], str]) -> str:
    standings = table["standings"]
    by_opponent = table["layout"] == "opponents"
    columns = [s["number"] for s in standings] if by_opponent else list(table["columns"] or [])
    head = "".join(f"<th>{_t(c)}</th>" for c in columns)
    parts = [
        '<table class="crosstable"><tr><th>Rk</th><th>#</th><th>Player</th><th>Pts</th>'
        f"<th>G</th><th>+</th><th>=</th><th>-</th><th>TB</th>{head}</tr>"
    ]
    for line in standings:
        cells = []
        for column in columns:
            if by_opponent:
                found = [c for c in line["cells"] if c["opponent"] == column]
            else:
                found = [c for c in line["cells"] if c["round"] == column]
            if by_opponent and column == line["number"]:
                cells.append('<td class="self"></td>')
                continue
            links = " ".join(
                f'<a href="#{games[(c["file"], c["game"])]}" title="{_t(_title(c))}">'
                f"{_t(_cell_text(c, by_opponent))}</a>"
                for c in found
            )
            cells.append(f"<td>{links}</td>")
        parts.append(
            f"<tr><td>{_t(line['rank'])}</td><td>{line['number']}</td>"
            f'<td class="name">{_t(line["name"])}</td><td>{_t(points_text(line["points"]))}</td>'
            f"<td>{line['games']}</td><td>{line['wins']}</td><td>{line['draws']}</td>"
            f"<td>{line['losses']}</td><td>{_t(points_text(line['tiebreak']))}</td>{''.join(cells)}</tr>"
        )
    parts.append("</table>\n")
    return "".join(parts)


def _cell_text(cell: dict[str, Any], by_opponent: bool) -> str:
    if by_opponent:
        return str(cell["result"])
    return f"{cell['opponent']}{cell['colour'][0]}{cell['result']}"


def _title(cell: dict[str, Any]) -> str:
    where = f"round {cell['round']}, " if cell["round"] else ""
    return f"{where}{cell['colour']}, {cell['file']} game {cell['game']}"


__all__ = ["CSS", "events_section"]
