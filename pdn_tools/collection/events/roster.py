"""The players of one event: which spellings name one player, and the name to show.

Spellings are read by :func:`pdn_tools.pdn.players.parse_name`; spellings with one
key (:attr:`~pdn_tools.pdn.players.PlayerName.key`) are one player.  Then, with the
``player-initials`` rule (the default), a spelling that says less — initials for
given names (``T. Sijbrands``), fewer initials (``M Tinsley`` beside
``MF Tinsley``), a surname alone — joins the one player of the event whose name fits
it (:func:`~pdn_tools.pdn.players.compatible`).  It joins nobody when:

* two or more players fit it (``T. Sijbrands`` in an event with Ton and Tjalling
  Sijbrands): it stays a player of its own;
* it played against the player it would join (one cannot play oneself: they are two
  people).

The most specific spellings are settled first, so ``Tinsley`` joins ``M Tinsley``
only once ``M Tinsley`` has joined ``MF Tinsley``.  The name shown for a player
(the canonical spelling) is its spelling that says most (full given names before
initials), then the most used one, then the first met; its key is that spelling's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from pdn_tools.pdn.players import PlayerName, clean_spelling, compatible, parse_name


@dataclass(slots=True)
class Player:
    """One player of an event: its spellings (as shown, with the games each names
    the player in) and the chosen one."""

    key: str
    name: str
    spellings: Counter[str] = field(default_factory=Counter)

    def spelling_list(self) -> list[tuple[str, int]]:
        """The spellings with their counts, the canonical one first, then by use."""
        others = sorted(
            (item for item in self.spellings.items() if item[0] != self.name),
            key=lambda item: (-item[1], item[0]),
        )
        return [(self.name, self.spellings[self.name]), *others]


@dataclass(slots=True)
class _Group:
    name: PlayerName
    """The spelling that says most (its detail ranks the group)."""
    spellings: Counter[str]
    first: int
    members: set[str]
    names: list[PlayerName] = field(default_factory=list)
    """Every spelling's reading (one key may be written with other letters)."""


class Roster:
    """The players of one event, built from its games' (White, Black) spellings."""

    def __init__(self, pairings: Iterable[tuple[str | None, str | None]], initials: bool = True):
        self.players: list[Player] = []
        self._by_spelling: dict[str, int] = {}
        counts: Counter[str] = Counter()
        first: dict[str, int] = {}
        opponents: set[tuple[str, str]] = set()
        parsed: dict[str, PlayerName | None] = {}
        for position, (white, black) in enumerate(pairings):
            keys: list[str | None] = []
            for spelling in (white, black):
                if spelling is None:
                    keys.append(None)
                    continue
                if spelling not in parsed:
                    parsed[spelling] = parse_name(spelling)
                name = parsed[spelling]
                if name is None:
                    keys.append(None)
                    continue
                counts[spelling] += 1
                first.setdefault(spelling, position)
                keys.append(name.key)
            if keys[0] is not None and keys[1] is not None:
                opponents.add((keys[0], keys[1]))
                opponents.add((keys[1], keys[0]))
        groups: dict[str, _Group] = {}
        shown_first: dict[str, int] = {}  # each spelling as shown: when first met
        shown_detail: dict[str, tuple[int, int]] = {}
        for spelling, count in counts.items():
            name = parsed[spelling]
            assert name is not None
            group = groups.get(name.key)
            shown = clean_spelling(spelling)
            shown_first[shown] = min(shown_first.get(shown, first[spelling]), first[spelling])
            shown_detail[shown] = name.detail
            if group is None:
                group = groups[name.key] = _Group(name, Counter(), first[spelling], {name.key})
            group.names.append(name)
            group.spellings[shown] += count
            group.first = min(group.first, first[spelling])
            if name.detail > group.name.detail:
                group.name = name
        if initials:
            _join(groups, opponents)
        owner: dict[str, int] = {}
        for key, group in sorted(groups.items(), key=lambda item: item[1].first):
            best = max(
                group.spellings,
                key=lambda s: (shown_detail[s], group.spellings[s], -shown_first[s]),
            )
            owner.update(dict.fromkeys(group.members, len(self.players)))
            self.players.append(Player(key, best, group.spellings))
        for spelling, name in parsed.items():
            if name is not None:
                self._by_spelling[spelling] = owner[name.key]

    def player(self, spelling: str | None) -> int:
        """The number of the player a spelling names (-1: no player)."""
        if spelling is None:
            return -1
        return self._by_spelling.get(spelling, -1)


def _join(groups: dict[str, _Group], opponents: set[tuple[str, str]]) -> None:
    """Let each spelling that says less join the one group that fits it."""
    order = sorted(groups, key=lambda key: groups[key].name.detail, reverse=True)
    holding: dict[str, set[str]] = {}  # a word -> the groups whose spellings hold it
    for key, each in groups.items():
        for name in each.names:
            for word in name.words:
                holding.setdefault(word, set()).add(key)
    for key in order:
        group = groups.get(key)
        if group is None:
            continue
        # a group fits only if it holds every word of a spelling of this one
        near: set[str] = set()
        for name in group.names:
            if name.words:
                near |= set.intersection(*(holding.get(w, set()) for w in name.words))
        fits = [
            other
            for other in (near if all(n.words for n in group.names) else groups)
            if other != key
            and other in groups
            and groups[other].name.detail >= group.name.detail
            and any(compatible(a, b) for a in group.names for b in groups[other].names)
        ]
        if len(fits) != 1:
            continue
        target = groups[fits[0]]
        if any((a, b) in opponents for a in group.members for b in target.members):
            continue
        target.spellings.update(group.spellings)
        target.first = min(target.first, group.first)
        target.members |= group.members
        target.names.extend(group.names)
        for name in group.names:
            for word in name.words:
                holding.setdefault(word, set()).add(fits[0])
        del groups[key]


__all__ = ["Player", "Roster"]
