"""Like-for-like ratios against the peers, contenders interleaved, in one run.

Each round runs every contender once on every file set, in a fresh child process
(``peer_parse.py --repeat 1``), the contenders' order rotating from round to round, so
that a change in the machine's load touches all of them alike; each ratio is taken
within a round (the peer's time over ours on the same bytes in the same round), and
the table gives the median over the rounds with the smallest and largest value.  On a
machine shared with other work, ratios suffer less than absolute times.

Which work is compared with which (ratio = the peer's time / ours):

* **parse** — ours: ``pdn_tools.read_games`` (``ours-compiled``); py-draughts:
  its ``from_pdn`` scan with the replay made a no-op (``py-draughts-scan``).
* **parse + replay** — ours: ``for game in pdn_tools.validate(path)`` as the docs show
  it, games never closed (``ours-api-compiled``); py-draughts: ``from_pdn`` (scan and
  replay); dame-rs: ``OpeningBook.from_file`` (parse and replay of every game; it
  reads GameType 20 only and refuses a whole file at a move it finds ambiguous, n/a
  there).

Every contender reads the same bytes: the real sets are written once into
``benchmarks/data/ratios/`` with their results spelled as dame-rs reads them
(``1-0`` → ``2-0``, ``0-1`` → ``0-2``, ``1/2-1/2`` → ``1-1``, the international
spellings, in tags and movetext alike), which changes no one's work.

``--whole N`` adds a third table: whole processes, interpreter start-up and imports
included, on the generated set — ``pdn validate FILE --format jsonl`` against
py-draughts' and dame-rs' children reading and replaying the same file — N rounds.

``--before PYTHON`` adds our build of another commit (a virtualenv's interpreter with
that wheel installed) as ``before:<contender>``, measured in the same rounds, so that
before and after come from one run.

    python3 benchmarks/bench_ratios.py --rounds 5 --markdown /tmp/ratios.md
    python3 benchmarks/bench_ratios.py --before /tmp/before/bin/python --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_parse import DATA, FileSet, corpus_root, corpus_sets, generated_sets  # noqa: E402
from peers import ensure_compiled, python_of  # noqa: E402

PEER_SCRIPT = HERE / "peer_parse.py"

#: table -> (our contender, [(peer contender, what the peer's call does)])
TABLES: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "parse": ("ours-compiled", [("py-draughts-scan", "its scan alone")]),
    "parse + replay": (
        "ours-api-compiled",
        [("py-draughts", "scan and replay"), ("dame-rs", "parse and replay (Rust)")],
    ),
}


_RESULTS = re.compile(r"(?<![\w/.-])(1/2-1/2|1-0|0-1)(?![\w/-])")
_SPELLING = {"1/2-1/2": "1-1", "1-0": "2-0", "0-1": "0-2"}


def _respelled(fileset: FileSet) -> FileSet:
    """*fileset* in one file whose results are spelled ``2-0``, ``0-2``, ``1-1``."""
    target = DATA / "ratios" / f"{fileset.name}.pdn"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8", newline="") as out:
        for path in fileset.files:
            text = path.read_bytes().decode("utf-8", "surrogateescape")
            out.write(_RESULTS.sub(lambda m: _SPELLING[m.group(1)], text).rstrip() + "\n\n")
    return FileSet(fileset.name, [target], fileset.note)


def _mobydam() -> list[FileSet]:
    files = sorted((corpus_root() / "rhalbersma__mobydam" / "book" / "games").glob("*.pdn"))
    return [FileSet("mobydam", files, "10x10, 26 files of book games")] if files else []


def _python(contender: str, before: Path | None) -> Path:
    if contender.startswith("before:") and before is not None:
        assert before is not None
        return before
    if contender.startswith("ours"):
        built = ensure_compiled()
        if built is None:
            raise SystemExit("bench_ratios: the compiled build failed")
        return built
    return python_of(contender.removesuffix("-scan"))  # py-draughts-scan: py-draughts'


def _run(contender: str, python: Path, files: list[Path]) -> dict[str, Any]:
    impl = contender.removeprefix("before:")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONSAFEPATH"] = "1"
    done = subprocess.run(
        [str(python), str(PEER_SCRIPT), "--impl", impl, "--repeat", "1", *map(str, files)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    line = (done.stdout.strip().splitlines() or ["{}"])[-1]
    result: dict[str, Any] = json.loads(line)
    return result


_WHOLE = ["ours-cli", "py-draughts", "dame-rs"]


def _whole_process(contender: str, python: Path, files: list[Path]) -> float:
    """Wall time of one whole process doing the work on *files*."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONSAFEPATH"] = "1"
    if contender == "ours-cli":
        cmd = [str(python), "-m", "pdn_tools", "validate", *map(str, files), "--format", "jsonl"]
    else:
        cmd = [str(python), str(PEER_SCRIPT), "--impl", contender, "--repeat", "1"]
        cmd += map(str, files)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _whole(result: dict[str, Any], reference: dict[str, Any] | None) -> bool:
    """Whether a run did the whole set's work (no error, no game lost or refused)."""
    if "error" in result or result.get("failed"):
        return False
    if reference is None or result.get("games") is None:
        return "error" not in result
    return bool(result["games"] == reference.get("games"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", type=Path, help="interpreter of another build of ours")
    parser.add_argument("--whole", type=int, default=0, help="rounds of whole processes (0)")
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--sets", default="", help="comma-separated set names (all)")
    parser.add_argument("--json", type=Path, default=HERE / "results" / "ratios.json")
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)

    real = [s for s in corpus_sets(quick=False) if s.name != "ci2010-italian"] + _mobydam()
    sets = [_respelled(s) for s in real]
    sets.append(generated_sets(args.games, args.seed, regenerate=False)[0])
    if args.sets:
        wanted = set(args.sets.split(","))
        sets = [s for s in sets if s.name in wanted]
    tables = {name: TABLES[name] for name in args.tables.split(",")}
    contenders: list[str] = []
    for ours, peers in tables.values():
        contenders += [ours] + ([f"before:{ours}"] if args.before else [])
        contenders += [peer for peer, _ in peers]
    contenders = list(dict.fromkeys(contenders))
    pythons = {c: _python(c, args.before) for c in contenders}

    load_start = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    # runs[set][contender] = list of results, one per round
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {s.name: {} for s in sets}
    for round_no in range(args.rounds):
        shift = round_no % len(contenders)
        order = contenders[shift:] + contenders[:shift]
        for fileset in sets:
            for contender in order:
                result = _run(contender, pythons[contender], fileset.files)
                runs[fileset.name].setdefault(contender, []).append(result)
                took = result.get("best_s")
                print(
                    f"round {round_no + 1} {fileset.name} {contender}: "
                    f"{took if took is None else round(took, 3)}",
                    file=sys.stderr,
                    flush=True,
                )
    whole: dict[str, list[float]] = {}
    generated = sets[-1]
    for round_no in range(args.whole):
        order = [c for c in _WHOLE if c.startswith("ours") or c in contenders]
        order += [f"before:{c}" for c in order if c.startswith("ours") and args.before]
        shift = round_no % len(order)
        for contender in order[shift:] + order[:shift]:
            python = args.before if contender.startswith("before:") else _python(contender, None)
            assert python is not None
            took = _whole_process(contender.removeprefix("before:"), python, generated.files)
            whole.setdefault(contender, []).append(took)
            print(f"whole {round_no + 1} {contender}: {took:.3f}", file=sys.stderr, flush=True)
    load_end = os.getloadavg()

    lines = [
        f"`bench_ratios.py --rounds {args.rounds}` started {started}, load average "
        f"{load_start[0]:.1f} at the start, {load_end[0]:.1f} at the end; medians of the "
        "rounds with [min–max]; ratio = peer's time / ours in the same round.",
        "",
    ]
    for table, (ours, peers) in tables.items():
        ours_list = [ours] + ([f"before:{ours}"] if args.before else [])
        header = ["file set"] + [f"{c} s" for c in ours_list]
        for peer, what in peers:
            header += [f"{peer} ({what}) s"] + [f"{peer} ÷ {c}" for c in ours_list]
        lines += [f"**{table}**", "", "| " + " | ".join(header) + " |"]
        lines.append("|" + "---|" * len(header))
        for fileset in sets:
            results = runs[fileset.name]
            reference = results[ours][0]
            row = [f"{fileset.name} ({reference.get('games')} games)"]
            for c in ours_list:
                row.append(_spread([r.get("best_s") for r in results[c]], 3))
            for peer, _ in peers:
                peer_runs = results[peer]
                if not all(_whole(r, reference) for r in peer_runs):
                    why = peer_runs[0].get("error") or (
                        f"{peer_runs[0].get('failed')} refused / {peer_runs[0].get('games')} games"
                    )
                    row += [f"n/a ({str(why)[:60]})"] + ["n/a"] * len(ours_list)
                    continue
                row.append(_spread([r["best_s"] for r in peer_runs], 3))
                for c in ours_list:
                    pairs = zip(peer_runs, results[c], strict=True)
                    ratios = [p["best_s"] / o["best_s"] for p, o in pairs]
                    row.append(_spread(ratios, 2, bold=True))
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    if whole:
        ours_list = ["ours-cli"] + (["before:ours-cli"] if args.before else [])
        lines += [
            f"**whole process** ({generated.name}: start-up, imports and the work; "
            "ours: `pdn validate FILE --format jsonl`)",
            "",
            "| contender | s | " + " | ".join(f"÷ {c}" for c in ours_list) + " |",
            "|---|---|" + "---|" * len(ours_list),
        ]
        for contender, times in whole.items():
            row = [contender, _spread(list(times), 3)]
            for c in ours_list:
                pairs = zip(times, whole[c], strict=True)
                row.append(_spread([t / o for t, o in pairs], 2, bold=True))
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"started": started, "runs": runs}, indent=1))
    return 0


def _spread(values: list[float | None], digits: int, bold: bool = False) -> str:
    known = [v for v in values if v is not None]
    if not known:
        return "n/a"
    median = f"{statistics.median(known):.{digits}f}"
    if bold:
        median = f"**{median}**"
    return f"{median} [{min(known):.{digits}f}–{max(known):.{digits}f}]"


if __name__ == "__main__":
    raise SystemExit(main())
