"""``pdn convert``: read game collections and write them as canonical PDN, JSON,
JSON Lines or Parquet, losing no game, move or comment.

Every game read is replayed (for its findings and its resolved moves) and written,
with its issues, to the output, or with ``--rejects`` to the rejects file when it
has an error.  The counts go to stderr; written + rejected always equals read.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from typing import IO

import click

from pdn_tools.cli.options import reading_options
from pdn_tools.diagnostics import Issue, escalate
from pdn_tools.export.canonical import CanonicalOptions
from pdn_tools.export.dataset import DatasetError, parse_partitioning
from pdn_tools.export.from_json import JsonInputError, read_json
from pdn_tools.export.sinks import (
    FORMATS,
    DatasetSink,
    Exported,
    JsonSink,
    ParquetSink,
    PdnSink,
    RejectsSink,
    Sink,
    format_of,
)
from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.reader import FileReport, read_games
from pdn_tools.replay import ReplayOptions, ReplayResult, replay_game
from pdn_tools.replay.resolve import Resolution, resolve
from pdn_tools.run.paths import InputError, check, expand

_JSON_INPUT = (".json", ".jsonl", ".ndjson")


class _Usage(Exception):
    """A usage or input problem: one line on stderr, exit status 2."""


def _replay(game: Game, variant: str | None, strict: bool, from_json: bool) -> ReplayResult | None:
    """Replay *game*; a crash costs the game an E13, never the run.

    A game read from JSON already carries its findings: it is replayed for its
    resolved moves only, and its issues stay as stored.
    """
    kept = game.issues
    if from_json:
        game.issues = []
    known = len(game.issues)
    try:
        result: ReplayResult | None = replay_game(game, ReplayOptions(variant=variant))
    except Exception as exc:
        result = None
        game.add_issue(
            Issue(
                "E13",
                f"internal error while replaying: {exc!r}",
                game.span.start_line,
                game.span.start_column,
            )
        )
    if from_json:
        game.issues = kept
    elif strict:
        escalate(game.issues[known:])
    return result


def _resolution(game: Game, replay: ReplayResult | None, variant: str | None) -> Resolution:
    try:
        return resolve(game, replay, variant)
    except Exception as exc:  # the moves are then written as read
        game.add_issue(
            Issue(
                "E13",
                f"internal error while resolving moves for export: {exc!r}",
                game.span.start_line,
                game.span.start_column,
            )
        )
        return Resolution()


def _lines_of(path: str, encoding: str, start: int, end: int) -> str:
    """Lines *start*..*end* (1-based, inclusive) of a file, decoded as it was read."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        encoding = "utf-8"
    out: list[str] = []
    with open(path, encoding=encoding, errors="replace", newline=None) as handle:
        for number, line in enumerate(handle, 1):
            if number > end:
                break
            if number >= start:
                out.append(line)
    return "".join(out)


class _Run:
    """One conversion: the sinks, the counts and the routing of each game."""

    def __init__(
        self, sink: Sink, rejects: RejectsSink | None, options: ReadOptions, variant: str | None
    ) -> None:
        self.sink = sink
        self.rejects = rejects
        self.options = options
        self.variant = variant
        self.read = 0
        self.written = 0
        self.rejected = 0
        self.errors_written = 0

    def route(self, game: Game, from_json: bool, deferred: list[Game]) -> None:
        """Replay *game* and write it to the output or to the rejects file."""
        self.read += 1
        replay = _replay(game, self.variant, self.options.strict, from_json)
        item = Exported(game, replay, _resolution(game, replay, self.variant))
        if self.rejects is not None and game.status == "error":
            self.rejected += 1
            if game.source is None and not from_json:
                deferred.append(game)  # text not kept (too large): copied from the file
            else:
                self.rejects.write(item)
            return
        self.written += 1
        if game.status == "error":
            self.errors_written += 1
        self.sink.write(item)

    def pdn_file(self, path: str, stdin_name: str | None) -> None:
        name = (stdin_name or "<stdin>") if path == "-" else path
        report = FileReport(name)
        source = sys.stdin.buffer if path == "-" else path
        deferred: list[Game] = []
        for game in read_games(source, self.options, name=name, report=report):
            self.route(game, False, deferred)
        for game in deferred:
            assert self.rejects is not None
            if path == "-":
                self.rejects.write(Exported(game, None, Resolution()))
            else:
                span = game.span
                self.rejects.write_text(
                    _lines_of(path, report.encoding, span.start_line, span.end_line)
                )
        if report.games == 0:
            for issue in report.issues:
                click.echo(f"{name}: {issue.level.value} {issue.code} {issue.message}", err=True)

    def json_file(self, path: str) -> None:
        for game in read_json(path):
            self.route(game, True, [])


