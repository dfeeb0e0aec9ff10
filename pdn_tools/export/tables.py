"""The games and moves tables (schema version 4): columns, and the rows of one game.

Columns are documented one by one in ``docs/export.md``.  The tables are built for
querying as they are: one key per game (``game_id``, the game's identity, equal for
the same game written twice) and per record (``record_id``, unique), results by
colour (``outcome``), dates as dates, GameType as a number, NULL (never ``''``) for
an absent or unknown tag, integer columns as integers, and column names that are
plain identifiers and no SQL keywords.  :mod:`pdn_tools.export.parquet` writes them
to files, :mod:`pdn_tools.export.dataset` to Hive-partitioned datasets.
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

from pdn_tools.pdn.commands import Side, clock_and_eval, parse_commands
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.players import player_key
from pdn_tools.pdn.tags import parse_date
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.resolve import Resolution
from pdn_tools.rules import Color, FenError, Position, parse_fen, write_fen
from pdn_tools.version import __version__

SCHEMA_VERSION = 5
"""Version of both tables; bumped when a column is added, changes meaning or type or
disappears, so that the parts of one dataset always have the same columns (version 3
added ``white_key`` and ``black_key``, version 4 the moves' ``clock_ms``, ``eval_cp``,
``eval_mate`` and ``best_move``, version 5 made ``gametype``, ``nags``, ``clock_ms``,
``eval_cp`` and ``eval_mate`` 64-bit, as every value the reader gives them fits, and
the file-wide counts ``game`` and the findings' ``line`` and ``column``)."""
METADATA_KEY = "pdn_tools.schema_version"
OPENING_PLIES = 4
"""Plies in the ``opening`` column: two moves of each side, enough to tell apart the
openings archives name, few enough that many games share one."""
UNKNOWN_TEXT = frozenset({"", "?", "??", "-", "--"})
"""Tag values that mean "not known" and become NULL in the text columns."""

ISSUE_TYPE = pa.struct(
    [
        ("code", pa.string()),
        ("severity", pa.string()),
        ("message", pa.string()),
        ("line", pa.int64()),
        ("column", pa.int64()),
        ("ply", pa.int32()),
        ("move", pa.string()),
        ("in_variation", pa.bool_()),
    ]
)

GAMES_FIELDS = [
    pa.field("game_id", pa.string()),
    pa.field("record_id", pa.string(), nullable=False),
    pa.field("variant", pa.string(), nullable=False),
    pa.field("gametype", pa.int64()),
    pa.field("event", pa.string()),
    pa.field("site", pa.string()),
    pa.field("round", pa.string()),
    pa.field("date", pa.date32()),
    pa.field("date_text", pa.string()),
    pa.field("year", pa.int32()),
    pa.field("white", pa.string()),
    pa.field("black", pa.string()),
    pa.field("white_key", pa.string()),
    pa.field("black_key", pa.string()),
    pa.field("result", pa.string()),
    pa.field("outcome", pa.string()),
    pa.field("plies", pa.int32(), nullable=False),
    pa.field("opening", pa.string()),
    pa.field("status", pa.string(), nullable=False),
    pa.field("errors", pa.int32(), nullable=False),
    pa.field("warnings", pa.int32(), nullable=False),
    pa.field("codes", pa.list_(pa.string()), nullable=False),
    pa.field("replayed", pa.bool_(), nullable=False),
    pa.field("start_fen", pa.string()),
    pa.field("final_fen", pa.string()),
    pa.field("moves", pa.list_(pa.string()), nullable=False),
    pa.field("tags", pa.map_(pa.string(), pa.string()), nullable=False),
    pa.field("issues", pa.list_(ISSUE_TYPE), nullable=False),
    pa.field("file", pa.string(), nullable=False),
    pa.field("game", pa.int64(), nullable=False),
    pa.field("record", pa.string()),
]

MOVES_FIELDS = [
    pa.field("game_id", pa.string()),
    pa.field("record_id", pa.string(), nullable=False),
    pa.field("variant", pa.string(), nullable=False),
    pa.field("ply", pa.int32(), nullable=False),
    pa.field("side", pa.string()),
    pa.field("move", pa.string(), nullable=False),
    pa.field("from_square", pa.int32()),
    pa.field("to_square", pa.int32()),
    pa.field("path", pa.list_(pa.int32())),
    pa.field("captured", pa.list_(pa.int32())),
    pa.field("is_capture", pa.bool_()),
    pa.field("promotes", pa.bool_()),
    pa.field("fen_before", pa.string()),
    pa.field("nags", pa.list_(pa.int64()), nullable=False),
    pa.field("comments", pa.list_(pa.string()), nullable=False),
    pa.field("clock_ms", pa.int64()),
    pa.field("eval_cp", pa.int64()),
    pa.field("eval_mate", pa.int64()),
    # -- engine analysis (pdn analyse): the best move its comment names -------------
    pa.field("best_move", pa.string()),
]

#: Partition columns a dataset may be split by (``--partition-by``), in games-table terms.
PARTITION_COLUMNS = ("variant", "year")

_PANDAS_TYPES = {
    pa.int32(): ("int32", "Int32"),
    pa.int64(): ("int64", "Int64"),
    pa.bool_(): ("bool", "boolean"),
}


def _pandas_metadata(fields: list[pa.Field]) -> bytes:
    """pandas' schema metadata naming the nullable dtypes of the integer and boolean
    columns, so that ``pandas.read_parquet`` keeps them integers (``Int32``, ``Int64``) instead
    of turning a column with NULLs into float64 (the format of pyarrow's own
    ``Table.from_pandas`` metadata)."""
    columns = [
        {
            "name": f.name,
            "field_name": f.name,
            "pandas_type": _PANDAS_TYPES[f.type][0],
            "numpy_type": _PANDAS_TYPES[f.type][1],
            "metadata": None,
        }
        for f in fields
        if f.type in _PANDAS_TYPES
    ]
    meta = {
        "index_columns": [],
        "column_indexes": [],
        "columns": columns,
        "creator": {"library": "pdn-tools", "version": __version__},
        "pandas_version": "2.0.0",
    }
    return json.dumps(meta).encode()


def table_schema(
    table: str, conversion: str, *, without: tuple[str, ...] = (), with_record: bool = False
) -> pa.Schema:
    """The schema of the ``games`` or ``moves`` table, leaving out the columns
    *without* (the partition columns of a dataset), with its key-value metadata:
    the schema version, the table name, the conversion that wrote it."""
    fields = [
        f for f in (GAMES_FIELDS if table == "games" else MOVES_FIELDS) if f.name not in without
    ]
    metadata = {
        METADATA_KEY.encode(): str(SCHEMA_VERSION).encode(),
        b"pdn_tools.table": table.encode(),
        b"pdn_tools.conversion": conversion.encode(),
        b"pdn_tools.opening_plies": str(OPENING_PLIES).encode(),
        b"pdn_tools.with_record": b"true" if with_record else b"false",
        b"pandas": _pandas_metadata(fields),
    }
    return pa.schema(fields, metadata=metadata)


def known_text(value: str | None) -> str | None:
    """A tag value for a text column: stripped, NULL when absent or unknown
    (:data:`UNKNOWN_TEXT`)."""
    if value is None:
        return None
    value = value.strip()
    return None if value in UNKNOWN_TEXT else value


def _tag_map(game: Game) -> list[tuple[str, str]]:
    """Every tag once (the last of a repeated name wins; the record keeps all)."""
    seen: dict[str, str] = {}
    for tag in game.tags:
        seen[tag.name] = tag.value
    return list(seen.items())


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


def _setup_position(fen: str | None, resolution: Resolution) -> Position | None:
    if resolution.variant is None:
        return None
    try:
        return parse_fen(fen or "", resolution.variant).position
    except FenError:
        return None


# -- engine analysis (pdn analyse) ---------------------------------------------------
def best_move(comments: list[str]) -> str | None:
    """The first ``[%best …]`` of a move's comments as written (``pdn analyse``),
    NULL when none; its evaluation is ``eval_cp`` / ``eval_mate``
    (:func:`~pdn_tools.pdn.commands.clock_and_eval`)."""
    for text in comments:
        for name, value in parse_commands(text):
            if name == "best" and value:
                return value
    return None


# -----------------------------------------------------------------------------------
def move_rows(game: Game, resolution: Resolution) -> list[dict[str, Any]]:
    """One row per main-line ply (``ply`` .. ``comments`` of the moves table).

    ``move`` is canonical when resolved, else as read (``--`` for an unknown move);
    the squares, side, capture and position facts are NULL when the move was not
    resolved.  Plies are counted as :attr:`Game.plies` counts them (set-ups fill no
    slot); the later jumps of a capture written jump by jump (W24) fill a slot but
    make no row, their move being the merged one, and their NAGs and comments go to
    it.
    """
    rows: list[dict[str, Any]] = []
    ply = 0
    before: Position | None = resolution.start
    for node in game.mainline():
        if node.kind == "setup":
            before = _setup_position(node.fen, resolution)
            continue
        ply += 1
        nags = list(node.nags)
        comments = [c.text for c in node.comments]
        if id(node) in resolution.merged:
            if rows:
                rows[-1]["nags"].extend(nags)
                rows[-1]["comments"].extend(comments)
                last = rows[-1]
                extra = clock_and_eval(node, last["side"])
                for key, value in extra.items():
                    if last[key] is None:
                        last[key] = value
            continue
        resolved = resolution.get(node)
        if resolved is not None and before is not None:
            move = resolved.move
            side: Side = "white" if before.turn is Color.WHITE else "black"
            rows.append(
                {
                    "ply": ply,
                    "side": side,
                    "move": resolved.text,
                    "from_square": move.from_sq,
                    "to_square": move.to_sq,
                    "path": list(move.paths[0]),
                    "captured": sorted(move.captures),
                    "is_capture": bool(move.captures),
                    "promotes": move.promotes,
                    "fen_before": write_fen(before),
                    "nags": nags,
                    "comments": comments,
                    **clock_and_eval(node, side),
                    "best_move": best_move(comments),
                }
            )
            before = resolved.after
        else:
            rows.append(
                {
                    "ply": ply,
                    "side": None,
                    "move": node.move.text() if node.move is not None else "--",
                    "from_square": None,
                    "to_square": None,
                    "path": None,
                    "captured": None,
                    "is_capture": None,
                    "promotes": None,
                    "fen_before": None,
                    "nags": nags,
                    "comments": comments,
                    **clock_and_eval(node, None),
                    "best_move": best_move(comments),
                }
            )
            before = None
    return rows


def main_line(game: Game, resolution: Resolution) -> tuple[list[str], int]:
    """The ``move`` of each row :func:`move_rows` would give (without building the
    rows), and how many of them from the first on were resolved."""
    texts: list[str] = []
    leading = 0
    broken = False
    merged = resolution.merged
    for node in game.mainline():
        if node.kind == "setup":
            broken = True  # a set-up inside the main line: no opening from here on
            continue
        if id(node) in merged:
            continue
        resolved = resolution.get(node)
        if resolved is not None:
            texts.append(resolved.text)
            if not broken:
                leading += 1
        else:
            texts.append(node.move.text() if node.move is not None else "--")
            broken = True
    return texts, leading


def opening(moves: list[str], resolved: int, start_fen: str | None) -> str | None:
    """The first :data:`OPENING_PLIES` plies in the standard notation, separated by
    spaces; NULL for a game from a set-up position or with fewer resolved plies.

    *resolved* counts the leading entries of *moves* that were resolved."""
    if start_fen is not None or resolved < OPENING_PLIES:
        return None
    return " ".join(moves[:OPENING_PLIES])


def _start_fen(game: Game, replay: ReplayResult | None) -> str | None:
    """The start position when the game starts from a set-up (a FEN tag): canonical
    when replayed, else as written; NULL from the variant's initial position."""
    value = known_text(game.tag("FEN"))
    if value is None:
        return None
    if replay is not None and replay.replayed:
        return replay.start_fen
    return value


def game_row(
    game: Game,
    replay: ReplayResult | None,
    head: dict[str, Any],
    moves: tuple[list[str], int],
    record_id: str,
    record: str | None,
) -> dict[str, Any]:
    """The games-table row of *game*.

    *head* is :func:`pdn_tools.replay.summary.game_head` of the game, *moves* its
    :func:`main_line`, *record* its JSON object as text (or None).
    """
    date_text = game.tag("Date")
    if known_text(date_text) is None and game.tag("Anno") is not None:
        date_text = game.tag("Anno")  # Italian exporters: the date as "Anno" (pdn-format.md §5.5)
    date = parse_date(date_text)
    start_fen = _start_fen(game, replay)
    issues = head["issues"]
    codes: dict[str, None] = {}
    errors = warnings = 0
    for issue in issues:
        codes[issue["code"]] = None
        if issue["severity"] == "error":
            errors += 1
        elif issue["severity"] == "warning":
            warnings += 1
    return {
        "game_id": head["game_id"],
        "record_id": record_id,
        "variant": head["variant"],
        "gametype": head["gametype"],
        "event": known_text(game.tag("Event")),
        "site": known_text(game.tag("Site")),
        "round": known_text(game.tag("Round")),
        "date": date.date,
        "date_text": date_text if date_text is None or date_text.strip() else None,
        "year": date.year,
        "white": known_text(game.tag("White")),
        "black": known_text(game.tag("Black")),
        "white_key": player_key(game.tag("White")),
        "black_key": player_key(game.tag("Black")),
        "result": head["result"] or None,
        "outcome": head["outcome"],
        "plies": head["plies"],
        "opening": opening(*moves, start_fen),
        "status": head["status"],
        "errors": errors,
        "warnings": warnings,
        "codes": sorted(codes),
        "replayed": replay is not None and replay.replayed,
        "start_fen": start_fen,
        "final_fen": replay.final_fen if replay is not None else None,
        "moves": moves[0],
        "tags": _tag_map(game),
        "issues": [_issue_row(i) for i in issues],
        "file": game.file,
        "game": game.index,
        "record": record,
    }


def partition_values(row: dict[str, Any]) -> dict[str, Any]:
    """The partition columns' values of a games row."""
    return {name: row[name] for name in PARTITION_COLUMNS}
