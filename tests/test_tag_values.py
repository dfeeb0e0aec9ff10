"""Tag values real files write outside PDN's quoting: a value that ends in a backslash
(a Windows path written without escapes) and a value in curly quotes, read through
the real splitter, tree builder and canonical writer.

A value ending in a backslash, ``[Source "C:\\games\\"]``, was taken for an escaped
quote: the value never closed, the tag was lost as unrecognised text and the game was
cut in two.  It is read as the path it is (W08), and canonical PDN escapes it so that
it reads back the same and clean.  A value in curly quotes (``[Event “Open”]``, or
the bytes 0x93 and 0x94 of Windows-1252) was read as part of an irregular name with
no value; the quotes are read as ``"`` (W08), and canonical PDN writes ``"``."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import codes, one

from pdn_tools import read_games, read_string
from pdn_tools.export.canonical import CanonicalOptions, write_canonical
from pdn_tools.pdn.tags import ends_in_backslash
from pdn_tools.replay import replay_game
from pdn_tools.replay.resolve import resolve

MOVES = '[GameType "20"]\n[Result "2-0"]\n\n1. 32-28 19-23 2-0\n'


def canonical_of(text: str) -> str:
    """The canonical PDN of the single game of *text*."""
    games = read_string(text)
    assert len(games) == 1
    replay = replay_game(games[0])
    return write_canonical(games[0], resolve(games[0], replay), CanonicalOptions())


def test_a_value_ending_in_a_backslash_keeps_its_tag_and_its_game() -> None:
    game = one('[Event "Club"]\n[Source "C:\\games\\"]\n' + MOVES)
    assert game.tag("Source") == "C:\\games\\"
    assert game.tag("Event") == "Club"
    assert [(i.code, i.line, i.column) for i in game.issues] == [("W08", 2, 1)]
    assert "ends in a backslash" in game.issues[0].message
    assert [n.move.squares for n in game.mainline() if n.move] == [("32", "28"), ("19", "23")]


def test_the_canonical_output_escapes_it_and_reads_back_the_same_and_clean() -> None:
    out = canonical_of('[Event "Club"]\n[Source "C:\\games\\"]\n' + MOVES)
    assert '[Source "C:\\\\games\\\\"]' in out.splitlines()
    again = one(out)
    assert again.tag("Source") == "C:\\games\\"
    assert codes(again) == []


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ('[Source "C:\\games\\"]', "C:\\games\\"),
        ('[Source "C:\\games\\" ]  ', "C:\\games\\"),
        ('[Source "a\\\\\\"]', "a\\\\"),  # an escaped backslash, then the one that ends
        ('[Source "C:\\x\\"] [Site "Rome"]', "C:\\x\\"),  # the next tag on the line
    ],
)
def test_the_backslash_ends_the_value_at_the_end_of_its_line(line: str, value: str) -> None:
    game = one(line + "\n" + MOVES)
    assert game.tag("Source") == value
    assert codes(game) == ["W08"]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        # escaped quotes that a closing quote follows on the line: PDN as written
        ('[Event "say \\"hi\\""]', 'say "hi"'),
        ('[Event "a\\"] b"]', 'a"] b'),
        # an escaped backslash before the closing quote
        ('[Source "C:\\\\games\\\\"]', "C:\\games\\"),
    ],
)
def test_escaped_quotes_before_a_closing_quote_are_read_as_before(line: str, value: str) -> None:
    game = one(line + "\n" + MOVES)
    assert game.tag(line[1:].split()[0]) == value
    assert "W08" not in codes(game)


def test_an_odd_run_of_backslashes_is_what_ends_a_value() -> None:
    assert ends_in_backslash("C:\\games\\")
    assert ends_in_backslash("a\\\\\\")
    assert not ends_in_backslash("a\\\\")
    assert not ends_in_backslash("")
    assert not ends_in_backslash("plain")


CURLY = "[Event \u201cOpen 2024\u201d]\n[Black \u201cBianchi\u201d]\n"


def test_values_in_curly_quotes_are_read_as_in_plain_quotes() -> None:
    game = one(CURLY + MOVES)
    assert [(t.name, t.value) for t in game.tags][:2] == [
        ("Event", "Open 2024"),
        ("Black", "Bianchi"),
    ]
    assert [(i.code, i.line, i.column) for i in game.issues] == [("W08", 1, 1), ("W08", 2, 1)]
    assert all("curly quotes" in i.message for i in game.issues)


def test_curly_quotes_are_written_as_plain_quotes_that_read_back_clean() -> None:
    out = canonical_of(CURLY + MOVES)
    lines = out.splitlines()
    assert '[Event "Open 2024"]' in lines and '[Black "Bianchi"]' in lines
    assert "\u201c" not in out and "\u201d" not in out
    again = one(out)
    assert again.tag("Event") == "Open 2024" and codes(again) == []


def test_windows_1252_curly_quotes_are_read_the_same(tmp_path: Path) -> None:
    """Bytes 0x93 and 0x94 decode (W30) to the same curly quotes."""
    path = tmp_path / "cp1252.pdn"
    path.write_bytes(
        CURLY.replace("\u201c", "\x93").replace("\u201d", "\x94").encode("latin-1")
        + MOVES.encode("ascii")
    )
    games = list(read_games(path))
    assert len(games) == 1
    assert games[0].tag("Event") == "Open 2024" and games[0].tag("Black") == "Bianchi"
    assert sorted(codes(games[0])) == ["W08", "W08", "W30"]


@pytest.mark.parametrize(
    ("line", "value", "found"),
    [
        # curly quotes inside plain quotes are the value's characters, unchanged
        ('[Event "the \u201cOpen\u201d"]', "the \u201cOpen\u201d", []),
        ('[Event "\u201cOpen\u201d"]', "\u201cOpen\u201d", []),
        # one curly quote and one plain, or the same curly quote twice
        ('[Event "Open\u201d]', "Open", ["W08"]),
        ('[Event \u201cOpen"]', "Open", ["W08"]),
        ("[Event \u201dOpen\u201d]", "Open", ["W08"]),
        ("[Event\u201cOpen\u201d]", "Open", ["W08"]),
        # a curly quote inside curly quotes, a plain quote inside them, a bracket
        ("[Event \u201cthe \u201cOpen\u201d\u201d]", "the \u201cOpen\u201d", ["W08"]),
        ('[Event \u201csay "hi"\u201d]', 'say "hi"', ["W08", "W08"]),
        ("[Event \u201cOpen [2024]\u201d]", "Open [2024]", ["W08"]),
        # single curly quotes are no quotes: an apostrophe in a name
        ('[White "O\u2019Neill"]', "O\u2019Neill", []),
    ],
)
def test_curly_quotes_delimit_a_value_and_are_kept_inside_one(
    line: str, value: str, found: list[str]
) -> None:
    game = one(line + "\n" + MOVES)
    assert game.tags[0].value == value
    assert codes(game) == found


def test_single_curly_quotes_do_not_delimit_a_value() -> None:
    """U+2018 and U+2019 are apostrophes far more often than quotes: a tag in them is
    read as before, an irregular name without a value (W07, W09)."""
    game = one("[Event \u2018Open\u2019]\n" + MOVES)
    assert game.tag("Event") is None
    assert codes(game) == ["W07", "W09"]


def test_tags_in_curly_quotes_on_one_line_are_each_read() -> None:
    game = one("[Event \u201cA\u201d] [Site \u201cB\u201d]\n" + MOVES)
    assert (game.tag("Event"), game.tag("Site")) == ("A", "B")
    assert codes(game) == ["W08", "W08"]


def test_a_header_repeated_in_curly_quotes_starts_the_next_record() -> None:
    """Header-only records follow each other when a tag repeats: the splitter takes
    the name before a curly quote as the tag's name, as before a plain one."""
    text = '[Event \u201cA\u201d]\n[Result "*"]\n[Event \u201cB\u201d]\n[Result "*"]\n'
    games = read_string(text)
    assert [g.tag("Event") for g in games] == ["A", "B"]
