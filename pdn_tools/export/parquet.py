"""Parquet files of the games and moves tables, written in bounded row groups.

The columns are those of :mod:`pdn_tools.export.tables` (``docs/export.md``).  Rows
are buffered as Python values for at most :attr:`Limits.batch_rows` rows, then kept
as compact Arrow batches, and written as one row group once :attr:`Limits.group_rows`
rows or :attr:`Limits.group_bytes` bytes have gathered.  Both bounds hold however
many games stream through, so peak memory does not grow with the input (the games
and the moves table alike), and row groups are large enough for readers to scan
efficiently (ten thousand games; about as many plies as DuckDB puts in its own row
groups, 122,880).  The Parquet writer itself holds a compressor per column (a fixed
few tens of MB); the bounds keep what the rows add small beside it.

Every record gets a ``record_id`` made of the conversion's id and a running number,
so records of several conversions never share one (see :func:`new_conversion_id`).
The ``record`` column holds the game's full JSON object only when asked for
(``--with-record``): compressed, it is about nine times the size of all other
columns together (docs/export.md, The record column).
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pyarrow as pa
import pyarrow.parquet as pq

import pdn_tools.export.jsonfmt as jsonfmt
from pdn_tools.export.tables import (
    METADATA_KEY,
    SCHEMA_VERSION,
    game_row,
    main_line,
    move_rows,
    table_schema,
)
from pdn_tools.pdn.model import Game
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.resolve import Resolution
from pdn_tools.replay.summary import game_head

__all__ = [
    "GAMES_LIMITS",
    "METADATA_KEY",
    "MOVES_LIMITS",
    "SCHEMA_VERSION",
    "Limits",
    "ParquetWriter",
    "TableFile",
    "TableRows",
    "new_conversion_id",
    "table_rows",
]


def _fitted(value: Any, kind: pa.DataType) -> Any:
    """*value* made to fit a column of type *kind*, where the input can give what the
    column cannot hold: a lone surrogate (a JSON input may escape one, ``"\\ud800"``),
    which UTF-8 cannot hold, becomes its backslash escape, as the text outputs write
    it; a number beyond the column's integers (a ``GameType``, a clock, an evaluation
    or a NAG of more than 32 bits) is left null.  The record column keeps the game as
    it was written.  Lists, maps and structs are fitted item by item."""
    if value is None:
        return None
    if pa.types.is_string(kind) and isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if pa.types.is_integer(kind) and isinstance(value, int):
        width = kind.bit_width
        if pa.types.is_signed_integer(kind):
            low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
        else:
            low, high = 0, (1 << width) - 1
        return value if low <= value <= high else None
    if pa.types.is_map(kind):
        pairs = value.items() if isinstance(value, dict) else value
        return [(_fitted(k, kind.key_type), _fitted(v, kind.item_type)) for k, v in pairs]
    if pa.types.is_list(kind) and isinstance(value, list | tuple):
        return [_fitted(item, kind.value_type) for item in value]
    if pa.types.is_struct(kind) and isinstance(value, dict):
        return {**value, **{f.name: _fitted(value.get(f.name), f.type) for f in kind}}
    return value


@dataclass(frozen=True, slots=True)
class Limits:
    """How many rows a table holds in memory before they move on."""

    batch_rows: int
    """Rows kept as Python values before they become one Arrow batch."""
    group_rows: int
    """Rows per row group at most."""
    group_bytes: int
    """Arrow bytes per row group at most (for a dataset: all its open parts together)."""


GAMES_LIMITS = Limits(batch_rows=1_000, group_rows=10_000, group_bytes=16 << 20)
MOVES_LIMITS = Limits(batch_rows=16_384, group_rows=131_072, group_bytes=16 << 20)
_NOT_DICTIONARY = frozenset({"record", "fen_before", "final_fen"})
"""Columns whose values rarely repeat: not worth a dictionary attempt per page."""
_NO_STATISTICS = frozenset({"record", "moves", "issues", "tags", "comments"})
"""Columns whose min/max nobody filters on (and the record's would be whole games)."""


def new_conversion_id() -> str:
    """A fresh id for one conversion: UTC time to the second and 32 random bits
    (``20261124T073512-3fa9c2d1``); the prefix of its records' ``record_id``."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S")
    return f"{now}-{secrets.token_hex(4)}"


def _leaves(name: str, kind: pa.DataType) -> list[str]:
    """The Parquet column paths of a field (a list's values are ``name.list.element``)."""
    if pa.types.is_map(kind):
        return [f"{name}.key_value.key", *_leaves(f"{name}.key_value.value", kind.item_type)]
    if pa.types.is_list(kind):
        return _leaves(f"{name}.list.element", kind.value_type)
    if pa.types.is_struct(kind):
        return [leaf for f in kind for leaf in _leaves(f"{name}.{f.name}", f.type)]
    return [name]


def open_parquet(target: str | Path | IO[bytes], schema: pa.Schema) -> pq.ParquetWriter:
    """A Parquet writer with the tables' settings: zstd, dictionaries and statistics
    only where they serve."""

    def leaves(leave_out: frozenset[str]) -> list[str]:
        return [leaf for f in schema if f.name not in leave_out for leaf in _leaves(f.name, f.type)]

    return pq.ParquetWriter(
        target,
        schema,
        compression="zstd",
        use_dictionary=leaves(_NOT_DICTIONARY),
        write_statistics=leaves(_NO_STATISTICS),
    )


class TableFile:
    """One Parquet file being written: buffered rows, sealed batches, row groups.

    The writer is opened at once (``target`` given) or with the first row group
    (``path`` given: a dataset part, which exists only when it holds rows).
    """

    def __init__(
        self,
        schema: pa.Schema,
        limits: Limits,
        target: str | Path | IO[bytes] | None = None,
        path: Path | None = None,
    ) -> None:
        self.schema = schema
        self.limits = limits
        self.path = path
        self.writer = open_parquet(target, schema) if target is not None else None
        self.columns: dict[str, list[Any]] = {name: [] for name in schema.names}
        self.rows = 0
        """Rows buffered as Python values."""
        self.batches: list[pa.RecordBatch] = []
        self.batched_rows = 0
        self.batched_bytes = 0
        self.written = 0
        """Rows written to row groups."""

    def append(self, row: dict[str, Any]) -> None:
        """Buffer one row (a mapping holding at least the schema's columns)."""
        for name, column in self.columns.items():
            column.append(row[name])
        self.rows += 1

    def seal(self) -> int:
        """Turn the buffered Python values into one Arrow batch; returns its bytes."""
        if not self.rows:
            return 0
        try:
            batch = pa.RecordBatch.from_pydict(self.columns, schema=self.schema)
        except (UnicodeEncodeError, OverflowError, pa.ArrowInvalid):
            # A value its column cannot hold (see _fitted): the batch again, fitted.
            columns = {
                f.name: [_fitted(value, f.type) for value in self.columns[f.name]]
                for f in self.schema
            }
            batch = pa.RecordBatch.from_pydict(columns, schema=self.schema)
        self.columns = {name: [] for name in self.schema.names}
        self.rows = 0
        self.batches.append(batch)
        self.batched_rows += batch.num_rows
        size = int(batch.nbytes)
        self.batched_bytes += size
        return size

    def write_group(self) -> None:
        """Write everything buffered as one row group."""
        self.seal()
        if not self.batches:
            return
        if self.writer is None:
            assert self.path is not None
            self.writer = open_parquet(self.path, self.schema)
        table = pa.Table.from_batches(self.batches, schema=self.schema)
        self.writer.write_table(table, row_group_size=max(1, table.num_rows))
        self.written += table.num_rows
        self.batches = []
        self.batched_rows = 0
        self.batched_bytes = 0

    def add(self, row: dict[str, Any]) -> None:
        """Buffer one row and move rows on as :attr:`limits` say (one file's policy)."""
        self.append(row)
        if self.rows >= self.limits.batch_rows:
            self.seal()
            if (
                self.batched_rows >= self.limits.group_rows
                or self.batched_bytes >= self.limits.group_bytes
            ):
                self.write_group()

    def close(self) -> None:
        """Write what is left and the footer."""
        self.write_group()
        if self.writer is not None:
            self.writer.close()
            self.writer = None


class TableRows:
    """The rows of both tables for the games of one conversion, numbered in order.

    ``record_id`` is *prefix* (the conversion id by default) and a running number.
    :meth:`unnumbered` and :meth:`number` split :meth:`rows` in two, so that rows can
    be made where a game is read (a worker process) and numbered where they are
    written, in input order.
    """

    def __init__(
        self, conversion: str, *, moves: bool, with_record: bool, prefix: str | None = None
    ) -> None:
        self.conversion = conversion
        self.prefix = prefix if prefix is not None else conversion
        self.moves = moves
        self.with_record = with_record
        self.count = 0

    def rows(
        self,
        game: Game,
        replay: ReplayResult | None,
        resolution: Resolution,
        record: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The games row and the moves rows (empty without a moves table) of *game*.

        *record* is the game's JSON object when the caller has it already; it is
        built (and written) only when the record column was asked for.
        """
        row, plies = table_rows(
            game, replay, resolution, moves=self.moves, with_record=self.with_record, record=record
        )
        self.number(row, plies)
        return row, plies

    def number(self, row: dict[str, Any], plies: list[dict[str, Any]]) -> None:
        """Give the next ``record_id`` to the rows of one game (from :func:`table_rows`)."""
        self.count += 1
        record_id = f"{self.prefix}-{self.count}"
        row["record_id"] = record_id
        for ply in plies:
            ply["record_id"] = record_id


def table_rows(
    game: Game,
    replay: ReplayResult | None,
    resolution: Resolution,
    *,
    moves: bool,
    with_record: bool,
    record: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The games row and the moves rows (with *moves*) of *game*, ``record_id`` still
    empty (:meth:`TableRows.number` fills it)."""
    head = game_head(game, replay)
    text = None
    if with_record:
        text = jsonfmt.dumps(record or jsonfmt.game_dict(game, replay, resolution))
    row = game_row(game, replay, head, main_line(game, resolution), "", text)
    if not moves:
        return row, []
    plies = move_rows(game, resolution)
    common = {"game_id": row["game_id"], "record_id": "", "variant": row["variant"]}
    for ply in plies:
        ply.update(common)
    return row, plies


class ParquetWriter:
    """Streams games into a games table and, optionally, a moves table."""

    def __init__(
        self,
        games: str | Path | IO[bytes],
        moves: str | Path | IO[bytes] | None = None,
        *,
        with_record: bool = False,
        conversion: str | None = None,
        games_limits: Limits = GAMES_LIMITS,
        moves_limits: Limits = MOVES_LIMITS,
    ) -> None:
        self.conversion = conversion or new_conversion_id()
        self.tables = TableRows(self.conversion, moves=moves is not None, with_record=with_record)
        schema = table_schema("games", self.conversion, with_record=with_record)
        self.games = TableFile(schema, games_limits, target=games)
        self.moves = None
        if moves is not None:
            self.moves = TableFile(
                table_schema("moves", self.conversion), moves_limits, target=moves
            )

    def write(
        self,
        game: Game,
        replay: ReplayResult | None,
        resolution: Resolution,
        record: dict[str, Any] | None = None,
    ) -> None:
        """Add one game (and its plies)."""
        row, plies = self.tables.rows(game, replay, resolution, record)
        self._add(row, plies)

    def put(self, row: dict[str, Any], plies: list[dict[str, Any]]) -> None:
        """Add the rows of one game made elsewhere (:func:`table_rows`), numbered here."""
        self.tables.number(row, plies)
        self._add(row, plies)

    def _add(self, row: dict[str, Any], plies: list[dict[str, Any]]) -> None:
        self.games.add(row)
        if self.moves is not None:
            for ply in plies:
                self.moves.add(ply)

    def close(self) -> None:
        """Write what is left and the files' footers."""
        self.games.close()
        if self.moves is not None:
            self.moves.close()
