"""Replay every international game of the real-file corpus: zero false errors.

The games flagged with errors are exactly the ones verified by hand as truly illegal
or mis-recorded (docs/replay.md, "Findings"); any other error is a regression.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn_tools import read_games
from pdn_tools.replay import replay_game

ERROR_CODES = {"E04", "E05", "E06", "E07", "E08", "E09", "E10"}

#: (file relative to the corpus, game index, code, ply) of verified findings.
VERIFIED = {
    ("Yodachess__BrunoGUI_Dames/Dames_PartiesPdn_FEN/BrunoVsScan31.pdn", 11, "E05", 64),
    (
        "Yodachess__BrunoGUI_Dames/Dames_PartiesPdn_FEN/World Title Match Women 2024.pdn",
        2,
        "E05",
        2,
    ),
}


def _files(corpus: Path) -> list[Path]:
    files = sorted((corpus / "wiegerw__pdn" / "succeed").glob("*.pdn"))
    for folder in ("Yodachess__BrunoGUI_Dames", "rhalbersma__mobydam", "wiegerw__draughts"):
        files += sorted(p for p in (corpus / folder).rglob("*") if p.suffix.lower() == ".pdn")
    return files


@pytest.mark.corpus_wide
def test_corpus_has_no_false_errors(corpus: Path) -> None:
    replayed = 0
    flagged: set[tuple[str, int, str, int | None]] = set()
    for path in _files(corpus):
        for game in read_games(path):
            if game.variant != "international":
                continue
            before = len(game.issues)
            result = replay_game(game)
            replayed += result.replayed
            for issue in game.issues[before:]:
                if issue.code in ERROR_CODES:
                    rel = path.relative_to(corpus).as_posix()
                    flagged.add((rel, game.index, issue.code, issue.ply))
    print(f"replayed {replayed} games; flagged: {sorted(flagged)}")
    assert replayed > 2000
    assert flagged == VERIFIED
