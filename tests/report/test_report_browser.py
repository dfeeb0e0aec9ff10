"""The HTML report and the SVG boards in a real browser (headless Chromium).

The page is opened from a file, its script runs, and the tests read its DOM over the
DevTools protocol: one board per finding with the squares of its move highlighted and
the same pieces, marks and arrows as the Python diagram of that board; filters that
hide and show findings; keys that move between findings across pages; no request
leaving the page.  Boards written by ``board_svg`` are checked pixel by pixel on
screenshots.  Skipped with a reason when no Chromium is installed.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from browser import BROWSER_TESTS, Browser
from click.testing import CliRunner
from page_helpers import CODE, COLUMN, FILE, LINE, NUMBER, PLY, in_list_order, many_findings, page
from PIL import Image
from svg_helpers import read_diagram

import pdn_tools
from pdn_tools import Board
from pdn_tools.cli import main
from pdn_tools.report.svg import (
    BLACK_PIECE,
    CROWN,
    DARK,
    LIGHT,
    PALETTE,
    SQUARE,
    TURKISH,
    WHITE_PIECE,
    Arrow,
    board_svg,
    layout_for,
)
from pdn_tools.rules import variant_by_name

pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of the sample corpus, info-level findings listed (one page)."""
    target = tmp_path_factory.mktemp("report") / "corpus.html"
    result = CliRunner().invoke(main, ["report", "corpus/", "--info", "-j", "1", "-o", str(target)])
    assert result.exit_code == 1, result.output
    return target


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def blend(top: str, bottom: str, alpha: float) -> tuple[int, int, int]:
    up, down = rgb(top), rgb(bottom)
    return (
        round(alpha * up[0] + (1 - alpha) * down[0]),
        round(alpha * up[1] + (1 - alpha) * down[1]),
        round(alpha * up[2] + (1 - alpha) * down[2]),
    )


def near(found: tuple[int, ...], wanted: tuple[int, int, int], slack: int = 8) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(found[:3], wanted, strict=True))


def shot(browser: Browser) -> Image.Image:
    return Image.open(io.BytesIO(browser.screenshot())).convert("RGB")


def findings(browser: Browser) -> list[dict[str, Any]]:
    """Every finding in the page's DOM with its boards as SVG text."""
    result: list[dict[str, Any]] = browser.evaluate(
        """Array.from(document.querySelectorAll('article.finding')).map(f => ({
            code: f.dataset.code, severity: f.dataset.severity,
            ply: f.dataset.ply ? +f.dataset.ply : null,
            loc: f.querySelector('.loc').textContent,
            title: f.querySelector('.loc').title,
            boards: Array.from(f.querySelectorAll('svg.pdn-board')).map(s => s.outerHTML),
            current: f.classList.contains('current'), id: f.id}))"""
    )
    return result


def choose(browser: Browser, control: str, value: str) -> None:
    """Pick *value* in a filter, as a person does, and wait for the list to follow."""
    browser.evaluate(
        f"""new Promise(done => {{
            window.addEventListener('hashchange', () => done(), {{once: true}});
            const select = document.getElementById({control!r});
            select.value = {value!r};
            select.dispatchEvent(new Event('change'));
        }})"""
    )


def until(browser: Browser, condition: str) -> None:
    """Wait for the JavaScript *condition* to hold in the page (after a key, whose
    effect comes with the ``hashchange`` that follows it); a condition that never holds
    fails the test at the browser's own bound."""
    browser.evaluate(
        f"""new Promise(done => {{
            const look = () => ({condition}) ? done() : setTimeout(look, 10);
            look();
        }})"""
    )


def status(browser: Browser) -> str:
    text: str = browser.evaluate("document.getElementById('status').textContent")
    return text


