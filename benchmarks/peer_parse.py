"""Time one PDN reader on a list of files, inside that reader's own interpreter.

Why a separate script: py-draughts and pydraughts both import as ``draughts``, so
every implementation runs in its own virtualenv (``benchmarks/.venvs/<name>``), and
ours runs under ``python3`` with ``PYTHONPATH`` pointing at the checkout.  This file
therefore uses only the standard library at import time and imports the library under
test lazily.  ``bench_parse.py`` starts it once per (implementation, file set) and
reads one JSON object from its stdout.

Usage::

    <venv python> benchmarks/peer_parse.py --impl NAME [--repeat 3] FILE [FILE ...]

What is timed: from the file paths to the counted games, i.e. reading, splitting and
parsing, best of ``--repeat`` runs (``time.perf_counter``).  Interpreter start-up and
the import of the library are outside the timed region.  Memory: the peak resident
set (``VmHWM``) is reset after the imports (``/proc/self/clear_refs``) and read after
the last repeat, so it covers the parsing plus the interpreter's baseline; the
baseline (``VmRSS`` before parsing) is reported too.

The public reading API of each implementation (read from their installed sources):

* ``ours`` -- ``pdn_tools.read_games(path)`` yields games; ``game.plies`` counts them.
  ``ours-validate`` also replays each game (``pdn_tools.replay.replay_game``) and
  counts the plies replayed: the work of ``pdn validate``.
  ``ours-pure`` is the same with ``lark_cython`` hidden (lark's pure-Python parser);
  ``ours-compiled`` and ``ours-validate-compiled`` run the compiled build (the
  checkout installed by ``pip install .`` in ``benchmarks/.venvs/ours-compiled``).
  Each game is closed once counted (``game.close()``), as ``pdn validate`` does.
* ``py-draughts`` -- ``<Board class>.from_pdn(text)`` reads and replays *one* game
  (no multi-game reader), so the file is split here at tag sections; the board class
  is chosen from the ``GameType`` tag (their ``GAME_TYPE`` attributes) and plies are
  ``len(board._moves_stack)`` (the attribute their own docs use).
* ``pydraughts`` -- ``draughts.PDN.PDNReader(filename=path).games``; plies are
  ``len(game.moves)`` (move strings, not replayed).
* ``dame-rs`` -- no game reader; the only PDN input is
  ``dame.OpeningBook.from_file(path, plies=N)``, which parses every game and replays
  its first N plies on a board (GameType 20 only).  With a huge N it reads whole
  games; it returns a book, so games and plies cannot be counted (reported as null).
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

#: (games, plies, failed games, first error messages, extra information)
Counts = tuple[int | None, int | None, int, list[str], dict[str, Any]]
Runner = Callable[[list[str]], Counts]

_MAX_ERRORS = 5


def _status(field: str) -> int | None:
    """A ``kB`` field of ``/proc/self/status`` (Linux), or None elsewhere."""
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return None
    match = re.search(rf"^{field}:\s+(\d+)\s+kB", text, re.M)
    return int(match.group(1)) if match else None


def _reset_peak() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0); False when not allowed."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _lines(path: str) -> Iterator[str]:
    """The file's lines, streamed: UTF-8, or Latin-1 when the file is not UTF-8.

    The encoding is decided on the first 64 KiB (many PDN files are Latin-1); a
    later stray byte is replaced rather than aborting the read.
    """
    with open(path, "rb") as probe:
        head = probe.read(65536)
    try:
        head.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError as exc:
        # A multi-byte character cut at the end of the probe is still UTF-8.
        encoding = "utf-8" if exc.start >= len(head) - 3 else "latin-1"
    with open(path, encoding=encoding, errors="replace", newline=None) as fh:
        yield from fh


#: Text that looks like moves or move numbers (``1.``, ``32-28``, ``28x19``).
_MOVE_HINT = re.compile(r"\d\s*[-x.]")


def split_games(lines: Iterable[str]) -> Iterator[str]:
    """Split PDN lines into games: a new game starts at a tag line after movetext.

    Used only for py-draughts, whose reader takes one game as a string.  It streams
    (one game held at a time), so the harness adds no memory that grows with the
    file, and it is one simple pass so it costs little next to the parsing it feeds.
    """
    current: list[str] = []
    in_tags = False
    has_moves = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("["):
            if not in_tags and has_moves:
                yield "".join(current)
                current, has_moves = [], False
            in_tags = True
            if _MOVE_HINT.search(stripped, stripped.rfind("]") + 1):
                # Tags and movetext on one line (some files write a game per line).
                in_tags, has_moves = False, True
        elif stripped:
            in_tags = False
            has_moves = True
        current.append(line)
    if any(part.strip() for part in current):
        yield "".join(current)


# --------------------------------------------------------------------------- runners


def _runner_ours_pure() -> tuple[Runner, dict[str, Any]]:
    """Ours with lark-cython made unimportable, so lark's pure-Python parser runs."""
    sys.modules["lark_cython"] = None  # type: ignore[assignment]
    return _runner_ours()


