"""Proof by the peers: the real readers of py-draughts and pydraughts (from PyPI) read
our ``--for`` output as the game we read, and the games they write validate in ours.

Both libraries import as ``draughts``, so each runs in its own virtual environment
(``python3 benchmarks/peers.py`` makes ``benchmarks/.venvs/<name>``) through
``tests/peers/peer_replay.py``; a test whose peer is absent is skipped with the reason.
The corpus-wide comparison (``corpus_wide``) uses a sample spread over the shared
corpus (``agreement.SAMPLE`` games per variant, ``agreement.PYDRAUGHTS_SAMPLE`` for the
slow pydraughts); the whole-corpus figures are in docs/export.md.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import agreement
import pytest

from pdn_tools import read_string
from pdn_tools.pdn.gametype import BY_NAME
from pdn_tools.replay import replay_game
from pdn_tools.replay.validate import validate_string
from pdn_tools.rules import Position, legal_moves, move_text, variant_by_name, write_fen


def need(peer: str) -> None:
    """Skip unless the peer's environment exists."""
    if agreement.peer_python(peer) is None:
        pytest.skip(
            f"{peer} is not installed in benchmarks/.venvs/{peer} "
            "(run python3 benchmarks/peers.py; it needs the package index)"
        )


KNOWN = {
    "pydraughts bug: first move read twice after a FEN with Black to move",
    "py-draughts refuses set-ups inside the moves",
}
"""Disagreements that are the peer's, explained in docs/export.md."""


GENERATED = 4
"""Random games per variant written for each peer (half of them from a position)."""


def random_game(variant: str, seed: int, from_position: bool) -> str:
    """A game of random legal moves (seeded), sometimes from a position reached first."""
    rng = random.Random(seed)
    rules = variant_by_name(variant)
    position = Position.initial(rules)
    tags = f'[GameType "{BY_NAME[variant].number}"]\n[Result "*"]\n'
    if from_position:
        for _ in range(rng.randint(2, 9)):
            legal = legal_moves(position, rules)
            if not legal:
                break
            position = position.apply(rng.choice(legal))
        tags += f'[FEN "{write_fen(position)}"]\n'
    moves = []
    for _ in range(rng.randint(20, 90)):
        legal = legal_moves(position, rules)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move_text(move, legal, rules))
        position = position.apply(move)
    return tags + "\n" + " ".join(moves) + " *\n"


def generated_cases(peer: str) -> list[agreement.Case]:
    cases = []
    for variant in sorted(agreement.TARGETS[peer].forms):
        if variant == "turkish":
            continue  # see test_pydraughts_turkish_games
        for seed in range(GENERATED):
            text = random_game(variant, seed, from_position=seed % 2 == 1)
            (game,) = read_string(text)
            case = agreement._case(game, Path("generated"), Path("."), (peer,))
            assert case is not None, text
            cases.append(case)
    return cases


@pytest.mark.parametrize("peer", agreement.PEERS)
def test_peer_replays_our_output(peer: str) -> None:
    """Random legal games of every variant both play, some from a position, written
    with --for PEER: the peer replays every ply to our final position (the peer's
    known bugs aside, each named)."""
    need(peer)
    tallies, odd = agreement.compare(peer, generated_cases(peer))
    assert tallies
    for variant, tally in tallies.items():
        assert tally.compared == GENERATED, variant
    assert {reason for _, reason in odd} <= KNOWN, odd
    assert sum(t.agreed for t in tallies.values()) >= len(tallies) * GENERATED // 2


@pytest.fixture(scope="module")
def corpus_sample(corpus: Path) -> list[agreement.Case]:
    """The sample of corpus games, written for both peers (read once per module)."""
    return agreement.corpus_cases(corpus, agreement.PEERS, agreement.SAMPLE)


@pytest.mark.corpus
@pytest.mark.corpus_wide
@pytest.mark.parametrize("peer", agreement.PEERS)
def test_peer_agrees_on_the_corpus(peer: str, corpus_sample: list[agreement.Case]) -> None:
    """Corpus games we replay cleanly, in every variant both support, written for the
    peer: it reaches the same final position, or the disagreement is a known peer bug."""
    need(peer)
    limit = agreement.PYDRAUGHTS_SAMPLE if peer == "pydraughts" else agreement.SAMPLE
    tallies, odd = agreement.compare(peer, corpus_sample, limit)
    assert {reason for _, reason in odd} <= KNOWN, odd
    for variant in ("international", "russian", "brazilian"):
        assert tallies[variant].compared >= min(limit, 20), variant
        assert tallies[variant].agreed >= 0.9 * tallies[variant].compared, (variant, odd)
    assert sum(t.agreed for t in tallies.values()) >= 0.9 * sum(
        t.compared for t in tallies.values()
    )