# -- the report of the sample corpus -------------------------------------------------------
def test_page_loads_with_no_request_and_no_error(browser: Browser, sample: Path) -> None:
    browser.open(sample)
    assert browser.requests() == [sample.resolve().as_uri()]
    assert browser.console_problems() == []
    count = len(page(sample).findings())
    assert count == 46  # 48 findings, three W27 of one file are one habit
    assert status(browser) == f"{count} of {count} findings · page 1 of 1"


def test_the_policy_blocks_what_would_leave_the_page(browser: Browser, sample: Path) -> None:
    """The control for the test above: a request the page tries is refused by its
    Content-Security-Policy before it is sent."""
    browser.open(sample)
    outcome = browser.evaluate(
        "fetch('http://127.0.0.1:9/leak').then(() => 'sent', () => 'refused')"
    )
    assert outcome == "refused"
    assert any("Content Security Policy" in text for text in browser.console_problems())
    assert browser.requests() == [sample.resolve().as_uri()]


def test_screenshot_shows_the_report_and_its_boards(browser: Browser, sample: Path) -> None:
    browser.open(sample)
    top = shot(browser)
    colours = top.getcolors(1 << 20)
    assert colours is not None and len(colours) > 50
    assert max(colours)[0] < 0.9 * top.width * top.height  # not one colour
    browser.evaluate("document.querySelector('article.finding svg.pdn-board').scrollIntoView()")
    board = shot(browser)
    raw = board.tobytes()
    pixels = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    assert sum(near(p, rgb(DARK)) for p in pixels) > 2000  # dark squares
    assert sum(near(p, rgb(WHITE_PIECE)) for p in pixels) > 2000  # white men
    assert sum(near(p, rgb(BLACK_PIECE)) for p in pixels) > 2000  # black men
    red = blend(PALETTE["red"], DARK, 0.5)  # the highlighted squares of the move
    assert sum(near(p, red, 12) for p in pixels) > 100


def test_one_board_per_finding_with_its_move_highlighted(browser: Browser, sample: Path) -> None:
    """The page lists the findings errors first; each finding about a move has the
    board before it, its squares highlighted in red."""
    browser.open(sample)
    shown = findings(browser)
    html = page(sample)
    expected = in_list_order(html.findings())
    assert len(shown) == len(expected) == 46
    levels = [f["severity"] for f in shown]
    assert levels == sorted(levels, key=["error", "warning", "info"].index)
    files = html.data()["files"]
    with_board = 0
    for found, (finding, _) in zip(shown, expected, strict=True):
        loc = f"{files[finding[FILE]]}:{finding[LINE]}:{finding[COLUMN]}"
        assert (found["title"], found["code"]) == (loc, finding[CODE])
        if finding[PLY] is None or finding[CODE] == "W27":
            assert len(found["boards"]) == (1 if finding[CODE] == "W32" else 0), loc
            continue
        assert len(found["boards"]) == 1, (loc, finding[CODE])
        diagram = read_diagram(found["boards"][0])
        game = next(
            g for g in pdn_tools.validate(files[finding[FILE]]) if g.index == finding[NUMBER]
        )
        before = game.node_at(finding[PLY] - 1).board()
        assert diagram.title == before.fen()
        written = game.node_at(finding[PLY]).move
        assert written is not None
        squares = [before.position.geometry.square_named(s) for s in written.squares]
        assert diagram.highlights == {squares[0]: "red", squares[-1]: "red"}
        with_board += 1
    assert with_board == 5


