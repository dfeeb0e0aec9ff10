"""Configuration files, --config and --isolated, and --rule, through the real CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pdn_tools.cli import main
from pdn_tools.replay.rule_options import RULE_OPTIONS

#: A W10 (spaced move) in game 1, an illegal move (E05) in game 2, and an English game
#: without GameType in game 3 (E-errors unless read as English).
GAMES = (
    '[Event "a"]\n[GameType "20"]\n1. 32- 28 18-23 *\n\n'
    '[Event "b"]\n[GameType "20"]\n1. 32-28 32-28 *\n\n'
    '[Event "c"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'
)
#: Kings shuffling back and forth: the start position of the shuffle recurs (threefold).
REPETITION = (
    '[GameType "20"]\n[FEN "W:WK47:BK4"]\n'
    "1. 47-42 4-10 2. 42-47 10-4 3. 47-42 4-10 4. 42-47 10-4 5. 47-42 *\n"
)


def invoke(folder: Path, *args: str) -> Result:
    """``pdn ARGS`` run in *folder* (configuration files are looked for from there)."""
    old = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(main, list(args), prog_name="pdn")
    finally:
        os.chdir(old)


def codes(result: Result) -> list[str]:
    return [i["code"] for line in result.stdout.splitlines() for i in json.loads(line)["issues"]]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "g.pdn").write_text(GAMES, encoding="utf-8")
    (tmp_path / "games" / "drafts").mkdir()
    (tmp_path / "games" / "drafts" / "d.pdn").write_text(GAMES, encoding="utf-8")
    return tmp_path


def test_pyproject_section_is_read_and_the_command_line_wins(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        "[project]\nname = 'x'\n\n[tool.pdn]\n"
        'select = ["W10", "E05"]\nvariant = "English"\nexclude = ["drafts/"]\n'
        'fail-on = "warning"\n',
        encoding="utf-8",
    )
    configured = invoke(project, "validate", "games", "--format", "jsonl", "-j", "1")
    assert configured.exit_code == 1
    assert sorted(set(codes(configured))) == ["E05", "W10"]
    assert {json.loads(line)["file"] for line in configured.stdout.splitlines()} == {"games/g.pdn"}
    records = [json.loads(line) for line in configured.stdout.splitlines()]
    assert records[2]["variant"] == "english" and records[2]["status"] == "ok"
    # Options given on the command line override the file.
    override = invoke(
        project, "validate", "games", "--format", "jsonl", "-j", "1", "--select", "W10"
    )
    assert set(codes(override)) == {"W10"}
    assert override.exit_code == 1  # fail-on = warning still comes from the file
    exit_zero = invoke(project, "validate", "games", "-q", "--select", "W10", "--fail-on", "error")
    assert exit_zero.exit_code == 0
    # The file is found from the folder of the paths given, not only the current one.
    below = invoke(project / "games", "validate", "g.pdn", "--format", "jsonl", "-j", "1")
    assert sorted(set(codes(below))) == ["E05", "W10"]


def test_isolated_and_config_options(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.pdn]\nselect = ["W10"]\n', encoding="utf-8")
    (project / "other.toml").write_text('[tool.pdn]\nselect = ["E05"]\n', encoding="utf-8")
    isolated = invoke(project, "validate", "games/g.pdn", "--format", "jsonl", "--isolated")
    assert {"W10", "E05", "W27"} <= set(codes(isolated))
    other = invoke(
        project, "validate", "games/g.pdn", "--format", "jsonl", "--config", "other.toml"
    )
    assert set(codes(other)) == {"E05"}
    inline = invoke(
        project, "validate", "games/g.pdn", "--format", "jsonl", "--config", 'select = ["W27"]'
    )
    assert set(codes(inline)) == {"W27"}
    both = invoke(project, "validate", "games/g.pdn", "--config", "other.toml", "--isolated")
    assert both.exit_code == 2 and "cannot be used with --isolated" in both.stderr


def test_pdn_toml_wins_over_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.pdn]\nselect = ["W10"]\n', encoding="utf-8")
    (project / "pdn.toml").write_text('select = ["E05"]\n', encoding="utf-8")
    done = invoke(project, "validate", "games/g.pdn", "--format", "jsonl")
    assert set(codes(done)) == {"E05"}


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('[tool.pdn]\nselct = ["E"]\n', "pyproject.toml [tool.pdn]: unknown setting 'selct'"),
        ('[tool.pdn]\nselect = ["X9"]\n', "select: 'X9' is no diagnostic code"),
        ('[tool.pdn]\nvariant = "klingon"\n', "variant: unknown variant 'klingon'"),
        ('[tool.pdn]\nencoding = "rot13"\n', "'rot13' is not a text encoding"),
        ("[tool.pdn]\nrules = { draws = 'maybe' }\n", "rule 'draws' takes yes or no"),
        ("[tool.pdn\n", "pyproject.toml: not valid TOML"),
        ("[tool.pdn]\nselect = 5\n", "select: Value must be an iterable"),
        ("[tool.pdn]\nmax-depth = 'deep'\n", "max-depth: 'deep' is not a whole number"),
        ("[tool.pdn]\nexclude = [1]\n", "exclusion patterns must be a list of strings"),
    ],
)
def test_bad_configuration_is_a_usage_error(project: Path, content: str, expected: str) -> None:
    (project / "pyproject.toml").write_text(content, encoding="utf-8")
    done = invoke(project, "validate", "games")
    assert done.exit_code == 2, done.output
    assert expected in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_each_checking_command_reads_the_file(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.pdn]\nvariant = "21"\nexclude = ["drafts/"]\n[tool.pdn.rules]\ndraws = false\n',
        encoding="utf-8",
    )
    stats = invoke(project, "stats", "games", "--format", "json", "-j", "1")
    assert json.loads(stats.stdout)["total"]["files"] == 1
    shown = invoke(project, "show", "games/g.pdn", "--game", "3")
    assert shown.exit_code == 0 and ", english, result *" in shown.stdout
    converted = invoke(project, "convert", "games", "-o", "-", "--to", "jsonl")
    assert "3 game(s) read, 3 written" in converted.stderr
    assert [json.loads(line)["variant"] for line in converted.stdout.splitlines()][2] == "english"


def test_rule_option_reaches_the_replay(tmp_path: Path) -> None:
    game = tmp_path / "rep.pdn"
    game.write_text(REPETITION, encoding="utf-8")

    def draws(*extra: str) -> list[str]:
        done = invoke(tmp_path, "validate", str(game), "--format", "jsonl", "--isolated", *extra)
        assert done.exit_code == 0, done.output
        return [d["rule"] for d in json.loads(done.stdout)["draws"]]

    assert "threefold" in draws()
    assert draws("--rule", "draws=no") == []
    assert "threefold" in draws("--rule", "draws=no", "--rule", "DRAWS=yes")  # the last wins
    (tmp_path / "pdn.toml").write_text("[rules]\ndraws = false\n", encoding="utf-8")
    configured = invoke(tmp_path, "validate", str(game), "--format", "jsonl")
    assert json.loads(configured.stdout)["draws"] == []
    over = invoke(tmp_path, "validate", str(game), "--format", "jsonl", "--rule", "draws=yes")
    assert json.loads(over.stdout)["draws"] != []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("nonsense=yes", "unknown rule 'nonsense'"),
        ("draws", "'draws' is not NAME=VALUE"),
        ("draws=perhaps", "rule 'draws' takes yes or no"),
        ("capture-in-16-move-class=later", "takes earlier or fresh"),
    ],
)
def test_bad_rule_is_a_usage_error(tmp_path: Path, value: str, expected: str) -> None:
    (tmp_path / "g.pdn").write_text(GAMES, encoding="utf-8")
    for command in ("validate", "stats", "show", "convert"):
        extra = ["-o", "-", "--to", "jsonl"] if command == "convert" else []
        done = invoke(tmp_path, command, "g.pdn", *extra, "--rule", value, "--isolated")
        assert done.exit_code == 2, (command, done.output)
        assert expected in done.stderr


def test_every_rule_option_names_a_replay_option() -> None:
    from dataclasses import fields

    from pdn_tools.replay import ReplayOptions

    names = {f.name for f in fields(ReplayOptions)}
    for option in RULE_OPTIONS.values():
        assert option.field in names
        default = getattr(ReplayOptions(), option.field)
        assert option.parse(option.default) == default, option.name
