"""``pdn convert`` end to end: formats, stdout, rejects, counts and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from helpers import signature

from pdn_tools import read_string
from pdn_tools.cli import main
from pdn_tools.export.from_json import read_json
from pdn_tools.export.parquet import METADATA_KEY

GOOD = (
    '[Event "a"]\n[GameType "20"]\n1. 32-28 {[%clock w1:00:00 B1:00:00]} 19-23 (1... 18-23) 2-0\n'
)
BAD = '[Event "b"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x17 *\n'
WARN = '[Event "c"]\n[GameType "20"]\n1. 32-28 19-23 2. 28-19 14x23 1-1\n'


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["convert", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GOOD + "\n" + BAD + "\n" + WARN, encoding="utf-8")
    return path


def test_format_from_extension(collection: Path, tmp_path: Path) -> None:
    for ext in ("pdn", "json", "jsonl", "parquet"):
        out = tmp_path / f"out.{ext}"
        code, _, err = run(str(collection), "-o", str(out))
        assert code == 1, err  # one game with an error was written
        assert "3 game(s) read, 3 written, 0 rejected" in err
    assert len(read_string((tmp_path / "out.pdn").read_text(encoding="utf-8"))) == 3
    assert len(json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))) == 3
    assert len((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()) == 3
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.num_rows == 3
    assert table.schema.metadata[METADATA_KEY.encode()] == b"5"


@pytest.mark.parametrize(
    ("out", "options", "message"),
    [
        ("pp2.pdn", ("--partition-by", "year"), "-o pp2.pdn names a PDN file, but a dataset"),
        ("ds.jsonl/", (), "-o ds.jsonl/ names a JSON Lines file, but a dataset"),
        ("x.parquet", ("--split-by", "event"), "names a Parquet file, but --split-by writes a"),
        ("x.pdn", ("--split-by", "event", "--to", "pdn"), "names a PDN file, but --split-by"),
        ("x.parquet", ("--to", "jsonl"), "-o x.parquet names a Parquet file, not JSON Lines"),
        ("x.json", ("--to", "jsonl"), "-o x.json names a JSON file, not JSON Lines (--to jsonl)"),
        ("x.parquet", ("--moves-table", "m.pdn"), "--moves-table m.pdn names a PDN file"),
        ("ds/", ("--moves-table", "m.json/"), "--moves-table m.json/ names a JSON file"),
        ("x.pdn.gz", ("--to", "pdn"), "-o x.pdn.gz names a gzip-compressed file, but outputs"),
        ("x.pdn.gz", (), "(write -o - and compress the stream)"),
        ("x.jsonl", ("--rejects", "r.pdn.XZ"), "--rejects r.pdn.XZ names an xz-compressed"),
        ("x.parquet", ("--moves-table", "m.bz2"), "--moves-table m.bz2 names a bzip2-"),
        ("by-event.zip", ("--split-by", "event"), "-o by-event.zip names a zip archive"),
    ],
)
def test_an_output_name_that_says_another_format_is_refused(
    collection: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    out: str,
    options: tuple[str, ...],
    message: str,
) -> None:
    """An output whose extension names another format than the one it would be
    written in is refused in one line, exit status 2, before anything is written."""
    monkeypatch.chdir(tmp_path)
    code, stdout, err = run(str(collection), "-o", out, *options)
    assert code == 2, err
    assert err.startswith("pdn convert: ") and message in err and err.count("\n") == 1
    assert stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pdn"]


def test_output_names_that_say_nothing_against_the_format(
    collection: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Directory names without an extension (or with one no format has, or
    ``.parquet`` for a dataset) and an extension that agrees with ``--to`` are kept."""
    monkeypatch.chdir(tmp_path)
    for out, options in (
        ("by-event", ("--split-by", "event")),
        ("nk.2003", ("--split-by", "event", "--to", "json")),
        ("years", ("--partition-by", "year")),
        ("years.parquet", ("--partition-by", "year")),
        ("plain/", ()),
        ("out.ndjson", ("--to", "jsonl")),
        ("out.pq", ("--to", "parquet", "--moves-table", "moves.parquet")),
    ):
        code, _, err = run(str(collection), "-o", out, *options)
        assert code == 1, (out, err)  # one game with an error was written
        assert "3 game(s) read, 3 written" in err
        assert (tmp_path / out).exists()
    assert (tmp_path / "by-event" / "a.pdn").is_file()
    assert (tmp_path / "nk.2003" / "a.json").is_file()


def test_rejects_verbatim_and_counts(collection: Path, tmp_path: Path) -> None:
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.pdn"
    code, _, err = run(str(collection), "-o", str(out), "--rejects", str(rejects))
    assert code == 0
    assert "3 game(s) read, 2 written, 1 rejected" in err
    assert rejects.read_text(encoding="utf-8") == BAD
    objects = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [o["game"] for o in objects] == [1, 3]
    assert [i["code"] for i in objects[1]["issues"]] == ["W12"]


def test_stdout_needs_to(collection: Path) -> None:
    code, out, err = run(str(collection), "-o", "-", "--to", "jsonl")
    assert code == 1 and len(out.splitlines()) == 3 and "3 game(s) read" in err
    code, out, err = run(str(collection), "-o", "-")
    assert code == 2 and "needs --to" in err and "Traceback" not in err


def test_stdin_to_pdn() -> None:
    code, out, err = run("-", "-o", "-", "--to", "pdn", stdin=GOOD)
    assert code == 0, err
    assert out.endswith("1. 32-28 {[%clock w1:00:00 B1:00:00]} 1... 19-23 (1... 18-23) 2-0\n")


