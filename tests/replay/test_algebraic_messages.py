"""Findings about a record written in algebraic squares (``c3-d4``) name squares and
moves the way the record writes them, while a record written in numbers keeps its
numbers (docs/replay.md, "What gets replayed").

Each case is played twice, in algebraic squares and in the same squares as numbers, so
that the message of both spellings is pinned."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pdn_tools import read_string
from pdn_tools.diagnostics import Issue
from pdn_tools.replay import replay_game
from pdn_tools.replay.replay import square_names
from pdn_tools.rules import Position, generator_for, legal_moves, move_text, variant_by_name

RUSSIAN = variant_by_name("russian")
ALGEBRAIC = square_names(generator_for(RUSSIAN).geometry, True)
NUMBERS = {name: str(number) for number, name in enumerate(ALGEBRAIC) if name}
"""``{"b8": "1", …, "g1": "32"}`` on the Russian board."""
SQUARE = re.compile(r"(?<![A-Za-wyz0-9])[a-h][1-8](?![0-9])")
"""An algebraic square, also inside a move (``c3xe5``)."""


def issues_of(text: str) -> list[Issue]:
    """The replay's findings for the one game of *text*."""
    game = read_string(text)[0]
    before = len(game.issues)
    replay_game(game)
    return game.issues[before:]


def numeric(moves: str) -> str:
    """*moves* with every algebraic square replaced by its Russian number."""
    return SQUARE.sub(lambda m: NUMBERS[m.group()], moves)


CASES = [
    # (FEN or "", moves in algebraic squares, code, message in algebraic squares)
    (
        "",
        "1. c3-d4 f6-g5 2. d4-e5 d6xf4 3. g3xe5 h6-g7",
        "E05",
        "g7 is occupied by a black man; replay stops here",
    ),
    ("", "1. a5-b6", "E05", "no white piece on a5 (a5 is empty; White to move)"),
    ("", "1. c3-d4 f6-g5 2. d4-c3", "E05", "the man on d4 cannot move backward to c3"),
    ("", "1. c3-e5", "E05", "a man moves one square; e5 is 2 squares from c3"),
    (
        "",
        "1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 h6:f4 4. e3:g5",
        "E05",
        "f4 is not reachable from h6: g5 is in the way; did you mean g5-f4",
    ),
    ("", "1. c3-d4 f6-e5 2. a3-b4", "E06", "a capture is compulsory, e.g. d4:f6;"),
    (
        "W:W22:B18,11",
        "1. c3:e5",
        "E07",
        "the capture cannot stop on e5: it must continue, e.g. c3:e5:g7",
    ),
    ("", "1. c3:e5:g3", "E09", "c3:e5:g3 is no capture: no capture is possible here"),
    (
        "W:WK29:B22,9",
        "1. a1:e5:a7",
        "E09",
        "the path fits no legal capture from a1 to a7 (legal: a1:d4:a7)",
    ),
    (
        "W:W29,32:B1",
        "1. a1-c3 b8-a7 2. c3-d4 a7-b6",
        "E05",
        "no single edit of the record lets the rest of the line replay; "
        "legal here: a1-b2, g1-f2, g1-h2",
    ),
    ("W:WK29:B22,9", "1. a1:d4:c5:a7", "W23", "non-canonical capture path; canonical: a1:d4:a7"),
    ("", "1. c3xd4 f6-g5", "W12", "a quiet move written with 'x' (c3-d4)"),
    ("W:W22:B18,11", "1. c3:e5 2. e5:g7", "W24", "(c3:e5 e5:g7); merged into c3:g7"),
]


def record(fen: str, moves: str) -> str:
    """A Russian record of *moves*, from *fen* when given."""
    tags = '[GameType "25"]\n' + (f'[FEN "{fen}"]\n' if fen else "")
    return f"{tags}\n{moves} *\n"


@pytest.mark.parametrize(("fen", "moves", "code", "message"), CASES)
def test_an_algebraic_record_is_answered_in_algebraic_squares(
    fen: str, moves: str, code: str, message: str
) -> None:
    found = [i for i in issues_of(record(fen, moves)) if i.code == code]
    assert len(found) == 1, found
    assert message in found[0].message
    # no square of the record is named by its number
    assert not re.search(r"\b([1-9]|[12][0-9]|3[0-2])[-x:](\d+)\b", found[0].message)


@pytest.mark.parametrize(("fen", "moves", "code", "message"), CASES)
def test_a_numeric_record_keeps_its_numbers(fen: str, moves: str, code: str, message: str) -> None:
    found = [i for i in issues_of(record(fen, numeric(moves))) if i.code == code]
    assert len(found) == 1, found
    # The same message with the squares as numbers: the wording of both is one.
    assert numeric(message) in found[0].message
    assert not SQUARE.search(found[0].message)


