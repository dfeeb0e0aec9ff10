"""Canonical move text and classification of written moves (pdn-format.md §10)."""

from __future__ import annotations

import pytest

from pdn_tools.rules import (
    MatchKind,
    Move,
    canonical_path,
    legal_moves,
    move_text,
    move_texts,
    parse_fen,
    parse_move,
    path_text,
    split_move_text,
)

# The standard's illustration (pdn-format.md §10.3), reconstructed by hand: king 47
# (9,2) takes 42 and flies straight on, takes 29 and turns on 24, takes 19 and turns on
# 13, takes 27 and stops on 31 or 36.  The canonical path names 38 (directly behind 42,
# the king goes straight on), 24 and 13 (turning squares).
KING_FEN = "W:WK47:B19,27,29,42"


def legal(fen: str) -> list[Move]:
    return legal_moves(parse_fen(fen).position)


def test_split_move_text() -> None:
    assert split_move_text("32-28") == ((32, 28), False)
    assert split_move_text("28x17x8") == ((28, 17, 8), True)
    assert split_move_text("28:17") == ((28, 17), True)
    assert split_move_text(" 1 - 7 ") == ((1, 7), False)
    for bad in ("32", "a1-b2", "32-", "x28"):
        with pytest.raises(ValueError):
            split_move_text(bad)


def test_canonical_path_of_the_standard_example() -> None:
    moves = {m.to_sq: m for m in legal(KING_FEN)}
    assert set(moves) == {31, 36}
    assert canonical_path(moves[36]) == (47, 38, 24, 13, 36)
    assert path_text(moves[36]) == "47x38x24x13x36"
    # Only one move goes 47 -> 36, so its canonical text is the short form.
    assert move_text(moves[36], list(moves.values())) == "47x36"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("47x38x24x13x36", MatchKind.EXACT),
        ("47x36", MatchKind.ABBREVIATED),
        ("47x24x36", MatchKind.NONCANONICAL),  # required squares left out
        ("47x33x24x13x36", MatchKind.NONCANONICAL),  # 33: a landing square, not canonical
        ("47x38x24x18x36", MatchKind.NONCANONICAL),  # 18: passed over on the last leg
        ("47x38x29x13x36", MatchKind.WRONG_PATH),  # 29 holds a captured piece
        ("47x42x24x13x36", MatchKind.WRONG_PATH),  # 42 holds a captured piece
        ("47x38x24x13x36x36", MatchKind.WRONG_PATH),  # too many squares
        ("47x25", MatchKind.NO_MATCH),
        ("46x36", MatchKind.NO_MATCH),
    ],
)
def test_classification_of_written_king_captures(text: str, kind: MatchKind) -> None:
    moves = legal(KING_FEN)
    match = parse_move(text, moves)
    assert match.kind is kind
    if kind in (MatchKind.EXACT, MatchKind.ABBREVIATED, MatchKind.NONCANONICAL):
        assert match.move is not None and match.move.to_sq == 36
        assert match.move.captures == frozenset({19, 27, 29, 42})
        assert match.accepted
    else:
        assert match.move is None and not match.accepted
    if kind is MatchKind.WRONG_PATH:
        assert {m.to_sq for m in match.candidates} == {36}


def test_ambiguous_short_form_needs_the_path() -> None:
    # King 16: over 11, 12, 41 (turning on 7 and 23) or over 11, 13, 41 (turning on 2
    # and 19); both end on 46 (hand-verified, see test_movegen).
    moves = legal("W:WK16:B11-13,21,41")
    to46 = [m for m in moves if (m.from_sq, m.to_sq) == (16, 46)]
    texts = {move_text(m, moves) for m in to46}
    assert texts == {"16x7x23x46", "16x2x19x46"}
    match = parse_move("16x46", moves)
    assert match.kind is MatchKind.AMBIGUOUS and match.move is None
    assert set(match.candidates) == set(to46)
    chosen = parse_move("16x2x19x46", moves)
    assert chosen.kind is MatchKind.EXACT
    assert chosen.move is not None and chosen.move.captures == frozenset({11, 13, 41})
    # One intermediate square is enough to tell them apart (non-canonical).
    partial = parse_move("16x7x46", moves)
    assert partial.kind is MatchKind.NONCANONICAL
    assert partial.move is not None and partial.move.captures == frozenset({11, 12, 41})
    # 7 is a landing square only of the first route, though the second passes over it.
    # 8 is no landing square at all, but only the second route passes over it.
    passed = parse_move("16x8x46", moves)
    assert passed.kind is MatchKind.NONCANONICAL
    assert passed.move is not None and passed.move.captures == frozenset({11, 13, 41})


def test_quiet_moves_and_separators() -> None:
    moves = legal("W:W31-50:B1-20")
    assert move_texts(moves)[:2] == ["31-26", "31-27"]
    match = parse_move("32-28", moves)
    assert match.kind is MatchKind.EXACT and not match.separator_mismatch
    wrong_sep = parse_move("32x28", moves)
    assert wrong_sep.kind is MatchKind.EXACT and wrong_sep.separator_mismatch
    assert parse_move("32-27", moves).move is not None
    assert parse_move("32-29", moves).kind is MatchKind.NO_MATCH
    # Already split squares with an unknown separator.
    assert parse_move((32, 28), moves).move == match.move


def test_capture_written_with_a_dash_is_flagged() -> None:
    moves = legal("W:W28:B22")
    match = parse_move((28, 17), moves, capture=False)
    assert match.kind is MatchKind.EXACT and match.separator_mismatch


def test_capture_ending_on_its_start_square_is_written_28x28() -> None:
    moves = legal("W:W28:B12,13,22,23")
    (move,) = moves
    assert move_text(move, moves) == "28x28"
    assert parse_move("28x28", moves).kind is MatchKind.ABBREVIATED
    # Both directions of the loop are canonical paths of the same move.
    for text in ("28x17x8x19x28", "28x19x8x17x28"):
        assert parse_move(text, moves).kind is MatchKind.EXACT
