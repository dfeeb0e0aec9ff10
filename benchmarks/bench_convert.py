"""Conversion benchmark: ``pdn convert`` throughput per output format.

Why: converting whole archives is what the exporters are for; this measures how
many games per second (and input MB per second) each format sustains, and whether
peak memory stays flat when the input grows tenfold (streaming writers).

Each (file set, format) runs in its own interpreter so that its peak RSS is its own.
The timed work is the whole conversion as ``pdn convert`` does it: read, replay,
resolve and write (``replay-only`` reads and replays without writing, the baseline).
The best of ``--repeat`` runs is kept; start-up and imports are not timed.

File sets: ``horizon-wk2003`` (real file from the shared corpus, read in place, skipped
when absent), ``generated`` (N random legal games from ``gen_games.py``, cached in
``benchmarks/data/``) and ``generated-10x`` (the same file ten times, one run, JSONL
and Parquet only: the memory check).

Usage::

    python3 benchmarks/bench_convert.py [--games 2000] [--repeat 2] [--quick] [--compiled]

``--compiled`` runs the children with our compiled build (the checkout installed by
``pip install .`` in ``benchmarks/.venvs/ours-compiled``; ``--install`` rebuilds it)
instead of this interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from gen_games import generate  # noqa: E402
from peers import ensure_compiled  # noqa: E402

DATA = HERE / "data"
FORMATS = ("replay-only", "pdn", "json", "jsonl", "parquet", "parquet+moves")


def _child(fmt: str, files: list[str], repeat: int) -> dict[str, Any]:
    """Convert *files* to *fmt* *repeat* times in this process; report the best run."""
    sys.path.insert(0, str(ROOT))
    from pdn_tools.cli.convert import _convert
    from pdn_tools.export.canonical import CanonicalOptions
    from pdn_tools.pdn.model import ReadOptions
    from pdn_tools.pdn.reader import read_games
    from pdn_tools.replay import replay_game
    from pdn_tools.run.storage import find

    best = float("inf")
    games = 0
    out_bytes = 0
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            start = time.perf_counter()
            if fmt == "replay-only":
                games = 0
                for path in files:
                    for game in read_games(path):
                        replay_game(game)
                        games += 1
            else:
                target = "parquet" if fmt.startswith("parquet") else fmt
                out = os.path.join(tmp, f"out.{target}")
                moves = os.path.join(tmp, "moves.parquet") if fmt == "parquet+moves" else None
                games = _convert(
                    tuple(files), list(find(tuple(files))), out, target, None, moves,
                    CanonicalOptions(), ReadOptions(), {}, None,
                ).written  # fmt: skip
                out_bytes = os.path.getsize(out) + (os.path.getsize(moves) if moves else 0)
            best = min(best, time.perf_counter() - start)
    size = sum(os.path.getsize(f) for f in files)
    return {
        "format": fmt,
        "games": games,
        "seconds": best,
        "games_per_s": games / best,
        "mb_per_s": size / 1e6 / best,
        "input_mb": size / 1e6,
        "output_mb": out_bytes / 1e6,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


PYTHON: list[str] = [sys.executable]
"""The interpreter of the children (the compiled build's with ``--compiled``)."""


def _run(fmt: str, files: list[Path], repeat: int) -> dict[str, Any]:
    cmd = [*PYTHON, __file__, "--child", fmt, "--repeat", str(repeat), *map(str, files)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _sets(games: int, quick: bool) -> list[tuple[str, list[Path], tuple[str, ...], int]]:
    sets: list[tuple[str, list[Path], tuple[str, ...], int]] = []
    env = os.environ.get("PDN_SHARED_CORPUS")
    corpus = Path(env) if env else ROOT.parent / "shared" / "corpus"
    real = corpus / "rhalbersma__horizon/BoomstraDam/pdn files/oud/wk2003.pdn"
    if real.is_file():
        sets.append(("horizon-wk2003", [real], FORMATS, 0))
    else:
        print(f"bench_convert: {real} not found; real-file set skipped", file=sys.stderr)
    base = DATA / f"generated-{games}-s1.pdn"
    if not base.is_file():
        print(f"bench_convert: generating {games} games into {base} ...", file=sys.stderr)
        generate(games, 1, base)
    sets.append(("generated", [base], FORMATS, 0))
    if not quick:
        big = DATA / f"generated-{games}-s1-x10.pdn"
        if not big.is_file() or big.stat().st_size != 10 * base.stat().st_size:
            big.write_bytes(base.read_bytes() * 10)
        sets.append(("generated-10x", [big], ("jsonl", "parquet+moves"), 1))
    return sets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="no 10x memory check")
    parser.add_argument("--compiled", action="store_true", help="run our compiled build")
    parser.add_argument("--install", action="store_true", help="(re)build the compiled build")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args.files, args.repeat)))
        return 0
    if args.compiled:
        compiled = ensure_compiled(reinstall=args.install)
        if compiled is None:
            return 1
        PYTHON[:] = ["env", "PYTHONSAFEPATH=1", str(compiled)]
    print(f"build: {'compiled' if args.compiled else 'the checkout (pure Python)'}\n")
    print("| file set | format | games | games/s | input MB/s | output MB | peak RSS MB |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, files, formats, repeat in _sets(args.games, args.quick):
        for fmt in formats:
            r = _run(fmt, files, repeat or args.repeat)
            print(
                f"| {name} | {fmt} | {r['games']:,} | {r['games_per_s']:,.0f} | "
                f"{r['mb_per_s']:.2f} | {r['output_mb']:.1f} | {r['peak_rss_mb']:.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