def test_an_algebraic_square_off_the_board_is_told_in_algebraic_terms() -> None:
    # e4 is a light square: no piece ever stands there
    [found] = [i for i in issues_of(record("", "1. c3-d4 f6-e4")) if i.code == "E04"]
    assert found.message.startswith("square 'e4' is not on the board (a1-h8, dark squares only)")
    assert "did you mean f6-e5" in found.message
    # a number off the board keeps the numbers' range
    [found] = [i for i in issues_of(record("", "1. 22-18 11-33")) if i.code == "E04"]
    assert found.message.startswith("square 33 is not on the board (squares are numbered 1-32)")


def test_the_repair_object_keeps_its_numbers_where_its_schema_has_numbers() -> None:
    # The squares of a repair are the record's text; ply, line and column stay numbers.
    found = issues_of(record("W:W22:B18,11", "1. c3:e5"))
    assert found[0].repair is not None
    assert found[0].repair["move"] == "c3:g7"
    assert found[0].repair["written"] == "c3:e5"
    assert isinstance(found[0].repair["ply"], int)


# ------------------------------------------------------------------- the property

NOT_SQUARES = re.compile(
    r"plies \d+ and \d+|(?:ply|move|plies|GameType) \d+|\d+ (?:later plies|plies|single edits)"
    r"|(?:takes|maximum is) \d+|is \d+ squares|'\d+\.+'|FEN \"[^\"]*\"|\(final position [^)]*\)"
)
"""Numbers in a message that are no squares: plies, counts, move numbers."""


@st.composite
def planted(draw: st.DrawFn) -> tuple[list[str], list[str], int]:
    """A random legal Russian game of 1-24 plies in canonical notation (algebraic and
    numeric), with one of its plies replaced by a two-square move that no legal move
    has the ends of; returns both spellings and the planted ply (0-based)."""
    position = Position.initial(RUSSIAN)
    algebraic: list[str] = []
    numbers: list[str] = []
    length = draw(st.integers(1, 24))
    bad = draw(st.integers(0, length - 1))
    for ply in range(length):
        legal = legal_moves(position, RUSSIAN)
        if not legal:
            break
        if ply == bad:
            ends = {(m.from_sq, m.to_sq) for m in legal}
            frm = draw(st.integers(1, 32))
            # (never 1-2 or 2-1, which a reader takes for a result)
            targets = [
                s for s in range(1, 33) if s != frm and (frm, s) not in ends and {frm, s} != {1, 2}
            ]
            to = draw(st.sampled_from(targets))
            algebraic.append(f"{ALGEBRAIC[frm]}-{ALGEBRAIC[to]}")
            numbers.append(f"{frm}-{to}")
            # the record goes on as if the planted move were the first legal one
            move = legal[0]
        else:
            move = legal[draw(st.integers(0, len(legal) - 1))]
            algebraic.append(move_text(move, legal, RUSSIAN, ALGEBRAIC))
            numbers.append(move_text(move, legal, RUSSIAN))
        position = position.apply(move)
    bad = min(bad, len(algebraic) - 1)
    return algebraic, numbers, bad


def movetext(moves: list[str]) -> str:
    """Numbered movetext of *moves* (White first)."""
    parts = []
    for i, move in enumerate(moves):
        parts.append(f"{i // 2 + 1}. {move}" if i % 2 == 0 else move)
    return " ".join(parts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted())
def test_every_square_an_error_names_in_an_algebraic_record_is_algebraic(
    game: tuple[list[str], list[str], int],
) -> None:
    algebraic, numbers, bad = game
    # a move starting where the one before it lands may be read as its next jump
    after = algebraic[bad + 1] if bad + 1 < len(algebraic) else ""
    assume(not after.startswith(algebraic[bad][-2:]))
    assume(bad == 0 or not algebraic[bad].startswith(algebraic[bad - 1][-2:]))
    stops = []
    for moves in (algebraic, numbers):
        found = read_string(record("", movetext(moves)))[0]
        result = replay_game(found)
        assert result.stop is not None  # an illegal move was planted
        errors = [i for i in found.issues if i.code.startswith("E")]
        assert len(errors) == 1
        stops.append((result.stop, errors[0]))
    (a_stop, a_issue), (n_stop, n_issue) = stops
    assert (a_stop.code, a_stop.ply) == (n_stop.code, n_stop.ply) == (a_issue.code, bad + 1)
    assert n_issue.code == a_issue.code
    # the reason is the numeric record's with its squares spelt algebraically (the
    # hints after it may differ: the slips of the two notations differ)
    assert numeric(a_stop.reason) == n_stop.reason
    assert a_issue.message.startswith(a_stop.reason)
    # and no number in the whole message is a square
    rest = NOT_SQUARES.sub("", a_issue.message)
    assert not re.search(r"\d", SQUARE.sub("", rest)), a_issue.message
