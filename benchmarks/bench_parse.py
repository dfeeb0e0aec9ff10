"""Parsing benchmark: our PDN reader side by side with the peer libraries, in one run.

Why: "fast and streaming" is a claim about pdn-tools that only a comparison on the
same files, on the same machine, at the same time, can support.  Every reader runs
in its own interpreter (``benchmarks/peer_parse.py``): peers in their virtualenvs
from ``benchmarks/peers.py`` (two of them import as ``draughts``), ours under
``python3`` with ``PYTHONPATH`` set to the checkout.  Times are measured inside the
child around the parse loop only (best of ``--repeat``), so interpreter start-up
and imports do not count.

File sets:

* real files from the shared corpus (``$PDN_SHARED_CORPUS`` or ``../shared/corpus``;
  read in place, never copied; skipped with a message when absent);
* ``generated``: N random legal ~100-ply international games written by
  ``gen_games.py`` (cached in ``benchmarks/data/``);
* ``generated-10x``: the same file repeated 10 times, read once, to see whether peak
  memory stays flat (a streaming reader) or grows with the file.

Usage::

    python3 benchmarks/bench_parse.py [--quick] [--repeat N] [--only ours,py-draughts]

Prints a table and writes ``benchmarks/results/parse.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from gen_games import generate  # noqa: E402
from peers import OURS_COMPILED, PEERS, ensure, ensure_compiled, python_of  # noqa: E402

#: Our reader with lark-cython hidden from it (peer_parse ``--impl ours-pure``), to
#: see what the ``fast`` extra buys; the same as ``ours`` when lark-cython is absent.
OURS_PURE = "ours-pure"
IMPLS: tuple[str, ...] = ("ours", OURS_COMPILED, OURS_PURE, *PEERS)
"""``ours`` is the checkout's pure-Python code (``PYTHONPATH``); ``ours-compiled`` the
checkout built and installed as the compiled wheel (``benchmarks/.venvs``)."""
PEER_SCRIPT = HERE / "peer_parse.py"
DATA = HERE / "data"
RESULTS = HERE / "results"

#: Targets from the project plan, checked and reported at the end.
TARGET_GAMES_PER_S = 2000.0
TARGET_FLAT_RATIO = 1.25
"""peak10x / peak1x (whole-process peak RSS) at or below this counts as flat."""


@dataclass(frozen=True)
class Bench:
    """What one run compares: our implementation, the others, and our targets.

    ``bench_parse.py`` times parsing; ``bench_validate.py`` runs the same machinery
    with ``ours-validate`` (read and replay) as the reference, so both benchmarks
    share their file sets, child processes, checks and tables.
    """

    name: str
    """Short name: the default JSON file is ``benchmarks/results/<name>.json``."""
    ours: str
    """The implementation the ratios are taken against."""
    impls: tuple[str, ...]
    target_games_per_s: float | None = None
    """Our games/s on the generated set must reach this (None: no such target)."""
    target_peer: tuple[str, float] | None = None
    """(peer, factor): our games/s must be at least factor times the peer's on
    every set where the peer did the whole work (None: no such target)."""
    what: str = "parse-only"


PARSE = Bench("parse", "ours", IMPLS, target_games_per_s=TARGET_GAMES_PER_S)
BENCH = PARSE
"""The benchmark being run (set by :func:`main`)."""


@dataclass
class FileSet:
    """A named list of files read together by one child process."""

    name: str
    files: list[Path]
    note: str = ""
    repeat: int | None = None
    """Repeats for this set (None: the --repeat option)."""
    expected: dict[str, int] = field(default_factory=dict)
    """Known games/plies (generated files), to spot readers that drop games."""

    @property
    def bytes(self) -> int:
        """Total size of the files."""
        return sum(f.stat().st_size for f in self.files)


# --------------------------------------------------------------------------- file sets


def corpus_root() -> Path:
    """The shared corpus: ``$PDN_SHARED_CORPUS`` or ``../shared/corpus`` next to the repo."""
    env = os.environ.get("PDN_SHARED_CORPUS")
    return Path(env) if env else ROOT.parent / "shared" / "corpus"


def corpus_sets(quick: bool) -> list[FileSet]:
    """Real-file sets present in the corpus (international 10x10 plus one Italian file)."""
    root = corpus_root()
    if not root.is_dir():
        print(
            f"bench_{BENCH.name}: shared corpus not found at {root}; real-file sets skipped "
            "(set PDN_SHARED_CORPUS to point elsewhere)",
            file=sys.stderr,
        )
        return []
    wanted: list[tuple[str, list[str], str]] = [
        (
            "horizon-wk2003",
            ["rhalbersma__horizon/BoomstraDam/pdn files/oud/wk2003.pdn"],
            "10x10, 190 games, CRLF/LF mix",
        ),
        (
            "wiegerw-2003",
            ["wiegerw__pdn/succeed/wk2003.pdn", "wiegerw__pdn/succeed/nk2003-amsterdam.pdn"],
            "10x10",
        ),
        (
            "yodachess",
            ["Yodachess__BrunoGUI_Dames/Dames_PartiesPdn_FEN/*.pdn"],
            "10x10, 21 files, FEN set-ups, UTF-8 names",
        ),
        (
            "ci2010-italian",
            ["Robin04-GH__Checkers/pdn/CI2010.pdn"],
            "Italian 8x8 (GameType 22), largest corpus file",
        ),
    ]
    if quick:
        wanted = wanted[:1]
    sets: list[FileSet] = []
    for name, patterns, note in wanted:
        files: list[Path] = []
        for pattern in patterns:
            files.extend(sorted(root.glob(pattern)) if "*" in pattern else [root / pattern])
        present = [f for f in files if f.is_file()]
        if not present:
            print(f"bench_{BENCH.name}: {name}: files missing in {root}; skipped", file=sys.stderr)
            continue
        sets.append(FileSet(name, present, note))
    return sets


def generated_sets(games: int, seed: int, regenerate: bool) -> tuple[FileSet, FileSet]:
    """The generated file (created or reused from ``benchmarks/data``) and its 10x copy."""
    base = DATA / f"generated-{games}-s{seed}.pdn"
    meta_path = base.with_suffix(".json")
    if regenerate or not base.is_file() or not meta_path.is_file():
        print(f"bench_{BENCH.name}: generating {games} games into {base} ...", file=sys.stderr)
        meta = generate(games, seed, base)
        meta_path.write_text(json.dumps(meta))
    meta = json.loads(meta_path.read_text())
    big = DATA / f"generated-{games}-s{seed}-x10.pdn"
    if regenerate or not big.is_file() or big.stat().st_size != 10 * base.stat().st_size:
        text = base.read_bytes()
        with big.open("wb") as fh:
            for _ in range(10):
                fh.write(text)
    one = FileSet(
        "generated",
        [base],
        f"{games} random legal games, moves by {meta['backend']}",
        expected={"games": meta["games"], "plies": meta["plies"]},
    )
    ten = FileSet(
        "generated-10x",
        [big],
        "the generated file 10 times (memory check), 1 run",
        repeat=1,
        expected={"games": 10 * meta["games"], "plies": 10 * meta["plies"]},
    )
    return one, ten


# --------------------------------------------------------------------------- running


def interpreter(impl: str, install: bool) -> tuple[Path | None, str]:
    """Python to run *impl* with, or None and the reason it is unavailable."""
    if impl.endswith("-compiled"):
        compiled = ensure_compiled(reinstall=install)
        if compiled is None:
            return None, "the compiled build failed (pip install . with a C compiler)"
        return compiled, ""
    if impl.startswith("ours"):
        probe = subprocess.run(
            [sys.executable, "-c", "import pdn_tools; pdn_tools.read_games"],
            env=_env(impl),
            capture_output=True,
            text=True,
        )
        if probe.returncode != 0:
            last = (probe.stderr.strip().splitlines() or ["?"])[-1]
            return None, f"ours not yet measurable: {last}"
        return Path(sys.executable), ""
    py = ensure(impl) if install else python_of(impl)
    if py is None or not py.exists():
        return None, f"no virtualenv (run python3 benchmarks/peers.py): {python_of(impl)}"
    return py, ""


def _env(impl: str) -> dict[str, str]:
    """Child environment: our checkout on PYTHONPATH for ours, nothing extra for peers
    and for our compiled build (its venv holds the package)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if impl.endswith("-compiled"):
        env["PYTHONSAFEPATH"] = "1"
    elif impl.startswith("ours"):
        env["PYTHONPATH"] = str(ROOT)
    return env


