"""Standings and crosstables of an event, and the one-line summary ``pdn events`` lists.

Points follow the variant's scoring: 2 for a win and 1 for a draw in international
and Frisian draughts, 1 and ½ in the others; but where the records of the event write
their results the other way (``1-0``, ``1/2-1/2`` in an international event, ``2-0``,
``1-1`` in an 8x8 one) the records say how the event was scored.  A board without a
result counts as played, for no points (``*``).

Players are ranked by points, then by a tie-break — Sonneborn-Berger (the points of
the opponents beaten, and half those of the opponents drawn) in a round robin or a
match, Buchholz (the points of all opponents) otherwise — then by name; players equal
on both share their rank (``3-4``).  The crosstable has a column per opponent (round
robin, match, or rounds unknown) or per round (otherwise), each cell pointing at its
game.  :meth:`Crosstable.to_dict` is the JSON form (``pdn events --format json``),
which :mod:`pdn_tools.report.events` renders as text and HTML.
"""

from __future__ import annotations

from typing import Any

from pdn_tools.collection.events.event import Board, Event
from pdn_tools.diagnostics import GameRef

TWO_POINT_VARIANTS = frozenset({"international", "frisian"})
"""Variants scored 2 for a win, 1 for a draw (the others: 1 and ½)."""


class Cell:
    """One game of a player: against whom, in which round, with which colour, and
    the player's score in half-points (None: no result)."""

    opponent: int
    round: str | None
    colour: str
    halves: int | None
    game: GameRef

    __slots__ = ("colour", "game", "halves", "opponent", "round")

    def __init__(
        self,
        opponent: int,
        round: str | None,
        colour: str,
        halves: int | None,
        game: GameRef,
    ) -> None:
        self.opponent = opponent
        self.round = round
        self.colour = colour
        self.halves = halves
        self.game = game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Cell) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.opponent, self.round, self.colour, self.halves, self.game) == (
            other.opponent,
            other.round,
            other.colour,
            other.halves,
            other.game,
        )

    def __repr__(self) -> str:
        return (
            f"Cell(opponent={self.opponent!r}, "
            f"round={self.round!r}, "
            f"colour={self.colour!r}, "
            f"halves={self.halves!r}, "
            f"game={self.game!r})"
        )

    def __reduce__(self) -> tuple[type[Cell], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Cell, (self.opponent, self.round, self.colour, self.halves, self.game))


class Standing:
    """A player's line of the crosstable."""

    player: int
    name: str
    key: str
    spellings: list[tuple[str, int]]
    joined: dict[str, str]
    """The spellings joined by the rounds, and how their names differ."""
    halves: int
    games: int
    wins: int
    draws: int
    losses: int
    unfinished: int
    tiebreak: int
    """Sonneborn-Berger or Buchholz as the sum of (the player's half-points in a game
    times the opponent's half-points), or of twice the opponent's half-points: half a
    point (2/1/0) or a quarter point (1/½/0) a unit (:func:`tiebreak_number`)."""
    rank: str
    number: int
    """Place in the table (1-based); cells name opponents by it."""
    cells: list[Cell]

    __slots__ = (
        "cells",
        "draws",
        "games",
        "halves",
        "joined",
        "key",
        "losses",
        "name",
        "number",
        "player",
        "rank",
        "spellings",
        "tiebreak",
        "unfinished",
        "wins",
    )

    def __init__(
        self,
        player: int,
        name: str,
        key: str,
        spellings: list[tuple[str, int]],
        joined: dict[str, str] | None = None,
        halves: int = 0,
        games: int = 0,
        wins: int = 0,
        draws: int = 0,
        losses: int = 0,
        unfinished: int = 0,
        tiebreak: int = 0,
        rank: str = "",
        number: int = 0,
        cells: list[Cell] | None = None,
    ) -> None:
        self.player = player
        self.name = name
        self.key = key
        self.spellings = spellings
        self.joined = {} if joined is None else joined
        self.halves = halves
        self.games = games
        self.wins = wins
        self.draws = draws
        self.losses = losses
        self.unfinished = unfinished
        self.tiebreak = tiebreak
        self.rank = rank
        self.number = number
        self.cells = [] if cells is None else cells

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Standing) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.player,
            self.name,
            self.key,
            self.spellings,
            self.joined,
            self.halves,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.unfinished,
            self.tiebreak,
            self.rank,
            self.number,
            self.cells,
        ) == (
            other.player,
            other.name,
            other.key,
            other.spellings,
            other.joined,
            other.halves,
            other.games,
            other.wins,
            other.draws,
            other.losses,
            other.unfinished,
            other.tiebreak,
            other.rank,
            other.number,
            other.cells,
        )

    def __repr__(self) -> str:
        return (
            f"Standing(player={self.player!r}, "
            f"name={self.name!r}, "
            f"key={self.key!r}, "
            f"spellings={self.spellings!r}, "
            f"joined={self.joined!r}, "
            f"halves={self.halves!r}, "
            f"games={self.games!r}, "
            f"wins={self.wins!r}, "
            f"draws={self.draws!r}, "
            f"losses={self.losses!r}, "
            f"unfinished={self.unfinished!r}, "
            f"tiebreak={self.tiebreak!r}, "
            f"rank={self.rank!r}, "
            f"number={self.number!r}, "
            f"cells={self.cells!r})"
        )

    def __reduce__(self) -> tuple[type[Standing], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Standing,
            (
                self.player,
                self.name,
                self.key,
                self.spellings,
                self.joined,
                self.halves,
                self.games,
                self.wins,
                self.draws,
                self.losses,
                self.unfinished,
                self.tiebreak,
                self.rank,
                self.number,
                self.cells,
            ),
        )


