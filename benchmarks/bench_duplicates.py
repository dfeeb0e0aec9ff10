"""Duplicates benchmark: peak memory of ``pdn duplicates`` as the input grows.

Why: ``pdn duplicates`` must keep memory that grows with the number of distinct games
only (8-byte keys and a few integers per copy), never with game text (issue
"Collections: duplicates, filters, splitting and repair").  The target: on a file 10
times larger than the shared corpus, peak RSS at most 2 times that of the 1x run.
Peak RSS barely depends on machine load; timings do (printed for orientation only).

The 1x file is every plain ``*.pdn`` file of the shared corpus (``$PDN_SHARED_CORPUS``,
else ``../shared/corpus``) as pdn-tools finds them, their bytes one after another
with a blank line between; the Nx file is the 1x file N times over, so that every
game of it has N copies (the worst case for the copy lists).  Each run is a fresh
``python -m pdn_tools duplicates FILE --format jsonl -q`` whose peak RSS
(``ru_maxrss``, the largest of the process and the workers it waited for) is read
with ``os.wait4``.  ``--jobs 1`` (the default here) measures everything in one
process; ``--jobs N`` measures the parent with its workers.

Usage::

    python3 benchmarks/bench_duplicates.py                  # 1x and 10x, --jobs 1
    python3 benchmarks/bench_duplicates.py --copies 1,10 --jobs 2 --json out.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
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
        sys.exit(f"bench_duplicates: shared corpus not found at {path} (set PDN_SHARED_CORPUS)")
    return path


def build(corpus: Path, target: Path, copies: int) -> int:
    """Write the corpus's plain PDN files *copies* times into *target*; its size."""
    sys.path.insert(0, str(ROOT))
    from pdn_tools.run.paths import expand

    files = [p for p in expand((str(corpus),)) if p.lower().endswith(".pdn")]
    with open(target, "wb") as out:
        for _ in range(copies):
            for name in files:
                out.write(Path(name).read_bytes())
                out.write(b"\n\n")
    return target.stat().st_size


_SUMMARY = re.compile(
    r"(\d+) file\(s\), (\d+) game\(s\): (\d+) distinct, (\d+) cop(?:y|ies) of an earlier "
    r"game in (\d+) group\(s\)"
)


def measure(path: Path, jobs: int) -> dict[str, Any]:
    """Run ``pdn duplicates PATH`` in a fresh process: counts, seconds and peak RSS."""
    cmd = [sys.executable, "-m", "pdn_tools", "duplicates", str(path), "--format", "jsonl",
           "--jobs", str(jobs)]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"bench_duplicates: {' '.join(cmd)} failed ({code}):\n{err}")
    match = _SUMMARY.search(err)
    if match is None:
        sys.exit(f"bench_duplicates: no summary in:\n{err}")
    _, games, distinct, copies, groups = (int(g) for g in match.groups())
    return {
        "games": games,
        "distinct": distinct,
        "later_copies": copies,
        "groups": groups,
        "seconds": time.perf_counter() - start,
        "peak_rss_mb": usage.ru_maxrss / 1024,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", default="1,10", help="sizes to measure (default 1,10)")
    parser.add_argument("--jobs", type=int, default=1, help="pdn --jobs (default 1)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the results")
    args = parser.parse_args(argv)
    corpus = _corpus()
    copies = [int(c) for c in args.copies.split(",")]
    result: dict[str, Any] = {
        "corpus": str(corpus),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "jobs": args.jobs,
        "load_before": os.getloadavg(),
        "runs": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        for n in copies:
            path = Path(tmp) / f"corpus-{n}x.pdn"
            size = build(corpus, path, n)
            run = {"copies": n, "mb": size / 1e6, **measure(path, args.jobs)}
            path.unlink()
            result["runs"].append(run)
            print(
                f"  {n}x ({run['mb']:.1f} MB): {run['games']:,} games, {run['distinct']:,} "
                f"distinct, peak {run['peak_rss_mb']:.1f} MB, {run['seconds']:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    result["load_after"] = os.getloadavg()
    print("\n| copies | MB | games | distinct | copies of earlier games | peak RSS MB | seconds |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for run in result["runs"]:
        print(
            f"| {run['copies']} | {run['mb']:.1f} | {run['games']:,} | {run['distinct']:,} | "
            f"{run['later_copies']:,} | "
            f"{run['peak_rss_mb']:.1f} | {run['seconds']:.0f} |"
        )
    peaks = [r["peak_rss_mb"] for r in result["runs"]]
    ratio = result["ratio"] = peaks[-1] / peaks[0]
    print(f"\nratio (largest / 1x): {ratio:.2f} (target <= 2)")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
