"""Games of one pairing that were not replayed (``--syntax-only``, a GameType without a
rule profile) are put together into boards by what is known of them: their moves are
written, so none of them is a record without moves (only a record that has no moves
at all joins the game of its players and round), and records are copies when their
written moves are the same.  Different games of one pairing must stay different games
(no false E52, the right counts in ``pdn events``)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import run
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools.collection.events.event import Event, build_events
from pdn_tools.collection.events.facts import game_facts, unpack
from pdn_tools.collection.events.index import EventIndex
from pdn_tools.pdn.reader import read_string

FIRST = "1. 32-28 19-23 2. 28x19 14x23"
SECOND = "1. 33-28 18-23 2. 39-33 12-18"


def record(result: str, moves: str, game_type: str = "20", round_: str = "1") -> str:
    """One record of the pairing Bruno - Scan of the event Training."""
    tags = (
        ("Event", "Training"),
        ("Site", "Home"),
        ("Date", "2025.01.01"),
        ("Round", round_),
        ("White", "Bruno"),
        ("Black", "Scan"),
        ("Result", result),
        ("GameType", game_type),
    )
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return f"{head}\n{moves} {result}\n\n".replace("\n ", "\n")


def validate_codes(path: Path, *options: str) -> tuple[int, list[str]]:
    """The exit status and the codes of ``pdn validate PATH --format jsonl``."""
    done = run("validate", str(path), "--format", "jsonl", "--jobs", "1", *options)
    assert done.returncode in (0, 1), done.stderr
    codes = []
    for line in done.stdout.splitlines():
        data = json.loads(line)
        codes.extend(issue["code"] for issue in data.get("issues", []))
        if "code" in data:
            codes.append(data["code"])
    return done.returncode, codes


def event_counts(path: Path, *options: str) -> list[tuple[int, int]]:
    """(games, records) of each event of ``pdn events PATH --format json``."""
    done = run("events", str(path), "--format", "json", "--jobs", "1", *options)
    assert done.returncode == 0, done.stderr
    return [(e["games"], e["records"]) for e in json.loads(done.stdout)["events"]]


def test_two_games_of_a_pairing_read_only_stay_two(tmp_path: Path) -> None:
    path = tmp_path / "so.pdn"
    path.write_text(record("0-2", FIRST) + record("2-0", SECOND), encoding="utf-8")
    assert validate_codes(path) == (0, [])
    status, codes = validate_codes(path, "--syntax-only")
    assert status == 0 and "E52" not in codes
    assert event_counts(path) == [(2, 2)]
    assert event_counts(path, "--syntax-only") == [(2, 2)]


def test_two_games_without_a_rule_profile_stay_two(tmp_path: Path) -> None:
    path = tmp_path / "so24.pdn"
    path.write_text(record("0-2", FIRST, "24") + record("2-0", SECOND, "24"), encoding="utf-8")
    status, codes = validate_codes(path)
    assert status == 0 and "E52" not in codes and "W28" in codes
    assert event_counts(path) == [(2, 2)]


def test_copies_not_replayed_are_told_by_their_written_moves(tmp_path: Path) -> None:
    path = tmp_path / "copies24.pdn"
    path.write_text(record("0-2", FIRST, "24") + record("2-0", FIRST, "24"), encoding="utf-8")
    status, codes = validate_codes(path)
    assert status == 1 and codes.count("E52") == 1  # the same written moves: one game
    assert event_counts(path) == [(1, 2)]
    status, codes = validate_codes(path, "--syntax-only")  # read only: the same
    assert status == 1 and codes.count("E52") == 1
    assert event_counts(path, "--syntax-only") == [(1, 2)]


def test_a_record_without_moves_still_joins_its_game(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdn"
    header = record("2-0", "")
    path.write_text(record("0-2", FIRST) + header, encoding="utf-8")
    for options in ((), ("--syntax-only",)):
        assert event_counts(path, *options) == [(1, 2)]
        status, codes = validate_codes(path, *options)
        assert status == 1 and codes.count("E52") == 1  # its result disagrees
    agreeing = tmp_path / "agreeing.pdn"
    agreeing.write_text(record("0-2", FIRST) + record("0-2", ""), encoding="utf-8")
    for options in ((), ("--syntax-only",)):
        assert event_counts(agreeing, *options) == [(1, 2)]
        assert validate_codes(agreeing, *options) == (0, [])


def events_of(text: str) -> list[Event]:
    """The events of *text*, read without replaying a move (as ``--syntax-only``)."""
    index = EventIndex()
    for game in read_string(text):
        packed = game_facts(game, None, None)
        assert packed is not None
        index.add(packed, 0, "games.pdn", game.index, game.span.start_line)
    return [event for event in build_events(index) if isinstance(event, Event)]


def test_the_facts_say_whether_moves_are_written() -> None:
    for moves, written in ((FIRST, True), ("", False)):
        (game,) = read_string(record("2-0", moves))
        packed = game_facts(game, None, None)
        assert packed is not None
        facts = unpack(packed)
        assert facts.written is written and facts.plies == 0 and facts.moves == b""


OPENINGS = ("32-28", "33-28", "31-27", "34-29", "33-29", "31-26", "35-30", "32-27", "34-30")


@given(
    st.lists(
        st.tuples(st.sampled_from((*OPENINGS, "")), st.sampled_from(("2-0", "0-2", "1-1", "*"))),
        min_size=1,
        max_size=8,
    )
)
def test_records_read_only_are_one_game_only_when_their_moves_are(
    games: list[tuple[str, str]],
) -> None:
    """The records with the same written moves are one game, those with other moves
    other games; the records without moves join one of them (or, without any, are one
    game); E52 where, and only where, the records of one game give different results."""
    text = "".join(record(result, f"1. {moves}" if moves else "") for moves, result in games)
    (event,) = events_of(text)
    distinct = {moves for moves, _result in games if moves}
    assert len(event.records) == len(games)
    assert len(event.boards) == max(1, len(distinct))
    assert sum(len(board.records) for board in event.boards) == len(games)
    written = {r.n: moves for r, (moves, _result) in zip(event.records, games, strict=True)}
    for board in event.boards:
        assert len({written[r.n] for r in board.records if r.written}) <= 1
    disagreeing = any(len({r.outcome for r in b.records if r.outcome}) > 1 for b in event.boards)
    conflicts = [records for what, records in event.conflicts if what == "result"]
    assert bool(conflicts) == disagreeing
