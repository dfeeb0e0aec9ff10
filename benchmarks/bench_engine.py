"""Benchmark the rules engine against py-draughts and dame-rs (and pydraughts).

Usage: ``python3 benchmarks/bench_engine.py [--positions N] [--repeats R] [--depths 5,6,7]
[--only py-draughts,dame-rs,pydraughts] [--compiled [--install]]``

``--compiled`` also runs our compiled build (the checkout installed by ``pip install .``
in ``benchmarks/.venvs/ours-compiled``; ``--install`` rebuilds it) and takes the peers'
ratios against it; the checkout's pure-Python code is still measured and shown.

1. Plays random legal games with a fixed seed (our engine) and writes a sample of the
   positions to ``benchmarks/data/engine_positions.fen``; every engine reads that list.
2. Times move generation over the list (best of R passes) for us and for each peer.
   Every side runs in a fresh process of its own: us with this interpreter
   (``--ours-only``), each peer in its own virtual environment (``python3
   benchmarks/peers.py`` creates them) through ``benchmarks/peer_engine.py``.  Ours runs
   before and after the peers and the better run counts (the machine is shared).  It
   then checks that all engines list the same moves (by identity: from, to, captured
   set).
3. Times perft from the start position.
4. Prints a table with ratios (peer time / our time: above 1 means we are faster) and
   writes ``benchmarks/results/engine.json``.

Only one heavy process runs at a time: peers run one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if not sys.flags.safe_path:  # PYTHONSAFEPATH: the compiled build's child, installed
    sys.path.insert(0, str(ROOT))

from peer_engine import best_time  # noqa: E402  (same folder; standard library only)
from peers import OURS_COMPILED, ensure_compiled  # noqa: E402

from pdn_tools.rules import (  # noqa: E402
    Position,
    legal_moves,
    move_texts,
    parse_fen,
    perft,
    write_fen,
)

SEED = 20261122
FEN_FILE = HERE / "data" / "engine_positions.fen"
RESULTS = HERE / "results" / "engine.json"
PEERS = ("py-draughts", "dame-rs", "pydraughts")


def sample_positions(count: int, seed: int = SEED) -> list[Position]:
    """Positions from random legal games (fixed seed), sampled without repeats."""
    rng = random.Random(seed)
    seen: dict[tuple[int, int, int, int, bool], Position] = {}
    while len(seen) < count * 3:
        position = Position.initial()
        for _ in range(rng.randint(10, 160)):
            moves = legal_moves(position)
            if not moves:
                break
            position = position.apply(rng.choice(moves))
            seen.setdefault(position.key(), position)
    keys = sorted(seen)
    return [seen[k] for k in rng.sample(keys, count)]


def our_side(fens: list[str], repeats: int, depths: list[int]) -> dict[str, Any]:
    """Our measurements, run like a peer's: in a fresh process, from the FEN list."""
    positions = [parse_fen(f).position for f in fens]

    def generate() -> None:
        for position in positions:
            legal_moves(position)

    def generate_with_text() -> None:
        for position in positions:
            move_texts(legal_moves(position))

    def api_perft(position: Position, depth: int) -> int:
        legal = legal_moves(position)
        if depth == 1:
            return len(legal)
        return sum(api_perft(position.apply(m), depth - 1) for m in legal)

    moves = [
        sorted((m.from_sq, m.to_sq, tuple(sorted(m.captures))) for m in legal_moves(p))
        for p in positions
    ]
    result: dict[str, Any] = {
        "movegen_seconds": best_time(generate, repeats),
        "movegen_with_notation_seconds": best_time(generate_with_text, repeats),
        "moves": moves,
        "perft": {},
    }
    for depth in depths:
        start = time.perf_counter()
        count = perft(Position.initial(), depth)
        result["perft"][f"fast:{depth}"] = {"count": count, "seconds": time.perf_counter() - start}
        start = time.perf_counter()
        count = api_perft(Position.initial(), depth)
        result["perft"][f"api:{depth}"] = {"count": count, "seconds": time.perf_counter() - start}
    return result


