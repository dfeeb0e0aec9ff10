"""Every ``pdn …`` example of the README's "Use" section, run as written and checked
against what its comment says, in a folder holding the files the examples name."""

from __future__ import annotations

import bz2
import gzip
import json
import random
import re
import shlex
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import PDN
from conftest import REPO
from helpers import random_game_pdn

from pdn_tools.rules import variant_by_name

INTERNATIONAL = variant_by_name("international")
ENGLISH = variant_by_name("english")

Done = subprocess.CompletedProcess[str]


def examples() -> list[str]:
    """The commands of the README's ``sh`` block under "## Use" (comments removed)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Use", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def comment(command: str) -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if x.startswith(command))
    return line.split("#", 1)[1].strip() if "#" in line else ""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the examples name: games/ (with a hidden folder, an ignored one and a
    configured exclusion), archive.pdn, games.pdn, old.pdn, new.pdn, tinsley.pdn,
    games.zip and games.pdn.gz, and a pyproject.toml with a [tool.pdn] table."""
    root = tmp_path_factory.mktemp("readme")
    rng = random.Random(7)

    def game(event: str, plies: int = 20) -> str:
        return random_game_pdn(INTERNATIONAL, rng, plies, {"Event": event, "GameType": "20"})

    bad = '[Event "bad"]\n[GameType "20"]\n1. 32-28 32-28 *\n\n'
    games = root / "games"
    for sub in ("sub", ".hidden", "ignored", "drafts"):
        (games / sub).mkdir(parents=True)
    (games / "a.pdn").write_text(game("a") + game("a2"), encoding="utf-8")
    (games / "sub" / "b.PDN").write_text(game("b") + bad, encoding="utf-8")
    (games / ".hidden" / "c.pdn").write_text(bad, encoding="utf-8")
    (games / "ignored" / "d.pdn").write_text(bad, encoding="utf-8")
    (games / "drafts" / "e.pdn").write_text(bad, encoding="utf-8")
    (games / ".gitignore").write_text("ignored/\n", encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.pdn]\nextend-exclude = ["drafts/"]\n', encoding="utf-8"
    )
    (root / "archive.pdn").write_text(game("x") + game("y") + game("z"), encoding="utf-8")
    text = "".join(game(f"g{i}", 40) for i in range(1, 9))
    (root / "games.pdn").write_text(text, encoding="utf-8")
    (root / "old.pdn").write_bytes(
        ('[Event "Чемпионат СССР"]\n[White "Иванов"]\n[GameType "25"]\n1. c3-d4 *\n').encode(
            "cp866"
        )
    )
    (root / "new.pdn").write_text('[Event "x"]\n[GameType "20"]\n1. 32- 28 *\n', encoding="utf-8")
    english = random_game_pdn(ENGLISH, rng, 20, {"Event": "Tinsley"})
    (root / "tinsley.pdn").write_text(english, encoding="utf-8")
    with zipfile.ZipFile(root / "games.zip", "w") as archive:
        archive.writestr("round1.pdn", game("r1"))
        archive.writestr("round2.pdn", game("r2"))
    (root / "games.pdn.gz").write_bytes(gzip.compress(game("gz").encode()))
    (root / "unused.pdn.bz2").write_bytes(bz2.compress(game("bz").encode()))
    return root


def run(command: str, cwd: Path) -> Done:
    """Run an example as a shell would: ``cat FILE | pdn …`` feeds FILE to stdin."""
    stdin = None
    if command.startswith("cat "):
        source, command = command[4:].split(" | ", 1)
        stdin = (cwd / source).read_text(encoding="utf-8")
    args = shlex.split(command)
    assert args[0] == "pdn"
    return subprocess.run(
        [*PDN, *args[1:]], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=300
    )


def summary(done: Done) -> tuple[int, int]:
    match = re.search(r"(\d+) file\(s\), (\d+) game\(s\)", done.stderr)
    assert match is not None, done.stderr
    return int(match.group(1)), int(match.group(2))


def _tree(done: Done, root: Path) -> None:
    # every *.pdn below games/ but hidden and ignored ones, text report
    assert done.returncode == 1
    assert summary(done) == (2, 4)  # a.pdn, sub/b.PDN; not .hidden, ignored/, drafts/
    for line in done.stdout.splitlines():
        assert re.match(r"games/sub/b\.PDN:\d+:\d+: error ", line), line


def _jsonl(done: Done, root: Path) -> None:
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["game"] for r in records] == [1, 2, 3]


def _stdin(done: Done, root: Path) -> None:
    assert done.returncode == 0 and summary(done) == (1, 8)


def _forced(done: Done, root: Path) -> None:
    assert done.returncode == 0 and "W30" not in done.stdout + done.stderr


