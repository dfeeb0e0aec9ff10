"""Converting on a Dask cluster: each unit of work written by a worker as parts of a
dataset, renamed into place when the whole run has succeeded.

``pdn convert … --dask ADDRESS -o DIR/`` (and :func:`convert_dataset`) writes a
Parquet dataset — the games table, and the moves table with ``moves``, Hive-partitioned
when asked (:mod:`pdn_tools.export.dataset`) — or a directory of JSON Lines parts.
The units are those of ``validate --dask`` (:mod:`pdn_tools.run.cluster`): small files
grouped, large files scanned by workers and cut into game-aligned byte ranges, JSON
inputs and compressed files whole.  A worker converts its unit's games
(:func:`pdn_tools.run.convert.convert_task`) and writes them to its own parts, in the
storage the client sees too, under hidden temporary names
(``.part-<conversion>-<file>-<offset>-<n>.parquet.<token>.tmp``); it returns what the
client needs: the counts, the rejected games (their text, or where to copy a game too
large to keep), the files without games, and the names of its parts.

The client takes the results in input order (a bounded number in flight), writes the
rejected games to the one rejects file and adds up ``read = written + rejected`` over
the whole cluster.  Only when every unit has succeeded are the parts renamed to their
final names (``part-<conversion>-<file>-<offset>-<n>.parquet``, sorting in input
order); a run that fails — an input that cannot be read, a unit the scheduler gave
up on, a lost cluster, Ctrl-C — removes every part it wrote and leaves the dataset as
it was.  A worker that dies is replaced by the scheduler, which runs its units again:
their parts are written again under new temporary names, one result per unit is
taken, and the temporaries of the lost attempt are removed at the end, so no game is
lost or doubled.  Each unit numbers its records itself: ``record_id`` is
``<conversion>-<file>-<offset>-<n>``.

The output directories must be paths that the client and every worker see as the
same storage (a local folder for a local cluster, a shared file system otherwise).

:func:`converted_on_cluster` is the other way round, for outputs written as one file
(``pdn analyse --dask``, where the work per game is large and its piece small): the
workers read, replay, stage and render the games of each unit
(:func:`pdn_tools.run.convert.convert_unit`) and return them, pieces included; the
client writes them in input order through the ordinary sinks, so the output is byte
for byte the one ``--jobs 1`` writes.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Generator, Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdn_tools.atomic import Outputs
from pdn_tools.export.dataset import DatasetError, DatasetWriter, check_dataset, check_new
from pdn_tools.export.parquet import new_conversion_id
from pdn_tools.export.sinks import Piece, RejectsSink, Renderer
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.run import cluster, storage
from pdn_tools.run.convert import (
    Conversion,
    ConvertInputError,
    ConvertOptions,
    Counts,
    EmptyNote,
    Part,
    UnreadableNote,
    convert_unit,
    is_json_input,
    task_converted,
)
from pdn_tools.run.discover import Found
from pdn_tools.run.parallel import IN_FLIGHT
from pdn_tools.run.spans import Span
from pdn_tools.run.units import Input, Unit, failure_reason, task_path, task_source, task_weight

if TYPE_CHECKING:
    from distributed import Client

KINDS = ("parquet", "jsonl")
"""What a cluster conversion writes: a Parquet dataset or JSON Lines parts."""
#: Seconds the client waits, after a failure, for units still running to stop
#: before it removes their parts.
DRAIN_SECONDS = 60.0


class ConvertError(Exception):
    """A cluster conversion that cannot go on; nothing of it is left in the output."""


@dataclass(frozen=True, slots=True)
class PartsTarget:
    """Where the workers write: the kind, the games (or JSON Lines) directory, the
    moves directory, the partition columns, the conversion id, the record column."""

    kind: str
    root: str
    moves: str | None = None
    partition_by: tuple[str, ...] = ()
    conversion: str = ""
    with_record: bool = False


@dataclass(slots=True)
class UnitParts:
    """What a worker returns for one unit: the bytes it covers, its games without
    their written pieces (the rejected ones with their text), and its parts as
    (temporary, final) paths."""

    weight: int
    parts: list[Part]
    renames: list[tuple[str, str]]


def unit_stem(unit: Unit) -> str:
    """The part of a unit's file names that places it among the inputs: the first
    file's number and the byte offset it starts at (stable whichever worker runs it)."""
    first = unit[0]
    file_no, _ = task_source(first)
    offset = first.start if isinstance(first, Span) else 0
    return f"{file_no:06d}-{offset:012d}"