def close(game: Any) -> None:
    """Free a game at once, as ``pdn validate`` does (``Game.close``: its parent links
    are cycles); older versions had no cycles and no ``close``."""
    closing = getattr(game, "close", None)
    if closing is not None:
        closing()


def _runner_ours() -> tuple[Runner, dict[str, Any]]:
    import pdn_tools

    read_games = pdn_tools.read_games

    def run(paths: list[str]) -> Counts:
        games = plies = issues = 0
        for path in paths:
            for game in read_games(path):
                games += 1
                plies += game.plies
                issues += len(game.issues)
                close(game)
        return games, plies, 0, [], {"issues": issues}

    version = getattr(pdn_tools, "__version__", "checkout")
    try:  # which build runs: compiled or pure Python (absent in older versions)
        from pdn_tools.version import build

        built: str | None = build()
    except Exception:
        built = None
    try:  # internal helper of the reader; absent in other versions
        from pdn_tools.pdn.grammar import uses_cython

        cython: bool | None = uses_cython()
    except Exception:
        cython = None
    return run, {
        "api": "pdn_tools.read_games(path); game.plies",
        "version": version,
        "build": built,
        "lark_cython": cython,
    }


def _runner_ours_validate() -> tuple[Runner, dict[str, Any]]:
    """Ours reading *and* replaying every game: the work ``pdn validate`` does."""
    import pdn_tools
    from pdn_tools.replay import replay_game

    read_games = pdn_tools.read_games

    def run(paths: list[str]) -> Counts:
        games = plies = issues = unreplayed = 0
        for path in paths:
            for game in read_games(path):
                result = replay_game(game)
                games += 1
                plies += result.plies
                issues += len(game.issues)
                unreplayed += result.skipped is not None
                close(game)
        return games, plies, 0, [], {"issues": issues, "not_replayed": unreplayed}

    runner, info = _runner_ours()
    del runner
    return run, {
        **info,
        "api": "pdn_tools.read_games(path) + pdn_tools.replay.replay_game(game) (parse + replay)",
    }


def _runner_ours_api() -> tuple[Runner, dict[str, Any]]:
    """``pdn_tools.validate(path)`` as the docs show it: every game read and replayed,
    counted and dropped, never closed."""
    import pdn_tools

    def run(paths: list[str]) -> Counts:
        games = plies = issues = 0
        for path in paths:
            for game in pdn_tools.validate(path):
                games += 1
                plies += game.plies
                issues += len(game.issues)
        return games, plies, 0, [], {"issues": issues}

    runner, info = _runner_ours()
    del runner
    return run, {**info, "api": "for game in pdn_tools.validate(path) (parse + replay, no close)"}


