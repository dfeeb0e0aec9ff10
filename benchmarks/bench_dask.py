"""Time ``pdn validate --dask local:2`` against ``--jobs 2`` and ``--jobs 1``.

Why: a Dask cluster must cost little more than local worker processes on one machine
(so that the figures per worker carry over to a cluster) and must not change the
report.  The script generates (once, cached in ``benchmarks/data/``) a file of random
legal international games with ``gen_games.py`` (2,000 games repeated 10 times: 20,000
games, about 18 MB), then runs ``pdn validate FILE --format jsonl --quiet`` in a fresh
process for each mode (best of ``--repeat`` wall-clock runs, modes taking turns),
checks that every mode wrote the same bytes as ``--jobs 1``, and prints games/s, the
speed-up over ``--jobs 1`` and, for ``--dask``, the overhead against ``--jobs`` with as
many workers.  ``--dask local:N`` includes starting and stopping the local cluster
(a few seconds), which is measured apart by a run on an empty file.

It also measures what the client does for every game whatever the number of workers
(receiving the checked games, selecting the findings, writing the JSON line): the
ceiling of one client's report, in games/s.

Usage::

    python3 benchmarks/bench_dask.py                   # 20,000 games, best of 3
    python3 benchmarks/bench_dask.py --copies 1 --repeat 1          # quick look
    python3 benchmarks/bench_dask.py --modes "jobs 1,jobs 2,dask local:2,dask local:1"

Timings depend on what else the machine runs; the load average before and after the
runs is printed with the results, so a busy machine can be recognised.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_jobs import input_file  # noqa: E402


def time_run(path: Path, mode: str, syntax_only: bool) -> tuple[float, str]:
    """Wall time of one ``pdn validate`` run in *mode* (``jobs N`` or ``dask ADDRESS``)
    and the SHA-256 of its output."""
    option, value = mode.split()
    command = [sys.executable, "-m", "pdn_tools", "validate", str(path), "--format", "jsonl"]
    command += [f"--{option}", value, "--quiet"]
    if syntax_only:
        command.append("--syntax-only")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench_dask: pdn failed: {done.stderr.decode()[-500:]}")
    return elapsed, hashlib.sha256(done.stdout).hexdigest()


def client_rate(path: Path, games: int) -> float:
    """Games/s of the client's share: unpickling checked games, selecting, writing JSONL."""
    from pdn_tools.diagnostics import Severity
    from pdn_tools.report.base import game_report
    from pdn_tools.report.jsonfmt import JsonlReporter
    from pdn_tools.report.selection import Selection
    from pdn_tools.run.check import CheckOptions, check_file

    checked = check_file(0, str(path), str(path), CheckOptions(syntax_only=True))[:games]
    payload = pickle.dumps(checked)
    start = time.perf_counter()
    reporter = JsonlReporter(io.StringIO())
    for item in pickle.loads(payload):
        reporter.add(game_report(item, Selection(), Severity.ERROR))
    return len(checked) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games generated (2000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--copies", type=int, default=10, help="the file repeated (10 times)")
    parser.add_argument(
        "--modes",
        default="jobs 1,jobs 2,dask local:2",
        help="comma-separated modes: 'jobs N' or 'dask ADDRESS' (jobs 1,jobs 2,dask local:2)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per mode, best kept (3)")
    parser.add_argument("--syntax-only", action="store_true", help="read only, no replay")
    args = parser.parse_args(argv)

    path, games = input_file(args.games, args.seed, args.copies)
    modes = [m.strip() for m in args.modes.split(",")]
    size = path.stat().st_size / 1e6
    what = "syntax only" if args.syntax_only else "read and replay"
    print(f"{path.name}: {games} games, {size:.1f} MB, {what}; cores: {os.cpu_count()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.pdn"
        empty.write_bytes(b"")
        start_up = {m: time_run(empty, m, True)[0] for m in modes if m.startswith("dask")}
    reference = None
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for mode in modes:  # modes take turns: a burst of load hits them alike
            elapsed, digest = time_run(path, mode, args.syntax_only)
            reference = reference or digest
            if digest != reference:
                raise SystemExit(f"bench_dask: {mode} wrote a different report")
            best[mode] = min(best.get(mode, elapsed), elapsed)
    rate = client_rate(path, 20_000)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| mode | best s | games/s | speed-up | start and stop s |")
    print("|---|---:|---:|---:|---:|")
    for mode in modes:
        setup = f"{start_up[mode]:.2f}" if mode in start_up else ""
        print(
            f"| `--{mode}` | {best[mode]:.2f} | {games / best[mode]:,.0f} | "
            f"{best[modes[0]] / best[mode]:.2f} | {setup} |"
        )
    for mode in modes:
        workers = mode.partition(":")[2] if mode.startswith("dask local:") else ""
        peer = f"jobs {workers}"
        if workers and peer in best:
            overhead = best[mode] / best[peer] - 1
            steady = (best[mode] - start_up[mode]) / best[peer] - 1
            print(
                f"`--{mode}` against `--{peer}`: {overhead:+.1%} wall time, "
                f"{steady:+.1%} without starting and stopping the cluster"
            )
    print(f"client share (unpickle, select, write JSONL): {rate:,.0f} games/s")
    print("identical output for every mode: yes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