def _limit_memory(limit_bytes: int) -> None:
    """Cap the child's address space: one peer needs GBs on a few MB of PDN."""
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


def run_one(
    impl: str, python: Path, fileset: FileSet, repeat: int, timeout: float, mem_gb: float
) -> dict[str, Any]:
    """Run peer_parse.py for one implementation on one file set; its JSON plus status."""
    cmd = [
        str(python),
        str(PEER_SCRIPT),
        "--impl",
        impl,
        "--repeat",
        str(repeat),
        "--budget",
        str(timeout / 3),
        *map(str, fileset.files),
    ]
    limit = int(mem_gb * 1024**3)
    started = time.perf_counter()
    try:
        done = subprocess.run(
            cmd,
            env=_env(impl),
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=lambda: _limit_memory(limit),
        )
    except subprocess.TimeoutExpired:
        return {
            "impl": impl,
            "set": fileset.name,
            "error": f"timeout: no result within {timeout:.0f} s",
        }
    wall = time.perf_counter() - started
    lines = done.stdout.strip().splitlines()
    try:
        record: dict[str, Any] = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        record = {"impl": impl, "error": f"no result: {tail[0][:300]}"}
    if done.returncode < 0:
        record["error"] = f"killed by signal {-done.returncode} (memory limit {mem_gb} GB?)"
    record["impl"] = impl
    record["set"] = fileset.name
    record["wall_s"] = wall
    return record


