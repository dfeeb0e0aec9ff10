"""``pdn stats``: what a collection holds, per file and in total."""

from __future__ import annotations

import click

from pdn_tools.cli.options import (
    Common,
    checking_options,
    configured,
    discovery_options,
    reading_options,
    selection,
    selection_options,
)
from pdn_tools.cli.run import Run
from pdn_tools.cli.terminal import stdout
from pdn_tools.diagnostics import Severity
from pdn_tools.report.base import game_report
from pdn_tools.report.stats import StatsReport


@click.command(short_help="Count games, plies, results, variants and finding codes.")
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
@selection_options
@checking_options
@discovery_options
@reading_options
@configured
def stats(
    paths: tuple[str, ...],
    fmt: str,
    total_only: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    common: Common,
) -> None:
    """Count games, plies, results, variants and finding codes of PDN files.

    PATH is a file, a folder (searched for *.pdn) or - for stdin.  Games are
    read and replayed as by pdn validate, so the codes counted are the same.
    Exit status 0, or 2 for usage or input errors.
    """
    run = Run("stats", paths, common)
    chosen = selection(select, ignore)
    report = StatsReport(stdout(), fmt, total_only)
    for checked in run.games():
        report.add(game_report(checked, chosen, Severity.ERROR))
    report.close()
