"""``pdn validate``: read PDN files and report every finding, game by game."""

from __future__ import annotations

import sys

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
from pdn_tools.cli.terminal import colour_wanted, stdout
from pdn_tools.diagnostics import Severity
from pdn_tools.report.base import Totals, game_report
from pdn_tools.report.formats import FORMATS, HUMAN, make_reporter


@click.command(short_help="Check PDN files and report every finding.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="The report format: text and github for people, jsonl, json, sarif and junit for tools.",
)
@click.option(
    "--info", "show_info", is_flag=True, help="Also list info-level findings in text and github."
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning"]),
    default="error",
    show_default=True,
    help="The least severity of a finding that makes the exit status 1.",
)
@click.option(
    "--exit-zero", is_flag=True, help="Exit 0 even when games have errors (2 still means 2)."
)
@selection_options
@checking_options
@discovery_options
@reading_options
@configured
def validate(
    paths: tuple[str, ...],
    fmt: str,
    show_info: bool,
    fail_on: str,
    exit_zero: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    common: Common,
) -> None:
    """Check PDN files: a file, a folder (searched for *.pdn) or - for stdin.

    Exit status: 0 when no game has an error (with --fail-on warning: nor a
    warning), 1 when one has, 2 for usage or input errors.
    """
    run = Run("validate", paths, common)
    level = Severity(fail_on)
    chosen = selection(select, ignore)
    out = stdout()
    colour = fmt == "text" and colour_wanted(common.color, out)
    reporter = make_reporter(fmt, out, show_info=show_info, fail_on=level, colour=colour)
    totals = Totals(files=run.files)
    for checked in run.games():
        game = game_report(checked, chosen, level)
        totals.add(game)
        reporter.add(game)
    reporter.close(totals)
    out.flush()
    if fmt in HUMAN and not common.quiet:
        click.echo(totals.line(), err=True)
    sys.exit(1 if totals.failed and not exit_zero else 0)