# --------------------------------------------------------------------------- reporting


def _mb(kb: int | None) -> float | None:
    return None if kb is None else kb / 1024


def derive(record: dict[str, Any], fileset: FileSet) -> None:
    """Add throughput and peak figures to a child's record, in place."""
    if "error" in record:
        return
    best = record["best_s"]
    record["mb_per_s"] = record["bytes"] / 1e6 / best if best > 0 else None
    games = record.get("games")
    record["games_per_s"] = games / best if games is not None and best > 0 else None
    record["peak_mb"] = _mb(record.get("peak_kb"))
    base = record.get("rss_before_kb")
    peak = record.get("peak_kb")
    record["parse_mb"] = _mb(peak - base) if peak is not None and base is not None else None
    record["comparable"], record["partial_reason"] = _comparable(record)
    if not record["comparable"]:
        # Throughput over work that was not done would flatter the reader.
        record["mb_per_s"] = record["games_per_s"] = None


def _comparable(record: dict[str, Any]) -> tuple[bool, str]:
    """Whether the reader did the whole set's work, so its time compares with ours.

    Not when it stopped at an error in a file, rejected more than 5 % of the games,
    or (dame-rs) read no game at all because it skips other variants.
    """
    extra = record.get("extra", {})
    failed = record.get("failed") or 0
    if failed and extra.get("failed_unit") == "file":
        return False, f"stopped at an error in {failed} file(s)"
    read = record.get("games") or 0
    if failed and failed > 0.05 * (failed + read):
        return False, f"rejected {failed} of {failed + read} games"
    if extra.get("book_positions") == 0:
        return False, "read no game (only GameType 20 is read)"
    return True, ""


