"""The event checks take time linear in the games of an event, however they repeat.

A hostile file can hold thousands of copies of one game, one short game in
thousands of rounds, thousands of rounds or of players spelled two ways: each used
to be compared with each other (or looked through all the records each), the work
growing with the square of the input.  The work is counted, not timed: the lines of
the event modules run to build and check an event, and the items the checks gather
into sets (work done in C, which runs no line), for n records and for 4n.  Linear
work grows about 4 times; squared work 16 times.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import pdn_tools.collection.events.checks as checks_module
import pdn_tools.collection.events.event as event_module
from pdn_tools.collection.events.checks import check_event
from pdn_tools.collection.events.event import Event, build_events
from pdn_tools.collection.events.facts import game_facts
from pdn_tools.collection.events.index import EventIndex
from pdn_tools.pdn.reader import read_string

EVENTS = str(Path(event_module.__file__).parent)


def record(white: str, black: str, round_: str, moves: str = "1. 32-28 18-23") -> str:
    return (
        f'[Event "E"]\n[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n'
        f'[Result "*"]\n\n{moves} *\n\n'
    )


class _CountedSet(set[Any]):
    """``set`` as the checks call it, counting the items it is built from."""

    items = 0

    def __init__(self, items: Any = ()) -> None:
        gathered = list(items)
        _CountedSet.items += len(gathered)
        super().__init__(gathered)


def work(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    """The lines of the event modules run to build and check the events of *text*
    (read without replaying a move) and the items the checks put in sets; the codes
    found."""
    monkeypatch.setattr(checks_module, "set", _CountedSet, raising=False)
    _CountedSet.items = 0
    index = EventIndex()
    for game in read_string(text):
        packed = game_facts(game, None, None)
        assert packed is not None
        index.add(packed, 0, "games.pdn", game.index, game.span.start_line)
    lines = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal lines
        if event == "line":
            lines += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith(EVENTS) else None

    codes: list[str] = []
    sys.settrace(calls)
    try:
        for event in build_events(index):
            assert isinstance(event, Event)
            codes.extend(f.code for f in check_event(event, index.rules))
    finally:
        sys.settrace(None)
    return lines + _CountedSet.items, codes


def linear(make: Callable[[int], str], monkeypatch: pytest.MonkeyPatch, n: int = 150) -> list[str]:
    """Assert that the work for 4n records is at most 6 times that for n; the codes
    found for 4n."""
    small, _codes = work(make(n), monkeypatch)
    large, codes = work(make(4 * n), monkeypatch)
    assert large <= 6 * small, (small, large)
    return codes


def test_copies_of_one_game_are_put_together_in_linear_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every copy's round was compared with every other's (E52)."""
    assert linear(lambda n: record("A", "B", "1") * n, monkeypatch) == []
    # 1 and 1.1 are one board, its round written with and without the board number
    assert (
        linear(lambda n: (record("A", "B", "1") + record("A", "B", "1.1")) * (n // 2), monkeypatch)
        == []
    )


def test_a_short_game_in_many_rounds_is_put_together_in_linear_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each record of a short game was compared with each board of it made before."""
    codes = linear(lambda n: "".join(record("A", "B", str(r + 1)) for r in range(n)), monkeypatch)
    assert "E52" not in codes


def test_many_rounds_with_gaps_are_checked_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds seen were gathered again for each round number (W51)."""
    codes = linear(
        lambda n: "".join(record(f"P{r}", f"Q{r}", str(2 * r + 1)) for r in range(n)),
        monkeypatch,
    )
    assert codes.count("W51") == 1


def test_many_players_spelled_two_ways_are_checked_in_linear_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The records of the event were looked through once for each such player (W56)."""
    codes = linear(
        lambda n: "".join(
            record(f"Player{p}, Ann", f"Other{p}, Bob", "1")
            + record(f"PLAYER{p}, Ann", f"OTHER{p}, Bob", "1", "1. 33-28 18-23")
            for p in range(n // 2)
        ),
        monkeypatch,
    )
    assert codes.count("W56") > 0
