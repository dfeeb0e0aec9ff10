"""What happens to each game of a conversion between its replay and its output.

Four small stages run in this order:

1. **repair** (``--repair``): an illegal move the replay proposed exactly one move for
   is replaced by it, when the game then validates without an error
   (:func:`pdn_tools.collection.repair.repair_game`);
2. **filter** (the filter options): a game the filter leaves out goes no further
   (:class:`pdn_tools.collection.filters.GameFilter`);
3. **duplicates** (``--dedupe``): a copy of a game kept earlier in the run is dropped;
   with ``--merge-tags`` the kept copy gains the tags its copies lend
   (:class:`pdn_tools.collection.duplicates.TagLending`, filled by a first pass over
   the inputs); with ``--drop-prefixes`` a live-feed snapshot — a game whose moves
   begin a longer game of the same players and round of its event (W55) — is dropped
   too, the snapshots being found by a first pass that gathers every game's event
   facts (:mod:`pdn_tools.collection.events`);
4. **analysis** (``pdn analyse``): every kept game is annotated ply by ply by an
   engine (:func:`pdn_tools.analysis.annotate_game`), where it is replayed.

The work is split by where it can run.  :func:`stage_game` looks at one game at a
time — it repairs, filters, makes the game's duplicate key and lends it the tags its
copies agree on — and runs where the game is replayed (in a worker process with
``--jobs``).  :class:`Admission` remembers the keys of the games kept so far (8
bytes each) and decides, in input order, which games are copies; it runs in the
process that writes.  Every copy is lent the tags (a worker cannot know which copy
comes first), but only the first one is written.  The counts (:class:`StageCounts`)
feed the summary line: every game read is written, rejected, filtered out, dropped
as a duplicate or as a snapshot, and ``repaired`` counts the written games that were
repaired.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdn_tools.collection.duplicates import Comparison, TagLending
from pdn_tools.collection.filters import GameFilter
from pdn_tools.collection.repair import repair_game
from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game
from pdn_tools.replay import ReplayOptions, ReplayResult

if TYPE_CHECKING:
    from pdn_tools.analysis import AnalysisOptions


@dataclass(frozen=True, slots=True)
class StageOptions:
    """Which stages run."""

    repair: bool = False
    keep: GameFilter | None = None
    dedupe: Comparison | None = None
    """How copies are told (None: every copy is written)."""
    merge_tags: bool = False
    drop_prefixes: bool = False
    """Drop live-feed snapshots (``--drop-prefixes``, with ``--dedupe``)."""
    annotate: AnalysisOptions | None = None
    """Annotate every kept game with an engine's analysis (``pdn analyse``)."""

    @property
    def two_passes(self) -> bool:
        """Whether the inputs are read twice (``--merge-tags`` and ``--drop-prefixes``
        need a first pass)."""
        return self.dedupe is not None and (self.merge_tags or self.drop_prefixes)

    @property
    def active(self) -> bool:
        """Whether any stage runs."""
        return (
            self.repair
            or self.keep is not None
            or self.dedupe is not None
            or self.annotate is not None
        )


@dataclass(slots=True)
class Staged:
    """One game after :func:`stage_game`: its (new) replay, whether the filter left it
    out, whether it was repaired, its duplicate key (None: not compared) and how many
    tags its copies lent it."""

    replay: ReplayResult | None
    filtered: bool = False
    repaired: bool = False
    key: bytes | None = None
    lent: int = 0
    annotated: int = 0
    """Plies annotated (``pdn analyse``)."""
    blunders: int = 0
    """Blunders flagged (``pdn analyse``)."""
    doubted: int = 0
    """Moves found possibly mis-recorded (W70, ``pdn analyse``)."""


def stage_game(
    game: Game,
    replay: ReplayResult | None,
    reading: list[Issue],
    options: StageOptions,
    replay_options: ReplayOptions,
    *,
    strict: bool = False,
    repairable: bool = True,
    lending: TagLending | None = None,
) -> Staged:
    """Repair, filter and key *game* (*reading*: its findings before the replay);
    the game may be changed in place (a repair, lent tags).  A game read from JSON
    (not *repairable*) keeps its moves as stored."""
    repaired = False
    if options.repair and repairable and game.status == "error":
        fixed = repair_game(game, replay, replay_options, reading, strict=strict)
        if fixed is not None:
            replay, repaired = fixed.replay, True
    keep = options.keep
    if keep is not None and not keep.matches(game, replay, game.issues):
        return Staged(replay, filtered=True, repaired=repaired)
    key = options.dedupe.key(game, replay) if options.dedupe is not None else None
    lent = lending.lend(key, game) if lending is not None and key is not None else 0
    staged = Staged(replay, repaired=repaired, key=key, lent=lent)
    if options.annotate is not None:
        # Imported here: the searcher is loaded by the runs that analyse only.
        from pdn_tools.analysis import annotate_game

        annotated = annotate_game(game, replay, options.annotate)
        staged.annotated, staged.blunders = annotated.plies, len(annotated.blunders)
        staged.doubted = annotated.doubted
    return staged


@dataclass(slots=True)
class StageCounts:
    """What the stages did in a run."""

    repaired: int = 0
    """Games written repaired."""
    filtered: int = 0
    duplicates: int = 0
    snapshots: int = 0
    """Live-feed snapshots dropped (``--drop-prefixes``)."""
    tags_merged: int = 0
    annotated: int = 0
    """Plies annotated in the games written (``pdn analyse``)."""
    blunders: int = 0
    """Blunders flagged in the games written."""
    doubted: int = 0
    """Moves found possibly mis-recorded (W70) in the games written."""


@dataclass(slots=True)
class Admission:
    """The ordered half of the stages: which games go on to the output, in input
    order (copies of a kept game are dropped), and the counts."""

    counts: StageCounts = field(default_factory=StageCounts)
    seen: set[bytes] = field(default_factory=set)
    snapshots: frozenset[tuple[int, int]] = frozenset()
    """(input number, game index) of the live-feed snapshots to drop."""

    def admit(
        self,
        filtered: bool,
        key: bytes | None,
        repaired: bool,
        lent: int,
        place: tuple[int, int] | None = None,
    ) -> bool:
        """Whether a game (at *place*: input number, game index) goes on to the
        output (or the rejects file)."""
        if filtered:
            self.counts.filtered += 1
            return False
        if place is not None and place in self.snapshots:
            self.counts.snapshots += 1
            return False
        if key is not None:
            if key in self.seen:
                self.counts.duplicates += 1
                return False
            self.seen.add(key)
            self.counts.tags_merged += lent
        self.counts.repaired += repaired
        return True


__all__ = ["Admission", "StageCounts", "StageOptions", "Staged", "stage_game"]
