"""A game the reader made is freed the moment it is dropped, without ``close()``.

Its first nodes link to it weakly, so it is in no reference cycle; finalised, it
unlinks its tree (:mod:`pdn_tools.pdn.ownership`).  These tests run with the cyclic
garbage collector disabled: anything left to it would survive the drop and show up
in ``gc.collect()``.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from conftest import SAMPLES

import pdn_tools
from pdn_tools.export.from_json import game_from_dict
from pdn_tools.pdn.model import Game, MoveText, Node

#: variations, a comment, an illegal move with a repair, a split capture (W24)
TEXT = """[Event "e"]
[GameType "20"]
1. 32-28 19-23 (1... 18-23 2. 28x19) 2. 28x19 14x23 {c} 3. 33-28 *

[Event "f"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 13x24 3. 34-30 25x34 4. 39x30 24x35 5. 31-27 99-98 *

[Event "g"]
[GameType "20"]
1. 32-28 17-22 2. 28x17 11x22 3. 37-32 22-27 4. 31x22 x 17 18x27 *
"""


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cyclic garbage collector off, anything pending collected first."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _drop_all(games: Callable[[], Iterable[Game]]) -> tuple[int, int, int]:
    """(games *games()* gives, games still alive once they are dropped, objects the
    cyclic garbage collector then finds), with the collector off.  The work runs
    once before, so that what it imports on first use (a module's classes) is not
    counted."""
    for _ in games():
        pass
    gc.collect()
    gc.disable()
    try:
        refs = [weakref.ref(game) for game in games()]
        alive = sum(ref() is not None for ref in refs)
        return len(refs), alive, gc.collect()
    finally:
        gc.enable()


def test_validated_games_die_at_once_and_leave_no_garbage() -> None:
    games, alive, garbage = _drop_all(
        lambda: [*pdn_tools.validate_string(TEXT), *pdn_tools.validate(SAMPLES)]
    )
    assert games > 30
    assert (alive, garbage) == (0, 0)


def test_read_games_die_at_once() -> None:
    assert _drop_all(lambda: pdn_tools.read_string(TEXT)) == (3, 0, 0)


def test_games_read_back_from_json_die_at_once() -> None:
    objects = [game.to_json() for game in pdn_tools.validate_string(TEXT)]
    assert _drop_all(lambda: [game_from_dict(data) for data in objects]) == (3, 0, 0)


def test_the_parent_of_a_first_node_is_the_game() -> None:
    game = pdn_tools.read_string(TEXT)[0]
    first = game.variations[0]
    assert first.parent is game
    assert first.variations[1].parent is first  # 1... 18-23, a variation
    assert game.end().game() is game
    assert game.end().ply() == 5


@pytest.mark.usefixtures("no_collector")
def test_a_kept_node_keeps_its_game() -> None:
    end = pdn_tools.validate_string(TEXT)[0].end()  # the game itself is dropped at once
    assert end.ply() == 5
    assert end.game().plies == 5
    assert end.board().fen() == "B:W28,31,34-50:B1-13,15-18,20,23"
    variation = end.game().variations[0].variations[1]
    game = weakref.ref(end.game())
    del end, variation
    assert game() is not None  # a cycle again, as any kept Python object graph
    assert gc.collect() > 0
    assert game() is None


@pytest.mark.usefixtures("no_collector")
def test_a_closed_game_is_freed_too() -> None:
    game = pdn_tools.validate_string(TEXT)[1]
    node = game.end()
    game.close()
    assert node.parent is None
    with pytest.raises(ValueError, match="closed"):
        node.game()
    ref = weakref.ref(game)
    del game, node
    assert ref() is None
    assert gc.collect() == 0


def test_a_game_built_by_hand_links_plainly() -> None:
    game = Game()
    node = game.add_variation(Node("move", move=MoveText(("32", "28"), False)))
    assert node.parent is game
    game.close()
    assert node.parent is None


def test_corpus_games_are_freed(corpus: Path) -> None:
    # every real-world shape: variations, set-ups, illegal moves and their repairs
    files = sorted(corpus.rglob("*.pdn"))[::10]
    games, alive, garbage = _drop_all(
        lambda: (game for path in files for game in pdn_tools.validate(path))
    )
    assert games > 1000
    assert (alive, garbage) == (0, 0)
