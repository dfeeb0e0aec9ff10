"""Parquet: a games table (one row per game) and an optional moves table (one row per ply).

Both are written with :class:`pyarrow.parquet.ParquetWriter` (zstd) in row groups
of :data:`ROW_GROUP_GAMES` games while the games stream through, so memory stays
flat however many games are converted.  The column lists are in ``docs/export.md``;
:data:`SCHEMA_VERSION` sits in each file's schema metadata under
:data:`METADATA_KEY`.  The ``record`` column holds the game's full JSON object
(:mod:`pdn_tools.export.jsonfmt`), so a games file converts back to PDN without loss.
"""

from __future__ import annotations

from typing import IO, Any

import pyarrow as pa
import pyarrow.parquet as pq

import pdn_tools.export.jsonfmt as jsonfmt
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.tags import standard_name
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.resolve import Resolution
from pdn_tools.rules import write_fen

SCHEMA_VERSION = 1
METADATA_KEY = "pdn_tools.schema_version"
ROW_GROUP_GAMES = 1000
"""Games per row group (and per flush of the moves table)."""

#: Standard tags that have a column of their own (the others go to ``tags``).
NAMED_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN")

ISSUE_TYPE = pa.struct(
    [
        ("code", pa.string()),
        ("severity", pa.string()),
        ("message", pa.string()),
        ("line", pa.int32()),
        ("column", pa.int32()),
        ("ply", pa.int32()),
        ("move", pa.string()),
        ("in_variation", pa.bool_()),
    ]
)


def _metadata(table: str) -> dict[bytes, bytes]:
    return {METADATA_KEY.encode(): str(SCHEMA_VERSION).encode(), b"pdn_tools.table": table.encode()}


GAMES_SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        ("file", pa.string()),
        ("game", pa.int32()),
        ("event", pa.string()),
        ("site", pa.string()),
        ("date", pa.string()),
        ("round", pa.string()),
        ("white", pa.string()),
        ("black", pa.string()),
        ("result", pa.string()),
        ("variant", pa.string()),
        ("gametype", pa.string()),
        ("start_fen", pa.string()),
        ("final_fen", pa.string()),
        ("plies", pa.int32()),
        ("moves", pa.list_(pa.string())),
        ("status", pa.string()),
        ("replayed", pa.bool_()),
        ("issues", pa.list_(ISSUE_TYPE)),
        ("tags", pa.map_(pa.string(), pa.string())),
        ("record", pa.string()),
    ],
    metadata=_metadata("games"),
)

MOVES_SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        ("file", pa.string()),
        ("game", pa.int32()),
        ("ply", pa.int32()),
        ("move", pa.string()),
        ("from", pa.int32()),
        ("to", pa.int32()),
        ("path", pa.list_(pa.int32())),
        ("captures", pa.list_(pa.int32())),
        ("fen_after", pa.string()),
    ],
    metadata=_metadata("moves"),
)


def _columns(schema: pa.Schema) -> dict[str, list[Any]]:
    return {name: [] for name in schema.names}


def mainline_rows(game: Game, resolution: Resolution, *, fen: bool = True) -> list[dict[str, Any]]:
    """One row per main-line ply: the move (canonical when resolved, else as read;
    ``--`` for an unknown move) and, when resolved, its squares and the FEN after it.

    Plies are counted as :attr:`Game.plies` counts them (set-ups fill no slot); the
    later jumps of a capture written jump by jump (W24) fill a slot but make no row,
    their move being the merged one.  ``fen=False`` leaves ``fen_after`` out (None),
    which saves writing a FEN per ply when no moves table is wanted.
    """
    rows: list[dict[str, Any]] = []
    ply = 0
    for node in game.mainline():
        if node.kind == "setup":
            continue
        ply += 1
        if id(node) in resolution.merged:
            continue
        resolved = resolution.get(node)
        if resolved is not None:
            move = resolved.move
            rows.append(
                {
                    "ply": ply,
                    "move": resolved.text,
                    "from": move.from_sq,
                    "to": move.to_sq,
                    "path": list(move.paths[0]),
                    "captures": sorted(move.captures),
                    "fen_after": write_fen(resolved.after) if fen else None,
                }
            )
        else:
            text = node.move.text() if node.move is not None else "--"
            rows.append(
                {
                    "ply": ply,
                    "move": text,
                    "from": None,
                    "to": None,
                    "path": None,
                    "captures": None,
                    "fen_after": None,
                }
            )
    return rows


