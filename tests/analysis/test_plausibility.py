"""Implausible moves (W70): slips of the pen that leave a game legal to its end.

The real cases are real games of the shared corpus with one slip planted (read in
place, never copied), found by ``benchmarks/bench_plausibility.py``; the clean games
must give no finding."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from pdn_tools import validate, validate_string
from pdn_tools.analysis.engines import EngineChoice
from pdn_tools.analysis.plausibility import (
    PLAUSIBILITY_THRESHOLD,
    PLAUSIBILITY_THRESHOLD_LARGE,
    Doubt,
    Option,
    PlausibilityOptions,
    default_threshold,
    doubts,
    flag_implausible,
    select,
    suspects,
    threshold_of,
)
from pdn_tools.replay.replay import square_names
from pdn_tools.replay.validate import GameReplay
from pdn_tools.rules import INTERNATIONAL, Position, geometry_for, legal_moves, variant_by_name
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
    start = Position.initial(INTERNATIONAL)
    first, second = legal_moves(start, INTERNATIONAL)[:2]
    doubt = Doubt(
        3,
        400,
        [Option(100, 0.3, 20, first, "off-by-one"), Option(50, 0.1, 10, second, "from-to-swapped")],
    )
    # A candidate qualifies when the window loses at least the threshold more as written.
    assert [c.slip for c in doubt.candidates(300)] == ["off-by-one", "from-to-swapped"]
    assert [c.slip for c in doubt.candidates(320)] == ["from-to-swapped"]
    assert doubt.candidates(400) == []  # no candidate explains the whole loss away
    assert PLAUSIBILITY_THRESHOLD == 200 and PLAUSIBILITY_THRESHOLD_LARGE == 350


def test_the_default_threshold_is_the_boards() -> None:
    assert default_threshold(variant_by_name("english")) == PLAUSIBILITY_THRESHOLD
    assert default_threshold(variant_by_name("italian")) == PLAUSIBILITY_THRESHOLD
    assert default_threshold(INTERNATIONAL) == PLAUSIBILITY_THRESHOLD_LARGE
    assert threshold_of(PlausibilityOptions(threshold=120), INTERNATIONAL) == 120


def test_of_overlapping_windows_only_the_strongest_doubt_is_reported() -> None:
    start = Position.initial(INTERNATIONAL)
    move = legal_moves(start, INTERNATIONAL)[0]
    early = Doubt(10, 500, [Option(250, 0.3, 0, move, "off-by-one")])  # explains 250
    late = Doubt(14, 420, [Option(20, 0.3, 0, move, "off-by-one")])  # explains 400
    far = Doubt(40, 300, [Option(0, 0.3, 0, move, "off-by-one")])  # explains 300
    assert [d.index for d, _ in select([early, late, far], 200, 10)] == [14, 40]
    assert [d.index for d, _ in select([early, late, far], 200, 3)] == [10, 14, 40]
    assert [d.index for d, _ in select([early, late, far], 350, 10)] == [14]


# A game the built-in searcher played against itself (English, from four random
# plies), with the slip planted at ply 24: 29-25 written for 30-25.  As written,
# 29-25 drops a man (the engine loses 1.06 there) and Black's 14-17 ignores the shot
# (loses 1.08); with 30-25 in place every later move replays and loses nothing.
SELF_PLAY = (
    '[GameType "21"]\n[Result "*"]\n\n'
    "1. 9-14 23-19 2. 6-9 22-18 3. 14x23 27x18 4. 9-14 18x9 5. 5x14 26-22 6. 1-5\n"
    "32-27 7. 5-9 19-15 8. 10x19 24x15 9. 11x18 22x15 10. 9-13 25-22 11. 8-11 15x8\n"
    "12. 4x11 {slip} 13. 14-17 21x14 14. 7-10 14x7 15. 3x10 22-17 *\n"
)


def test_a_slip_that_drops_a_man_to_an_ignored_shot_is_named() -> None:
    [game] = validate_string(SELF_PLAY.format(slip="29-25"))
    assert game.status != "error"  # legal to the end: no legality check can see it
    state = game.replay_state
    assert isinstance(state, GameReplay)
    _, _, found = doubts(game, state.result, OPTIONS)
    [at] = [d for d in found if d.index == 23]
    assert at.losses[0] >= 100 and at.losses[1] >= 100  # the man dropped, the shot ignored
    issues = flag_implausible(game, state.result, OPTIONS)
    assert [(i.code, i.ply, i.move) for i in issues] == [("W70", 24, "29-25")]
    repair = issues[0].repair
    assert repair is not None
    assert repair["kind"] == "implausible" and repair["slip"] == "off-by-one"
    assert (repair["written"], repair["move"], repair["candidates"]) == ("29-25", "30-25", 1)
    assert "with 30-25 (a square off by one) in place of 29-25" in issues[0].message
    assert [i.code for i in game.issues].count("W70") == 1


def test_in_an_algebraic_record_the_candidate_is_written_algebraically() -> None:
    # The same game with its squares written algebraically (English squares read as
    # the replay reads them): the candidate is named the way the record writes moves.
    names = square_names(geometry_for(variant_by_name("english").board), True)
    text = re.sub(
        r"\d+(?=[-x])|(?<=[-x])\d+",
        lambda m: names[int(m.group())],
        SELF_PLAY.format(slip="29-25"),
    )
    written, meant = f"{names[29]}-{names[25]}", f"{names[30]}-{names[25]}"
    [game] = validate_string(text)
    state = game.replay_state
    assert isinstance(state, GameReplay)
    issues = flag_implausible(game, state.result, OPTIONS)
    assert [(i.code, i.ply, i.move) for i in issues] == [("W70", 24, written)]
    repair = issues[0].repair
    assert repair is not None and (repair["written"], repair["move"]) == (written, meant)
    assert f"with {meant} (a letter or digit of a square off) in place of {written}" in (
        issues[0].message
    )


def test_the_same_game_as_played_gives_no_finding() -> None:
    [game] = validate_string(SELF_PLAY.format(slip="30-25"))
    state = game.replay_state
    assert isinstance(state, GameReplay)
    assert flag_implausible(game, state.result, OPTIONS) == []


def test_a_tighter_threshold_or_window_changes_what_is_named() -> None:
    [game] = validate_string(SELF_PLAY.format(slip="29-25"))
    state = game.replay_state
    assert isinstance(state, GameReplay)
    # The window loses 4.63 as written, 0.12 with 30-25: nothing at 5 men.
    strict = PlausibilityOptions(EngineChoice(nodes=1000), threshold=500)
    assert suspects(game, state.result, strict) == []
    # The slip also spoils the last move (22-17 loses 2.49 as written, where another
    # move a slip away loses nothing): weighed with one ply after each move, both plies
    # are doubted; the default window sees that ply 24 explains more and names it alone.
    short = PlausibilityOptions(EngineChoice(nodes=1000), window=1)
    assert [s.ply for s in suspects(game, state.result, short)] == [24, 30]
    assert [s.ply for s in suspects(game, state.result, OPTIONS)] == [24]
