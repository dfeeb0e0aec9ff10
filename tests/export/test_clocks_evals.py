"""Clocks and evaluations as data: the command forms, ``node.clock`` / ``node.eval``,
the moves table's ``clock_ms`` / ``eval_cp`` / ``eval_mate``, the JSON keys, W66, and
the comment kept byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from export_helpers import converted
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools import read_string, validate_string
from pdn_tools.cli import main
from pdn_tools.export.canonical import write_canonical
from pdn_tools.export.jsonfmt import game_dict
from pdn_tools.export.tables import MOVES_FIELDS, move_rows
from pdn_tools.pdn.commands import Clock, Evaluation, parse_clock, parse_eval, parse_time
from pdn_tools.replay.validate import validate
from pdn_tools.schemas import schema


def run_cli(*args: str) -> None:
    """``pdn ARGS`` in this process; it must succeed."""
    done = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert done.exit_code in (0, 1), done.output


GAME = (
    '[GameType "20"]\n[Result "*"]\n\n'
    "1. 32-28 {[%clock w1:29:46 B1:29:40] [%eval +0.35]} 19-23 {a note [%clk 0:04:55]"
    "[%eval #-5]} 2. 28x19 {[%eval 0.35,18]} 14x23 {[%eval abc]} *\n"
)


def test_time_forms() -> None:
    assert parse_time("1:29:46") == (3600 + 29 * 60 + 46) * 1000
    assert parse_time("4:55") == 295_000
    assert parse_time("300") == 300_000
    assert parse_time("0:00:09.56") == 9_560
    assert parse_time("1:75") is None
    assert parse_time("1:2:3:4") is None
    assert parse_time("abc") is None


@given(st.integers(0, 99), st.integers(0, 59), st.integers(0, 59), st.integers(0, 999))
def test_time_round_trip(hours: int, minutes: int, seconds: int, ms: int) -> None:
    text = f"{hours}:{minutes:02d}:{seconds:02d}.{ms:03d}"
    assert parse_time(text) == ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms


def test_clock_forms() -> None:
    both = parse_clock("w1:29:46 B1:29:40")
    assert both == Clock(5_386_000, 5_380_000, 5_386_000, "black")
    assert both.remaining("white") == 5_386_000 and both.remaining("black") == 5_380_000
    after_black = parse_clock("W1:29:46 b1:29:40")
    assert after_black is not None and after_black.own_ms == 5_380_000
    assert after_black.to_move == "white"
    unmarked = parse_clock("w0:10:00 b0:09:00")  # no side marked to move
    assert unmarked is not None and unmarked.own_ms is None
    assert unmarked.remaining(None) is None and unmarked.remaining("black") == 540_000
    single = parse_clock("0:04:55")
    assert single == Clock(None, None, 295_000) and single.remaining("white") == 295_000
    for bad in ("", "w1:00", "w1:00 w2:00", "x1:00 b1:00", "w1:00 b1:99", "soon"):
        assert parse_clock(bad) is None, bad


def test_eval_forms() -> None:
    assert parse_eval("+0.35") == Evaluation(35)
    assert parse_eval("-1.2") == Evaluation(-120)
    assert parse_eval("0") == Evaluation(0)
    assert parse_eval("-0.048") == Evaluation(-5)  # rounded half away from zero
    assert parse_eval("0.005") == Evaluation(1)
    assert parse_eval("0.35,18") == Evaluation(35)
    assert parse_eval("#5") == Evaluation(None, 5)
    assert parse_eval("#-5") == Evaluation(None, -5)
    for bad in ("abc", "#0", "#", "1.2.3", "+", "0.3 deep"):
        assert parse_eval(bad) is None, bad


@given(st.integers(-100_000, 100_000))
def test_eval_centi_men(cp: int) -> None:
    sign = "-" if cp < 0 else "+"
    assert parse_eval(f"{sign}{abs(cp) // 100}.{abs(cp) % 100:02d}") == Evaluation(cp)


def test_node_properties_and_w66() -> None:
    (game,) = list(validate_string(GAME))
    nodes = list(game.mainline())
    assert nodes[0].clock == Clock(5_386_000, 5_380_000, 5_386_000, "black")
    assert nodes[0].eval == Evaluation(35)
    assert nodes[1].clock == Clock(None, None, 295_000)
    assert nodes[1].eval == Evaluation(None, -5)
    assert nodes[2].clock is None and nodes[2].eval == Evaluation(35)
    assert nodes[3].eval is None  # unreadable: no value, and a finding
    assert game.clock is None and game.eval is None
    w66 = [i for i in game.issues if i.code == "W66"]
    assert len(w66) == 1
    assert w66[0].message == "[%eval abc] is not an evaluation"
    line = GAME.splitlines()[w66[0].line - 1]
    assert line[w66[0].column - 1 :].startswith("[%eval abc]")


def test_w66_stays_a_warning_under_strict() -> None:
    (game,) = list(validate_string(GAME, strict=True))
    assert [i.severity.value for i in game.issues if i.code == "W66"] == ["warning"]


def test_w66_placed_on_a_later_line_of_a_comment() -> None:
    text = '[GameType "20"]\n1. 32-28 {first line\n  [%clock soon]} *\n'
    (game,) = read_string(text)
    (issue,) = [i for i in game.issues if i.code == "W66"]
    assert (issue.line, issue.column) == (3, 3)


def test_moves_table_columns() -> None:
    names = [f.name for f in MOVES_FIELDS]
    assert names[-4:] == ["clock_ms", "eval_cp", "eval_mate", "best_move"]
    game, _, resolution = converted(GAME)
    rows = move_rows(game, resolution)
    facts = [(r["side"], r["clock_ms"], r["eval_cp"], r["eval_mate"]) for r in rows]
    assert facts == [
        ("white", 5_386_000, 35, None),
        ("black", 295_000, None, -5),
        ("white", None, 35, None),
        ("black", None, None, None),
    ]


def test_json_keys_and_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    game, replay, resolution = converted(GAME)
    data = game_dict(game, replay, resolution)
    moves = data["moves"]
    assert (moves[0]["clock_ms"], moves[0]["eval_cp"]) == (5_386_000, 35)
    assert (moves[1]["clock_ms"], moves[1]["eval_mate"]) == (295_000, -5)
    assert "eval_mate" not in moves[0] and "clock_ms" not in moves[2]
    assert "eval_cp" not in moves[3]
    jsonschema.validate(json.loads(json.dumps(data)), schema("game"))


def test_comments_kept_byte_for_byte(tmp_path: Path) -> None:
    game, _, resolution = converted(GAME)
    written = write_canonical(game, resolution)
    for comment in ("{[%clock w1:29:46 B1:29:40] [%eval +0.35]}", "{[%eval abc]}",
                    "{a note [%clk 0:04:55][%eval #-5]}", "{[%eval 0.35,18]}"):  # fmt: skip
        assert comment in written
    # and through JSON and back
    src = tmp_path / "g.pdn"
    src.write_text(GAME)
    run_cli("convert", str(src), "-o", str(tmp_path / "g.jsonl"))
    run_cli("convert", str(tmp_path / "g.jsonl"), "-o", str(tmp_path / "back.pdn"))
    assert (tmp_path / "back.pdn").read_text() == written


def test_parquet_moves_table(tmp_path: Path) -> None:
    src = tmp_path / "g.pdn"
    src.write_text(GAME)
    run_cli(
        "convert", str(src), "-o", str(tmp_path / "g.parquet"),
        "--moves-table", str(tmp_path / "m.parquet"),
    )  # fmt: skip
    table = pq.read_table(tmp_path / "m.parquet")
    assert table.column("clock_ms").to_pylist() == [5_386_000, 295_000, None, None]
    assert table.column("eval_cp").to_pylist() == [35, None, 35, None]
    assert table.column("eval_mate").to_pylist() == [None, -5, None, None]


@pytest.mark.corpus
def test_corpus_clock_and_eval_commands_all_read(corpus: Path) -> None:
    """Every clock and evaluation command of the real files reads as data: the
    lidraughts broadcast (both clocks after every move) and Dragon's evaluations."""
    broadcast = (
        corpus / "Yodachess__BrunoGUI_Dames/Dames_PartiesPdn_FEN/World Title Match Women 2024.pdn"
    )
    dragon = corpus / "wiegerw__pdn/succeed/windragon.pdn"
    if not broadcast.exists() or not dragon.exists():
        pytest.skip("the broadcast and Dragon files are not in this copy of the corpus")
    clocks = evals = 0
    for path in (broadcast, dragon):
        for game in validate(path):
            assert not [i for i in game.issues if i.code == "W66"]
            node = game.next()
            while node is not None:
                if "%clock" in "".join(c.text for c in node.comments):
                    assert node.clock is not None and node.clock.own_ms is not None
                    clocks += 1
                if "%eval" in "".join(c.text for c in node.comments):
                    assert node.eval is not None and node.eval.cp is not None
                    evals += 1
                node = node.next()
    assert clocks > 200 and evals > 50


