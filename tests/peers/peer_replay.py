"""Replay PDN games with a peer library, inside that peer's own interpreter.

py-draughts and pydraughts both import as ``draughts``, so each runs in its own
virtual environment (``benchmarks/.venvs/<name>``, made by ``benchmarks/peers.py``),
and the tests start this script with that environment's Python.  It uses only the
standard library besides the peer, reads a JSON list of ``{"pdn": text}`` on standard
input and writes a JSON list with, for each game, what the peer read: the final FEN
in the peer's own form, the plies it replayed (and, for py-draughts, the result its
board gives), or the error it raised.

Usage: ``<peer python> tests/peers/peer_replay.py {pydraughts|py-draughts}``; with
``--write VARIANT N SEED`` it plays N random games of VARIANT with the peer instead and
writes them as the peer's PDN.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any


def pydraughts_replay(text: str) -> dict[str, Any]:
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    games = PDNReader(pdn_text=text).games
    out: dict[str, Any] = {"games": len(games)}
    game = games[0]
    out["variant"] = game.variant
    board = Board(game.variant or "standard", game.tags.get("FEN", "startpos"))
    for ply, move in enumerate(game.moves, 1):
        try:
            board.push(Move(board, pdn_move=move))
        except Exception as exc:  # the peer refuses a move: say which
            out["error"] = f"ply {ply} {move}: {type(exc).__name__}: {exc}"
            break
    out["plies"] = len(board.move_stack)
    out["fen"] = board.fen
    return out


PY_DRAUGHTS_BOARDS = {
    "20": "StandardBoard",
    "23": "AmericanBoard",
    "25": "RussianBoard",
    "26": "BrazilianBoard",
    "40": "FrisianBoard",
}


def py_draughts_replay(text: str) -> dict[str, Any]:
    import re

    import draughts

    gametype = re.search(r'\[GameType "(\d+)', text)
    name = PY_DRAUGHTS_BOARDS.get(gametype.group(1) if gametype else "20", "StandardBoard")
    out: dict[str, Any] = {"variant": name}
    try:
        board = getattr(draughts, name).from_pdn(text)
    except Exception as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"
        return out
    out["plies"] = len(board._moves_stack)
    out["fen"] = board.fen
    out["result"] = board.result  # "1-0": White wins, in py-draughts' colours
    return out


def write_games(peer: str, variant: str, count: int, seed: int) -> list[str]:
    """*count* random games of *variant* played and written by the peer."""
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(count):
        if peer == "pydraughts":
            from draughts import Board
            from draughts.PDN import PDNWriter

            board = Board(variant)
            for _ in range(rng.randint(10, 120)):
                moves = board.legal_moves()
                if not moves or board.is_over():
                    break
                board.push(rng.choice(moves))
            texts.append(PDNWriter("", board=board).pdn_text)
        else:
            import draughts

            board = getattr(draughts, variant)()
            for _ in range(rng.randint(10, 120)):
                moves = board.legal_moves
                if not moves or board.game_over:
                    break
                board.push(rng.choice(moves))
            texts.append(board.pdn)
    return texts


def main() -> int:
    peer = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--write":
        variant, count, seed = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        json.dump(write_games(peer, variant, count, seed), sys.stdout)
        return 0
    replay = pydraughts_replay if peer == "pydraughts" else py_draughts_replay
    results = []
    for item in json.load(sys.stdin):
        try:
            results.append(replay(item["pdn"]))
        except Exception as exc:  # a reader failure is an answer too
            results.append({"error": f"{type(exc).__name__}: {exc}"})
    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
