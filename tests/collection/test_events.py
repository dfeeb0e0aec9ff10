"""Tournaments checked as a whole, on event files built here from real games.

The games are real: the first clean games of a tournament of the shared corpus
(Montpellier Open 2021), their moves written again under a round robin of six
players that this module pairs (a Berger table, colours alternating), dated a day a
round.  The complete round robin gives no finding about its event; each variant
plants one defect — a round missing, a player without a game in a round, a double
pairing, a mis-dated game (another year, another month), two spellings of a player,
a live-feed snapshot, copies that disagree, a player against themselves — and exactly
that defect is found, with its code, its round and its games.  The files exist only
in the test's temporary folder (the corpus is read, never copied into the project).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from hypothesis import given
from hypothesis import strategies as st

import pdn_tools

SOURCE = "Yodachess__BrunoGUI_Dames/Dames_PartiesPdn_FEN/Montpellier Open Serie A.pdn"
PLAYERS = (
    "Sijbrands, Ton",
    "Wiersma, Harm",
    "Baljakin, Aleksander",
    "Georgiev, Alexander",
    "Schwarzman, Alexander",
    "Chizhov, Alexei",
)
EVENT = "Testtoernooi"
SITE = "Amsterdam"


@dataclass(frozen=True)
class Played:
    """One game of the built tournament: its tags and its real moves and result."""

    round: str
    white: str
    black: str
    date: str
    moves: tuple[str, ...]
    result: str
    event: str = EVENT

    def pdn(self) -> str:
        tags = [
            ("Event", self.event),
            ("Site", SITE),
            ("Date", self.date),
            ("Round", self.round),
            ("White", self.white),
            ("Black", self.black),
            ("Result", self.result),
            ("GameType", "20"),
        ]
        head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
        plies = []
        for n, move in enumerate(self.moves):
            plies.append(f"{n // 2 + 1}. {move}" if n % 2 == 0 else move)
        return head + "\n" + " ".join([*plies, self.result]) + "\n"


#: The Berger table of six players (1-based, White first), colours alternating.
BERGER_6 = (
    ((1, 6), (2, 5), (3, 4)),
    ((6, 4), (5, 3), (1, 2)),
    ((2, 6), (3, 1), (4, 5)),
    ((6, 5), (1, 4), (2, 3)),
    ((3, 6), (4, 2), (5, 1)),
)


@pytest.fixture(scope="module")
def sources(corpus: Path) -> list[tuple[tuple[str, ...], str]]:
    """(moves, result) of the first 16 clean games of the source tournament, the
    moves in standard notation as the replay resolved them."""
    games = []
    for game in pdn_tools.validate(str(corpus / SOURCE)):
        data = game.to_json()
        if game.status == "error" or not data["validation"]["completed"]:
            continue
        moves = tuple(node["canonical"] for node in data["moves"] if node["kind"] == "move")
        if len(moves) >= 30:
            games.append((moves, str(data["result"])))
        if len(games) == 16:
            break
    assert len(games) == 16
    return games


@pytest.fixture(scope="module")
def complete(sources: list[tuple[tuple[str, ...], str]]) -> list[Played]:
    """The complete round robin: 6 players, 5 rounds, 15 games, in round order."""
    out = []
    source = iter(sources)
    for number, pairs in enumerate(BERGER_6, 1):
        for white, black in pairs:
            moves, result = next(source)
            date = f"2024.05.{10 + number:02d}"
            out.append(
                Played(str(number), PLAYERS[white - 1], PLAYERS[black - 1], date, moves, result)
            )
    for player in PLAYERS:
        colours = [g.white == player for g in out if player in (g.white, g.black)]
        longest = max(len(list(run)) for _colour, run in itertools.groupby(colours))
        assert longest < 3, (player, colours)  # the table itself must not make W57
    return out


def write(tmp_path: Path, games: list[Played], name: str = "event.pdn") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(game.pdn() for game in games), encoding="utf-8")
    return path


def findings(*args: str) -> list[dict[str, Any]]:
    """The event findings of ``pdn validate ARGS --format jsonl --info``."""
    done = run("validate", *args, "--format", "jsonl", "--info", "--jobs", "1")
    assert done.returncode in (0, 1), done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    games = [r for r in records if "event" not in r]
    events = [r for r in records if "event" in r]
    assert records[: len(games)] == games  # the event findings come after every game
    return events


def only(found: list[dict[str, Any]], code: str) -> dict[str, Any]:
    """The one finding, which must have *code*."""
    assert [f["code"] for f in found] == [code], found
    return found[0]


def games_of(finding: dict[str, Any]) -> list[int]:
    return [g["game"] for g in finding["games"]]


@pytest.mark.corpus
def test_the_complete_round_robin_gives_no_finding(tmp_path: Path, complete: list[Played]) -> None:
    path = write(tmp_path, complete)
    assert findings(str(path)) == []
    done = run("events", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    (event,) = json.loads(done.stdout)["events"]
    assert (event["event"], event["site"], event["year"]) == (EVENT, SITE, 2024)
    assert (event["games"], event["players"], event["rounds"]) == (15, 6, [1, 2, 3, 4, 5])
    assert event["format"]["guess"] == "round robin" and event["completeness"] == 1.0


@pytest.mark.corpus
def test_a_round_missing(tmp_path: Path, complete: list[Played]) -> None:
    games = [g for g in complete if g.round != "3"]
    finding = only(findings(str(write(tmp_path, games))), "W51")
    assert "round 3," in finding["message"] and finding["event"] == EVENT
    assert finding["round"] is None


@pytest.mark.corpus
def test_a_player_without_a_game_in_a_round(tmp_path: Path, complete: list[Played]) -> None:
    gone = next(g for g in complete if g.round == "4")
    games = [g for g in complete if g is not gone]
    finding = only(findings(str(write(tmp_path, games))), "W50")
    assert finding["round"] == "4"
    assert gone.white in finding["message"] and gone.black in finding["message"]
    assert games_of(finding) == [n + 1 for n, g in enumerate(games) if g.round == "4"]


@pytest.mark.corpus
def test_a_double_pairing(
    tmp_path: Path, complete: list[Played], sources: list[tuple[tuple[str, ...], str]]
) -> None:
    """A second, different game of one pairing in the same round."""
    first = next(g for g in complete if g.round == "2")
    moves, result = sources[15]
    extra = replace(first, moves=moves, result=result)
    games = [*complete, extra]
    path = write(tmp_path, games)
    finding = only(findings(str(path)), "E50")
    assert finding["round"] == "2" and finding["severity"] == "error"
    assert games_of(finding) == [complete.index(first) + 1, len(games)]
    assert first.white in finding["message"] and first.black in finding["message"]
    # The HTML report counts it where its title does: the Codes table (linked to the
    # events section, which lists it) and a note above the list of single games' findings.
    page = tmp_path / "report.html"
    done = run("report", str(path), "-o", str(page), "--jobs", "1")
    assert done.returncode == 1, done.stderr
    html = page.read_text(encoding="utf-8")
    codes = html[html.index('<table class="counts" id="codes">') :]
    codes = codes[: codes.index("</table>")]
    assert '<tr class="sev-error"><td><a href="#events">E50</a>' in codes
    assert "1 finding(s) about events, 1 of them error(s), are listed under" in html


@pytest.mark.corpus
def test_a_game_dated_in_another_year(tmp_path: Path, complete: list[Played]) -> None:
    games = list(complete)
    games[7] = replace(games[7], date="2023.05.14")
    finding = only(findings(str(write(tmp_path, games))), "W54")
    assert games_of(finding) == [8] and finding["year"] == 2024
    assert "dated 2023" in finding["message"]
    done = run("events", str(write(tmp_path, games)), "--format", "json")
    (event,) = json.loads(done.stdout)["events"]
    assert event["games"] == 15  # checked with its event


@pytest.mark.corpus
def test_a_game_dated_in_another_year_of_an_event_across_new_year(
    tmp_path: Path, complete: list[Played]
) -> None:
    days = {"1": "2023.12.30", "2": "2023.12.31", "3": "2024.01.01", "4": "2024.01.02"}
    games = [replace(g, date=days.get(g.round, "2024.01.03")) for g in complete]
    games[7] = replace(games[7], date="2034.01.02")
    finding = only(findings(str(write(tmp_path, games))), "W54")
    assert games_of(finding) == [8]
    assert finding["message"].endswith("dated 2034, the 14 other games of the event 2023-2024")


@pytest.mark.corpus
def test_a_game_dated_outside_the_event(tmp_path: Path, complete: list[Played]) -> None:
    games = list(complete)
    games[4] = replace(games[4], date="2024.09.12")
    finding = only(findings(str(write(tmp_path, games))), "W53")
    assert games_of(finding) == [5]
    assert "2024.09.12" in finding["message"] and "2024.05.11-2024.05.15" in finding["message"]


@pytest.mark.corpus
def test_two_spellings_of_a_player(tmp_path: Path, complete: list[Played]) -> None:
    games = list(complete)
    n = next(k for k, g in enumerate(games) if g.black == "Sijbrands, Ton")
    games[n] = replace(games[n], black="T. Sijbrands")
    path = write(tmp_path, games)
    finding = only(findings(str(path)), "W56")
    assert games_of(finding) == [n + 1]
    assert "'Sijbrands, Ton' (4); 'T. Sijbrands' (1)" in finding["message"]
    done = run("events", str(path), "--crosstable", "--format", "json")
    (event,) = json.loads(done.stdout)["events"]
    assert event["players"] == 6
    (line,) = [s for s in event["standings"] if s["name"] == "Sijbrands, Ton"]
    assert line["games"] == 5 and line["key"] == "sibrands ton"
    # The crosstable's summary counts the event's findings as the list does.
    (listed,) = json.loads(run("events", str(path), "--format", "json").stdout)["events"]
    assert event["findings"] == listed["findings"] >= 1


@pytest.mark.corpus
def test_a_live_feed_snapshot(tmp_path: Path, complete: list[Played]) -> None:
    grown = complete[9]
    snapshot = replace(grown, moves=grown.moves[:21], result="*")
    games = [*complete[:9], snapshot, *complete[9:]]
    path = write(tmp_path, games)
    finding = only(findings(str(path)), "W55")
    assert games_of(finding) == [10, 11] and finding["round"] == grown.round
    assert "game 10 (21 plies) is a live-feed snapshot of game 11" in finding["message"]
    out = tmp_path / "clean.pdn"
    done = run("convert", str(path), "-o", str(out), "--dedupe", "--drop-prefixes")
    assert done.returncode == 0, done.stderr
    assert "16 game(s) read, 15 written" in done.stderr
    assert "1 live-feed snapshot(s) dropped" in done.stderr
    assert findings(str(out)) == []


@pytest.mark.corpus
def test_copies_that_disagree(tmp_path: Path, complete: list[Played]) -> None:
    copied = complete[12]
    other = "0-2" if copied.result != "0-2" else "2-0"
    games = [*complete, replace(copied, result=other)]
    finding = only(findings(str(write(tmp_path, games))), "E52")
    assert games_of(finding) == [13, 16]
    assert "different results" in finding["message"]


@pytest.mark.corpus
@pytest.mark.parametrize("plies", [6, 30])
def test_a_copy_with_the_board_number_is_the_same_game(
    tmp_path: Path, complete: list[Played], plies: int
) -> None:
    """Round ``1`` on one copy and ``1.1`` (board 1) on another: one game, counted
    once, no finding (a short game was two games of one pairing, E50; a long one had
    copies with different rounds, E52)."""
    games = [replace(g, moves=g.moves[:plies]) if n == 0 else g for n, g in enumerate(complete)]
    games.append(replace(games[0], round="1.1"))
    path = write(tmp_path, games)
    assert findings(str(path)) == []
    done = run("events", str(path), "--crosstable", "--format", "json")
    (event,) = json.loads(done.stdout)["events"]
    assert event["games"] == 15
    assert all(line["games"] == 5 for line in event["standings"])


@pytest.mark.corpus
def test_a_player_against_themselves(tmp_path: Path, complete: list[Played]) -> None:
    games = [
        replace(complete[0], round="1", black=complete[0].white),
        replace(complete[1], round="2"),
    ]
    finding = only(findings(str(write(tmp_path, games))), "E51")
    assert games_of(finding) == [1] and finding["round"] == "1"
    # a game of no event: the names compared by their keys (case, spaces, order)
    loose = replace(complete[2], event="?", black=f" {complete[2].white.upper()} ")
    finding = only(findings(str(write(tmp_path, [loose], "loose.pdn"))), "E51")
    assert finding["event"] is None and games_of(finding) == [1]


@pytest.mark.corpus
def test_the_same_findings_with_jobs_and_selection(tmp_path: Path, complete: list[Played]) -> None:
    """Two files read by two workers give the report of one process, byte for byte;
    --select and --ignore take the event codes as any."""
    gone = next(g for g in complete if g.round == "4")
    games = [
        replace(g, date="2023.05.13") if g is complete[3] else g for g in complete if g is not gone
    ]
    first = write(tmp_path, games[:8], "a.pdn")
    second = write(tmp_path, games[8:], "b.pdn")
    alone = run("validate", str(first), str(second), "--format", "jsonl", "--jobs", "1")
    parallel = run("validate", str(first), str(second), "--format", "jsonl", "--jobs", "2")
    assert alone.stdout == parallel.stdout and alone.stdout.count('"event"') == 2
    codes = [f["code"] for f in findings(str(first), str(second))]
    assert codes == ["W50", "W54"]
    assert [f["code"] for f in findings(str(first), str(second), "--ignore", "W54")] == ["W50"]
    assert findings(str(first), str(second), "--select", "E") == []
    assert findings(str(first), str(second), "--rule", "events=no") == []


def points_of(games: list[Played]) -> dict[str, int]:
    """Each player's points in half-points... in the 2/1/0 of international draughts."""
    points = dict.fromkeys(PLAYERS, 0)
    for game in games:
        white, black = {"2-0": (2, 0), "1-1": (1, 1), "0-2": (0, 2)}[game.result]
        points[game.white] += white
        points[game.black] += black
    return points


