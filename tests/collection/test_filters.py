"""The filter options on ``validate``, ``stats``, ``convert`` (and ``duplicates``):
each test alone, their AND, ``--invert``, the summaries, and the same selection
whatever ``--jobs`` says."""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_helpers import run
from click.testing import CliRunner, Result
from helpers import random_game_pdn

from pdn_tools import read_string, validate
from pdn_tools.cli import main
from pdn_tools.rules import variant_by_name

INTERNATIONAL = variant_by_name("international")
RUSSIAN = variant_by_name("russian")


def _game(tags: dict[str, str], seed: int, plies: int, variant: str = "international") -> str:
    return random_game_pdn(variant_by_name(variant), random.Random(seed), plies, tags)


#: The games of the collection below, by number, and what the filters see in them.
GAMES = [
    {"Event": "WK 2024", "White": "Sijbrands, Ton", "Black": "Baliakin, Alexander",
     "Date": "2024.05.01", "Result": "2-0", "GameType": "20"},
    {"Event": "NK 2023", "White": "Baliakin, A.", "Black": "Jansen, Roel",
     "Date": "2023.??.??", "Result": "1-1", "GameType": "20"},
    {"Event": "WK 2023 blitz", "White": "Ivanov", "Black": "Petrov",
     "Date": "1998", "Result": "0-2", "GameType": "25"},
    {"Event": "Club", "White": "?", "Black": "Jansen, Roel", "Result": "*", "GameType": "20"},
    {"Event": "wk 2022", "White": "Jansen, Roel", "Black": "Sijbrands, Ton",
     "Date": "10.03.2022", "Result": "1-0", "GameType": "20"},
]  # fmt: skip
PLIES = [30, 8, 20, 12, 40]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The five games: random legal moves, except that game 2 writes its first move
    spaced (W10, a warning) and game 4 has an illegal fifth ply (E05)."""
    texts = []
    for number, (tags, plies) in enumerate(zip(GAMES, PLIES, strict=True), start=1):
        variant = "russian" if tags["GameType"] == "25" else "international"
        head, _, moves = _game(tags, number, plies, variant).partition("\n1. ")
        words = moves.split(" ")
        if number == 2:
            words[0] = words[0].replace("-", "- ")
        if number == 4:
            words[6] = "1-7"  # White to move, and no white piece on 1
        texts.append(head + "\n1. " + " ".join(words))
    path = tmp_path_factory.mktemp("filters") / "games.pdn"
    path.write_text("".join(texts), encoding="utf-8")
    return path


def invoke(*args: str) -> Result:
    """``pdn ARGS`` in this process (the worker processes are tested apart)."""
    return CliRunner().invoke(main, list(args))


def kept(path: Path, *options: str, command: str = "validate") -> list[int]:
    """The numbers of the games *command* keeps (validate: its jsonl records)."""
    if command == "validate":
        done = invoke("validate", str(path), "--format", "jsonl", "-j", "1", *options)
    else:
        done = invoke("convert", str(path), "-o", "-", "--to", "jsonl", *options)
    assert done.exit_code in (0, 1), done.stderr
    return [json.loads(line)["game"] for line in done.stdout.splitlines()]


def test_the_collection_is_as_planted(games: Path) -> None:
    read = list(validate(games))
    assert [g.tag("Event") for g in read] == [t["Event"] for t in GAMES]
    assert [g.status for g in read] == ["ok", "warning", "ok", "error", "ok"]
    assert [g.plies for g in read] == PLIES
    assert [i.code for i in read[1].issues] == ["W10"]
    assert [i.code for i in read[3].issues] == ["E05"]
    assert read[2].variant == "russian"


CASES: list[tuple[tuple[str, ...], list[int]]] = [
    (("--tag", "Event=WK*"), [1, 3, 5]),  # glob, any letter case, whole value
    (("--tag", "Event=WK 202?"), [1, 5]),
    (("--tag", "Event~^WK"), [1, 3]),  # regular expression, as written
    (("--tag", "Event~blitz$"), [3]),
    (("--tag", "Round=*"), []),  # no game has a Round tag
    (("--tag", "Event=WK*", "--tag", "Date~^20"), [1]),  # each --tag must hold
    (("--player", "Sijbrands*"), [1, 5]),  # White or Black
    (("--player", "jansen*", "--player", "*sijbrands*"), [5]),  # games between the two
    (("--player", "Baliakin*"), [1, 2]),
    (("--date-from", "2023"), [1, 2]),  # 2023.??.?? may lie in 2023
    (("--date-from", "2023.06"), [1, 2]),  # ... and after its June
    (("--date-to", "2022.12.31"), [3, 5]),  # 10.03.2022 read day first; 1998
    (("--date-from", "2000", "--date-to", "2023"), [2, 5]),
    (("--result", "2-0"), [1]),  # as written
    (("--result", "white"), [1, 5]),  # 1-0 in a 10x10 game: a win for White too
    (("--result", "draw,black"), [2, 3]),
    (("--result", "unknown"), [4]),
    (("--only-variant", "russian"), [3]),
    (("--only-variant", "shashki,20"), [1, 2, 3, 4, 5]),  # aliases, GameType numbers
    (("--min-plies", "20"), [1, 3, 5]),
    (("--max-plies", "12"), [2, 4]),  # game 4: the plies replayed before its error
    (("--min-plies", "10", "--max-plies", "30"), [1, 3]),
    (("--status", "clean"), [1, 3, 5]),
    (("--status", "warnings"), [2]),
    (("--status", "errors"), [4]),
    (("--status", "E05"), [4]),
    (("--status", "W10,E"), [2, 4]),
    (("--tag", "Event=WK*", "--result", "white", "--player", "Jansen*"), [5]),  # AND
]


@pytest.mark.parametrize(("options", "expected"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_each_filter(games: Path, options: tuple[str, ...], expected: list[int]) -> None:
    assert kept(games, *options) == expected
    everything = [1, 2, 3, 4, 5]
    inverted = kept(games, *options, "--invert")
    assert inverted == [n for n in everything if n not in expected]


def test_convert_and_stats_keep_the_same_games(games: Path, tmp_path: Path) -> None:
    options = ("--tag", "Event=WK*")
    assert kept(games, *options, command="convert") == [1, 3, 5]
    done = run("convert", str(games), "-o", str(tmp_path / "out.pdn"), *options)
    assert "5 game(s) read, 3 written, 0 rejected, 2 filtered out" in done.stderr
    assert len(read_string((tmp_path / "out.pdn").read_text(encoding="utf-8"))) == 3
    rejected = run(
        "convert", str(games), "-o", str(tmp_path / "out.pdn"),
        "--rejects", str(tmp_path / "bad.pdn"), "--player", "Jansen*",
    )  # fmt: skip
    assert "5 game(s) read, 2 written, 1 rejected, 2 filtered out" in rejected.stderr
    stats = json.loads(run("stats", str(games), "--format", "json", *options).stdout)
    total = stats["total"]
    assert total["games"] == 3 and total["filtered"] == 2 and total["files"] == 1
    assert total["results"] == {"0-2": 1, "1-0": 1, "2-0": 1}
    text = run("stats", str(games), "--total-only", *options).stdout
    assert "  filtered  2 game(s) left out by the filter options" in text
    plain = json.loads(run("stats", str(games), "--format", "json").stdout)
    assert "filtered" not in plain["total"] and plain["total"]["games"] == 5


def test_summaries_count_filtered_games(games: Path) -> None:
    text = run("validate", str(games), "--status", "errors")
    assert text.returncode == 1
    assert "1 file(s), 1 game(s): 1 error(s)" in text.stderr
    assert text.stderr.splitlines()[0].endswith("; 4 game(s) filtered out")
    quiet = run("validate", str(games), "--status", "clean")
    assert quiet.returncode == 0 and quiet.stdout == ""  # the games with findings are out
    doc = json.loads(run("validate", str(games), "--format", "json", "--player", "Ivanov").stdout)
    assert doc["summary"]["filtered"] == 4 and doc["summary"]["games"] == 1
    unfiltered = json.loads(run("validate", str(games), "--format", "json").stdout)
    assert "filtered" not in unfiltered["summary"]
    page = games.parent / "report.html"
    done = invoke("report", str(games), "-o", str(page), "--player", "Ivanov")
    assert done.exit_code == 0 and "; 4 game(s) filtered out" in done.stderr
    assert "<li><b>4</b>game(s) filtered out</li>" in page.read_text(encoding="utf-8")
    copy = page.parent / "copy.pdn"  # a second file: one file named twice is read once
    copy.write_bytes(games.read_bytes())
    dup = run("duplicates", str(games), str(copy), "--only-variant", "russian")
    assert dup.returncode == 1
    assert "2 game(s): 1 distinct, 1 copy of an earlier game in 1 group(s)" in dup.stderr
    assert "8 game(s) filtered out" in dup.stderr


def test_status_filters_see_the_reported_findings(games: Path) -> None:
    """--ignore W10 takes game 2's only finding away: it is clean for --status."""
    assert kept(games, "--status", "clean", "--ignore", "W10") == [1, 2, 3, 5]
    assert kept(games, "--status", "warnings", "--select", "E") == []