class _JsonlParts:
    """The JSON Lines part of one unit, opened with its first game."""

    def __init__(self, root: str, stem: str, token: str) -> None:
        name = f"part-{stem}.jsonl"
        self.final = os.path.join(root, name)
        self.temporary = os.path.join(root, f".{name}.{token}.tmp")
        self.stream: Any = None

    def put(self, piece: Piece) -> None:
        assert isinstance(piece, str)
        if self.stream is None:
            self.stream = open(self.temporary, "w", encoding="utf-8", newline="")  # noqa: SIM115
        self.stream.write(piece + "\n")

    def finish(self) -> list[tuple[str, str]]:
        if self.stream is None:
            return []
        self.stream.close()
        return [(self.temporary, self.final)]

    def abort(self) -> None:
        if self.stream is not None:
            self.stream.close()
            Path(self.temporary).unlink(missing_ok=True)


class _DatasetParts:
    """The Parquet parts of one unit (one per partition it holds)."""

    def __init__(self, target: PartsTarget, stem: str, token: str) -> None:
        self.writer = DatasetWriter(
            target.root,
            target.partition_by,
            target.moves,
            with_record=target.with_record,
            conversion=target.conversion,
            stem=f"{target.conversion}-{stem}",
            token=token,
            checked=True,
        )

    def put(self, piece: Piece) -> None:
        assert not isinstance(piece, str)
        self.writer.put(*piece)

    def finish(self) -> list[tuple[str, str]]:
        return [(str(a), str(b)) for a, b in self.writer.finish()]

    def abort(self) -> None:
        self.writer.abort()


def convert_to_parts(unit: Unit, options: ConvertOptions, target: PartsTarget) -> UnitParts:
    """Convert one unit and write its parts under temporary names (a task run by a
    worker); the parts are removed if it fails."""
    stem = unit_stem(unit)
    token = secrets.token_hex(4)  # this attempt's own temporaries
    writer = (
        _JsonlParts(target.root, f"{target.conversion}-{stem}", token)
        if target.kind == "jsonl"
        else _DatasetParts(target, stem, token)
    )
    try:
        parts = []
        for task in unit:
            part = Part(*task_source(task), task_path(task))
            for game in task_converted(task, options, part):
                if game.piece is not None:
                    writer.put(game.piece)
                    game.piece = None  # written here: only the counts go back
                part.games.append(game)
            parts.append(part)
        renames = writer.finish()
    except BaseException:
        writer.abort()
        raise
    return UnitParts(sum(task_weight(t) for t in unit), parts, renames)


def convert_on_cluster(
    client: Client,
    found: Iterable[Found],
    options: ConvertOptions,
    target: PartsTarget,
    conversion: Conversion,
    *,
    split_bytes: int = cluster.SPLIT_BYTES,
    span_chars: int = cluster.SPAN_CHARS,
    group_bytes: int = cluster.GROUP_BYTES,
) -> None:
    """Convert every file of *found* on the cluster of *client* into *target*; the
    rejected games, the counts and the notes go to *conversion* (whose sink is not
    used: the workers write the output).  The parts are renamed into place when all
    succeeded; on any failure they are removed and the error raised
    (:class:`ConvertError`, :class:`ConvertInputError`, :class:`OSError` for an input
    that cannot be read, :class:`pdn_tools.run.cluster.ClusterError`)."""
    entries = list(found)
    inputs = [
        Input(n, entry.path, entry.name) for n, entry in enumerate(entries) if entry.problem is None
    ]
    problems = [(n, e) for n, e in enumerate(entries) if e.problem is not None]
    threads = max(1, sum(client.nthreads().values()))
    plan = cluster._plan(
        inputs, split_bytes, group_bytes, keep_whole=lambda source: is_json_input(source.path)
    )
    renames: list[tuple[str, str]] = []
    try:
        units = cluster.units_of(client, plan, options.read, span_chars, threads)
        results = cluster.in_order(
            client, units, convert_to_parts, options, target, window=threads * IN_FLIGHT
        )
        with closing(results):
            for item in results:
                if isinstance(item, cluster.ScanFailed):
                    raise ConvertError(f"{item.source.name}: cannot be read: {item.reason}")
                if item.error is not None:
                    raise _failure(item.unit, item.error)
                done: UnitParts = item.value
                renames.extend(done.renames)
                for part in done.parts:
                    while problems and problems[0][0] < part.file_no:
                        conversion.unreadable_entry(problems.pop(0)[1])
                    conversion.put_part(part)
            for _, entry in problems:
                conversion.unreadable_entry(entry)
    except BaseException:
        _drain(client)
        for temporary, _ in renames:
            Path(temporary).unlink(missing_ok=True)
        _remove_temporaries(target)
        raise
    for temporary, final in renames:
        os.replace(temporary, final)
    _remove_temporaries(target)  # those of attempts lost with their worker