def test_boards_in_the_page_match_the_python_diagrams(browser: Browser, sample: Path) -> None:
    """The page draws each board from data; the diagram ``board_svg`` writes of the same
    board has the same squares, pieces, highlights, capture marks and arrows."""
    browser.open(sample)
    views = [(view, game["v"]) for game in page(sample).games() for view in game["b"]]
    drawn = browser.evaluate(
        "Array.from(document.querySelectorAll('figure svg.pdn-board')).map(s => s.outerHTML)"
    )
    drawn_fens = {text.split('data-fen="')[1].split('"')[0] for text in drawn}
    # The boards of the findings (a draw's board shows in the viewer only).
    assert drawn_fens <= {view[1] for view, _ in views} and len(drawn_fens) > 5
    for text in drawn:
        diagram = read_diagram(text)
        fen = text.split('data-fen="')[1].split('"')[0]
        candidates = [python_diagram(view, variant) for view, variant in views if view[1] == fen]
        assert any(
            (d.view_box, d.title, d.squares, d.pieces, d.highlights, d.marks, d.arrows)
            == (
                diagram.view_box,
                diagram.title,
                diagram.squares,
                diagram.pieces,
                diagram.highlights,
                diagram.marks,
                diagram.arrows,
            )
            for d in candidates
        ), fen


def python_diagram(view: list[Any], variant: str) -> Any:
    """The diagram ``board_svg`` writes of a board of the page data."""
    spec = variant_by_name(variant).board
    coordinates = next(
        c for c in ("numbers", "algebraic", "none") if layout_for(spec, c).key == view[0]
    )
    return read_diagram(
        board_svg(
            Board.from_fen(view[1], variant),
            arrows=[Arrow(tuple(a[1]), a[0], tuple(a[2])) for a in view[3]],
            highlights={square: colour for square, colour in view[4]},
            coordinates=coordinates,  # type: ignore[arg-type]
        )
    )


def test_filters_hide_and_show_findings(browser: Browser, sample: Path) -> None:
    browser.open(sample)
    assert len(findings(browser)) == 46
    choose(browser, "f-code", "E05")
    shown = findings(browser)
    assert [f["code"] for f in shown] == ["E05"]
    assert status(browser).startswith("1 of 46 findings")
    choose(browser, "f-code", "")
    choose(browser, "f-sev", "warning")
    shown = findings(browser)
    assert len(shown) == 14 and {f["severity"] for f in shown} == {"warning"}
    choose(browser, "f-code", "E07")  # E07 is an error: nothing left
    assert findings(browser) == []
    assert browser.evaluate("document.querySelector('p.empty') !== null")
    choose(browser, "f-code", "")
    choose(browser, "f-sev", "")
    files = browser.evaluate(
        "Array.from(document.getElementById('f-file').options).map(o => [o.value, o.text])"
    )
    faults = next(value for value, name in files if name.endswith("illegal-moves.pdn"))
    choose(browser, "f-file", faults)
    shown = findings(browser)
    assert len(shown) == 4 and all("illegal-moves.pdn:" in f["loc"] for f in shown)
    assert [f["severity"] for f in shown] == ["error", "error", "warning", "info"]
    choose(browser, "f-file", "")
    assert len(findings(browser)) == 46
    # The summary's links filter too.
    browser.evaluate(
        """new Promise(done => {
            window.addEventListener('hashchange', () => done(), {once: true});
            document.querySelector('#codes a[href="#code=E07"]').click();
        })"""
    )
    assert [f["code"] for f in findings(browser)] == ["E07"]
    assert browser.evaluate("document.getElementById('f-code').value") == "E07"


def follow(browser: Browser, action: str) -> None:
    """Do *action* (JavaScript) and wait for the address it changes."""
    browser.evaluate(
        f"""new Promise(done => {{
            window.addEventListener('hashchange', () => done(), {{once: true}}); {action}; }})"""
    )


