"""Game identity: the same game gets the same ``game_id`` however its record is
written (tags, layout, notation, comments, variations, encoding, line ends), and
different games get different ones."""

from __future__ import annotations

import io

from export_helpers import converted, legal_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn_tools import Game, ReadOptions, Tag, read_games, read_string
from pdn_tools.export.canonical import CanonicalOptions, write_canonical
from pdn_tools.export.pdn import write_game
from pdn_tools.replay import ReplayOptions, replay_game
from pdn_tools.replay.identity import game_id, identity_text

NAMES = st.sampled_from(["Иванов, П.", "Müller", "de Vries, B.", "O'Brien", "Ζήνων", "?"])
ENCODINGS = {
    "Иванов, П.": ("utf-8", "utf-8-sig", "cp1251", "koi8-r"),
    "Ζήνων": ("utf-8", "cp1253"),
    "Müller": ("latin-1", "utf-16"),
}


def _id_of_bytes(data: bytes) -> str | None:
    games = list(read_games(io.BytesIO(data)))
    assert len(games) == 1
    return game_id(games[0], replay_game(games[0]))


def _retagged(game: Game, white: str, black: str, event: str, explicit_start: bool) -> Game:
    game.tags = [
        Tag("Event", event),
        Tag("White", white),
        Tag("Black", black),
        Tag("Date", "2024.??.??"),
        Tag("GameType", "20,W,10,10,N2,0"),
        Tag("Result", "*"),
    ]
    if explicit_start:  # the initial position, written out
        game.tags.append(Tag("FEN", "W:W31,32,33,34,35,36-50:B1-20"))
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games(), NAMES, NAMES, st.text("abc XYZ-", max_size=12), st.booleans())
def test_same_game_same_id(tree: Game, white: str, black: str, event: str, start: bool) -> None:
    """Written as generated (short and full capture notation, comments, NAGs,
    variations), as canonical PDN with and without comments and variations, with other
    tags, on one line, with CRLF line ends, and in several encodings: one id."""
    text = write_game(tree)
    game, replay, resolution = converted(text)
    reference = game_id(game, replay)
    assert reference is not None and len(reference) == 16
    stripped = CanonicalOptions(strip_comments=True, strip_variations=True)
    retagged = write_game(_retagged(read_string(text)[0], white, black, event, start))
    texts = [
        write_canonical(game, resolution),
        write_canonical(game, resolution, stripped),
        retagged,
        " ".join(retagged.split()) + "\n",
        text.replace("\n", "\r\n"),
    ]
    for other in texts:
        again, replay2, _ = converted(other)
        assert game_id(again, replay2) == reference, other
    for name, encodings in ENCODINGS.items():
        renamed, _, resolved = converted(
            write_game(_retagged(read_string(text)[0], name, "B", event, start))
        )
        named = write_canonical(renamed, resolved, stripped)  # comments may hold any script
        for encoding in encodings:
            assert _id_of_bytes(named.encode(encoding)) == reference, encoding


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games(), legal_games())
def test_different_games_different_ids(a: Game, b: Game) -> None:
    """Two games share an id exactly when their main lines are the same moves; a game
    cut short, or started from another position, is another game."""
    game_a, replay_a, _ = converted(write_game(a))
    game_b, replay_b, _ = converted(write_game(b))
    same = [m.move.identity for m in replay_a.moves] == [m.move.identity for m in replay_b.moves]
    assert (game_id(game_a, replay_a) == game_id(game_b, replay_b)) == same
    if replay_a.moves:
        full = game_id(game_a, replay_a)
        parent = replay_a.moves[-1].node.parent
        assert parent is not None
        parent.variations = []  # the same game one ply shorter (alternatives gone too)
        assert game_id(game_a, replay_game(game_a)) != full
    other_start = read_string(write_game(b))[0]
    other_start.tags.append(Tag("FEN", "W:W31-49:B1-20"))
    assert game_id(other_start, replay_game(other_start)) != game_id(game_b, replay_b)


def test_games_without_a_replay() -> None:
    """A variant without rule profile is identified by its moves as written (layout
    aside); a game read but not replayed on request, or refused (E11), has no id."""
    text = '[GameType "97"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
    game = read_string(text)[0]
    replay = replay_game(game)
    assert not replay.replayed
    ident = identity_text(game, replay)
    assert ident is not None and ident.endswith("\n32-28 19-23 28x19 14x23")
    spread = read_string(text.replace(" ", "\n  ").replace("[GameType", '[Event "x"]\n[GameType'))
    assert game_id(spread[0], replay_game(spread[0])) == game_id(game, replay)
    assert game_id(game, None) is None
    limit = ReadOptions(max_game_chars=1000)
    small = read_string(text, limit)
    assert game_id(small[0], replay_game(small[0])) is not None
    refused = read_string('[Event "a"]\n1. 32-28 {' + "x" * 1200 + "} *\n", limit)
    assert [i.code for i in refused[0].issues] == ["E11"]
    assert game_id(refused[0], replay_game(refused[0])) is None


def test_the_variant_is_part_of_the_identity() -> None:
    """The same written moves under another variant (here: by --variant for a record
    without GameType) are another game."""
    text = '[FEN "W:W18:B5"]\n1. 18-14 *\n'
    game = read_string(text)[0]
    russian = replay_game(game, ReplayOptions(variant="russian"))
    game2 = read_string(text)[0]
    brazilian = replay_game(game2, ReplayOptions(variant="brazilian"))
    assert russian.replayed and brazilian.replayed
    assert game_id(game, russian) != game_id(game2, brazilian)
