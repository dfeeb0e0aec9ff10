"""Generate a large synthetic PDN file of legal international (10x10) draughts games.

Why: the real corpus is small (a few hundred 10x10 games per file), too little to
measure a reader's throughput or to see whether its memory stays flat as files grow.
This script writes N games of random *legal* play from the start position, dressed
like real tournament records (a full tag section, move numbers, line wrapping, an
occasional ``{comment}``, the result as terminator), so every reader, including the
peers that replay moves, can consume them.

Usage::

    python3 benchmarks/gen_games.py --games 2000 --seed 1 -o benchmarks/data/generated.pdn

Legal moves come from the first available backend:

* ``pdn-tools`` -- our own engine ``pdn_tools.rules``, when importable;
* ``py-draughts`` -- otherwise the peer library, run in its virtualenv
  (``benchmarks/.venvs/py-draughts``, created by ``benchmarks/peers.py``).

Captures are written in the short form (``28x19``); a move whose short form would be
ambiguous is never picked (a game is cut where only such moves remain), because
readers disagree on longer capture notations and every reader should see the same
games.  The backend only supplies the move sequences (one JSON line per game); the PDN text
is always formatted here, so the output format does not depend on the backend.  The
output is deterministic for a given ``--seed`` and backend.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"

#: Game length target in plies: uniform in this range; random play often ends sooner.
MIN_PLIES, MAX_PLIES = 100, 150

_EVENTS = ("Open Amsterdam", "NK Seniors", "WK Rapid", "Coupe de Dakar", "Polish League")
_PLAYERS = (
    "Sijbrands, T.",
    "Baljakin, A.",
    "Georgiev, A.",
    "Schwarzman, A.",
    "Ndiaye, B.",
    "Boomstra, R.",
    "Jansen, J.",
    "Valneris, G.",
    "Shvartsman, A.",
    "Roozenburg, P.",
)
_COMMENTS = ("forced", "the only move", "a strong reply", "time trouble", "White is better")


# --------------------------------------------------------------------------- backends


def _moves_py_draughts(games: int, seed: int) -> Iterator[tuple[list[str], str | None]]:
    """Random legal games with py-draughts (runs inside the py-draughts venv).

    Yields (moves in PDN notation, result or None when the game is unfinished).
    Captures are written ``from x to``; a move whose short form would be ambiguous
    is never chosen (and a game is cut where only such moves remain), so that every
    reader sees the same games.
    """
    from draughts import StandardBoard  # type: ignore[import-not-found, unused-ignore]

    rng = random.Random(seed)
    for _ in range(games):
        board = StandardBoard()
        target = rng.randint(MIN_PLIES, MAX_PLIES)
        moves: list[str] = []
        result: str | None = None
        while len(moves) < target:
            legal = board.legal_moves
            if not legal:
                # The side to move is blocked or has no pieces: it has lost.
                result = "0-2" if len(moves) % 2 == 0 else "2-0"
                break
            # Only moves whose short notation is unambiguous: readers disagree on
            # full capture paths (dame-rs reads them as captured squares).
            clear = [m for m in legal if _short(m, legal) is not None]
            if not clear:
                break  # cut the game here; it gets a random result
            move = rng.choice(clear)
            moves.append(str(_short(move, legal)))
            board.push(move)
        yield moves, result


def _short(move: Any, legal: list[Any]) -> str | None:
    """Short PDN text (``32-28``, ``28x19``) of a py-draughts move; None if ambiguous.

    Ambiguous means another legal capture has the same origin and destination, the
    case where the PDN standard asks for more squares.
    """
    first, last = move.square_list[0], move.square_list[-1]
    if not move.captured_list:
        return f"{first + 1}-{last + 1}"
    for other in legal:
        if (
            other is not move
            and other.captured_list
            and other.square_list[0] == first
            and other.square_list[-1] == last
        ):
            return None
    return f"{first + 1}x{last + 1}"


def _moves_pdn_tools(games: int, seed: int) -> Iterator[tuple[list[str], str | None]]:
    """Random legal games with our engine ``pdn_tools.rules`` (same rules as above).

    Uses ``Position.initial()``, ``legal_moves(position)``, ``position.apply(move)``
    and ``move_text(move, legal)`` (short form, or the full path when ambiguous).
    """
    rules = importlib.import_module("pdn_tools.rules")
    rng = random.Random(seed)
    for _ in range(games):
        position = rules.Position.initial()
        target = rng.randint(MIN_PLIES, MAX_PLIES)
        moves: list[str] = []
        result: str | None = None
        while len(moves) < target:
            legal = rules.legal_moves(position)
            if not legal:
                result = "0-2" if len(moves) % 2 == 0 else "2-0"
                break
            texts = [rules.move_text(m, legal) for m in legal]
            clear = [(m, t) for m, t in zip(legal, texts, strict=True) if t.count("x") <= 1]
            if not clear:
                break
            move, text = rng.choice(clear)
            moves.append(text)
            position = position.apply(move)
        yield moves, result


def _pdn_tools_available() -> bool:
    """True when our rules engine imports and can play a few plies with the API above."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        for moves, _ in _moves_pdn_tools(1, 0):
            return len(moves) > 0
    except Exception:
        return False
    return False


