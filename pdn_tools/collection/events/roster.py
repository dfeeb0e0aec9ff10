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
only once ``M Tinsley`` has joined ``MF Tinsley``.

Then, with the ``player-variants`` rule (the default) and the games' rounds given,
a spelling of at most :data:`VARIANT_GAMES` games whose name mis-writes a player's
(:func:`variant_of`: other initials beside the same full words, or the surname one
letter off or with two neighbouring letters swapped, the initials agreeing) joins
that player when the rounds say so too:

* every game of both has a known round, and the event has games of at least
  :data:`VARIANT_MIN_ROUNDS` rounds;
* the spelling's games fall only in rounds where the player has no game, and the
  two never played each other;
* those rounds are (nearly) whole in the archive: each holds at least three in four
  of the games the event's players make with one of them sitting out (in an archive
  of a few games a round, a player without a game in it says nothing);
* joined, the player meets none of the spelling's opponents in more rounds than the
  pairs of the event most often meet in (once in a single round robin; a match of
  two players is not held to it);
* joined, the player has a game in every round of the event but one at most (a
  bye): the spelling fills the player's gap, it is not one of many absences;
* exactly one player fits so (of relatives who share a surname, the one absent from
  the spelling's rounds), the player has more games than the spelling and is no
  such spelling itself.

Without rounds no spelling is joined this way: a different initial alone is no
evidence.  A spelling joined so is recorded with how its name differs
(:attr:`Player.joined`, which W56 shows) and is never the name shown.

The name shown for a player (the canonical spelling) is its spelling that says most
(full given names before initials), then the most used one, then the first met; its
key is that spelling's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Final

from pdn_tools.pdn.players import PlayerName, clean_spelling, compatible, parse_name

VARIANT_GAMES: Final = 2
"""The most games a spelling may have to be joined to a player by the rounds."""
VARIANT_MIN_ROUNDS: Final = 3
"""The fewest rounds an event must have games of for a join by the rounds."""
VARIANT_WORD_LETTERS: Final = 5
"""The shortest surname (folded) that one letter off or two swapped may join."""


class Player:
    """One player of an event: its spellings (as shown, with the games each names
    the player in) and the chosen one."""

    key: str
    name: str
    spellings: Counter[str]
    joined: dict[str, str]
    """The spellings joined by the rounds (as shown), each with how its name differs
    (``other initials``, ``surname one letter off``, …)."""

    __slots__ = ("joined", "key", "name", "spellings")

    def __init__(
        self,
        key: str,
        name: str,
        spellings: Counter[str] | None = None,
        joined: dict[str, str] | None = None,
    ) -> None:
        self.key = key
        self.name = name
        self.spellings = Counter() if spellings is None else spellings
        self.joined = {} if joined is None else joined

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Player) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.key, self.name, self.spellings, self.joined) == (
            other.key,
            other.name,
            other.spellings,
            other.joined,
        )

    def __repr__(self) -> str:
        return (
            f"Player(key={self.key!r}, "
            f"name={self.name!r}, "
            f"spellings={self.spellings!r}, "
            f"joined={self.joined!r})"
        )

    def __reduce__(self) -> tuple[type[Player], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Player, (self.key, self.name, self.spellings, self.joined))

    def spelling_list(self) -> list[tuple[str, int]]:
        """The spellings with their counts, the canonical one first, then by use."""
        others = sorted(
            (item for item in self.spellings.items() if item[0] != self.name),
            key=lambda item: (-item[1], item[0]),
        )
        return [(self.name, self.spellings[self.name]), *others]


