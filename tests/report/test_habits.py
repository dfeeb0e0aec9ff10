"""Habits: the same finding in most games of a file is reported once per file by the
formats read by people, every occurrence kept by the machine formats (docs/diagnostics.md,
"Habits")."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from page_helpers import house_style

from pdn_tools.cli import main
from pdn_tools.diagnostics import Issue
from pdn_tools.report.habits import MIN_GAMES, cause


def validate(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["validate", *args, "-j", "1"])
    return result.exit_code, result.stdout, result.stderr


def test_cause_keeps_words_and_drops_particulars() -> None:
    def of(code: str, message: str) -> str:
        return cause(Issue(code, message, 1, 1))

    w12 = "separator does not match the move: a quiet move written with 'x' ({})"
    assert of("W12", w12.format("10-14")) == of("W12", w12.format("9-13"))
    w14 = "upper-case algebraic square in '{}' (reported once per game)"
    assert of("W14", w14.format("C3-D4")) == of("W14", w14.format("A3-B4"))
    assert of("W07", "tag name 'Bianco' read as White") != of(
        "W07", "tag name 'Nero' read as Black"
    )


def test_text_reports_the_habit_once_and_every_error(tmp_path: Path) -> None:
    source = tmp_path / "house.pdn"
    source.write_text(house_style(12, errors=(3, 7, 10)), encoding="utf-8")
    status, out, err = validate(str(source))
    lines = out.splitlines()
    assert status == 1
    assert [line.split()[2] for line in lines] == ["E05", "E05", "E05", "W12"]
    habit = lines[-1]
    assert habit.startswith(f"{source}:3:4: warning W12 ")
    assert "a habit of this file: 24 time(s) in 12 of its 12 games" in habit
    assert habit.endswith("[habit; first in game 1, ply 1]")
    # The summary counts every occurrence, codes by severity, errors first.
    assert err.splitlines() == [
        "1 file(s), 12 game(s): 3 error(s), 24 warning(s), 0 info; 3 game(s) with errors",
        "  errors:   E05 3",
        "  warnings: W12 24",
    ]
    # --no-group: one line each, as before.
    _, every, _ = validate(str(source), "--no-group")
    assert [line.split()[2] for line in every.splitlines()].count("W12") == 24
    assert "a habit of this file" not in every


def test_github_annotates_the_habit_once(tmp_path: Path) -> None:
    source = tmp_path / "house.pdn"
    source.write_text(house_style(5, errors=(2,)), encoding="utf-8")
    _, out, _ = validate(str(source), "--format", "github")
    lines = out.splitlines()
    assert [line.split(" ")[0] for line in lines] == ["::error", "::warning"]
    assert "title=W12::" in lines[1] and "a habit of this file%3A" not in lines[1]
    assert "a habit of this file: 10 time(s) in 5 of its 5 games" in lines[1]


def test_machine_formats_keep_every_occurrence(tmp_path: Path) -> None:
    source = tmp_path / "house.pdn"
    source.write_text(house_style(6, errors=(4,)), encoding="utf-8")
    _, jsonl, _ = validate(str(source), "--format", "jsonl")
    records = [json.loads(line) for line in jsonl.splitlines()]
    assert sum(i["code"] == "W12" for r in records for i in r["issues"]) == 12
    _, document, _ = validate(str(source), "--format", "json")
    data = json.loads(document)
    assert [r["issues"] for r in data["games"]] == [r["issues"] for r in records]
    [habit] = data["habits"]
    assert (habit["code"], habit["count"], habit["games"], habit["file_games"]) == (
        "W12",
        12,
        6,
        6,
    )
    assert habit["file"] == str(source) and habit["severity"] == "warning"
    assert [(o["game"], o["ply"]) for o in habit["occurrences"]] == [
        (game, ply) for game in range(1, 7) for ply in (1, 2)
    ]
    _, ungrouped, _ = validate(str(source), "--format", "json", "--no-group")
    assert json.loads(ungrouped)["habits"] == []
    for fmt in ("sarif", "junit"):
        assert (
            validate(str(source), "--format", fmt)[1]
            == validate(str(source), "--format", fmt, "--no-group")[1]
        )


@settings(max_examples=25, deadline=None)
@given(marked=st.lists(st.booleans(), min_size=1, max_size=9))
def test_a_habit_is_a_finding_in_more_than_half_the_games(marked: list[bool]) -> None:
    """Games with W12 (marked) or without: a habit exactly when the file holds at least
    MIN_GAMES games and more than half have it; the text lines and the habit's count
    add up to every occurrence."""
    clean = '[GameType "20"]\n1. 32-28 18-22 2. 37-32 12-18 *\n'
    dirty = '[GameType "20"]\n1. 32x28 18-22 2. 37-32 12-18 *\n'
    text = "\n".join(dirty if m else clean for m in marked)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "f.pdn"
        source.write_text(text, encoding="utf-8")
        out = CliRunner().invoke(main, ["validate", str(source), "-j", "1", "-q"]).stdout
    lines = out.splitlines()
    habit = len(marked) >= MIN_GAMES and 2 * sum(marked) > len(marked)
    if habit:
        assert len(lines) == 1 and f"{sum(marked)} time(s) in {sum(marked)} of" in lines[0]
    else:
        assert len(lines) == sum(marked)
        assert all("a habit of this file" not in line for line in lines)
