"""Replay the real 8x8 archives of the shared corpus under their variants' rules.

Every game flagged with an error is one checked by hand (docs/variants.md, "Archive
findings"); any other error is a false error and a regression.  Files without a
GameType tag are read with the variant named, as ``pdn validate --variant NAME`` does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn_tools import read_games
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.replay import replay_game

ERROR_CODES = {"E04", "E05", "E06", "E07", "E08", "E09", "E10"}

ARCHIVES: dict[str, tuple[list[str], int]] = {
    "english": (
        [
            "eygilbert__CheckerBoard/games/tinsley.pdn",
            "wiegerw__pdn/succeed/OCA_2.0.pdn",
            "bcorfman__raven-checkers/training/german_open_2004.pdn",
            "bcorfman__raven-checkers/tests/sample.pdn",
        ],
        760,
    ),
    "italian": (
        [
            *(f"Robin04-GH__Checkers/pdn/CI{y}.pdn" for y in (2004, 2005, *range(2007, 2017))),
            "Robin04-GH__Checkers/pdn/demo.pdn",
            "Robin04-GH__Checkers/pdn/test.pdn",
            "wiegerw__pdn/succeed/Campionato Assoluto 2005.pdn",
        ],
        2680,
    ),
    "russian": (
        [
            "wiegerw__pdn/succeed/ussr1947.pdn",
            "wiegerw__pdn/fail/abatsiev.pdn",
            "miskibin__py-draughts/test/games/russian/random_pdns.extracted.pdn",
        ],
        220,
    ),
    "czech": (
        [
            "wiegerw__pdn/succeed/mrcd2000kval.pdn",
            "wiegerw__pdn/succeed/mrcd2006.pdn",
            "wiegerw__pdn/succeed/mrcd2007.pdn",
            "wiegerw__pdn/fail/mrdrcd07.pdn",
            "wiegerw__pdn/fail/mrdrcd08.pdn",
        ],
        290,
    ),
    "brazilian": (["miskibin__py-draughts/test/games/brazilian/random_pdns.extracted.pdn"], 25),
}
"""Per variant: the files, and the fewest games that must replay."""

VERIFIED = {
    # 62. 32-28: Black's king went 32-28 at move 60; the record repeats the move
    # instead of 28-32, after which the last three plies replay.
    ("eygilbert__CheckerBoard/games/tinsley.pdn", 541, "E05", 123),
    # 13... 3x26 fits two captures of three men each (3x10x17x26, 3x10x19x26), equal
    # under every Italian precedence rule, and the game ends there: truly ambiguous.
    ("Robin04-GH__Checkers/pdn/CI2005.pdn", 46, "E08", 26),
    ("wiegerw__pdn/succeed/Campionato Assoluto 2005.pdn", 46, "E08", 26),
}


@pytest.mark.parametrize("variant", sorted(ARCHIVES))
def test_archive_replays_without_false_errors(corpus: Path, variant: str) -> None:
    files, least = ARCHIVES[variant]
    replayed = 0
    flagged: set[tuple[str, int, str, int | None]] = set()
    for name in files:
        path = corpus / name
        assert path.is_file(), f"{name} missing from the corpus"
        for game in read_games(path, ReadOptions(variant=variant)):
            assert game.variant == variant, (name, game.index, game.variant)
            before = len(game.issues)
            result = replay_game(game)
            replayed += result.replayed
            for issue in game.issues[before:]:
                if issue.code in ERROR_CODES:
                    flagged.add((name, game.index, issue.code, issue.ply))
    print(f"{variant}: replayed {replayed} games; flagged: {sorted(flagged)}")
    assert replayed >= least
    assert flagged == {f for f in VERIFIED if f[0] in files}