class _Group:
    name: PlayerName
    """The spelling that says most (its detail ranks the group)."""
    spellings: Counter[str]
    first: int
    members: set[str]
    names: list[PlayerName]
    """Every spelling's reading (one key may be written with other letters)."""
    joined: dict[str, str]
    """Spellings (as shown) joined by the rounds, and how their names differ."""

    __slots__ = ("first", "joined", "members", "name", "names", "spellings")

    def __init__(
        self,
        name: PlayerName,
        spellings: Counter[str],
        first: int,
        members: set[str],
        names: list[PlayerName] | None = None,
        joined: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.spellings = spellings
        self.first = first
        self.members = members
        self.names = [] if names is None else names
        self.joined = {} if joined is None else joined

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Group) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.spellings, self.first, self.members, self.names, self.joined) == (
            other.name,
            other.spellings,
            other.first,
            other.members,
            other.names,
            other.joined,
        )

    def __repr__(self) -> str:
        return (
            f"_Group(name={self.name!r}, "
            f"spellings={self.spellings!r}, "
            f"first={self.first!r}, "
            f"members={self.members!r}, "
            f"names={self.names!r}, "
            f"joined={self.joined!r})"
        )

    def __reduce__(self) -> tuple[type[_Group], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            _Group,
            (self.name, self.spellings, self.first, self.members, self.names, self.joined),
        )


class Roster:
    """The players of one event, built from its games' (White, Black) spellings and,
    when given, each game's round number (None: unknown), in the same order."""

    def __init__(
        self,
        pairings: Iterable[tuple[str | None, str | None]],
        initials: bool = True,
        rounds: Sequence[int | None] | None = None,
        variants: bool = True,
    ):
        pairings = list(pairings)
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
        if variants and rounds is not None:
            _join_by_rounds(groups, pairings, parsed, rounds)
        owner: dict[str, int] = {}
        for key, group in sorted(groups.items(), key=lambda item: item[1].first):
            chosen = [s for s in group.spellings if s not in group.joined] or list(group.spellings)
            best = max(
                chosen,
                key=lambda s: (shown_detail[s], group.spellings[s], -shown_first[s]),
            )
            owner.update(dict.fromkeys(group.members, len(self.players)))
            self.players.append(Player(key, best, group.spellings, group.joined))
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


def _key_of(parsed: dict[str, PlayerName | None], spelling: str | None) -> str | None:
    if spelling is None:
        return None
    name = parsed.get(spelling)
    return None if name is None else name.key


# -- spellings joined by the rounds ---------------------------------------------------


def _edit(one: str, other: str) -> str | None:
    """How two different words differ when one edit makes one the other: ``one letter
    off`` (a letter replaced, added or left out) or ``two letters swapped`` (two
    neighbours exchanged); None when they are equal or further apart."""
    if one == other:
        return None
    if len(one) == len(other):
        diff = [n for n in range(len(one)) if one[n] != other[n]]
        if len(diff) == 1:
            return "one letter off"
        if (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and one[diff[0]] == other[diff[1]]
            and one[diff[1]] == other[diff[0]]
        ):
            return "two letters swapped"
        return None
    short, long = (one, other) if len(one) < len(other) else (other, one)
    if len(long) - len(short) != 1:
        return None
    for n in range(len(long)):
        if long[:n] + long[n + 1 :] == short:
            return "one letter off"
    return None


def _surnames(name: PlayerName) -> tuple[str, ...]:
    """The words of *name* known to be its surname: those written as the surname
    (before a comma, in capitals), or its only full word beside initials."""
    if name.surname:
        return name.surname
    return name.words if len(name.words) == 1 else ()


def _deletions(word: str) -> list[str]:
    """*word* and each word one letter shorter: two words one edit apart share one."""
    return [word, *(word[:n] + word[n + 1 :] for n in range(len(word)))]


def variant_of(short: PlayerName, full: PlayerName) -> str | None:
    """How *short* may be *full* mis-written, or None: ``other initials`` (the same
    full words, initials that neither fit the other's name —
    :func:`~pdn_tools.pdn.players.compatible` is the initials rule's business — nor
    are missing on either side), or ``surname one letter off`` / ``surname with two
    letters swapped`` (one word differs, the surname of both, by one edit, at least
    :data:`VARIANT_WORD_LETTERS` letters long, the initials equal or one beginning
    the other).  The name alone never joins them: only the rounds can (the module
    documentation)."""
    mine, theirs = sorted(short.words), sorted(full.words)
    if mine == theirs:
        if (
            short.initials
            and full.initials
            and short.initials != full.initials
            and not compatible(short, full)
            and not compatible(full, short)
        ):
            return "other initials"
        return None
    if len(mine) != len(theirs):
        return None
    only_mine = list((Counter(mine) - Counter(theirs)).elements())
    only_theirs = list((Counter(theirs) - Counter(mine)).elements())
    if len(only_mine) != 1 or len(only_theirs) != 1:
        return None
    one, other = only_mine[0], only_theirs[0]
    if min(len(one), len(other)) < VARIANT_WORD_LETTERS:
        return None
    if one not in _surnames(short) or other not in _surnames(full):
        return None
    if not (short.initials.startswith(full.initials) or full.initials.startswith(short.initials)):
        return None
    how = _edit(one, other)
    if how is None:
        return None
    return "surname with two letters swapped" if how == "two letters swapped" else f"surname {how}"


