"""Archives from untrusted hands: member names that point outside, bombs, crowds of
members (docs/security.md, "Archives and compressed files")."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import struct
import zipfile
from pathlib import Path

import pytest
from security_helpers import GAME, no_traceback, one_line, pdn

import pdn_tools
from pdn_tools.pdn import archives
from pdn_tools.pdn.archives import EXPANSION_FLOOR, member_count, unsafe_member


def _zip(path: Path, members: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", method) as handle:
        for name, data in members:
            handle.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return path


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A local game file the archive tries to reach, and the archive."""
    local = tmp_path / "local" / "private.pdn"
    local.parent.mkdir()
    local.write_text('[Event "private"]\n[White "Local"]\n1. 32-28 *\n', encoding="utf-8")
    archive = _zip(
        tmp_path / "evil.zip",
        [
            ("ok.pdn", GAME.encode()),
            (str(local), b'[Event "in the archive"]\n1. 31-27 *\n'),
            ("../local/private.pdn", b'[Event "in the archive"]\n1. 31-27 *\n'),
        ],
    )
    return local, archive


def test_unsafe_member_names_are_never_opened(planted: tuple[Path, Path], tmp_path: Path) -> None:
    local, archive = planted
    out = tmp_path / "out.jsonl"
    done = pdn("convert", str(archive), "-o", str(out), "--isolated", cwd=tmp_path)
    no_traceback(done)
    assert done.returncode == 1
    games = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [g["file"] for g in games] == [f"{archive}:ok.pdn"]
    assert "private" not in out.read_text(encoding="utf-8")
    assert "its name is absolute" in done.stderr
    assert "climbs out of the archive" in done.stderr
    report = pdn("validate", str(archive), "--format", "jsonl", "--isolated", cwd=tmp_path)
    records = [json.loads(line) for line in report.stdout.splitlines()]
    unsafe = [r for r in records if r["game"] == 0]
    assert [r["file"] for r in unsafe] == [f"{archive}:{local}", f"{archive}:../local/private.pdn"]
    assert all(r["issues"][0]["code"] == "E14" for r in unsafe)
    assert local.read_text(encoding="utf-8").startswith('[Event "private"]')


