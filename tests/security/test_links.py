"""Symbolic links planted in a folder do not pour other files into the reports
(docs/security.md, "What is read")."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from security_helpers import GAME, SECRET, no_traceback, pdn

import pdn_tools


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A folder of games beside a secret, with links out of the folder to the secret
    (as a file and through a linked folder) and one link that stays inside."""
    (tmp_path / "secret.env").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "more.pdn").write_text(SECRET + "\n", encoding="utf-8")
    games = tmp_path / "games"
    games.mkdir()
    (games / "round1.pdn").write_text(GAME, encoding="utf-8")
    (games / "env.pdn").symlink_to("../secret.env")
    (games / "absolute.pdn").symlink_to(tmp_path / "secret.env")
    (games / "linked").symlink_to("../elsewhere", target_is_directory=True)
    (games / "inside.pdn").symlink_to("round1.pdn")
    return games


FORMATS = ["text", "json", "jsonl", "github", "sarif", "junit"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_links_out_of_the_folder_are_not_read(planted: Path, fmt: str) -> None:
    done = pdn("validate", str(planted), "--format", fmt, "--isolated", "--info")
    no_traceback(done)
    assert SECRET not in done.stdout + done.stderr
    assert done.returncode == 0  # W39 is a warning: the run itself is fine
    assert done.stdout.count("W39") >= 3 if fmt != "json" else "W39" in done.stdout


def test_the_finding_names_the_link_as_written(planted: Path) -> None:
    done = pdn("validate", str(planted), "--format", "jsonl", "--isolated")
    records = {Path(r["file"]).name: r for r in map(json.loads, done.stdout.splitlines())}
    # inside.pdn comes first and is round1.pdn: that file is read once, through it
    assert set(records) == {"env.pdn", "absolute.pdn", "linked", "inside.pdn"}
    env = records["env.pdn"]["issues"][0]
    assert env["code"] == "W39"
    assert env["message"] == (
        "a symbolic link to '../secret.env', which leads out of the folder read; "
        "not followed (--follow-links reads it)"
    )
    assert records["inside.pdn"]["status"] == "ok"  # a link inside the folder is read


def test_reports_and_conversions_do_not_leak_either(planted: Path, tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    done = pdn("report", str(planted), "-o", str(html), "--isolated")
    no_traceback(done)
    assert SECRET not in html.read_text(encoding="utf-8")
    for out in ("all.pdn", "all.jsonl"):
        converted = pdn("convert", str(planted), "-o", str(tmp_path / out), "--isolated")
        no_traceback(converted)
        assert converted.returncode == 0
        assert SECRET not in (tmp_path / out).read_text(encoding="utf-8")
        assert "W39" in converted.stderr
    for command in ("stats", "duplicates"):
        counted = pdn(command, str(planted), "--isolated")
        assert SECRET not in counted.stdout + counted.stderr


def test_a_pattern_does_not_follow_links_out_of_its_folder(planted: Path) -> None:
    done = pdn("validate", str(planted / "*.pdn"), "--format", "jsonl", "--isolated")
    no_traceback(done)
    assert SECRET not in done.stdout
    codes = {Path(r["file"]).name: r["issues"] for r in map(json.loads, done.stdout.splitlines())}
    assert codes["env.pdn"][0]["code"] == "W39"


def test_follow_links_reads_them(planted: Path) -> None:
    done = pdn("validate", str(planted), "--follow-links", "--format", "jsonl", "--isolated")
    no_traceback(done)
    assert "W39" not in done.stdout
    assert SECRET in done.stdout  # E15 quotes the beginning of a file that holds no PDN
    assert done.returncode == 1


def test_a_configuration_file_cannot_follow_links(planted: Path) -> None:
    (planted / "pdn.toml").write_text("follow-links = true\n", encoding="utf-8")
    done = pdn("validate", str(planted))
    assert done.returncode == 2
    assert "unknown setting 'follow-links'" in done.stderr
    assert SECRET not in done.stdout + done.stderr


@pytest.mark.parametrize("name", ["pdn.toml", "pyproject.toml"])
def test_a_configuration_file_that_is_a_link_is_not_followed(planted: Path, name: str) -> None:
    """A configuration file found beside the inputs that is a symbolic link could lead
    to any file (whose content the error messages would quote): the run ends with one
    line instead, the target never read; named with --config, the link is followed."""
    target = planted.parent / "settings.toml"
    target.write_text(f'[tool.pdn]\nvariant = "{SECRET}"\n', encoding="utf-8")
    if name == "pdn.toml":
        target.write_text(f'variant = "{SECRET}"\n', encoding="utf-8")
    (planted / name).symlink_to(target)
    done = pdn("validate", str(planted / "round1.pdn"))
    assert done.returncode == 2
    assert f"{name}: a symbolic link" in done.stderr
    assert SECRET not in done.stdout + done.stderr
    named = pdn("validate", str(planted / "round1.pdn"), "--config", str(planted / name))
    assert named.returncode == 2 and "unknown variant" in named.stderr  # the target, read


def test_a_named_link_is_read(planted: Path) -> None:
    """What the command line names is read, link or not: it is not the input's choice."""
    done = pdn("validate", str(planted / "env.pdn"), "--isolated")
    assert "E15" in done.stdout


def test_the_api_walks_folders_the_same_way(planted: Path) -> None:
    games = list(pdn_tools.validate(planted))
    placeholders = {os.path.basename(g.file): g for g in games if g.index == 0}
    assert {"env.pdn", "absolute.pdn", "linked"} <= set(placeholders)
    assert all(g.issues[0].code == "W39" for g in placeholders.values())
    assert all(SECRET not in str(g.issues) for g in games)
    assert sum(1 for g in games if g.index) == 1  # round1.pdn, read once
