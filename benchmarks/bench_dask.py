"""Time ``pdn validate`` and ``pdn convert`` with ``--dask local:2`` against ``--jobs 2``
and ``--jobs 1``.

Why: a Dask cluster must cost little more than local worker processes on one machine
(so that the figures per worker carry over to a cluster) and must not change the
output.  The script generates (once, cached in ``benchmarks/data/``) a file of random
legal international games with ``gen_games.py`` (2,000 games repeated 10 times: 20,000
games, about 18 MB), then, for each command, runs it in a fresh process for each mode
(best of ``--repeat`` wall-clock runs, modes taking turns):

* ``pdn validate FILE --format jsonl --quiet``: every mode must write the bytes of
  ``--jobs 1``;
* ``pdn convert FILE -o OUT`` (``--convert-to jsonl``, the default: ``OUT.jsonl``, or
  with ``--dask`` a directory of JSON Lines parts whose concatenation must be
  ``--jobs 1``'s file; ``--convert-to parquet``: a dataset directory with the moves
  table, whose rows, ``record_id`` aside, must be those of ``--jobs 1``).

It prints games/s, the speed-up over ``--jobs 1`` and, for ``--dask``, the overhead
against ``--jobs`` with as many workers.  ``--dask local:N`` includes starting and
stopping the local cluster (a few seconds), which is measured apart by a run on an
empty file.

It also measures what the client does for every game whatever the number of workers
(receiving the checked games, selecting the findings, writing the JSON line): the
ceiling of one client's report, in games/s.

Usage::

    python3 benchmarks/bench_dask.py                   # 20,000 games, best of 3
    python3 benchmarks/bench_dask.py --copies 1 --repeat 1          # quick look
    python3 benchmarks/bench_dask.py --modes "jobs 1,jobs 2,dask local:2,dask local:1"
    python3 benchmarks/bench_dask.py --commands convert --convert-to parquet
    python3 benchmarks/bench_dask.py --python benchmarks/.venvs/ours-compiled/bin/python

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


def _command(command: str, path: Path, mode: str, out: Path, args: argparse.Namespace) -> list[str]:
    option, value = mode.split()
    line = [args.python or sys.executable, "-m", "pdn_tools", command, str(path)]
    line += [f"--{option}", value]
    if command == "validate":
        line += ["--format", "jsonl", "--quiet"]
        if args.syntax_only:
            line.append("--syntax-only")
        return line
    if args.convert_to == "parquet":
        return [*line, "-o", f"{out}/games/", "--moves-table", f"{out}/moves/"]
    if option == "dask":
        return [*line, "-o", f"{out}/parts", "--to", "jsonl"]
    return [*line, "-o", f"{out}/games.jsonl"]


def _digest(command: str, stdout: bytes, out: Path, convert_to: str) -> str:
    """What must be the same in every mode: validate's report; convert's JSON Lines
    (the parts of a cluster in name order), or its tables' rows without record_id."""
    digest = hashlib.sha256()
    if command == "validate":
        digest.update(stdout)
    elif convert_to == "jsonl":
        parts = [out / "games.jsonl"] if (out / "games.jsonl").exists() else []
        for part in parts or sorted((out / "parts").glob("part-*.jsonl")):
            digest.update(part.read_bytes())
    else:
        import pyarrow.dataset as ds

        for table in ("games", "moves"):
            rows = ds.dataset(out / table, partitioning="hive").to_table().to_pylist()
            for row in sorted(repr({k: v for k, v in r.items() if k != "record_id"}) for r in rows):
                digest.update(row.encode())
    return digest.hexdigest()


def time_run(command: str, path: Path, mode: str, args: argparse.Namespace) -> tuple[float, str]:
    """Wall time of one ``pdn COMMAND`` run in *mode* (``jobs N`` or ``dask ADDRESS``)
    and the digest of what it wrote."""
    if args.python:  # that interpreter's own build; no checkout on its path
        env = {**os.environ, "PYTHONSAFEPATH": "1"}
    else:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        line = _command(command, path, mode, out, args)
        start = time.perf_counter()
        done = subprocess.run(line, capture_output=True, env=env, cwd=folder, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise SystemExit(f"bench_dask: pdn failed: {done.stderr.decode()[-500:]}")
        return elapsed, _digest(command, done.stdout, out, args.convert_to)


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
    parser.add_argument("--syntax-only", action="store_true", help="validate: read only")
    parser.add_argument(
        "--commands", default="validate,convert", help="commands timed (validate,convert)"
    )
    parser.add_argument(
        "--convert-to", choices=("jsonl", "parquet"), default="jsonl", help="convert's output"
    )
    parser.add_argument(
        "--python",
        default=None,
        help="the interpreter of a build to time, e.g. a virtualenv holding the compiled "
        "wheel (default: the checkout's code, run by this interpreter)",
    )
    args = parser.parse_args(argv)
    if args.python:  # absolute (not resolved: a virtualenv's interpreter is a link)
        args.python = os.path.abspath(args.python)

    path, games = input_file(args.games, args.seed, args.copies)
    modes = [m.strip() for m in args.modes.split(",")]
    commands = [c.strip() for c in args.commands.split(",")]
    size = path.stat().st_size / 1e6
    what = "validate syntax only" if args.syntax_only else "validate reads and replays"
    print(f"{path.name}: {games} games, {size:.1f} MB, {what}; cores: {os.cpu_count()}")
    print(f"convert writes {args.convert_to}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.pdn"
        empty.write_bytes(b'[Event "x"]\n1. 32-28 *\n')
        start_up = {
            (c, m): time_run(c, empty, m, args)[0]
            for c in commands
            for m in modes
            if m.startswith("dask")
        }
    best: dict[tuple[str, str], float] = {}
    for command in commands:
        reference = None
        for _ in range(args.repeat):
            for mode in modes:  # modes take turns: a burst of load hits them alike
                elapsed, digest = time_run(command, path, mode, args)
                reference = reference or digest
                if digest != reference:
                    raise SystemExit(f"bench_dask: {command} --{mode} wrote something else")
                key = (command, mode)
                best[key] = min(best.get(key, elapsed), elapsed)
    rate = client_rate(path, 20_000)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| command | mode | best s | games/s | speed-up | start and stop s |")
    print("|---|---|---:|---:|---:|---:|")
    for command in commands:
        for mode in modes:
            key = (command, mode)
            setup = f"{start_up[key]:.2f}" if key in start_up else ""
            print(
                f"| `{command}` | `--{mode}` | {best[key]:.2f} | {games / best[key]:,.0f} | "
                f"{best[(command, modes[0])] / best[key]:.2f} | {setup} |"
            )
    for command in commands:
        for mode in modes:
            workers = mode.partition(":")[2] if mode.startswith("dask local:") else ""
            peer = (command, f"jobs {workers}")
            key = (command, mode)
            if workers and peer in best:
                overhead = best[key] / best[peer] - 1
                steady = (best[key] - start_up[key]) / best[peer] - 1
                print(
                    f"`{command} --{mode}` against `--{peer[1]}`: {overhead:+.1%} wall time, "
                    f"{steady:+.1%} without starting and stopping the cluster"
                )
    print(f"client share (unpickle, select, write JSONL): {rate:,.0f} games/s")
    print("the same output in every mode: yes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
