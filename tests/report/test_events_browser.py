"""The events section of the HTML report in a real browser (headless Chromium).

A small round robin of random legal games, with one player paired twice in a round:
the page opens with no request and no error, the event's block is open (it has a
finding), every crosstable cell is a link whose target is a line of the block's list
of games, and following one makes that line the page's target.  Skipped with a
reason when no Chromium is installed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from browser import BROWSER_TESTS, Browser
from click.testing import CliRunner
from helpers import random_game_pdn

from pdn_tools.cli import main
from pdn_tools.rules import variant_by_name

pytestmark = BROWSER_TESTS

PAIRINGS = (("1", "Ann", "Bob"), ("2", "Bob", "Cas"), ("3", "Cas", "Ann"), ("2", "Ann", "Cas"))
RESULTS = ("2-0", "1-1", "0-2", "1-1")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("events")
    rng = random.Random(29)
    variant = variant_by_name("international")
    text = "".join(
        random_game_pdn(
            variant,
            rng,
            30,
            {
                "Event": "Club <b>cup</b>",
                "Date": f"2024.03.0{n + 1}",
                "Round": number,
                "White": white,
                "Black": black,
                "Result": result,
                "GameType": "20",
            },
        )
        for n, ((number, white, black), result) in enumerate(zip(PAIRINGS, RESULTS, strict=True))
    )
    source = folder / "cup.pdn"
    source.write_text(text, encoding="utf-8")
    target = folder / "cup.html"
    done = CliRunner().invoke(main, ["report", str(source), "-o", str(target), "-j", "1"])
    assert done.exit_code == 1, done.output  # Cas plays twice in round 2 (E50)
    return target


def test_the_events_section_links_each_cell_to_its_game(browser: Browser, report: Path) -> None:
    browser.open(report)
    assert browser.requests() == [report.resolve().as_uri()]
    assert browser.console_problems() == []
    block = browser.evaluate(
        """(() => { const d = document.querySelector('section.events details');
            return {open: d.open, title: d.querySelector('summary').textContent,
                    finding: d.querySelector('ul.event-findings li').textContent}; })()"""
    )
    assert block["open"] is True and block["title"].startswith("Club <b>cup</b>")
    assert "E50" in block["finding"] and "round 2" in block["finding"]
    targets = browser.evaluate(
        """Array.from(document.querySelectorAll('table.crosstable a')).map(a => {
            const row = document.getElementById(a.getAttribute('href').slice(1));
            return row ? row.closest('table').className : null; })"""
    )
    assert len(targets) == 2 * len(PAIRINGS) and set(targets) == {"event-games"}
    row = browser.evaluate(
        """new Promise(done => {
            window.addEventListener('hashchange', () => {
                const t = document.querySelector(':target');
                done(t ? t.textContent : null); }, {once: true});
            document.querySelector('table.crosstable a').click(); })"""
    )
    assert row is not None and "cup.pdn:" in row and "(game " in row
    assert browser.console_problems() == []


def test_an_event_link_keeps_the_findings_filters(browser: Browser, report: Path) -> None:
    browser.open(report)
    follow = """new Promise(done => {
        window.addEventListener('hashchange', () => done(), {once: true}); %s; })"""
    browser.evaluate(
        follow
        % """const s = document.getElementById('f-sev'); s.value = 'warning';
             s.dispatchEvent(new Event('change'))"""
    )
    assert browser.evaluate("location.hash") == "#sev=warning"
    browser.evaluate(follow % "document.querySelector('table.crosstable a').click()")
    state = browser.evaluate(
        """({hash: location.hash, sev: document.getElementById('f-sev').value,
             target: document.querySelector(':target') !== null,
             list: !document.getElementById('findings').hidden})"""
    )
    # The anchor is a place in the page: the filter chosen before stays chosen.
    assert state == {"hash": state["hash"], "sev": "warning", "target": True, "list": True}
    assert "=" not in state["hash"]
    assert browser.console_problems() == []
