"""Where a game's time goes: CPU µs per game of each stage of ``pdn validate``.

Each stage is timed on its own over a whole file (the stages before it done
beforehand, outside the timing), best of ``--repeat``, with ``time.process_time``
(CPU of this process, so that other work on a shared machine counts less than in
wall time), divided by the games:

* **read/decode** — bytes to text lines (``read_pieces``);
* **split** — lines to game chunks (``split_chunks``);
* **build** — chunks to game trees (``build_game``): the plain path, or the parser;
* **replay** — every move matched to the legal moves (``replay_game``, draw rules off);
* **draw rules** — the replay with them, less the replay without;
* **report record** — ``game_record`` of a replayed game (of which ``game_id``);
* **freeing** — dropping the replayed games and collecting what the cyclic garbage
  collector must free (less a collection with nothing to free).  The collector runs
  during no other stage; in a real loop its passes over the young objects of every
  stage add to that (see ``validate()`` with and without ``close()``).

Run it with the build to measure (the compiled one:
``benchmarks/.venvs/ours-compiled/bin/python benchmarks/bench_stages.py FILE``); it
prints which build ran.
"""

from __future__ import annotations

import argparse
import gc
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _best(work: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best = float("inf")
    value: Any = None
    for _ in range(repeat):
        value = None
        gc.collect()
        gc.disable()  # the collector's share is measured apart (freeing)
        try:
            start = time.process_time()
            value = work()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    from pdn_tools.pdn.build import build_game
    from pdn_tools.pdn.model import ReadOptions
    from pdn_tools.pdn.source import Decoding, read_pieces
    from pdn_tools.pdn.split import split_chunks
    from pdn_tools.replay import ReplayOptions, replay_game
    from pdn_tools.replay.identity import game_id
    from pdn_tools.report.records import game_record
    from pdn_tools.version import build

    data = [path.read_bytes() for path in args.files]
    options = ReadOptions()
    repeat = args.repeat

    def decode() -> list[list[Any]]:
        return [list(read_pieces(io.BytesIO(raw), None, Decoding())) for raw in data]

    t_decode, pieces = _best(decode, repeat)
    t_split, chunks = _best(lambda: [c for p in pieces for c in split_chunks(iter(p))], repeat)
    t_build, games = _best(lambda: [build_game(c, options) for c in chunks], repeat)
    n = len(games)
    plain = ReplayOptions(draws=False)
    with_draws = ReplayOptions()

    def replay(opts: ReplayOptions) -> Callable[[], list[Any]]:
        def run() -> list[Any]:
            out = []
            for game in games:
                del game.issues[:]
                out.append(replay_game(game, opts))
            return out

        return run

    t_replay, _ = _best(replay(plain), repeat)
    t_draws, results = _best(replay(with_draws), repeat)
    pairs = list(zip(games, results, strict=True))
    t_record, _ = _best(lambda: [game_record(g, r) for g, r in pairs], repeat)
    t_id, _ = _best(lambda: [game_id(g, r) for g, r in pairs], repeat)
    pairs.clear()
    results.clear()
    chunks.clear()

    def free() -> float:
        """Drop the games and collect what is left to the collector, less a collection
        with nothing to free."""
        gc.disable()
        start = time.process_time()
        games.clear()
        gc.collect()
        spent = time.process_time() - start
        start = time.process_time()
        gc.collect()
        spent -= time.process_time() - start
        gc.enable()
        return spent

    t_free = free()
    stages = [
        ("read/decode", t_decode),
        ("split", t_split),
        ("build", t_build),
        ("replay (no draw rules)", t_replay),
        ("draw rules", t_draws - t_replay),
        ("report record", t_record),
        ("  of which game_id", t_id),
        ("freeing the games", t_free),
    ]
    total = t_decode + t_split + t_build + t_draws + t_record + t_free
    print(f"{n} games, {build()} build, best of {repeat}, CPU µs per game")
    print("| stage | µs/game |")
    print("|---|---:|")
    for name, seconds in stages:
        print(f"| {name} | {seconds / n * 1e6:.1f} |")
    print(f"| **total** | **{total / n * 1e6:.1f}** |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