def check_counts(sets: list[FileSet], records: list[dict[str, Any]]) -> None:
    """Mark runs whose game count is off by more than 5 % as partial, in place.

    The reference is the generator's count (generated sets) or ours (corpus sets).
    A reader that merged or dropped many games did different work, so its time is
    not compared either.
    """
    by_key = {(r["set"], r["impl"]): r for r in records}
    for fs in sets:
        ours = by_key.get((fs.name, BENCH.ours))
        ref = fs.expected.get("games")
        if ref is None and ours is not None and "error" not in ours:
            ref = ours["games"]
        if not ref:
            continue
        for impl in BENCH.impls:
            r = by_key.get((fs.name, impl))
            if r is None or "error" in r or r.get("games") is None or not r["comparable"]:
                continue
            if abs(r["games"] - ref) > 0.05 * ref:
                r["comparable"] = False
                r["partial_reason"] = f"counted {r['games']} games of {ref}"
                r["mb_per_s"] = r["games_per_s"] = None


def _fmt(value: float | int | None, spec: str) -> str:
    """*value* formatted with *spec*, or ``n/a`` right-aligned to the same width."""
    if value is None:
        width = int(spec.split(".")[0].rstrip("dfs") or 0)
        return "n/a".rjust(width)
    return format(value, spec)


def report(
    sets: list[FileSet], records: list[dict[str, Any]], skipped: dict[str, str]
) -> dict[str, Any]:
    """Print the tables and discrepancies; return summary figures for the JSON."""
    by_key = {(r["set"], r["impl"]): r for r in records}
    head = (
        f"{'file set':<15} {'impl':<22} {'games':>7} {'plies':>8} {'fail':>5} "
        f"{'best s':>8} {'games/s':>9} {'MB/s':>7} {'peak MB':>8} {'+parse':>7} "
        f"{'ours x':>7}"
    )
    print(head)
    print("-" * len(head))
    notes: list[str] = []
    for fs in sets:
        ours = by_key.get((fs.name, BENCH.ours))
        ours_ok = ours is not None and "error" not in ours
        for impl in BENCH.impls:
            r = by_key.get((fs.name, impl))
            if r is None:
                continue
            if "error" in r:
                print(f"{fs.name:<15} {impl:<22} {'-- ' + r['error']}")
                continue
            ratio = None
            if ours_ok and impl in PEERS and r["comparable"]:
                assert ours is not None
                ratio = r["best_s"] / ours["best_s"] if ours["best_s"] > 0 else None
                r["ours_speedup"] = ratio
            mark = "" if r["comparable"] else "!"
            print(
                f"{fs.name:<15} {impl:<22} {_fmt(r['games'], '7d')} {_fmt(r['plies'], '8d')} "
                f"{r['failed']:>5d} {r['best_s']:>8.3f}{mark:1} "
                f"{_fmt(r['games_per_s'], '9.0f')} {_fmt(r['mb_per_s'], '7.2f')} "
                f"{_fmt(r['peak_mb'], '8.1f')} {_fmt(r['parse_mb'], '7.1f')} "
                f"{_fmt(ratio, '7.2f')}"
            )
            notes.extend(_discrepancies(fs, r, ours if ours_ok else None))
    print(
        "\n'ours x' = peer time / our time on the same bytes (>1: ours faster). "
        "'+parse' = peak RSS minus RSS before parsing.\n'!' = the reader did only part "
        "of the set's work (see below): no throughput, no ratio."
    )
    for impl, why in skipped.items():
        print(f"  {impl}: skipped: {why}")
    if notes:
        print("\nDiscrepancies and errors:")
        for note in notes:
            print(f"  {note}")
    return _memory_and_targets(by_key)