def _runner_py_draughts_scan() -> tuple[Runner, dict[str, Any]]:
    """py-draughts' ``from_pdn`` with its replay made a no-op: its scan of the text
    alone (tags, comments, variations, results, move tokens), the work that compares
    with our parse.  The board classes are subclassed with ``push_uci``/``push``
    doing nothing and no legal moves; a game whose capture path is longer than two
    squares ends with py-draughts' "No unique legal capture" after the scan, and is
    counted (the scan was done)."""
    import draughts  # type: ignore[import-not-found, unused-ignore]

    def scan_only(cls: Any) -> Any:
        class ScanOnly(cls):  # type: ignore[misc, valid-type]
            scanned = 0

            def push_uci(self, str_move: str) -> None:
                ScanOnly.scanned += 1

            def push(self, move: Any, is_finished: bool = True) -> None:
                ScanOnly.scanned += 1

            @property
            def legal_moves(self) -> list[Any]:
                return []

        return ScanOnly

    classes = [
        draughts.StandardBoard,
        draughts.AmericanBoard,
        draughts.RussianBoard,
        draughts.BrazilianBoard,
        draughts.FrisianBoard,
    ]
    by_type = {cls.GAME_TYPE: scan_only(cls) for cls in classes}
    gametype = re.compile(r'\[\s*GameType\s+"\s*(\d+)')

    def run(paths: list[str]) -> Counts:
        games = failed = 0
        errors: list[str] = []
        for cls in by_type.values():
            cls.scanned = 0
        for path in paths:
            for text in split_games(_lines(path)):
                match = gametype.search(text)
                cls = by_type.get(int(match.group(1)) if match else 20)
                if cls is None:
                    failed += 1
                    continue
                try:
                    cls.from_pdn(text)
                except ValueError as exc:
                    if "No unique legal capture" not in str(exc):
                        failed += 1
                        if len(errors) < _MAX_ERRORS:
                            errors.append(f"{Path(path).name}: {exc}"[:200])
                        continue
                games += 1
        plies = sum(cls.scanned for cls in by_type.values())
        return games, plies, failed, errors, {}

    return run, {
        "api": "split at tag sections + <Board>.from_pdn(text) with a no-op replay (scan only)",
        "version": draughts.__version__,
    }


def _runner_py_draughts() -> tuple[Runner, dict[str, Any]]:
    import draughts  # type: ignore[import-not-found, unused-ignore]

    classes = [
        draughts.StandardBoard,
        draughts.AmericanBoard,
        draughts.RussianBoard,
        draughts.BrazilianBoard,
        draughts.FrisianBoard,
    ]
    by_type = {cls.GAME_TYPE: cls for cls in classes}
    gametype = re.compile(r'\[\s*GameType\s+"\s*(\d+)')

    def run(paths: list[str]) -> Counts:
        games = plies = failed = 0
        errors: list[str] = []
        unsupported: dict[str, int] = {}
        for path in paths:
            for text in split_games(_lines(path)):
                match = gametype.search(text)
                number = int(match.group(1)) if match else 20
                cls = by_type.get(number)
                if cls is None:
                    failed += 1
                    unsupported[str(number)] = unsupported.get(str(number), 0) + 1
                    continue
                try:
                    board = cls.from_pdn(text)
                except Exception as exc:
                    failed += 1
                    if len(errors) < _MAX_ERRORS:
                        errors.append(f"{Path(path).name}: {type(exc).__name__}: {exc}"[:200])
                    continue
                games += 1
                plies += len(board._moves_stack)
        return games, plies, failed, errors, {"unsupported_gametypes": unsupported}

    return run, {
        "api": "split at tag sections + <Board>.from_pdn(text) (parse + replay)",
        "version": draughts.__version__,
    }