def _position_after(path: Path, number: int, plies: int) -> str:
    game = list(validate(path))[number - 1]
    return game.node_at(plies).board().fen()


def test_reaches_a_position(games: Path) -> None:
    fen = _position_after(games, 1, 6)
    assert kept(games, "--reaches", fen) == [1]
    side, placement = fen.split(":", 1)
    assert kept(games, "--reaches", placement) == [1]  # without the side to move
    other = ("B" if side == "W" else "W") + ":" + placement
    assert kept(games, "--reaches", other) == []  # the other side to move: never reached
    start = "W:W31-50:B1-20"
    assert kept(games, "--reaches", start) == [1, 2, 4, 5]  # the start counts; not Russian
    russian = _position_after(games, 3, 2)
    assert kept(games, "--reaches", russian) == [3]
    both = kept(games, "--reaches", start, "--reaches", fen)
    assert both == [1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--tag", "Event"), "expected NAME=GLOB or NAME~REGEX"),
        (("--tag", "Event~(unclosed"), "not a regular expression"),
        (("--date-from", "soon"), "expected a date"),
        (("--status", "pretty"), "is no status"),
        (("--only-variant", "chess"), "unknown variant"),
        (("--reaches", "W:W99:B1"), "not a FEN position"),
        (("--min-plies", "-1"), "-1"),
        (("--invert",), "--invert needs a filter option"),
        (("--reaches", "W:W31-50:B1-20", "--syntax-only"), "--reaches needs the replay"),
    ],
)
def test_bad_filter_values_are_usage_errors(
    games: Path, options: tuple[str, ...], message: str
) -> None:
    done = invoke("validate", str(games), *options)
    assert done.exit_code == 2, done.output
    assert message in done.stderr
    assert isinstance(done.exception, SystemExit)  # no traceback


