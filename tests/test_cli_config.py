"""Configuration files, --config and --isolated, and --rule, through the real CLI."""

from __future__ import annotations

import json
import math
import os
import tempfile
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn_tools.cli import main
from pdn_tools.cli.config import SETTINGS
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
        ("[tool.pdn]\nselect = 5\n", "select: 5 is not a string or an array of strings"),
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


@pytest.mark.parametrize(
    ("setting", "found"),
    [
        ("strict = 0", "strict: 0 is not true or false (found a TOML integer)"),
        ("strict = 1.0", "strict: 1.0 is not true or false (found a TOML float)"),
        ("strict = [1]", "strict: [1] is not true or false (found a TOML array holding"),
        ("strict = 'yes'", "strict: 'yes' is not true or false (found a TOML string)"),
        ("respect-gitignore = 1", "respect-gitignore: 1 is not true or false"),
    ],
)
def test_a_yes_no_setting_takes_only_true_or_false(
    tmp_path: Path, setting: str, found: str
) -> None:
    """A yes/no setting is a TOML boolean; anything else, in a file or in ``--config
    KEY = VALUE``, is one line saying what was found (exit 2), for every command."""
    (tmp_path / "g.pdn").write_text(GAMES, encoding="utf-8")
    (tmp_path / "pdn.toml").write_text(setting + "\n", encoding="utf-8")
    in_file = invoke(tmp_path, "validate", "g.pdn")
    assert in_file.exit_code == 2, in_file.output
    assert in_file.stderr.startswith(f"pdn validate: pdn.toml: {found}")
    assert len(in_file.stderr.strip().splitlines()) == 1
    for command in ("validate", "convert"):
        extra = ["-o", "-", "--to", "jsonl"] if command == "convert" else []
        done = invoke(tmp_path, command, "g.pdn", *extra, "--isolated", "--config", setting)
        assert done.exit_code == 2, (command, done.output)
        assert f"--config {setting!r}: {found}" in done.stderr
    (tmp_path / "pdn.toml").write_text(setting.split("=")[0] + "= true\n", encoding="utf-8")
    assert invoke(tmp_path, "validate", "g.pdn", "-q").exit_code == 1  # E05 in game 2


#: Every kind of value TOML has, and arrays of them.
SCALARS = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=8),
    st.sampled_from(["E", "W10", "english", "21", "cp1252", "error", "none", "*.tmp"]),
    st.dates(),
)
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3))


def toml_value(value: object) -> str:
    """*value* written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value).replace("\x7f", "\\u007f")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return str(value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(sorted(SETTINGS)),
    value=VALUES,
    override=st.booleans(),
    command=st.sampled_from(["validate", "convert"]),
)
def test_any_toml_value_for_any_setting_is_a_verdict(
    key: str, value: object, override: bool, command: str
) -> None:
    """Whatever TOML value a setting is given, in a file or with ``--config``, the run
    ends with an exit status of 0, 1 or 2, never an exception."""
    setting = f"{key} = {toml_value(value)}"
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        (base / "g.pdn").write_text(GAMES, encoding="utf-8")
        extra = ["-o", "-", "--to", "jsonl"] if command == "convert" else ["-j", "1"]
        if override:
            done = invoke(base, command, ".", *extra, "--isolated", "--config", setting)
        else:
            (base / "pdn.toml").write_text(setting + "\n", encoding="utf-8")
            done = invoke(base, command, ".", *extra)
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert done.exit_code in (0, 1, 2), (setting, done.output)
    if done.exit_code == 2:
        assert len(done.stderr.strip().splitlines()) == 1, (setting, done.stderr)
