"""The per-game summary record shared by the machine-readable formats.

One record per game, in input order (the ``--format jsonl`` line).  A file that
holds no game at all gets one record with ``game`` 0, so that its findings
(an empty file, undecodable input) are never lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.summary import game_head

if TYPE_CHECKING:
    from pdn_tools.report.detail import GameDetail


def game_record(game: Game, replay: ReplayResult | None = None) -> dict[str, Any]:
    """The JSON-ready summary of *game*, with what its replay established if given.

    The keys every JSON output shares (:func:`pdn_tools.replay.summary.game_head`:
    ``plies`` counts the main-line half-moves replayed when the game was replayed,
    else those read) and the report's own: the first ``line``, ``draws``,
    ``replayed`` (which of the two ``plies`` counts), ``final_fen`` and ``producer``
    (the program recognised as the record's writer, docs/dialects.md).
    """
    record = game_head(game, replay)
    record["line"] = game.span.start_line
    record["draws"] = [dict(d) for d in replay.draws] if replay is not None else []
    record["replayed"] = replay is not None and replay.replayed
    record["final_fen"] = replay.final_fen if replay is not None else None
    record["producer"] = game.producer
    return record


def file_record(name: str, issues: list[Issue]) -> dict[str, Any]:
    """The record of a file without games, carrying its file-level findings."""
    worst = max((i.level.rank for i in issues), default=-1)
    status = "error" if worst >= 2 else "warning" if worst == 1 else "ok"
    return {
        "file": name,
        "game": 0,
        "variant": None,
        "gametype": None,
        "status": status,
        "result": None,
        "outcome": None,
        "plies": 0,
        "game_id": None,
        "issues": [issue.to_dict() for issue in issues],
        "line": 1,
        "draws": [],
        "replayed": False,
        "final_fen": None,
        "producer": None,
    }


class Checked:
    """One checked game (or the record of a file without games, ``game`` 0).

    ``file_no`` is the 0-based position of the file among the inputs, so that reports
    can group games by file even when one name is given twice.  ``record`` is the
    game's JSON record with an empty ``issues`` list; the findings are in ``issues``
    (reports filter them before writing the record).  ``detail`` holds the tags,
    moves and boards the HTML report shows, when the run asked for them.  ``key`` is
    the game's duplicate key when the run compares games
    (:class:`pdn_tools.collection.duplicates.Comparison`).  A game the run's filter
    left out is returned as a bare placeholder with ``filtered`` set (see
    :func:`filtered_out`), so that it can be counted, and is never reported.
    ``facts`` are what the game tells about its event, packed
    (:func:`pdn_tools.collection.events.facts.game_facts`), when the run checks events.
    """

    file_no: int
    record: dict[str, Any]
    issues: list[Issue]
    detail: GameDetail | None
    key: bytes | None
    filtered: bool
    facts: bytes | None

    __slots__ = ("detail", "facts", "file_no", "filtered", "issues", "key", "record")

    def __init__(
        self,
        file_no: int,
        record: dict[str, Any],
        issues: list[Issue],
        detail: GameDetail | None = None,
        key: bytes | None = None,
        filtered: bool = False,
        facts: bytes | None = None,
    ) -> None:
        self.file_no = file_no
        self.record = record
        self.issues = issues
        self.detail = detail
        self.key = key
        self.filtered = filtered
        self.facts = facts

    def without_facts(self) -> Checked:
        """The same game with its event facts let go (once the event index has them)."""
        return Checked(
            self.file_no, self.record, self.issues, self.detail, self.key, self.filtered, None
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Checked) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.file_no,
            self.record,
            self.issues,
            self.detail,
            self.key,
            self.filtered,
            self.facts,
        ) == (
            other.file_no,
            other.record,
            other.issues,
            other.detail,
            other.key,
            other.filtered,
            other.facts,
        )

    def __repr__(self) -> str:
        return (
            f"Checked(file_no={self.file_no!r}, "
            f"record={self.record!r}, "
            f"issues={self.issues!r}, "
            f"detail={self.detail!r}, "
            f"key={self.key!r}, "
            f"filtered={self.filtered!r}, "
            f"facts={self.facts!r})"
        )

    def __reduce__(self) -> tuple[type[Checked], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Checked,
            (
                self.file_no,
                self.record,
                self.issues,
                self.detail,
                self.key,
                self.filtered,
                self.facts,
            ),
        )

    @property
    def file(self) -> str:
        """The file name as reported."""
        return str(self.record["file"])

    @property
    def game(self) -> int:
        """1-based index of the game within its file, 0 for a file record."""
        return int(self.record["game"])


def file_checked(file_no: int, name: str, issues: list[Issue]) -> Checked:
    """The record of a file that holds no game, with its file-level findings."""
    record = file_record(name, issues)
    record["issues"] = []
    return Checked(file_no, record, list(issues))


def filtered_out(file_no: int, game: Game) -> Checked:
    """The placeholder of a game the run's filter left out: where it was, nothing more."""
    record = {"file": game.file, "game": game.index, "line": game.span.start_line}
    return Checked(file_no, record, [], filtered=True)
