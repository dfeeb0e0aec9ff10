"""Size and opening time of the HTML report (``pdn report``) of a large collection.

Writes the report of a folder (by default the shared real-file corpus), and of a
folder holding ``--times`` copies of it (a temporary copy: the same files again, as a
collection that many times larger; a folder given twice on the command line is read
once), and prints for each: the page's size, what it holds (files, games,
findings, habits, boards) and the size bound of docs/report.md computed from the same
page.  With ``--browser``, also opens each page in headless Chromium (the helper of
the tests) and prints the time to first contentful paint, to the DOMContentLoaded and
load events, the JavaScript heap in use once loaded, the time a filter takes and the
time the game viewer takes to open the last game of the page.

    python3 benchmarks/bench_report.py                        # ../shared/corpus, 1x and 10x
    python3 benchmarks/bench_report.py path/ --browser --jobs 2 --times 1 10

Figures go to docs/report.md; timings are only meaningful on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "report"))
sys.path.insert(0, str(REPO / "tests"))


def page_parts(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The page data and its games, read back from the page."""
    text = path.read_text(encoding="utf-8")
    start = text.index('id="pdn-data">') + len('id="pdn-data">')
    data: dict[str, Any] = json.loads(text[start : text.index("</script>", start)])
    games: list[dict[str, Any]] = []
    for block in re.finditer(r'class="pdn-chunk" data-first="\d+">(.*?)</script>', text, re.S):
        games.extend(json.loads(block.group(1)))
    return data, games


def bound(data: dict[str, Any], games: list[dict[str, Any]]) -> int:
    """The size bound of docs/report.md for the page holding *data* and *games*."""
    found = data["findings"]
    text = sum(len(json.dumps(g[key])) for g in games for key in ("h", "m", "e", "x"))
    text += sum(len(json.dumps(mark[3])) for g in games for mark in g["n"])
    text += sum(len(json.dumps(f[5])) + len(json.dumps(f[11])) for f in found)
    names = sum(len(json.dumps(name)) for name in data["files"])
    kinds = len({g["k"] for g in games} | {b[0] for g in games for b in g["b"]})
    return (
        64 * 1024
        + 6 * 1024 * kinds
        + 200 * len(data["files"])
        + 3 * names
        + 400 * len(games)
        + 60 * sum(len(g["n"]) for g in games)
        + 150 * len(found)
        + 450 * sum(len(g["b"]) for g in games)
        + 40 * sum(len(f[12][3]) for f in found if len(f) > 12)
        + text
    )


def open_in_browser(path: Path) -> dict[str, float | int]:
    from browser import Browser, chromium

    executable = chromium()
    if executable is None:
        raise SystemExit("no Chromium installed")
    browser = Browser(executable, width=1280, height=900)
    try:
        began = time.perf_counter()
        browser.open(path)
        loaded = time.perf_counter() - began
        timing = browser.evaluate(
            """new Promise(done => setTimeout(done, 300)).then(() => {
                const n = performance.getEntriesByType('navigation')[0];
                const at = name => (performance.getEntriesByName(name)[0] || {startTime: -1000})
                  .startTime;
                return [at('first-contentful-paint'), n.domContentLoadedEventEnd,
                        n.loadEventEnd, at('pdn-list-shown'), at('pdn-boards-shown')]; })"""
        )
        heap = browser.send("Runtime.getHeapUsage")["usedSize"]
        began = time.perf_counter()
        browser.evaluate(
            """new Promise(done => {
                window.addEventListener('hashchange', () => done(), {once: true});
                const select = document.getElementById('f-sev');
                select.value = 'warning';
                select.dispatchEvent(new Event('change'));
            })"""
        )
        filtered = time.perf_counter() - began
        began = time.perf_counter()
        browser.evaluate(
            """new Promise(done => {
                window.addEventListener('hashchange', () => done(), {once: true});
                location.hash = 'game=' + (JSON.parse(
                    document.getElementById('pdn-data').textContent).games - 1) + '&ply=20';
            })"""
        )
        viewer = time.perf_counter() - began
        counts = browser.evaluate(
            "[document.querySelectorAll('article.finding').length,"
            " document.querySelectorAll('svg.pdn-board').length,"
            " document.getElementsByTagName('*').length]"
        )
        problems = browser.console_problems()
    finally:
        browser.close()
    return {
        "first_paint_s": round(timing[0] / 1000, 2),
        "list_shown_s": round(timing[3] / 1000, 2),
        "boards_shown_s": round(timing[4] / 1000, 2),
        "dom_ready_s": round(timing[1] / 1000, 2),
        "load_event_s": round(timing[2] / 1000, 2),
        "open_s": round(loaded, 2),
        "heap_mb": round(heap / 1e6, 1),
        "filter_s": round(filtered, 3),
        "viewer_s": round(viewer, 3),
        "dom_findings": counts[0],
        "dom_boards": counts[1],
        "dom_elements": counts[2],
        "console_problems": len(problems),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(REPO.parent / "shared" / "corpus"))
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--times", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--info", action="store_true", help="list info-level findings too")
    parser.add_argument("--browser", action="store_true", help="also open each page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for times in args.times:
            target = Path(folder) / f"report-{times}x.html"
            source = args.path
            if times > 1:
                source = str(Path(folder) / f"copies-{times}")
                for k in range(times):
                    shutil.copytree(args.path, Path(source) / f"copy-{k}")
            command = [sys.executable, "-m", "pdn_tools", "report", source, "-q"]
            command += ["-o", str(target)] + (["--info"] if args.info else [])
            command += ["--jobs", str(args.jobs)] if args.jobs else []
            began = time.perf_counter()
            subprocess.run(command, check=False)
            took = time.perf_counter() - began
            data, games = page_parts(target)
            size = target.stat().st_size
            found = data["findings"]
            row: dict[str, Any] = {
                "times": times,
                "info": args.info,
                "bytes": size,
                "bound": bound(data, games),
                "files": len(data["files"]),
                "games": len(games),
                "bytes_per_game": round(size / max(1, len(games))),
                "findings_listed": len(found),
                "habits": sum(1 for f in found if len(f) > 12),
                "boards": sum(len(g["b"]) for g in games),
                "report_s": round(took, 1),
            }
            del data, games, found
            if args.browser:
                row.update(open_in_browser(target))
            print(json.dumps(row), flush=True)
            if times > 1:
                shutil.rmtree(source)


if __name__ == "__main__":
    main()
