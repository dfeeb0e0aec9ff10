"""``pdn convert --jobs N``: worker processes write exactly what one process writes.

The reference is ``--jobs 1`` (every file read by the reader itself, game by game).
The inputs are the samples in ``corpus/`` (faults, oddities, encodings, text outside
games), generated legal games, a game too large to keep (copied into the rejects file
from its input) and a pdn-tools JSON Lines file, cut into many units of work.  Parquet
files carry a per-conversion id (in ``record_id`` and the file metadata), so they are
compared byte for byte with the same id given to both runs, and on the command line
(where each run draws its own id) table by table with the id taken out.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from cli_helpers import run_bytes
from conftest import REPO, SAMPLES

from pdn_tools.atomic import Outputs
from pdn_tools.export.sinks import (
    DatasetSink,
    JsonSink,
    ParquetSink,
    PdnSink,
    RejectsSink,
    Renderer,
    Sink,
)
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.convert import Conversion, ConvertOptions, convert_inputs
from pdn_tools.run.storage import find
from pdn_tools.run.units import Batch, input_list, plan

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_games import generate

CONVERSION = "20260101T000000-00000000"
#: A game larger than the size limit of these tests, with an illegal move: rejected,
#: and copied into the rejects file from its input.
HUGE = '[Event "huge"]\n1. 32-28 {' + "long comment " * 400 + "} 19-23 2. 28-99 *\n\n"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The samples, a file of generated games with samples and a huge game in it, and
    a JSON Lines file of converted samples."""
    folder = tmp_path_factory.mktemp("jobs")
    generated = folder / "generated.pdn"
    generate(60, 3, generated)
    samples = b"".join(p.read_bytes() + b"\n" for p in sorted(SAMPLES.rglob("*.pdn")))
    mixed = folder / "mixed.pdn"
    mixed.write_bytes(generated.read_bytes() + HUGE.encode() + samples)
    jsonl = folder / "clean.jsonl"
    done = run_bytes("convert", str(SAMPLES / "clean"), "-o", str(jsonl))
    assert done.returncode == 0, done.stderr
    return [str(SAMPLES), str(mixed), str(jsonl)]


def _sink(target: str, out: Path, outputs: Outputs, moves: bool) -> Sink:
    if target == "dataset":
        table = str(out) + "-moves" if moves else None
        return DatasetSink(str(out), ("variant",), table, conversion=CONVERSION)
    if target == "parquet":
        table = outputs.binary(str(out) + ".moves") if moves else None
        return ParquetSink(outputs.binary(str(out)), table, conversion=CONVERSION)
    stream = outputs.text(str(out))
    return PdnSink(stream) if target == "pdn" else JsonSink(stream, target == "json")