def test_an_unsafe_member_named_on_the_command_line_is_refused(
    planted: tuple[Path, Path], tmp_path: Path
) -> None:
    local, archive = planted
    for spelling in (f"{archive}:{local}", f"{archive}:../local/private.pdn"):
        done = pdn("validate", spelling, "--isolated", cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert "never opened" in done.stderr
        no_traceback(done)
    with pytest.raises(OSError, match="never opened"):
        list(pdn_tools.validate(f"{archive}:{local}"))


@pytest.mark.parametrize(
    ("name", "unsafe"),
    [
        ("round1.pdn", False),
        ("2024/round1.pdn", False),
        ("./round1.pdn", False),
        ("/etc/round1.pdn", True),
        ("\\\\server\\share.pdn", True),
        ("C:\\games\\x.pdn", True),
        ("a/../../x.pdn", True),
        ("a//x.pdn", True),
        ("x\x00.pdn", True),
    ],
)
def test_which_member_names_are_unsafe(name: str, unsafe: bool) -> None:
    assert (unsafe_member(name) is not None) is unsafe


def _bomb(kind: str, size: int) -> bytes:
    zeros = b"\0" * size
    if kind == "gzip":
        return gzip.compress(zeros, 9)
    if kind == "bzip2":
        return bz2.compress(zeros, 9)
    return lzma.compress(zeros)


@pytest.mark.parametrize("kind", ["gzip", "bzip2", "xz"])
def test_a_compression_bomb_stops_at_the_expansion_limit(tmp_path: Path, kind: str) -> None:
    bomb = tmp_path / "bomb.pdn.gz"
    bomb.write_bytes(_bomb(kind, EXPANSION_FLOOR * 3))
    done = pdn("validate", str(bomb), "--format", "jsonl", "--isolated", cwd=tmp_path)
    no_traceback(done)
    assert done.returncode == 1
    findings = [f for line in done.stdout.splitlines() for f in json.loads(line)["issues"]]
    limit = [f for f in findings if f["code"] == "E11" and "expands" in f["message"]]
    assert len(limit) == 1, findings
    assert f"the {kind} data is not read on: it expands more than 100 times" in limit[0]["message"]
    assert "(over 16 MiB so far; --max-expansion)" in limit[0]["message"]


def test_a_bomb_inside_a_zip_archive_stops_too(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "set.zip", [("round1.pdn", b"\0" * (EXPANSION_FLOOR * 3))])
    nested = _zip(tmp_path / "nested.zip", [("x.pdn.gz", _bomb("gzip", EXPANSION_FLOOR * 3))])
    for path in (archive, nested):
        done = pdn("validate", str(path), "--format", "jsonl", "--isolated", cwd=tmp_path)
        no_traceback(done)
        codes = [f["code"] for line in done.stdout.splitlines() for f in json.loads(line)["issues"]]
        assert "E11" in codes, done.stdout[:500]


def test_the_expansion_limit_can_be_raised(tmp_path: Path) -> None:
    """Text that compresses unusually well (games with long, repetitive comments)
    passes with a higher limit given on the command line; the default stops it."""
    game = '[Event "x"]\n1. 32-28 {' + "well played " * 150_000 + "} 19-23 *\n\n"
    text = (game * 12).encode()
    path = tmp_path / "annotated.pdn.xz"
    path.write_bytes(lzma.compress(text, preset=9))
    assert len(text) > EXPANSION_FLOOR and len(text) > 100 * path.stat().st_size
    stopped = pdn("stats", str(path), "--format", "json", "--isolated", cwd=tmp_path)
    assert json.loads(stopped.stdout)["total"]["codes"].get("E11") == 1
    raised = pdn(
        "stats",
        str(path),
        "--format",
        "json",
        "--max-expansion",
        "100000",
        "--isolated",
        cwd=tmp_path,
    )
    total = json.loads(raised.stdout)["total"]
    assert total["games"] == 12 and "E11" not in total["codes"]


def test_a_configuration_file_cannot_raise_a_limit(tmp_path: Path) -> None:
    (tmp_path / "pdn.toml").write_text("max-expansion = 100000\n", encoding="utf-8")
    (tmp_path / "a.pdn").write_text(GAME, encoding="utf-8")
    done = pdn("validate", "a.pdn", cwd=tmp_path)
    assert done.returncode == 2
    assert "a configuration file may lower a limit, not raise it" in done.stderr
    (tmp_path / "pdn.toml").write_text("max-expansion = 10\nmax-members = 5\n", encoding="utf-8")
    assert pdn("validate", "a.pdn", cwd=tmp_path).returncode == 0
    # A file named with --config comes from wherever the inputs came from: refused too.
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "pdn.toml").write_text("max-members = 1000000\n", encoding="utf-8")
    named = pdn("validate", "a.pdn", "--config", "ci/pdn.toml", cwd=tmp_path)
    assert named.returncode == 2 and "may lower a limit, not raise it" in named.stderr


