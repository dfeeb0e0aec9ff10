"""``pdn convert``: read game collections and write them as canonical PDN, JSON,
JSON Lines or Parquet, losing no game, move or comment.

Every game read is replayed (for its findings and its resolved moves) and written,
with its issues, to the output, or with ``--rejects`` to the rejects file when it
has an error.  The counts go to stderr; written + rejected always equals read.

Outputs appear only when the run completes (:class:`pdn_tools.atomic.Outputs`), and
outputs that collide with each other or with an input are refused before anything is
written (:mod:`pdn_tools.run.collisions`).  The conversion itself is
:mod:`pdn_tools.run.convert` (``--jobs``: worker processes, the same bytes) and, with
``--dask``, :mod:`pdn_tools.run.cluster_convert` (the workers write the parts); this
module checks the options and sets up the outputs.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import Any

import click

from pdn_tools.atomic import OutputError, Outputs, printable
from pdn_tools.cli.options import (
    Common,
    configured,
    dask_option,
    discovery_options,
    jobs_option,
    reading_options,
)
from pdn_tools.cli.run import find_files, require_cluster
from pdn_tools.diagnostics import Issue
from pdn_tools.export.canonical import CanonicalOptions
from pdn_tools.export.dataset import DatasetError, parse_partitioning
from pdn_tools.export.sinks import (
    FORMATS,
    DatasetSink,
    JsonSink,
    ParquetSink,
    PdnSink,
    RejectsSink,
    Renderer,
    Sink,
    format_of,
)
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.run.collisions import OutputCollision, check_outputs
from pdn_tools.run.convert import (
    Conversion,
    ConvertInputError,
    ConvertOptions,
    convert_inputs,
)
from pdn_tools.run.discover import Found
from pdn_tools.run.parallel import usable_jobs
from pdn_tools.run.paths import InputError


class _Usage(Exception):
    """A usage or input problem: one line on stderr, exit status 2."""


def _empty(name: str, issues: list[Issue]) -> None:
    """A file without games: its findings on stderr."""
    for issue in issues:
        click.echo(f"{name}: {issue.level.value} {issue.code} {issue.message}", err=True)


def _unreadable(entry: Found) -> None:
    click.echo(f"{entry.name}: error E14 file cannot be read: {entry.problem}", err=True)


@click.command(short_help="Convert game collections to PDN, JSON, JSONL or Parquet.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    metavar="OUT",
    help="Output file; '-' writes to standard output (then --to is required).",
)
@click.option(
    "--to",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format (default: from OUT's extension: .pdn .json .jsonl .parquet).",
)
@click.option(
    "--rejects",
    metavar="FILE",
    default=None,
    help="Write games with errors to FILE, verbatim as read, instead of to OUT.",
)
@click.option(
    "--moves-table",
    metavar="PATH",
    default=None,
    help="Parquet only: also write one row per ply to this Parquet file (a directory "
    "when OUT is a dataset).",
)
@click.option(
    "--with-record",
    is_flag=True,
    help="Parquet only: fill the record column with each game's full JSON object "
    "(lossless, but about nine times the size of all other columns).",
)
@click.option(
    "--partition-by",
    metavar="COLUMNS",
    default=None,
    help="Parquet only: write OUT as a Hive-partitioned dataset directory split by "
    "these columns (variant, year; e.g. variant,year); conversions append.",
)
@click.option("--strip-comments", is_flag=True, help="PDN: drop comments (keep [%...] commands).")
@click.option("--strip-variations", is_flag=True, help="PDN: write the main line only.")
@click.option(
    "--normalise-results",
    is_flag=True,
    help="PDN: Result tag and terminator both say the game's result in the GameType's style.",
)
@jobs_option
@dask_option
@discovery_options
@reading_options
@configured
def convert(
    paths: tuple[str, ...],
    out: str,
    fmt: str | None,
    rejects: str | None,
    moves_table: str | None,
    with_record: bool,
    partition_by: str | None,
    strip_comments: bool,
    strip_variations: bool,
    normalise_results: bool,
    common: Common,
) -> None:
    """Convert PDN files (or pdn-tools JSON/JSONL) to PDN, JSON, JSONL or Parquet.

    PATH is a file, a folder (searched for *.pdn) or - for PDN on stdin.
    OUT ending in / (or an existing directory) is a Parquet dataset directory.
    Exit status: 0 when every game was written and none written to OUT has an
    error, 1 when OUT holds a game with an error (use --rejects to set them
    apart) or a file found in a folder cannot be read, 2 for usage or input
    errors.
    """
    if common.dask is not None:
        require_cluster("convert", paths)
    files = find_files("convert", paths, common, warn_none=False)
    try:
        if common.dask is not None:
            counts = _convert_on_cluster(
                paths, files, out, fmt, rejects, moves_table,
                replace(common.read, keep_source=rejects is not None),
                common.rules,
                _Tables(with_record, partition_by),
                common.dask,
            )  # fmt: skip
        else:
            counts = _convert(
                paths, files, out, fmt, rejects, moves_table,
                CanonicalOptions(strip_comments, strip_variations, normalise_results),
                replace(common.read, keep_source=rejects is not None),
                common.rules,
                common.stdin_filename,
                _Tables(with_record, partition_by),
                jobs=usable_jobs(common.workers),
            )  # fmt: skip
    except (_Usage, InputError, OutputCollision, DatasetError) as exc:
        click.echo(f"pdn convert: {exc}", err=True)
        sys.exit(2)
    except OutputError:
        raise  # reported by the command group, as for every command
    except OSError as exc:  # reading an input (writing one is an OutputError)
        where = f"{printable(exc.filename)}: " if isinstance(exc.filename, str) else ""
        click.echo(f"pdn convert: {where}{exc.strerror or exc}", err=True)
        sys.exit(2)
    read, written, rejected, errors_written, unreadable = counts
    click.echo(f"{read} game(s) read, {written} written, {rejected} rejected", err=True)
    sys.exit(1 if errors_written or unreadable else 0)


class _Tables:
    """The Parquet choices: the record column, and a dataset's partition columns."""

    def __init__(self, with_record: bool = False, partition_by: str | None = None) -> None:
        self.with_record = with_record
        self.partition_by = partition_by

    def dataset(self, out: str) -> tuple[str, ...] | None:
        """The partition columns when OUT is a dataset directory (``()``: unpartitioned)."""
        if self.partition_by is not None:
            if out == "-":
                raise _Usage("a partitioned dataset is a directory, not standard output")
            return parse_partitioning(self.partition_by)
        if out != "-" and (out.endswith(("/", os.sep)) or os.path.isdir(out)):
            return ()
        return None