def _runner_pydraughts() -> tuple[Runner, dict[str, Any]]:
    import draughts  # type: ignore[import-not-found, unused-ignore]
    from draughts.PDN import PDNReader  # type: ignore[import-not-found, unused-ignore]

    def run(paths: list[str]) -> Counts:
        games = plies = failed = 0
        errors: list[str] = []
        for path in paths:
            try:
                reader = PDNReader(filename=path)
            except Exception as exc:
                failed += 1
                if len(errors) < _MAX_ERRORS:
                    errors.append(f"{Path(path).name}: {type(exc).__name__}: {exc}"[:200])
                continue
            games += len(reader.games)
            plies += sum(len(game.moves) for game in reader.games)
        return games, plies, failed, errors, {"failed_unit": "file"}

    return run, {
        "api": "draughts.PDN.PDNReader(filename=path).games (parse only)",
        "version": draughts.__version__,
    }


def _runner_dame() -> tuple[Runner, dict[str, Any]]:
    import dame  # type: ignore[import-not-found, unused-ignore]

    def run(paths: list[str]) -> Counts:
        failed = 0
        errors: list[str] = []
        positions = 0
        for path in paths:
            try:
                book = dame.OpeningBook.from_file(path, plies=1_000_000)
            except Exception as exc:
                failed += 1
                if len(errors) < _MAX_ERRORS:
                    errors.append(f"{Path(path).name}: {type(exc).__name__}: {exc}"[:200])
                continue
            positions += len(book)
        return None, None, failed, errors, {"book_positions": positions, "failed_unit": "file"}

    return run, {
        "api": "dame.OpeningBook.from_file(path, plies=1_000_000) (parse + replay, 10x10 only)",
        "version": dame.__version__,
    }


RUNNERS: dict[str, Callable[[], tuple[Runner, dict[str, Any]]]] = {
    "ours": _runner_ours,
    "ours-pure": _runner_ours_pure,
    "ours-validate": _runner_ours_validate,
    "ours-compiled": _runner_ours,
    "ours-validate-compiled": _runner_ours_validate,
    "ours-api": _runner_ours_api,
    "ours-api-compiled": _runner_ours_api,
    "py-draughts": _runner_py_draughts,
    "py-draughts-scan": _runner_py_draughts_scan,
    "pydraughts": _runner_pydraughts,
    "dame-rs": _runner_dame,
}


def measure(
    impl: str, paths: list[str], repeat: int, budget: float | None = None
) -> dict[str, Any]:
    """Run *impl* on *paths* up to *repeat* times; timings, counts and memory as a dict.

    Repeats stop early once *budget* seconds of parsing have been spent, so that a
    very slow reader is measured once instead of holding the shared machine.
    """
    run, info = RUNNERS[impl]()
    size = sum(Path(p).stat().st_size for p in paths)
    gc.collect()
    rss_before = _status("VmRSS")
    peak_reset = _reset_peak()
    times: list[float] = []
    counts: Counts | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        counts = run(paths)
        times.append(time.perf_counter() - start)
        sys.stderr.write(f"peer_parse: {impl}: {times[-1]:.3f}s\n")
        if budget is not None and sum(times) > budget:
            break
    assert counts is not None
    games, plies, failed, errors, extra = counts
    return {
        "impl": impl,
        **info,
        "python": sys.version.split()[0],
        "files": len(paths),
        "bytes": size,
        "games": games,
        "plies": plies,
        "failed": failed,
        "errors": errors,
        "extra": extra,
        "times": times,
        "best_s": min(times),
        "rss_before_kb": rss_before,
        "peak_kb": _status("VmHWM"),
        "peak_reset": peak_reset,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line; prints one JSON object, or ``{"error": ...}`` when the reader fails."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--impl", choices=sorted(RUNNERS), required=True)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (3)")
    parser.add_argument(
        "--budget", type=float, default=None, help="no further repeat after this many seconds"
    )
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    try:
        result = measure(args.impl, args.files, max(1, args.repeat), args.budget)
    except Exception as exc:
        result = {"impl": args.impl, "error": f"{type(exc).__name__}: {exc}"[:500]}
    sys.stdout.write(json.dumps(result) + "\n")
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    raise SystemExit(main())
