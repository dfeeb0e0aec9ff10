"""Which files are read: folders walked as linters walk them, through the real CLI.

A temporary git repository with a .gitignore (and a negation, and one in a subfolder),
hidden and virtual-environment folders, symbolic links (a loop, a second way into a
folder, a link to nothing), a FIFO, compressed files and a zip archive.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from cli_helpers import run

GOOD = '[Event "{}"]\n[GameType "20"]\n1. 32-28 18-23 *\n'
BAD = '[Event "{}"]\n[GameType "20"]\n1. 32-28 32-28 *\n'


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def files_read(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The files a ``--format jsonl`` run reports, in order, once each."""
    out: list[str] = []
    for line in done.stdout.splitlines():
        name = json.loads(line)["file"]
        if name not in out:
            out.append(name)
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("repo")
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=60)
    write(root / ".gitignore", "build/\n*.tmp.pdn\n!keep.tmp.pdn\n")
    write(root / "games" / ".gitignore", "old/\n")
    write(root / "games" / "a.pdn", GOOD.format("a"))
    write(root / "games" / "B.PDN", GOOD.format("b"))
    write(root / "games" / "x.tmp.pdn", BAD.format("ignored by pattern"))
    write(root / "games" / "keep.tmp.pdn", GOOD.format("negated"))
    write(root / "games" / "old" / "o.pdn", BAD.format("ignored below"))
    write(root / "games" / "notes.txt", "not PDN")
    write(root / "build" / "b.pdn", BAD.format("ignored folder"))
    write(root / ".hidden" / "h.pdn", BAD.format("hidden"))
    write(root / ".venv" / "v.pdn", BAD.format("venv"))
    write(root / "env" / "pyvenv.cfg", "home = /usr\n")
    write(root / "env" / "e.pdn", BAD.format("virtual environment"))
    write(root / "node_modules" / "n.pdn", BAD.format("tool folder"))
    write(root / "deep" / "er" / "d.pdn", GOOD.format("deep"))
    (root / "deep" / "er" / "up").symlink_to("..", target_is_directory=True)
    (root / "deep" / "again").symlink_to(root / "games", target_is_directory=True)
    (root / "deep" / "nothing.pdn").symlink_to(root / "missing.pdn")
    return root


def test_git_repository_walk(repo: Path) -> None:
    done = run("validate", ".", "--format", "jsonl", "--isolated", cwd=repo)
    assert "Traceback" not in done.stderr
    assert files_read(done) == [
        "deep/nothing.pdn",  # a link to nothing: one finding, the walk goes on
        "deep/er/d.pdn",
        "deep/er/up",  # a link back to a folder above it
        "games/B.PDN",
        "games/a.pdn",
        "games/keep.tmp.pdn",
    ]
    records = [json.loads(line) for line in done.stdout.splitlines()]
    codes = {r["file"]: [i["code"] for i in r["issues"]] for r in records}
    assert codes["deep/nothing.pdn"] == ["E14"]
    assert codes["deep/er/up"] == ["E14"]
    assert done.returncode == 1


def test_named_files_are_read_whatever_the_filters(repo: Path) -> None:
    named = ["build/b.pdn", ".hidden/h.pdn", "games/x.tmp.pdn", "games/notes.txt"]
    done = run("validate", *named, "--format", "jsonl", "--isolated", cwd=repo)
    assert files_read(done) == named
    folder = run("validate", ".venv", "--format", "jsonl", "--isolated", cwd=repo)
    assert files_read(folder) == [".venv/v.pdn"]  # a named folder is walked


