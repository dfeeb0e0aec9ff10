"""Hostile tags: a '[' followed by thousands of blanks, or a line of thousands of
tags whose values never close, is read in time linear in the line (docs/security.md).

The TAG pattern of the grammar began with three repetitions that could all match the
same blanks (cubic backtracking: 1,000 blanks after a '[' took 9 s), the tag reader's
pattern with a lazy name between two blank repetitions (quadratic), and the splitter
matched TAG again from every '[' of a line after a failure, scanning the rest of the
line each time (quadratic: a line of 20,000 '[a "' ran for minutes)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from security_helpers import no_traceback, pdn

from pdn_tools.pdn import split
from pdn_tools.pdn.source import Piece

HEADER = '[Event "x"]\n[Result "*"]\n\n1. 32-28 *\n\n'


def test_long_blanks_in_a_tag_are_read_in_linear_time(tmp_path: Path) -> None:
    """Each line took hours or days before (cubic or quadratic in 100,000 blanks);
    now the whole file takes a few seconds.  The timeout is generous."""
    blanks = " " * 100_000
    hostile = tmp_path / "blanks.pdn"
    lines = [
        # a tag name in blanks, its value never closed (the TAG pattern, cubic)
        "[" + blanks + 'x "' + blanks + "x\n",
        # a name of two words far apart (the tag reader's pattern, quadratic)
        "[a" + blanks + 'b "v"]\n1. 32-28 *\n\n',
        # a '[' whose name runs into another '[' (the tag opening, quadratic)
        "[" + blanks + '[Event "y"]\n1. 32-28 *\n',
    ]
    hostile.write_text(HEADER + "".join(lines), encoding="utf-8")
    done = pdn("validate", str(hostile), "--format", "jsonl", "--isolated", timeout=300)
    no_traceback(done)
    games = [json.loads(line) for line in done.stdout.splitlines()]
    found = [[issue["code"] for issue in game["issues"]] for game in games]
    # As with 300 blanks before: the unclosed tag is unrecognised text ending the
    # game that runs into the next tag (W01); the name of two words is irregular
    # (W07); the '[' before the last header is skipped (W06).
    assert found == [
        ["W27"],
        ["E03", "E03", "E03", "E03", "W01"],
        ["W07", "W27"],
        ["W06", "W27"],
    ], done.stdout[:2000]


def _unclosed_values(count: int, unit: str = '[a "') -> list[Piece]:
    line = "1. 32-28 18-23 " + unit * count
    return [
        Piece('[Event "x"]', 1, 0, True),
        Piece(line, 2, 0, True),
        Piece("*", 3, 0, False),
    ]


class _Counted:
    """The TAG pattern, counting its matches."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0

    def match(self, *args: Any) -> re.Match[str] | None:
        self.calls += 1
        return self.pattern.match(*args)


@pytest.mark.parametrize("unit", ['[a "', '[a "\\"', '[a "x\\" ', "[a \u201c", "[a \u201cx\u201d "])
def test_a_line_of_unclosed_values_is_matched_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, unit: str
) -> None:
    """Each '[a "' is a tag opening after movetext (a game of its own, W01, as
    docs/reading.md says), whose value no quote closes.  TAG was matched from each
    one, over the rest of the line (and over the line joined to the next ones):
    about 2,000 matches of 8 KB here.  The first failure tells that every later
    value of the line fails too; the matches do not grow with the line.  So it is
    with values of escaped quotes (``[a "\\"``), which a ']' at the end of the line
    would end, and with values in curly quotes (``[a “``)."""
    if not split.__file__.endswith(".py"):  # pragma: no cover - the compiled build
        pytest.skip("the module's globals are compiled in")
    counted = _Counted(split._TAG)
    monkeypatch.setattr(split, "_TAG", counted)
    chunks = list(split.split_chunks(_unclosed_values(2_000, unit)))
    assert len(chunks) == 2_001
    assert sum(chunk.next_game for chunk in chunks) == 2_000
    assert 1 <= counted.calls <= 10, counted.calls


