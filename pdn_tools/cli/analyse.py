"""``pdn analyse``: annotate every game of a collection with an engine's analysis.

Each game is read, replayed and annotated ply by ply (:mod:`pdn_tools.analysis`):
the evaluation after every move and the best line as comments (``[%eval …]``,
``[%best …]``), blunders flagged by a threshold.  The games are written as
``pdn convert`` writes them — canonical PDN, JSON, JSON Lines or Parquet (the moves
table then has ``eval_cp`` and ``best_move``) — through the same run: worker
processes with ``--jobs`` or the workers of a Dask cluster with ``--dask`` (which
return the annotated games to be written here, in input order), outputs that appear
only when complete, colliding paths refused before anything is written.  The engine
is the built-in searcher with a node budget (the same output on every run, with any
``--jobs`` and on any cluster), or any Hub engine (``--engine "scan hub"``), started
once per worker process (on a cluster by each worker: the command must run there).
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace

import click

from pdn_tools.analysis.annotate import BLUNDER_THRESHOLD, AnalysisOptions
from pdn_tools.analysis.engines import EngineChoice
from pdn_tools.analysis.plausibility import PlausibilityOptions
from pdn_tools.atomic import OutputError, printable
from pdn_tools.cli.convert import _Collect, _convert, _Tables, _Usage
from pdn_tools.cli.options import (
    Common,
    configured,
    dask_option,
    discovery_options,
    filter_options,
    jobs_option,
    plausibility_threshold_option,
    reading_options,
    writer_quiet_option,
)
from pdn_tools.cli.run import find_files, require_cluster
from pdn_tools.export.canonical import CanonicalOptions
from pdn_tools.export.dataset import DatasetError
from pdn_tools.run.collisions import OutputCollision
from pdn_tools.run.convert import Counts
from pdn_tools.run.parallel import usable_jobs
from pdn_tools.run.paths import InputError
from pdn_tools.run.stages import StageOptions
from pdn_tools.search.hub import HubError

DEFAULT_NODES = 2000
"""Nodes searched per position by the built-in searcher when no budget is given."""


def _param(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for value in values:
        name, sep, setting = value.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{value!r} is not NAME=VALUE", param_hint="--engine-param")
        pairs.append((name, setting))
    return tuple(pairs)


MAX_ENGINE_TIMEOUT = 86_400.0
"""The longest --engine-timeout: a day.  A wait is always bounded; an endless one
(``inf``) is no timeout, and the platform's clock cannot count one of 1e300 s."""


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """Refuse ``nan``, which every range check lets through (no comparison holds)
    and which would turn the wait for an engine's answer into an endless one."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds", ctx, param)
    return value


@click.command(short_help="Annotate games with an engine: evaluations, best lines, blunders.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    metavar="OUT",
    help="Output file (- for stdout); the format from its extension or --to.",
)
@click.option(
    "--to",
    "fmt",
    type=click.Choice(["pdn", "json", "jsonl", "parquet"]),
    default=None,
    help="Output format (default: from OUT's extension).",
)
@click.option(
    "--moves-table",
    metavar="FILE",
    default=None,
    help="Parquet: also write the moves table (with eval_cp and best_move) to FILE.",
)
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    default=None,
    help=f"Nodes the built-in searcher spends per position (default {DEFAULT_NODES}).",
)
@click.option(
    "--depth",
    type=click.IntRange(min=1, max=64),
    default=None,
    help="Search every position to this depth instead of a node budget.",
)
@click.option(
    "--engine",
    "engine",
    metavar="COMMAND",
    default=None,
    help='A Hub engine to analyse with instead of the built-in searcher ("scan hub").',
)
@click.option(
    "--engine-param",
    "engine_params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A parameter of the Hub engine (set-param); repeat for several.",
)
@click.option(
    "--engine-timeout",
    type=click.FloatRange(min=0.1, max=MAX_ENGINE_TIMEOUT),
    default=60.0,
    show_default=True,
    callback=_finite,
    help="Longest wait, in seconds, for each answer of a Hub engine (at most a day).",
)
@click.option(
    "--blunder",
    type=click.IntRange(min=1),
    default=BLUNDER_THRESHOLD,
    show_default=True,
    metavar="CENTIMEN",
    help="Flag a move that loses at least this much against the best move (a man is 100).",
)
@click.option(
    "--plausibility/--no-plausibility",
    default=True,
    show_default=True,
    help="Doubt legal moves the engine finds implausible (W70, as validate --plausibility).",
)
@plausibility_threshold_option
@filter_options
@jobs_option
@writer_quiet_option
@dask_option
@discovery_options
@reading_options
@configured
def analyse(
    paths: tuple[str, ...],
    out: str,
    fmt: str | None,
    moves_table: str | None,
    nodes: int | None,
    depth: int | None,
    engine: str | None,
    engine_params: tuple[str, ...],
    engine_timeout: float,
    blunder: int,
    plausibility: bool,
    plausibility_threshold: int | None,
    common: Common,
) -> None:
    """Annotate the games of PDN files with an engine's analysis.

    Every ply gets a comment: the evaluation after the move ([%eval +0.35], men from
    White's side; #N a forced win in N moves), the engine's move in the position
    before it ([%best 32-28]), "blunder" when the move lost at least --blunder
    centi-men, and the best line.  PATH is a file, a folder or - for stdin.  Exit
    status: 0 when no game written has an error, 1 when one has, 2 for usage, input
    and engine errors.
    """
    if nodes is not None and depth is not None:
        click.echo("pdn analyse: --nodes and --depth exclude each other", err=True)
        sys.exit(2)
    choice = EngineChoice(
        nodes=nodes if nodes is not None or depth is not None else DEFAULT_NODES,
        depth=depth,
        command=engine,
        params=_param(engine_params),
        timeout=engine_timeout,
    )
    if engine is not None and nodes is None and depth is None:
        choice = replace(choice, nodes=None, depth=None)
    if common.dask is not None:
        require_cluster("analyse", paths)
    files = find_files("analyse", paths, common)
    doubt = None
    if plausibility:
        doubt = PlausibilityOptions(choice, plausibility_threshold, common.read.variant)
    annotate = AnalysisOptions(choice, blunder, common.read.variant, doubt)
    collect = _Collect(StageOptions(keep=common.filter, annotate=annotate))
    collect.quiet = common.quiet
    engine_errors: tuple[type[Exception], ...] = (HubError, *_cluster_errors(common.dask))
    try:
        counts = _convert(
            paths, files, out, fmt, None, moves_table,
            CanonicalOptions(),
            common.read,
            common.rules,
            common.stdin_filename,
            _Tables(),
            jobs=usable_jobs(common.workers) if common.dask is None else 1,
            collect=collect,
            dask=common.dask,
        )  # fmt: skip
    except (_Usage, InputError, OutputCollision, DatasetError) as exc:
        click.echo(f"pdn analyse: {exc}", err=True)
        sys.exit(2)
    except engine_errors as exc:
        click.echo(f"pdn analyse: {exc}", err=True)
        sys.exit(2)
    except OutputError:
        raise
    except OSError as exc:
        where = f"{printable(exc.filename)}: " if isinstance(exc.filename, str) else ""
        click.echo(f"pdn analyse: {where}{exc.strerror or exc}", err=True)
        sys.exit(2)
    if not common.quiet:
        click.echo(_summary(collect, counts), err=True)
    sys.exit(1 if counts.errors_written or counts.unreadable else 0)


def _cluster_errors(address: str | None) -> tuple[type[Exception], ...]:
    """The errors that end a run on a Dask cluster (none without one: Dask is then
    not imported)."""
    if address is None:
        return ()
    from pdn_tools.run import cluster
    from pdn_tools.run.cluster_convert import ConvertError

    return (cluster.ClusterError, ConvertError)


def _summary(collect: _Collect, counts: Counts) -> str:
    stages = counts.stages
    line = (
        f"{counts.read} game(s) read, {counts.written} written, "
        f"{stages.annotated} ply(ies) annotated, {stages.blunders} blunder(s) flagged"
    )
    if collect.stages.annotate is not None and collect.stages.annotate.plausibility is not None:
        line += f", {stages.doubted} move(s) possibly mis-recorded (W70)"
    if collect.stages.keep is not None:
        line += f", {stages.filtered} filtered out"
    return line