def _moves_via_py_draughts_venv(games: int, seed: int) -> Iterator[tuple[list[str], str | None]]:
    """Run this script's worker mode in the py-draughts venv and read its JSON lines."""
    sys.path.insert(0, str(HERE))
    from peers import ensure

    python = ensure("py-draughts")
    if python is None:
        raise SystemExit("gen_games: no move generator (pdn_tools.rules nor py-draughts)")
    cmd = [
        str(python),
        str(Path(__file__).resolve()),
        "--worker",
        "--games",
        str(games),
        "--seed",
        str(seed),
    ]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            record = json.loads(line)
            yield record["moves"], record["result"]
    if proc.returncode != 0:
        raise SystemExit(f"gen_games: py-draughts worker failed with code {proc.returncode}")


# --------------------------------------------------------------------------- formatting


def format_game(index: int, moves: list[str], result: str | None, rng: random.Random) -> str:
    """One PDN game: tag section, blank line, wrapped movetext ending in the result."""
    if result is None:
        result = rng.choice(("2-0", "0-2", "1-1", "1-1"))
    white, black = rng.sample(_PLAYERS, 2)
    year = 1990 + index % 35
    tags = [
        ("Event", rng.choice(_EVENTS)),
        ("Site", "Generated"),
        ("Date", f"{year}.{1 + index % 12:02d}.{1 + index % 28:02d}"),
        ("Round", str(1 + index % 11)),
        ("White", white),
        ("Black", black),
        ("Result", result),
        ("GameType", "20"),
    ]
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    tokens: list[str] = []
    for ply, move in enumerate(moves):
        # A move number is kept on the same line as the move it numbers.
        tokens.append(f"{ply // 2 + 1}. {move}" if ply % 2 == 0 else move)
        if rng.random() < 0.03:
            tokens.append("{" + rng.choice(_COMMENTS) + "}")
    tokens.append(result)
    return head + "\n" + "\n".join(_wrap(tokens, 79)) + "\n\n"


def _wrap(tokens: Iterable[str], width: int) -> Iterator[str]:
    """Join tokens with spaces into lines of at most *width* characters."""
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            yield line
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        yield line


def generate(games: int, seed: int, out: Path, backend: str = "auto") -> dict[str, Any]:
    """Write *games* games to *out*; returns a summary (backend, games, plies, bytes)."""
    if backend == "auto":
        backend = "pdn-tools" if _pdn_tools_available() else "py-draughts"
    source = (
        _moves_pdn_tools(games, seed)
        if backend == "pdn-tools"
        else _moves_via_py_draughts_venv(games, seed)
    )
    rng = random.Random(seed ^ 0x5EED)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    plies = count = 0
    with tmp.open("w", encoding="utf-8", newline="\n") as fh:
        for index, (moves, result) in enumerate(source):
            fh.write(format_game(index, moves, result, rng))
            plies += len(moves)
            count += 1
    os.replace(tmp, out)
    return {"backend": backend, "games": count, "plies": plies, "bytes": out.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    """Command line: generate a file, or (``--worker``) emit move lists as JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="number of games (2000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("-o", "--output", type=Path, default=DATA / "generated.pdn")
    parser.add_argument(
        "--backend",
        choices=("auto", "pdn-tools", "py-draughts"),
        default="auto",
        help="move generator (auto: pdn_tools.rules if importable, else py-draughts)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        for moves, result in _moves_py_draughts(args.games, args.seed):
            sys.stdout.write(json.dumps({"moves": moves, "result": result}) + "\n")
        return 0
    summary = generate(args.games, args.seed, args.output, args.backend)
    sys.stderr.write(
        f"gen_games: wrote {summary['games']} games, {summary['plies']} plies, "
        f"{summary['bytes'] / 1e6:.2f} MB to {args.output} (moves by {summary['backend']})\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