def _discrepancies(fs: FileSet, r: dict[str, Any], ours: dict[str, Any] | None) -> list[str]:
    """Lines about games/plies that differ from the reference, and reader errors."""
    out: list[str] = []
    where = f"{r['impl']} on {fs.name}"
    ref = fs.expected or (
        {"games": ours["games"], "plies": ours["plies"]} if ours and r["impl"] != BENCH.ours else {}
    )
    ref_name = "generated" if fs.expected else BENCH.ours
    for key in ("games", "plies"):
        if key in ref and r.get(key) is not None and r[key] != ref[key]:
            out.append(
                f"{where}: {key} {r[key]} vs {ref[key]} ({ref_name}), {r[key] - ref[key]:+d}"
            )
    if r.get("failed"):
        unit = r.get("extra", {}).get("failed_unit", "game")
        out.append(f"{where}: {r['failed']} {unit}(s) rejected")
    if r.get("partial_reason"):
        out.append(f"{where}: time not compared: {r['partial_reason']}")
    issues = r.get("extra", {}).get("issues")
    if issues:
        out.append(f"{where}: {issues} diagnostics reported (information, not failures)")
    unsupported = r.get("extra", {}).get("unsupported_gametypes")
    if unsupported:
        out.append(f"{where}: no board class for GameType {unsupported} (counted as rejected)")
    out.extend(f"{where}: {e}" for e in r.get("errors", [])[:3])
    return out


def _memory_and_targets(by_key: dict[tuple[str, str], dict[str, Any]]) -> dict[str, Any]:
    """Print the flatness check (generated vs generated-10x) and the targets."""
    memory: dict[str, Any] = {}
    lines: list[str] = []
    for impl in BENCH.impls:
        one, ten = by_key.get(("generated", impl)), by_key.get(("generated-10x", impl))
        if not one or not ten:
            continue
        if "error" in one or "error" in ten:
            why = ten.get("error") or one.get("error")
            lines.append(f"{impl:<22} {'-- ' + str(why)}")
            memory[impl] = {"error": why}
            continue
        p1, p10 = one["peak_mb"], ten["peak_mb"]
        d1, d10 = one["parse_mb"], ten["parse_mb"]
        ratio = p10 / p1 if p1 and p10 else None
        dratio = d10 / d1 if d1 and d10 is not None and d1 > 0 else None
        memory[impl] = {
            "peak1x_mb": p1,
            "peak10x_mb": p10,
            "ratio": ratio,
            "parse1x_mb": d1,
            "parse10x_mb": d10,
            "parse_ratio": dratio,
        }
        lines.append(
            f"{impl:<22} {_fmt(p1, '9.1f')} {_fmt(p10, '10.1f')} {_fmt(ratio, '6.2f')}"
            f" {_fmt(d1, '9.1f')} {_fmt(d10, '10.1f')}"
        )
    if lines:
        print(
            f"\nMemory, generated vs generated-10x:\n{'impl':<22} {'peak 1x':>9} "
            f"{'peak 10x':>10} {'ratio':>6} {'+parse 1x':>9} {'+parse 10x':>10}"
        )
        for line in lines:
            print(line)
    targets: dict[str, Any] = {}
    ours = by_key.get(("generated", BENCH.ours))
    goal = BENCH.target_games_per_s
    if goal is not None and ours and "error" not in ours and ours.get("games_per_s") is not None:
        speed = ours["games_per_s"]
        targets["games_per_s"] = {"value": speed, "target": goal, "met": speed >= goal}
    if BENCH.target_peer is not None:
        peer, factor = BENCH.target_peer
        per_set = {
            fs_name: r["ours_speedup"]
            for (fs_name, impl), r in by_key.items()
            if impl == peer and r.get("ours_speedup") is not None
        }
        if per_set:
            worst = min(per_set.values())
            targets["peer_ratio"] = {
                "peer": peer,
                "target": factor,
                "per_set": per_set,
                "worst": worst,
                "met": worst >= factor,
            }
    flat = memory.get(BENCH.ours, {}).get("ratio")
    if flat is not None:
        targets["flat_memory"] = {
            "ratio": flat,
            "target": TARGET_FLAT_RATIO,
            "met": flat <= TARGET_FLAT_RATIO,
        }
    print(f"\nTargets ({BENCH.ours}):")
    if not targets:
        print(f"  {BENCH.ours} not measured: targets not checked")
    if "games_per_s" in targets:
        t = targets["games_per_s"]
        print(
            f"  {BENCH.what} >= {t['target']:.0f} games/s on generated: "
            f"{t['value']:.0f} -> {'MET' if t['met'] else 'NOT MET'}"
        )
    if "peer_ratio" in targets:
        t = targets["peer_ratio"]
        sets_text = ", ".join(f"{k} {v:.2f}x" for k, v in t["per_set"].items())
        print(
            f"  games/s >= {t['target']:g}x {t['peer']} on every comparable set: "
            f"{sets_text} -> {'MET' if t['met'] else 'NOT MET'}"
        )
    if "flat_memory" in targets:
        t = targets["flat_memory"]
        print(
            f"  peak10x/peak1x <= {TARGET_FLAT_RATIO}: {t['ratio']:.2f} -> "
            f"{'MET' if t['met'] else 'NOT MET'}"
        )
    return {"memory": memory, "targets": targets}


