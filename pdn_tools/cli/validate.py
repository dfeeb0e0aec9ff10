"""``pdn validate``: read PDN files and report every finding, game by game."""

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
from pdn_tools.report.base import Totals, game_report
from pdn_tools.report.formats import FORMATS, HUMAN, make_reporter


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text and github for people, jsonl/json/sarif/junit for tools.",
)
@click.option(
    "--info", "show_info", is_flag=True, help="Also list info-level findings in text and github."
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning"]),
    default="error",
    show_default=True,
    help="Least severity of a finding that makes the exit status 1.",
)
@click.option(
    "--exit-zero", is_flag=True, help="Exit 0 even when games have errors (2 still means 2)."
)
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
    totals = Totals(files=run.files)
    for checked in run.games():
        game = game_report(checked, chosen, level)
        totals.add(game)
        reporter.add(game)
    reporter.close(totals)
    out.flush()
    if fmt in HUMAN and not quiet:
        click.echo(totals.line(), err=True)
    sys.exit(1 if totals.failed and not exit_zero else 0)
