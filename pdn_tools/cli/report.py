"""``pdn report``: check PDN files and write the HTML report with a board per finding."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from pdn_tools.atomic import Outputs
from pdn_tools.cli.options import (
    Common,
    checking_options,
    configured,
    discovery_options,
    filter_options,
    page_verdict_options,
    reading_options,
    selection,
    selection_options,
)
from pdn_tools.cli.run import Run, fail
from pdn_tools.cli.validate import TABLES, events_wanted, report_games
from pdn_tools.diagnostics import Severity
from pdn_tools.report.html import HtmlReporter
from pdn_tools.run.collisions import OutputCollision, check_kinds, check_outputs


@click.command(short_help="Write an HTML report with a board for every finding.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="FILE",
    help="The HTML file to write ('-': standard output); it appears only when complete.",
)
@page_verdict_options
@selection_options
@filter_options
@checking_options
@discovery_options
@reading_options
@configured
def report(
    paths: tuple[str, ...],
    output: str,
    show_info: bool,
    fail_on: str,
    exit_zero: bool,
    no_group: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    common: Common,
) -> None:
    """Check PDN files and write one self-contained HTML page: a summary, and
    every finding with the board before its move (the move as recorded in red,
    the repair or the legal alternatives in green), filters and keyboard
    navigation.  The page makes no request and opens from a file.

    Findings, --select/--ignore/--fail-on and the exit status are those of
    pdn validate: 0 when no game fails, 1 when one does, 2 for usage or input
    errors (the output file is then not written).
    """
    chosen = selection(select, ignore)
    options = replace(common.check, detail=True, selection=chosen)
    run = Run("report", paths, common, options, events=events_wanted(common, chosen, TABLES))
    level = Severity(fail_on)
    try:
        check_outputs(paths, run.found, [("-o", output)])
        check_kinds([("-o", output, "an HTML page", (".html", ".htm"))])
    except OutputCollision as exc:
        fail("report", str(exc))
    try:
        with Outputs() as outputs:
            reporter = HtmlReporter(
                outputs.text(output), show_info=show_info, fail_on=level, group=not no_group
            )
            totals = report_games(run, reporter, chosen, level)
    except OSError as exc:
        fail("report", f"cannot write {output}: {exc.strerror or exc}")
    if not common.quiet:
        click.echo(totals.line(), err=True)
        for line in totals.code_lines():
            click.echo(line, err=True)
        if output != "-":
            click.echo(f"pdn report: wrote {output}", err=True)
    sys.exit(1 if totals.failing and not exit_zero else 0)
