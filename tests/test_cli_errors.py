"""Exit status 2: usage and input errors end with one clear line, never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from cli_helpers import run
from conftest import SAMPLES

GOOD = str(SAMPLES / "clean" / "club-evening.pdn")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("validate", "no/such.pdn"), "no/such.pdn: no such file or directory"),
        (("stats", "no/such.pdn"), "no/such.pdn: no such file or directory"),
        (("show", "no/such.pdn"), "no/such.pdn: no such file or directory"),
        (("validate", GOOD, "missing.pdn"), "missing.pdn: no such file"),
        (("validate", "-", "-"), "standard input ('-') can be read only once"),
        (("validate", GOOD, "--encoding", "klingon"), "unknown encoding 'klingon'"),
        (("validate", GOOD, "--select", "X9"), "'X9' is no diagnostic code"),
        (("stats", GOOD, "--ignore", "W99"), "'W99' is no diagnostic code"),
        (("validate", GOOD, "--format", "xml"), "Invalid value for '--format'"),
        (("validate", GOOD, "--jobs", "0"), "Invalid value for '-j' / '--jobs'"),
        (("validate", GOOD, "--no-such-option"), "pdn validate: No such option '--no-such-option'"),
        (("stats", GOOD, "--no-such-option"), "No such option"),
        (("show", GOOD, "--no-such-option"), "No such option"),
        (("moves", "W:W31-50:B1-20", "--no-such-option"), "No such option"),
        (("perft", "1", "--no-such-option"), "No such option"),
        (("no-such-command",), "No such command 'no-such-command'"),
        (("validate",), "Missing argument 'PATH...'"),
        (("show", str(SAMPLES)), "is a directory; show reads one file"),
        (("show", GOOD, "--game", "9"), "holds 2 game(s); there is no game 9"),
        (("show", GOOD, "--ply", "99"), "has 11 plies, not 99"),
        (("moves", "W:W31-50:B1-99"), "pdn moves: invalid FEN"),
        (("moves", "not a fen"), "pdn moves: invalid FEN"),
        (("moves", "X:W1"), "pdn moves: invalid FEN: the side to move must be W, B or ?"),
        (("perft", "1", "--fen", "X:W1"), "pdn perft: invalid FEN"),
        (("engine",), "pdn engine: say which protocol to speak (--hub)"),
    ],
)
def test_exit_two_with_one_line(args: tuple[str, ...], expected: str) -> None:
    done = run(*args)
    assert done.returncode == 2, (args, done.stdout, done.stderr)
    stderr = done.stderr.strip()
    assert "Traceback" not in stderr
    assert expected in stderr, stderr
    assert len(stderr.splitlines()) == 1, stderr
    assert stderr.startswith("pdn")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdn"
    path.write_text("1. 32-28 *\n", encoding="utf-8")
    path.chmod(0)
    done = run("validate", str(path))
    assert done.returncode == 2
    assert f"{path}: permission denied" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_unreadable_file_in_a_directory_is_a_finding(tmp_path: Path) -> None:
    """A name ending in .pdn that is a broken link: the walk finds it, it becomes an E14
    finding for that entry, and the other files are still checked."""
    (tmp_path / "dangling.pdn").symlink_to(tmp_path / "gone.pdn")
    (tmp_path / "good.pdn").write_text('[GameType "20"]\n1. 32-28 *\n', encoding="utf-8")
    done = run("validate", str(tmp_path))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    line = done.stdout.strip()
    assert len(line.splitlines()) == 1
    assert "dangling.pdn:1:1: error E14 file cannot be read: a symbolic link to" in line
    assert "2 file(s), 1 game(s)" in done.stderr


def test_version_and_help() -> None:
    version = run("--version")
    assert version.returncode == 0
    assert re.fullmatch(r"pdn-tools \d+\.\d+\.\d+ \((compiled|pure Python)\)\n", version.stdout)
    help_ = run("--help")
    assert help_.returncode == 0
    for command in ("validate", "stats", "show", "moves", "perft"):
        assert command in help_.stdout
    assert run("validate", "-h").stdout.startswith("Usage: pdn validate")


def test_version_names_the_build_that_runs() -> None:
    """``(compiled)`` exactly when the engine's modules are extension modules."""
    import importlib.machinery

    import pdn_tools.rules.movegen
    from pdn_tools.version import __version__, build

    compiled = pdn_tools.rules.movegen.__file__.endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES)
    )
    assert build() == ("compiled" if compiled else "pure Python")
    assert run("--version").stdout == f"pdn-tools {__version__} ({build()})\n"
