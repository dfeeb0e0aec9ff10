"""Time ``pdn validate --jobs N`` against ``--jobs 1`` on large generated files.

Why: ``--jobs`` must pay off where it matters, on large inputs, and must not change
the report.  The script generates (once, cached in ``benchmarks/data/``) a file of
random legal international games with ``gen_games.py``, repeated to grow it (one
size per ``--copies`` value), then runs ``pdn validate FILE --format jsonl`` for each
job count in a fresh process, checks that every run wrote the same bytes as
``--jobs 1``, and prints games/s and the speed-up.  The job counts take turns run by
run, so load from other programs affects them alike; the speed-up is given twice:
from the best run of each job count, and as the median of the rounds' own ratios
(each round's runs follow each other, so a drift of the machine's speed cancels).

Every run also pays a fixed cost that no worker can share: starting Python and
importing the package, timed here on a file of one game and printed as "start-up".
It is why the speed-up grows with the size of the input.

Usage::

    python3 benchmarks/bench_jobs.py                       # 2,000 games x 4 and x 10, jobs 1 and 2
    python3 benchmarks/bench_jobs.py --copies 1,4,10 --repeat 5   # the speed-up by size
    python3 benchmarks/bench_jobs.py --games 500 --copies 1 --repeat 1   # quick look
    python3 benchmarks/bench_jobs.py --jobs 1,2,4 --syntax-only
    python3 benchmarks/bench_jobs.py --compiled [--install]   # our compiled build

Timings depend on what else the machine runs; the load average before and after the
runs is printed with the results, so a busy machine can be recognised.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE))

from gen_games import generate  # noqa: E402
from peers import ensure_compiled  # noqa: E402


def input_file(games: int, seed: int, copies: int) -> tuple[Path, int]:
    """The generated file repeated *copies* times, created once; (path, games in it)."""
    base = DATA / f"generated-{games}-s{seed}.pdn"
    meta_path = base.with_suffix(".json")
    if not base.is_file() or not meta_path.is_file():
        print(f"bench_jobs: generating {games} games into {base} ...", file=sys.stderr)
        meta_path.write_text(json.dumps(generate(games, seed, base)))
    count = int(json.loads(meta_path.read_text())["games"])
    if copies == 1:
        return base, count
    big = DATA / f"generated-{games}-s{seed}-x{copies}.pdn"
    if not big.is_file() or big.stat().st_size != copies * base.stat().st_size:
        text = base.read_bytes()
        with big.open("wb") as handle:
            for _ in range(copies):
                handle.write(text)
    return big, copies * count


def time_run(
    path: Path, jobs: int, syntax_only: bool, compiled: Path | None = None
) -> tuple[float, str]:
    """Wall time of one ``pdn validate`` run and the SHA-256 of its output; the
    checkout's code, or the compiled build when *compiled* (its interpreter) is given."""
    python = str(compiled) if compiled else sys.executable
    command = [python, "-m", "pdn_tools", "validate", str(path), "--format", "jsonl"]
    command += ["--jobs", str(jobs), "--quiet"]
    if syntax_only:
        command.append("--syntax-only")
    if compiled:
        env = {**os.environ, "PYTHONSAFEPATH": "1"}
        env.pop("PYTHONPATH", None)
    else:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench_jobs: pdn failed: {done.stderr.decode()[-500:]}")
    return elapsed, hashlib.sha256(done.stdout).hexdigest()


def start_up(compiled: Path | None, repeat: int) -> float:
    """Best wall time of ``pdn validate`` on a file of one game: the part of every run
    that one process does alone (Python's start, imports, reading the options)."""
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one.pdn"
        one.write_text('[Event "start-up"]\n1. 32-28 19-23 *\n', encoding="utf-8")
        return min(time_run(one, 1, False, compiled)[0] for _ in range(max(repeat, 5)))


def measure(
    path: Path, jobs_list: list[int], repeat: int, syntax_only: bool, compiled: Path | None
) -> tuple[dict[int, float], dict[int, float]]:
    """Best wall time per job count, and the median of each round's speed-up over the
    first job count; every run's report checked against the first one's."""
    reference = None
    best: dict[int, float] = {}
    ratios: dict[int, list[float]] = {jobs: [] for jobs in jobs_list}
    # Job counts take turns, so a burst of load from elsewhere hits them alike.
    for _ in range(repeat):
        times: dict[int, float] = {}
        for jobs in jobs_list:
            elapsed, digest = time_run(path, jobs, syntax_only, compiled)
            reference = reference or digest
            if digest != reference:
                raise SystemExit(f"bench_jobs: --jobs {jobs} wrote a different report")
            best[jobs] = min(best.get(jobs, elapsed), elapsed)
            times[jobs] = elapsed
        for jobs in jobs_list:
            ratios[jobs].append(times[jobs_list[0]] / times[jobs])
    return best, {jobs: statistics.median(values) for jobs, values in ratios.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games generated (2000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument(
        "--copies", default="4,10", help="the file repeated, one size per value (4,10)"
    )
    parser.add_argument("--jobs", default="1,2", help="job counts, comma-separated (1,2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per job count and size")
    parser.add_argument("--syntax-only", action="store_true", help="read only, no replay")
    parser.add_argument(
        "--compiled", action="store_true", help="run our compiled build (benchmarks/.venvs)"
    )
    parser.add_argument("--install", action="store_true", help="(re)build the compiled build")
    args = parser.parse_args(argv)
    compiled = ensure_compiled(reinstall=args.install) if args.compiled else None
    if args.compiled and compiled is None:
        return 1

    jobs_list = [int(j) for j in args.jobs.split(",")]
    copies_list = [int(c) for c in args.copies.split(",")]
    mode = "syntax only" if args.syntax_only else "read and replay"
    built = f"compiled ({compiled})" if compiled else "the checkout (pure Python)"
    print(f"{mode}; cores: {os.cpu_count()}; build: {built}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"start-up (a file of one game, best run): {start_up(compiled, args.repeat):.3f} s")
    rows = []
    for copies in copies_list:
        path, games = input_file(args.games, args.seed, copies)
        best, median = measure(path, jobs_list, args.repeat, args.syntax_only, compiled)
        size = path.stat().st_size / 1e6
        for jobs in jobs_list:
            rows.append(
                f"| {games:,} ({size:.1f} MB) | {jobs} | {best[jobs]:.2f} | "
                f"{games / best[jobs]:,.0f} | {best[jobs_list[0]] / best[jobs]:.2f} | "
                f"{median[jobs]:.2f} |"
            )
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"runs per job count and size: {args.repeat}")
    print("| games | jobs | best s | games/s | speed-up: best runs | median of rounds |")
    print("|---|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print("identical output for every job count: yes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