def convert(
    inputs: list[str], target: str, out: Path, jobs: int, **sizes: int
) -> tuple[Any, list[str]]:
    """Convert with the runner of ``pdn convert``; the counts and the notes made."""
    notes: list[str] = []
    read = ReadOptions(max_game_chars=2000, keep_source=True)
    renderer = Renderer("parquet" if target == "dataset" else target, moves=True)
    options = ConvertOptions(read, {}, renderer, rejects=True)
    with Outputs() as outputs:
        sink = _sink(target, out, outputs, moves=True)
        rejects = RejectsSink(outputs.text(str(out) + ".rejects"))
        conversion = Conversion(
            sink,
            rejects,
            read,
            on_empty=lambda name, issues: notes.append(f"{name}: {[i.code for i in issues]}"),
        )
        convert_inputs(list(find(tuple(inputs))), options, conversion, jobs=jobs, **sizes)
        sink.close()
    return conversion.counts(), notes


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file a conversion made in *folder* (a dataset's parts by their paths)."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("target", ["pdn", "json", "jsonl", "parquet", "dataset"])
def test_jobs_two_writes_the_bytes_of_jobs_one(
    inputs: list[str], tmp_path: Path, target: str
) -> None:
    """Every game its own unit (spans of one game, small files one by one): the
    output, the moves table, the rejects file, the counts and the notes are the same."""
    one, two = tmp_path / "one" / "out", tmp_path / "two" / "out"
    one.parent.mkdir()
    two.parent.mkdir()
    counts_one, notes_one = convert(inputs, target, one, 1)
    counts_two, notes_two = convert(inputs, target, two, 2, split_bytes=0, batch_chars=1)
    assert counts_two == counts_one
    assert counts_one.read == counts_one.written + counts_one.rejected > 100
    assert counts_one.rejected > 5
    assert notes_two == notes_one != []
    expected = files_of(one.parent)
    assert files_of(two.parent) == expected
    assert "huge" in expected["out.rejects"].decode()  # copied from its input
    assert len(expected) >= (4 if target == "dataset" else 2)


def _table(path: Path) -> tuple[Any, list[int]]:
    """A Parquet file's table with the conversion id taken out of ``record_id`` and
    of the metadata, and its row groups' sizes."""
    parquet = pq.ParquetFile(path)
    table = parquet.read()
    metadata = dict(table.schema.metadata)
    conversion = metadata.pop(b"pdn_tools.conversion").decode()
    ids = [value.removeprefix(conversion) for value in table.column("record_id").to_pylist()]
    index = table.schema.get_field_index("record_id")
    table = table.set_column(index, "record_id", [ids]).replace_schema_metadata(metadata)
    groups = [parquet.metadata.row_group(n).num_rows for n in range(parquet.num_row_groups)]
    return table, groups


def test_the_command_line_with_jobs(inputs: list[str], tmp_path: Path) -> None:
    """``pdn convert --jobs 2`` against ``--jobs 1``: JSON Lines byte for byte with
    standard input among the inputs (its rejected games copied from a spool), and
    Parquet tables equal but for the conversion id each run draws."""
    mixed = Path(inputs[1]).read_bytes()
    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        out.mkdir()
        done = run_bytes_stdin(
            mixed,
            "convert", inputs[0], "-", inputs[2], "-o", str(out / "g.jsonl"),
            "--rejects", str(out / "r.pdn"), "--max-game-size", "2000", "--jobs", jobs,
        )  # fmt: skip
        table = run_bytes(
            "convert", inputs[1], "-o", str(out / "g.parquet"),
            "--moves-table", str(out / "m.parquet"), "--jobs", jobs,
        )  # fmt: skip
        assert (done.returncode, table.returncode) == (0, 1), done.stderr
        outs[jobs] = (done.stderr, table.stderr, *(out / n for n in ("g.jsonl", "r.pdn")))
        assert b"Traceback" not in done.stderr + table.stderr
    assert outs["2"][:2] == outs["1"][:2]
    for n in (2, 3):
        assert outs["2"][n].read_bytes() == outs["1"][n].read_bytes()
    for name in ("g.parquet", "m.parquet"):
        assert _table(tmp_path / "2" / name) == _table(tmp_path / "1" / name)


def run_bytes_stdin(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``pdn ARGS`` reading *stdin*, with the raw bytes of its output."""
    return subprocess.run(
        [sys.executable, "-m", "pdn_tools", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )


def test_games_on_one_line_go_out_in_batches(tmp_path: Path) -> None:
    """Games that follow each other on one line are split by the parent and shipped in
    batches like any other, and the output is the same."""
    path = tmp_path / "one-line.pdn"
    path.write_text("".join(f'[Event "g{n}"]1. 32-28 19-23 2-0' for n in range(400)))
    units = list(plan(input_list([str(path)], None), CheckOptions(), split_bytes=0,
                      batch_chars=500))  # fmt: skip
    assert len(units) > 10 and all(isinstance(task, Batch) for unit in units for task in unit)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    convert([str(path)], "jsonl", one, 1)
    convert([str(path)], "jsonl", two, 2, split_bytes=0, batch_chars=500)
    assert two.read_bytes() == one.read_bytes()
    assert one.read_bytes().count(b"\n") == 400
