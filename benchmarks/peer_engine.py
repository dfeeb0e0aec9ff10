"""Peer side of ``bench_engine.py``: runs inside one peer's virtual environment.

Usage: ``<peer python> benchmarks/peer_engine.py PEER FEN_FILE REPEATS PERFT_DEPTHS``
where PEER is ``py-draughts``, ``dame-rs`` or ``pydraughts``.  Prints one JSON object:
move-generation time over the FEN list (best of REPEATS passes), the peer's move lists
(for the agreement check), and perft timings.  It imports only the peer library and
the standard library; pdn-tools is never imported here.

APIs used, as inspected in each venv (``help()``/``dir()``):

* py-draughts 1.10.1 (``import draughts``): ``StandardBoard.from_fen(fen)``, the
  ``legal_moves`` property (moves deduplicated by identity; ``Move.square_list`` and
  ``Move.captured_list`` are 0-based), ``push``/``pop``; its search engine also ships a
  bitboard perft, ``draughts.engines.turbo.perft_from_board(board, depth)``.
* dame-rs 0.2.0 (``import dame``): ``Board(fen)``, the ``legal_moves`` property
  (``Move.from_square``, ``to_square``, ``captured``, 1-based), ``dame.perft(board, d)``.
* pydraughts 0.6.7 (``import draughts``): ``Board(variant="standard", fen=...)``,
  ``legal_moves()`` lists one move per *route* (``Move.steps_move``, ``captures``), so its
  perft counts differ from the published ones and are not reported.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Callable
from typing import Any

Identity = tuple[int, int, tuple[int, ...]]


def best_time(fn: Callable[[], object], repeats: int) -> float:
    """Best wall time of *repeats* calls of *fn*."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def py_draughts(fens: list[str], repeats: int, depths: list[int]) -> dict[str, Any]:
    draughts = importlib.import_module("draughts")
    StandardBoard = draughts.StandardBoard
    perft_from_board = importlib.import_module("draughts.engines.turbo").perft_from_board

    boards = [StandardBoard.from_fen(f) for f in fens]

    def generate() -> None:
        for board in boards:
            board.legal_moves  # noqa: B018 - the property generates the moves

    def identity(move: Any) -> Identity:
        path = move.square_list
        return (path[0] + 1, path[-1] + 1, tuple(sorted(c + 1 for c in move.captured_list)))

    moves = [sorted({identity(m) for m in b.legal_moves}) for b in boards]

    def api_perft(board: Any, depth: int) -> int:
        legal = board.legal_moves
        if depth == 1:
            return len(legal)
        total = 0
        for move in legal:
            board.push(move)
            total += api_perft(board, depth - 1)
            board.pop()
        return total

    perft: dict[str, Any] = {}
    for depth in depths:
        board = StandardBoard()
        start = time.perf_counter()
        count = api_perft(board, depth)
        perft[f"api:{depth}"] = {"count": count, "seconds": time.perf_counter() - start}
        start = time.perf_counter()
        count = perft_from_board(StandardBoard(), depth)
        perft[f"turbo:{depth}"] = {"count": count, "seconds": time.perf_counter() - start}
    return {
        "version": draughts.__version__,
        "movegen_seconds": best_time(generate, repeats),
        "moves": moves,
        "perft": perft,
    }


def dame_rs(fens: list[str], repeats: int, depths: list[int]) -> dict[str, Any]:
    dame = importlib.import_module("dame")

    boards = [dame.Board(f) for f in fens]

    def generate() -> None:
        for board in boards:
            board.legal_moves  # noqa: B018 - the property generates the moves

    moves = [
        sorted({(m.from_square, m.to_square, tuple(sorted(m.captured))) for m in b.legal_moves})
        for b in boards
    ]
    perft: dict[str, Any] = {}
    for depth in depths:
        start = time.perf_counter()
        count = dame.perft(dame.Board(), depth)
        perft[f"native:{depth}"] = {"count": count, "seconds": time.perf_counter() - start}
    return {
        "version": dame.__version__,
        "movegen_seconds": best_time(generate, repeats),
        "moves": moves,
        "perft": perft,
    }


def pydraughts(fens: list[str], repeats: int, depths: list[int]) -> dict[str, Any]:
    draughts = importlib.import_module("draughts")
    Board = draughts.Board

    boards = [Board(variant="standard", fen=f) for f in fens]

    def generate() -> None:
        for board in boards:
            board.legal_moves()

    moves = [
        sorted(
            {
                (m.steps_move[0], m.steps_move[-1], tuple(sorted(m.captures)))
                for m in b.legal_moves()
            }
        )
        for b in boards
    ]
    return {
        "version": draughts.__version__,
        "movegen_seconds": best_time(generate, repeats),
        "moves": moves,
        "perft": {},
    }


PEERS = {"py-draughts": py_draughts, "dame-rs": dame_rs, "pydraughts": pydraughts}


def main(argv: list[str]) -> int:
    peer, fen_file, repeats, depths = argv
    with open(fen_file, encoding="utf-8") as handle:
        fens = [line.strip() for line in handle if line.strip()]
    wanted = [int(d) for d in depths.split(",") if d]
    result = PEERS[peer](fens, int(repeats), wanted)
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