def _convert(
    paths: tuple[str, ...],
    files: list[Found],
    out: str,
    fmt: str | None,
    rejects: str | None,
    moves_table: str | None,
    canonical: CanonicalOptions,
    options: ReadOptions,
    rules: dict[str, Any],
    stdin_filename: str | None,
    tables: _Tables | None = None,
    jobs: int = 1,
) -> tuple[int, int, int, int, int]:
    """Run the conversion; returns (read, written, rejected, errors written, files
    that could not be read).  *paths* are the inputs as given, *files* what they
    name (for the collision checks); *jobs* worker processes read and replay."""
    tables = tables or _Tables()
    partition_by = tables.dataset(out)
    if partition_by is not None and fmt not in (None, "parquet"):
        raise _Usage("a dataset directory is written as Parquet only")
    target = (
        "parquet" if partition_by is not None else fmt or (format_of(out) if out != "-" else None)
    )
    if target is None:
        if out == "-":
            raise _Usage("writing to standard output needs --to FORMAT")
        raise _Usage(f"cannot tell the format of {out!r}; use --to {'|'.join(FORMATS)}")
    if moves_table is not None and target != "parquet":
        raise _Usage("--moves-table needs Parquet output")
    if tables.with_record and target != "parquet":
        raise _Usage("--with-record needs Parquet output")
    if not files:
        raise _Usage(f"no input files found (no *.pdn files); {printable(out)} not written")
    named = {"-o": out, "--rejects": rejects, "--moves-table": moves_table}
    check_outputs(paths, [entry.path for entry in files], [(o, p) for o, p in named.items() if p])
    with Outputs() as outputs:
        sink: Sink
        if partition_by is not None:
            sink = DatasetSink(out, partition_by, moves_table, with_record=tables.with_record)
        elif target == "parquet":
            table = outputs.binary(moves_table) if moves_table is not None else None
            sink = ParquetSink(outputs.binary(out), table, with_record=tables.with_record)
        else:
            stream = outputs.text(out)
            sink = (
                PdnSink(stream, canonical)
                if target == "pdn"
                else JsonSink(stream, target == "json")
            )
        reject_sink = None
        if rejects is not None:
            reject_sink = RejectsSink(outputs.text(rejects))
        run = Conversion(sink, reject_sink, options, on_empty=_empty, on_unreadable=_unreadable)
        renderer = Renderer(
            target,
            canonical,
            moves=moves_table is not None,
            with_record=tables.with_record,
        )
        job = ConvertOptions(options, rules, renderer, rejects=rejects is not None)
        try:
            convert_inputs(
                files, job, run, jobs=jobs, stdin=sys.stdin.buffer, stdin_name=stdin_filename
            )
        except ConvertInputError as exc:
            if isinstance(sink, DatasetSink):
                sink.abort()
            raise _Usage(str(exc)) from None
        except BaseException:
            if isinstance(sink, DatasetSink):
                sink.abort()  # a dataset gets all of a conversion or nothing of it
            raise
        sink.close()
    return run.read, run.written, run.rejected, run.errors_written, run.unreadable