def _old_context(line_text: str, column: int, pad: int) -> str:
    """The source line under a syntax error as it was made before (the reference)."""
    source = (" " * pad + line_text).expandtabs(1)
    if len(source) > 120:
        start = max(0, column - 60)
        source = source[start : start + 120]
        column -= start
    return f"{source.rstrip()}\n{' ' * (column - 1)}^"


def test_a_syntax_error_far_into_a_long_line_makes_only_its_window() -> None:
    """A game that begins far into a long line (one of the 20,000 games of a line of
    '[a "') made a string of blanks as long as its column for each syntax error:
    quadratic in the line.  Now only the 120 characters shown are made: the memory
    the context takes does not grow with the column, and it reads as before."""
    import tracemalloc

    from pdn_tools.pdn.build import build_game

    def context(text: str, column: int) -> tuple[str | None, int, int]:
        chunk = split.Chunk(7, column, text, 7, first_line=7, first_column=column)
        tracemalloc.start()
        game = build_game(chunk)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        found = [issue for issue in game.issues if issue.code == "E03"]
        return found[0].context, found[0].column, peak

    for column in (0, 3, 50, 117, 200, 5_000):
        for text in ('[a "', '\t[a "', "x\ty " * 40 + '[a "'):
            shown, at, _ = context(text, column)
            assert shown == _old_context(text, at, column), (column, text)
    _, _, near = context('[a "', 1_000)
    _, _, far = context('[a "', 50_000_000)
    assert far < near + 1_000_000, (near, far)


def _value_shapes(n: int) -> list[str]:
    """Tag values made of what the value's steps look ahead from: runs of escaped
    quotes (each may end the value when ']' and the line's end follow), of escaped
    quotes and ']', of backslashes, an escaped quote before a long run of blanks, and
    runs of curly quotes (each a quote that may end the value), escaped or not."""
    return [
        '[a "' + '\\"' * n,  # never closed
        '[a "' + '\\"]' * n + " x",  # never closed: the last ']' is not the line's end
        '[a "' + '\\" ' * n,  # never closed
        '[a "' + "\\" * (2 * n + 1) + '"]',  # ends in a backslash: W08
        '[a "\\"' + " " * n + "x",  # never closed
        "[a \u201c" + "\u201c" * n,  # never closed
        "[a \u201c" + "\u201d " * n,  # never closed
        "[a \u201c" + "\\\u201d" * n + " x",  # never closed
    ]


def test_runs_of_backslashes_and_quotes_in_values_are_read_in_linear_time(
    tmp_path: Path,
) -> None:
    """A '\\"' followed by ']' at the end of its line ends a value (a Windows path
    written without escapes, docs/pdn-format.md §5.1): the pattern looks ahead from
    each backslash over the blanks after its quote only, and no further; a curly
    quote, like '"', looks ahead over the blanks after it.  Runs of 100,000 of each
    shape are read in a moment (a look-ahead to the line's end from each backslash or
    quote would take hours); the timeout is generous."""
    hostile = tmp_path / "values.pdn"
    body = "".join(line + "\n1. 32-28 *\n\n" for line in _value_shapes(100_000))
    hostile.write_text(HEADER + body, encoding="utf-8")
    done = pdn("validate", str(hostile), "--format", "jsonl", "--isolated", timeout=300)
    no_traceback(done)
    games = [json.loads(line) for line in done.stdout.splitlines()]
    found = [sorted({issue["code"] for issue in game["issues"]}) for game in games]
    assert len(games) == 9 and found[0] == ["W27"], done.stdout[:2000]
    # Each value never closed is unrecognised text (E03); the one ending in a
    # backslash is read (W08, and W07 for the name 'a').
    assert found[4] == ["W07", "W08", "W27"], found
    for codes in found[1:4] + found[5:]:
        assert "E03" in codes and "W08" not in codes, found
