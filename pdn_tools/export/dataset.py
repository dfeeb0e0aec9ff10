"""Hive-partitioned Parquet datasets: ``DIR/variant=…/year=…/part-….parquet``.

``pdn convert … -o DIR/ --partition-by variant,year`` writes the games table (and
with ``--moves-table DIR2/`` the moves table, split by its game's values) as a
dataset that DuckDB (``read_parquet('DIR/**/*.parquet', hive_partitioning=true)``),
polars (``scan_parquet``) and ``pyarrow.dataset`` read as one table.  The partition
columns live in the directory names only, as Hive lays them out; a NULL year is
``year=__HIVE_DEFAULT_PARTITION__``.

Appending: a conversion into an existing dataset adds part files named after its
own conversion id, and its ``record_id`` values carry that id, so conversions never
collide.  A dataset holding parts of another schema version or another partition
layout is refused.

Nothing half-written ever bears a final name: parts are written as hidden
``.part-….parquet.tmp`` files beside their final place and renamed into place only
when the whole conversion has succeeded (:meth:`DatasetWriter.close`);
:meth:`DatasetWriter.abort` removes them.  (A small, local form of the
temporary-file-and-rename rule every output follows.)

Memory stays bounded however many partitions the data spreads over: the rows of all
parts share one Python-row and one Arrow-byte budget (:class:`~.parquet.Limits`), and
at most :data:`MAX_OPEN` part files are open at once (the least recently used one is
finished and a later row of its partition starts a new part).
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyarrow.parquet as pq

from pdn_tools.atomic import OutputError, printable
from pdn_tools.export.parquet import (
    GAMES_LIMITS,
    MOVES_LIMITS,
    Limits,
    TableFile,
    TableRows,
    new_conversion_id,
)
from pdn_tools.export.tables import METADATA_KEY, PARTITION_COLUMNS, SCHEMA_VERSION, table_schema
from pdn_tools.pdn.model import Game
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.resolve import Resolution

NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
"""Directory value of a NULL partition column (Hive's, understood by the readers)."""
MAX_OPEN = 64
"""Part files open at once, at most."""


class DatasetError(ValueError):
    """A dataset directory that cannot take this conversion (a usage error)."""


def files_in(root: Path) -> int:
    """How many files the directory *root* holds, at any depth (0 when it is missing)."""
    if not root.is_dir():
        return 0
    return sum(1 for path in root.rglob("*") if not path.is_dir())


def check_new(root: Path, append: bool) -> int:
    """Refuse a directory that already holds files unless *append*; returns how many
    it holds.

    Why: a conversion into a dataset (or a directory of parts) adds its parts beside
    those there, so converting the same games twice would hold every game twice
    without a word.  As pyarrow's ``existing_data_behavior`` and Spark's save modes
    do, adding to what is there must be asked for (``--append``, ``append=True``).
    """
    count = files_in(root)
    if count and not append:
        raise DatasetError(
            f"{root}: holds {count} file(s) already; give --append to add this "
            "conversion's parts to them, or choose an empty directory"
        )
    return count


def parse_partitioning(text: str) -> tuple[str, ...]:
    """``variant,year`` as a tuple; DatasetError for an unknown or repeated column."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise DatasetError("--partition-by names no column")
    for name in names:
        if name not in PARTITION_COLUMNS:
            raise DatasetError(
                f"cannot partition by {name!r}; choose from {', '.join(PARTITION_COLUMNS)}"
            )
    if len(set(names)) != len(names):
        raise DatasetError(f"--partition-by repeats a column: {text!r}")
    return names


def _directory(partition_by: tuple[str, ...], values: tuple[Any, ...]) -> str:
    return "/".join(
        f"{name}={NULL_PARTITION if value is None else quote(str(value), safe='')}"
        for name, value in zip(partition_by, values, strict=True)
    )


def check_dataset(root: Path, table: str, partition_by: tuple[str, ...]) -> None:
    """Refuse to append to a dataset whose parts are another table, schema version
    or partition layout (the readers could not read the result as one table)."""
    if root.exists() and not root.is_dir():
        raise DatasetError(f"{root}: exists and is not a directory")
    for path in sorted(root.rglob("*.parquet")) if root.is_dir() else []:
        relative = path.relative_to(root)
        if any(part.startswith((".", "_")) for part in relative.parts):
            continue
        layout = tuple(part.split("=", 1)[0] for part in relative.parts[:-1])
        if layout != partition_by:
            raise DatasetError(
                f"{root}: holds parts partitioned by {','.join(layout) or 'nothing'}, "
                f"not by {','.join(partition_by) or 'nothing'}"
            )
        try:
            metadata = pq.read_schema(path).metadata or {}
        except (OSError, ValueError) as exc:
            raise DatasetError(f"{path}: not a readable Parquet file ({exc})") from None
        found = (
            metadata.get(b"pdn_tools.table", b"?").decode(),
            metadata.get(METADATA_KEY.encode(), b"?").decode(),
        )
        if found != (table, str(SCHEMA_VERSION)):
            raise DatasetError(
                f"{root}: holds {found[0]} parts of schema version {found[1]}, "
                f"not {table} of version {SCHEMA_VERSION}"
            )
        return  # one part tells the layout and version of all


class PartSet:
    """The parts of one table in one dataset, written under a shared memory budget."""

    def __init__(
        self,
        root: Path,
        table: str,
        partition_by: tuple[str, ...],
        conversion: str,
        limits: Limits,
        *,
        with_record: bool = False,
        stem: str | None = None,
        token: str = "",
    ) -> None:
        self.root = root
        self.partition_by = partition_by
        self.conversion = conversion
        self.stem = stem if stem is not None else conversion
        """Part files are named ``part-<stem>-<n>.parquet``."""
        self.token = token
        """Part of the temporary names, so that two writers of the same parts (a unit
        of work run twice) never write into one file."""
        self.limits = limits
        self.schema = table_schema(table, conversion, without=partition_by, with_record=with_record)
        self.open: OrderedDict[tuple[Any, ...], TableFile] = OrderedDict()
        self.finished: list[TableFile] = []
        self.rows = 0
        """Python rows buffered over all open parts."""
        self.bytes = 0
        """Arrow bytes waiting over all open parts."""
        self.parts = 0
        self.finals: dict[Path | None, Path] = {}
        """The final path of each part, by its temporary path."""
        self.made: list[TableFile] = []
        """Every part begun, whatever became of it: :meth:`abort` removes them all,
        also one whose writing failed half-way (a full disk)."""

    def _part(self, key: tuple[Any, ...]) -> TableFile:
        part = self.open.get(key)
        if part is not None:
            self.open.move_to_end(key)
            return part
        if len(self.open) >= MAX_OPEN:
            _, oldest = self.open.popitem(last=False)
            self._finish(oldest)
        self.parts += 1
        directory = self.root / _directory(self.partition_by, key)
        name = f"part-{self.stem}-{self.parts:05d}.parquet"
        temporary = f".{name}.{self.token}.tmp" if self.token else f".{name}.tmp"
        part = TableFile(self.schema, self.limits, path=directory / temporary)
        self.made.append(part)
        self.finals[part.path] = directory / name
        self.open[key] = part
        return part

    def _finish(self, part: TableFile) -> None:
        self.rows -= part.rows
        self.bytes -= part.batched_bytes
        if part.rows or part.batches:
            assert part.path is not None
            part.path.parent.mkdir(parents=True, exist_ok=True)
        part.close()
        if part.written:
            self.finished.append(part)

    def add(self, key: tuple[Any, ...], row: dict[str, Any]) -> None:
        """Buffer one row in the part of partition *key*; seal and write as the
        shared budget says."""
        part = self._part(key)
        part.append(row)
        self.rows += 1
        if self.rows >= self.limits.batch_rows:
            self._seal_all()

    def _seal_all(self) -> None:
        for part in self.open.values():
            self.bytes += part.seal()
        self.rows = 0
        full = [p for p in self.open.values() if p.batched_rows >= self.limits.group_rows]
        if self.bytes >= self.limits.group_bytes:
            full = list(self.open.values())
        for part in full:
            if part.batches:
                assert part.path is not None
                part.path.parent.mkdir(parents=True, exist_ok=True)
                self.bytes -= part.batched_bytes
                part.write_group()

    def close(self) -> list[tuple[Path, Path]]:
        """Finish every part; returns (temporary, final) paths of the written parts."""
        while self.open:
            _, part = self.open.popitem(last=False)
            self._finish(part)
        out = []
        for part in self.finished:
            assert part.path is not None
            out.append((part.path, self.finals[part.path]))
        return out

    def abort(self) -> None:
        """Drop every part begun so far (the dataset is left as it was)."""
        parts = self.made
        self.open.clear()
        self.finished = []
        self.made = []
        for part in parts:
            if part.writer is not None:
                with contextlib.suppress(Exception):  # a writer that failed may fail again
                    part.writer.close()
                part.writer = None
            if part.path is not None:
                with contextlib.suppress(OSError):
                    part.path.unlink(missing_ok=True)
        for part in parts:  # partition folders this conversion made and left empty
            folder = part.path.parent if part.path is not None else self.root
            while folder != self.root and self.root in folder.parents:
                try:
                    folder.rmdir()
                except OSError:
                    break
                folder = folder.parent


class DatasetWriter:
    """Streams games into a partitioned games dataset and, optionally, a moves one."""

    def __init__(
        self,
        root: str | Path,
        partition_by: tuple[str, ...],
        moves: str | Path | None = None,
        *,
        with_record: bool = False,
        conversion: str | None = None,
        games_limits: Limits = GAMES_LIMITS,
        moves_limits: Limits = MOVES_LIMITS,
        stem: str | None = None,
        token: str = "",
        checked: bool = False,
    ) -> None:
        """*stem* names the part files (``part-<stem>-<n>.parquet``; the conversion id
        by default) and, when given, prefixes the ``record_id`` values instead of the
        conversion id; *token* goes into the temporary names; *checked* says that the
        directories were checked (:func:`check_dataset`) by whoever runs the
        conversion, as when many writers write parts of one conversion (a cluster)."""
        self.conversion = conversion or new_conversion_id()
        self.partition_by = partition_by
        roots = [Path(root)] + ([Path(moves)] if moves is not None else [])
        if not checked:
            for path, table in zip(roots, ("games", "moves"), strict=False):
                check_dataset(path, table, partition_by)
        self.made_roots = [path for path in roots if not path.exists()]
        """The dataset folders this conversion makes (removed again by :meth:`abort`
        when it leaves them empty)."""
        for path in roots:
            path.mkdir(parents=True, exist_ok=True)
        self.tables = TableRows(
            self.conversion, moves=moves is not None, with_record=with_record, prefix=stem
        )
        self.games = PartSet(
            roots[0],
            "games",
            partition_by,
            self.conversion,
            games_limits,
            with_record=with_record,
            stem=stem,
            token=token,
        )
        self.moves = None
        if moves is not None:
            self.moves = PartSet(
                roots[1],
                "moves",
                partition_by,
                self.conversion,
                moves_limits,
                stem=stem,
                token=token,
            )

    def write(
        self,
        game: Game,
        replay: ReplayResult | None,
        resolution: Resolution,
        record: dict[str, Any] | None = None,
    ) -> None:
        """Add one game (and its plies) to the parts of its partition."""
        row, plies = self.tables.rows(game, replay, resolution, record)
        self._add(row, plies)

    def put(self, row: dict[str, Any], plies: list[dict[str, Any]]) -> None:
        """Add the rows of one game made elsewhere
        (:func:`pdn_tools.export.parquet.table_rows`), numbered here."""
        self.tables.number(row, plies)
        self._add(row, plies)

    def _add(self, row: dict[str, Any], plies: list[dict[str, Any]]) -> None:
        key = tuple(row[name] for name in self.partition_by)
        with self._named(self.games):
            self.games.add(key, row)
        if self.moves is not None:
            with self._named(self.moves):
                for ply in plies:
                    self.moves.add(key, ply)

    @staticmethod
    @contextlib.contextmanager
    def _named(parts: PartSet) -> Iterator[None]:
        """Turn a write error of a part (a full disk) into an :class:`OutputError`
        naming the dataset directory, as every output's errors are named."""
        try:
            yield
        except OutputError:
            raise
        except OSError as exc:
            reason = os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))
            raise OutputError(printable(str(parts.root)), exc.errno, reason) from None

    def close(self) -> None:
        """Finish every part, then rename them all into place."""
        for temporary, final in self.finish():
            os.replace(temporary, final)

    def finish(self) -> list[tuple[Path, Path]]:
        """Finish every part under its temporary name; returns (temporary, final)
        paths for whoever renames them into place (every part removed on failure)."""
        try:
            with self._named(self.games):
                renames = self.games.close()
            if self.moves is not None:
                with self._named(self.moves):
                    renames += self.moves.close()
        except BaseException:
            self.abort()
            raise
        return renames

    def abort(self) -> None:
        """Remove every part of this conversion; the datasets stay as they were."""
        self.games.abort()
        if self.moves is not None:
            self.moves.abort()
        for path in self.made_roots:
            with contextlib.suppress(OSError):
                path.rmdir()
