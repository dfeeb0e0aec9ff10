"""Implausible moves (W70): slips of the pen that leave a game legal to its end.

The real cases are real games of the shared corpus with one slip planted (read in
place, never copied), found by ``benchmarks/bench_plausibility.py``; the clean games
must give no finding."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from pdn_tools import validate, validate_string
from pdn_tools.analysis.engines import EngineChoice
from pdn_tools.analysis.plausibility import (
    PLAUSIBILITY_THRESHOLD,
    Doubt,
    PlausibilityOptions,
    flag_implausible,
    suspects,
)
from pdn_tools.replay.validate import GameReplay
from pdn_tools.schemas import schema

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import planting

OPTIONS = PlausibilityOptions(EngineChoice(nodes=1000))
TIMEOUT = 600
CASES = [
    # (file in the corpus, game index, ply, written, original, variant)
    ("wiegerw__pdn/succeed/OCA_2.0.pdn", 1, 42, "31-26", "30-26"),
    ("wiegerw__pdn/orig_2017_zip/succeed/nk2003-amsterdam.pdn", 30, 73, "42-38", "43-38"),
]


def _planted(corpus: Path, name: str, index: int, ply: int, written: str) -> tuple[str, str]:
    """(planted record, clean record) of one corpus game."""
    path = corpus / name
    if not path.exists():
        pytest.skip(f"{name} is not in the shared corpus")
    game = next(g for g in validate(path) if g.index == index)
    state = game.replay_state
    assert isinstance(state, GameReplay) and state.result is not None
    source = planting._source(str(path), game, state.result)
    texts = list(source.texts)
    texts[ply - 1] = written
    return planting.Planted(source, "off-by-one", ply, texts).record(), planting.Planted(
        source, "off-by-one", ply, source.texts
    ).clean()


@pytest.mark.corpus
@pytest.mark.parametrize(("name", "index", "ply", "written", "original"), CASES)
def test_a_planted_slip_that_stays_legal_is_doubted(
    corpus: Path, name: str, index: int, ply: int, written: str, original: str
) -> None:
    record, clean = _planted(corpus, name, index, ply, written)
    [game] = validate_string(record)
    assert game.status != "error"  # legal to the end: no legality check can see it
    state = game.replay_state
    assert isinstance(state, GameReplay)
    found = suspects(game, state.result, OPTIONS)
    assert [(s.ply, s.written, s.candidate, s.slip) for s in found] == [
        (ply, written, original, "off-by-one")
    ]
    [same] = validate_string(clean)
    state = same.replay_state
    assert isinstance(state, GameReplay)
    assert suspects(same, state.result, OPTIONS) == []


@pytest.mark.corpus
def test_validate_plausibility_reports_w70_with_its_repair(corpus: Path, tmp_path: Path) -> None:
    name, index, ply, written, original = CASES[0]
    record, clean = _planted(corpus, name, index, ply, written)
    (tmp_path / "planted.pdn").write_text(record, encoding="utf-8")
    (tmp_path / "clean.pdn").write_text(clean, encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pdn_tools", "validate", *args, "--format", "jsonl"],
            capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT, check=False,
        )  # fmt: skip

    off = run("planted.pdn")
    assert "W70" not in off.stdout  # off by default
    on = run("planted.pdn", "clean.pdn", "--plausibility")
    assert on.returncode == 0, on.stderr
    records = [json.loads(line) for line in on.stdout.splitlines()]
    check = jsonschema.Draft202012Validator(schema("report"))
    assert [e.message for r in records for e in check.iter_errors(r)] == []
    planted = next(r for r in records if r.get("file") == "planted.pdn")
    clean_record = next(r for r in records if r.get("file") == "clean.pdn")
    [issue] = [i for i in planted["issues"] if i["code"] == "W70"]
    assert issue["severity"] == "warning"
    assert issue["ply"] == ply and issue["move"] == written
    repair = issue["repair"]
    assert repair["kind"] == "implausible" and repair["slip"] == "off-by-one"
    assert repair["move"] == original and repair["written"] == written
    assert repair["replays"] == "to the end"
    assert "possibly mis-recorded" in issue["message"]
    assert not [i for i in clean_record["issues"] if i["code"] == "W70"]


def test_a_blunder_the_opponent_punishes_is_no_slip() -> None:
    # White's 32-27 gives material back and Black takes it: a blunder, not a slip.
    fen = "W:W26,28,29,32,35-39,41-50:B1-7,9,10,12-17,21,25"
    [game] = validate_string(f'[GameType "20"]\n[SetUp "1"]\n[FEN "{fen}"]\n1. 32-27 21x32 *\n')
    state = game.replay_state
    assert isinstance(state, GameReplay)
    assert flag_implausible(game, state.result, OPTIONS) == []
    assert not [i for i in game.issues if i.code == "W70"]


def test_quiet_games_give_no_finding() -> None:
    text = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 10-14 *\n'
    [game] = validate_string(text)
    state = game.replay_state
    assert isinstance(state, GameReplay)
    assert suspects(game, state.result, OPTIONS) == []


def test_the_threshold_decides_which_candidates_qualify() -> None:
    doubt = Doubt(
        3, 400, [(100, 0.3, 20, None, "off-by-one"), (50, 0.1, 10, None, "from-to-swapped")]
    )  # type: ignore[list-item]
    assert [c[4] for c in doubt.candidates(150)] == ["off-by-one", "from-to-swapped"]
    assert [c[4] for c in doubt.candidates(80)] == ["from-to-swapped"]
    assert doubt.candidates(500) == []  # the move itself did not lose that much
    assert PLAUSIBILITY_THRESHOLD == 150