def scoring(event: Event) -> str:
    """``2/1/0`` or ``1/½/0``: as the event's records write their results, else the
    variant's."""
    styles = [r.style for b in event.boards for r in b.records if r.outcome]
    international = styles.count(1)
    default = styles.count(2)
    if international != default:
        return "2/1/0" if international > default else "1/\u00bd/0"
    variants = [b.game.variant for b in event.boards]
    common = max(set(variants), key=variants.count) if variants else "international"
    return "2/1/0" if common in TWO_POINT_VARIANTS else "1/\u00bd/0"


def completeness(event: Event) -> float | None:
    """The share of the games a round robin (or Swiss) of its players and rounds
    would have; None when the event looks like neither (a match has no set number)."""
    players = len(event.players)
    boards = sum(1 for b in event.boards if b.white >= 0 and b.black >= 0)
    kind = event.guess.kind
    if kind == "round robin" and players >= 2:
        expected = players * (players - 1) // 2 * event.guess.cycles
        return min(1.0, boards / expected)
    if kind == "swiss" and event.rounds:
        expected = len(event.rounds) * (players // 2)
        return min(1.0, boards / expected) if expected else None
    return None


def _points(halves: int, system: str) -> str:
    if system == "2/1/0":
        return str(halves)
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}\u00bd" if whole else "\u00bd"


