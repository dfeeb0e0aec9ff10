"""``pdn events``: the events of a collection, and their crosstables.

Every game is read and replayed as by ``pdn validate`` (in worker processes with
``--jobs``, on a cluster with ``--dask``); what each tells about its event is
gathered (:mod:`pdn_tools.run.events`) and the events are put together when every
input is read.  Without ``--crosstable`` one line (text) or one object (json) per
event: its games, rounds, players, how it looks paired (a guess), how complete it is
and how many findings its checks give (``pdn validate`` reports them); with
``--crosstable``, the standings and crosstable of each chosen event.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from pdn_tools.atomic import shown
from pdn_tools.cli.options import (
    Common,
    checking_options,
    configured,
    dask_option,
    discovery_options,
    filter_options,
    reading_options,
)
from pdn_tools.cli.run import Run, fail
from pdn_tools.cli.terminal import stdout
from pdn_tools.collection.events.results import Choose
from pdn_tools.report.events import crosstable_lines, summary_line
from pdn_tools.run.events import EventGathering
from pdn_tools.version import __version__


@click.command(short_help="List the events of a collection, or their crosstables.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--event",
    "names",
    multiple=True,
    metavar="NAME",
    help="Only the events whose Event tag matches NAME (a glob, any case: 'NK 2003', "
    "'*Open*'); repeat for several.",
)
@click.option(
    "--crosstable",
    is_flag=True,
    help="Print the standings and crosstable of each event (with --event: of those).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Lines and tables for people, or one JSON document for tools.",
)
@filter_options
@checking_options
@discovery_options
@reading_options
@dask_option
@configured
def events(
    paths: tuple[str, ...],
    names: tuple[str, ...],
    crosstable: bool,
    fmt: str,
    common: Common,
) -> None:
    """List the events of PDN files (a file, a folder searched for *.pdn, or -
    for stdin): games grouped by Event, Site and the year of the Date (the
    event-key rule), with their rounds, players, a guess at how they were paired
    (round robin, Swiss, match) and how complete they are.

    Exit status: 0, 1 when --event matches no event, 2 for usage or input
    errors.
    """
    if not common.events.enabled:
        fail("events", "the events rule is off (events=no): there are no events to list")
    chosen = Choose(tuple(names))
    gathering = EventGathering(common.events, chosen=chosen, tables=chosen if crosstable else None)
    run = Run("events", paths, common, events=gathering)
    for _game in run.games():
        pass
    listed = [r for r in gathering.assess().results if r.event and r.summary is not None]
    out = stdout()
    if fmt == "json":
        data: dict[str, Any] = {
            "tool": {"name": "pdn-tools", "version": __version__},
            "events": [
                r.table if crosstable and r.table is not None else r.summary for r in listed
            ],
        }
        out.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    elif crosstable:
        out.write(
            "\n\n".join(
                "\n".join(shown(line) for line in crosstable_lines(r.table))
                for r in listed
                if r.table
            )
            + "\n"
            if listed
            else ""
        )
    else:
        for result in listed:
            assert result.summary is not None
            out.write(shown(summary_line(result.summary)) + "\n")
    out.flush()
    if not common.quiet:
        what = f"{len(listed)} event(s)"
        if names:
            what += f" matching {', '.join(repr(n) for n in names)}"
        click.echo(f"{run.files} file(s): {what}", err=True)
    sys.exit(1 if names and not listed else 0)