def test_usage_errors(collection: Path, tmp_path: Path) -> None:
    code, _, err = run(str(collection), "-o", str(tmp_path / "out.txt"))
    assert code == 2 and "--to" in err
    code, _, err = run(str(tmp_path / "missing.pdn"), "-o", str(tmp_path / "o.pdn"))
    assert code == 2 and "no such file" in err
    code, _, err = run(str(collection), "-o", str(tmp_path / "o.pdn"), "--moves-table", "m.pq")
    assert code == 2 and "Parquet" in err
    code, _, err = run(str(collection), "-o", str(collection))
    assert code == 2 and "also an input" in err
    code, _, err = run(str(collection), "-o", str(tmp_path / "no" / "dir.pdn"))
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_json_input_back_to_pdn(collection: Path, tmp_path: Path) -> None:
    json_path, pdn_path = tmp_path / "a.json", tmp_path / "b.pdn"
    run(str(collection), "-o", str(json_path))
    code, _, err = run(str(json_path), "-o", str(pdn_path), "--rejects", str(tmp_path / "r.pdn"))
    assert code == 0 and "3 game(s) read, 2 written, 1 rejected" in err
    direct = tmp_path / "direct.pdn"
    run(str(collection), "-o", str(direct), "--rejects", str(tmp_path / "r2.pdn"))
    assert pdn_path.read_text(encoding="utf-8") == direct.read_text(encoding="utf-8")
    originals = read_string(collection.read_text(encoding="utf-8"))
    assert [signature(g) for g in read_json(json_path)] == [signature(g) for g in originals]
    bad = tmp_path / "bad.json"
    bad.write_text('{"x": 1}\n', encoding="utf-8")
    code, _, err = run(str(bad), "-o", str(tmp_path / "x.pdn"))
    assert code == 2 and "not pdn-tools JSON" in err


def test_parquet_moves_table(collection: Path, tmp_path: Path) -> None:
    games, moves = tmp_path / "g.parquet", tmp_path / "m.parquet"
    code, _, _ = run(str(collection), "-o", str(games), "--moves-table", str(moves))
    assert code == 1
    rows = pq.read_table(moves).to_pylist()
    table = pq.read_table(games).to_pylist()
    first = [r for r in rows if r["record_id"] == table[0]["record_id"]]
    assert [r["move"] for r in first] == ["32-28", "19-23"]
    assert first[0]["fen_before"] == "W:W31-50:B1-20" and first[1]["fen_before"].startswith("B:")
    bad = [r for r in rows if r["record_id"] == table[1]["record_id"]]
    assert [r["move"] for r in bad] == ["32-28", "19-23", "28x17"] and bad[2]["from_square"] is None
    assert table[0]["moves"] == ["32-28", "19-23"] and table[0]["event"] == "a"
    assert table[1]["status"] == "error" and table[1]["issues"][0]["severity"] == "error"
    assert pq.read_schema(moves).metadata[METADATA_KEY.encode()] == b"5"


def test_strip_and_normalise_options(collection: Path, tmp_path: Path) -> None:
    out = tmp_path / "o.pdn"
    args = ["--strip-comments", "--strip-variations", "--normalise-results"]
    run(str(collection), "-o", str(out), *args)
    text = out.read_text(encoding="utf-8")
    assert "(" not in text and "{[%clock w1:00:00 B1:00:00]}" in text
    assert '[Result "2-0"]' in text


def test_quiet_leaves_only_the_errors_about_inputs_on_stderr(tmp_path: Path) -> None:
    """``--quiet`` as for validate: no counts line, no notes; a file that is not PDN is
    still said (stderr is where convert says it), an empty file's W35 is not; the
    exit status and the output do not change."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "games.pdn").write_text(GOOD + "\n" + WARN, encoding="utf-8")
    (folder / "empty.pdn").write_bytes(b"")
    (folder / "binary.pdn").write_bytes(b"\x00\x01\x02binary\x00\xff")
    loud = run(str(folder), "-o", str(tmp_path / "loud.pdn"))
    quiet = run(str(folder), "-o", str(tmp_path / "quiet.pdn"), "--quiet")
    assert loud[0] == quiet[0] == 1  # a file that cannot be read as PDN
    assert "2 game(s) read, 2 written, 0 rejected" in loud[2] and " W35 " in loud[2]
    assert [line.split(": ")[0] for line in quiet[2].splitlines()] == [str(folder / "binary.pdn")]
    assert " E15 " in quiet[2] or " E12 " in quiet[2]
    assert (tmp_path / "loud.pdn").read_bytes() == (tmp_path / "quiet.pdn").read_bytes()
    clean = tmp_path / "clean.pdn"
    clean.write_text(GOOD, encoding="utf-8")
    assert run(str(clean), "-o", str(tmp_path / "c.pdn"), "-q") == (0, "", "")
    assert run(str(clean), "-o", "-", "--to", "pdn", "-q")[2] == ""


def test_analyse_quiet_drops_its_counts_line(tmp_path: Path) -> None:
    clean = tmp_path / "clean.pdn"
    clean.write_text('[GameType "20"]\n1. 32-28 19-23 *\n', encoding="utf-8")
    out = tmp_path / "a.pdn"
    args = ["analyse", str(clean), "-o", str(out), "--nodes", "20", "--no-plausibility"]
    loud = CliRunner().invoke(main, args)
    assert loud.exit_code == 0 and "2 ply(ies) annotated" in loud.stderr
    quiet = CliRunner().invoke(main, [*args, "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == "" and "[%eval" in out.read_text()