def _inputs(paths: tuple[str, ...]) -> Iterator[str]:
    check(paths)
    yield from expand(paths)


def _open_text(out: str, stack: ExitStack) -> IO[str]:
    if out == "-":
        wrapper = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
        stack.callback(wrapper.detach)
        stack.callback(wrapper.flush)
        return wrapper
    return stack.enter_context(open(out, "w", encoding="utf-8", newline="\n"))


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


@click.command()
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
@reading_options
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
    strict: bool,
    encoding: str | None,
    variant: str | None,
    max_game_size: int,
    max_depth: int,
    stdin_filename: str | None,
) -> None:
    """Convert PDN files (or pdn-tools JSON/JSONL) to PDN, JSON, JSONL or Parquet.

    PATH is a file, a directory (searched for *.pdn) or - for PDN on stdin.
    OUT ending in / (or an existing directory) is a Parquet dataset directory.
    Exit status: 0 when every game was written and none written to OUT has an
    error, 1 when OUT holds a game with an error (use --rejects to set them
    apart), 2 for usage or input errors.
    """
    try:
        counts = _convert(
            paths, out, fmt, rejects, moves_table,
            CanonicalOptions(strip_comments, strip_variations, normalise_results),
            ReadOptions(
                strict=strict, encoding=encoding, variant=variant,
                max_game_chars=max_game_size, max_depth=max_depth, keep_source=rejects is not None,
            ),
            stdin_filename,
            _Tables(with_record, partition_by),
        )  # fmt: skip
    except (_Usage, InputError, DatasetError) as exc:
        click.echo(f"pdn convert: {exc}", err=True)
        sys.exit(2)
    except OSError as exc:
        click.echo(f"pdn convert: {exc.filename or ''}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    read, written, rejected, errors_written = counts
    click.echo(f"{read} game(s) read, {written} written, {rejected} rejected", err=True)
    sys.exit(1 if errors_written else 0)


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
    out: str,
    fmt: str | None,
    rejects: str | None,
    moves_table: str | None,
    canonical: CanonicalOptions,
    options: ReadOptions,
    stdin_filename: str | None,
    tables: _Tables | None = None,
) -> tuple[int, int, int, int]:
    """Run the conversion; returns (read, written, rejected, errors written)."""
    tables = tables or _Tables()
    if options.encoding is not None:
        try:
            codecs.lookup(options.encoding)
        except LookupError:
            raise _Usage(f"unknown encoding {options.encoding!r}") from None
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
    files = list(_inputs(paths))
    for path in files:
        for other in (out, rejects, moves_table):
            if other is not None and other != "-" and path != "-" and _same_file(path, other):
                raise _Usage(f"{other}: is also an input file")
    with ExitStack() as stack:
        sink: Sink
        if partition_by is not None:
            sink = DatasetSink(out, partition_by, moves_table, with_record=tables.with_record)
        elif target == "parquet":
            binary = sys.stdout.buffer if out == "-" else out
            parquet = ParquetSink(binary, moves_table, with_record=tables.with_record)
            sink = parquet
        else:
            stream = _open_text(out, stack)
            sink = (
                PdnSink(stream, canonical)
                if target == "pdn"
                else JsonSink(stream, target == "json")
            )
        reject_sink = None
        if rejects is not None:
            reject_sink = RejectsSink(_open_text(rejects, stack))
        run = _Run(sink, reject_sink, options, options.variant)
        done = False
        try:
            for path in files:
                if path != "-" and path.lower().endswith(_JSON_INPUT):
                    try:
                        run.json_file(path)
                    except (JsonInputError, ValueError, KeyError, TypeError) as exc:
                        raise _Usage(f"{path}: not pdn-tools JSON: {exc}") from None
                else:
                    run.pdn_file(path, stdin_filename)
            done = True
        finally:
            if done or not isinstance(sink, DatasetSink):
                sink.close()
            else:
                sink.abort()  # a dataset gets all of a conversion or nothing of it
    return run.read, run.written, run.rejected, run.errors_written
