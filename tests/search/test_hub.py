"""The Hub protocol: its text, the built-in engine (``pdn engine --hub``) in a real
process, and the client against that engine and against a weak engine of its own."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import Position, legal_moves, parse_fen, variant_by_name
from pdn_tools.search import analyse
from pdn_tools.search.hub import (
    HubError,
    format_line,
    move_text,
    parse_line,
    parse_move,
    parse_position,
    position_text,
)
from pdn_tools.search.hub_client import HubEngine

HERE = Path(__file__).parent
SERVER = [sys.executable, "-m", "pdn_tools", "engine", "--hub"]
WEAK = [sys.executable, str(HERE / "weak_hub_engine.py")]
TIMEOUT = 60.0


def test_lines_are_read_with_quotes_and_flags() -> None:
    command, args = parse_line('info depth=3 pv="32-28 19-23" infinite empty="" q="a \\"b\\""')
    assert command == "info"
    assert args == {"depth": "3", "pv": "32-28 19-23", "infinite": "", "empty": "", "q": 'a "b"'}
    line = format_line("param", "flag", name="x y", value="", move_time=1.5)
    assert line == 'param flag name="x y" value="" move-time=1.5'
    assert parse_line(line) == (
        "param",
        {"flag": "", "name": "x y", "value": "", "move-time": "1.5"},
    )


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20))
def test_any_value_survives_a_line(value: str) -> None:
    assert parse_line(format_line("x", v=value))[1]["v"] == value


@pytest.mark.parametrize("name", ["international", "english", "russian", "frisian"])
def test_positions_and_moves_go_through_the_protocol_text(name: str) -> None:
    variant = variant_by_name(name)
    position = Position.initial(variant)
    for _ in range(6):
        text = position_text(position)
        assert parse_position(text, variant) == position
        moves = legal_moves(position, variant)
        for move in moves:
            assert parse_move(move_text(move), position, variant) == move
        position = position.apply(moves[-1])
    assert position_text(Position.initial(variant_by_name("international"))) == (
        "W" + "b" * 20 + "e" * 10 + "w" * 20
    )


def test_a_capture_names_its_captured_squares() -> None:
    position = parse_fen("W:W28:B23,14").position
    (move,) = legal_moves(position, variant_by_name("international"))
    assert move_text(move) == "28x10x14x23"
    with pytest.raises(HubError):
        parse_move("28x10x15", position, variant_by_name("international"))
    with pytest.raises(HubError):
        parse_position("Wxx", variant_by_name("international"))


def converse(lines: list[str]) -> list[str]:
    done = subprocess.run(
        SERVER,
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_engine_answers_as_the_protocol_says() -> None:
    out = converse(["hub", "init", "pos", "level depth=3", "go analyze", "ping", "quit"])
    assert out[0].startswith("id name=pdn-tools")
    assert out[1].startswith("param name=variant")
    assert out[2:4] == ["wait", "ready"]
    infos = [parse_line(line)[1] for line in out if line.startswith("info ")]
    assert [int(info["depth"]) for info in infos] == [1, 2, 3]
    done = [line for line in out if line.startswith("done ")]
    assert len(done) == 1
    _, args = parse_line(done[0])
    start = Position.initial(variant_by_name("international"))
    best = parse_move(args["move"], start, variant_by_name("international"))
    expected = analyse(start, depth=3)
    assert best == expected.best_move
    assert float(infos[-1]["score"]) == expected.score / 100
    assert "pong" in out


def test_the_engine_reads_positions_moves_and_variants() -> None:
    out = converse(
        [
            "hub",
            "set-param name=variant value=english",
            "init",
            'pos moves="9-13 22-18"',
            "level nodes=2000",
            "go analyze",
            "pos pos=Wxyz",
            "go think",
        ]
    )
    english = variant_by_name("english")
    position = Position.initial(english)
    for text in ("9-13", "22-18"):
        position = position.apply(parse_move(text, position, english))
    done = [parse_line(line)[1] for line in out if line.startswith("done")]
    assert len(done) == 2
    assert parse_move(done[0]["move"], position, english) in legal_moves(position, english)
    assert any(line.startswith("error message=") for line in out)


def test_pdn_engine_needs_a_protocol() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pdn_tools", "engine"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 2
    assert "--hub" in done.stderr


def test_the_client_drives_the_built_in_engine_in_its_own_process() -> None:
    international = variant_by_name("international")
    position = parse_fen("W:W28,31,32,33,34,35:B13,14,18,19,20,23").position
    with HubEngine(SERVER, timeout=TIMEOUT) as engine:
        assert engine.id["name"] == "pdn-tools"
        assert "variant" in engine.params
        result = engine.analyse(position, international, depth=4)
        again = engine.analyse(Position.initial(international), international, nodes=500)
    expected = analyse(position, international, depth=4)
    assert result.best_move == expected.best_move
    assert result.score == expected.score
    assert result.pv == expected.pv
    assert result.depth == 4
    assert again.best_move in legal_moves(Position.initial(international), international)
    assert engine.process.poll() is not None


def test_the_client_drives_another_variant_through_its_parameter() -> None:
    english = variant_by_name("english")
    with HubEngine(SERVER, timeout=TIMEOUT, params={"variant": "english"}) as engine:
        result = engine.analyse(Position.initial(english), english, depth=3)
    assert result.best_move == analyse(Position.initial(english), english, depth=3).best_move


def test_one_client_follows_the_variant_of_each_position() -> None:
    # The engine declares its variant parameter; the client sets it per position, so
    # one engine analyses a collection of several variants.
    with HubEngine(SERVER, timeout=TIMEOUT) as engine:
        for name in ("english", "international", "russian", "english"):
            variant = variant_by_name(name)
            start = Position.initial(variant)
            result = engine.analyse(start, variant, depth=3)
            assert engine.variant == name
            assert result.best_move == analyse(start, variant, depth=3).best_move


def test_a_position_the_engine_refuses_is_an_error_with_its_reason() -> None:
    international = variant_by_name("international")
    with (
        pytest.raises(HubError, match=r"refused .* not one I play"),
        HubEngine([*WEAK, "refuse"], timeout=TIMEOUT) as engine,
    ):
        engine.analyse(Position.initial(international), international, depth=1)


def test_the_engine_never_searches_the_position_before_a_refused_one() -> None:
    out = converse(["hub", "init", "pos pos=Wxyz", "level depth=2", "go analyze"])
    assert any(line.startswith("error message=") for line in out)
    done = [line for line in out if line.startswith("done")]
    assert done == ["done"]  # no move: there is no position to search
    assert not [line for line in out if line.startswith("info")]


def test_the_client_speaks_only_the_protocol() -> None:
    international = variant_by_name("international")
    start = Position.initial(international)
    with HubEngine([*WEAK, "normal"], timeout=TIMEOUT) as engine:
        assert engine.id == {
            "name": "Weak Engine",
            "version": "0.0",
            "author": "Nobody at all",
            "flavour": "plain",
        }
        assert engine.params["style"]["value"] == "very weak"
        result = engine.analyse(start, international, depth=5)
        later = start.apply(result.best_move)  # type: ignore[arg-type]
        later = later.apply(legal_moves(later, international)[0])
        second = engine.analyse(later, international, seconds=0.5)
    assert result.best_move is not None and result.best_move.from_sq == 31
    assert result.score == -50
    assert [m.from_sq for m in result.pv] == [31]
    assert second.best_move in legal_moves(later, international)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("silent", "did not answer 'ready'"),
        ("illegal", "names no legal move"),
        ("crash", "ended before 'done'"),
        ("flood", "more than 100,000 lines without 'done'"),
        ("overlong", "a line longer than 65,536 characters"),
    ],
)
def test_an_engine_that_misbehaves_is_an_error_and_is_ended(mode: str, words: str) -> None:
    """Each misbehaviour is named as such.  The short timeout only where the silence is
    what is tested: elsewhere the engine's start and its flood of lines must not be
    mistaken for a silence on a loaded host."""
    international = variant_by_name("international")
    engines: list[HubEngine] = []
    timeout = 3.0 if mode == "silent" else TIMEOUT
    with pytest.raises(HubError, match=words), HubEngine([*WEAK, mode], timeout=timeout) as engine:
        engines.append(engine)
        engine.analyse(Position.initial(international), international, depth=1)
    for engine in engines:
        assert engine.process.poll() is not None


def test_an_engine_that_cannot_start_is_an_error() -> None:
    with pytest.raises(HubError, match="cannot start engine"):
        HubEngine(["/nonexistent/engine-that-is-not-there", "hub"], timeout=3.0)


def test_an_infinite_analysis_ends_on_stop() -> None:
    process = subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    watchdog = threading.Timer(TIMEOUT, process.kill)  # a silent engine ends the reads
    watchdog.start()
    try:
        assert process.stdin is not None and process.stdout is not None
        for line in ("hub", "init", "pos", "level infinite", "go analyze"):
            process.stdin.write(line + "\n")
        process.stdin.flush()
        seen: list[str] = []
        while not any(line.startswith("info depth=3") for line in seen):
            seen.append(process.stdout.readline())
            assert seen[-1], "the engine ended"
        process.stdin.write("ping\nstop\n")
        process.stdin.flush()
        while not seen[-1].startswith("done"):
            seen.append(process.stdout.readline())
            assert seen[-1], "the engine ended"
        assert "pong\n" in seen
        _, args = parse_line(seen[-1])
        start = Position.initial(variant_by_name("international"))
        assert parse_move(args["move"], start, variant_by_name("international"))
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(timeout=TIMEOUT) == 0
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize(
    "level", ["level depth=abc", "level nodes=-5", "level move-time=nan", "level time=0"]
)
def test_a_level_it_cannot_take_is_an_error_and_the_budget_stays(level: str) -> None:
    out = converse(["hub", "init", "level depth=2", level, "go analyze", "quit"])
    errors = [parse_line(line)[1]["message"] for line in out if line.startswith("error ")]
    assert len(errors) == 1
    assert level.split()[1] in errors[0]
    depths = [int(parse_line(line)[1]["depth"]) for line in out if line.startswith("info ")]
    assert depths == [1, 2]


def test_a_line_too_long_is_an_error_and_the_engine_goes_on() -> None:
    out = converse(["hub", "pos pos=" + "e" * 200_000, "init", "ping", "quit"])
    errors = [parse_line(line)[1]["message"] for line in out if line.startswith("error ")]
    assert errors == ["a line longer than 65,536 characters"]
    assert "ready" in out and "pong" in out


def test_a_command_it_does_not_know_is_an_error_and_changes_nothing() -> None:
    """An unknown command (a typing slip, a line that is no command) gets one ``error``
    naming it, as cli.md says; the session goes on with its position and level."""
    out = converse(
        ["hub", "init", "level depth=2", "foo bar", '"unclosed', "", "go analyze", "quit"]
    )
    errors = [parse_line(line)[1]["message"] for line in out if line.startswith("error ")]
    assert errors == ["unknown command foo", 'unknown command "unclosed']
    depths = [int(parse_line(line)[1]["depth"]) for line in out if line.startswith("info ")]
    assert depths == [1, 2]
    assert sum(line.startswith("done ") for line in out) == 1


@pytest.mark.parametrize("head", ["pos pos=", " " * 70_000 + "pos pos="])
def test_a_position_too_long_leaves_no_position(head: str) -> None:
    """An over-long ``pos`` is refused as any unreadable ``pos`` is: the next ``go``
    answers ``error`` and a bare ``done``, never a move of the position before."""
    out = converse(["hub", "init", "pos", "level depth=2", head + "e" * 200_000, "go analyze"])
    errors = [parse_line(line)[1]["message"] for line in out if line.startswith("error ")]
    assert errors[0] == "a line longer than 65,536 characters"
    assert len(errors) == 2  # the go: no position
    assert [line for line in out if line.startswith("done")] == ["done"]
    assert not [line for line in out if line.startswith("info")]


def test_ponder_hit_is_a_command_it_knows() -> None:
    """``ponder-hit`` during ``go ponder`` lets the search go on to its budget and
    ``done``; without a search it does nothing; neither is an ``error``."""
    out = converse(
        ["hub", "init", "ponder-hit", "pos", "level depth=3", "go ponder", "ponder-hit", "ping"]
    )
    assert not [line for line in out if line.startswith("error")]
    assert "pong" in out
    done = [line for line in out if line.startswith("done")]
    assert len(done) == 1 and parse_line(done[0])[1]["move"]