def _issue_row(issue: dict[str, Any]) -> dict[str, Any]:
    return {
        "code": issue["code"],
        "severity": issue["severity"],
        "message": issue["message"],
        "line": issue["line"],
        "column": issue["column"],
        "ply": issue["ply"],
        "move": issue["move"],
        "in_variation": bool(issue.get("in_variation", False)),
    }


class ParquetWriter:
    """Streams games into a games table and, optionally, a moves table."""

    def __init__(
        self,
        games: str | IO[bytes],
        moves: str | IO[bytes] | None = None,
        *,
        row_group: int = ROW_GROUP_GAMES,
    ) -> None:
        self.row_group = row_group
        self.games = pq.ParquetWriter(games, GAMES_SCHEMA, compression="zstd")
        self.moves = (
            pq.ParquetWriter(moves, MOVES_SCHEMA, compression="zstd") if moves is not None else None
        )
        self.game_cols = _columns(GAMES_SCHEMA)
        self.move_cols = _columns(MOVES_SCHEMA)
        self.pending = 0
        self.next_id = 1

    def write(
        self,
        game: Game,
        replay: ReplayResult | None,
        resolution: Resolution,
        record: dict[str, Any] | None = None,
    ) -> None:
        """Add one game (and its plies); flushes a row group every ``row_group`` games."""
        if record is None:
            record = jsonfmt.game_dict(game, replay, resolution)
        game_id = self.next_id
        self.next_id += 1
        rows = mainline_rows(game, resolution, fen=self.moves is not None)
        named = {name: game.tag(name) for name in NAMED_TAGS}
        cols = self.game_cols
        cols["id"].append(game_id)
        cols["file"].append(game.file)
        cols["game"].append(game.index)
        for name in ("Event", "Site", "Date", "Round", "White", "Black"):
            cols[name.lower()].append(named[name])
        cols["result"].append(game.result)
        cols["variant"].append(game.variant)
        cols["gametype"].append(named["GameType"])
        cols["start_fen"].append(named["FEN"])
        cols["final_fen"].append(record["validation"]["final_fen"])
        cols["plies"].append(record["plies"])
        cols["moves"].append([row["move"] for row in rows])
        cols["status"].append(game.status)
        cols["replayed"].append(record["validation"]["replayed"])
        cols["issues"].append([_issue_row(i) for i in record["issues"]])
        cols["tags"].append(
            [(t.name, t.value) for t in game.tags if standard_name(t.name) not in NAMED_TAGS]
        )
        cols["record"].append(jsonfmt.dumps(record))
        if self.moves is not None:
            mcols = self.move_cols
            for row in rows:
                mcols["id"].append(game_id)
                mcols["file"].append(game.file)
                mcols["game"].append(game.index)
                for key, value in row.items():
                    mcols[key].append(value)
        self.pending += 1
        if self.pending >= self.row_group:
            self.flush()

    def flush(self) -> None:
        """Write the buffered games (and plies) as one row group."""
        if self.pending:
            self.games.write_table(pa.Table.from_pydict(self.game_cols, schema=GAMES_SCHEMA))
            self.game_cols = _columns(GAMES_SCHEMA)
            self.pending = 0
        if self.moves is not None and self.move_cols["id"]:
            self.moves.write_table(pa.Table.from_pydict(self.move_cols, schema=MOVES_SCHEMA))
            self.move_cols = _columns(MOVES_SCHEMA)

    def close(self) -> None:
        """Flush what is left and write the files' footers."""
        self.flush()
        self.games.close()
        if self.moves is not None:
            self.moves.close()
