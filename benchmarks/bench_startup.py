"""Start-up: how long ``pdn validate`` of a file of one game takes, as a whole process.

Why: a CI step or an editor that checks one file at a time pays the start (Python,
the imports, the command's set-up) on every call; the target is 0.1 s.  Each round
runs every contender once in a fresh process, in turn (the order rotating), so load
from other programs touches them alike; the table gives the median of the rounds with
[min–max] of wall time and of CPU time (user + system of the child).

Contenders:

* ``ours`` — ``python -m pdn_tools validate ONE --quiet`` with each interpreter given
  by ``--python LABEL=PATH`` (default: this interpreter as ``ours``); give a build
  of another commit to compare before and after;
* ``python alone`` — the first interpreter running ``pass``: the floor no command
  can go below (site-packages' ``.pth`` files included);
* the peers' imports — ``import draughts`` (py-draughts) and ``import dame``
  (dame-rs), from ``benchmarks/.venvs`` when present: what a script that uses them
  pays before its first game.

Usage::

    python3 benchmarks/bench_startup.py --rounds 20
    python3 benchmarks/bench_startup.py --python before=/tmp/b/bin/python \\
        --python after=benchmarks/.venvs/ours-compiled/bin/python

The working directory of every run is a temporary folder, so a checkout's sources
never shadow an installed build.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import python_of

GAME = (
    '[Event "start-up"]\n[White "a"]\n[Black "b"]\n[Result "2-0"]\n[GameType "20"]\n'
    "1. 32-28 18-23 2. 38-32 12-18 3. 31-27 7-12 2-0\n"
)


def _run(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of *command* (it must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} [{min(values):.3f}–{max(values):.3f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument(
        "--python",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="an interpreter with a build of ours installed (repeatable)",
    )
    args = parser.parse_args(argv)
    # Absolute (not resolved: a virtualenv's interpreter is a link to the base one,
    # and run by the link's path it is the virtualenv's), as the runs start elsewhere.
    builds = [item.split("=", 1) for item in args.python] or [["ours", sys.executable]]
    builds = [[label, os.path.abspath(python)] for label, python in builds]

    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        one = cwd / "one.pdn"
        one.write_text(GAME, encoding="utf-8")
        contenders: dict[str, list[str]] = {}
        for label, python in builds:
            command = [python, "-m", "pdn_tools", "validate", str(one), "--quiet"]
            contenders[f"pdn validate, {label}"] = command
        contenders["python alone"] = [builds[0][1], "-c", "pass"]
        for peer, module in (("py-draughts", "draughts"), ("dame-rs", "dame")):
            python = python_of(peer)
            if python.exists():
                contenders[f"import {module} ({peer})"] = [str(python), "-c", f"import {module}"]
        for command in contenders.values():
            _run(command, cwd)  # warm the file cache and the bytecode
        walls: dict[str, list[float]] = {name: [] for name in contenders}
        cpus: dict[str, list[float]] = {name: [] for name in contenders}
        names = list(contenders)
        for round_ in range(args.rounds):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                wall, cpu = _run(contenders[name], cwd)
                walls[name].append(wall)
                cpus[name].append(cpu)

    load = os.getloadavg()[0]
    print(f"start-up, {args.rounds} rounds, load average {load:.1f}; seconds, median [min–max]")
    print("| contender | wall s | CPU s |")
    print("|---|---|---|")
    for name in names:
        print(f"| {name} | {_cell(walls[name])} | {_cell(cpus[name])} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
