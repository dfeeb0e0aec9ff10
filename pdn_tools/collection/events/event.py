"""One event put together from the index: its games, players, rounds and boards.

A *group* of the index (one Event, and Site and file when the key holds them) is
split into events by year (:func:`events_of`): the games of each year are one
event, but

* years whose dates meet across New Year (the last game of one within the
  ``event-date-gap`` of the first of the next) are one event;
* a year holding at most ``misdated-share`` percent as many games as the year with
  the most is taken for mis-dated games of that event (W54) and joins it;
* games without a year join the event when the group makes only one, else they
  form an event of their own.

Within an event (:func:`build`) the players are settled by
:class:`~pdn_tools.collection.events.roster.Roster`, and the records are put
together into *boards*, one per game played: records of the same game (same
players, same game id) are one board, and so is a live-feed snapshot (its moves a
strict beginning of another record's, same players and round) with the game it grew
into; a record without moves joins the game of its players and round; what the
records of one board disagree on is noted (E52).  A record whose moves were not
replayed (``--syntax-only``, a rule profile that is not replayed, an unknown
variant) has moves all the same: it is no record without moves, and no snapshot
(its moves are not known as played); it is a copy only by its game id, which its
written moves give (:func:`~pdn_tools.collection.events.facts.game_facts`).  A dotted round
(``3.1``, ``3.2``) numbers boards of round 3, unless two players meet in two of
them: then the numbers after the dot are sub-rounds (games of a mini-match) and
each is a round of its own.

:class:`Guess` says how the event looks paired — a match, a round robin, a Swiss
tournament or unknown — with the reason, so that reports show it without assuming it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from pdn_tools.collection.events.index import EventIndex
from pdn_tools.collection.events.roster import Roster
from pdn_tools.collection.events.rounds import parse_round, round_text
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.diagnostics import GameRef, freeze

SAME_GAME_PLIES = 20
"""Records of one game (same players and moves) given different rounds are taken for
two games when shorter than this (a short draw repeated), else for copies."""
UNKNOWN_ROUND_PLIES = 20
"""A snapshot without a round must have at least this many plies (with a round, the
round and the players make the match)."""
ROUND_ROBIN_COVERAGE = 0.75
"""Share of all pairings an event must show (each the same number of times) to look
like a round robin."""


class Played:
    """One record of an event: where it is and what it says."""

    n: int
    ref: GameRef
    round: tuple[int, int] | None
    round_value: str | None
    white: int
    black: int
    white_spelling: str | None
    black_spelling: str | None
    outcome: int
    style: int
    game_id: int
    plies: int
    complete: bool
    day: int
    year: int
    variant: str
    written: bool
    """Whether the record has moves as written (replayed or not): False for a record
    without moves, which joins the game of its players and round."""

    __slots__ = (
        "black",
        "black_spelling",
        "complete",
        "day",
        "game_id",
        "n",
        "outcome",
        "plies",
        "ref",
        "round",
        "round_value",
        "style",
        "variant",
        "white",
        "white_spelling",
        "written",
        "year",
    )

    def __init__(
        self,
        n: int,
        ref: GameRef,
        round: tuple[int, int] | None,
        round_value: str | None,
        white: int,
        black: int,
        white_spelling: str | None,
        black_spelling: str | None,
        outcome: int,
        style: int,
        game_id: int,
        plies: int,
        complete: bool,
        day: int,
        year: int,
        variant: str,
        written: bool = True,
    ) -> None:
        self.n = n
        self.ref = ref
        self.round = round
        self.round_value = round_value
        self.white = white
        self.black = black
        self.white_spelling = white_spelling
        self.black_spelling = black_spelling
        self.outcome = outcome
        self.style = style
        self.game_id = game_id
        self.plies = plies
        self.complete = complete
        self.day = day
        self.year = year
        self.variant = variant
        self.written = written

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Played) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.n,
            self.ref,
            self.round,
            self.round_value,
            self.white,
            self.black,
            self.white_spelling,
            self.black_spelling,
            self.outcome,
            self.style,
            self.game_id,
            self.plies,
            self.complete,
            self.day,
            self.year,
            self.variant,
            self.written,
        ) == (
            other.n,
            other.ref,
            other.round,
            other.round_value,
            other.white,
            other.black,
            other.white_spelling,
            other.black_spelling,
            other.outcome,
            other.style,
            other.game_id,
            other.plies,
            other.complete,
            other.day,
            other.year,
            other.variant,
            other.written,
        )

    def __repr__(self) -> str:
        return (
            f"Played(n={self.n!r}, "
            f"ref={self.ref!r}, "
            f"round={self.round!r}, "
            f"round_value={self.round_value!r}, "
            f"white={self.white!r}, "
            f"black={self.black!r}, "
            f"white_spelling={self.white_spelling!r}, "
            f"black_spelling={self.black_spelling!r}, "
            f"outcome={self.outcome!r}, "
            f"style={self.style!r}, "
            f"game_id={self.game_id!r}, "
            f"plies={self.plies!r}, "
            f"complete={self.complete!r}, "
            f"day={self.day!r}, "
            f"year={self.year!r}, "
            f"variant={self.variant!r}, "
            f"written={self.written!r})"
        )

    def __reduce__(self) -> tuple[type[Played], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Played,
            (
                self.n,
                self.ref,
                self.round,
                self.round_value,
                self.white,
                self.black,
                self.white_spelling,
                self.black_spelling,
                self.outcome,
                self.style,
                self.game_id,
                self.plies,
                self.complete,
                self.day,
                self.year,
                self.variant,
                self.written,
            ),
        )

    @property
    def position(self) -> tuple[int, int]:
        """Input order: the input's number, the game's index in it."""
        return self.ref.file_no, self.ref.game


class Board:
    """One game played: the record shown (the longest, then the first) and every
    record of it (copies, snapshots), in input order."""

    game: Played
    records: list[Played]
    unit: tuple[int, int] | None
    """The round as the checks count it: (round, sub-round), sub-round 0 unless the
    event numbers sub-rounds; None when unknown."""

    __slots__ = ("game", "records", "unit")

    def __init__(
        self,
        game: Played,
        records: list[Played],
        unit: tuple[int, int] | None = None,
    ) -> None:
        self.game = game
        self.records = records
        self.unit = unit

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.game, self.records, self.unit) == (other.game, other.records, other.unit)

    def __repr__(self) -> str:
        return f"Board(game={self.game!r}, records={self.records!r}, unit={self.unit!r})"

    def __reduce__(self) -> tuple[type[Board], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Board, (self.game, self.records, self.unit))

    @property
    def white(self) -> int:
        return self.game.white

    @property
    def black(self) -> int:
        return self.game.black

    @property
    def outcome(self) -> int:
        """The result of the record shown, else of the first record with one."""
        if self.game.outcome:
            return self.game.outcome
        return next((r.outcome for r in self.records if r.outcome), 0)

    @property
    def round_label(self) -> str | None:
        """The round as reports write it (None: unknown)."""
        return None if self.unit is None else round_text(*self.unit)


class Guess:
    """How an event looks paired: ``match``, ``round robin``, ``swiss`` or
    ``unknown``, the number of times each pair meets (round robin), and why."""

    kind: str
    reason: str
    cycles: int

    __slots__ = ("cycles", "kind", "reason")

    def __init__(
        self,
        kind: str,
        reason: str,
        cycles: int = 1,
    ) -> None:
        self.kind = kind
        self.reason = reason
        self.cycles = cycles

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Guess) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.reason, self.cycles) == (other.kind, other.reason, other.cycles)

    def __hash__(self) -> int:
        return hash((self.kind, self.reason, self.cycles))

    def __repr__(self) -> str:
        return f"Guess(kind={self.kind!r}, reason={self.reason!r}, cycles={self.cycles!r})"

    def __reduce__(self) -> tuple[type[Guess], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Guess, (self.kind, self.reason, self.cycles))

    @property
    def round_robin(self) -> bool:
        return self.kind in ("round robin", "match")


freeze(Guess)


class Event:
    """One event: name, site and year as written, its records, players and boards,
    and what putting them together found (see the module documentation)."""

    name: str
    site: str | None
    year: int | None
    records: list[Played]
    roster: Roster
    boards: list[Board]
    sub_rounds: bool
    misdated: list[tuple[Played, int]]
    """Records of another year than the event's (W54), with that year's record count."""
    snapshots: list[tuple[Played, Played]]
    """(snapshot, the record it grew into)."""
    conflicts: list[tuple[str, list[Played]]]
    """What records of one board disagree on ("result", "round"), and the records."""
    guess: Guess

    __slots__ = (
        "boards",
        "conflicts",
        "guess",
        "misdated",
        "name",
        "records",
        "roster",
        "site",
        "snapshots",
        "sub_rounds",
        "year",
    )

    def __init__(
        self,
        name: str,
        site: str | None,
        year: int | None,
        records: list[Played],
        roster: Roster,
        boards: list[Board] | None = None,
        sub_rounds: bool = False,
        misdated: list[tuple[Played, int]] | None = None,
        snapshots: list[tuple[Played, Played]] | None = None,
        conflicts: list[tuple[str, list[Played]]] | None = None,
        guess: Guess | None = None,
    ) -> None:
        self.name = name
        self.site = site
        self.year = year
        self.records = records
        self.roster = roster
        self.boards = [] if boards is None else boards
        self.sub_rounds = sub_rounds
        self.misdated = [] if misdated is None else misdated
        self.snapshots = [] if snapshots is None else snapshots
        self.conflicts = [] if conflicts is None else conflicts
        self.guess = Guess("unknown", "no games") if guess is None else guess

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.name,
            self.site,
            self.year,
            self.records,
            self.roster,
            self.boards,
            self.sub_rounds,
            self.misdated,
            self.snapshots,
            self.conflicts,
            self.guess,
        ) == (
            other.name,
            other.site,
            other.year,
            other.records,
            other.roster,
            other.boards,
            other.sub_rounds,
            other.misdated,
            other.snapshots,
            other.conflicts,
            other.guess,
        )

    def __repr__(self) -> str:
        return (
            f"Event(name={self.name!r}, "
            f"site={self.site!r}, "
            f"year={self.year!r}, "
            f"records={self.records!r}, "
            f"roster={self.roster!r}, "
            f"boards={self.boards!r}, "
            f"sub_rounds={self.sub_rounds!r}, "
            f"misdated={self.misdated!r}, "
            f"snapshots={self.snapshots!r}, "
            f"conflicts={self.conflicts!r}, "
            f"guess={self.guess!r})"
        )

    def __reduce__(self) -> tuple[type[Event], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Event,
            (
                self.name,
                self.site,
                self.year,
                self.records,
                self.roster,
                self.boards,
                self.sub_rounds,
                self.misdated,
                self.snapshots,
                self.conflicts,
                self.guess,
            ),
        )

    @property
    def label(self) -> str:
        """``NK 2003 (Amsterdam, 2003)``."""
        extra = [p for p in (self.site, str(self.year) if self.year else None) if p]
        return f"{self.name} ({', '.join(extra)})" if extra else self.name

    @property
    def rounds(self) -> list[int]:
        """The round numbers of the boards, ascending (sub-rounds not counted)."""
        return sorted({b.unit[0] for b in self.boards if b.unit is not None})

    @property
    def players(self) -> list[int]:
        """The numbers of the players who have a board."""
        seen = {b.white for b in self.boards} | {b.black for b in self.boards}
        return sorted(p for p in seen if p >= 0)

    @property
    def first(self) -> tuple[int, int]:
        """The input order of its first record."""
        return self.records[0].position


# -- events of a group ---------------------------------------------------------------


class Oversized:
    """An event of more records than the ``event-max-games`` rule allows: not put
    together (its size would bound the memory no more), only named and counted."""

    name: str
    site: str | None
    year: int | None
    records: int
    ref: GameRef
    """Where its first record is."""

    __slots__ = ("name", "records", "ref", "site", "year")

    def __init__(
        self,
        name: str,
        site: str | None,
        year: int | None,
        records: int,
        ref: GameRef,
    ) -> None:
        self.name = name
        self.site = site
        self.year = year
        self.records = records
        self.ref = ref

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Oversized) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.site, self.year, self.records, self.ref) == (
            other.name,
            other.site,
            other.year,
            other.records,
            other.ref,
        )

    def __hash__(self) -> int:
        return hash((self.name, self.site, self.year, self.records, self.ref))

    def __repr__(self) -> str:
        return (
            f"Oversized(name={self.name!r}, "
            f"site={self.site!r}, "
            f"year={self.year!r}, "
            f"records={self.records!r}, "
            f"ref={self.ref!r})"
        )

    def __reduce__(self) -> tuple[type[Oversized], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Oversized, (self.name, self.site, self.year, self.records, self.ref))

    @property
    def first(self) -> tuple[int, int]:
        return self.ref.file_no, self.ref.game


freeze(Oversized)


def events_of(index: EventIndex, group: int, games: list[int]) -> Iterator[Event | Oversized]:
    """The events of one group of *index* (its *games* in input order), in the order
    of their first game; those of more records than the ``event-max-games`` rule
    allows as :class:`Oversized`."""
    rules = index.rules
    year_of = index.columns["year"]
    name, site = index.group_name(group)
    events: list[tuple[int, list[int], list[tuple[int, int]]]] = []
    if "year" not in rules.key:
        counts = Counter(year_of[n] for n in games if year_of[n])
        top, most = max(counts.items(), key=lambda item: (item[1], -item[0]), default=(0, 0))
        rare = {y for y, c in counts.items() if y != top and c * 100 <= rules.misdated_share * most}
        events.append((top, list(games), [(n, most) for n in games if year_of[n] in rare]))
    else:
        by_year: dict[int, list[int]] = {}
        for n in games:
            by_year.setdefault(year_of[n], []).append(n)
        unknown = by_year.pop(0, [])
        parts = _join_new_year(index, by_year, rules.date_gap)
        if parts:
            dominant = max(parts, key=lambda p: (len(p[1]), -p[0]))
            odd: list[tuple[int, int]] = []
            for year, members in parts:
                share = len(members) * 100 <= rules.misdated_share * len(dominant[1])
                if year != dominant[0] and share:
                    odd.extend((n, len(dominant[1])) for n in members)
                else:
                    events.append((year, list(members), []))
            for year, members, misdated in events:
                if year == dominant[0]:
                    members.extend(n for n, _count in odd)
                    misdated.extend(odd)
        if unknown:
            if len(events) == 1:
                events[0][1].extend(unknown)
            else:
                events.append((0, unknown, []))
    built: list[Event | Oversized] = []
    for year, members, odd in events:
        members.sort(key=lambda n: _pos(index, n))
        if len(members) > rules.max_games:
            built.append(Oversized(name, site, year or None, len(members), index.ref(members[0])))
        else:
            built.append(build(index, name, site, year or None, members, odd))
    yield from sorted(built, key=lambda event: event.first)


def _pos(index: EventIndex, n: int) -> tuple[int, int]:
    return index.columns["file_no"][n], index.columns["game"][n]


def _join_new_year(
    index: EventIndex, by_year: dict[int, list[int]], gap: int
) -> list[tuple[int, list[int]]]:
    """The years of a group as (year, records); consecutive years whose dates meet
    across New Year (within *gap* days) are one, named by the year with more records."""
    day = index.columns["day"]
    parts: list[tuple[int, list[int]]] = []
    last_year = 0
    for year in sorted(by_year):
        members = by_year[year]
        if parts and last_year == year - 1:
            named, previous = parts[-1]
            last = max((day[n] for n in previous if day[n]), default=0)
            first = min((day[n] for n in members if day[n]), default=0)
            if last and first and 0 <= first - last <= gap:
                kept = named if len(previous) >= len(members) else year
                parts[-1] = (kept, previous + members)
                last_year = year
                continue
        parts.append((year, list(members)))
        last_year = year
    return parts


# -- one event -----------------------------------------------------------------------


def build(
    index: EventIndex,
    name: str,
    site: str | None,
    year: int | None,
    members: list[int],
    misdated: list[tuple[int, int]] | None = None,
) -> Event:
    """Put one event together from its records (index numbers, in input order)."""
    cols = index.columns
    rules = index.rules
    pairings = [(index.string(cols["white"][n]), index.string(cols["black"][n])) for n in members]
    values = [index.string(cols["round"][n]) for n in members]
    rounds = [parse_round(value) for value in values]
    numbers = [None if read is None else read[0] for read in rounds]
    roster = Roster(pairings, rules.initials, numbers, rules.variants)
    records: list[Played] = []
    for n, (white, black), value, read in zip(members, pairings, values, rounds, strict=True):
        flags = cols["flags"][n]
        records.append(
            Played(
                n=n,
                ref=index.ref(n),
                round=read,
                round_value=value,
                white=roster.player(white),
                black=roster.player(black),
                white_spelling=white,
                black_spelling=black,
                outcome=flags & 3,
                style=flags >> 2 & 3,
                game_id=cols["game_id"][n],
                plies=cols["plies"][n],
                complete=bool(flags >> 4 & 1),
                day=cols["day"][n],
                year=cols["year"][n],
                variant=index.string(cols["variant"][n]) or "unknown",
                written=bool(flags >> 5 & 1),
            )
        )
    event = Event(name, site, year, records, roster)
    by_n = {r.n: r for r in records}
    event.misdated = [(by_n[n], count) for n, count in (misdated or []) if n in by_n]
    boards = _copies(records, event)
    event.sub_rounds = _numbers_sub_rounds(boards)
    for board in boards:
        board.unit = _unit(_board_round(board), event.sub_rounds)
    event.boards = _snapshots(index, boards, event)
    event.guess = guess(event, rules)
    return event


def _unit(round_: tuple[int, int] | None, sub_rounds: bool) -> tuple[int, int] | None:
    if round_ is None:
        return None
    return (round_[0], round_[1]) if sub_rounds else (round_[0], 0)


def _same_round(one: tuple[int, int] | None, other: tuple[int, int] | None) -> bool:
    """Whether two records' rounds can be the same board: unknown, the same round, or
    one round written with a board or sub-round number and once without (``1`` and
    ``1.1``); ``1.1`` and ``1.2`` are two boards."""
    if one is None or other is None or one == other:
        return True
    return one[0] == other[0] and not (one[1] and other[1])


def _board_round(board: Board) -> tuple[int, int] | None:
    """The round of a board's game, with the number after the dot a copy gives when
    the record kept for the board has none (``1`` and ``1.1``: round 1, board 1)."""
    played = board.game.round
    if played is None or played[1]:
        return played
    for record in board.records:
        if record.round is not None and record.round[0] == played[0] and record.round[1]:
            return record.round
    return played


def _copies(records: list[Played], event: Event) -> list[Board]:
    """Boards of records of the same game (same players and game id)."""
    boards: list[Board] = []
    same: dict[tuple[int, int, int], _Copies] = {}
    for record in records:
        if record.white < 0 or record.black < 0 or record.game_id == 0:
            boards.append(Board(record, [record]))
            continue
        key = (record.white, record.black, record.game_id)
        copies = same.get(key)
        if copies is None:
            copies = same[key] = _Copies()
        found = copies.find(record)
        if found is not None:
            found.records.append(record)
        else:
            board = Board(record, [record])
            boards.append(board)
            copies.add(board)
    for board in boards:
        if len(board.records) > 1:
            _disagreements(board, event)
    return boards


class _Copies:
    """The boards of one game (same players and game id), in the order made, found
    by the round of their first record: the board a record joins is the first whose
    first record's round is :func:`_same_round` as its own (any board, when the game
    is long enough not to be a short one repeated).  Looked up by round, not board by
    board: a short game repeated in thousands of rounds would take their number
    squared."""

    boards: list[Board]
    exact: dict[tuple[int, int], int]
    """The first board of each round (its position in :attr:`boards`)."""
    by_number: dict[int, int]
    """The first board of each round number, whatever follows the dot."""

    __slots__ = ("boards", "by_number", "exact")

    def __init__(self) -> None:
        self.boards = []
        self.exact = {}
        self.by_number = {}

    def find(self, record: Played) -> Board | None:
        if not self.boards:
            return None
        played = record.round
        if played is None or record.plies >= SAME_GAME_PLIES or self.boards[0].game.round is None:
            return self.boards[0]  # a first board of unknown round takes every record
        if played[1]:  # 1.2 goes with 1.2 and 1
            options = [self.exact.get(played), self.exact.get((played[0], 0))]
        else:  # 1 goes with 1 and every 1.x
            options = [self.by_number.get(played[0])]
        found = [at for at in options if at is not None]
        return self.boards[min(found)] if found else None

    def add(self, board: Board) -> None:
        played = board.game.round
        at = len(self.boards)
        self.boards.append(board)
        if played is not None:
            self.exact.setdefault(played, at)
            self.by_number.setdefault(played[0], at)


def _disagreements(board: Board, event: Event) -> None:
    records = board.records
    outcomes = {r.outcome for r in records if r.outcome}
    if len(outcomes) > 1:
        event.conflicts.append(("result", [r for r in records if r.outcome]))
    if _rounds_disagree([r.round for r in records if r.round is not None]):
        event.conflicts.append(("round", [r for r in records if r.round is not None]))


def _rounds_disagree(rounds: list[tuple[int, int]]) -> bool:
    """Whether two of *rounds* are not :func:`_same_round`, in one pass: two round
    numbers, or one round given two numbers after the dot (``1.1`` and ``1.2``; ``1``
    goes with both).  Not pair by pair: thousands of copies of one game would take
    their number squared."""
    mains = {one[0] for one in rounds}
    if len(mains) > 1:
        return True
    return len({one[1] for one in rounds if one[1]}) > 1


def _numbers_sub_rounds(boards: list[Board]) -> bool:
    """Whether the numbers after the dot are sub-rounds: two players meet in two
    sub-numbers of one round."""
    seen: dict[tuple[int, int, int], int] = {}
    for board in boards:
        played = _board_round(board)
        if played is None or not played[1] or board.white < 0 or board.black < 0:
            continue
        pair = (played[0], min(board.white, board.black), max(board.white, board.black))
        sub = seen.setdefault(pair, played[1])
        if sub != played[1]:
            return True
    return False


def _snapshots(index: EventIndex, boards: list[Board], event: Event) -> list[Board]:
    """The boards with each live-feed snapshot put together with the game it grew
    into (the longest record whose moves it begins), and each record without moves
    with the game of its players and round (the longest record, one with written
    moves before one without).  A record that was not replayed but has written moves
    is no record without moves (its plies count 0 all the same): it joins nothing.

    A pairing's records are sorted by their move digests, so that the records whose
    moves begin with a record's come right after it: a match of thousands of games
    between two players is put together in n log n, not n squared."""
    candidates: dict[tuple[int, int, tuple[int, int] | None], list[Board]] = {}
    for board in boards:
        if board.white >= 0 and board.black >= 0:
            candidates.setdefault((board.white, board.black, board.unit), []).append(board)
    gone: set[int] = set()
    for (_w, _b, unit), group in candidates.items():
        if len(group) < 2:
            continue
        longest = min(group, key=lambda b: (-b.game.plies, not b.game.written, b.game.position))
        for empty in group:  # a record without moves: a copy of the game, no snapshot
            if empty is not longest and not empty.game.written:
                _join(longest, empty, event)
                gone.add(id(empty))
        entries = sorted(
            ((index.digest(b.game.n), b.game.position, b) for b in group if id(b) not in gone),
            key=lambda entry: (entry[0], entry[1]),
        )
        grown_into: list[tuple[Board, Board]] = []
        for at, (mine, _position, short) in enumerate(entries):
            record = short.game
            if not record.complete or not mine or record.plies < 1:
                continue
            if unit is None and (record.plies < UNKNOWN_ROUND_PLIES or short.outcome):
                continue  # without a round, only an unfinished record is a snapshot
            best: Board | None = None
            for later in range(at + 1, len(entries)):  # no slice: a copy of the rest each
                digest, _where, other = entries[later]
                if not digest.startswith(mine):
                    break
                if other.game.plies > record.plies and (
                    best is None or other.game.plies > best.game.plies
                ):
                    best = other
            if best is not None:
                grown_into.append((short, best))
        for short, grown in grown_into:
            gone.add(id(short))
            event.snapshots.extend((copy, grown.game) for copy in short.records)
            _join(grown, short, event)
    return [b for b in boards if id(b) not in gone]


def _join(kept: Board, other: Board, event: Event) -> None:
    """Put the records of *other* with those of *kept* (E52 when a result disagrees)."""
    for copy in other.records:
        if copy.outcome and kept.outcome and copy.outcome != kept.outcome:
            event.conflicts.append(("result", [copy, kept.game]))
    kept.records = sorted(kept.records + other.records, key=lambda r: r.position)


# -- the pairing system --------------------------------------------------------------


def guess(event: Event, rules: EventRules) -> Guess:
    """How *event* looks paired (the ``event-format`` rule may say instead)."""
    players = event.players
    n = len(players)
    pairs: Counter[tuple[int, int]] = Counter()
    for board in event.boards:
        if board.white >= 0 and board.black >= 0 and board.white != board.black:
            pairs[(min(board.white, board.black), max(board.white, board.black))] += 1
    rounds = event.rounds
    if n < 2 or not pairs:
        return Guess("unknown", "too few games with both players known")
    cycles = max(1, Counter(pairs.values()).most_common(1)[0][0])
    if rules.format == "swiss":
        return Guess("swiss", "the event-format rule says swiss")
    if n == 2:
        return Guess("match", f"two players, {sum(pairs.values())} game(s)", cycles)
    total = n * (n - 1) // 2
    met = len(pairs)
    share = met / total
    if rules.format == "round-robin":
        return Guess("round robin", "the event-format rule says round-robin", cycles)
    needed = (n - 1 if n % 2 == 0 else n) * cycles
    if share >= ROUND_ROBIN_COVERAGE and (not rounds or max(rounds) <= needed):
        how = "once" if cycles == 1 else f"{cycles} times"
        return Guess(
            "round robin",
            f"{met} of the {total} pairings of {n} players met (most of them {how})",
            cycles,
        )
    if rounds and max(rounds) < n - 1 and max(pairs.values()) == 1:
        return Guess(
            "swiss",
            f"{len(rounds)} round(s) for {n} players, no pairing repeated "
            f"({met} of {total} pairings met)",
        )
    return Guess("unknown", f"{met} of the {total} pairings of {n} players met")


def build_events(index: EventIndex) -> Iterator[Event | Oversized]:
    """Every event of *index*, in the order of their first game (within a group;
    :func:`~pdn_tools.collection.events.results.assess` orders all)."""
    for group, games in index.groups():
        yield from events_of(index, group, games)


__all__ = [
    "Board",
    "Event",
    "Guess",
    "Oversized",
    "Played",
    "build",
    "build_events",
    "events_of",
    "guess",
]
