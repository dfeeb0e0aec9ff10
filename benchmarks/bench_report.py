"""Size and opening time of the HTML report (``pdn report``) of a large collection.

Writes the report of a folder (by default the shared real-file corpus) with and
without ``--info``, and prints for each: the page's size, what it lists (files, games,
findings, boards) and the size bound of docs/report.md computed from the same page.
With ``--browser``, also opens each page in headless Chromium (the helper of the
tests) and prints the time to the load event, the time a filter takes, and how many
findings and boards the page's DOM holds.

    python3 benchmarks/bench_report.py                  # ../shared/corpus
    python3 benchmarks/bench_report.py path/ --browser --jobs 2

Figures go to docs/report.md; timings are only meaningful on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def page_data(text: str) -> dict[str, Any]:
    start = text.index('id="pdn-data">') + len('id="pdn-data">')
    data: dict[str, Any] = json.loads(text[start : text.index("</script>", start)])
    return data


def bound(data: dict[str, Any]) -> int:
    """The size bound of docs/report.md for the page holding *data*."""
    issues = [issue for game in data["games"] for issue in game["i"]]
    text = sum(len(json.dumps(g["h"])) + len(json.dumps(g["m"])) for g in data["games"])
    text += sum(len(json.dumps(issue[2])) for issue in issues)
    names = sum(len(json.dumps(name)) for name in data["files"])
    boards = sum(len(game["b"]) for game in data["games"])
    return (
        64 * 1024
        + 300 * len(data["files"])
        + 3 * names
        + 200 * len(data["games"])
        + 100 * len(issues)
        + 450 * boards
        + text
    )


def open_in_browser(path: Path) -> dict[str, float | int]:
    sys.path.insert(0, str(REPO / "tests"))
    from browser import Browser, chromium

    executable = chromium()
    if executable is None:
        raise SystemExit("no Chromium installed")
    browser = Browser(executable)
    try:
        began = time.perf_counter()
        browser.open(path)
        loaded = time.perf_counter() - began
        began = time.perf_counter()
        browser.evaluate(
            """new Promise(done => {
                window.addEventListener('hashchange', () => done(), {once: true});
                const select = document.getElementById('f-sev');
                select.value = 'error';
                select.dispatchEvent(new Event('change'));
            })"""
        )
        filtered = time.perf_counter() - began
        counts = browser.evaluate(
            "[document.querySelectorAll('article.finding').length,"
            " document.querySelectorAll('article.finding svg.pdn-board').length,"
            " document.getElementsByTagName('*').length]"
        )
    finally:
        browser.close()
    return {
        "load_s": round(loaded, 2),
        "filter_s": round(filtered, 3),
        "dom_findings": counts[0],
        "dom_boards": counts[1],
        "dom_elements": counts[2],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(REPO.parent / "shared" / "corpus"))
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--browser", action="store_true", help="also open each page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for info in (False, True):
            target = Path(folder) / f"report{'-info' if info else ''}.html"
            command = [sys.executable, "-m", "pdn_tools", "report", args.path, "-q"]
            command += ["-o", str(target)] + (["--info"] if info else [])
            command += ["--jobs", str(args.jobs)] if args.jobs else []
            began = time.perf_counter()
            subprocess.run(command, check=False)
            took = time.perf_counter() - began
            text = target.read_text(encoding="utf-8")
            data = page_data(text)
            row: dict[str, Any] = {
                "info": info,
                "bytes": len(text.encode("utf-8")),
                "bound": bound(data),
                "files_listed": len(data["files"]),
                "games_listed": len(data["games"]),
                "findings": sum(len(g["i"]) for g in data["games"]),
                "boards": sum(len(g["b"]) for g in data["games"]),
                "report_s": round(took, 1),
            }
            if args.browser:
                row.update(open_in_browser(target))
            print(json.dumps(row))


if __name__ == "__main__":
    main()