def reader_revision() -> str:
    """The checkout's commit, with ``+dirty`` when the reader's files have local changes.

    Recorded in the JSON because the figures for ours belong to one state of the code.
    """
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "pdn_tools", "grammar"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (head or "no-commit") + ("+dirty" if dirty else "")


def markdown(sets: list[FileSet], records: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    """The results as Markdown tables (for ``docs/benchmarks.md``)."""
    by_key = {(r["set"], r["impl"]): r for r in records}
    out = [
        "| file set | MB | impl | games | plies | rejected | best s | games/s | MB/s "
        "| peak MB | +parse MB | ours x |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for fs in sets:
        for impl in BENCH.impls:
            r = by_key.get((fs.name, impl))
            if r is None:
                continue
            lead = f"| {fs.name} | {fs.bytes / 1e6:.2f} | {impl} |"
            if "error" in r:
                out.append(f"{lead} {r['error']} |||||||||")
                continue
            mark = "" if r["comparable"] else " (partial)"
            cells = [
                _fmt(r["games"], "d"),
                _fmt(r["plies"], "d"),
                str(r["failed"]),
                f"{r['best_s']:.3f}{mark}",
                _fmt(r["games_per_s"], ".0f"),
                _fmt(r["mb_per_s"], ".2f"),
                _fmt(r["peak_mb"], ".1f"),
                _fmt(r["parse_mb"], ".1f"),
                _fmt(r.get("ours_speedup"), ".2f"),
            ]
            out.append(f"{lead} {' | '.join(c.strip() for c in cells)} |")
    out += [
        "",
        "| impl | peak 1x MB | peak 10x MB | ratio | +parse 1x MB | +parse 10x MB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for impl, m in summary["memory"].items():
        if "error" in m:
            out.append(f"| {impl} | {m['error']} |||||")
            continue
        cells = [
            _fmt(m["peak1x_mb"], ".1f"),
            _fmt(m["peak10x_mb"], ".1f"),
            _fmt(m["ratio"], ".2f"),
            _fmt(m["parse1x_mb"], ".1f"),
            _fmt(m["parse10x_mb"], ".1f"),
        ]
        out.append(f"| {impl} | {' | '.join(c.strip() for c in cells)} |")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None, bench: Bench = PARSE, doc: str | None = None) -> int:
    """Command line entry point; *bench* says what is compared (parse by default)."""
    global BENCH
    BENCH = bench
    parser = argparse.ArgumentParser(description=(doc or __doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="one corpus file, 200 generated games, best of 2 (~1 minute)",
    )
    parser.add_argument("--repeat", type=int, default=None, help="best of N (default 3; quick 2)")
    parser.add_argument("--only", default="", help=f"comma list among {','.join(bench.impls)}")
    parser.add_argument("--games", type=int, default=None, help="generated games (2000; quick 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--regenerate", action="store_true", help="rewrite the generated files")
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per child process (300; quick 20)"
    )
    parser.add_argument(
        "--mem-limit-gb", type=float, default=8.0, help="address-space cap per child (8)"
    )
    parser.add_argument(
        "--install",
        action="store_true",
        help="create missing peer virtualenvs and (re)build ours-compiled (pip install)",
    )
    parser.add_argument(
        "--reference",
        default=bench.ours,
        help=f"implementation the peers' ratios are taken against (default {bench.ours}; "
        f"{bench.ours}-compiled for the compiled build)",
    )
    parser.add_argument("--json", type=Path, default=RESULTS / f"{bench.name}.json")
    parser.add_argument("--markdown", type=Path, default=None, help="also write Markdown tables")
    args = parser.parse_args(argv)
    if args.reference not in bench.impls:
        parser.error(f"unknown reference: {args.reference}")
    BENCH = bench = replace(bench, ours=args.reference)
    load_start = os.getloadavg()
    revision = reader_revision()

    repeat = args.repeat or (2 if args.quick else 3)
    games = args.games or (200 if args.quick else 2000)
    timeout = args.timeout or (20.0 if args.quick else 300.0)
    only = [s.strip() for s in args.only.split(",") if s.strip()] or list(bench.impls)
    unknown = set(only) - set(bench.impls)
    if unknown:
        parser.error(f"unknown implementation(s): {', '.join(sorted(unknown))}")

    pythons: dict[str, Path] = {}
    skipped: dict[str, str] = {}
    for impl in only:
        py, why = interpreter(impl, args.install)
        if py is None:
            skipped[impl] = why
            print(f"bench_{BENCH.name}: {impl}: {why}", file=sys.stderr)
        else:
            pythons[impl] = py

    sets = corpus_sets(args.quick)
    sets.extend(generated_sets(games, args.seed, args.regenerate))
    records: list[dict[str, Any]] = []
    done: dict[tuple[str, str], dict[str, Any]] = {}
    for fs in sets:
        for impl, py in pythons.items():
            n = fs.repeat or repeat
            one = done.get(("generated", impl))
            if fs.name == "generated-10x" and one and one.get("best_s", 0) * 10 > timeout:
                # Even a linear reader would need 10x its 1x time: don't hold the machine.
                record = {
                    "impl": impl,
                    "set": fs.name,
                    "error": (
                        f"skipped: 1x took {one['best_s']:.1f} s, so 10x needs at least "
                        f"{10 * one['best_s']:.0f} s > timeout {timeout:.0f} s"
                    ),
                }
                records.append(record)
                continue
            print(
                f"bench_{BENCH.name}: {fs.name} ({fs.bytes / 1e6:.2f} MB) x {impl} ...",
                file=sys.stderr,
                flush=True,
            )
            record = run_one(impl, py, fs, n, timeout, args.mem_limit_gb)
            derive(record, fs)
            records.append(record)
            done[(fs.name, impl)] = record
    print()
    check_counts(sets, records)
    summary = report(sets, records, skipped)

    args.json.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "meta": {
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "loadavg_start": load_start,
            "loadavg_end": os.getloadavg(),
            "python": sys.version.split()[0],
            "repeat": repeat,
            "quick": args.quick,
            "timeout_s": timeout,
            "mem_limit_gb": args.mem_limit_gb,
            "corpus": str(corpus_root()),
            "reader_revision_start": revision,
            "reader_revision_end": reader_revision(),
        },
        "sets": [
            {
                "name": fs.name,
                "files": [str(f) for f in fs.files],
                "bytes": fs.bytes,
                "note": fs.note,
                "expected": fs.expected,
            }
            for fs in sets
        ],
        "skipped": skipped,
        "runs": records,
        **summary,
    }
    args.json.write_text(json.dumps(payload, indent=2) + "\n")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(markdown(sets, records, summary))
    print(f"\nbench_{BENCH.name}: results written to {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
