"""Collection statistics: games, plies, results, variants, producers, finding codes
and copies.

Counted per file and over the whole run from the same per-game records that
``pdn validate`` reports, so the two commands always agree.  A game counts as a
duplicate when its key (:class:`pdn_tools.collection.duplicates.Comparison`) was met
earlier in the run, in its file or an earlier one; the run keeps the keys only.
A run that does not replay the games (``--syntax-only``) makes no keys: its
duplicates are not counted, said so in the text and null in the JSON, never 0.
Written as text blocks (one per file, then the total) or as one JSON document.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from pdn_tools.atomic import shown
from pdn_tools.report.base import GameReport


def _count_text(counts: Counter[str]) -> str:
    """``2-0 12, 1-1 8`` — most frequent first, then by name; ``-`` when empty."""
    if not counts:
        return "-"
    return ", ".join(
        f"{key} {n}" for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    )


@dataclass(slots=True)
class Stats:
    """The counts of one file, or of a whole run."""

    name: str
    is_total: bool = False
    files: int = 0
    games: int = 0
    plies: int = 0
    with_errors: int = 0
    """Games with an error (a file that gives no game is no game: see below)."""
    without_games: int = 0
    """Files that gave no game: their record is the file's own (empty, a link not
    followed, not read, binary, no PDN in it)."""
    file_errors: int = 0
    """Of :attr:`without_games`, the files with an error of their own (E11, E12, E14,
    E15: the file could not be read, or holds no PDN)."""
    duplicates: int = 0
    """Games that are copies of a game met earlier in the run."""
    not_compared: int = 0
    """Games without an identity (E11: the record was refused; E13: the replay
    failed): never compared, so neither copies nor distinct games."""
    results: Counter[str] = field(default_factory=Counter)
    variants: Counter[str] = field(default_factory=Counter)
    producers: Counter[str] = field(default_factory=Counter)
    """Games by the program recognised as their writer (docs/dialects.md)."""
    codes: Counter[str] = field(default_factory=Counter)
    severities: Counter[str] = field(default_factory=Counter)
    compared: bool = True
    """Whether copies were looked for (not with ``--syntax-only``): else
    :attr:`duplicates` means nothing and is not shown as a count."""

    def add(self, game: GameReport, duplicate: bool = False, compared: bool = True) -> None:
        """Count one game (a file record adds its findings only); *duplicate*: it is a
        copy of an earlier game; *compared*: false for a game without an identity."""
        for issue in game.issues:
            self.codes[issue.code] += 1
            self.severities[issue.level.value] += 1
        if not game.game:
            # The record of a file without games: no game, with or without errors.
            self.without_games = 1
            self.file_errors = max(self.file_errors, int(game.status == "error"))
            return
        if game.status == "error":
            self.with_errors += 1
        record = game.record
        self.games += 1
        self.duplicates += duplicate
        self.not_compared += not compared
        self.plies += int(record["plies"])
        self.results[str(record["result"]) if record["result"] is not None else "none"] += 1
        self.variants[str(record["variant"])] += 1
        producer = record.get("producer")
        if producer is not None:
            self.producers[str(producer)] += 1

    def merge(self, other: Stats) -> None:
        """Add the counts of *other* (one file) to these (the total)."""
        self.files += 1
        self.games += other.games
        self.plies += other.plies
        self.with_errors += other.with_errors
        self.without_games += other.without_games
        self.file_errors += other.file_errors
        self.duplicates += other.duplicates
        self.not_compared += other.not_compared
        self.results.update(other.results)
        self.variants.update(other.variants)
        self.producers.update(other.producers)
        self.codes.update(other.codes)
        self.severities.update(other.severities)

    filtered: int | None = None
    """Games the filter options left out (the total, when a filter was given)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON data; counters sorted by key, so output is stable."""
        data: dict[str, Any] = {"files": self.files} if self.is_total else {"file": self.name}
        data.update(
            {
                "games": self.games,
                "plies": self.plies,
                "games_with_errors": self.with_errors,
                "files_without_games": self.without_games,
                "file_errors": self.file_errors,
                "duplicates": self.duplicates if self.compared else None,
                "not_compared": self.not_compared if self.compared else None,
                "results": dict(sorted(self.results.items())),
                "variants": dict(sorted(self.variants.items())),
                "producers": dict(sorted(self.producers.items())),
                "codes": dict(sorted(self.codes.items())),
                "severities": {k: self.severities[k] for k in ("error", "warning", "info")},
            }
        )
        if self.is_total:
            data["distinct_games"] = self.distinct if self.compared else None
            if self.filtered is not None:
                data["filtered"] = self.filtered
        return data

    def text(self) -> list[str]:
        """The text block: a heading line and one line per distribution."""
        heading = f"total: {self.files} file(s)" if self.is_total else self.name
        per_game = f"{self.plies / self.games:.1f}" if self.games else "0"
        copies = f"  duplicates {self.duplicates} (copies of an earlier game"
        if self.is_total:
            copies += f"; {self.distinct} distinct"
        if self.not_compared:
            copies += f"; {self.not_compared} not compared, having no identity (E11, E13)"
        copies += ")"
        if not self.compared:
            copies = "  duplicates not counted (--syntax-only: games not replayed)"
        lines = [
            heading,
            f"  games     {self.games} ({self.with_errors} with errors), "
            f"plies {self.plies} ({per_game} per game)",
            *self._files_line(),
            copies,
            f"  results   {_count_text(self.results)}",
            f"  variants  {_count_text(self.variants)}",
            f"  producers {_count_text(self.producers)}",
            f"  codes     {_count_text(self.codes)}",
        ]
        if self.is_total and self.filtered is not None:
            lines.append(f"  filtered  {self.filtered} game(s) left out by the filter options")
        return [shown(line) for line in lines]

    @property
    def distinct(self) -> int:
        """The distinct games among those compared."""
        return self.games - self.duplicates - self.not_compared

    def _files_line(self) -> list[str]:
        """The line on files that gave no game, when there are any: they are told
        apart from games, so that a file that cannot be read is no game with errors."""
        if not self.without_games:
            return []
        if not self.is_total:
            why = "it cannot be read, or holds no PDN" if self.file_errors else "see codes"
            return [f"  no games  the file gave no game ({why})"]
        return [
            f"  no games  {self.without_games} file(s) gave no game "
            f"({self.file_errors} cannot be read or hold no PDN)"
        ]


class StatsReport:
    """Counts games file by file; writes each file's block when the file ends."""

    def __init__(
        self, out: TextIO, fmt: str = "text", total_only: bool = False, compared: bool = True
    ) -> None:
        """*compared*: the games are compared for copies (they are replayed and given
        keys; not with ``--syntax-only``)."""
        self.out = out
        self.fmt = fmt
        self.total_only = total_only
        self.compared = compared
        self.total = Stats("total", is_total=True, compared=compared)
        self.current: Stats | None = None
        self.file_no: int | None = None
        self.first = True
        self.seen: set[bytes] = set()
        """The keys of the games counted so far."""
        if fmt == "json":
            self.out.write('{"files": [')

    def add(self, game: GameReport, key: bytes | None = None) -> None:
        """Count *game* in its file's statistics; *key* is its duplicate key (None:
        not compared)."""
        if game.file_no != self.file_no or self.current is None:
            self._flush()
            self.file_no, self.current = game.file_no, Stats(game.file, compared=self.compared)
        duplicate = False
        if key is not None and game.game:
            duplicate = key in self.seen
            self.seen.add(key)
        self.current.add(game, duplicate, compared=key is not None or not self.compared)

    def _flush(self) -> None:
        if self.current is None:
            return
        self.total.merge(self.current)
        if self.fmt == "json":
            text = json.dumps(self.current.to_dict(), ensure_ascii=False)
            self.out.write(("\n  " if self.first else ",\n  ") + text)
        elif not self.total_only:
            self.out.write("\n".join(self.current.text()) + "\n\n")
        self.first = False
        self.current = None

    def close(self, files: int | None = None, filtered: int | None = None) -> None:
        """Write the last file and the total; *files*: the files read (default: those
        with a block), *filtered*: the games the filter options left out."""
        self._flush()
        if files is not None:
            self.total.files = files
        self.total.filtered = filtered
        if self.fmt == "json":
            total = json.dumps(self.total.to_dict(), ensure_ascii=False)
            self.out.write(f'\n ],\n "total": {total}}}\n')
        else:
            self.out.write("\n".join(self.total.text()) + "\n")
