"""Perft like for like, contenders interleaved: Board API against Board API, and each
engine's fastest path.

Two kinds of count of the leaves of the move tree from the international start
position, each contender in a fresh process of its own interpreter, ``--rounds``
rounds with the contenders' order rotating, medians with [min–max]:

* **Board API** — a recursive perft over the public board object: ``legal_moves``,
  ``push(move)``, ``pop()``.  Ours: ``pdn_tools.Board``; py-draughts:
  ``StandardBoard``; dame-rs: ``dame.Board``.
* **fastest path** — what each ships for the purpose: ours ``pdn_tools.rules.perft``,
  py-draughts ``draughts.engines.turbo.perft_from_board``, dame-rs ``dame.perft``.

Ratio = the peer's time / ours in the same round (above 1: ours is faster).

    python3 benchmarks/bench_board.py --rounds 5 --depth 6
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peers import ensure_compiled, python_of  # noqa: E402

_BOARD_PERFT = """
def walk(board, depth):
    legal = list(board.legal_moves)
    if depth == 1:
        return len(legal)
    total = 0
    for move in legal:
        board.push(move)
        total += walk(board, depth - 1)
        board.pop()
    return total
"""

#: contender -> (interpreter name, setup code, the timed expression)
CONTENDERS: dict[str, dict[str, tuple[str, str, str]]] = {
    "board": {
        "ours": ("ours", "from pdn_tools import Board\n" + _BOARD_PERFT, "walk(Board(), D)"),
        "py-draughts": (
            "py-draughts",
            "from draughts import StandardBoard\n" + _BOARD_PERFT,
            "walk(StandardBoard(), D)",
        ),
        "dame-rs": ("dame-rs", "import dame\n" + _BOARD_PERFT, "walk(dame.Board(), D)"),
    },
    "fastest": {
        "ours": (
            "ours",
            "from pdn_tools.rules import Position, perft",
            "perft(Position.initial(), D)",
        ),
        "py-draughts": (
            "py-draughts",
            "from draughts import StandardBoard\n"
            "from draughts.engines.turbo import perft_from_board",
            "perft_from_board(StandardBoard(), D)",
        ),
        "dame-rs": ("dame-rs", "import dame", "dame.perft(dame.Board(), D)"),
    },
}

_CHILD = """
import sys, time
{setup}
D = 2
{expr}  # warm-up: tables built on first use are not timed
D = {depth}
start = time.perf_counter()
count = {expr}
print(time.perf_counter() - start, count)
"""


def run(python: Path, setup: str, expr: str, depth: int) -> tuple[float, int]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONSAFEPATH"] = "1"
    code = _CHILD.format(setup=setup, depth=depth, expr=expr)
    done = subprocess.run(
        [str(python), "-c", code], env=env, capture_output=True, text=True, check=True
    )
    seconds, count = done.stdout.split()
    return float(seconds), int(count)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--depth", type=int, default=6)
    args = parser.parse_args(argv)
    ours = ensure_compiled()
    if ours is None:
        raise SystemExit("bench_board: the compiled build failed")
    pythons = {
        "ours": ours,
        "py-draughts": python_of("py-draughts"),
        "dame-rs": python_of("dame-rs"),
    }
    times: dict[tuple[str, str], list[float]] = {}
    counts: dict[tuple[str, str], int] = {}
    jobs = [(kind, name) for kind, table in CONTENDERS.items() for name in table]
    load = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for round_no in range(args.rounds):
        shift = round_no % len(jobs)
        for kind, name in jobs[shift:] + jobs[:shift]:
            venv, setup, expr = CONTENDERS[kind][name]
            seconds, count = run(pythons[venv], setup, expr, args.depth)
            times.setdefault((kind, name), []).append(seconds)
            counts[(kind, name)] = count
            print(f"round {round_no + 1} {kind} {name}: {seconds:.4f}", file=sys.stderr)
    print(
        f"`bench_board.py --rounds {args.rounds} --depth {args.depth}` started {started}, "
        f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
        "compiled build; medians of the rounds with [min–max]; ratio = peer's time / ours "
        "in the same round."
    )
    print()
    print("| perft | contender | leaves | s | peer ÷ ours |")
    print("|---|---|---:|---|---|")
    for kind, table in CONTENDERS.items():
        for name in table:
            own = times[(kind, name)]
            ratios = [t / o for t, o in zip(own, times[(kind, "ours")], strict=True)]
            print(
                f"| {kind} | {name} | {counts[(kind, name)]:,} | {_spread(own, 4)} | "
                f"{_spread(ratios, 2)} |"
            )
    return 0


def _spread(values: list[float], digits: int) -> str:
    return (
        f"{statistics.median(values):.{digits}f} "
        f"[{min(values):.{digits}f}–{max(values):.{digits}f}]"
    )


if __name__ == "__main__":
    raise SystemExit(main())