def test_exclude_and_gitignore_switches(repo: Path) -> None:
    extend = run("validate", "games", "--extend-exclude", "B.*", "-q", "--isolated", cwd=repo)
    assert "B.PDN" not in extend.stdout + extend.stderr
    replaced = run(
        "validate", ".", "--exclude", "deep/", "--format", "jsonl", "--isolated", cwd=repo
    )
    read = files_read(replaced)
    assert ".hidden/h.pdn" in read and ".venv/v.pdn" in read  # the defaults are replaced
    assert not any(name.startswith("deep/") for name in read)
    unignored = run(
        "validate", "games", "--no-respect-gitignore", "--format", "jsonl", "--isolated",
        cwd=repo,
    )  # fmt: skip
    assert "games/old/o.pdn" in files_read(unignored)
    assert "games/x.tmp.pdn" in files_read(unignored)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--exclude", "\\"], "--exclude"),
        (["--extend-exclude", "a/", "--extend-exclude", "!"], "--extend-exclude"),
    ],
)
def test_an_invalid_exclusion_pattern_is_a_usage_error(
    tmp_path: Path, args: list[str], option: str
) -> None:
    write(tmp_path / "a.pdn", GOOD.format("a"))
    done = run("validate", ".", *args, "--isolated", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith(f"pdn validate: Invalid value for '{option}': ")
    assert "is not a valid pattern" in line


def test_an_invalid_pattern_in_the_configuration_names_the_file(tmp_path: Path) -> None:
    write(tmp_path / "a.pdn", GOOD.format("a"))
    write(tmp_path / "pdn.toml", 'extend-exclude = ["old/", "!"]\n')
    done = run("validate", ".", cwd=tmp_path)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("pdn validate: ") and "pdn.toml" in line
    assert "extend-exclude: '!' is not a valid pattern" in line


def test_gitignore_lines_git_cannot_read_are_skipped(tmp_path: Path) -> None:
    """git skips a line of .gitignore that is no pattern; so do we, and the other
    lines still apply."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, timeout=60)
    write(tmp_path / ".gitignore", "!\nskipped.pdn\n\\\n")
    write(tmp_path / "a.pdn", GOOD.format("a"))
    write(tmp_path / "skipped.pdn", BAD.format("ignored"))
    done = run("validate", ".", "--format", "jsonl", "--isolated", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert files_read(done) == ["a.pdn"]


def test_fifo_is_skipped_with_a_note(tmp_path: Path) -> None:
    write(tmp_path / "a.pdn", GOOD.format("a"))
    os.mkfifo(tmp_path / "pipe.pdn")
    for command in (["validate", "-j", "1"], ["validate", "-j", "2"], ["stats"]):
        done = run(*command, str(tmp_path), "--isolated", timeout=60)
        assert done.returncode == 0, done.stderr
        assert f"note: {tmp_path / 'pipe.pdn'}: skipped, a FIFO" in done.stderr
    out = tmp_path / "out.jsonl"
    converted = run("convert", str(tmp_path), "-o", str(out), "--isolated", timeout=60)
    assert converted.returncode == 0 and "1 game(s) read" in converted.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_in_a_folder_is_a_finding(tmp_path: Path) -> None:
    write(tmp_path / "a.pdn", GOOD.format("a"))
    locked = write(tmp_path / "b.pdn", GOOD.format("b"))
    locked.chmod(0)
    done = run("validate", str(tmp_path), "--isolated")
    assert done.returncode == 1
    assert f"{locked}:1:1: error E14 file cannot be read: permission denied" in done.stdout


def test_compressed_files_and_zip_archives(tmp_path: Path) -> None:
    write(tmp_path / "plain.pdn", GOOD.format("plain"))
    (tmp_path / "g.pdn.gz").write_bytes(gzip.compress(GOOD.format("gz").encode()))
    (tmp_path / "b.pdn.bz2").write_bytes(bz2.compress(GOOD.format("bz2").encode()))
    (tmp_path / "x.pdn.xz").write_bytes(lzma.compress(GOOD.format("xz").encode()))
    with zipfile.ZipFile(tmp_path / "set.zip", "w") as archive:
        archive.writestr("round1.pdn", GOOD.format("r1"))
        archive.writestr("sub/round2.PDN", BAD.format("r2"))
        archive.writestr("readme.txt", "not read")
        archive.writestr("__MACOSX/._round1.pdn", "resource fork")
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as archive:
        archive.writestr("readme.txt", "no PDN inside")
    done = run("validate", ".", "--format", "jsonl", "--isolated", cwd=tmp_path)
    assert files_read(done) == [
        "b.pdn.bz2",
        "g.pdn.gz",
        "plain.pdn",
        "set.zip:round1.pdn",
        "set.zip:sub/round2.PDN",
        "x.pdn.xz",
    ]
    events = [json.loads(line).get("variant") for line in done.stdout.splitlines()]
    assert events == ["international"] * 6
    member = run("validate", "set.zip:round1.pdn", "--isolated", cwd=tmp_path)
    assert member.returncode == 0 and "1 file(s), 1 game(s)" in member.stderr
    shown = run("show", "set.zip:sub/round2.PDN", "--isolated", cwd=tmp_path)
    assert shown.returncode == 0 and "set.zip:sub/round2.PDN: game 1" in shown.stdout
    piped = subprocess.run(
        [*_pdn(), "validate", "-", "--isolated"],
        input=gzip.compress(GOOD.format("s").encode()),
        capture_output=True,
        timeout=120,
    )
    assert piped.returncode == 0 and b"1 game(s)" in piped.stderr


def test_damaged_compressed_file_is_one_finding(tmp_path: Path) -> None:
    data = gzip.compress((GOOD.format("a") + "\n" + GOOD.format("b")).encode() * 50)
    (tmp_path / "cut.pdn.gz").write_bytes(data[: len(data) // 2])
    write(tmp_path / "ok.pdn", GOOD.format("ok"))
    done = run("validate", str(tmp_path), "--isolated", "--format", "jsonl")
    assert "Traceback" not in done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    damaged = [i for r in records for i in r["issues"] if i["code"] == "E14"]
    assert len(damaged) == 1 and "gzip data is damaged" in damaged[0]["message"]
    assert records[-1]["file"].endswith("ok.pdn") and records[-1]["status"] == "ok"


def test_file_names_that_are_not_utf8(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, b"caf\xe9.pdn"), "wb") as handle:
        handle.write(BAD.format("x").encode())
    for fmt in ("text", "jsonl", "json", "github", "sarif", "junit"):
        done = subprocess.run(
            [*_pdn(), "validate", folder, "--format", fmt, "--isolated"],
            capture_output=True,
            timeout=120,
        )
        assert done.returncode == 1, (fmt, done.stderr)
        assert b"Traceback" not in done.stderr
        shown = {"jsonl": b"caf\\\\xe9.pdn", "json": b"caf\\\\xe9.pdn", "sarif": b"caf%E9.pdn"}
        assert shown.get(fmt, b"caf\\xe9.pdn") in done.stdout, fmt
    for args in (["stats", folder], ["convert", folder, "-o", "-", "--to", "jsonl"]):
        done = subprocess.run([*_pdn(), *args, "--isolated"], capture_output=True, timeout=120)
        assert b"Traceback" not in done.stderr and done.returncode in (0, 1), done.stderr
    named = os.path.join(folder, b"caf\xe9.pdn")
    done = subprocess.run([*_pdn(), "show", named, "--isolated"], capture_output=True, timeout=120)
    assert done.returncode == 0 and b"caf\\xe9.pdn: game 1" in done.stdout


def test_sarif_uris_carry_the_bytes_of_the_names(tmp_path: Path) -> None:
    """A SARIF URI names the file on disk: a control character of the name is the
    byte itself, percent-encoded (``c%01trl.pdn``), as an odd byte is (``%E9``), a C1
    control its UTF-8 bytes, and a backslash that is part of a name stays one
    (``%5C``); reports in text show all of them escaped."""
    folder = os.fsencode(tmp_path)
    names = {
        b"c\x01trl.pdn": "c%01trl.pdn",
        b"caf\xe9.pdn": "caf%E9.pdn",
        "c\x85one.pdn".encode(): "c%C2%85one.pdn",
        b"lit\\x01.pdn": "lit%5Cx01.pdn",
    }
    for name in names:
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(BAD.format("x").encode())
    done = run("validate", ".", "--format", "sarif", "--isolated", cwd=tmp_path)
    results = json.loads(done.stdout)["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == set(names.values())
    text = run("validate", ".", "--isolated", cwd=tmp_path).stdout
    assert "c\\x01trl.pdn:3:" in text and "\x01" not in text


def _pdn() -> list[str | bytes]:
    from cli_helpers import PDN

    return list(PDN)


# Patterns that make a backtracking regular-expression engine take exponential time
# on a name they do not match (found by the fuzzing of pdn.toml, tests/fuzz/).
HOSTILE = ["*" * 100 + ".tmp", "*a" * 40 + "b", "[a-z]*" * 30 + "!"]


def test_hostile_patterns_do_not_hang_the_walk(tmp_path: Path) -> None:
    """A folder handed to the command is input, and so are its pdn.toml and its
    .gitignore files: their patterns are matched in time linear in the name."""
    name = "a" * 200 + ".pdn"
    write(tmp_path / name, GOOD.format("top"))
    write(tmp_path / "sub" / name, GOOD.format("sub"))
    quoted = ", ".join(f'"{p}"' for p in HOSTILE)
    write(tmp_path / "pdn.toml", f"exclude = [{quoted}]\n")
    write(tmp_path / "sub" / ".gitignore", "\n".join(HOSTILE) + "\n")
    done = run("validate", str(tmp_path), "--format", "jsonl", timeout=60)
    assert done.returncode == 0, done.stderr
    assert len(files_read(done)) == 2
    done = run("validate", str(tmp_path), "--isolated", "--exclude", HOSTILE[1], timeout=60)
    assert done.returncode == 0 and "2 game(s)" in done.stderr, done.stderr


def test_a_file_reached_twice_is_read_once_at_its_first_place(tmp_path: Path) -> None:
    """A file named twice, or named beside a folder (or archive) that holds it, is
    read once, at the first place it is reached, whatever the order of the inputs."""
    write(tmp_path / "games" / "a.pdn", GOOD.format("a"))
    write(tmp_path / "games" / "b.pdn", BAD.format("b"))
    write(tmp_path / "err.pdn", BAD.format("err"))
    with zipfile.ZipFile(tmp_path / "arc.zip", "w") as archive:
        archive.writestr("in.pdn", GOOD.format("in"))

    def read(*paths: str, jobs: str = "1") -> list[str]:
        done = run("validate", *paths, "--format", "jsonl", "-j", jobs, "--isolated", cwd=tmp_path)
        assert "Traceback" not in done.stderr, done.stderr
        return [json.loads(line)["file"] for line in done.stdout.splitlines()]

    assert read("games", "games/a.pdn") == ["games/a.pdn", "games/b.pdn"]
    assert read("games/b.pdn", "games") == ["games/b.pdn", "games/a.pdn"]
    assert read("games/b.pdn", "games", jobs="2") == ["games/b.pdn", "games/a.pdn"]
    assert read("err.pdn", "./err.pdn", "err.pdn") == ["err.pdn"]
    assert read("arc.zip", "arc.zip:in.pdn", "arc.zip/in.pdn") == ["arc.zip:in.pdn"]
    assert read("arc.zip:in.pdn", "arc.zip", "err.pdn") == ["arc.zip:in.pdn", "err.pdn"]
    twice = run("validate", "err.pdn", "err.pdn", "--isolated", cwd=tmp_path)
    assert twice.returncode == 1
    assert twice.stdout.count("E05") == 1 and "1 file(s)" in twice.stderr
    # duplicates would otherwise find the game a copy of itself, depending on the order
    for order in (("games", "games/a.pdn"), ("games/a.pdn", "games")):
        dup = run("duplicates", *order, "--isolated", cwd=tmp_path)
        assert dup.returncode == 0, dup.stdout