BIG = "9" * 30


@pytest.mark.parametrize(
    "value",
    [
        f"{BIG}.5",  # more digits than the decimal context rounds: once a traceback
        f"-{BIG}",
        "92233720368547758.08",  # one centi-man beyond the 64-bit integers
        f"#{BIG}",
    ],
)
def test_an_evaluation_beyond_64_bits_is_w66(value: str) -> None:
    """An evaluation no 64-bit column holds reads as none (W66), in every output alike."""
    assert parse_eval(value) is None
    (game,) = validate_string(f"1. 32-28 {{[%eval {value}]}} 19-23 *")
    assert next(game.mainline()).eval is None
    [w66] = [i for i in game.issues if i.code == "W66"]
    assert "is beyond the values read" in w66.message


def test_the_largest_values_read() -> None:
    largest = (1 << 63) - 1
    assert parse_eval("92233720368547758.07") == Evaluation(largest)
    assert parse_eval("-92233720368547758.07") == Evaluation(-largest)
    assert parse_eval(f"#-{largest}") == Evaluation(None, -largest)
    assert parse_time("2562047788015:12:55.807") == largest
    assert parse_time("2562047788015:12:55.808") is None
    (game,) = validate_string("1. 32-28 {[%clk 2562047788015:12:55.808]} 19-23 *")
    assert next(game.mainline()).clock is None
    [w66] = [i for i in game.issues if i.code == "W66"]
    assert "is beyond the values read" in w66.message and "milliseconds" in w66.message
    (game,) = validate_string("1. 32-28 {[%eval #0] [%clk 1:99:00]} 19-23 *")
    assert [i.message.split("] ")[1] for i in game.issues if i.code == "W66"] == [
        "is not an evaluation",
        "is not a clock",
    ]