def converted_on_cluster(
    client: Client,
    inputs: Sequence[Input],
    options: ConvertOptions,
    *,
    split_bytes: int = cluster.SPLIT_BYTES,
    span_chars: int = cluster.SPAN_CHARS,
    group_bytes: int = cluster.GROUP_BYTES,
) -> Generator[Part, None, None]:
    """The parts of *inputs* converted on the cluster of *client*, their pieces
    rendered, in input order (at most a few units per worker thread in flight).  A
    unit that fails ends the run: with the error of pdn-tools it raised (a Hub engine
    that cannot start, say), its :class:`OSError`, else :class:`ConvertError`;
    :class:`pdn_tools.run.cluster.ClusterError` when the cluster is lost."""
    threads = max(1, sum(client.nthreads().values()))
    plan = cluster._plan(
        inputs, split_bytes, group_bytes, keep_whole=lambda source: is_json_input(source.path)
    )
    units = cluster.units_of(client, plan, options.read, span_chars, threads)
    results = cluster.in_order(client, units, convert_unit, options, window=threads * IN_FLIGHT)
    with closing(results):
        for item in results:
            if isinstance(item, cluster.ScanFailed):
                raise ConvertError(f"{item.source.name}: cannot be read: {item.reason}")
            if item.error is not None:
                if type(item.error).__module__.startswith("pdn_tools."):
                    raise item.error  # as a local run raises it
                raise _failure(item.unit, item.error)
            yield from item.value[1]


def _failure(unit: Unit, error: BaseException) -> BaseException:
    """The error a failed unit ends the conversion with."""
    if isinstance(error, (ConvertInputError, OSError)):
        return error
    names = ", ".join(dict.fromkeys(task_source(task)[1] for task in unit))
    return ConvertError(f"{names}: not converted: {failure_reason(error)}")


def _drain(client: Client) -> None:
    """Wait (a bounded time) until no unit of a conversion runs on a worker any more
    (cancelled units that had started run to their end), so that no part is written
    after the parts are removed."""
    deadline = time.monotonic() + DRAIN_SECONDS
    while time.monotonic() < deadline:
        try:
            running = [
                key
                for keys_of in client.processing().values()
                for key in keys_of
                if str(key).startswith(convert_to_parts.__name__)
            ]
        except Exception:  # the cluster is gone: nothing runs for us any more
            return
        if not running:
            return
        time.sleep(0.1)


def _remove_temporaries(target: PartsTarget) -> None:
    """Remove every temporary part of this conversion left in the output directories."""
    pattern = f".part-{target.conversion}-*.tmp"
    for root in (target.root, target.moves):
        if root is not None and os.path.isdir(root):
            for path in Path(root).rglob(pattern):
                path.unlink(missing_ok=True)


