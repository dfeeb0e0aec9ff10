"""Parquet tables benchmark: output sizes, and peak memory as the input grows.

Why: the games table must stay small against the PDN it comes from (a quarter of
it at most, without the record column) and ``pdn convert`` to Parquet must keep its
memory flat however many games stream through (bounded row groups, issue
"Convert ... keeps memory flat").  Sizes are exact and need no quiet machine; peak
RSS barely depends on load, timings do (they are printed for orientation only).

* ``sizes``: the shared corpus (``$PDN_SHARED_CORPUS``, else ``../shared/corpus``)
  converted once to each output — games table, games table with ``--with-record``,
  moves table, JSON Lines — with each size as a share of the PDN read, and the
  games table's largest columns.
* ``memory``: peak RSS of ``pdn convert FILE -o games.parquet`` with and without
  ``--moves-table``, FILE being the corpus's plain PDN files written one after
  another 1 and 10 times (``--copies``; a path given twice is read once, so the
  copies are in the file); each run is a fresh ``python -m pdn_tools`` process
  (``--jobs 1`` unless told) whose peak RSS (``ru_maxrss``, the largest of the
  process and the workers it waited for) is read with ``os.wait4``.  Flatness =
  peak at the largest copy count / peak at 1x; the target is at most 1.2.

Usage::

    python3 benchmarks/bench_tables.py                       # sizes and memory (1x, 10x)
    python3 benchmarks/bench_tables.py --only sizes
    python3 benchmarks/bench_tables.py --only memory --copies 1,10 --json out.json
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _corpus() -> Path:
    env = os.environ.get("PDN_SHARED_CORPUS")
    path = Path(env) if env else ROOT.parent / "shared" / "corpus"
    if not path.is_dir():
        sys.exit(f"bench_tables: shared corpus not found at {path} (set PDN_SHARED_CORPUS)")
    return path


def _pdn_bytes(corpus: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from pdn_tools.run.paths import expand

    return sum(os.path.getsize(p) for p in expand((str(corpus),)))


def _convert(args: list[str]) -> dict[str, Any]:
    """Run ``pdn convert ARGS`` in a fresh process: wall time and peak RSS (MB)."""
    cmd = [sys.executable, "-m", "pdn_tools", "convert", *args]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        sys.exit(f"bench_tables: {' '.join(cmd)} failed:\n{err}")
    counts = err.strip().splitlines()[-1]
    return {
        "seconds": time.perf_counter() - start,
        "peak_rss_mb": usage.ru_maxrss / 1024,
        "games": int(counts.split()[0]),
    }


def _columns(path: Path) -> list[tuple[str, int]]:
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    sizes: collections.Counter[str] = collections.Counter()
    for i in range(meta.num_row_groups):
        group = meta.row_group(i)
        for j in range(group.num_columns):
            column = group.column(j)
            sizes[column.path_in_schema.split(".")[0]] += column.total_compressed_size
    return sizes.most_common()


def sizes(corpus: Path, tmp: Path) -> dict[str, Any]:
    pdn = _pdn_bytes(corpus)
    outputs = [
        ["-o", str(tmp / "games.parquet"), "--moves-table", str(tmp / "moves.parquet")],
        ["-o", str(tmp / "games+record.parquet"), "--with-record"],
        ["-o", str(tmp / "games.jsonl")],
    ]
    result: dict[str, Any] = {"pdn_bytes": pdn, "files": {}}
    for args in outputs:
        run = _convert([str(corpus), *args])
        result["games"] = run["games"]
    for name in ("games.parquet", "moves.parquet", "games+record.parquet", "games.jsonl"):
        size = (tmp / name).stat().st_size
        result["files"][name] = {"bytes": size, "share_of_pdn": size / pdn}
    result["games_columns"] = _columns(tmp / "games.parquet")[:8]
    return result


def memory(corpus: Path, tmp: Path, copies: list[int], jobs: int = 1) -> list[dict[str, Any]]:
    """Peak RSS of converting the corpus's PDN files written *n* times into one file
    (a path given twice is read once, so the copies must be in the file)."""
    from bench_duplicates import build

    inputs = {}
    for n in copies:
        inputs[n] = tmp / f"corpus-{n}x.pdn"
        build(corpus, inputs[n], n)
    rows = []
    for moves in (False, True):
        for n in copies:
            args = [str(inputs[n]), "-o", str(tmp / "m.parquet"), "--jobs", str(jobs)]
            if moves:
                args += ["--moves-table", str(tmp / "m-moves.parquet")]
            run = _convert(args)
            once = next((r["games"] for r in rows if r["moves_table"] is moves), None)
            if once is not None and run["games"] != once * n // copies[0]:
                sys.exit(f"bench_tables: {n}x read {run['games']} games, not {n} times 1x's")
            rows.append({"moves_table": moves, "copies": n, **run})
            print(
                f"  {'with' if moves else 'without'} moves table, {n}x: {run['games']:,} games, "
                f"peak {run['peak_rss_mb']:.1f} MB, {run['seconds']:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("sizes", "memory"), default=None)
    parser.add_argument("--copies", default="1,10", help="corpus copies for memory (1,10)")
    parser.add_argument("--jobs", type=int, default=1, help="pdn convert --jobs (default 1)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the results")
    args = parser.parse_args(argv)
    corpus = _corpus()
    result: dict[str, Any] = {"corpus": str(corpus), "load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "sizes"):
            found = result["sizes"] = sizes(corpus, Path(tmp))
            pdn = found["pdn_bytes"]
            print(f"\nShared corpus: {found['games']:,} games, {pdn / 1e6:.2f} MB of PDN\n")
            print("| output | MB | share of the PDN |\n|---|---:|---:|")
            for name, info in found["files"].items():
                print(f"| {name} | {info['bytes'] / 1e6:.2f} | {info['share_of_pdn']:.1%} |")
            print("\n| games.parquet column | KB |\n|---|---:|")
            for name, size in found["games_columns"]:
                print(f"| {name} | {size / 1e3:.0f} |")
        if args.only in (None, "memory"):
            copies = [int(c) for c in args.copies.split(",")]
            rows = result["memory"] = memory(corpus, Path(tmp), copies, args.jobs)
            print("\n| moves table | copies | games | peak RSS MB | seconds |")
            print("|---|---:|---:|---:|---:|")
            for row in rows:
                print(
                    f"| {'yes' if row['moves_table'] else 'no'} | {row['copies']} | "
                    f"{row['games']:,} | {row['peak_rss_mb']:.1f} | {row['seconds']:.0f} |"
                )
            for moves in (False, True):
                peaks = [r["peak_rss_mb"] for r in rows if r["moves_table"] is moves]
                print(f"flatness ({'with' if moves else 'without'} moves table): "
                      f"{peaks[-1] / peaks[0]:.2f} (target <= 1.2)")  # fmt: skip
    result["load_after"] = os.getloadavg()
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
