"""What the event checks of a run give: for each event its findings, its summary and,
when asked, its crosstable, as plain values that travel between processes.

:func:`assess` runs over an :class:`~pdn_tools.collection.events.index.EventIndex`
(in the process that gathered it, or on a cluster worker holding a part of the
events) and returns one :class:`EventResult` per event in the order of their first
games, the findings about games of no event last; :func:`ordered` puts results of
several parts back in that order.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

from pdn_tools.collection.events.checks import check_event, self_paired
from pdn_tools.collection.events.event import Event, Oversized, build_events
from pdn_tools.collection.events.index import EventIndex
from pdn_tools.collection.events.standings import crosstable, summary
from pdn_tools.diagnostics import EventFinding

NO_EVENT = (1 << 62, 0)
"""The place of the findings about games of no event: after every event."""


@dataclass(slots=True)
class EventResult:
    """One event's findings, summary (``pdn events``; None unless asked for) and
    crosstable (None unless asked for); ``event`` is False for the findings about
    games of no event."""

    first: tuple[int, int]
    findings: list[EventFinding] = field(default_factory=list)
    event: bool = True
    summary: dict[str, Any] | None = None
    table: dict[str, Any] | None = None
    snapshots: list[tuple[int, int]] = field(default_factory=list)
    """(input number, game index) of every live-feed snapshot (``--drop-prefixes``)."""


@dataclass(slots=True)
class Assessment:
    """The results of a run's events (in order) and how many events were checked.

    Without summaries and crosstables only the events with something to tell
    (findings, live-feed snapshots) have a result: a run may hold many events."""

    results: list[EventResult] = field(default_factory=list)
    events: int = 0


Choice = Callable[[Event | Oversized], bool]
"""Which events to give (and, for crosstables, which to tabulate)."""


class Choose:
    """A :data:`Choice` that can be sent to a cluster worker: events whose name
    matches one of *names* (``fnmatch`` patterns, any case; all when empty), with at
    least *players* players and *games* games."""

    names: tuple[str, ...]
    players: int
    games: int

    __slots__ = ("games", "names", "players")

    def __init__(
        self,
        names: tuple[str, ...] = (),
        players: int = 0,
        games: int = 0,
    ) -> None:
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "games", games)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Choose) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.names, self.players, self.games) == (other.names, other.players, other.games)

    def __hash__(self) -> int:
        return hash((self.names, self.players, self.games))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"Choose(names={self.names!r}, players={self.players!r}, games={self.games!r})"

    def __reduce__(self) -> tuple[type[Choose], tuple[Any, ...]]:
        # By value, through __init__ (its __setattr__ refuses to restore the fields).
        return (Choose, (self.names, self.players, self.games))

    def __call__(self, event: Event | Oversized) -> bool:
        if isinstance(event, Oversized):
            if self.players or self.games:
                return False
        elif len(event.players) < self.players or len(event.boards) < self.games:
            return False
        if not self.names:
            return True
        name = event.name.casefold()
        return any(fnmatch.fnmatchcase(name, pattern.casefold()) for pattern in self.names)


def assess(
    index: EventIndex,
    *,
    chosen: Choice | None = None,
    tables: Choice | None = None,
    summaries: bool = True,
) -> Assessment:
    """The results of every event of *index* that *chosen* keeps (all by default),
    with a crosstable for those *tables* keeps (none by default) and a summary for
    each when *summaries* (``validate`` needs none: a run may hold many events)."""
    out: list[EventResult] = []
    count = 0
    for event in build_events(index):
        if chosen is not None and not chosen(event):
            continue
        count += 1
        if isinstance(event, Oversized):
            out.append(_oversized(event, index.rules.max_games, summaries))
            continue
        findings = check_event(event, index.rules)
        result = EventResult(event.first, findings)
        if summaries:
            result.summary = summary(event, len(findings))
        if tables is not None and tables(event):
            result.table = crosstable(event, len(findings)).to_dict()
        result.snapshots = sorted({short.position for short, _grown in event.snapshots})
        if summaries or result.table is not None or findings or result.snapshots:
            out.append(result)
    out.sort(key=lambda result: result.first)  # the events of a group may interleave others'
    if chosen is None:
        loose = list(self_paired(index))
        if loose:
            out.append(EventResult(NO_EVENT, loose, event=False))
    return Assessment(out, count)


def _oversized(event: Oversized, limit: int, summaries: bool) -> EventResult:
    """The result of an event too large to be put together: W58 (info)."""
    message = (
        f"the event has {event.records:,} games, more than the event-max-games rule allows "
        f"({limit:,}): not checked as a whole"
    )
    finding = EventFinding("W58", message, event.name, event.site, event.year, games=(event.ref,))
    result = EventResult(event.first, [finding])
    if summaries:
        result.summary = {
            "event": event.name,
            "site": event.site,
            "year": event.year,
            "records": event.records,
            "games": None,
            "rounds": [],
            "sub_rounds": False,
            "players": None,
            "format": {"guess": "not checked", "reason": message},
            "completeness": None,
            "findings": 1,
            "first": event.ref.to_dict(),
        }
    return result


def ordered(parts: Iterable[Assessment]) -> Assessment:
    """The results of several parts of a run in the order :func:`assess` gives for
    the whole: events by their first game, the games of no event last (merged)."""
    events: list[EventResult] = []
    loose: list[EventFinding] = []
    count = 0
    for part in parts:
        count += part.events
        for result in part.results:
            if not result.event:
                loose.extend(result.findings)
            else:
                events.append(result)
    events.sort(key=lambda result: result.first)
    if loose:
        loose.sort(key=lambda f: (f.games[0].file_no, f.games[0].game) if f.games else (0, 0))
        events.append(EventResult(NO_EVENT, loose, event=False))
    return Assessment(events, count)


__all__ = ["NO_EVENT", "Assessment", "Choice", "Choose", "EventResult", "assess", "ordered"]
