"""``pdn events`` as text: the list of events, and crosstables.

Both are rendered from the JSON forms that ``--format json`` writes (an event's
summary, and its crosstable: :mod:`pdn_tools.collection.events.standings`), so the
text and the JSON always say the same.
"""

from __future__ import annotations

import unicodedata
from typing import Any

_GUESS = {"round robin": "round robin", "swiss": "Swiss", "match": "match", "unknown": "?"}


def width(text: str) -> int:
    """Columns *text* takes in a terminal (wide East Asian characters count two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, size: int, right: bool = False) -> str:
    """*text* padded with spaces to *size* columns (on the left when *right*)."""
    fill = " " * max(0, size - width(text))
    return fill + text if right else text + fill


def rounds_text(rounds: list[int]) -> str:
    """``1-9``, ``1-4, 7``, or ``-`` when none."""
    if not rounds:
        return "-"
    parts: list[str] = []
    start = previous = rounds[0]
    for number in [*rounds[1:], 0]:
        if number == previous + 1:
            previous = number
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    return ", ".join(parts)


def event_label(data: dict[str, Any]) -> str:
    """``NK 2003 (Amsterdam, 2003)``."""
    extra = [str(p) for p in (data.get("site"), data.get("year")) if p]
    return f"{data['event']} ({', '.join(extra)})" if extra else str(data["event"])


def summary_line(data: dict[str, Any]) -> str:
    """One event of the list: name, games, rounds, players, format, completeness,
    findings."""
    if data["games"] is None:  # too large to be put together (W58)
        return (
            f"{event_label(data)}: {data['records']} record(s), not checked as a whole "
            f"(more than the event-max-games rule allows)"
        )
    parts = [
        f"{data['games']} game(s)"
        + (f" ({data['records']} records)" if data["records"] != data["games"] else ""),
        f"rounds {rounds_text(data['rounds'])}",
        f"{data['players']} player(s)",
        f"{_GUESS.get(data['format']['guess'], data['format']['guess'])} (guess)",
    ]
    if data["completeness"] is not None:
        parts.append(f"{round(100 * data['completeness'])}% complete")
    parts.append(f"{data['findings']} finding(s)")
    return f"{event_label(data)}: " + ", ".join(parts)


def crosstable_lines(table: dict[str, Any]) -> list[str]:
    """The crosstable of one event as text lines: a heading, how it was read, then a
    line per player (rank, name, points, games, wins, draws, losses, tie-break and a
    column per opponent or round)."""
    standings = table["standings"]
    lines = [
        event_label(table),
        f"  {table['format']['guess']} (guess: {table['format']['reason']}); "
        f"scoring {table['scoring']}; tie-break {table['tiebreak']}",
    ]
    if not standings:
        return [*lines, "  no game with both players known"]
    by_opponent = table["layout"] == "opponents"
    columns = [str(s["number"]) for s in standings] if by_opponent else list(table["columns"] or [])
    cells: list[list[str]] = []
    for line in standings:
        row: list[str] = []
        for column in columns:
            if by_opponent:
                found = [c for c in line["cells"] if str(c["opponent"]) == column]
                row.append(" ".join(c["result"] for c in found) if found else
                           ("x" if str(line["number"]) == column else "."))  # fmt: skip
            else:
                found = [c for c in line["cells"] if c["round"] == column]
                row.append(
                    " ".join(f"{c['opponent']}{c['colour'][0]}{c['result']}" for c in found)
                    if found
                    else "."
                )
        unknown = [
            f"{c['opponent']}{c['colour'][0]}{c['result']}"
            for c in line["cells"]
            if not by_opponent and c["round"] is None
        ]
        if unknown:
            row.append(" ".join(unknown))
        cells.append(row)
    if any(len(row) > len(columns) for row in cells):
        columns = [*columns, "?"]
        for row in cells:
            row.extend([""] * (len(columns) - len(row)))
    head = ["Rk", "#", "Player", "Pts", "G", "+", "=", "-", "TB"]
    body = [
        [
            str(s["rank"]),
            str(s["number"]),
            str(s["name"]),
            points_text(s["points"]),
            str(s["games"]),
            str(s["wins"]),
            str(s["draws"]),
            str(s["losses"]),
            points_text(s["tiebreak"]),
            *row,
        ]
        for s, row in zip(standings, cells, strict=True)
    ]
    header = head + columns
    sizes = [max(width(r[k]) for r in [header, *body]) for k in range(len(header))]
    for row in [header, *body]:
        text = "  ".join(
            pad(value, sizes[k], right=k != 2 and k < len(head)) for k, value in enumerate(row)
        )
        lines.append("  " + text.rstrip())
    if any(s["unfinished"] for s in standings):
        lines.append("  * no result recorded")
    return lines


_FRACTIONS = ("", "\u00bc", "\u00bd", "\u00be")
"""Quarters of a point as people write them: ¼, ½, ¾."""


def points_text(value: float | int) -> str:
    """Points, or a tie-break, as a crosstable shows them: whole points and the
    fraction of the last one in one form (``105½``, ``124¼``, ``½``) in every column,
    text and HTML alike.  Scores are whole or half points, tie-breaks quarter points
    at most (Sonneborn-Berger in 1/½/0); anything else is written as a decimal."""
    quarters = round(value * 4)
    if abs(value * 4 - quarters) > 1e-9 or quarters < 0:
        return f"{value:g}"
    whole, rest = divmod(quarters, 4)
    if not rest:
        return str(whole)
    return f"{whole}{_FRACTIONS[rest]}" if whole else _FRACTIONS[rest]


__all__ = [
    "crosstable_lines",
    "event_label",
    "pad",
    "points_text",
    "rounds_text",
    "summary_line",
    "width",
]
