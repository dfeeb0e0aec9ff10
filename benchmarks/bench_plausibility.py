"""Implausible moves (W70): recall on planted legal-to-the-end slips, false alarms on
the same games clean, over thresholds.

Why: a slip that leaves every move legal (a digit transposed into another legal move)
cannot be proved by the replay; ``pdn_tools.analysis.plausibility`` doubts a move
that loses to a shot the opponent then ignores, when a slip of the model explains it.
This benchmark takes real tournament games of the shared corpus (international and
English, ``planting.sources``), plants in each one slip of the kinds that can leave a
move legal (off by one, digits transposed, from and to swapped, a capture's route),
at random plies until the planted record replays to its end without an error (a
legal-to-the-end error), and measures, for each threshold:

* **recall**: planted records whose planted ply is flagged (and, of those, with the
  original move named first);
* **false alarms**: flags per 100 clean games (the same games as played), and flags
  at other plies of the planted records.

Every game is examined once at the lowest threshold (``doubts(..., floor=…)`` keeps
what each threshold needs), with the built-in searcher at a fixed node budget.

Usage::

    python3 benchmarks/bench_plausibility.py [--per-variant 100] [--nodes 1000]
        [--seed 7] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import planting  # noqa: E402

from pdn_tools import validate_string  # noqa: E402
from pdn_tools.analysis.engines import EngineChoice  # noqa: E402
from pdn_tools.analysis.plausibility import (  # noqa: E402
    PlausibilityOptions,
    _Judge,
    _main_line,
    doubts,
)
from pdn_tools.replay.validate import GameReplay  # noqa: E402

THRESHOLDS = (50, 100, 150, 200, 250, 300, 400, 500)
HEADER = (
    "| threshold | planted slips that lose this much | recall | original named "
    "| false alarms / 100 clean games | other plies flagged / 100 planted |\n"
    "|---|---|---|---|---|---|"
)
KINDS = (planting.OFF_BY_ONE, planting.TRANSPOSITION, planting.SWAPPED, planting.CAPTURE_ROUTE)


def _examine(text: str, options: PlausibilityOptions, floor: int) -> list[dict[str, Any]]:
    [game] = validate_string(text)
    state = game.replay_state
    if game.status == "error" or not isinstance(state, GameReplay) or state.result is None:
        return []
    _, _, found = doubts(game, state.result, options, floor=floor)
    out = []
    for doubt in found:
        out.append(
            {
                "ply": doubt.index + 1,
                "lost": doubt.lost,
                "options": [
                    {
                        "cost": o[0],
                        "prior": o[1],
                        "sound": o[2],
                        "move": o[3].from_sq * 1000 + o[3].to_sq,
                    }
                    for o in doubt.options
                ],
            }
        )
    return out


def _slip_loss(text: str, ply: int, options: PlausibilityOptions) -> int | None:
    """What the planted move loses against the best move (None: the last ply, which
    no reply follows)."""
    [game] = validate_string(text)
    state = game.replay_state
    assert isinstance(state, GameReplay) and state.result is not None
    variant, plies = _main_line(game, state.result, None)
    if variant is None or ply >= len(plies):
        return None
    judge = _Judge(variant, options.engine)
    return judge.loss(plies[ply - 1].before, plies[ply - 1].move)


def _flags(found: list[dict[str, Any]], threshold: int) -> list[dict[str, Any]]:
    out = []
    for doubt in found:
        if doubt["lost"] < threshold:
            continue
        qualified = [o for o in doubt["options"] if o["cost"] < threshold]
        if qualified:
            qualified.sort(key=lambda o: (-o["prior"], o["sound"]))
            out.append({"ply": doubt["ply"], "first": qualified[0]["move"]})
    return out


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
    report: dict[str, Any] = {"nodes": args.nodes, "seed": args.seed, "variants": {}}
    for variant in sorted(by_variant):
        games = list(by_variant[variant])
        rng.shuffle(games)
        rows: list[dict[str, Any]] = []
        for source in games[: args.per_variant]:
            planted = _plant(source, rng)
            clean = _examine(planting._record(source, source.texts), options, floor)
            row: dict[str, Any] = {"plies": len(source.texts), "clean": clean}
            if planted is not None:
                original = source.moves[planted.ply - 1]
                row["planted"] = {
                    "ply": planted.ply,
                    "kind": planted.kind,
                    "original": original.from_sq * 1000 + original.to_sq,
                    "found": _examine(planted.record(), options, floor),
                    "loss": _slip_loss(planted.record(), planted.ply, options),
                }
            rows.append(row)
            print(variant, len(rows), f"{time.monotonic() - started:.0f}s", file=sys.stderr)
        table = []
        for threshold in THRESHOLDS:
            false_clean = sum(len(_flags(r["clean"], threshold)) for r in rows)
            planted_rows = [r["planted"] for r in rows if "planted" in r]
            hit = named = elsewhere = 0
            ceiling = sum(1 for p in planted_rows if (p["loss"] or 0) >= threshold)
            for p in planted_rows:
                flags = _flags(p["found"], threshold)
                at = [f for f in flags if f["ply"] == p["ply"]]
                hit += bool(at)
                named += bool(at and at[0]["first"] == p["original"])
                elsewhere += len(flags) - len(at)
            table.append(
                {
                    "threshold": threshold,
                    "games": len(rows),
                    "planted": len(planted_rows),
                    "recall": hit / len(planted_rows) if planted_rows else 0.0,
                    "losing": ceiling / len(planted_rows) if planted_rows else 0.0,
                    "last_ply": sum(1 for p in planted_rows if p["loss"] is None),
                    "named": named / len(planted_rows) if planted_rows else 0.0,
                    "false_per_100": 100 * false_clean / len(rows) if rows else 0.0,
                    "elsewhere_per_100": 100 * elsewhere / len(planted_rows)
                    if planted_rows
                    else 0.0,
                }
            )
        report["variants"][variant] = {"rows": rows, "table": table}
    report["seconds"] = time.monotonic() - started
    for variant, data in report["variants"].items():
        print(
            f"\n{variant}: {data['table'][0]['games']} games, {data['table'][0]['planted']} "
            f"planted ({data['table'][0]['last_ply']} at the last ply)"
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
