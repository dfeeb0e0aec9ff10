"""The search for the mis-recorded move: how often it names the slip, and what it costs.

Why: a record that stops replaying at ply *n* was usually mis-written earlier; the
replay searches single edits back from *n* (``pdn_tools.replay.misrecord``).  This
benchmark plants every kind of the transcription-error model (``planting.py``) at a
random ply of real games of the shared corpus — international, English, Italian,
Russian, Brazilian — and measures:

* **accuracy**: for each planted game that breaks, whether the planted ply and the
  original move are named as the unique best edit (``unique``), listed among tied
  edits (``listed``), or whether the answer is a tie without them (``tie``), another
  edit named as unique (``wrong``) or no edit (``none``); for all games that break and
  for those that break after the planted ply;
* **cost**: games/s of ``read_games`` + ``replay_game`` on a file where every game
  carries one planted slip (and breaks) against the same games clean, best of
  ``--repeat``; the search time per broken game (replay with the search minus replay
  without it, best of 3 each) and the plies each search replayed;
* **repair**: ``pdn convert --repair`` on the broken file, whose output must validate
  without an error, each repaired move with its comment.

Usage::

    python3 benchmarks/bench_misrecorded.py [--per-variant 400] [--seed 3] [--repeat 3]
        [--compiled] [--install] [--markdown PATH]

``--compiled`` runs the timing with our compiled build (``benchmarks/.venvs/
ours-compiled``, ``--install`` rebuilds it from the checkout); the accuracy table is
the same for both builds (their outputs are identical).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
OUTCOMES = ("unique", "listed", "tie", "wrong", "none")


def _child(clean: str, broken: str, repeat: int) -> dict[str, Any]:
    """Time both files in this process (the build this interpreter imports)."""
    if os.environ.get("PDN_BENCH_CHECKOUT"):
        sys.path.insert(0, str(ROOT))
    from pdn_tools.pdn.reader import read_games, read_string
    from pdn_tools.replay import ReplayOptions, replay_game
    from pdn_tools.version import build

    def rate(path: str) -> tuple[float, int]:
        best, games = float("inf"), 0
        for _ in range(repeat):
            start = time.perf_counter()
            games = 0
            for game in read_games(path):
                replay_game(game)
                game.close()
                games += 1
            best = min(best, time.perf_counter() - start)
        return games / best, games

    clean_rate, games = rate(clean)
    broken_rate, _ = rate(broken)
    off = ReplayOptions(repair_hints=False)
    on = ReplayOptions()
    searches: list[float] = []
    plies: list[int] = []
    text = Path(broken).read_text(encoding="utf-8")
    for record in re.split(r"\n\n(?=\[GameType)", text):
        timing = []
        searched = 0
        for options in (on, off):
            best = float("inf")
            for _ in range(3):
                [game] = read_string(record)
                start = time.perf_counter()
                result = replay_game(game, options)
                best = min(best, time.perf_counter() - start)
                if options is on:
                    searched = result.searched
            timing.append(best)
        searches.append(max(0.0, timing[0] - timing[1]) * 1000)
        plies.append(searched)
    return {
        "build": build(),
        "games": games,
        "clean_games_per_s": clean_rate,
        "broken_games_per_s": broken_rate,
        "search_ms": sorted(searches),
        "search_plies": sorted(plies),
    }


def _percentiles(values: list[Any]) -> str:
    if not values:
        return "n/a"
    n = len(values)
    pick = [values[min(n - 1, int(n * q))] for q in (0.5, 0.9, 0.99)]
    fmt = (lambda v: f"{v:.2f}") if isinstance(values[0], float) else str
    return " / ".join(fmt(v) for v in [*pick, values[-1]])


def _table(verdicts: list[Any]) -> list[str]:
    from planting import KINDS

    rows: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for v in verdicts:
        key = (v.planted.source.variant, v.planted.kind)
        rows[key]["planted"] += 1
        if not v.breaks:
            rows[key]["silent"] += 1
            continue
        rows[key]["breaks"] += 1
        rows[key][v.outcome] += 1
        if v.later:
            rows[key]["later"] += 1
            rows[key]["later-" + v.outcome] += 1
    out = [
        "| variant | kind | planted | silent | break | later | unique | listed | tie | wrong "
        "| none |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    variants = sorted({k[0] for k in rows})
    for variant in variants:
        for kind in KINDS:
            c = rows.get((variant, kind))
            if not c:
                continue
            out.append(
                f"| {variant} | {kind} | {c['planted']} | {c['silent']} | {c['breaks']} | "
                f"{c['later']} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |"
            )
    return out


def _rates(verdicts: list[Any], later: bool) -> tuple[int, dict[str, float]]:
    chosen = [v for v in verdicts if v.breaks and (v.later or not later)]
    counts = Counter(v.outcome for v in chosen)
    n = max(1, len(chosen))
    rates = {o: 100 * counts[o] / n for o in OUTCOMES}
    rates["among candidates"] = rates["unique"] + rates["listed"]
    return len(chosen), rates


def _convert_repair(broken: Path, python: list[str]) -> str:
    """``pdn convert --repair`` of the broken file; the output validated again."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "repaired.pdn"
        rejects = Path(tmp) / "rejects.pdn"
        done = subprocess.run(
            [*python, "-m", "pdn_tools", "convert", str(broken), "-o", str(out), "--repair",
             "--rejects", str(rejects)],
            capture_output=True, text=True,
        )  # fmt: skip
        summary = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        check = subprocess.run(
            [*python, "-m", "pdn_tools", "validate", str(out), "--format", "jsonl"],
            capture_output=True, text=True,
        )  # fmt: skip
        records = [json.loads(line) for line in check.stdout.splitlines()]
        errors = sum(r["status"] == "error" for r in records)
        text = out.read_text(encoding="utf-8")
        comments = len(re.findall(r"\{repaired: ", text))
        return (
            f"`pdn convert --repair`: {summary}; the {len(records)} games written validate "
            f"with {errors} error(s); {comments} repair comments"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-variant", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compiled", action="store_true", help="time our compiled build")
    parser.add_argument("--install", action="store_true", help="(re)build the compiled build")
    parser.add_argument("--markdown", type=Path, default=None, help="write the tables here")
    parser.add_argument("--child", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child[0], args.child[1], args.repeat)))
        return 0
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT))
    from peers import ensure_compiled
    from planting import judge, planted_set, sources

    env = os.environ.get("PDN_SHARED_CORPUS")
    corpus = Path(env) if env else ROOT.parent / "shared" / "corpus"
    if not corpus.is_dir():
        print(f"bench_misrecorded: no shared corpus at {corpus}", file=sys.stderr)
        return 1
    started = time.perf_counter()
    games = sources(corpus)
    print(
        "sources: " + ", ".join(f"{v} {len(g)}" for v, g in games.items())
        + f" usable games ({time.perf_counter() - started:.0f} s)",
        file=sys.stderr,
    )  # fmt: skip
    verdicts = [judge(p) for p in planted_set(games, args.per_variant, args.seed)]
    hard = [judge(p) for p in planted_set(games, args.per_variant, args.seed, legal_only=True)]
    lines = [f"Planted: {len(verdicts)} records, seed {args.seed}, "
             f"{args.per_variant} games per variant at most.", ""]  # fmt: skip
    lines += _table(verdicts)
    lines += ["", "| games that break | n | unique | among candidates | tie | wrong | none |",
              "|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name, chosen, later in (
        ("slips at random plies: all", verdicts, False),
        ("slips at random plies: break after the slip", verdicts, True),
        ("legal slips only (break later or never)", hard, False),
    ):
        n, r = _rates(chosen, later)
        lines.append(
            f"| {name} | {n} | {r['unique']:.1f} % | {r['among candidates']:.1f} % | "
            f"{r['tie']:.1f} % | {r['wrong']:.2f} % | {r['none']:.1f} % |"
        )
    lines += ["", "Legal slips only, per variant and kind:", "", *_table(hard)]
    DATA.mkdir(exist_ok=True)
    broken = DATA / "misrecorded-broken.pdn"
    clean = DATA / "misrecorded-clean.pdn"
    kept = [v for v in verdicts if v.breaks]
    broken.write_text("".join(v.planted.record() for v in kept), encoding="utf-8")
    clean.write_text("".join(v.planted.clean() for v in kept), encoding="utf-8")
    python = [sys.executable]
    env_child = {**os.environ, "PDN_BENCH_CHECKOUT": "1"}
    if args.compiled:
        compiled = ensure_compiled(reinstall=args.install)
        if compiled is None:
            return 1
        python = ["env", "PYTHONSAFEPATH=1", str(compiled)]
        env_child = dict(os.environ)
    done = subprocess.run(
        [*python, __file__, "--repeat", str(args.repeat), "--child", str(clean), str(broken)],
        capture_output=True, text=True, check=True, env=env_child,
    )  # fmt: skip
    timing = json.loads(done.stdout)
    ratio = timing["broken_games_per_s"] / timing["clean_games_per_s"]
    lines += [
        "",
        f"Build: {timing['build']}; {timing['games']:,} games, every one broken by one "
        "planted slip, against the same games clean (read + replay, best of "
        f"{args.repeat}):",
        "",
        "| file | games/s |",
        "|---|---:|",
        f"| clean | {timing['clean_games_per_s']:,.0f} |",
        f"| every game broken | {timing['broken_games_per_s']:,.0f} |",
        f"| ratio | **{ratio:.2f}** |",
        "",
        "Search per broken game (p50 / p90 / p99 / max): "
        f"{_percentiles(timing['search_ms'])} ms; plies replayed "
        f"{_percentiles(timing['search_plies'])}.",
        "",
    ]
    check_python = python if args.compiled else [sys.executable]
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    lines.append(_convert_repair(broken, check_python) + ".")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
