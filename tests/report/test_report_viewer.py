"""The HTML report as an archivist meets it, in headless Chromium: a file with a house
style and three real errors opens on the errors with the habit as one finding; every
game opens in the viewer and steps ply by ply; the layout fits 1,280 px with long
paths and hides no rows; syntax findings show their source line; it prints.

Every test also checks that the page logged no error and made no request.  Skipped
with a reason when no Chromium is installed.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from browser import BROWSER_TESTS, Browser
from click.testing import CliRunner
from page_helpers import house_style
from PIL import Image

from pdn_tools.cli import main

pytestmark = BROWSER_TESTS


BROWSER_SIZE = (1280, 900)
"""The viewer's window: wider than the default, as its layout tests assume."""


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of a file of 40 games in one house style (W12 twice in every game)
    with three illegal moves, kept under a long folder path."""
    folder = tmp_path_factory.mktemp("archive")
    for part in ("national-championships-archive", "2019-edition-final-round-robin", "x" * 40):
        folder /= part
    folder.mkdir(parents=True)
    source = folder / "tournament-games-as-exported-by-the-club-program.pdn"
    source.write_text(house_style(40, errors=(5, 17, 33)), encoding="utf-8")
    target = folder.parent / "house.html"
    result = CliRunner().invoke(main, ["report", str(source), "-j", "1", "-o", str(target)])
    assert result.exit_code == 1, result.output
    return target


def clean(browser: Browser, target: Path) -> None:
    """No console error or warning, no request but the page itself."""
    assert browser.console_problems() == []
    assert browser.requests() == [target.resolve().as_uri()]


def wait(browser: Browser, ms: int = 60) -> None:
    browser.evaluate(f"new Promise(done => setTimeout(done, {ms}))")


def listed(browser: Browser) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = browser.evaluate(
        """Array.from(document.querySelectorAll('article.finding')).map(f => ({
            code: f.dataset.code, severity: f.dataset.severity,
            habit: f.dataset.habit ? +f.dataset.habit : null,
            top: f.getBoundingClientRect().top}))"""
    )
    return found


def key(browser: Browser, name: str) -> None:
    """Press a named key (ArrowLeft, Home, …) as a person does."""
    codes = {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35, "Escape": 27}
    for kind in ("rawKeyDown", "keyUp"):
        browser.send(
            "Input.dispatchKeyEvent",
            type=kind,
            key=name,
            code=name,
            windowsVirtualKeyCode=codes[name],
        )


def board_state(browser: Browser) -> dict[str, Any]:
    state: dict[str, Any] = browser.evaluate(
        """(() => { const svg = document.querySelector('#viewer .board-slot svg');
            return {ply: svg.dataset.ply, pieces: Array.from(svg.querySelectorAll(
              'g[data-piece]')).map(g => g.dataset.sq + g.dataset.piece).sort().join(' '),
              arrows: Array.from(svg.querySelectorAll('g.arrow')).map(a => a.dataset.path),
              status: document.querySelector('.ply-status').textContent}; })()"""
    )
    return state


def test_the_report_opens_on_the_errors_and_the_habit_is_one_finding(
    browser: Browser, house: Path
) -> None:
    browser.open(house)
    shown = listed(browser)
    assert [f["severity"] for f in shown] == ["error"] * 3 + ["warning"]
    assert [f["code"] for f in shown] == ["E05", "E05", "E05", "W12"]
    assert shown[3]["habit"] == 80  # W12 twice in each of 40 games: one finding
    assert browser.evaluate("document.querySelector('main h2.level').textContent") == ("Errors (3)")
    # The first error is on the first screen, the summary above it being short.
    assert 0 < shown[0]["top"] < 900
    text = browser.evaluate("document.querySelector('[data-habit]').textContent")
    assert "a habit of this file: 80 time(s) in 40 of its 40 games" in text
    # The habit's occurrences unfold, each a link into the viewer.
    count = browser.evaluate(
        """(() => { const d = document.querySelector('details.places'); d.open = true;
            return new Promise(done => setTimeout(() => done(
              d.querySelectorAll('ol a[href^="#game="]').length), 50)); })()"""
    )
    assert count == 80
    clean(browser, house)


def test_the_viewer_steps_through_a_game(browser: Browser, house: Path) -> None:
    browser.open(house)
    browser.evaluate("location.hash = 'game=4'")  # game 5, whose ply 5 is illegal
    wait(browser)
    start = board_state(browser)
    assert start["ply"] == "0" and start["status"] == "start position"
    assert start["arrows"] == []
    key(browser, "ArrowRight")
    one = board_state(browser)
    assert one["ply"] == "1" and one["pieces"] != start["pieces"]
    assert one["arrows"] == ["32-28"] and "32-28" not in one["pieces"]
    assert "28w" in one["pieces"].split() and "32w" not in one["pieces"].split()
    key(browser, "ArrowLeft")
    assert board_state(browser)["pieces"] == start["pieces"]
    key(browser, "End")
    end = board_state(browser)
    # The replay stops at the illegal fifth ply: the board stays after ply 4.
    assert end["ply"] == "4" and "after ply 5 of 5" in end["status"]
    assert "not replayed" in end["status"]
    key(browser, "Home")
    assert board_state(browser)["ply"] == "0"
    # A click on a move shows the board after it; the address follows.
    browser.evaluate("document.querySelector('p.moves a.mv[data-ply=\"3\"]').click()")
    assert board_state(browser)["ply"] == "3"
    assert browser.evaluate("location.hash") == "#game=4&ply=3"
    assert browser.evaluate("document.querySelector('p.moves a.current').dataset.ply") == "3"
    # The illegal move is marked as an error in the move list, the habit's moves as
    # warnings.
    marked = browser.evaluate(
        "Array.from(document.querySelectorAll('p.moves a.bad')).map(a => a.dataset.ply + ' '"
        " + a.className)"
    )
    assert marked == ["1 mv bad sev-warning", "2 mv bad sev-warning", "5 mv bad sev-error"]
    key(browser, "Escape")
    wait(browser)
    assert browser.evaluate("document.getElementById('viewer').hidden") is True
    clean(browser, house)


def test_every_game_can_be_opened_from_the_files_table(browser: Browser, house: Path) -> None:
    browser.open(house)
    browser.evaluate("document.querySelector('#files a[href^=\"#games=\"]').click()")
    wait(browser)
    rows = browser.evaluate("document.querySelectorAll('#viewer table.games tr').length")
    assert rows == 1 + 40  # a page holds 50 games
    browser.evaluate("document.querySelectorAll('#viewer table.games a')[39].click()")
    wait(browser)
    assert browser.evaluate("location.hash") == "#game=39"
    assert "game 40 of" in browser.evaluate("document.querySelector('#viewer h2').textContent")
    assert board_state(browser)["ply"] == "0"
    clean(browser, house)


def test_the_layout_fits_1280_pixels_and_hides_no_rows(browser: Browser, house: Path) -> None:
    browser.open(house)
    width = browser.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280
    # The long path is shortened in the middle; the whole path is its tooltip.
    name = browser.evaluate(
        "[document.querySelector('#files td.name a').textContent,"
        " document.querySelector('#files td.name a').title]"
    )
    assert "…" in name[0] and name[1].endswith("club-program.pdn") and len(name[0]) <= 72
    assert name[0].endswith("club-program.pdn")
    hidden = browser.evaluate(
        """Array.from(document.querySelectorAll('section.summary *')).filter(e => {
            const s = getComputedStyle(e);
            return /(auto|scroll|hidden)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1
              && e.tagName !== 'TD' && e.tagName !== 'TH' && e.tagName !== 'A';
        }).map(e => e.tagName + '.' + e.className)"""
    )
    assert hidden == []
    assert browser.evaluate("document.querySelectorAll('h1').length") == 1
    clean(browser, house)


def test_a_syntax_finding_shows_its_source_line_and_caret(browser: Browser, tmp_path: Path) -> None:
    source = tmp_path / "typo.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 zz 14x23 *\n', encoding="utf-8")
    target = tmp_path / "typo.html"
    CliRunner().invoke(main, ["report", str(source), "-j", "1", "-o", str(target)])
    browser.open(target)
    excerpt = browser.evaluate("document.querySelector('article.finding pre.context').textContent")
    line, caret = excerpt.split("\n")[:2]
    assert "28x19 zz 14x23" in line and caret.strip() == "^"
    assert line[caret.index("^") :].startswith("zz")
    clean(browser, target)


def test_the_print_style_shows_each_finding_with_its_board(browser: Browser, house: Path) -> None:
    browser.open(house)
    browser.send("Emulation.setEmulatedMedia", media="print")
    try:
        styles = browser.evaluate(
            """[getComputedStyle(document.querySelector('nav.controls')).display,
                getComputedStyle(document.querySelector('article.finding')).breakInside,
                document.querySelectorAll('article.finding svg.pdn-board').length]"""
        )
        assert styles == ["none", "avoid", 4]
        png = browser.screenshot()
    finally:
        browser.send("Emulation.setEmulatedMedia", media="")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(1 << 20)
    assert colours is not None and len(colours) > 20
    clean(browser, house)
