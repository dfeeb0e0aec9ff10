"""What happens to each game of a conversion between its replay and its output.

``pdn convert`` hands every replayed game to :meth:`Stages.process`, which runs
three small stages in this order:

1. **repair** (``--repair``): an illegal move the replay proposed exactly one move for
   is replaced by it, when the game then validates without an error
   (:func:`pdn_tools.collection.repair.repair_game`);
2. **filter** (the filter options): a game the filter leaves out goes no further
   (:class:`pdn_tools.collection.filters.GameFilter`);
3. **duplicates** (``--dedupe``): a copy of a game kept earlier in the run is dropped;
   with ``--merge-tags`` the kept copy first gains the tags its copies lend
   (:class:`pdn_tools.collection.duplicates.TagLending`, which needs a first pass
   over the inputs: :meth:`Stages.observe`).

The first two look at one game at a time and could run wherever the game is
replayed; the third remembers the keys of the games kept so far (8 bytes each) and
must see the games in input order.  The counts (:class:`StageCounts`) feed the
summary line: every game read is written, rejected, filtered out or dropped as a
duplicate, and ``repaired`` counts the written games that were repaired.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from pdn_tools.collection.duplicates import Comparison, TagLending
from pdn_tools.collection.filters import GameFilter
from pdn_tools.collection.repair import repair_game
from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game
from pdn_tools.replay import ReplayOptions, ReplayResult


@dataclass(frozen=True, slots=True)
class StageOptions:
    """Which stages run."""

    repair: bool = False
    keep: GameFilter | None = None
    dedupe: Comparison | None = None
    """How copies are told (None: every copy is written)."""
    merge_tags: bool = False

    @property
    def two_passes(self) -> bool:
        """Whether the inputs are read twice (``--merge-tags`` needs a first pass)."""
        return self.dedupe is not None and self.merge_tags


class Verdict(enum.Enum):
    """What becomes of a game after the stages."""

    KEEP = "keep"
    FILTERED = "filtered"
    DUPLICATE = "duplicate"


@dataclass(slots=True)
class StageCounts:
    """What the stages did in a run."""

    repaired: int = 0
    """Games written repaired."""
    filtered: int = 0
    duplicates: int = 0
    tags_merged: int = 0


@dataclass(slots=True)
class Passed:
    """A game after the stages: its (new) replay, the verdict, whether it was repaired."""

    replay: ReplayResult | None
    verdict: Verdict
    repaired: bool = False


@dataclass(slots=True)
class Stages:
    """The stages of one pass over the games of a conversion."""

    options: StageOptions
    replay: ReplayOptions
    strict: bool = False
    lending: TagLending | None = None
    """The tags copies lend (``--merge-tags``), filled by a first pass."""
    counts: StageCounts = field(default_factory=StageCounts)
    seen: set[bytes] = field(default_factory=set)

    @classmethod
    def make(cls, options: StageOptions, replay: ReplayOptions, strict: bool) -> Stages:
        """Stages for *options*; with ``--merge-tags`` an empty :class:`TagLending` to
        be filled by :meth:`observe` before the games are processed."""
        lending = TagLending() if options.two_passes else None
        return cls(options, replay, strict, lending)

    def _repair(
        self, game: Game, replay: ReplayResult | None, reading: list[Issue]
    ) -> tuple[ReplayResult | None, bool]:
        if not self.options.repair or game.status != "error":
            return replay, False
        fixed = repair_game(game, replay, self.replay, reading, strict=self.strict)
        if fixed is None:
            return replay, False
        return fixed.replay, True

    def _filtered(self, game: Game, replay: ReplayResult | None) -> bool:
        keep = self.options.keep
        return keep is not None and not keep.matches(game, replay, game.issues)

    def process(
        self,
        game: Game,
        replay: ReplayResult | None,
        reading: list[Issue],
        *,
        repairable: bool = True,
    ) -> Passed:
        """Run the stages on *game* (*reading*: its findings before the replay);
        the game may be changed in place (a repair, merged tags)."""
        repaired = False
        if repairable:
            replay, repaired = self._repair(game, replay, reading)
        if self._filtered(game, replay):
            self.counts.filtered += 1
            return Passed(replay, Verdict.FILTERED, repaired)
        comparison = self.options.dedupe
        if comparison is not None:
            key = comparison.key(game, replay)
            if key is not None:
                if key in self.seen:
                    self.counts.duplicates += 1
                    return Passed(replay, Verdict.DUPLICATE, repaired)
                self.seen.add(key)
                if self.lending is not None:
                    self.counts.tags_merged += self.lending.lend(key, game)
        self.counts.repaired += repaired
        return Passed(replay, Verdict.KEEP, repaired)

    def observe(
        self,
        game: Game,
        replay: ReplayResult | None,
        reading: list[Issue],
        *,
        repairable: bool = True,
    ) -> None:
        """First pass of ``--merge-tags``: run the same repair and filter on *game*
        and note the tags it may lend as a copy."""
        assert self.lending is not None and self.options.dedupe is not None
        if repairable:
            replay, _ = self._repair(game, replay, reading)
        if self._filtered(game, replay):
            return
        key = self.options.dedupe.key(game, replay)
        if key is not None:
            self.lending.observe(key, game)


__all__ = ["Passed", "StageCounts", "StageOptions", "Stages", "Verdict"]
