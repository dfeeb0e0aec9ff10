"""Event checks benchmark: peak memory of ``pdn validate`` with its event checks as the
input grows.

Why: the facts every game gives its event are kept until the run ends (a few
integers a game in flat arrays; the move digests in a temporary file), so memory
grows with the number of games — by a few dozen bytes a game, never by their text.
The target (issue "Validate a tournament as a whole"): on 10 times the shared corpus,
peak RSS at most 1.3 times that of the 1x run.  Peak RSS barely depends on machine
load; timings do (printed for orientation only).

The 1x file is every plain ``*.pdn`` file of the shared corpus (``$PDN_SHARED_CORPUS``,
else ``../shared/corpus``) as pdn-tools finds them, their bytes one after another
with a blank line between; the Nx file is the 1x file N times over, each copy's Event
tags (``Event``, ``Dati``) prefixed with its number, so that the Nx file holds N times
the events, players' games and findings (``--same-events`` keeps the names: every
event then has N copies of each game, which the checks put together).  Each run is a
fresh ``python -m pdn_tools validate FILE --format jsonl -q --jobs 1``, once with the
event checks (the default) and once without (``--rule events=no``), whose peak RSS
(``ru_maxrss``) is read with ``os.wait4``.

Usage::

    python3 benchmarks/bench_events.py                 # 1x and 10x
    python3 benchmarks/bench_events.py --copies 1,10 --same-events --json out.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
_EVENT_TAG = re.compile(rb'(\[\s*(?:Event|Dati)\s+")', re.IGNORECASE)


def _corpus() -> Path:
    env = os.environ.get("PDN_SHARED_CORPUS")
    path = Path(env) if env else ROOT.parent / "shared" / "corpus"
    if not path.is_dir():
        sys.exit(f"bench_events: shared corpus not found at {path} (set PDN_SHARED_CORPUS)")
    return path


def build(corpus: Path, target: Path, copies: int, same_events: bool) -> int:
    """Write the corpus's plain PDN files *copies* times into *target* (each copy's
    events renamed unless *same_events*); its size."""
    sys.path.insert(0, str(ROOT))
    from pdn_tools.run.paths import expand

    files = [p for p in expand((str(corpus),)) if p.lower().endswith(".pdn")]
    with open(target, "wb") as out:
        for copy in range(copies):
            prefix = b"" if same_events or copy == 0 else f"copy {copy} ".encode()
            for name in files:
                data = Path(name).read_bytes()
                if prefix:
                    data = _EVENT_TAG.sub(rb"\1" + prefix, data)
                out.write(data)
                out.write(b"\n\n")
    return target.stat().st_size


_GAMES = re.compile(r"(\d+) file\(s\), (\d+) game\(s\)")


def measure(path: Path, events: bool) -> dict[str, Any]:
    """Run ``pdn validate PATH`` in a fresh process: games, event findings, seconds and
    peak RSS."""
    cmd = [sys.executable, "-m", "pdn_tools", "validate", str(path), "--format", "jsonl",
           "--jobs", "1", "--color", "never"]  # fmt: skip
    if not events:
        cmd += ["--rule", "events=no"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    findings = games = 0
    for line in proc.stdout:
        if line.startswith(b'{"event"'):
            findings += 1
        else:
            games += 1
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"bench_events: {' '.join(cmd)} failed ({code}):\n{err}")
    return {
        "records": games,
        "event_findings": findings,
        "seconds": time.perf_counter() - start,
        "peak_rss_mb": usage.ru_maxrss / 1024,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", default="1,10", help="sizes to measure (default 1,10)")
    parser.add_argument(
        "--same-events", action="store_true", help="keep the event names in every copy"
    )
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the results")
    args = parser.parse_args(argv)
    corpus = _corpus()
    copies = [int(c) for c in args.copies.split(",")]
    result: dict[str, Any] = {
        "corpus": str(corpus),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "same_events": args.same_events,
        "load_before": os.getloadavg(),
        "runs": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        for n in copies:
            path = Path(tmp) / f"corpus-{n}x.pdn"
            size = build(corpus, path, n, args.same_events)
            run: dict[str, Any] = {"copies": n, "mb": size / 1e6}
            run["with"] = measure(path, True)
            run["without"] = measure(path, False)
            path.unlink()
            result["runs"].append(run)
            print(
                f"  {n}x ({run['mb']:.1f} MB): {run['with']['records']:,} records, "
                f"{run['with']['event_findings']:,} event findings, peak "
                f"{run['with']['peak_rss_mb']:.1f} MB with the event checks, "
                f"{run['without']['peak_rss_mb']:.1f} MB without; "
                f"{run['with']['seconds']:.0f} s / {run['without']['seconds']:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    result["load_after"] = os.getloadavg()
    print(
        "\n| copies | MB | records | event findings | peak RSS MB, event checks | "
        "peak RSS MB, none | seconds, event checks | seconds, none |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in result["runs"]:
        on, off = run["with"], run["without"]
        print(
            f"| {run['copies']} | {run['mb']:.1f} | {on['records']:,} | "
            f"{on['event_findings']:,} | {on['peak_rss_mb']:.1f} | {off['peak_rss_mb']:.1f} | "
            f"{on['seconds']:.0f} | {off['seconds']:.0f} |"
        )
    peaks = [r["with"]["peak_rss_mb"] for r in result["runs"]]
    ratio = result["ratio"] = peaks[-1] / peaks[0]
    print(f"\nratio (largest / 1x, with the event checks): {ratio:.2f} (target <= 1.3)")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0 if ratio <= 1.3 else 1


if __name__ == "__main__":
    sys.exit(main())
