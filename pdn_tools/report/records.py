"""The per-game summary record shared by the machine-readable formats.

One record per game, in input order (the ``--format jsonl`` line).  A file that
holds no game at all gets one record with ``game`` 0, so that its findings
(an empty file, undecodable input) are never lost.
"""

from __future__ import annotations

from typing import Any

from pdn_tools.diagnostics import Issue
from pdn_tools.model import Game


def game_record(game: Game) -> dict[str, Any]:
    """The JSON-ready summary of *game*."""
    return {
        "file": game.file,
        "game": game.index,
        "line": game.span.start_line,
        "variant": game.variant,
        "status": game.status,
        "plies": game.plies,
        "result": game.result,
        "issues": [issue.to_dict() for issue in game.issues],
        "draws": [],
    }


def file_record(name: str, issues: list[Issue]) -> dict[str, Any]:
    """The record of a file without games, carrying its file-level findings."""
    worst = max((i.level.rank for i in issues), default=-1)
    status = "error" if worst >= 2 else "warning" if worst == 1 else "ok"
    return {
        "file": name,
        "game": 0,
        "line": 1,
        "variant": None,
        "status": status,
        "plies": 0,
        "result": None,
        "issues": [issue.to_dict() for issue in issues],
        "draws": [],
    }
