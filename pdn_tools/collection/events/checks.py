"""The checks of an event as a whole, each a finding with its own code and place.

Run on an :class:`~pdn_tools.collection.events.event.Event` (its boards: copies and
live-feed snapshots already put together), in this order:

* E51 a player against themselves; E50 a player with two games in one round;
* E52 records of one game that disagree (result, round); W55 live-feed snapshots;
* W51 gaps in the round numbers;
* with a round robin (guessed, or the ``event-format`` rule): W50 a round without a
  player's game, W52 a pairing repeated more than the others, W57 colours that do
  not alternate (info);
* W54 games dated in another year, W53 games dated outside the event's days;
* W56 a player spelled several ways.

Every finding names the event (name, site, year as written), the round when it is
about one, and the games involved in input order.  Findings come out in the order
of the events' first games, then in the order above.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Iterator

from pdn_tools.collection.events.event import Board, Event, Played
from pdn_tools.collection.events.index import EventIndex
from pdn_tools.collection.events.rounds import round_text
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.diagnostics import EventFinding, GameRef

_COLOURS = ("White", "Black")


def _refs(records: Iterable[Played]) -> tuple[GameRef, ...]:
    return tuple(sorted({r.ref for r in records}, key=lambda ref: (ref.file_no, ref.game)))


def _finding(
    event: Event, code: str, message: str, games: Iterable[Played], round_: str | None = None
) -> EventFinding:
    return EventFinding(code, message, event.name, event.site, event.year, round_, _refs(games))


def _names(event: Event, players: Iterable[int]) -> str:
    return ", ".join(event.roster.players[p].name for p in players)


def _games(records: Iterable[Played]) -> str:
    """``games 3 and 7`` (``file:game`` when they lie in several files)."""
    refs = _refs(records)
    files = {ref.file_no for ref in refs}
    parts = [str(ref.game) if len(files) == 1 else f"{ref.file}:{ref.game}" for ref in refs]
    text = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    return ("games " if len(parts) > 1 else "game ") + text


def _day(ordinal: int) -> str:
    return datetime.date.fromordinal(ordinal).strftime("%Y.%m.%d")


def check_event(event: Event, rules: EventRules) -> list[EventFinding]:
    """The findings of one event, in the documented order."""
    found: list[EventFinding] = []
    found.extend(_self_pairings(event))
    found.extend(_doubles(event))
    found.extend(_conflicts(event))
    found.extend(_snapshots(event))
    found.extend(_gaps(event))
    if event.guess.round_robin and event.guess.kind != "match":
        found.extend(_missing(event))
        found.extend(_repeats(event))
    if event.guess.round_robin:
        found.extend(_colours(event, rules.colour_run))
    found.extend(_other_years(event))
    found.extend(_outside_span(event, rules.date_gap, rules.misdated_share))
    found.extend(_spellings(event))
    return found


def _self_pairings(event: Event) -> Iterator[EventFinding]:
    for board in event.boards:
        if board.white >= 0 and board.white == board.black:
            record = board.game
            yield _finding(
                event,
                "E51",
                f"{event.roster.players[board.white].name} plays against themselves "
                f"(White {record.white_spelling!r}, Black {record.black_spelling!r})",
                board.records,
                board.round_label,
            )


def _doubles(event: Event) -> Iterator[EventFinding]:
    if len(event.rounds) < 2:
        return  # one round for all: a simultaneous display, a training match
    by_round: dict[tuple[int, int], list[Board]] = {}
    for board in event.boards:
        if board.unit is not None:
            by_round.setdefault(board.unit, []).append(board)
    for unit in sorted(by_round):
        seen: dict[int, list[Board]] = {}
        for board in by_round[unit]:
            for player in {board.white, board.black}:
                if player >= 0:
                    seen.setdefault(player, []).append(board)
        told: set[frozenset[int]] = set()
        for player, boards in seen.items():
            if len(boards) < 2:
                continue
            ids = frozenset(id(b) for b in boards)
            if ids in told:
                continue
            told.add(ids)
            shared = set.intersection(*({b.white, b.black} for b in boards))
            who = _names(event, sorted(shared)) if len(shared) > 1 else _names(event, [player])
            verb = "play each other" if len(shared) > 1 else "plays"
            records = [r for b in boards for r in b.records]
            yield _finding(
                event,
                "E50",
                f"{who} {verb} {len(boards)} times in round {round_text(*unit)} "
                f"({_games(b.game for b in boards)})",
                records,
                round_text(*unit),
            )


def _conflicts(event: Event) -> Iterator[EventFinding]:
    for what, records in event.conflicts:
        if what == "result":
            told = ", ".join(f"{_result(r)} in {_games([r])}" for r in records)
            message = f"records of one game give different results: {told}"
        else:
            told = ", ".join(f"round {r.round_value} in {_games([r])}" for r in records)
            message = f"records of one game give different rounds: {told}"
        first = records[0]
        white = event.roster.players[first.white].name if first.white >= 0 else "?"
        black = event.roster.players[first.black].name if first.black >= 0 else "?"
        yield _finding(event, "E52", f"{white} - {black}: {message}", records)


def _result(record: Played) -> str:
    return {1: "a White win", 2: "a Black win", 3: "a draw"}.get(record.outcome, "no result")


def _one(record: Played, other: Played) -> str:
    """``game 3``, or ``game 3 of FILE`` when *other* lies in another file."""
    if record.ref.file_no == other.ref.file_no:
        return f"game {record.ref.game}"
    return f"game {record.ref.game} of {record.ref.file}"


def _snapshots(event: Event) -> Iterator[EventFinding]:
    for short, grown in event.snapshots:
        yield _finding(
            event,
            "W55",
            f"{_one(short, grown)} ({short.plies} plies) is a live-feed snapshot of "
            f"{_one(grown, short)} ({grown.plies} plies) between the same players"
            + (f" in round {short.round_value}" if short.round_value else ""),
            [short, grown],
            short.round_value if short.round is not None else None,
        )


def _ranges(numbers: list[int]) -> str:
    parts: list[str] = []
    start = previous = numbers[0]
    for number in [*numbers[1:], 0]:
        if number == previous + 1:
            previous = number
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    return ", ".join(parts)


def _gaps(event: Event) -> Iterator[EventFinding]:
    rounds = event.rounds
    if len(rounds) < 2:
        return
    known = set(rounds)  # once: thousands of rounds would build it thousands of times
    missing = [r for r in range(rounds[0], rounds[-1]) if r not in known]
    if not missing:
        return
    after = [b.game for b in event.boards if b.unit is not None and b.unit[0] > missing[0]]
    first = min(after, key=lambda r: r.position)
    word = "round" if len(missing) == 1 else "rounds"
    yield _finding(
        event,
        "W51",
        f"no game of {word} {_ranges(missing)}, though the event has games of rounds "
        f"{_ranges(rounds)}",
        [first],
    )


def _missing(event: Event) -> Iterator[EventFinding]:
    players = set(event.players)
    byes = len(players) % 2
    rounds: dict[int, list[Board]] = {}
    for board in event.boards:
        if board.unit is not None:
            rounds.setdefault(board.unit[0], []).append(board)
    for number in sorted(rounds):
        boards = rounds[number]
        played = {p for b in boards for p in (b.white, b.black) if p >= 0}
        absent = sorted(players - played, key=lambda p: event.roster.players[p].name)
        if len(absent) <= byes:
            continue
        bye = " (one of them has the bye)" if byes else ""
        yield _finding(
            event,
            "W50",
            f"round {number} has no game of {_names(event, absent)}{bye}; they play in "
            f"other rounds",
            [b.game for b in boards],
            str(number),
        )


def _repeats(event: Event) -> Iterator[EventFinding]:
    meetings: dict[tuple[int, int], list[Board]] = {}
    for board in event.boards:
        if board.white >= 0 and board.black >= 0 and board.white != board.black:
            pair = (min(board.white, board.black), max(board.white, board.black))
            meetings.setdefault(pair, []).append(board)
    expected = event.guess.cycles
    for pair, boards in meetings.items():
        rounds_met = {b.unit for b in boards if b.unit is not None}
        if len(rounds_met) + sum(1 for b in boards if b.unit is None) <= expected:
            continue  # twice in one round is E50's
        rounds = [b.round_label or "?" for b in boards]
        yield _finding(
            event,
            "W52",
            f"{_names(event, pair)} meet {len(boards)} times (rounds {', '.join(rounds)}; "
            f"{_games(b.game for b in boards)}) where the other pairs meet {expected} "
            f"time{'s' if expected > 1 else ''}",
            [b.game for b in boards],
        )


def _colours(event: Event, run: int) -> Iterator[EventFinding]:
    games: dict[int, list[tuple[int, int, Board]]] = {}
    for board in event.boards:
        if board.unit is None or board.white == board.black:
            continue
        games.setdefault(board.white, []).append((board.unit[0], 0, board))
        games.setdefault(board.black, []).append((board.unit[0], 1, board))
    for player in event.players:
        played = games.get(player, [])
        per_round = Counter(item[0] for item in played)
        played = sorted((item for item in played if per_round[item[0]] == 1), key=lambda i: i[0])
        streak: list[tuple[int, int, Board]] = []
        for item in played:
            if streak and (item[1] != streak[-1][1] or item[0] != streak[-1][0] + 1):
                if len(streak) >= run:
                    break
                streak = []
            streak.append(item)
        if len(streak) < run:
            continue
        rounds = _ranges([item[0] for item in streak])
        yield _finding(
            event,
            "W57",
            f"{event.roster.players[player].name} has {_COLOURS[streak[0][1]]} in "
            f"{len(streak)} rounds in a row (rounds {rounds})",
            [item[2].game for item in streak],
        )


def _other_years(event: Event) -> Iterator[EventFinding]:
    odd = {id(record) for record, _count in event.misdated}
    years = sorted({r.year for r in event.records if r.year and id(r) not in odd})
    # An event across New Year is named by one year, its other games dated in two.
    dated = f"{years[0]}-{years[-1]}" if len(years) > 1 else str(event.year)
    for record, count in event.misdated:
        yield _finding(
            event,
            "W54",
            f"game {record.ref.game} is dated {record.year}, the {count} other games of "
            f"the event {dated}",
            [record],
            record.round_value if record.round is not None else None,
        )


def _outside_span(event: Event, gap: int, share: int) -> Iterator[EventFinding]:
    odd = {id(r) for r, _count in event.misdated}
    dated = sorted((r for r in event.records if r.day and id(r) not in odd), key=lambda r: r.day)
    if len(dated) < 2:
        return
    parts: list[list[Played]] = [[dated[0]]]
    for record in dated[1:]:
        if record.day - parts[-1][-1].day > gap:
            parts.append([])
        parts[-1].append(record)
    if len(parts) == 1:
        return
    main = max(parts, key=lambda part: (len(part), -part[0].day))
    span = f"{_day(main[0].day)}-{_day(main[-1].day)}"
    for part in parts:
        if part is main or len(part) * 100 > share * len(main):
            continue
        for record in sorted(part, key=lambda r: r.position):
            yield _finding(
                event,
                "W53",
                f"game {record.ref.game} is dated {_day(record.day)}, the event was "
                f"played {span} ({len(main)} games)",
                [record],
                record.round_value if record.round is not None else None,
            )


def _spellings(event: Event) -> Iterator[EventFinding]:
    # Each player's records gathered once: thousands of players spelled two ways
    # would each look through every record of the event.
    of_player: dict[int, list[Played]] = {}
    for r in event.records:
        of_player.setdefault(r.white, []).append(r)
        if r.black != r.white:
            of_player.setdefault(r.black, []).append(r)
    for number, player in enumerate(event.roster.players):
        if len(player.spellings) < 2:
            continue
        own = of_player.get(number, [])
        listed = "; ".join(
            f"{s!r} ({n}{_joined(own, number, s, player.joined.get(s))})"
            for s, n in player.spelling_list()
        )
        records = [
            r
            for r in own
            if (
                r.white == number
                and r.white_spelling is not None
                and _shown(r.white_spelling) != player.name
            )
            or (
                r.black == number
                and r.black_spelling is not None
                and _shown(r.black_spelling) != player.name
            )
        ]
        yield _finding(
            event,
            "W56",
            f"{player.name!r} is spelled {len(player.spellings)} ways: {listed}",
            records,
        )


def _joined(own: list[Played], number: int, spelling: str, how: str | None) -> str:
    """What W56 says of a spelling joined by the rounds: ``, joined by the rounds:
    other initials; game 28 in round 2, where the player has no other game``; nothing
    for another spelling (*how* None).  *own*: the records of the player (number
    *number*), in input order."""
    if how is None:
        return ""
    records = [
        r
        for r in own
        if (r.white == number and r.white_spelling and _shown(r.white_spelling) == spelling)
        or (r.black == number and r.black_spelling and _shown(r.black_spelling) == spelling)
    ]
    rounds = sorted({r.round[0] for r in records if r.round is not None})
    word = "round" if len(rounds) == 1 else "rounds"
    return (
        f", joined by the rounds: {how}; {_games(records)} in {word} {_ranges(rounds)}, "
        f"where the player has no other game"
    )


def _shown(spelling: str) -> str:
    from pdn_tools.pdn.players import clean_spelling

    return clean_spelling(spelling)


def self_paired(index: EventIndex) -> Iterator[EventFinding]:
    """E51 for the games of no event whose White and Black name one player."""
    for game in index.self_paired:
        yield EventFinding(
            "E51",
            f"{game.white} plays against themselves (White {game.white!r}, Black {game.black!r})",
            None,
            games=(game.ref,),
        )


__all__ = ["check_event", "self_paired"]
