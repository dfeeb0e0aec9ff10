"""``pdn validate``: read PDN files and report every finding, game by game."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from pdn_tools.cli.options import (
    check_options,
    checking_options,
    jobs_or_default,
    selection,
    selection_options,
    verdict_options,
)
from pdn_tools.cli.run import Run
from pdn_tools.diagnostics import Severity
from pdn_tools.report.base import Reporter, Totals, game_report
from pdn_tools.report.formats import DETAILED, FORMATS, HUMAN, make_reporter
from pdn_tools.report.selection import Selection


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text, github and html for people, jsonl/json/sarif/junit for tools.",
)
@verdict_options
@selection_options
@checking_options
def validate(
    paths: tuple[str, ...],
    fmt: str,
    show_info: bool,
    fail_on: str,
    exit_zero: bool,
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
    """Check PDN files: a file, a directory (searched for *.pdn) or - for stdin.

    Exit status: 0 when no game has an error (with --fail-on warning: nor a
    warning), 1 when one has, 2 for usage or input errors.
    """
    options = check_options(
        strict=strict,
        encoding=encoding,
        variant=variant,
        max_game_size=max_game_size,
        max_depth=max_depth,
        syntax_only=syntax_only,
    )
    if fmt in DETAILED:
        options = replace(options, detail=True)
    run = Run(
        "validate",
        paths,
        options,
        jobs=jobs_or_default(jobs),
        stdin_filename=stdin_filename,
        quiet=quiet,
    )
    level = Severity(fail_on)
    chosen = selection(select, ignore)
    out = sys.stdout
    reporter = make_reporter(fmt, out, show_info=show_info, fail_on=level)
    totals = report_games(run, reporter, chosen, level)
    out.flush()
    if fmt in HUMAN and not quiet:
        click.echo(totals.line(), err=True)
    sys.exit(1 if totals.failed and not exit_zero else 0)


def report_games(run: Run, reporter: Reporter, chosen: Selection, level: Severity) -> Totals:
    """Check every game of *run*, tell *reporter* what is reported of each, close it
    and return the totals (the exit status follows from ``totals.failed``)."""
    totals = Totals(files=run.files)
    for checked in run.games():
        game = game_report(checked, chosen, level)
        totals.add(game)
        reporter.add(game)
    reporter.close(totals)
    return totals