def _number(halves: int, system: str) -> float | int:
    return halves if system == "2/1/0" else (halves // 2 if halves % 2 == 0 else halves / 2)


def tiebreak_number(total: int, system: str) -> float | int:
    """A tie-break sum (:attr:`Standing.tiebreak`) in the event's points."""
    value = total / 2 if system == "2/1/0" else total / 4
    return int(value) if value == int(value) else value


class Crosstable:
    """The standings of one event and the games behind them."""

    event: Event
    system: str
    layout: str
    standings: list[Standing]
    rounds: list[str]
    findings: int

    __slots__ = ("event", "findings", "layout", "rounds", "standings", "system")

    def __init__(
        self,
        event: Event,
        system: str,
        layout: str,
        standings: list[Standing],
        rounds: list[str],
        findings: int = 0,
    ) -> None:
        self.event = event
        self.system = system
        self.layout = layout
        self.standings = standings
        self.rounds = rounds
        self.findings = findings

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Crosstable) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.event,
            self.system,
            self.layout,
            self.standings,
            self.rounds,
            self.findings,
        ) == (
            other.event,
            other.system,
            other.layout,
            other.standings,
            other.rounds,
            other.findings,
        )

    def __repr__(self) -> str:
        return (
            f"Crosstable(event={self.event!r}, "
            f"system={self.system!r}, "
            f"layout={self.layout!r}, "
            f"standings={self.standings!r}, "
            f"rounds={self.rounds!r}, "
            f"findings={self.findings!r})"
        )

    def __reduce__(self) -> tuple[type[Crosstable], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Crosstable,
            (self.event, self.system, self.layout, self.standings, self.rounds, self.findings),
        )

    def points(self, halves: int | None) -> str:
        """Half-points written in the event's scoring (``*`` for no result)."""
        return "*" if halves is None else _points(halves, self.system)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (documented in docs/collections.md, Crosstables)."""
        return {
            **summary(self.event, self.findings),
            "scoring": self.system,
            "tiebreak": "Sonneborn-Berger" if self.layout == "opponents" else "Buchholz",
            "layout": self.layout,
            "columns": self.rounds if self.layout == "rounds" else None,
            "standings": [
                {
                    "rank": s.rank,
                    "number": s.number,
                    "name": s.name,
                    "key": s.key,
                    "spellings": [
                        {"spelling": t, "games": n, "joined": s.joined.get(t)}
                        for t, n in s.spellings
                    ],
                    "points": _number(s.halves, self.system),
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "unfinished": s.unfinished,
                    "tiebreak": tiebreak_number(s.tiebreak, self.system),
                    "cells": [
                        {
                            "opponent": c.opponent,
                            "round": c.round,
                            "colour": c.colour,
                            "score": None if c.halves is None else _number(c.halves, self.system),
                            "result": self.points(c.halves),
                            **c.game.to_dict(),
                        }
                        for c in s.cells
                    ],
                }
                for s in self.standings
            ],
        }


def summary(event: Event, findings: int = 0) -> dict[str, Any]:
    """What ``pdn events`` lists of an event (its JSON form)."""
    rounds = event.rounds
    share = completeness(event)
    return {
        "event": event.name,
        "site": event.site,
        "year": event.year,
        "records": len(event.records),
        "games": len(event.boards),
        "rounds": rounds,
        "sub_rounds": event.sub_rounds,
        "players": len(event.players),
        "format": {"guess": event.guess.kind, "reason": event.guess.reason},
        "completeness": None if share is None else round(share, 3),
        "findings": findings,
        "first": event.records[0].ref.to_dict(),
    }


def crosstable(event: Event, findings: int = 0) -> Crosstable:
    """The standings and crosstable of *event*."""
    system = scoring(event)
    roster = event.roster
    lines: dict[int, Standing] = {}
    for number in event.players:
        player = roster.players[number]
        lines[number] = Standing(
            number, player.name, player.key, player.spelling_list(), dict(player.joined)
        )
    played: list[Board] = [
        b for b in event.boards if b.white >= 0 and b.black >= 0 and b.white != b.black
    ]
    for board in played:
        outcome = board.outcome
        for me, other, colour in (
            (board.white, board.black, "white"),
            (board.black, board.white, "black"),
        ):
            line = lines[me]
            halves: int | None
            if outcome == 3:
                halves = 1
            elif outcome in (1, 2):
                halves = 2 if (outcome == 1) == (colour == "white") else 0
            else:
                halves = None
            line.games += 1
            if halves is None:
                line.unfinished += 1
            else:
                line.halves += halves
                line.wins += halves == 2
                line.draws += halves == 1
                line.losses += halves == 0
            line.cells.append(Cell(other, board.round_label, colour, halves, board.game.ref))
    round_robin = event.guess.round_robin or not event.rounds
    for line in lines.values():
        total = 0
        for cell in line.cells:
            theirs = lines[cell.opponent].halves
            if round_robin:
                total += theirs * (cell.halves or 0)
            else:
                total += 2 * theirs
        line.tiebreak = total
    ordered = sorted(
        lines.values(), key=lambda s: (-s.halves, -s.tiebreak, s.name.casefold(), s.player)
    )
    numbers = {s.player: n for n, s in enumerate(ordered, 1)}
    places: dict[tuple[int, int], list[int]] = {}
    for n, line in enumerate(ordered, 1):
        places.setdefault((line.halves, line.tiebreak), []).append(n)
    for n, line in enumerate(ordered):
        line.number = n + 1
        same = places[(line.halves, line.tiebreak)]
        line.rank = str(same[0]) if len(same) == 1 else f"{same[0]}-{same[-1]}"
        for cell in line.cells:
            cell.opponent = numbers[cell.opponent]
        line.cells.sort(
            key=lambda c: (
                (c.opponent, c.game.file_no, c.game.game)
                if round_robin
                else (_round_key(c.round), c.game.file_no, c.game.game)
            )
        )
    if round_robin:
        return Crosstable(event, system, "opponents", ordered, [], findings)
    labels = sorted(
        {c.round for s in ordered for c in s.cells if c.round is not None}, key=_round_key
    )
    return Crosstable(event, system, "rounds", ordered, labels, findings)


def _round_key(label: str | None) -> tuple[int, int]:
    if label is None:
        return (1 << 30, 0)
    number, _, sub = label.partition(".")
    return int(number), int(sub or 0)


__all__ = [
    "TWO_POINT_VARIANTS",
    "Cell",
    "Crosstable",
    "Standing",
    "completeness",
    "crosstable",
    "scoring",
    "summary",
    "tiebreak_number",
]
