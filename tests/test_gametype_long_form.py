"""The GameType tag's long form: a row of the table that shares its number with another
(23: American pool, pool under the unified rules, Jamaican draughts) is named by its
long form, which then decides the first mover and the rules; a long form that is no row
of the table is W27 and the number decides (docs/variants.md)."""

from __future__ import annotations

import pytest

import pdn_tools
from pdn_tools.export.canonical import CanonicalOptions, write_canonical
from pdn_tools.pdn.gametype import read_gametype
from pdn_tools.pdn.results import colour_outcome
from pdn_tools.replay import ReplayResult, replay_game
from pdn_tools.replay.resolve import Resolution, resolve

UNIFIED = '[GameType "23,W,8,8,A0,0"]\n[Result "*"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n'
JAMAICAN = '[GameType "23,B,8,8,A1,1"]\n[Result "*"]\n\n1. 9-13 22-18 *\n'


def converted(text: str) -> tuple[pdn_tools.Game, ReplayResult, Resolution]:
    """The single game of *text*, replayed and resolved."""
    (game,) = pdn_tools.read_string(text)
    replay = replay_game(game)
    return game, replay, resolve(game, replay)


def codes(game: pdn_tools.Game) -> list[str]:
    """The codes of the game's findings, in order."""
    return [i.code for i in game.issues]


@pytest.mark.parametrize(
    ("value", "variant"),
    [
        ("23", "pool"),
        ("23,B,8,8,N1,0", "pool"),
        ("23,W,8,8,A0,0", "unified-pool"),
        ("23,W,8,8,A0", "unified-pool"),  # the invert flag left out counts as 0
        (" 23 , W , 8 , 8 , A0 , 0 ", "unified-pool"),
        ("23,B,8,8,A1,1", "jamaican"),
        ("25,W,8,8,A0,0", "russian"),
    ],
)
def test_a_row_of_the_table_is_named_by_its_long_form(value: str, variant: str) -> None:
    reading = read_gametype(value)
    assert (reading.number, reading.variant) == (23 if value.strip()[:2] == "23" else 25, variant)
    assert reading.irregular is None or "contains spaces" in reading.irregular


def test_a_long_form_that_is_no_row_lets_the_number_decide() -> None:
    reading = read_gametype("23,W,8,8,N1,0")
    assert reading.variant == "pool"
    assert reading.irregular is not None
    for form in ("23,B,8,8,N1,0", "23,W,8,8,A0,0", "23,B,8,8,A1,1", "the number decides"):
        assert form in reading.irregular
    reading = read_gametype("20,W,10,10,N1,0")
    assert reading.variant == "international"
    assert reading.irregular == (
        "GameType '20,W,10,10,N1,0' differs from the table (20,W,10,10,N2,0); the number decides"
    )


def test_unified_pool_replays_with_white_first() -> None:
    (game,) = pdn_tools.validate_string(UNIFIED)
    assert game.variant == "unified-pool" and game.issues == []
    head = game.to_json()
    assert head["variant"] == "unified-pool" and head["gametype"] == 23
    assert head["validation"]["replayed"] and head["validation"]["completed"]
    assert head["validation"]["final_fen"] == "W:W21,23-32:B1-7,9,10,12,15"
    # The number alone is American pool, Black first: White's first move is out of turn.
    (pool,) = pdn_tools.validate_string(UNIFIED.replace("23,W,8,8,A0,0", "23"))
    assert pool.variant == "pool" and codes(pool)[0] == "E05"


def test_unified_pool_results_name_white_first() -> None:
    # The left number of a result is the first mover's (IP-19): White's here, Black's
    # in American pool.
    assert colour_outcome("1-0", "unified-pool") == "white"
    assert colour_outcome("1-0", "pool") == "black"
    (game,) = pdn_tools.validate_string(UNIFIED.replace("*", "1-0"))
    assert game.to_json()["outcome"] == "white"


def test_unified_pool_from_a_position_with_black_to_move() -> None:
    text = '[GameType "23,W,8,8,A0,0"]\n[FEN "B:W21-32:B1-12"]\n\n1... 11-15 2. 22-18 *\n'
    (game,) = pdn_tools.validate_string(text)
    assert game.issues == []
    game, _, resolution = converted(text)
    out = write_canonical(game, resolution)
    # A0: the moves and the FEN in algebraic squares (the range as its squares, in order)
    assert "1... f6-e5 2. c3-d4 *" in out
    assert (
        '[FEN "B:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"]' in out
    )
    back, again, _ = converted(out)
    assert back.issues == [] and again.completed


def test_canonical_pdn_keeps_the_long_form_and_reads_back_the_same() -> None:
    game, replay, resolution = converted(UNIFIED)
    assert replay.completed
    out = write_canonical(game, resolution)
    assert '[GameType "23,W,8,8,A0,0"]' in out
    # numbered from White, the first mover; in algebraic squares, as A0 says
    assert "1. c3-d4 f6-e5 2. d4xf6 g7xe5 *" in out
    back, again, _ = converted(out)
    assert back.variant == "unified-pool" and back.issues == []
    assert again.final_fen == replay.final_fen


def test_a_game_given_unified_pool_is_written_with_the_long_form() -> None:
    # Without a GameType tag the variant comes from --variant; the number 23 written
    # alone would make the game American pool when read back.
    (game,) = pdn_tools.validate_string("1. 22-18 11-15 2. 18x11 8x15 *\n", variant="unified-pool")
    assert game.variant == "unified-pool" and game.issues == []
    out = game.to_pdn()
    assert '[GameType "23,W,8,8,A0,0"]' in out
    (back,) = pdn_tools.validate_string(out)
    assert back.variant == "unified-pool" and back.issues == []


def test_the_pdn3_target_writes_the_long_form() -> None:
    game, _, resolution = converted(UNIFIED)
    out = write_canonical(game, resolution, CanonicalOptions(target="pdn3"))
    assert '[GameType "23,W,8,8,A0,0"]' in out
    assert "1. c3-d4 f6-e5 2. d4xf6 g7xe5 *" in out  # A0: algebraic squares


def test_jamaican_draughts_is_read_but_not_replayed() -> None:
    (game,) = pdn_tools.validate_string(JAMAICAN)
    assert game.variant == "jamaican"
    assert codes(game) == ["W28"]
    assert "Jamaican draughts" in game.issues[0].message
    assert (game.issues[0].line, game.issues[0].column) == (1, 1)
    head = game.to_json()
    assert not head["validation"]["replayed"] and head["gametype"] == 23
    # Written as read: the tag as written, the moves as they stand.
    game, _, resolution = converted(JAMAICAN)
    out = write_canonical(game, resolution)
    assert '[GameType "23,B,8,8,A1,1"]' in out and "1. 9-13 22-18 *" in out
