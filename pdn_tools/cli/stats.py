"""``pdn stats``: what a collection holds, per file and in total."""

from __future__ import annotations

import sys

import click

from pdn_tools.cli.options import (
    check_options,
    checking_options,
    jobs_or_default,
    selection,
    selection_options,
)
from pdn_tools.cli.run import Run
from pdn_tools.diagnostics import Severity
from pdn_tools.report.base import game_report
from pdn_tools.report.stats import StatsReport


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text blocks for people, one JSON document for tools.",
)
@click.option("--total-only", is_flag=True, help="Text format: only the total, no block per file.")
@selection_options
@checking_options
def stats(
    paths: tuple[str, ...],
    fmt: str,
    total_only: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    syntax_only: bool,
    jobs: int | None,
    quiet: bool,
    strict: bool,
    encoding: str | None,
    variant: str | None,
    max_game_size: int,
    max_depth: int,
    stdin_filename: str | None,
) -> None:
    """Count games, plies, results, variants and finding codes of PDN files.

    PATH is a file, a directory (searched for *.pdn) or - for stdin.  Games are
    read and replayed as by pdn validate, so the codes counted are the same.
    Exit status 0, or 2 for usage or input errors.
    """
    options = check_options(
        strict=strict,
        encoding=encoding,
        variant=variant,
        max_game_size=max_game_size,
        max_depth=max_depth,
        syntax_only=syntax_only,
    )
    run = Run(
        "stats",
        paths,
        options,
        jobs=jobs_or_default(jobs),
        stdin_filename=stdin_filename,
        quiet=quiet,
    )
    chosen = selection(select, ignore)
    report = StatsReport(sys.stdout, fmt, total_only)
    for checked in run.games():
        report.add(game_report(checked, chosen, Severity.ERROR))
    report.close()