PEER_VARIANTS = {
    "pydraughts": ("standard", "english", "italian", "russian", "brazilian", "frisian"),
    "py-draughts": ("StandardBoard", "RussianBoard", "BrazilianBoard", "FrisianBoard"),
}


@pytest.mark.parametrize(
    ("peer", "variant"), [(p, v) for p, vs in PEER_VARIANTS.items() for v in vs]
)
def test_peer_games_validate_clean(peer: str, variant: str) -> None:
    """Games played and written by the peer (random legal play, seeded) validate in
    pdn-tools without a warning or an error — beside pydraughts' English move numbers
    (W33, info: it numbers the moves as if White opened)."""
    need(peer)
    texts = agreement.peer_write(peer, variant, 5, 2026)
    assert len(texts) == 5
    for text in texts:
        (game,) = list(validate_string(text))
        assert game.plies > 0
        codes = {i.code for i in game.issues}
        if peer == "pydraughts" and variant == "english":
            codes -= {"W33"}
        assert game.status == "ok" and not codes - {"W36"}, (text, game.issues)


def test_py_draughts_american_games_read_in_its_dialect() -> None:
    """py-draughts writes English checkers as GameType 23 with the side on 21-32
    moving first (its American board): read in that dialect (W60, W61), every move
    is found on the board.  Its American board lets a side pass over a capture, so a
    random game of it may break the capture rule: E06 is the only error it may get."""
    need("py-draughts")
    for text in agreement.peer_write("py-draughts", "AmericanBoard", 5, 2026):
        (game,) = list(validate_string(text))
        codes = {i.code for i in game.issues}
        assert {"W60", "W61"} <= codes and game.variant == "english", game.issues
        errors = {i.code for i in game.issues if i.level.value == "error"}
        assert errors <= {"E06"}, (text, game.issues)


def _decisive_english_game(seed: int) -> tuple[str, str]:
    """A game of random legal English moves (seeded) played until the side to move
    has none, with player tags (Black, the first mover, is "First"; White "Second"),
    and the name of its winner."""
    rng = random.Random(seed)
    rules = variant_by_name("english")
    position = Position.initial(rules)
    moves = []
    while legal := legal_moves(position, rules):
        move = rng.choice(legal)
        moves.append(move_text(move, legal, rules))
        position = position.apply(move)
    first_won = position.turn.value == "W"  # White to move and none: Black won
    result = "1-0" if first_won else "0-1"  # the first mover's score on the left
    text = (
        f'[White "Second"]\n[Black "First"]\n[WhiteElo "1800"]\n[BlackElo "2200"]\n'
        f'[Result "{result}"]\n[GameType "21"]\n\n' + " ".join(moves) + f" {result}\n"
    )
    return text, "First" if first_won else "Second"


def test_py_draughts_names_the_same_winner() -> None:
    """English games played to the end, written for py-draughts (colours exchanged):
    py-draughts replays them to our final position and its board's result, in its
    colours, names the player our reading names as the winner — through the player
    tags exchanged with the colours — and is the Result written."""
    need("py-draughts")
    games = [_decisive_english_game(seed) for seed in range(6)]
    texts = []
    for text, _ in games:
        (game,) = read_string(text)
        replay = replay_game(game)
        assert replay.completed and game.status == "ok", game.issues
        case = agreement._case(game, Path("generated"), Path("."), ("py-draughts",))
        assert case is not None
        texts.append(case)
    winners = {name for _, name in games}
    assert winners == {"First", "Second"}  # both sides win somewhere
    answers = agreement.run_peer("py-draughts", [c.texts["py-draughts"] for c in texts])
    for (_, winner), case, answer in zip(games, texts, answers, strict=True):
        assert agreement.why("py-draughts", case, answer) is None, answer
        out = case.texts["py-draughts"]
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', out, re.M))
        assert answer["result"] == tags["Result"], (answer, out)
        side = {"1-0": "White", "0-1": "Black"}[str(answer["result"])]
        assert tags[side] == winner, out  # py-draughts' winner is the player who won
        assert tags[side + "Elo"] == {"First": "2200", "Second": "1800"}[winner]


def test_pydraughts_turkish_games() -> None:
    """pydraughts' Turkish games: most validate; the others stop at a king's move as
    pydraughts writes it that passes pieces on its row or file (seen: a king moving
    g3-b3 over three men), which the rules forbid — a disagreement reported in
    docs/export.md, not weakened here."""
    need("pydraughts")
    texts = agreement.peer_write("pydraughts", "turkish", 5, 2026)
    for text in texts:
        (game,) = read_string(text)
        replay = replay_game(game)
        errors = [i for i in game.issues if i.level.value == "error"]
        if errors:
            assert [i.code for i in errors] == ["E05"], errors
            assert "king" in errors[0].message
        else:
            assert replay.completed
