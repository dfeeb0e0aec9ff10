"""Hostile input gets a clear verdict: no traceback, bounded memory, every game accounted for."""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import ReadOptions, read_games
from pdn_tools.pdn.reader import FileReport


def read_all(data: bytes, options: ReadOptions | None = None) -> tuple[list, FileReport]:  # type: ignore[type-arg]
    report = FileReport("hostile")
    games = list(read_games(io.BytesIO(data), options, name="hostile", report=report))
    return games, report


def all_codes(games: list) -> set[str]:  # type: ignore[type-arg]
    return {i.code for g in games for i in g.issues}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash(data: bytes) -> None:
    games, report = read_all(data)
    for game in games:
        assert game.status in ("ok", "warning", "error")
        for issue in game.issues:
            assert issue.line >= 1 and issue.column >= 1
    assert report.games == len(games)


@settings(max_examples=100, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list('[]{}()"%;*-x.:/$!? \n0123456789abcKW')), max_size=400)
)
def test_random_pdn_shaped_text_never_crashes(text: str) -> None:
    games, _ = read_all(text.encode())
    assert all(g.index == i + 1 for i, g in enumerate(games))


def test_five_megabyte_line_is_refused_with_e11() -> None:
    line = b"1. 32-28 18-23 " * (5_000_000 // 15)
    games, _ = read_all(b'[Event "long"]\n' + line + b'*\n[Event "next"]\n1. 31-27 *\n')
    assert [g.tag("Event") for g in games] == [None, "next"]
    assert "E11" in {i.code for i in games[0].issues}
    assert games[1].status == "ok"


def test_five_megabyte_line_of_junk() -> None:
    games, _ = read_all(b"a" * 5_000_000)
    assert len(games) == 1
    assert games[0].status == "error"


def test_deep_nesting_is_refused_not_recursed() -> None:
    deep = b"1. 32-28 " + b"(1. 33-28 " * 100_000 + b")" * 100_000 + b" *\n1. 31-27 *\n"
    games, _ = read_all(deep)
    assert "E11" in {i.code for i in games[0].issues}
    assert games[-1].status == "ok"
    nested = b"1. 32-28 " + b"(1. 33-28 " * 50 + b")" * 50 + b" *"
    shallow, _ = read_all(nested)
    assert shallow[0].status == "ok"


def test_unclosed_comment_and_string_do_not_swallow_the_file() -> None:
    data = (
        b'[Event "a"]\n1. 32-28 { never closed ' + b"words " * 10_000 + b"\n"
        b'[Event "b"]\n1. 33-29 *\n'
        b'[Event "never closed\n[Event "c"]\n1. 34-30 *\n'
    )
    games, _ = read_all(data)
    events = [g.tag("Event") for g in games]
    assert events[:2] == ["a", "b"] and events[-1] == "c"
    assert "E01" in {i.code for i in games[0].issues}
    assert games[1].status == "ok"


def test_unclosed_comment_at_end_of_input() -> None:
    games, _ = read_all(b'[Event "a"]\n1. 32-28 { never closed')
    assert [i.code for i in games[0].issues if i.code.startswith("E")] == ["E01"]


def test_multi_megabyte_tag_value() -> None:
    data = b'[Event "' + b"x" * 3_000_000 + b'"]\n1. 32-28 *\n[Event "b"]\n1. 33-29 *\n'
    games, _ = read_all(data)
    assert "E11" in {i.code for i in games[0].issues}
    assert games[-1].tag("Event") == "b"
    bigger, _ = read_all(data, ReadOptions(max_game_chars=4_000_000))
    assert len(bigger[0].tag("Event") or "") == 3_000_000


def test_utf16_without_bom_and_nul_bytes() -> None:
    games, _ = read_all('[Event "x"]\n1. 32-28 *'.encode("utf-16-le"))
    assert games[0].plies == 1
    games, _ = read_all(b"\x00" * 1000 + b"1. 32-28 *")
    assert games[0].plies == 1


def _tagless(count: int) -> Iterator[bytes]:
    for i in range(count):
        yield b"1. 32-28 18-23 2. 38-32 12-18 %d-%d\n" % (i % 3, 2 - i % 3)


def test_thirty_thousand_tagless_games() -> None:
    data = b"".join(_tagless(30_000))
    games, report = read_all(data)
    assert len(games) == 30_000 == report.games
    assert all(g.plies == 4 for g in games)


def _peak_while_streaming(data: bytes) -> int:
    tracemalloc.start()
    try:
        count = 0
        for _ in read_games(io.BytesIO(data)):
            count += 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count > 0
    return peak


def test_memory_does_not_grow_with_file_size() -> None:
    game = (
        b'[Event "m"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n'
        + b"1. 32-28 18-23 2. 38-32 12-18 3. 31-27 {note} 7-12 4. 37-31 1-7 *\n\n"
    )
    small = _peak_while_streaming(game * 500)
    large = _peak_while_streaming(game * 5_000)
    # ten times the input must not cost anything like ten times the memory
    assert large < small * 2 + 1_000_000, (small, large)


def test_long_unclosed_tag_value_does_not_backtrack() -> None:
    # Regular expressions with nested repetition can take exponential time on input
    # that almost matches; an unclosed value over several pieces is such input.
    data = b'[Event "' + b"x" * 1_500_000 + b'\n[Event "b"]\n1. 33-29 *\n'
    games, _ = read_all(data, ReadOptions(max_game_chars=4_000_000))
    assert games[-1].tag("Event") == "b"
    assert games[0].status == "error"


_NESTED = "(1. 33-28 " * 5 + ")" * 5
_SKIPPED_GAME = '[Event "b"]\n[GameType "20"]\n\n1. 32-28 ' + _NESTED + " 19-23 *\n"


@settings(max_examples=60, deadline=None)
@given(
    gap=st.lists(st.sampled_from([" ", "\t", "\n", "\\r\\n"]), max_size=12).map("".join),
    limit=st.sampled_from(["size", "depth"]),
)
def test_a_game_skipped_for_a_limit_is_placed_at_its_own_first_line(gap: str, limit: str) -> None:
    """E11 and the game's line point at the skipped game's first text, where the game
    read without the limit begins, never at the terminator of the game before it."""
    text = '[Event "a"]\n[GameType "20"]\n\n1. 32-28 19-23 *' + gap + "\n" + _SKIPPED_GAME
    options = ReadOptions(max_game_chars=60) if limit == "size" else ReadOptions(max_depth=3)
    free, _ = read_all(text.encode())
    games, _ = read_all(text.encode(), options)
    assert len(games) == len(free) == 2
    skipped = games[1]
    errors = [i for i in skipped.issues if i.code == "E11"]
    assert len(errors) == 1
    start = free[1].span
    assert (skipped.span.start_line, skipped.span.start_column) == (
        start.start_line,
        start.start_column,
    )
    assert (errors[0].line, errors[0].column) == (start.start_line, start.start_column)
    assert text.splitlines()[errors[0].line - 1][errors[0].column - 1] == "["


def test_a_skipped_game_after_blank_lines_is_reported_on_its_tag_line() -> None:
    text = '[Event "a"]\n[GameType "20"]\n\n1. 32-28 19-23 *\n\n\n' + _SKIPPED_GAME
    games, _ = read_all(text.encode(), ReadOptions(max_depth=3))
    issue = next(i for i in games[1].issues if i.code == "E11")
    assert (issue.line, issue.column, games[1].span.start_line) == (7, 1, 7)