def test_the_filters_survive_a_visit_to_a_game(browser: Browser, sample: Path) -> None:
    browser.open(sample)
    choose(browser, "f-code", "E05")
    assert [f["code"] for f in findings(browser)] == ["E05"]
    follow(browser, "document.querySelector('article.finding a.open').click()")
    assert browser.evaluate("document.getElementById('viewer').hidden") is False
    assert browser.evaluate("document.getElementById('f-code').value") == "E05"
    # Back to the findings, by the viewer's link: the list is still filtered.
    follow(browser, "document.querySelector('#viewer p.links a').click()")
    assert browser.evaluate("location.hash") == "#code=E05"
    assert [f["code"] for f in findings(browser)] == ["E05"]
    # The same by the game's own list of findings, which focuses the finding.
    follow(browser, "document.querySelector('article.finding a.open').click()")
    follow(browser, "document.querySelector('ul.game-findings a[href^=\"#finding=\"]').click()")
    shown = findings(browser)
    assert [f["code"] for f in shown] == ["E05"] and shown[0]["current"]
    # A finding the filters hide is shown all the same, the filters cleared.
    wanted = browser.evaluate("location.hash")
    choose(browser, "f-code", "E07")
    assert [f["code"] for f in findings(browser)] == ["E07"]
    follow(browser, f"location.hash = {wanted!r}")
    shown = findings(browser)
    assert browser.evaluate("document.getElementById('f-code').value") == ""
    assert len(shown) > 1 and [f["code"] for f in shown if f["current"]] == ["E05"]
    assert browser.console_problems() == []


def test_keys_move_between_findings_across_pages(browser: Browser, tmp_path: Path) -> None:
    source = many_findings(tmp_path / "many.pdn", 120)
    target = tmp_path / "many.html"
    command = ["report", str(source), "--no-group", "-j", "1", "-o", str(target)]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    browser.open(target)
    assert status(browser) == "120 of 120 findings · page 1 of 3"
    assert len(findings(browser)) == 50  # one page at a time
    browser.key("j")
    assert [f["id"] for f in findings(browser) if f["current"]] == ["f0"]
    assert browser.evaluate("document.activeElement.id") == "f0"
    for _ in range(50):
        browser.key("j")
    assert status(browser) == "120 of 120 findings · page 2 of 3"
    shown = findings(browser)
    assert len(shown) == 50 and [f["id"] for f in shown if f["current"]] == ["f50"]
    assert all(len(f["boards"]) == 1 for f in shown)
    browser.key("k")
    assert status(browser).endswith("page 1 of 3")
    assert browser.evaluate("document.activeElement.id") == "f49"
    browser.key("n")
    until(browser, "document.getElementById('status').textContent.endsWith('page 2 of 3')")
    assert status(browser).endswith("page 2 of 3")
    browser.key("n")
    until(browser, "document.getElementById('status').textContent.endsWith('page 3 of 3')")
    assert status(browser).endswith("page 3 of 3") and len(findings(browser)) == 20
    # "o" opens the game of the finding in focus, at the finding's ply; Escape returns.
    browser.key("j")
    opened = browser.evaluate("location.hash")
    browser.key("o")
    until(browser, "!document.getElementById('viewer').hidden")
    assert browser.evaluate("location.hash").startswith("#game=") and opened != "#game="
    assert browser.evaluate("document.querySelector('.ply-status').textContent").startswith(
        "after ply 6 of 6"
    )
    # The finding's move is marked in the game's move list, and leads back to it.
    assert browser.evaluate("document.querySelector('p.moves a.bad').dataset.ply") == "6"
    browser.evaluate(
        """new Promise(done => {
            window.addEventListener('hashchange', () => done(), {once: true});
            document.querySelector('ul.game-findings a[href^="#finding="]').click();
        })"""
    )
    current = [f for f in findings(browser) if f["current"]]
    assert len(current) == 1 and current[0]["ply"] == 6
    assert browser.console_problems() == []


# -- SVG boards, pixel by pixel ---------------------------------------------------------------
def render(browser: Browser, tmp_path: Path, svg: str) -> Image.Image:
    target = tmp_path / "board.svg"
    target.write_text(svg, encoding="utf-8")
    browser.open(target)
    return shot(browser)


def centre_of(board: Board, square: int, **layout: Any) -> tuple[int, int]:
    x, y = layout_for(board.position.geometry.spec, **layout).centre(square)
    return x, y


