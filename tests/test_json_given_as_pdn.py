"""JSON given where PDN is read (``pdn validate``, ``stats``, ``report``, the API) is
named as JSON (E15) and not read as PDN text: read as text, pdn-tools' own JSON made
games and syntax errors up, and JSON holding PDN in its strings (as py-draughts keeps
games) passed as a file without games, exit status 0."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import read_games
from pdn_tools.cli import main
from pdn_tools.pdn.reader import FileReport
from pdn_tools.pdn.source import JSON_MESSAGE


def _issues(data: bytes) -> tuple[int, list[tuple[str, str]]]:
    """The games read from *data* and the findings about the file."""
    report = FileReport("given")
    games = list(read_games(io.BytesIO(data), report=report))
    return len(games), [(i.code, i.message) for i in report.issues]


GAME = '[Event "r"]\n[GameType "20"]\n[Result "*"]\n\n1. 32-28 19-23 2. 28x19 14x24 *\n'
SAMPLES = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture
def outputs(tmp_path: Path) -> dict[str, Path]:
    source = tmp_path / "games.pdn"
    source.write_text(GAME, encoding="utf-8")
    made = {}
    for ending in ("json", "jsonl"):
        out = tmp_path / f"games.{ending}"
        done = CliRunner().invoke(main, ["convert", str(source), "-o", str(out), "-q"])
        assert done.exit_code == 1, done.stderr  # the game's own E05
        made[ending] = out
    return made


@pytest.mark.parametrize("ending", ["json", "jsonl"])
@pytest.mark.parametrize("command", ["validate", "stats"])
def test_pdn_tools_json_is_named_not_read_as_pdn(
    outputs: dict[str, Path], ending: str, command: str
) -> None:
    done = CliRunner().invoke(main, [command, str(outputs[ending])])
    assert done.exit_code == 1
    text = done.stdout + done.stderr
    assert (f"E15 {JSON_MESSAGE}" if command == "validate" else "codes     E15 1") in text
    assert "E03" not in text and "E02" not in text and "W06" not in text


def test_json_holding_pdn_in_strings_fails_the_run(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps({"pdns": [GAME, GAME]}), encoding="utf-8")
    done = CliRunner().invoke(main, ["validate", str(path)])
    assert done.exit_code == 1
    assert "E15 input is JSON, not PDN" in done.stdout


@pytest.mark.parametrize(
    "start", ["[{", "[\n  {", '{"schema_version": 1', '\ufeff[{"a": 1}', '\n\n{"pdns": ["x"]}']
)
def test_the_ways_json_begins(start: str) -> None:
    assert _issues(start.encode("utf-8")) == (0, [("E15", JSON_MESSAGE)])


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(
        [
            '[Event "x"]',
            '[ "x"]',
            "[]",
            "{a comment} 1. 32-28",
            '{"quoted" comment}',
            '{"Bron": Toernooibase}',
            "1. 11-15",
        ]
    ),
    st.sampled_from(["", "\ufeff", "\n  ", "\r\n"]),
)
def test_pdn_is_never_taken_for_json(start: str, before: str) -> None:
    games, issues = _issues((before + start + " *\n").encode("utf-8"))
    assert games == 1 and "E15" not in [code for code, _ in issues]


def test_no_sample_of_the_project_is_taken_for_json() -> None:
    files = sorted(SAMPLES.rglob("*.pdn"))
    assert files
    for path in files:
        _, issues = _issues(path.read_bytes())
        assert JSON_MESSAGE not in [message for _, message in issues], path