def prepare_target(
    out: str,
    kind: str,
    *,
    moves: str | None = None,
    partition_by: Sequence[str] = (),
    with_record: bool = False,
    conversion: str | None = None,
    append: bool = False,
) -> PartsTarget:
    """The target of a cluster conversion into the directory *out*, checked (a
    directory that holds files already is refused unless *append*; an existing
    dataset must have the same table, schema version and partitioning) and created;
    :class:`ConvertError` for one that cannot be used."""
    if kind not in KINDS:
        raise ConvertError(
            f"on a Dask cluster the output is {' or '.join(KINDS)} parts, not {kind}"
        )
    if storage.is_url(out) or (moves is not None and storage.is_url(moves)):
        raise ConvertError("the output of a Dask cluster is a directory path, not a URL")
    if kind == "jsonl" and (moves is not None or partition_by or with_record):
        raise ConvertError("--moves-table, --partition-by and --with-record need Parquet output")
    for path in (out, moves):
        if path is not None and os.path.exists(path) and not os.path.isdir(path):
            raise ConvertError(
                f"{path}: exists and is not a directory (a dataset's parts go in one)"
            )
    for path in (out, moves):
        if path is not None:
            try:
                check_new(Path(path), append)
            except DatasetError as exc:
                raise ConvertError(str(exc)) from None
    partition = tuple(partition_by)
    if kind == "parquet":
        check_dataset(Path(out), "games", partition)
        if moves is not None:
            check_dataset(Path(moves), "moves", partition)
    for path in (out, moves):
        if path is not None:
            os.makedirs(path, exist_ok=True)
    return PartsTarget(kind, out, moves, partition, conversion or new_conversion_id(), with_record)


def convert_dataset(
    paths: Sequence[str],
    out: str,
    *,
    to: str = "parquet",
    moves: str | None = None,
    partition_by: Sequence[str] = (),
    with_record: bool = False,
    rejects: str | None = None,
    read: ReadOptions | None = None,
    rules: dict[str, Any] | None = None,
    client: Client | None = None,
    on_empty: EmptyNote | None = None,
    on_unreadable: UnreadableNote | None = None,
    split_bytes: int = cluster.SPLIT_BYTES,
    span_chars: int = cluster.SPAN_CHARS,
    group_bytes: int = cluster.GROUP_BYTES,
    append: bool = False,
) -> Counts:
    """Convert the games of *paths* (files, folders, globs, fsspec URLs) on a Dask
    cluster into the directory *out*: a Parquet dataset (*to* ``parquet``: the games
    table, the moves table in *moves*, split by *partition_by*) or JSON Lines parts
    (*to* ``jsonl``).  Games with errors go to the file *rejects* when given.

    *client* is a ``distributed.Client`` (default: the current one, else a cluster of
    worker processes on this machine).  Returns the counts: ``read = written +
    rejected`` over the whole cluster.  The parts appear when all of them are written;
    a failure leaves *out* as it was and raises.  A directory (*out* or *moves*) that
    holds files already is refused (:class:`ConvertError`) unless *append*: then the
    run's parts are added beside them.
    """
    cluster.require()
    options = read or ReadOptions()
    target = prepare_target(
        out, to, moves=moves, partition_by=partition_by, with_record=with_record, append=append
    )
    if rejects is not None:
        options = replace(options, keep_source=True)
    job = ConvertOptions(
        options,
        dict(rules or {}),
        Renderer(to, moves=moves is not None, with_record=with_record),
        rejects=rejects is not None,
    )
    found = list(storage.find(tuple(paths)))
    with Outputs() as outputs:
        sink = RejectsSink(outputs.text(rejects)) if rejects is not None else None
        conversion = Conversion(None, sink, options, on_empty=on_empty, on_unreadable=on_unreadable)
        sizes = {"split_bytes": split_bytes, "span_chars": span_chars, "group_bytes": group_bytes}
        if client is not None:
            convert_on_cluster(client, found, job, target, conversion, **sizes)
        else:
            with cluster.current_client() as current:
                convert_on_cluster(current, found, job, target, conversion, **sizes)
    return conversion.counts()


__all__ = [
    "KINDS",
    "ConvertError",
    "PartsTarget",
    "UnitParts",
    "convert_dataset",
    "convert_on_cluster",
    "convert_to_parts",
    "converted_on_cluster",
    "prepare_target",
]