class _Games:
    """What the records say of one group: how many, in which rounds, against whom."""

    records: int
    rounds: set[int]
    unknown: bool
    """Some record of it has no round."""
    met: dict[str, set[int]]
    """Each opponent's group, and the rounds they met in."""

    __slots__ = ("met", "records", "rounds", "unknown")

    def __init__(
        self,
        records: int = 0,
        rounds: set[int] | None = None,
        unknown: bool = False,
        met: dict[str, set[int]] | None = None,
    ) -> None:
        self.records = records
        self.rounds = set() if rounds is None else rounds
        self.unknown = unknown
        self.met = {} if met is None else met

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Games) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.records, self.rounds, self.unknown, self.met) == (
            other.records,
            other.rounds,
            other.unknown,
            other.met,
        )

    def __repr__(self) -> str:
        return (
            f"_Games(records={self.records!r}, "
            f"rounds={self.rounds!r}, "
            f"unknown={self.unknown!r}, "
            f"met={self.met!r})"
        )

    def __reduce__(self) -> tuple[type[_Games], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (_Games, (self.records, self.rounds, self.unknown, self.met))


def _join_by_rounds(
    groups: dict[str, _Group],
    pairings: list[tuple[str | None, str | None]],
    parsed: dict[str, PlayerName | None],
    rounds: Sequence[int | None],
) -> None:
    """Join each spelling of few games to the one player it mis-writes when the rounds
    agree (see the module documentation)."""
    if len(rounds) != len(pairings):
        raise ValueError(f"{len(rounds)} round(s) for {len(pairings)} game(s)")
    if len({number for number in rounds if number is not None}) < VARIANT_MIN_ROUNDS:
        return
    if all(sum(group.spellings.values()) > VARIANT_GAMES for group in groups.values()):
        return
    sides = [(_key_of(parsed, white), _key_of(parsed, black)) for white, black in pairings]
    home: dict[str, str] = {}
    for key, group in groups.items():
        home.update(dict.fromkeys(group.members, key))
    games: dict[str, _Games] = {key: _Games() for key in groups}
    every_round: set[int] = set()
    boards: dict[int, set[tuple[str, str]]] = {}  # each round's pairs of players
    for (white, black), number in zip(sides, rounds, strict=True):
        pair = [home[k] if k is not None else None for k in (white, black)]
        if number is not None:
            every_round.add(number)
            first, second = pair
            if first is not None and second is not None:
                boards.setdefault(number, set()).add(
                    (first, second) if first < second else (second, first)
                )
        for me, other in ((pair[0], pair[1]), (pair[1], pair[0])):
            if me is None:
                continue
            stats = games[me]
            stats.records += 1
            if number is None:
                stats.unknown = True
                continue
            stats.rounds.add(number)
            if other is not None and other != me:
                stats.met.setdefault(other, set()).add(number)
    if len(every_round) < VARIANT_MIN_ROUNDS:
        return
    small = [
        key for key in groups if 0 < games[key].records <= VARIANT_GAMES and not games[key].unknown
    ]
    if not small:
        return
    # Who a small spelling may be: indexed by full words, and by the surname's deletions
    # beside the other words (one edit apart, two words share a deletion).
    by_words: dict[tuple[str, ...], set[str]] = {}
    by_surname: dict[tuple[tuple[str, ...], str], set[str]] = {}
    for key, group in groups.items():
        stats = games[key]
        if stats.unknown or stats.records < 2:
            continue
        for name in group.names:
            words = tuple(sorted(name.words))
            by_words.setdefault(words, set()).add(key)
            for surname in _surnames(name):
                if len(surname) < VARIANT_WORD_LETTERS:
                    continue
                rest = list(words)
                rest.remove(surname)
                for cut in _deletions(surname):
                    by_surname.setdefault((tuple(rest), cut), set()).add(key)
    cycles, match = _meetings(games, set(small))
    proposed: dict[str, tuple[str, str]] = {}  # small spelling -> (player, how)
    for key in small:
        mine = games[key]
        near: set[str] = set()
        for name in groups[key].names:
            words = tuple(sorted(name.words))
            near |= by_words.get(words, set())
            for surname in _surnames(name):
                rest = list(words)
                rest.remove(surname)
                for cut in _deletions(surname):
                    near |= by_surname.get((tuple(rest), cut), set())
        fits: list[tuple[str, str]] = []
        for other in sorted(near):
            theirs = games[other]
            if other == key or theirs.records <= mine.records:
                continue
            if mine.rounds & theirs.rounds or other in mine.met:
                continue
            if not match and any(
                len(theirs.met.get(opponent, set())) + len(met) > cycles
                for opponent, met in mine.met.items()
            ):
                continue
            how = _how(groups[key].names, groups[other].names)
            if how is not None:
                fits.append((other, how))
        if len(fits) == 1:
            proposed[key] = fits[0]
    # A round where the player has no game says something only when the archive holds
    # (nearly) all of that round's games: at least 3 in 4 of the games its players make
    # with one of them sitting out.
    full = (len(groups) - len(proposed) - 1) // 2
    by_player: dict[str, list[str]] = {}
    for key, (player, _kind) in proposed.items():
        if player in proposed:  # a spelling others join is joined to nobody
            continue
        if all(4 * len(boards.get(number, ())) >= 3 * full for number in games[key].rounds):
            by_player.setdefault(player, []).append(key)
    for player, spellings in by_player.items():
        if not _agree(games, player, spellings, every_round, cycles, match):
            continue
        target = groups[player]
        for key in spellings:
            group = groups.pop(key)
            how = proposed[key][1]
            for shown in group.spellings:
                target.joined[shown] = how
            target.joined.update(group.joined)
            target.spellings.update(group.spellings)
            target.first = min(target.first, group.first)
            target.members |= group.members
            target.names.extend(group.names)


def _how(shorts: list[PlayerName], fulls: list[PlayerName]) -> str | None:
    """How a spelling of *shorts* mis-writes one of *fulls* (the first found)."""
    for short in shorts:
        for full in fulls:
            how = variant_of(short, full)
            if how is not None:
                return how
    return None


def _meetings(games: dict[str, _Games], small: set[str]) -> tuple[int, bool]:
    """How many rounds the pairs of the event (its spellings of few games left out)
    most often meet in, and whether it is a match: two players, against whom every
    spelling of few games played."""
    counts: Counter[int] = Counter()
    players = [key for key in games if key not in small and games[key].records]
    for key in players:
        for other, met in games[key].met.items():
            if other not in small and key < other:
                counts[len(met)] += 1
    match = len(players) == 2 and all(other in players for key in small for other in games[key].met)
    if not counts:
        return 1, match
    top = max(counts.values())
    return min(n for n, c in counts.items() if c == top), match


def _agree(
    games: dict[str, _Games],
    player: str,
    spellings: list[str],
    every_round: set[int],
    cycles: int,
    match: bool,
) -> bool:
    """Whether *player* joined by all of *spellings* at once still plays once a round,
    meets no opponent too often, and misses a round of the event at most."""
    rounds = set(games[player].rounds)
    met = {other: len(seen) for other, seen in games[player].met.items()}
    for key in spellings:
        theirs = games[key]
        if rounds & theirs.rounds:
            return False
        rounds |= theirs.rounds
        for other, seen in theirs.met.items():
            met[other] = met.get(other, 0) + len(seen)
    if not match and any(count > cycles for count in met.values()):
        return False
    return len(every_round - rounds) <= 1


__all__ = ["VARIANT_GAMES", "VARIANT_MIN_ROUNDS", "Player", "Roster", "variant_of"]