@pytest.mark.parametrize(
    "movetext",
    [
        "1. 32-28 $NAG 19-23 *",  # the reader's plain words
        "1. 32-28 {c} $NAG 19-23 *",
        "1. 32-28 (1. 33-28) $NAG 19-23 *",
        "1. 32-28 1- 6 $NAG 19-23 *",  # after a word read by the item patterns
        "$NAG 1. 32-28 19-23 *",
    ],
)
def test_a_nag_beyond_64_bits_is_kept_as_a_comment(movetext: str) -> None:
    """A NAG no 64-bit column holds is no NAG of any table: kept as written, as a
    comment, with W15, wherever the reader meets it."""
    nag = "$" + BIG
    game = read_string(movetext.replace("$NAG", nag))[0]
    (finding,) = [i for i in game.issues if i.code == "W15"]
    assert BIG[:10] in finding.message
    assert finding.line == 1 and finding.column == movetext.index("$NAG") + 1
    nodes = [game, *game.mainline()]
    assert any(nag in [c.text for c in node.comments] for node in nodes)
    assert not any(node.nags for node in nodes)
    small = read_string(movetext.replace("$NAG", "$" + "9" * 18))[0]
    assert not [i for i in small.issues if i.code == "W15"]
    assert [n for node in [small, *small.mainline()] for n in node.nags] == [int("9" * 18)]