def _strict(done: Done, root: Path) -> None:
    assert done.returncode == 1 and "error W10" in done.stdout


def _english(done: Done, root: Path) -> None:
    assert done.returncode == 0 and done.stdout == ""


def _archives(done: Done, root: Path) -> None:
    assert done.returncode == 0 and summary(done) == (3, 3)


def _github(done: Done, root: Path) -> None:
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("::error file=games/sub/b.PDN") for line in lines)


def _selected(done: Done, root: Path) -> None:
    assert done.returncode == 1
    assert all(" error E" in line for line in done.stdout.splitlines())


def _isolated(done: Done, root: Path) -> None:
    assert summary(done) == (3, 5)  # drafts/ too: the configured exclusion is not read
    assert "games/drafts/e.pdn" in done.stdout


def _canonical(done: Done, root: Path) -> None:
    assert done.returncode == 1  # a game with an error is written too
    assert "4 game(s) read, 4 written, 0 rejected" in done.stderr
    assert (root / "clean.pdn").read_text(encoding="utf-8").count("[Event ") == 4


def _parquet(done: Done, root: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    assert done.returncode == 0
    assert "4 game(s) read, 3 written, 1 rejected" in done.stderr
    assert pq.read_table(root / "games.parquet").num_rows == 3
    assert pq.read_table(root / "moves.parquet").num_rows > 0
    assert '[Event "bad"]' in (root / "bad.pdn").read_text(encoding="utf-8")


def _show(done: Done, root: Path) -> None:
    assert done.returncode == 0
    assert "game 7 (line" in done.stdout and "ply 31 of 40" in done.stdout


def _report(done: Done, root: Path) -> None:
    # every finding with its board, in one HTML page (the errors of games/sub/b.PDN)
    assert done.returncode == 1
    page = (root / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "games/sub/b.PDN" in page
    assert "Content-Security-Policy" in page


def _stats(done: Done, root: Path) -> None:
    total = done.stdout.split("total: ", 1)[1]
    assert total.startswith("2 file(s)")
    assert "games     4 (1 with errors), plies " in total
    for word in ("results", "variants", "codes"):
        assert re.search(rf"^  {word} ", total, re.MULTILINE), word


def _duplicates(done: Done, root: Path) -> None:
    assert done.returncode == 0 and done.stdout == ""  # every game is distinct
    assert "2 file(s), 4 game(s): 4 distinct, 0 copies" in done.stderr


def _events(done: Done, root: Path) -> None:
    # the events: games, rounds, players, pairing guess
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["a", "a2", "b", "bad"]
    assert all("game(s), rounds " in line and "(guess)" in line for line in lines)
    assert "2 file(s): 4 event(s)" in done.stderr


def _moves(done: Done, root: Path) -> None:
    start = "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"
    assert done.stdout.split() == start.split()


def _count(expected: str) -> Callable[[Done, Path], None]:
    def check(done: Done, root: Path) -> None:
        assert done.stdout.strip() == expected

    return check


CHECKS: dict[str, Callable[[Done, Path], None]] = {
    "pdn validate games/": _tree,
    "pdn validate archive.pdn --format jsonl": _jsonl,
    "cat games.pdn | pdn validate - --stdin-filename games.pdn": _stdin,
    "pdn validate old.pdn --encoding cp866": _forced,
    "pdn validate --strict new.pdn": _strict,
    "pdn validate tinsley.pdn --variant english": _english,
    "pdn validate games.zip games.pdn.gz": _archives,
    "pdn validate games/ --format github": _github,
    "pdn validate games/ --select E --ignore E11 --fail-on warning --jobs 4": _selected,
    "pdn validate games/ --isolated": _isolated,
    "pdn convert games/ -o clean.pdn": _canonical,
    "pdn convert games/ -o games.parquet --moves-table moves.parquet --rejects bad.pdn": _parquet,
    "pdn show games.pdn --game 7 --ply 31": _show,
    "pdn report games/ -o report.html": _report,
    "pdn stats games/": _stats,
    "pdn duplicates games/": _duplicates,
    "pdn events games/": _events,
    'pdn moves "W:W31-50:B1-20"': _moves,
    "pdn perft 5 --variant russian": _count("7482"),
    "pdn perft 6": _count("167140"),
}


def test_every_example_has_a_check() -> None:
    assert examples() == list(CHECKS)


def test_counts_in_comments_are_what_is_checked() -> None:
    assert "7482" in comment("pdn perft 5 --variant russian")
    assert "167140" in comment("pdn perft 6")


@pytest.mark.parametrize("command", list(CHECKS))
def test_example(command: str, folder: Path) -> None:
    done = run(command, folder)
    assert "Traceback" not in done.stderr, done.stderr
    CHECKS[command](done, folder)
