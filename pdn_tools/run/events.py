"""The event checks of a run: facts gathered where each game is checked, events
assessed where the facts meet.

With ``--jobs`` (and in one process) every checked game carries its packed facts
(:attr:`pdn_tools.report.records.Checked.facts`, made in the worker that replayed it);
:class:`EventGathering` adds them to an
:class:`~pdn_tools.collection.events.index.EventIndex` in the process that reports,
in input order, and assesses the events when the run is done.  Memory: the index's
few dozen bytes a game.

On a Dask cluster (``--dask``) the facts never leave it: each unit of work
(:func:`unit_with_events`) builds the index of its games, split into parts by event
(:meth:`~pdn_tools.collection.events.index.EventIndex.split`), and returns its
checked games without facts; the parts stay on the workers, and each part of the run
is reduced there (:func:`reduce_events`): its indexes merged and its events assessed.
Only the results come back, put in order by
:func:`pdn_tools.collection.events.results.ordered` — the same as in one process.
"""

from __future__ import annotations

from pdn_tools.collection.events.index import EventIndex
from pdn_tools.collection.events.results import Assessment, Choice, assess
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.report.records import Checked
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.units import Unit, run_unit_reported


class EventGathering:
    """The facts of a run's checked games, and the events they make: those *chosen*
    keeps (all by default), a crosstable of those *tables* keeps, a summary of each
    with *summaries* (see :func:`~pdn_tools.collection.events.results.assess`)."""

    def __init__(
        self,
        rules: EventRules | None = None,
        *,
        chosen: Choice | None = None,
        tables: Choice | None = None,
        summaries: bool = True,
    ) -> None:
        self.index = EventIndex(rules)
        self.chosen = chosen
        self.tables = tables
        self.summaries = summaries
        self.results: Assessment | None = None
        """Set instead of gathering, when a cluster assessed the events."""

    def add(self, checked: Checked) -> None:
        """Note the facts of one checked game (in input order)."""
        if checked.facts is not None:
            self.index.add(
                checked.facts,
                checked.file_no,
                checked.file,
                checked.game,
                int(checked.record["line"]),
            )

    def assess(self) -> Assessment:
        """The results of the events; those a cluster gave when it assessed them."""
        if self.results is None:
            try:
                self.results = assess(
                    self.index, chosen=self.chosen, tables=self.tables, summaries=self.summaries
                )
            finally:
                self.index.close()
        return self.results


def unit_with_events(
    unit: Unit, options: CheckOptions, parts: int
) -> tuple[int, list[Checked], list[EventIndex]]:
    """Check one unit of work (on a cluster worker): the bytes it covers, its checked
    games without their facts, and the index of their facts split into *parts*.  A
    unit that fails reports E16 (:func:`~pdn_tools.run.units.failed_unit`) and no facts."""
    weight, checked = run_unit_reported(unit, options)
    index = EventIndex(options.events)
    stripped: list[Checked] = []
    for game in checked:
        if game.facts is not None:
            index.add(game.facts, game.file_no, game.file, game.game, int(game.record["line"]))
            game = game.without_facts()
        stripped.append(game)
    return weight, stripped, index.split(parts)


def checked_part(result: tuple[int, list[Checked], list[EventIndex]]) -> tuple[int, list[Checked]]:
    """The checked games of :func:`unit_with_events` (what the client fetches)."""
    return result[0], result[1]


def index_part(result: tuple[int, list[Checked], list[EventIndex]], part: int) -> EventIndex:
    """One part of the index of :func:`unit_with_events` (what stays on the cluster)."""
    return result[2][part]


def reduce_events(
    rules: EventRules,
    chosen: Choice | None,
    tables: Choice | None,
    summaries: bool,
    *indexes: EventIndex,
) -> Assessment:
    """Merge the indexes of one part of a run, in unit order, and assess its events
    (on a cluster worker)."""
    whole = EventIndex(rules)
    for index in indexes:
        whole.merge(index)
        index.close()
    try:
        return assess(whole, chosen=chosen, tables=tables, summaries=summaries)
    finally:
        whole.close()


__all__ = [
    "EventGathering",
    "checked_part",
    "index_part",
    "reduce_events",
    "unit_with_events",
]
