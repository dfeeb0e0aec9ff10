"""FEN reading (tolerant, with warnings), refusals with reasons, canonical writing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools.rules import Color, FenError, Position, parse_fen, write_fen

START = "W:W31-50:B1-20"


def test_start_position_reads_as_the_initial_position() -> None:
    result = parse_fen(START)
    assert result.position == Position.initial()
    assert result.turn_known and result.warnings == ()
    assert result.position.men(Color.WHITE) == list(range(31, 51))
    assert result.position.men(Color.BLACK) == list(range(1, 21))
    assert write_fen(result.position) == START


def test_kings_ranges_and_empty_side() -> None:
    result = parse_fen("B:WK4-6,10,11,12,14:B")
    position = result.position
    assert position.turn is Color.BLACK
    assert position.kings(Color.WHITE) == [4, 5, 6]
    assert position.men(Color.WHITE) == [10, 11, 12, 14]
    assert position.piece_count(Color.BLACK) == 0
    assert write_fen(position) == "B:WK4,K5,K6,10-12,14:B"


def test_side_order_and_square_order_are_free() -> None:
    a = parse_fen("W:B3,1,2:W50,K40,49").position
    b = parse_fen("W:WK40,49,50:B1-3").position
    assert a == b
    assert write_fen(a) == "W:WK40,49,50:B1-3"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("W:W31-50:B1-20.", "trailing '.'"),
        ("w:w31-50:b1-20", "lower-case"),
        ("W:W31-40,\n41-50:B1-20", "spaces or line breaks"),
        ("W:W:W31-50:B1-20", "doubled"),
        ("W:W31-50:B1-20:H0:F1", "extra field"),
        ("W:W31-50,G28:B1-20", "ghost"),
    ],
)
def test_tolerated_irregularities_give_warnings(text: str, needle: str) -> None:
    result = parse_fen(text)
    assert result.position == Position.initial() or "ghost" in needle
    assert any(needle in w for w in result.warnings), result.warnings


def test_question_mark_turn() -> None:
    result = parse_fen("?:W31-50:B1-20")
    assert not result.turn_known
    assert result.warnings == ()
    assert result.position.turn is Color.WHITE  # the first mover stands in


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("W:W31-51:B1-20", "not on the board"),
        ("W:W0:B1", "not on the board"),
        ("W:W31,32:B32", "used twice"),
        ("W:WK5,K5:B1", "used twice"),
        ("W:W3:B20", "promotion row"),
        ("W:W33:B46", "promotion row"),
        ("W:W30-50:B1", "more than the 20"),
        ("W:W31-50:X1-20", "unknown colour"),
        ("W:W31-50:B1-20;", "unexpected character"),
        ("X:W31:B1", "side to move"),
        ("W:W31-50:B1-20:W1", "listed twice"),
        ("W:W31-50:B1-20!", "unexpected character"),
        ("W:W3x1:B1", "cannot read"),
        ("W:Wc3:B1", "algebraic"),
        ("", "empty"),
        ("W", "no side"),
    ],
)
def test_invalid_fens_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(FenError, match=reason):
        parse_fen(text)


def test_piece_count_check_can_be_switched_off() -> None:
    position = parse_fen("W:W21-50:B1-20", check_piece_count=False).position
    assert position.piece_count(Color.WHITE) == 30


def test_fen_error_is_a_value_error() -> None:
    assert issubclass(FenError, ValueError)


def test_kings_may_stand_on_any_row() -> None:
    position = parse_fen("W:WK1:BK50").position
    assert position.kings(Color.WHITE) == [1] and position.kings(Color.BLACK) == [50]


def test_ranges_only_for_three_or_more_consecutive_men() -> None:
    assert write_fen(parse_fen("W:W31,32:B1,2,3").position) == "W:W31,32:B1-3"
    # A king interrupts a run of men.
    assert write_fen(parse_fen("W:W31,K32,33,34,35:B1").position) == "W:W31,K32,33-35:B1"


@st.composite
def placements(draw: st.DrawFn) -> tuple[Position, str]:
    squares = draw(st.lists(st.integers(1, 50), unique=True, max_size=40))
    split = draw(st.integers(0, len(squares)))
    white, black = squares[:split][:20], squares[split:][:20]
    kings = draw(st.sets(st.sampled_from(squares))) if squares else set()
    white_men = [s for s in white if s not in kings and s > 5]
    white_kings = [s for s in white if s in kings or s <= 5]
    black_men = [s for s in black if s not in kings and s < 46]
    black_kings = [s for s in black if s in kings or s >= 46]
    turn = draw(st.sampled_from([Color.WHITE, Color.BLACK]))
    position = Position.from_squares(
        white_men=white_men,
        white_kings=white_kings,
        black_men=black_men,
        black_kings=black_kings,
        turn=turn,
    )
    return position, write_fen(position)


@given(placements())
def test_write_read_round_trip(sample: tuple[Position, str]) -> None:
    position, text = sample
    result = parse_fen(text)
    assert result.position == position
    assert result.warnings == ()
    assert write_fen(result.position) == text
    assert " " not in text and not text.endswith(".")
    assert text.startswith(f"{position.turn.value}:W")