def _convert_on_cluster(
    paths: tuple[str, ...],
    files: list[Found],
    out: str,
    fmt: str | None,
    rejects: str | None,
    moves_table: str | None,
    options: ReadOptions,
    rules: dict[str, Any],
    tables: _Tables,
    address: str,
) -> tuple[int, int, int, int, int]:
    """``--dask``: the workers of the cluster at *address* write OUT as a directory of
    parts (:mod:`pdn_tools.run.cluster_convert`); the same counts as :func:`_convert`."""
    from pdn_tools.run import cluster
    from pdn_tools.run.cluster_convert import ConvertError, convert_on_cluster, prepare_target

    kind = fmt or format_of(out) or "parquet"
    if out == "-":
        raise _Usage("on a Dask cluster OUT is a directory of parts, not standard output")
    if not files:
        raise _Usage(f"no input files found (no *.pdn files); {printable(out)} not written")
    partition_by = parse_partitioning(tables.partition_by) if tables.partition_by else ()
    named = {"-o": out, "--rejects": rejects, "--moves-table": moves_table}
    check_outputs(paths, [entry.path for entry in files], [(o, p) for o, p in named.items() if p])
    try:
        target = prepare_target(
            out, kind, moves=moves_table, partition_by=partition_by, with_record=tables.with_record
        )
    except ConvertError as exc:
        raise _Usage(str(exc)) from None
    job = ConvertOptions(
        options,
        rules,
        Renderer(kind, moves=moves_table is not None, with_record=tables.with_record),
        rejects=rejects is not None,
    )
    with Outputs() as outputs:
        reject_sink = RejectsSink(outputs.text(rejects)) if rejects is not None else None
        run = Conversion(None, reject_sink, options, on_empty=_empty, on_unreadable=_unreadable)
        try:
            with cluster.connect(address) as client:
                convert_on_cluster(client, files, job, target, run)
        except (ConvertError, ConvertInputError, cluster.ClusterError) as exc:
            raise _Usage(str(exc)) from None
    counts = run.counts()
    return counts.read, counts.written, counts.rejected, counts.errors_written, counts.unreadable
