"""The packed facts of a game (``collection/events/facts.py``): what the event checks
of a run compare, computed where the game is checked."""

from __future__ import annotations

import zlib

from hypothesis import given
from hypothesis import strategies as st

from pdn_tools.collection.events.facts import game_facts, move_digest, unpack
from pdn_tools.pdn.reader import read_string
from pdn_tools.replay import replay_game


def _crc_digest(texts: list[str]) -> bytes:
    """The digest as documented: two bytes per move, the low 16 bits of its CRC-32."""
    out = b""
    for text in texts:
        crc = zlib.crc32(text.encode("utf-8", "surrogatepass"))
        out += (crc & 0xFFFF).to_bytes(2, "little")
    return out


@given(st.lists(st.text(max_size=12), max_size=60))
def test_the_digest_is_two_crc_bytes_per_move(texts: list[str]) -> None:
    assert move_digest(texts) == _crc_digest(texts)
    assert move_digest(texts) == _crc_digest(texts)  # the second time from the cache


def test_the_facts_of_a_game_read_back() -> None:
    (game,) = read_string(
        '[Event "Club"]\n[Site "Utrecht"]\n[Date "2024.03.09"]\n[Round "4"]\n'
        '[White "Jansen, A."]\n[Black "Visser, D."]\n[Result "2-0"]\n[GameType "20"]\n'
        "1. 32-28 18-23 2. 38-32 12-18 2-0\n"
    )
    replay = replay_game(game)
    packed = game_facts(game, replay, "00ff")
    assert packed is not None
    facts = unpack(packed)
    assert (facts.event, facts.site, facts.round) == ("Club", "Utrecht", "4")
    assert (facts.white, facts.black, facts.year) == ("Jansen, A.", "Visser, D.", 2024)
    assert facts.game_id == 0xFF and facts.complete and facts.plies == 4
    start = f"{replay.variant} {replay.start_fen}"
    assert facts.moves == _crc_digest([start, "32-28", "18-23", "38-32", "12-18"])
