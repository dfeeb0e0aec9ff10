"""Messages about an illegal move list squares joined as the record joins a capture's
squares: ``c3:e5`` in a record that writes captures with ``:`` (Russian and other
notations), ``28x19`` in one that writes ``x``, whatever the variant's own separator
(docs/replay.md, "What gets replayed")."""

from __future__ import annotations

import re

import pytest

from pdn_tools import read_string
from pdn_tools.replay import replay_game


def errors_of(text: str) -> list[tuple[str, str]]:
    """The replay's error findings (code, message) for the one game of *text*."""
    game = read_string(text)[0]
    replay_game(game)
    return [(i.code, i.message) for i in game.issues if i.code.startswith("E")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Russian: ':' is also the variant's separator; the written move keeps it.
        (
            '[GameType "25"]\n1. c3-d4 f6-e5 2. a3:c5:e7 *',
            "a3:c5:e7 describes no legal capture; legal: d4:f6",
        ),
        # Russian written with 'x': the record's 'x', not the variant's ':'.
        (
            '[GameType "25"]\n1. c3-d4 f6-e5 2. a3xc5xe7 *',
            "a3xc5xe7 describes no legal capture; legal: d4xf6",
        ),
        # International written with ':': the legal captures too.
        (
            '[GameType "20"]\n1. 32-28 19-23 2. 34:30:25 *',
            "34:30:25 describes no legal capture; legal: 28:19",
        ),
        (
            '[GameType "20"]\n1. 32-28 19-23 2. 34x30x25 *',
            "34x30x25 describes no legal capture; legal: 28x19",
        ),
    ],
)
def test_e09_lists_squares_with_the_records_separator(text: str, expected: str) -> None:
    found = errors_of(text)
    assert [code for code, _ in found] == ["E09"]
    assert found[0][1].startswith(expected), found


def test_a_move_written_as_quiet_lists_captures_as_the_record_wrote_earlier_ones() -> None:
    """A quiet move where a capture is due: the captures named (the example and the
    legal moves of the hint) are joined as the record's earlier captures are."""
    found = errors_of('[GameType "20"]\n1. 32-28 19-23 2. 28:19 14:23 3. 33-28 10-14 4. 28-19 *')
    assert [code for code, _ in found] == ["E06"]
    message = found[0][1]
    assert "e.g. 23:32" in message and "legal here: 23:32" in message
    assert re.search(r"\dx\d", message) is None