def peer_side(
    name: str, repeats: int, depths: list[int], install: bool = False
) -> dict[str, Any] | None:
    """Run one side in its own process: a peer in its venv, or us (``ours``: the
    checkout's code; ``ours-compiled``: the compiled build)."""
    env = None
    if name == "ours":
        command = [sys.executable, str(Path(__file__).resolve()), "--ours-only"]
    elif name == OURS_COMPILED:
        python = ensure_compiled(reinstall=install)
        if python is None:
            return None
        command = [str(python), str(Path(__file__).resolve()), "--ours-only"]
        env = {**os.environ, "PYTHONSAFEPATH": "1"}
    else:
        python = HERE / ".venvs" / name / "bin" / "python"
        if not python.exists():
            print(f"bench: {name}: no environment (python3 benchmarks/peers.py)", file=sys.stderr)
            return None
        command = [str(python), str(HERE / "peer_engine.py"), name]
    done = subprocess.run(
        [*command, str(FEN_FILE), str(repeats), ",".join(map(str, depths))],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:
        print(f"bench: {name} failed: {done.stderr.strip()[-600:]}", file=sys.stderr)
        return None
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def best_of(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Per measurement, the faster of two runs of our side."""
    out = dict(a)
    for key in ("movegen_seconds", "movegen_with_notation_seconds"):
        out[key] = min(a[key], b[key])
    out["perft"] = {
        k: min(a["perft"][k], b["perft"][k], key=lambda stats: stats["seconds"]) for k in a["perft"]
    }
    return out


def disagreements(ours: list[Any], theirs: list[Any], fens: list[str]) -> list[str]:
    """FENs where the peer's move identities differ from ours."""

    def norm(moves: list[Any]) -> list[tuple[int, int, tuple[int, ...]]]:
        return [(int(f), int(t), tuple(c)) for f, t, c in moves]

    return [fen for fen, a, b in zip(fens, ours, theirs, strict=True) if norm(a) != norm(b)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--depths", default="5,6,7", help="perft depths, comma-separated")
    parser.add_argument("--only", default=",".join(PEERS), help="peers to run, comma-separated")
    parser.add_argument(
        "--compiled", action="store_true", help="also run our compiled build; ratios against it"
    )
    parser.add_argument("--install", action="store_true", help="(re)build the compiled build")
    if sys.argv[1:2] == ["--ours-only"]:
        fen_file, repeats, depth_list = sys.argv[2:5]
        fens = Path(fen_file).read_text(encoding="utf-8").split()
        wanted = [int(d) for d in depth_list.split(",") if d]
        json.dump(our_side(fens, int(repeats), wanted), sys.stdout)
        return 0
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",") if d]

    positions = sample_positions(args.positions)
    fens = [write_fen(p) for p in positions]
    FEN_FILE.parent.mkdir(parents=True, exist_ok=True)
    FEN_FILE.write_text("\n".join(fens) + "\n", encoding="utf-8")
    n_moves = sum(len(legal_moves(p)) for p in positions)
    n_capture = sum(1 for p in positions if any(m.captures for m in legal_moves(p)))
    n_kings = sum(1 for p in positions if p.white_kings | p.black_kings)

    # Ours runs before and after the peers; the best of the two runs counts, so that a
    # burst of other work on the shared machine does not decide the ratios.
    first = peer_side("ours", args.repeats, depths)
    if first is None:
        return 1
    peers: dict[str, dict[str, Any]] = {}
    for name in [p for p in args.only.split(",") if p in PEERS]:
        data = peer_side(name, args.repeats, depths if name != "pydraughts" else [])
        if data is not None:
            peers[name] = data
    last = peer_side("ours", args.repeats, depths)
    ours = pure = first if last is None else best_of(first, last)
    rows = []
    if args.compiled:
        compiled = peer_side(OURS_COMPILED, args.repeats, depths, args.install)
        if compiled is None:
            print("bench: the compiled build is not available", file=sys.stderr)
            return 1
        ours = compiled
        rows.append(("pdn-tools pure", "movegen", len(positions), pure["movegen_seconds"], 0.0))
        for key, stats in pure["perft"].items():
            ours["perft"][f"pure-{key}"] = stats

    our_gen = ours["movegen_seconds"]
    ours_label = "pdn-tools compiled" if args.compiled else "pdn-tools"
    rows.append((ours_label, "movegen", len(positions), our_gen, 1.0))
    if args.compiled:
        rows[0] = (*rows[0][:4], pure["movegen_seconds"] / our_gen)
    summary: dict[str, Any] = {
        "machine": platform.platform(),
        "python": sys.version.split()[0],
        "positions": len(positions),
        "legal_moves_total": n_moves,
        "positions_with_capture": n_capture,
        "positions_with_kings": n_kings,
        "seed": SEED,
        "load_average": list(os.getloadavg()),
        "repeats": args.repeats,
        "ours": {k: v for k, v in ours.items() if k != "moves"},
        "ours_build": "compiled" if args.compiled else "checkout (pure Python)",
        "peers": {},
    }
    for name, data in peers.items():
        bad = disagreements(ours["moves"], data["moves"], fens)
        entry = {k: v for k, v in data.items() if k != "moves"}
        entry["movegen_ratio"] = data["movegen_seconds"] / our_gen
        entry["move_list_disagreements"] = len(bad)
        entry["disagreement_examples"] = bad[:5]
        summary["peers"][name] = entry
        rows.append(
            (name, "movegen", len(positions), data["movegen_seconds"], entry["movegen_ratio"])
        )

    print(f"positions: {len(positions)} ({n_capture} with a capture, {n_kings} with kings), "
          f"{n_moves} legal moves; best of {args.repeats}")  # fmt: skip
    print(f"{'engine':<22}{'task':<22}{'seconds':>10}{'us/pos':>10}{'peer/ours':>11}")
    for name, task, count, seconds, ratio in rows:
        per = seconds / count * 1e6
        print(f"{name:<22}{task:<22}{seconds:>10.4f}{per:>10.1f}{ratio:>11.2f}")
    print(f"{ours_label:<22}{'movegen+notation':<22}{ours['movegen_with_notation_seconds']:>10.4f}")
    for name, entry in summary["peers"].items():
        print(f"  {name}: {entry['move_list_disagreements']} positions with other move lists")

    print(f"\n{'perft':<30}{'leaves':>10}{'seconds':>10}{'nodes/s':>12}{'peer/ours':>11}")
    for depth in depths:
        fast = ours["perft"][f"fast:{depth}"]
        api = ours["perft"][f"api:{depth}"]
        lines: list[tuple[str, dict[str, float], float | None]] = [
            (f"{ours_label} fast", fast, None),
            (f"{ours_label} public API", api, None),
        ]
        if args.compiled:
            for kind, base in (("fast", fast), ("api", api)):
                stats = ours["perft"][f"pure-{kind}:{depth}"]
                lines.append((f"pdn-tools pure {kind}", stats, stats["seconds"] / base["seconds"]))
        for name, data in peers.items():
            for key, stats in data["perft"].items():
                kind, d = key.split(":")
                if int(d) == depth:
                    base = api if kind == "api" else fast
                    lines.append((f"{name} {kind}", stats, stats["seconds"] / base["seconds"]))
                    summary["peers"][name].setdefault("perft_ratio", {})[key] = (
                        stats["seconds"] / base["seconds"]
                    )
        for label, stats, peer_ratio in lines:
            rate = stats["count"] / stats["seconds"]
            shown = f"{peer_ratio:>11.2f}" if peer_ratio is not None else f"{'':>11}"
            print(f"{label + ' d' + str(depth):<30}{stats['count']:>10}{stats['seconds']:>10.3f}"
                  f"{rate:>12.0f}{shown}")  # fmt: skip
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
