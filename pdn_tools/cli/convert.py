"""``pdn convert``: read game collections and write them as canonical PDN, JSON,
JSON Lines or Parquet, losing no game, move or comment.

Every game read is replayed (for its findings and its resolved moves), passes the
collection stages (repair, filter, duplicates: :mod:`pdn_tools.run.stages`) and is
written, with its issues, to the output (one file per group with ``--split-by``:
:mod:`pdn_tools.export.split`), or with ``--rejects`` to the rejects file when it has
an error.  The counts go to stderr; written + rejected + filtered out + duplicates
dropped always equals read.

Outputs appear only when the run completes (:class:`pdn_tools.atomic.Outputs`), and
outputs that collide with each other or with an input are refused before anything is
written (:mod:`pdn_tools.run.collisions`).  The conversion itself is
:mod:`pdn_tools.run.convert` (``--jobs``: worker processes, the same bytes) and, with
``--dask``, :mod:`pdn_tools.run.cluster_convert` (the workers write the parts); this
module checks the options and sets up the outputs.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

import click

from pdn_tools.atomic import OutputError, Outputs, printable, shown
from pdn_tools.cli.options import (
    Common,
    comparison,
    comparison_options,
    configured,
    dask_option,
    discovery_options,
    filter_options,
    jobs_option,
    reading_options,
    writer_quiet_option,
)
from pdn_tools.cli.run import find_files, require_cluster
from pdn_tools.collection.duplicates import TagLending
from pdn_tools.collection.events.index import EventIndex
from pdn_tools.collection.events.results import assess
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.diagnostics import CATALOGUE, Issue, Severity
from pdn_tools.export.canonical import CanonicalOptions
from pdn_tools.export.dataset import DatasetError, check_new, parse_partitioning
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
from pdn_tools.export.split import SPLIT_KEYS, SplitSink
from pdn_tools.export.targets import TARGETS
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.run.check import not_read_message
from pdn_tools.run.collisions import OutputCollision, check_outputs, link_target
from pdn_tools.run.convert import (
    Conversion,
    ConvertInputError,
    ConvertOptions,
    Counts,
    Elsewhere,
    Part,
    convert_inputs,
)
from pdn_tools.run.discover import Found
from pdn_tools.run.parallel import usable_jobs
from pdn_tools.run.paths import InputError
from pdn_tools.run.stages import StageOptions
from pdn_tools.run.units import Input


class _Usage(Exception):
    """A usage or input problem: one line on stderr, exit status 2."""


_FORMAT_NAMES = {"pdn": "PDN", "json": "JSON", "jsonl": "JSON Lines", "parquet": "Parquet"}
"""The formats as messages name them."""


def _named(path: str | None) -> str | None:
    """The format an output's name says by its extension (a trailing separator
    aside), or None: standard output, no output, a name without a known extension."""
    if path is None or path == "-":
        return None
    return format_of(path.rstrip("/" + os.sep))


_COMPRESSED = {
    ".gz": "a gzip-compressed file",
    ".bz2": "a bzip2-compressed file",
    ".xz": "an xz-compressed file",
    ".zip": "a zip archive",
}
"""The endings of compressed files and archives the reader opens, which no output is."""


def _check_names(
    out: str,
    fmt: str | None,
    moves_table: str | None,
    *,
    rejects: str | None = None,
    dataset: bool = False,
    folder: bool = False,
) -> None:
    """Refuse an output whose extension says another format than the one written:
    OUT's against ``--to`` (*fmt*), a dataset directory's (*dataset*) against Parquet,
    a ``--split-by`` directory's (*folder*) against any, the moves table's against
    Parquet, and any output (the *rejects* file too) named as a compressed file or
    an archive, which none is.  A name without a known extension says nothing and is
    never refused.  An output that is a symbolic link is written to the file it
    leads to, whose name is checked too, against the format the name given chose
    (``out.jsonl -> round2.pdn`` is refused)."""
    _check_endings(out, fmt, moves_table, rejects=rejects, dataset=dataset, folder=folder)
    targets = {option: link_target(path) for option, path in _outputs(out, moves_table, rejects)}
    if not any(targets.values()):
        return
    try:
        _check_endings(
            targets["-o"] or out,
            fmt or _named(out),
            targets["--moves-table"] or moves_table,
            rejects=targets["--rejects"] or rejects,
            dataset=dataset,
            folder=folder,
        )
    except _Usage as exc:
        outputs = _outputs(out, moves_table, rejects)
        links = [f"{option} {printable(path or '')}" for option, path in outputs if targets[option]]
        raise _Usage(
            f"{', '.join(links)}: a symbolic link, written where it leads: {exc}"
        ) from None


def _outputs(
    out: str, moves_table: str | None, rejects: str | None
) -> list[tuple[str, str | None]]:
    """The outputs of a conversion, by option."""
    return [("-o", out), ("--moves-table", moves_table), ("--rejects", rejects)]


def _check_endings(
    out: str,
    fmt: str | None,
    moves_table: str | None,
    *,
    rejects: str | None = None,
    dataset: bool = False,
    folder: bool = False,
) -> None:
    """The checks of :func:`_check_names` on the names *out*, *moves_table* and
    *rejects*."""
    for option, path in _outputs(out, moves_table, rejects):
        if path is None or path == "-":
            continue
        ending = os.path.splitext(path.rstrip("/" + os.sep))[1].lower()
        if ending in _COMPRESSED:
            how = "write -o - and compress the stream" if option == "-o" else "compress it after"
            raise _Usage(
                f"{option} {printable(path)} names {_COMPRESSED[ending]}, but outputs are "
                f"written uncompressed ({how})"
            )
    named = _named(out)
    if named is not None:
        what = f"-o {printable(out)} names a {_FORMAT_NAMES[named]} file"
        if folder:
            raise _Usage(f"{what}, but --split-by writes a directory: give it no extension")
        if dataset and named != "parquet":
            raise _Usage(
                f"{what}, but a dataset directory is written as Parquet: give it no "
                "extension (or .parquet)"
            )
        if fmt is not None and fmt != named:
            raise _Usage(f"{what}, not {_FORMAT_NAMES[fmt]} (--to {fmt})")
    table = _named(moves_table)
    if table is not None and table != "parquet":
        raise _Usage(
            f"--moves-table {printable(moves_table or '')} names a {_FORMAT_NAMES[table]} "
            "file, but the moves table is written as Parquet"
        )


def _empty(name: str, issues: list[Issue], quiet: bool = False) -> None:
    """A file without games: its findings on stderr (with *quiet*, its errors only)."""
    for issue in issues:
        if quiet and issue.level is not Severity.ERROR:
            continue
        message = shown(issue.message)
        click.echo(f"{printable(name)}: {issue.level.value} {issue.code} {message}", err=True)


def _empty_quietly(name: str, issues: list[Issue]) -> None:
    """:func:`_empty` under ``--quiet``."""
    _empty(name, issues, quiet=True)


def _unreadable(entry: Found, quiet: bool = False) -> None:
    """A file that is not read (E14, E11, W39): on stderr (with *quiet*, an error only)."""
    level = CATALOGUE[entry.code].severity
    if quiet and level is not Severity.ERROR:
        return
    message = not_read_message(entry.code, entry.problem or "")
    click.echo(f"{entry.name}: {level.value} {entry.code} {shown(message)}", err=True)


def _unreadable_quietly(entry: Found) -> None:
    """:func:`_unreadable` under ``--quiet``."""
    _unreadable(entry, quiet=True)


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
    "these columns (variant, year; e.g. variant,year).",
)
@click.option(
    "--append",
    is_flag=True,
    help="Add this conversion's parts to a dataset directory (or --dask parts "
    "directory) that holds files already; without it such a directory is refused.",
)
@click.option(
    "--split-by",
    type=click.Choice(SPLIT_KEYS),
    default=None,
    help="Write OUT as a directory of one file per event, year, variant, player or "
    "input file (PDN, JSON or JSONL; Parquet: --partition-by).",
)
@click.option(
    "--dedupe",
    is_flag=True,
    help="Write the first copy of each game only (copies: as for pdn duplicates).",
)
@click.option(
    "--merge-tags",
    is_flag=True,
    help="With --dedupe: the kept copy gains the tags its copies agree on and it "
    "lacks (reads the inputs twice).",
)
@click.option(
    "--drop-prefixes",
    is_flag=True,
    help="With --dedupe: also drop live-feed snapshots, games whose moves begin a "
    "longer game of the same players and round of their event (W55; reads the inputs "
    "twice).",
)
@comparison_options
@click.option(
    "--repair",
    is_flag=True,
    help="Replace an illegal move by the one move that lets the game validate without "
    "error, with a comment saying what was written.",
)
@click.option("--strip-comments", is_flag=True, help="PDN: drop comments (keep [%...] commands).")
@click.option("--strip-variations", is_flag=True, help="PDN: write the main line only.")
@click.option(
    "--normalise-results",
    is_flag=True,
    help="PDN: Result tag and terminator both say the game's result in the GameType's style.",
)
@click.option(
    "--for",
    "for_program",
    type=click.Choice(sorted(TARGETS)),
    default=None,
    help="PDN: write what this program reads (GameType, squares, FEN, results, captures, "
    "tags), leaving out what it cannot read (docs/export.md).",
)
@filter_options
@jobs_option
@writer_quiet_option
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
    append: bool,
    split_by: str | None,
    dedupe: bool,
    merge_tags: bool,
    drop_prefixes: bool,
    moves_only: bool,
    prefix: int | None,
    repair: bool,
    strip_comments: bool,
    strip_variations: bool,
    normalise_results: bool,
    for_program: str | None,
    common: Common,
) -> None:
    """Convert PDN files (or pdn-tools JSON/JSONL) to PDN, JSON, JSONL or Parquet.

    PATH is a file, a folder (searched for *.pdn) or - for PDN on stdin.
    OUT ending in / (or an existing directory) is a Parquet dataset directory;
    with --split-by, OUT is a directory of one file per group.
    Exit status: 0 when every game was written and none written to OUT has an
    error, 1 when OUT holds a game with an error (use --rejects to set them
    apart) or a file found in a folder cannot be read, 2 for usage or input
    errors.
    """
    if common.dask is not None:
        require_cluster("convert", paths)
    files = find_files("convert", paths, common)
    collect = _Collect(
        StageOptions(
            repair=repair,
            keep=common.filter,
            dedupe=comparison(moves_only, prefix) if dedupe else None,
            merge_tags=merge_tags,
            drop_prefixes=drop_prefixes,
        ),
        split_by,
        common.events,
    )
    collect.for_program = for_program
    collect.quiet = common.quiet
    try:
        collect.check(dedupe, moves_only, prefix, paths, common.dask is not None)
        if common.dask is not None:
            counts = _convert_on_cluster(
                paths, files, out, fmt, rejects, moves_table,
                replace(common.read, keep_source=rejects is not None),
                common.rules,
                _Tables(with_record, partition_by, append),
                common.dask,
                collect.stages,
                quiet=common.quiet,
            )  # fmt: skip
        else:
            counts = _convert(
                paths, files, out, fmt, rejects, moves_table,
                CanonicalOptions(strip_comments, strip_variations, normalise_results, for_program),
                replace(common.read, keep_source=rejects is not None),
                common.rules,
                common.stdin_filename,
                _Tables(with_record, partition_by, append),
                jobs=usable_jobs(common.workers),
                collect=collect,
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
    if not common.quiet:
        click.echo(collect.summary(counts, out), err=True)
    sys.exit(1 if counts.errors_written or counts.unreadable else 0)


class _Collect:
    """The collection choices: the stages each game passes, and ``--split-by``."""

    def __init__(
        self,
        stages: StageOptions,
        split_by: str | None = None,
        events: EventRules | None = None,
    ) -> None:
        self.stages = stages
        self.split_by = split_by
        self.events = events or EventRules()
        """How events are formed (``--drop-prefixes``)."""
        self.files = 0
        """Files written by ``--split-by``."""
        self.for_program: str | None = None
        """``--for``: the program the PDN is written for."""
        self.quiet = False
        """``--quiet``: only errors about inputs on stderr."""

    def check(
        self,
        dedupe: bool,
        moves_only: bool,
        prefix: int | None,
        paths: tuple[str, ...],
        on_cluster: bool = False,
    ) -> None:
        """Refuse choices that do not go together."""
        if not dedupe:
            for name, given in (
                ("--merge-tags", self.stages.merge_tags),
                ("--drop-prefixes", self.stages.drop_prefixes),
                ("--moves-only", moves_only),
                ("--prefix", prefix is not None),
            ):
                if given:
                    raise _Usage(f"{name} goes with --dedupe")
        if self.stages.two_passes and "-" in paths:
            which = "--merge-tags" if self.stages.merge_tags else "--drop-prefixes"
            raise _Usage(f"{which} reads the inputs twice; standard input cannot be")
        if on_cluster:
            if self.for_program is not None:
                raise _Usage("--for writes PDN, which a --dask run does not write (use --jobs)")
            for name, given in (("--dedupe", dedupe), ("--split-by", self.split_by is not None)):
                if given:
                    raise _Usage(
                        f"{name} needs every game in one process, in input order; "
                        "it does not go with --dask (use --jobs)"
                    )

    def summary(self, counts: Counts, out: str) -> str:
        """The counts line: every game read is written, rejected, filtered out or
        dropped as a copy; repaired games are among those written."""
        stages = counts.stages
        written = f"{counts.written} written"
        if self.stages.repair:
            written += f" ({stages.repaired} repaired)"
        parts = [f"{counts.read} game(s) read", written, f"{counts.rejected} rejected"]
        if self.stages.keep is not None:
            parts.append(f"{stages.filtered} filtered out")
        if self.stages.dedupe is not None:
            parts.append(f"{stages.duplicates} duplicate(s) dropped")
        if self.stages.drop_prefixes:
            parts.append(f"{stages.snapshots} live-feed snapshot(s) dropped")
        line = ", ".join(parts)
        if self.stages.merge_tags:
            line += f"; {stages.tags_merged} tag(s) merged into kept copies"
        if self.split_by is not None:
            line += f"; {self.files} file(s) in {printable(out)}"
        if self.for_program is not None and counts.foreign:
            line += (
                f"; {counts.foreign} game(s) of an unknown variant or one "
                f"{self.for_program} does not play, or that its numbering cannot hold, "
                "written as canonical PDN"
            )
        if counts.not_written and out != "-":
            line += f"; {printable(out)} not written"
        return line


class _Tables:
    """The Parquet choices: the record column, a dataset's partition columns, and
    whether a directory of parts may be added to."""

    def __init__(
        self, with_record: bool = False, partition_by: str | None = None, append: bool = False
    ) -> None:
        self.with_record = with_record
        self.partition_by = partition_by
        self.append = append
        """``--append``: add to a dataset directory that holds files already."""

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
    collect: _Collect | None = None,
    dask: str | None = None,
) -> Counts:
    """Run the conversion; returns its counts.  *paths* are the inputs as given,
    *files* what they name (for the collision checks); *jobs* worker processes read,
    replay and stage the games, or the workers of the Dask cluster at *dask*, which
    return the rendered games to be written here (one output as with *jobs*)."""
    tables = tables or _Tables()
    collect = collect or _Collect(StageOptions())
    if tables.append and (collect.split_by is not None or tables.dataset(out) is None):
        raise _Usage("--append adds to a dataset directory (OUT/, --partition-by or --dask)")
    if collect.split_by is not None:
        return _split(paths, files, out, fmt, rejects, canonical, options, rules,
                      stdin_filename, tables, moves_table, collect, jobs)  # fmt: skip
    partition_by = tables.dataset(out)
    if partition_by is not None and fmt not in (None, "parquet"):
        raise _Usage("a dataset directory is written as Parquet only")
    _check_names(out, fmt, moves_table, rejects=rejects, dataset=partition_by is not None)
    target = (
        "parquet" if partition_by is not None else fmt or (format_of(out) if out != "-" else None)
    )
    if target is None:
        if out == "-":
            raise _Usage("writing to standard output needs --to FORMAT")
        raise _Usage(f"cannot tell the format of {out!r}; use --to {'|'.join(FORMATS)}")
    if moves_table is not None and target != "parquet":
        raise _Usage("--moves-table needs Parquet output")
    if canonical.target is not None and target != "pdn":
        raise _Usage("--for writes PDN for a program; the output is not PDN")
    if tables.with_record and target != "parquet":
        raise _Usage("--with-record needs Parquet output")
    if not files:
        raise _Usage(f"no input files found (no *.pdn files); {printable(out)} not written")
    named = {"-o": out, "--rejects": rejects, "--moves-table": moves_table}
    check_outputs(paths, [entry.path for entry in files], [(o, p) for o, p in named.items() if p])
    if partition_by is not None:
        _existing([out, moves_table], tables.append, collect.quiet)
    with Outputs() as outputs:
        sink: Sink
        if partition_by is not None:
            sink = DatasetSink(out, partition_by, moves_table, with_record=tables.with_record)
        elif target == "parquet":
            table = outputs.binary(moves_table) if moves_table is not None else None
            sink = ParquetSink(outputs.binary(out), table, with_record=tables.with_record)
        else:
            stream = outputs.text(out)
            sink = PdnSink(stream) if target == "pdn" else JsonSink(stream, target == "json")
        reject_sink = None
        if rejects is not None:
            reject_sink = RejectsSink(outputs.text(rejects))
        renderer = Renderer(
            target,
            canonical,
            moves=moves_table is not None,
            with_record=tables.with_record,
        )
        job = ConvertOptions(
            options, rules, renderer, rejects=rejects is not None, stages=collect.stages
        )
        elsewhere = _on_cluster(dask) if dask is not None else None
        counts = _passes(
            sink,
            reject_sink,
            job,
            files,
            jobs,
            stdin_filename,
            collect.events,
            elsewhere,
            quiet=collect.quiet,
        )
        if counts.read == 0 and counts.unreadable and partition_by is None:
            # Nothing was converted, for an input error (E11, E12, E14, E15): a run that
            # failed, which leaves the previous outputs as they were.
            outputs.discard()
            counts = replace(counts, not_written=True)
        return counts


def _existing(directories: list[str | None], append: bool, quiet: bool) -> None:
    """Refuse a dataset or parts directory that holds files already, unless *append*
    (:func:`~pdn_tools.export.dataset.check_new`), before anything is written; with
    *append*, say on standard error how many files the conversion adds to."""
    for directory in directories:
        if directory is None:
            continue
        count = check_new(Path(directory), append)
        if count and not quiet:
            click.echo(
                f"pdn convert: appending to {printable(directory)} ({count} existing file(s))",
                err=True,
            )


def _on_cluster(address: str) -> Elsewhere:
    """Convert on the Dask cluster at *address*, the pieces returned in input order
    (connected when the conversion starts, disconnected when it ends)."""

    def run(inputs: list[Input], job: ConvertOptions) -> Generator[Part, None, None]:
        from pdn_tools.run import cluster
        from pdn_tools.run.cluster_convert import converted_on_cluster

        with cluster.connect(address) as client:
            yield from converted_on_cluster(client, inputs, job)

    return run


def _passes(
    sink: Sink | SplitSink,
    rejects: RejectsSink | None,
    job: ConvertOptions,
    files: list[Found],
    jobs: int,
    stdin_filename: str | None,
    events: EventRules | None = None,
    elsewhere: Elsewhere | None = None,
    *,
    quiet: bool = False,
) -> Counts:
    """Read the inputs once (twice with ``--merge-tags`` or ``--drop-prefixes``: first
    to note what copies lend and which games are live-feed snapshots) into *sink* and
    *rejects*; close the sink, or abort it on failure."""
    snapshots: frozenset[tuple[int, int]] = frozenset()
    try:
        if job.stages.two_passes:
            lending = TagLending() if job.stages.merge_tags else None
            gathering = EventIndex(events) if job.stages.drop_prefixes else None
            first = Conversion(None, None, job.read, observing=lending, gathering=gathering)
            observe = replace(job, observe=True, events=events if gathering is not None else None)
            convert_inputs(files, observe, first, jobs=jobs)
            job = replace(job, lending=lending)
            if gathering is not None:
                results = assess(gathering, summaries=False).results
                gathering.close()
                snapshots = frozenset(p for result in results for p in result.snapshots)
        run = Conversion(
            sink,
            rejects,
            job.read,
            on_empty=_empty_quietly if quiet else _empty,
            on_unreadable=_unreadable_quietly if quiet else _unreadable,
            snapshots=snapshots,
        )
        convert_inputs(
            files,
            job,
            run,
            jobs=jobs,
            stdin=sys.stdin.buffer,
            stdin_name=stdin_filename,
            elsewhere=elsewhere,
        )
    except BaseException as exc:
        if isinstance(sink, (DatasetSink, SplitSink)):
            sink.abort()  # a dataset gets all of a conversion or nothing of it
        if isinstance(exc, ConvertInputError):
            raise _Usage(str(exc)) from None
        raise
    sink.close()
    return run.counts()


def _split(
    paths: tuple[str, ...],
    files: list[Found],
    out: str,
    fmt: str | None,
    rejects: str | None,
    canonical: CanonicalOptions,
    options: ReadOptions,
    rules: dict[str, Any],
    stdin_filename: str | None,
    tables: _Tables,
    moves_table: str | None,
    collect: _Collect,
    jobs: int,
) -> Counts:
    """``--split-by``: one file per group in the directory *out*."""
    assert collect.split_by is not None
    target = fmt or "pdn"
    if out == "-":
        raise _Usage("--split-by writes a directory, not standard output")
    if target == "parquet" or tables.partition_by is not None:
        raise _Usage("--split-by writes PDN, JSON or JSONL files; Parquet datasets are "
                     "split with --partition-by")  # fmt: skip
    if moves_table is not None or tables.with_record:
        raise _Usage(f"{'--moves-table' if moves_table else '--with-record'} needs Parquet output")
    if canonical.target is not None and target != "pdn":
        raise _Usage("--for writes PDN for a program; the output is not PDN")
    if os.path.lexists(out) and not os.path.isdir(out):
        raise _Usage(f"--split-by writes a directory, and {printable(out)} is a file")
    _check_names(out, None, None, rejects=rejects, folder=True)
    if not files:
        raise _Usage(f"no input files found (no *.pdn files); {printable(out)} not written")
    named = [("-o", out)] + ([("--rejects", rejects)] if rejects else [])
    collisions = check_outputs(paths, [entry.path for entry in files], named, folders=("-o",))
    rejected = collisions.output("--rejects", rejects) if rejects is not None else None

    def check(path: str) -> None:
        """Each group file, before it is opened: not an input, not standard input's
        file, not the rejects file."""
        collisions.check("-o", path)
        if rejected is not None and rejected.same(collisions.output("-o", path)):
            raise OutputCollision(f"-o {printable(path)} and --rejects are the same file")

    made = not os.path.isdir(out)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise OutputError(printable(out), exc.errno, exc.strerror or str(exc)) from None
    try:
        with Outputs() as outputs:

            def make(stream: IO[str]) -> Sink:
                if target == "pdn":
                    return PdnSink(stream)
                return JsonSink(stream, target == "json")

            sink = SplitSink(out, "." + target, outputs, make, check=check)
            reject_sink = RejectsSink(outputs.text(rejects)) if rejects is not None else None
            job = ConvertOptions(
                options,
                rules,
                Renderer(target, canonical),
                rejects=rejects is not None,
                stages=collect.stages,
                split_by=collect.split_by,
            )
            counts = _passes(
                sink,
                reject_sink,
                job,
                files,
                jobs,
                stdin_filename,
                collect.events,
                quiet=collect.quiet,
            )
            collect.files = sink.written
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                os.rmdir(out)  # only if the failed run left it empty
        raise
    return counts


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
    stages: StageOptions | None = None,
    *,
    quiet: bool = False,
) -> Counts:
    """``--dask``: the workers of the cluster at *address* write OUT as a directory of
    parts (:mod:`pdn_tools.run.cluster_convert`); the same counts as :func:`_convert`."""
    from pdn_tools.run import cluster
    from pdn_tools.run.cluster_convert import ConvertError, convert_on_cluster, prepare_target

    kind = fmt or format_of(out) or "parquet"
    if out == "-":
        raise _Usage("on a Dask cluster OUT is a directory of parts, not standard output")
    _check_names(out, fmt, moves_table, rejects=rejects, dataset=bool(tables.partition_by))
    if not files:
        raise _Usage(f"no input files found (no *.pdn files); {printable(out)} not written")
    partition_by = parse_partitioning(tables.partition_by) if tables.partition_by else ()
    named = {"-o": out, "--rejects": rejects, "--moves-table": moves_table}
    check_outputs(paths, [entry.path for entry in files], [(o, p) for o, p in named.items() if p])
    _existing([out, moves_table], tables.append, quiet)
    try:
        target = prepare_target(
            out,
            kind,
            moves=moves_table,
            partition_by=partition_by,
            with_record=tables.with_record,
            append=tables.append,
        )
    except ConvertError as exc:
        raise _Usage(str(exc)) from None
    job = ConvertOptions(
        options,
        rules,
        Renderer(kind, moves=moves_table is not None, with_record=tables.with_record),
        rejects=rejects is not None,
        stages=stages or StageOptions(),
    )
    with Outputs() as outputs:
        reject_sink = RejectsSink(outputs.text(rejects)) if rejects is not None else None
        run = Conversion(
            None,
            reject_sink,
            options,
            on_empty=_empty_quietly if quiet else _empty,
            on_unreadable=_unreadable_quietly if quiet else _unreadable,
        )
        try:
            with cluster.connect(address) as client:
                convert_on_cluster(client, files, job, target, run)
        except (ConvertError, ConvertInputError, cluster.ClusterError) as exc:
            raise _Usage(str(exc)) from None
    return run.counts()
