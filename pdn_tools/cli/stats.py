"""``pdn stats``: what a collection holds, per file and in total."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from pdn_tools.cli.options import (
    Common,
    checking_options,
    comparison,
    comparison_options,
    configured,
    discovery_options,
    filter_options,
    reading_options,
    selection,
    selection_options,
)
from pdn_tools.cli.run import Run
from pdn_tools.cli.terminal import stdout
from pdn_tools.diagnostics import Severity
from pdn_tools.report.base import game_report
from pdn_tools.report.stats import StatsReport


@click.command(short_help="Count games, results, variants, producers and finding codes.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Text blocks for people, or one JSON document for tools.",
)
@click.option("--total-only", is_flag=True, help="Text format: only the total, no block per file.")
@comparison_options
@selection_options
@filter_options
@checking_options
@discovery_options
@reading_options
@configured
def stats(
    paths: tuple[str, ...],
    fmt: str,
    total_only: bool,
    moves_only: bool,
    prefix: int | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    common: Common,
) -> None:
    """Count games, plies, duplicates, results, variants and finding codes of PDN
    files.

    PATH is a file, a folder (searched for *.pdn) or - for stdin.  Games are
    read and replayed as by pdn validate, so the codes counted are the same.
    Exit status 0, 1 when a game or file has an error (as pdn validate), or 2
    for usage or input errors.
    """
    chosen = selection(select, ignore)
    options = replace(common.check, selection=chosen, comparison=comparison(moves_only, prefix))
    run = Run("stats", paths, common, options)
    report = StatsReport(stdout(), fmt, total_only, compared=not options.syntax_only)
    for checked in run.games():
        report.add(game_report(checked, chosen, Severity.ERROR), checked.key)
    report.close(run.files, run.filtered if run.filtering else None)
    sys.exit(1 if report.total.severities["error"] else 0)
