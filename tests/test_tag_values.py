"""Tag values real files write outside PDN's quoting: a value that ends in a backslash
(a Windows path written without escapes), read through the real splitter, tree
builder and canonical writer.

A value ending in a backslash, ``[Source "C:\\games\\"]``, was taken for an escaped
quote: the value never closed, the tag was lost as unrecognised text and the game was
cut in two.  It is read as the path it is (W08), and canonical PDN escapes it so that
it reads back the same and clean."""

from __future__ import annotations

import pytest
from helpers import codes, one

from pdn_tools import read_string
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