@pytest.mark.parametrize(
    ("key", "above"),
    [
        ("max-game-size", 3_000_000),
        ("max-depth", 200),
        ("max-expansion", archives.MAX_EXPANSION * 10),
        ("max-members", archives.MAX_MEMBERS * 10),
    ],
)
def test_a_quoted_limit_cannot_raise_a_limit(tmp_path: Path, key: str, above: int) -> None:
    """A limit written as a TOML string (``max-game-size = "3000000"``) is refused like
    any value that is not a whole number: the game over the default stays an E11, the
    file never raising the limit by the back door of click's conversion."""
    games = tmp_path / "g"
    games.mkdir()
    big = '[Event "H"]\n[GameType "20"]\n\n1. 32-28 {' + "x" * 2_100_000 + "} 18-23 *\n"
    (games / "h.pdn").write_text(big, encoding="utf-8")
    assert pdn("validate", "g", "-q", cwd=tmp_path).returncode == 1  # E11 by default
    (games / "pdn.toml").write_text(f'{key} = "{above}"\n', encoding="utf-8")
    done = pdn("validate", "g", "-q", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert one_line(done) == (
        f"pdn validate: g/pdn.toml: {key}: '{above}' is not a whole number (found a TOML string)"
    )
    # Quoted or not, a lower limit is no more accepted as text than a higher one.
    (games / "pdn.toml").write_text(f'{key} = "5"\n', encoding="utf-8")
    assert pdn("validate", "g", "-q", cwd=tmp_path).returncode == 2
    # Nor on the command line's --config KEY = VALUE, which may raise it unquoted.
    quoted = pdn(
        "validate", "g", "-q", "--isolated", "--config", f'{key} = "{above}"', cwd=tmp_path
    )
    assert quoted.returncode == 2 and "is not a whole number" in one_line(quoted)


def test_a_limit_raised_by_a_config_override_on_the_command_line_holds(tmp_path: Path) -> None:
    """``--config 'KEY = VALUE'`` is written on the command line, like ``--max-…``: it
    may raise a limit above the default (a file beside the inputs may not), and it
    overrides the file's lower one."""
    _zip(tmp_path / "crowd.zip", [(f"g{i:02d}.pdn", GAME.encode()) for i in range(30)])
    (tmp_path / "pdn.toml").write_text("max-members = 5\n", encoding="utf-8")
    stopped = pdn("stats", "crowd.zip", "--format", "json", cwd=tmp_path)
    assert json.loads(stopped.stdout)["total"]["codes"].get("E11") == 1
    above = f"max-members = {archives.MAX_MEMBERS * 10}"
    raised = pdn("stats", "crowd.zip", "--format", "json", "--config", above, cwd=tmp_path)
    assert raised.returncode == 0, raised.stderr
    total = json.loads(raised.stdout)["total"]
    assert total["games"] == 30 and "E11" not in total["codes"]


def test_too_many_members_are_refused_before_the_directory_is_read(tmp_path: Path) -> None:
    members = [(f"g{i:04d}.pdn", GAME.encode()) for i in range(30)]
    archive = _zip(tmp_path / "crowd.zip", members)
    with open(archive, "rb") as handle:
        assert member_count(handle) == 30
    done = pdn("validate", str(archive), "--max-members", "20", "--format", "jsonl", "--isolated")
    no_traceback(done)
    assert done.returncode == 1
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 1 and records[0]["issues"][0]["code"] == "E11"
    assert "holds 30 members, more than the limit of 20" in records[0]["issues"][0]["message"]
    assert pdn("validate", str(archive), "--max-members", "30", "--isolated").returncode == 0


def test_a_directory_that_claims_millions_of_members_is_not_read(tmp_path: Path) -> None:
    """The end-of-directory record is all that is read of an archive over the limit:
    a crafted count is enough to refuse it, whatever the directory holds."""
    archive = _zip(tmp_path / "claims.zip", [("a.pdn", GAME.encode())])
    data = bytearray(archive.read_bytes())
    end = data.rfind(b"PK\x05\x06")
    struct.pack_into("<HH", data, end + 8, 0xFFFE, 0xFFFE)
    archive.write_bytes(bytes(data))
    done = pdn("validate", str(archive), "--max-members", "1000", "--isolated")
    no_traceback(done)
    assert "holds 65534 members" in done.stdout


def test_reading_the_members_of_an_archive_is_linear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each member used to open the archive again (its directory read once per member,
    quadratic in all); now the directory is read once to list the members and once
    to read them all."""
    archive = _zip(tmp_path / "many.zip", [(f"g{i:04d}.pdn", GAME.encode()) for i in range(300)])
    reads = 0
    real = zipfile.ZipFile._RealGetContents  # type: ignore[attr-defined]

    def counted(self: zipfile.ZipFile) -> None:
        nonlocal reads
        reads += 1
        real(self)

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", counted)
    archives._ARCHIVES.forget()
    games = list(pdn_tools.validate(str(archive)))
    assert len(games) == 300
    assert reads == 2


def test_a_damaged_archive_in_a_folder_is_a_finding(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "good.pdn").write_text(GAME, encoding="utf-8")
    (folder / "broken.zip").write_bytes(b"PK\x03\x04 this is not a zip archive")
    done = pdn("validate", str(folder), "--format", "jsonl", "--isolated")
    no_traceback(done)
    assert done.returncode == 1
    bad = [json.loads(line) for line in done.stdout.splitlines() if "broken.zip" in line]
    assert bad and bad[0]["issues"][0]["code"] == "E14"
    assert "not a readable zip archive" in bad[0]["issues"][0]["message"]


def test_names_that_are_not_the_utf8_they_claim(tmp_path: Path) -> None:
    """Found by the fuzzer: a directory entry flagged UTF-8 whose name is not."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as handle:
        handle.writestr("caf\u00e9.pdn", GAME)
    data = bytearray(buffer.getvalue())
    central = data.rfind(b"PK\x01\x02")
    name_at = central + 46
    data[name_at + 3] = 0xF2  # an invalid UTF-8 byte in place of the é
    (tmp_path / "odd.zip").write_bytes(bytes(data))
    folder = pdn("validate", str(tmp_path), "--isolated")
    no_traceback(folder)
    assert folder.returncode == 1 and "E14" in folder.stdout
    named = pdn("validate", str(tmp_path / "odd.zip"), "--isolated")
    no_traceback(named)
    assert named.returncode == 2
