"""Implausible moves (W70): recall on planted legal-to-the-end slips, false alarms on
the same games clean, over thresholds.

Why: a slip that leaves every move legal (a digit transposed into another legal move)
cannot be proved by the replay; ``pdn_tools.analysis.plausibility`` doubts a move
when a slip of the model explains it and the recorded moves from it on lose far less
with the slip undone.  This benchmark takes real tournament games of the shared
corpus (international and English, ``planting.sources``), plants in each one slip of
the kinds that can leave a move legal (off by one, digits transposed, from and to
swapped, a capture's route), at random plies until the planted record replays to its
end without an error (a legal-to-the-end error), and measures, for each threshold:

* **recall**: planted records whose planted ply is flagged (and, of those, with the
  original move named first);
* **the ceiling**: planted records whose window loses at least the threshold as
  written (no candidate can explain away more than that);
* **false alarms**: flags per 100 clean games (the same games as played), and flags
  at other plies of the planted records;
* **the ambiguous plies** of the clean games: plies where another legal move, one
  slip away from the written one, replays to the end with a result that fits — the
  only plies a finding can name, so where every false alarm comes from;
* **the reach of an opening book**: how many planted slips stand at a position that
  other games of the collection (every usable game of the variant in the shared
  corpus, the game itself left out) also reached — the only slips that evidence from
  the other records (what the other players played there) could speak about.

Every game is examined once at the lowest threshold (``doubts(..., floor=…)`` keeps
what each threshold needs, ``select`` picks what each reports), with the built-in
searcher at a fixed node budget.

Usage::

    python3 benchmarks/bench_plausibility.py [--per-variant 100] [--nodes 1000]
        [--seed 7] [--json PATH]

It runs the checkout's code; ``PYTHONSAFEPATH=1 VENV/bin/python
benchmarks/bench_plausibility.py ...`` runs the build installed in VENV instead (the
compiled wheel: about five times faster, the same figures).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if not sys.flags.safe_path:  # PYTHONSAFEPATH: the interpreter's installed build instead
    sys.path.insert(0, str(ROOT))

import planting  # noqa: E402

from pdn_tools import validate_string  # noqa: E402
from pdn_tools.analysis.engines import EngineChoice  # noqa: E402
from pdn_tools.analysis.plausibility import (  # noqa: E402
    PlausibilityOptions,
    _Judge,
    _main_line,
    doubts,
    select,
    slip_candidates,
)
from pdn_tools.replay.slips import CAPTURE_ROUTE, OFF_BY_ONE, SWAPPED, TRANSPOSITION  # noqa: E402
from pdn_tools.replay.validate import GameReplay  # noqa: E402

THRESHOLDS = (50, 100, 150, 200, 250, 300, 350, 400, 500, 600)
HEADER = (
    "| threshold | planted slips whose window loses this much | recall | original named "
    "| false alarms / 100 clean games | other plies flagged / 100 planted |\n"
    "|---|---|---|---|---|---|"
)
KINDS = (OFF_BY_ONE, TRANSPOSITION, SWAPPED, CAPTURE_ROUTE)
BOOK_PLIES = 40
"""How deep the opening book goes: positions after more plies are never shared."""
BOOK_REACH = (5, 20)
"""Other games that must have reached a position for a book to speak about it."""


def _book(sources: list[planting.Source]) -> Counter[Any]:
    """How many games reach each position of their first :data:`BOOK_PLIES` plies
    (once per game)."""
    seen: Counter[Any] = Counter()
    for source in sources:
        seen.update(set(source.positions[:BOOK_PLIES]))
    return seen


def _reached_by_others(book: Counter[Any], source: planting.Source, ply: int) -> int:
    """How many other games of *book* reached the position before *ply* (1-based)."""
    if ply > BOOK_PLIES:
        return 0
    position = source.positions[ply - 1]
    return book[position] - (position in set(source.positions[:BOOK_PLIES]))


def _examine(text: str, options: PlausibilityOptions, floor: int) -> dict[str, Any] | None:
    """The doubts of one record at *floor*, and its ambiguous plies (:func:`_ambiguous`)."""
    [game] = validate_string(text)
    state = game.replay_state
    if game.status == "error" or not isinstance(state, GameReplay) or state.result is None:
        return None
    _, plies, found = doubts(game, state.result, options, floor=floor)
    flags = {
        str(threshold): [
            {"ply": doubt.index + 1, "first": _code(qualified[0].move)}
            for doubt, qualified in select(found, threshold, options.window)
        ]
        for threshold in THRESHOLDS
    }
    out = []
    for doubt in found:
        out.append(
            {
                "ply": doubt.index + 1,
                "lost": doubt.lost,
                "options": [
                    {
                        "cost": o.cost,
                        "prior": o.prior,
                        "sound": o.sound,
                        "move": _code(o.move),
                    }
                    for o in doubt.options
                ],
            }
        )
    return {
        "plies": len(plies),
        "doubts": out,
        "flags": flags,
        "ambiguous": _ambiguous(game, state.result),
        "losses": _written_losses(game, state.result, options),
    }


def _written_losses(game: Any, result: Any, options: PlausibilityOptions) -> list[int]:
    """What each recorded move loses as written (the searches are cached: free here)."""
    variant, plies = _main_line(game, result, None)
    if variant is None or not plies:
        return []
    line = [ply.before for ply in plies]
    line.append(plies[-1].before.apply(plies[-1].move))
    return _Judge(variant, options.engine).losses(line)


def _ambiguous(game: Any, result: Any) -> list[int]:
    """The plies (1-based) where another legal move, one slip of the model away from the
    written one, lets the game replay to its end with a result that fits: the only
    plies a W70 finding can name, whatever the engine says."""
    variant, plies = _main_line(game, result, None)
    if variant is None:
        return []
    return [
        index + 1
        for index in range(len(plies))
        if next(slip_candidates(game, plies, index, variant), None) is not None
    ]


def _window_loss(found: dict[str, Any] | None, ply: int, window: int) -> int:
    """What the window of *ply* loses as written: the ceiling of what any candidate can
    explain away there."""
    if found is None:
        return 0
    losses = found["losses"][ply - 1 : ply + window]
    return sum(loss for loss in losses if loss > 0)


def _flags(found: dict[str, Any] | None, threshold: int) -> list[dict[str, Any]]:
    """The plies flagged at *threshold* with the move named first."""
    return [] if found is None else list(found["flags"][str(threshold)])


def _code(move: Any) -> int:
    """A move as a number to compare (its from and to squares)."""
    return int(move.from_sq * 1000 + move.to_sq)


def _plant(source: planting.Source, rng: random.Random) -> planting.Planted | None:
    """One slip that leaves the record legal to its end (None: none found)."""
    kinds = list(KINDS)
    rng.shuffle(kinds)
    for _ in range(12):
        for kind in kinds:
            planted = planting.plant(source, kind, rng, legal_only=True)
            if planted is None:
                continue
            [game] = validate_string(planted.record())
            if game.status != "error":
                return planted
    return None


def _table(rows: list[dict[str, Any]], window: int) -> list[dict[str, Any]]:
    """Recall and false alarms at each threshold."""
    planted_rows = [r["planted"] for r in rows if "planted" in r]
    clean_rows = [r["clean"] for r in rows if r["clean"] is not None]
    table = []
    for threshold in THRESHOLDS:
        false_clean = sum(len(_flags(c, threshold)) for c in clean_rows)
        hit = named = elsewhere = ceiling = 0
        for p in planted_rows:
            flags = _flags(p["found"], threshold)
            at = [f for f in flags if f["ply"] == p["ply"]]
            hit += bool(at)
            named += bool(at and at[0]["first"] == p["original"])
            elsewhere += len(flags) - len(at)
            ceiling += _window_loss(p["found"], p["ply"], window) >= threshold
        share = len(planted_rows) or 1
        table.append(
            {
                "threshold": threshold,
                "games": len(rows),
                "planted": len(planted_rows),
                "recall": hit / share,
                "losing": ceiling / share,
                "last_ply": sum(1 for p in planted_rows if p["ply"] == p["plies"]),
                "named": named / share,
                "false_per_100": 100 * false_clean / (len(clean_rows) or 1),
                "elsewhere_per_100": 100 * elsewhere / share,
            }
        )
    return table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-variant", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    options = PlausibilityOptions(EngineChoice(nodes=args.nodes))
    floor = min(THRESHOLDS)
    started = time.monotonic()
    by_variant = planting.sources(args.corpus, ("international", "english"))
    rng = random.Random(args.seed)
    report: dict[str, Any] = {
        "nodes": args.nodes,
        "seed": args.seed,
        "window": options.window,
        "variants": {},
    }
    for variant in sorted(by_variant):
        games = list(by_variant[variant])
        book = _book(games)
        rng.shuffle(games)
        rows: list[dict[str, Any]] = []
        for source in games[: args.per_variant]:
            planted = _plant(source, rng)
            clean = _examine(source.record(), options, floor)
            row: dict[str, Any] = {"plies": len(source.texts), "clean": clean}
            if planted is not None:
                original = source.moves[planted.ply - 1]
                row["planted"] = {
                    "ply": planted.ply,
                    "plies": len(planted.texts),
                    "kind": planted.kind,
                    "original": _code(original),
                    "book": _reached_by_others(book, source, planted.ply),
                    "found": _examine(planted.record(), options, floor),
                }
            rows.append(row)
            print(variant, len(rows), f"{time.monotonic() - started:.0f}s", file=sys.stderr)
        report["variants"][variant] = {
            "rows": rows,
            "table": _table(rows, options.window),
            "book_games": len(games),
        }
    report["seconds"] = time.monotonic() - started
    for variant, data in report["variants"].items():
        rows = data["rows"]
        clean_rows = [r["clean"] for r in rows if r["clean"] is not None]
        ambiguous = sum(len(c["ambiguous"]) for c in clean_rows)
        with_any = sum(1 for c in clean_rows if c["ambiguous"])
        plies = sum(c["plies"] for c in clean_rows)
        first = data["table"][0]
        print(
            f"\n{variant}: {first['games']} games, {first['planted']} planted "
            f"({first['last_ply']} at the last ply); clean games: {plies} plies, "
            f"{ambiguous} ambiguous ({100 * ambiguous / max(1, len(clean_rows)):.1f} per 100 "
            f"games, in {with_any} games)"
        )
        planted_rows = [r["planted"] for r in rows if "planted" in r]
        reach = ", ".join(
            f"{sum(1 for p in planted_rows if p['book'] >= n)} at a position "
            f"{n} or more of them reached"
            for n in BOOK_REACH
        )
        print(
            f"opening book of the {data['book_games']} {variant} games: of the "
            f"{len(planted_rows)} planted slips, {reach}"
        )
        print(HEADER)
        for t in data["table"]:
            print(
                f"| {t['threshold']} | {t['losing']:.0%} | {t['recall']:.0%} | {t['named']:.0%} | "
                f"{t['false_per_100']:.1f} | {t['elsewhere_per_100']:.1f} |"
            )
    print(f"\n{report['seconds']:.0f} s", file=sys.stderr)
    if args.json is not None:
        args.json.write_text(json.dumps(report), encoding="utf-8")


if __name__ == "__main__":
    main()