@pytest.mark.corpus
def test_the_crosstable_adds_up(tmp_path: Path, complete: list[Played]) -> None:
    path = write(tmp_path, complete)
    done = run("events", str(path), "--event", "testTOERNOOI", "--crosstable", "--format", "json")
    assert done.returncode == 0, done.stderr
    (table,) = json.loads(done.stdout)["events"]
    assert table["scoring"] == "2/1/0" and table["layout"] == "opponents"
    assert table["tiebreak"] == "Sonneborn-Berger"
    expected = points_of(complete)
    assert {s["name"]: s["points"] for s in table["standings"]} == expected
    points = [s["points"] for s in table["standings"]]
    assert points == sorted(points, reverse=True)
    numbers = {s["name"]: s["number"] for s in table["standings"]}
    for line in table["standings"]:
        assert line["games"] == 5 and len(line["cells"]) == 5
        assert line["wins"] + line["draws"] + line["losses"] == 5
        for cell in line["cells"]:
            game = complete[cell["game"] - 1]
            me = line["name"]
            assert me in (game.white, game.black)
            other = game.black if me == game.white else game.white
            assert cell["opponent"] == numbers[other]
            assert cell["colour"] == ("white" if me == game.white else "black")
            assert cell["round"] == game.round
    text = run("events", str(path), "--event", "Test*", "--crosstable")
    assert text.returncode == 0
    lines = text.stdout.splitlines()
    assert lines[0] == f"{EVENT} ({SITE}, 2024)"
    for line in table["standings"]:
        row = next(x for x in lines if f"  {line['name']}" in x)
        assert f" {line['points']} " in row
    assert run("events", str(path), "--event", "nothing like it").returncode == 1


