"""docs/cli.md, "Exit status": the same input, the same status in every command."""

from __future__ import annotations

import io
import os
import struct
import zipfile
from pathlib import Path

import pytest
from cli_helpers import run
from conftest import SAMPLES

GAME = '[Event "x"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
COMMANDS = ["validate", "report", "convert", "stats", "duplicates"]
#: input -> (validate, report, convert, stats, duplicates); "copies" means duplicates
#: answers 1 because the input holds a game twice.
TABLE = {
    "clean": (0, 0, 0, 0, 0),
    "warnings": (0, 0, 0, 0, 1),
    "error": (1, 1, 1, 1, 0),
    "event": (1, 1, 0, 0, 0),
    "empty": (0, 0, 0, 0, 0),
    "binary": (1, 1, 1, 1, 0),
    "prose": (1, 1, 1, 1, 0),
    "unreadable-in-folder": (1, 1, 1, 1, 0),
    "limit": (1, 1, 1, 1, 0),
    "link-out": (0, 0, 0, 0, 0),
    "missing": (2, 2, 2, 2, 2),
    "no-pdn": (2, 2, 2, 2, 2),
    "scheme": (2, 2, 2, 2, 2),
    "bad-config": (2, 2, 2, 2, 2),
}


def _claims_many_members() -> bytes:
    """A zip archive whose zip64 end record claims 200,000 members (E11 with the
    default limit of 100,000, before its directory is read)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as handle:
        handle.writestr("a.pdn", GAME)
    data = buffer.getvalue()
    end = data.rfind(b"PK\x05\x06")
    directory_size, directory_at = struct.unpack_from("<II", data, end + 12)
    record = struct.pack(
        "<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, 200_000, 200_000, directory_size,
        directory_at,
    )  # fmt: skip
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, end, 1)
    return data[:end] + record + locator + data[end:]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    base = tmp_path_factory.mktemp("inputs")

    def file(name: str, data: bytes) -> str:
        (base / name).write_bytes(data)
        return str(base / name)

    def folder(name: str) -> Path:
        path = base / name
        path.mkdir()
        return path

    unsafe = folder("unsafe")
    with zipfile.ZipFile(unsafe / "set.zip", "w") as handle:
        handle.writestr("ok.pdn", GAME)
        handle.writestr(zipfile.ZipInfo("/etc/x.pdn"), GAME)
    linked = folder("linked")
    (linked / "ok.pdn").write_text(GAME, encoding="utf-8")
    (base / "outside.txt").write_text("x\n", encoding="utf-8")
    (linked / "out.pdn").symlink_to("../outside.txt")
    (folder("no-pdn") / "notes.txt").write_text("x\n", encoding="utf-8")
    configured = folder("configured")
    (configured / "a.pdn").write_text(GAME, encoding="utf-8")
    (configured / "pdn.toml").write_text("max-depth = 1000\n", encoding="utf-8")
    # A round robin whose player A plays twice in round 2 (E50); every game is clean.
    pairings = [("1", "A", "B", "32-28"), ("1", "C", "D", "33-28"), ("2", "A", "C", "31-27")]
    round_robin = "\n".join(
        f'[Event "Club"]\n[Date "2024.01.0{r}"]\n[Round "{r}"]\n[White "{w}"]\n'
        f'[Black "{b}"]\n[Result "*"]\n[GameType "20"]\n\n1. {move} 19-23 *\n'
        for r, w, b, move in [*pairings, ("2", "A", "D", "34-30")]
    )
    return {
        "clean": [str(SAMPLES / "clean" / "club-evening.pdn")],
        "warnings": [file("warn.pdn", (GAME + "\n" + GAME.replace(" *", "")).encode())],
        "error": [str(SAMPLES / "faults" / "illegal-moves.pdn")],
        "event": [file("round-robin.pdn", round_robin.encode())],
        "empty": [file("empty.pdn", b"")],
        "binary": [file("photo.pdn", b"\xff\xd8\xff\xe0JFIF" + bytes(range(256)) * 8)],
        "prose": [file("notes.pdn", b"Notes about the club evening.\nNothing else.\n")],
        "unreadable-in-folder": [str(unsafe)],
        "limit": [file("crowd.zip", _claims_many_members())],
        "link-out": [str(linked)],
        "missing": [str(base / "missing.pdn")],
        "no-pdn": [str(base / "no-pdn")],
        "scheme": ["ftp://127.0.0.1:9/x.pdn"],
        "bad-config": [str(configured)],
    }


@pytest.mark.parametrize("case", sorted(TABLE))
def test_every_command_gives_the_documented_status(
    inputs: dict[str, list[str]], case: str, tmp_path: Path
) -> None:
    got = []
    for command in COMMANDS:
        extra = {
            "report": ["-o", str(tmp_path / "r.html")],
            "convert": ["-o", str(tmp_path / "c.jsonl")],
        }
        isolated = [] if case == "bad-config" else ["--isolated"]
        done = run(command, *inputs[case], *extra.get(command, []), *isolated, cwd=tmp_path)
        assert "Traceback" not in done.stderr, done.stderr
        got.append(done.returncode)
    assert tuple(got) == TABLE[case], dict(zip(COMMANDS, got, strict=True))
    assert not [p for p in os.listdir(tmp_path) if ".pdn-tmp-" in p]


def test_the_table_is_the_one_documented() -> None:
    doc = (SAMPLES.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    section = doc.split("## Exit status", 1)[1].split("\n## ", 1)[0]
    assert "tests/test_exit_status.py" in section
    for command in COMMANDS:
        assert f"`{command}`" in section