def test_filters_run_in_the_workers(tmp_path: Path, games: Path) -> None:
    """A file cut into batches for worker processes: the same records, the same
    summary as in one process, for validate and stats."""
    big = tmp_path / "big.pdn"
    big.write_text((games.read_text(encoding="utf-8") + "\n\n") * 200, encoding="utf-8")
    assert big.stat().st_size > 1 << 18
    options: tuple[str, ...] = ("--tag", "Event=WK*", "--min-plies", "20", "--invert")

    def both(make: Callable[[str], list[str]]) -> list[str]:
        one, two = make("1"), make("2")
        assert one == two
        return one

    records = both(
        lambda jobs: [
            run("validate", str(big), "--format", "jsonl", "-j", jobs, *options).stdout,
            run("validate", str(big), "-j", jobs, *options).stderr,
        ]
    )
    numbers = [json.loads(line)["game"] % 5 for line in records[0].splitlines()]
    assert numbers == [2, 4] * 200  # games 2 and 4 of each copy
    assert "600 game(s) filtered out" in records[1]
    both(lambda jobs: [run("stats", str(big), "--format", "json", "-j", jobs, *options).stdout])


def test_an_italian_anno_is_the_date_of_every_date_reading(tmp_path: Path) -> None:
    """``Anno`` (a year alone, or a whole date) is read as the Date: the date filters,
    ``--split-by year``, the Parquet date columns and canonical PDN agree on it."""
    head = '[Dati "Campionato"]\n[GameType "22"]\n'
    path = tmp_path / "anni.pdn"
    path.write_text(
        f'{head}[Anno "2005"]\n\n1. 21-17 *\n\n'
        f'{head}[Anno "2010.11.10"]\n\n1. 22-18 *\n\n'
        f"{head}\n1. 23-19 *\n",
        encoding="utf-8",
    )
    assert kept(path, "--date-from", "2005.06") == [1, 2]
    assert kept(path, "--date-to", "2005") == [1]
    assert kept(path, "--date-from", "2010.11.11", command="convert") == []
    folder = tmp_path / "years"
    done = invoke("convert", str(path), "-o", str(folder), "--to", "pdn", "--split-by", "year")
    assert done.exit_code == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["2005.pdn", "2010.pdn", "_unknown.pdn"]
    table = tmp_path / "games.parquet"
    done = invoke("convert", str(path), "-o", str(table))
    assert done.exit_code == 0, done.stderr
    rows = pq.read_table(table, columns=["date", "date_text", "year"]).to_pylist()
    assert rows == [
        {"date": None, "date_text": "2005", "year": 2005},
        {"date": datetime.date(2010, 11, 10), "date_text": "2010.11.10", "year": 2010},
        {"date": None, "date_text": None, "year": None},
    ]
    done = invoke("convert", str(path), "-o", "-", "--to", "pdn")
    assert done.stdout.startswith('[Event "Campionato"]\n[Date "2005"]\n[GameType "22"]\n')