@pytest.mark.corpus
def test_scoring_follows_the_records(tmp_path: Path, complete: list[Played]) -> None:
    """Results written 1-0 / 1/2-1/2 / 0-1 in an international event: scored 1/½/0."""
    chess = {"2-0": "1-0", "1-1": "1/2-1/2", "0-2": "0-1"}
    games = [replace(g, result=chess[g.result]) for g in complete]
    done = run("events", str(write(tmp_path, games)), "--crosstable", "--format", "json")
    (table,) = json.loads(done.stdout)["events"]
    assert table["scoring"] == "1/\u00bd/0"
    halves = points_of(complete)
    assert {s["name"]: s["points"] for s in table["standings"]} == {
        name: value / 2 if value % 2 else value // 2 for name, value in halves.items()
    }


@pytest.mark.corpus
def test_the_report_has_a_section_per_event(tmp_path: Path, complete: list[Played]) -> None:
    """The HTML report: the event's block with its finding and crosstable, each cell
    a link to the line of its game, which names the game's record."""
    from html.parser import HTMLParser

    games = [
        *complete,
        replace(complete[12], result="0-2" if complete[12].result != "0-2" else "2-0"),
    ]
    path = write(tmp_path, games)
    target = tmp_path / "report.html"
    done = run("report", str(path), "-o", str(target), "-j", "1")
    assert done.returncode == 1, done.stderr  # E52 is an error
    text = target.read_text(encoding="utf-8")

    class Links(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.ids: set[str] = set()
            self.cells: list[str] = []
            self.in_table = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found = dict(attrs)
            if found.get("id"):
                self.ids.add(str(found["id"]))
            if tag == "table" and found.get("class") == "crosstable":
                self.in_table = True
            if tag == "a" and self.in_table and found.get("href"):
                self.cells.append(str(found["href"])[1:])

        def handle_endtag(self, tag: str) -> None:
            if tag == "table":
                self.in_table = False

    links = Links()
    links.feed(text)
    assert 'id="events"' in text and f"{EVENT} ({SITE}, 2024)" in text
    assert len(links.cells) == 2 * len(complete)  # a cell per game and player
    assert set(links.cells) <= links.ids and len(set(links.cells)) == len(complete)
    assert "E52" in text and "records of one game give different results" in text
    assert f"{path}:" in text  # the games' lines name their records


#: A round robin of four players scored 1/½/0 (results written 1-0, 1/2-1/2): its
#: Sonneborn-Berger counts quarter points.
QUARTERS = (
    ("1", "Alpha, A", "Bravo, B", "1/2-1/2"),
    ("2", "Alpha, A", "Charlie, C", "1-0"),
    ("3", "Alpha, A", "Delta, D", "0-1"),
    ("3", "Bravo, B", "Charlie, C", "1-0"),
    ("2", "Bravo, B", "Delta, D", "1/2-1/2"),
    ("1", "Charlie, C", "Delta, D", "1/2-1/2"),
)


def test_points_and_tie_breaks_are_written_in_one_form(tmp_path: Path) -> None:
    """The tie-break column once mixed decimals (``2.75``) and fractions (``1½``):
    text and HTML now write every score and tie-break as whole points and a
    fraction; the JSON keeps numbers."""
    path = tmp_path / "cup.pdn"
    path.write_text(
        "\n".join(
            f'[Event "Cup"]\n[Site "X"]\n[Date "2020.01.0{n}"]\n[Round "{rnd}"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n[GameType "20"]\n'
            f"\n1. 32-28 {result}\n"
            for n, (rnd, white, black, result) in enumerate(QUARTERS, 1)
        ),
        encoding="utf-8",
    )
    (table,) = json.loads(run("events", str(path), "--crosstable", "--format", "json").stdout)[
        "events"
    ]
    assert table["scoring"] == "1/\u00bd/0" and table["tiebreak"] == "Sonneborn-Berger"
    expected = {"Delta, D": 2.75, "Bravo, B": 2.25, "Alpha, A": 1.5, "Charlie, C": 1}
    assert {s["name"]: s["tiebreak"] for s in table["standings"]} == expected
    text = run("events", str(path), "--crosstable").stdout
    rows = {line.split()[2]: line.split() for line in text.splitlines() if ", " in line}
    assert [rows[name][9] for name in ("Delta,", "Bravo,", "Alpha,", "Charlie,")] == [
        "2\u00be",
        "2\u00bc",
        "1\u00bd",
        "1",
    ]
    assert "." not in "".join(text.splitlines()[3:])  # no decimal anywhere in the table
    report = tmp_path / "r.html"
    assert run("report", str(path), "-o", str(report), "-j", "1").returncode == 0
    html = report.read_text(encoding="utf-8")
    table_html = html[html.index('class="crosstable"') :]
    table_html = table_html[: table_html.index("</table>")]
    for value in ("<td>2\u00be</td>", "<td>2\u00bc</td>", "<td>1\u00bd</td>"):
        assert value in table_html
    assert "2.75" not in table_html and "2.25" not in table_html


@given(st.integers(min_value=0, max_value=100_000))
def test_points_text_reads_back(quarters: int) -> None:
    from pdn_tools.report.events import points_text

    written = points_text(quarters / 4)
    whole = written.rstrip("\u00bc\u00bd\u00be")
    fraction = {"": 0, "\u00bc": 1, "\u00bd": 2, "\u00be": 3}[written[len(whole) :]]
    assert "." not in written and (int(whole) if whole else 0) * 4 + fraction == quarters
    assert points_text(quarters // 4) == str(quarters // 4)
