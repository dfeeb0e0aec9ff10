"""``pdn validate`` end to end, in a subprocess, as users and pipelines run it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO, SAMPLES

PDN = [sys.executable, "-m", "pdn_tools"]


def run(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PDN, *args],
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        timeout=120,
    )


def test_jsonl_schema_and_order(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(
        '[Event "a"]\n[Result "2-0"]\n1. 32-28 18-23 2-0\n\n[Event "b"]\n1. 33-29 8-11Redover *\n',
        encoding="utf-8",
    )
    done = run("validate", str(path), "--format", "jsonl")
    assert done.returncode == 1
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["game"] for r in records] == [1, 2]
    first, second = records
    assert set(first) == {
        "file",
        "game",
        "line",
        "variant",
        "gametype",
        "status",
        "plies",
        "result",
        "outcome",
        "game_id",
        "issues",
        "draws",
        "replayed",
        "final_fen",
        "producer",
    }
    assert (first["gametype"], first["outcome"], len(first["game_id"])) == (20, "white", 16)
    assert (first["line"], first["plies"], first["result"], first["status"]) == (1, 2, "2-0", "ok")
    assert first["variant"] == "international"
    assert first["replayed"] is True and first["final_fen"] == "W:W28,31,33-50:B1-17,19,20,23"
    assert second["status"] == "error"
    e03 = next(i for i in second["issues"] if i["code"] == "E03")
    assert set(e03) >= {"code", "severity", "message", "line", "column", "ply", "move"}
    assert (e03["line"], e03["column"], e03["severity"]) == (6, 14, "error")


def test_text_format_and_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.pdn"
    good.write_text('[Event "a"]\n1. 32-28 *\n', encoding="utf-8")
    done = run("validate", str(good))
    assert done.returncode == 0
    assert "1 game(s)" in done.stderr
    warn = tmp_path / "warn.pdn"
    warn.write_text('[Event "a"]\n1. 1- 6 *\n', encoding="utf-8")
    done = run("validate", str(warn))
    assert done.returncode == 0
    assert f"{warn}:2:4: warning W10" in done.stdout
    assert "[game 1, ply 1]" in done.stdout


def test_missing_file_is_exit_two_with_one_line() -> None:
    done = run("validate", "no/such/file.pdn")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "no such file" in done.stderr
    assert "Traceback" not in done.stderr


def test_unknown_option_is_exit_two() -> None:
    done = run("validate", "--no-such-option", "x.pdn")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr


def test_stdin_with_a_name() -> None:
    done = run(
        "validate",
        "-",
        "--stdin-filename",
        "piped.pdn",
        "--format",
        "jsonl",
        stdin=b'[Event "x"]\n1. 32-28 *\n',
    )
    assert done.returncode == 0
    record = json.loads(done.stdout)
    assert record["file"] == "piped.pdn"


def test_directories_are_walked_for_pdn_in_any_case(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "A.PDN").write_text("1. 32-28 *\n", encoding="utf-8")
    (tmp_path / "b.pdn").write_text("1. 33-29 *\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a game", encoding="utf-8")
    done = run("validate", str(tmp_path), "--format", "jsonl")
    files = [Path(json.loads(line)["file"]).name for line in done.stdout.splitlines()]
    assert files == ["b.pdn", "A.PDN"]


def test_empty_file_gets_a_file_record(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdn"
    empty.write_bytes(b"")
    done = run("validate", str(empty), "--format", "jsonl")
    record = json.loads(done.stdout)
    assert record["game"] == 0 and record["issues"][0]["code"] == "W35"
    assert done.returncode == 0


def test_sample_corpus_main_command() -> None:
    done = run("validate", str(SAMPLES), "--format", "jsonl")
    assert done.returncode == 1  # the faults/ folder plants errors
    records = [json.loads(line) for line in done.stdout.splitlines()]
    by_file: dict[str, list[dict[str, object]]] = {}
    for record in records:
        by_file.setdefault(Path(str(record["file"])).name, []).append(record)
    assert all(r["status"] != "error" for r in by_file["club-evening.pdn"])
    assert {r["status"] for r in by_file["nested-comment.pdn"]} == {"error", "ok"}
    assert len(by_file["tagless-games.pdn"]) == 2


def test_installed_entry_point_runs_from_any_directory(tmp_path: Path) -> None:
    pdn = shutil.which("pdn")
    if pdn is None:
        import pytest

        pytest.skip("the pdn console script is not installed in this environment")
    sample = tmp_path / "g.pdn"
    sample.write_text("1. 32-28 *\n", encoding="utf-8")
    done = subprocess.run(
        [pdn, "validate", "g.pdn"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_replay_findings_and_syntax_only(tmp_path: Path) -> None:
    path = tmp_path / "illegal.pdn"
    path.write_text('[Event "x"]\n[GameType "20"]\n1. 32-28 18-23 2. 28-23 *\n', encoding="utf-8")
    done = run("validate", str(path), "--format", "jsonl")
    record = json.loads(done.stdout)
    assert done.returncode == 1
    e05 = next(i for i in record["issues"] if i["code"] == "E05")
    assert (e05["ply"], e05["move"], e05["line"], e05["column"]) == (3, "28-23", 3, 19)
    assert record["plies"] == 2
    syntax = run("validate", str(path), "--format", "jsonl", "--syntax-only")
    assert syntax.returncode == 0
    assert json.loads(syntax.stdout)["replayed"] is False


def test_variant_option_names_8x8_variants_and_profiles() -> None:
    # A Czech game without GameType: algebraic squares, men never capture backwards.
    czech = b"1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n"
    done = run("validate", "-", "--variant", "czech", "--format", "json", stdin=czech)
    record = json.loads(done.stdout)["games"][0]
    assert done.returncode == 0 and record["variant"] == "czech" and record["replayed"]
    assert record["final_fen"] == "W:W21,23-32:B1-7,9,10,12,15"
    # The short-landing profile replaces GameType 20: the king must stop on 9, not 3.
    game = b'[GameType "20"]\n[FEN "W:WK25:B14,44"]\n\n1. 25x3 *\n'
    assert run("validate", "-", stdin=game).returncode == 0
    done = run("validate", "-", "--variant", "short-landing", stdin=game)
    assert done.returncode == 1 and " E0" in done.stdout
