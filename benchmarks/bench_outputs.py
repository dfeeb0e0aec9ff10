"""Nothing lost at scale: the shared corpus, N times over, converted to every format.

Why: ``pdn convert`` promises that every game read is written or rejected
(``read = written + rejected``) and that its memory does not grow with the input
(docs/cli.md, "Outputs").  This runs ``pdn convert CORPUS … -o OUT --rejects REJ`` (the
corpus directory given N times) once per output format, each in a fresh process whose
peak resident memory is taken with ``getrusage``, and checks both promises: the counts
add up, every run reads N times the games of one pass, and peak memory stays within
:data:`BOUND_MB`.  Timings are printed for information only.

Usage::

    python3 benchmarks/bench_outputs.py                # 1x: about five minutes
    python3 benchmarks/bench_outputs.py --copies 10    # 10x, on a quiet machine

Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

BOUND_MB = 512
"""Documented bound on the peak resident memory of ``pdn convert`` (docs/cli.md)."""

RUNS = {
    "pdn": ["-o", "out.pdn"],
    "json": ["-o", "out.json"],
    "jsonl": ["-o", "out.jsonl"],
    "parquet": ["-o", "out.parquet", "--moves-table", "moves.parquet"],
}

_COUNTS = re.compile(r"(\d+) game\(s\) read, (\d+) written, (\d+) rejected")

_PROBE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps([done.returncode, done.stderr, seconds, peak]))
"""


def corpus_path() -> Path | None:
    """The shared corpus: $PDN_SHARED_CORPUS or ../shared/corpus."""
    env = os.environ.get("PDN_SHARED_CORPUS")
    path = Path(env) if env else ROOT.parent / "shared" / "corpus"
    return path if path.is_dir() else None


def run(fmt: str, corpus: Path, copies: int, folder: Path) -> dict[str, object]:
    """Convert *copies* passes of *corpus* to *fmt* in *folder*; counts, time, memory."""
    args = [sys.executable, "-m", "pdn_tools", "convert", *([str(corpus)] * copies)]
    args += [*RUNS[fmt], "--rejects", "rejects.pdn"]
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    status, stderr, seconds, peak_kb = json.loads(probe.stdout)
    match = _COUNTS.search(stderr)
    read, written, rejected = (int(g) for g in match.groups()) if match else (-1, -1, -1)
    return {
        "format": fmt,
        "status": status,
        "read": read,
        "written": written,
        "rejected": rejected,
        "seconds": round(seconds, 1),
        "peak_mb": round(peak_kb / 1024, 1),
        "stderr": stderr.strip().splitlines()[-1:] if status not in (0, 1) else [],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=1, help="passes over the corpus (1)")
    parser.add_argument("--formats", default=",".join(RUNS), help="comma-separated formats")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    options = parser.parse_args(argv)
    corpus = corpus_path()
    if corpus is None:
        print("bench_outputs: shared corpus not found (set PDN_SHARED_CORPUS)", file=sys.stderr)
        return 2
    rows = []
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in options.formats.split(","):
            started = time.strftime("%H:%M:%S")
            row = run(fmt, corpus, options.copies, Path(tmp))
            rows.append(row)
            checks = {
                "exit 0/1": row["status"] in (0, 1),
                "read = written + rejected": row["read"] == row["written"] + row["rejected"],
                "same games in every format": row["read"] == rows[0]["read"],
                "a multiple of one pass": row["read"] % options.copies == 0,
                f"peak <= {BOUND_MB} MB": float(row["peak_mb"]) <= BOUND_MB,  # type: ignore[arg-type]
            }
            bad = [name for name, ok in checks.items() if not ok]
            failed = failed or bool(bad)
            print(
                f"{started} {fmt:8} x{options.copies}: {row['read']} read, {row['written']} "
                f"written, {row['rejected']} rejected; {row['seconds']} s, peak "
                f"{row['peak_mb']} MB"
                + (f"  FAILED: {', '.join(bad)} {row['stderr']}" if bad else ""),
                flush=True,
            )
    if options.json is not None:
        options.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
