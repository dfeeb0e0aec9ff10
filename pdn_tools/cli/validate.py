"""``pdn validate``: read PDN files and report every finding, game by game."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from pdn_tools.cli.options import (
    Common,
    checking_options,
    configured,
    dask_option,
    discovery_options,
    filter_options,
    plausibility_threshold_option,
    reading_options,
    selection,
    selection_options,
    verdict_options,
)
from pdn_tools.cli.run import Run
from pdn_tools.cli.terminal import colour_wanted, stdout
from pdn_tools.collection.events.results import Choose
from pdn_tools.diagnostics import EVENT_CODES, Severity
from pdn_tools.report.base import Reporter, Totals, game_report
from pdn_tools.report.formats import DETAILED, FORMATS, HUMAN, make_reporter
from pdn_tools.report.selection import Selection
from pdn_tools.run.events import EventGathering

PLAUSIBILITY_NODES = 1000
"""``--plausibility-nodes`` by default."""


@click.command(short_help="Check PDN files and report every finding.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="The report format: text, github and html for people; jsonl, json, sarif and junit "
    "for tools.",
)
@click.option(
    "--plausibility",
    is_flag=True,
    help="Also doubt legal moves an engine finds implausible: a move a slip of the pen "
    "explains, where the recorded moves from it on lose far less with the slip undone "
    "(W70; slow).",
)
@plausibility_threshold_option
@click.option(
    "--plausibility-nodes",
    type=click.IntRange(min=1),
    default=PLAUSIBILITY_NODES,
    show_default=True,
    metavar="N",
    help="Nodes the built-in searcher spends on each position for --plausibility.",
)
@verdict_options
@selection_options
@filter_options
@checking_options
@discovery_options
@reading_options
@dask_option
@configured
def validate(
    paths: tuple[str, ...],
    fmt: str,
    show_info: bool,
    fail_on: str,
    exit_zero: bool,
    no_group: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    plausibility: bool,
    plausibility_threshold: int | None,
    plausibility_nodes: int,
    common: Common,
) -> None:
    """Check PDN files: a file, a folder (searched for *.pdn) or - for stdin.

    Exit status: 0 when no game has an error (with --fail-on warning: nor a
    warning), 1 when one has, 2 for usage or input errors.
    """
    chosen = selection(select, ignore)
    options = replace(common.check, selection=chosen)
    if plausibility:
        from pdn_tools.analysis.engines import EngineChoice
        from pdn_tools.analysis.plausibility import PlausibilityOptions

        doubt = PlausibilityOptions(
            EngineChoice(nodes=plausibility_nodes), plausibility_threshold, common.read.variant
        )
        options = replace(options, plausibility=doubt)
    if fmt in DETAILED:
        options = replace(options, detail=True)
    tables = TABLES if fmt in DETAILED else None
    run = Run("validate", paths, common, options, events=events_wanted(common, chosen, tables))
    level = Severity(fail_on)
    out = stdout()
    colour = fmt == "text" and colour_wanted(common.color, out)
    reporter = make_reporter(
        fmt, out, show_info=show_info, fail_on=level, colour=colour, group=not no_group
    )
    totals = report_games(run, reporter, chosen, level)
    out.flush()
    if fmt in HUMAN and not common.quiet:
        click.echo(totals.line(), err=True)
        for line in totals.code_lines():
            click.echo(line, err=True)
    sys.exit(1 if totals.failing and not exit_zero else 0)


TABLES = Choose(players=2, games=2)
"""The events the HTML report shows a crosstable of: two players and two games or more."""


def events_wanted(
    common: Common, chosen: Selection, tables: Choose | None = None
) -> EventGathering | None:
    """The event checks of a run (with a crosstable of the events *tables* keeps),
    unless the ``events`` rule turns them off or ``--select``/``--ignore`` leave no
    event code to report."""
    if not common.events.enabled or not any(chosen.keeps(code) for code in EVENT_CODES):
        return None
    return EventGathering(common.events, tables=tables, summaries=False)


def report_games(run: Run, reporter: Reporter, chosen: Selection, level: Severity) -> Totals:
    """Check every game of *run*, tell *reporter* what is reported of each, then of
    each event (when the run checks events), close it and return the totals (the exit
    status follows from ``totals.failing``)."""
    totals = Totals(files=run.files)
    for checked in run.games():
        game = game_report(checked, chosen, level)
        totals.add(game)
        reporter.add(game)
    if run.filtering:
        totals.filtered = run.filtered
    if run.events is not None:
        assessment = run.events.assess()
        totals.events = assessment.events
        for result in assessment.results:
            if result.table is not None:
                reporter.add_event_table(result.table)  # type: ignore[attr-defined]
            for finding in result.findings:
                if chosen.keeps(finding.code):
                    totals.add_event(finding, level)
                    reporter.add_event(finding)
    reporter.close(totals)
    return totals
