"""``pdn analyse`` throughput: games annotated per second at a fixed node budget, and
how ``--jobs 2`` scales it.

Why: annotating a collection searches every position of every game; the node budget
fixes the work per position (and makes the output the same on every run), so games/s
at a budget is the figure a user plans with.  The games are real tournament games of
the shared corpus (international, ``planting.sources``: games that replay completely,
one copy each), the first ``--games`` of them in corpus order, written to a temporary
file (never into the project).  Each run is ``python -m pdn_tools analyse FILE -o
OUT.pdn --nodes N`` in a child process (start-up included); the outputs of ``--jobs
1`` and ``--jobs 2`` must be byte for byte the same.

Usage::

    python3 benchmarks/bench_analyse.py [--games 1000] [--nodes 300]
        [--python PATH] [--jobs 1,2] [--plausibility]

``--python`` picks the interpreter (and so the build: a virtualenv with the compiled
wheel installed, or the checkout's); ``pdn --version`` of it is printed.  CPU seconds
are those of the run's processes (workers included): on a busy host, where the wall
time says little of ``--jobs``, they show that the work is shared, not repeated.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import planting  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--plausibility", action="store_true")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    sources = planting.sources(args.corpus, ("international",))["international"][: args.games]
    plies = sum(len(s.texts) for s in sources)
    env = dict(os.environ, PYTHONSAFEPATH="1")
    version = subprocess.run(
        [args.python, "-m", "pdn_tools", "--version"],
        capture_output=True, text=True, check=True, env=env, cwd=tempfile.gettempdir(),
    ).stdout.strip()  # fmt: skip
    print(f"{version}; {len(sources)} games, {plies} plies; --nodes {args.nodes}")
    with tempfile.TemporaryDirectory() as work:
        games = Path(work) / "games.pdn"
        games.write_text("\n".join(s.record() for s in sources), encoding="utf-8")
        digests = set()
        base = None
        print("| --jobs | seconds | CPU seconds | games/s | plies/s | speed-up |")
        print("|---|---|---|---|---|---|")
        for jobs in args.jobs.split(","):
            out = Path(work) / f"out{jobs}.pdn"
            command = [
                args.python, "-m", "pdn_tools", "analyse", str(games), "-o", str(out),
                "--nodes", str(args.nodes), "--jobs", jobs,
                "--plausibility" if args.plausibility else "--no-plausibility",
            ]  # fmt: skip
            started = time.monotonic()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=work)
            seconds = time.monotonic() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            if done.returncode not in (0, 1):
                sys.exit(done.stderr)
            digests.add(hashlib.sha256(out.read_bytes()).hexdigest())
            base = base or seconds
            print(
                f"| {jobs} | {seconds:.1f} | {cpu:.1f} | {len(sources) / seconds:.2f} | "
                f"{plies / seconds:.0f} | {base / seconds:.2f} |"
            )
            print(f"  {done.stderr.strip()}", file=sys.stderr)
        print("outputs identical:", len(digests) == 1)


if __name__ == "__main__":
    main()