def test_pixels_of_an_international_board(browser: Browser, tmp_path: Path) -> None:
    board = Board.from_fen("W:WK46,33:B5,18")
    svg = board_svg(board, arrows=[Arrow((41, 10), "red")], highlights={50: "red"}, size=500)
    image = render(browser, tmp_path, svg)
    at = {s: centre_of(board, s) for s in range(1, 51)}
    assert near(image.getpixel(at[46]), rgb(CROWN))  # a king wears a crown
    assert near(image.getpixel(at[33]), rgb(WHITE_PIECE))
    assert near(image.getpixel(at[5]), rgb(BLACK_PIECE))
    assert near(image.getpixel(at[18]), rgb(BLACK_PIECE))
    assert near(image.getpixel(at[27]), rgb(DARK))  # an empty playing square
    assert near(image.getpixel((SQUARE // 2, SQUARE // 2)), rgb(LIGHT))  # a1 is dark, a10 light
    assert near(image.getpixel(at[50]), blend(PALETTE["red"], DARK, 0.5))
    # A quarter of the way from 37 to 32, the arrow lies over square 37.
    (x1, y1), (x2, y2) = at[37], at[32]
    quarter = ((3 * x1 + x2) // 4, (3 * y1 + y2) // 4)
    assert near(image.getpixel(quarter), blend(PALETTE["red"], DARK, 0.85), 12)
    assert near(image.getpixel((600, 300)), (255, 255, 255))  # nothing outside the board


def test_pixels_of_the_italian_turned_board(browser: Browser, tmp_path: Path) -> None:
    board = Board(variant="italian")
    image = render(browser, tmp_path, board_svg(board, size=400))
    assert near(image.getpixel((SQUARE // 2, 7 * SQUARE + SQUARE // 2)), rgb(LIGHT))  # a1
    assert near(image.getpixel(centre_of(board, 29)), rgb(WHITE_PIECE))  # b1
    assert near(image.getpixel(centre_of(board, 1)), rgb(BLACK_PIECE))  # a8
    assert near(image.getpixel(centre_of(board, 15)), rgb(DARK))


def test_pixels_of_a_turkish_board_turned_round(browser: Browser, tmp_path: Path) -> None:
    board = Board(variant="turkish")
    image = render(browser, tmp_path, board_svg(board, flipped=True, size=400))
    assert near(image.getpixel(centre_of(board, 9, flipped=True)), rgb(BLACK_PIECE))
    assert centre_of(board, 9, flipped=True)[1] > 300  # Black's men at the bottom
    assert near(image.getpixel(centre_of(board, 41, flipped=True)), rgb(WHITE_PIECE))
    assert near(image.getpixel(centre_of(board, 33, flipped=True)), rgb(TURKISH))
    assert near(image.getpixel(centre_of(board, 1, flipped=True)), rgb(TURKISH))


def test_pixels_of_an_algebraic_russian_capture(browser: Browser, tmp_path: Path) -> None:
    board = Board.from_fen("W:Wc3:Bd4,a7", variant="russian")
    capture = board.legal_moves[0]
    assert capture.captures == {board.position.geometry.square_named("d4")}
    layout = {"coordinates": "algebraic"}
    width = layout_for(board.position.geometry.spec, "algebraic").width
    arrow = Arrow.of_move(capture, "green")
    image = render(
        browser, tmp_path, board_svg(board, arrows=[arrow], coordinates="algebraic", size=width)
    )
    [taken] = capture.captures
    x, y = centre_of(board, taken, **layout)
    # The capture mark crosses the taken man: its stroke runs through the centre.
    assert near(image.getpixel((x, y)), rgb(PALETTE["green"]), 30)
    assert near(image.getpixel((x + 10, y - 10)), rgb(PALETTE["green"]), 30)
    assert near(image.getpixel((x + 10, y)), rgb(BLACK_PIECE))  # between the strokes
    a7 = board.position.geometry.square_named("a7")
    assert a7 is not None
    assert near(image.getpixel(centre_of(board, a7, **layout)), rgb(BLACK_PIECE))
