"""Real files to every format, nothing lost: ``read = written + rejected``, each output
holds exactly the games written, and peak memory stays within the documented bound.

A spread sample of the shared corpus keeps this quick; the whole corpus, and ten times
it, is ``benchmarks/bench_outputs.py`` (``--copies 10``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_helpers import PDN
from conftest import REPO

from pdn_tools import read_games

sys.path.insert(0, str(REPO / "benchmarks"))
from bench_outputs import BOUND_MB

pytestmark = pytest.mark.corpus

SAMPLE_BYTES = 300_000
"""Bytes of corpus files in the sample (every n-th file, in sorted order)."""


def _sample(corpus: Path) -> list[Path]:
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() == ".pdn" and p.is_file())
    total = sum(p.stat().st_size for p in files)
    step = max(1, total // SAMPLE_BYTES)
    chosen, size = [], 0
    for path in files[::step]:
        if size + path.stat().st_size <= SAMPLE_BYTES:
            chosen.append(path)
            size += path.stat().st_size
    return chosen


_PROBE = (
    "import json, resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(json.dumps([done.returncode, done.stderr, peak]))\n"
)


@pytest.mark.parametrize("fmt", ["pdn", "json", "jsonl", "parquet"])
def test_corpus_sample_converts_losing_nothing(corpus: Path, tmp_path: Path, fmt: str) -> None:
    files = _sample(corpus)
    assert len(files) >= 10
    games = sum(1 for path in files for _ in read_games(path))
    out = tmp_path / f"out.{fmt}"
    args = [*PDN, "convert", *map(str, files), "-o", str(out), "--rejects", str(tmp_path / "r.pdn")]
    if fmt == "parquet":
        args += ["--moves-table", str(tmp_path / "moves.parquet")]
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True
    )
    status, stderr, peak_kb = json.loads(probe.stdout)
    assert status in (0, 1), stderr
    counts = re.search(r"(\d+) game\(s\) read, (\d+) written, (\d+) rejected", stderr)
    assert counts is not None, stderr
    read, written, rejected = map(int, counts.groups())
    assert read == games == written + rejected
    assert rejected > 0  # the sample holds broken games: the rejects path is exercised
    if fmt == "jsonl":
        held = len(out.read_text(encoding="utf-8").splitlines())
    elif fmt == "json":
        held = len(json.loads(out.read_text(encoding="utf-8")))
    elif fmt == "parquet":
        held = pq.read_metadata(out).num_rows
    else:
        held = sum(1 for _ in read_games(out))
    assert held == written
    assert peak_kb / 1024 <= BOUND_MB
