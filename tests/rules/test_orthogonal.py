"""Frisian and Turkish draughts (rules.md §4.6, §4.7): the rules that set them apart.

Each test plays a small position through the public API (``parse_fen``,
``legal_moves``, ``perft``) and checks the moves that one rule allows or forbids.
Squares: Frisian uses the 10x10 numbers of rules.md §1.2; Turkish numbers its 64
squares row by row from a8 (1) to h1 (64), and its FENs here are algebraic.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import random_line
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import (
    CapturePromotion,
    Color,
    Move,
    Position,
    Removal,
    Variant,
    canonical_path,
    generator_for,
    geometry_for,
    legal_moves,
    move_texts,
    parse_fen,
    parse_move,
    perft,
    variant_by_name,
    write_fen,
)
from pdn_tools.rules.raygen import KingMoveLimit
from pdn_tools.rules.variant import FRISIAN, TURKISH

MoveSummary = tuple[int, int, tuple[int, ...], bool]


def moves_of(fen: str, variant: Variant) -> list[MoveSummary]:
    """(from, to, sorted captures, promotes) of every legal move of *fen*."""
    position = parse_fen(fen, variant).position
    return [
        (m.from_sq, m.to_sq, tuple(sorted(m.captures)), m.promotes)
        for m in legal_moves(position, variant)
    ]


# ---------------------------------------------------------------------- selection


def test_variants_are_found_by_name_and_gametype() -> None:
    assert variant_by_name("frisian") is FRISIAN
    assert variant_by_name("40") is FRISIAN
    assert variant_by_name("Turkish") is TURKISH
    assert variant_by_name("30") is TURKISH


# ---------------------------------------------------------------------- Frisian


# Counts from the start position.  Depths 1-5 agree with py-draughts 1.10.1
# (FrisianBoard, moves counted once per (from, to, captured set)), computed
# independently outside the project; see docs/variants-orthogonal.md.
FRISIAN_PERFT = [9, 81, 658, 3874, 21265]


@pytest.mark.parametrize("depth", range(1, 6))
def test_frisian_perft_from_the_start(depth: int) -> None:
    start = Position.initial(FRISIAN)
    assert write_fen(start) == "W:W31-50:B1-20"
    assert perft(start, depth, FRISIAN) == FRISIAN_PERFT[depth - 1]


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        # Horizontally: over the playing square two columns away (29), landing on 30.
        ("W:W28:B29", [(28, 30, (29,), False)]),
        # Vertically forwards: over 18, two rows up, landing on 8.
        ("W:W28:B18", [(28, 8, (18,), False)]),
        # Vertically backwards.
        ("W:W28:B38", [(28, 48, (38,), False)]),
        # Black's men the same way.
        ("B:W29:B28", [(28, 30, (29,), False)]),
    ],
)
def test_frisian_men_capture_orthogonally(fen: str, expected: list[MoveSummary]) -> None:
    assert moves_of(fen, FRISIAN) == expected


def test_frisian_men_still_move_only_diagonally_forwards() -> None:
    assert moves_of("W:W28:B1", FRISIAN) == [(28, 22, (), False), (28, 23, (), False)]


def test_frisian_king_captures_orthogonally_at_a_distance() -> None:
    # King on 26 (left edge of its row); a man on 28 two playing squares away.
    assert moves_of("W:WK26:B28", FRISIAN) == [(26, 29, (28,), False), (26, 30, (28,), False)]
    # Vertically, over empty squares: 46 -> over 26 -> 16 or 6.
    assert moves_of("W:WK46:B26", FRISIAN) == [(46, 6, (26,), False), (46, 16, (26,), False)]


def test_frisian_king_moves_only_diagonally() -> None:
    moves = moves_of("W:WK28:B1", FRISIAN)
    geo = geometry_for(FRISIAN.board)
    row, col = geo.coords[28]
    for _, to, _, _ in moves:
        r, c = geo.coords[to]
        assert abs(r - row) == abs(c - col)
    assert len(moves) == 17


def test_frisian_a_king_is_worth_more_than_a_man() -> None:
    # The man on 28 could take the man on 18; the king on 41 takes the king on 37.
    assert moves_of("W:W28,K41:B18,K37", FRISIAN) == [(41, 32, (37,), False)]
    # A man taking a king beats a man taking a man, whoever captures.
    assert moves_of("W:W28,46:B29,K41", FRISIAN) == [(46, 37, (41,), False)]


def test_frisian_a_king_is_worth_less_than_two_men() -> None:
    # 33 takes the men on 23 and 8 (worth 200); 46 could take the king on 41 (199).
    assert moves_of("W:W33,46:B8,23,K41", FRISIAN) == [(33, 2, (8, 23), True)]


def test_frisian_king_captures_first_on_equal_value() -> None:
    # The man on 28 and the king on 46 can each take one man: the king must.
    assert moves_of("W:W28,K46:B29,41", FRISIAN) == [(46, 32, (41,), False), (46, 37, (41,), False)]


def test_frisian_majority_by_count_would_differ() -> None:
    # Under plain majority (kings worth one), both one-piece captures would be legal.
    assert FRISIAN.rays is not None
    flat = replace(
        FRISIAN,
        name="frisian-flat",
        rays=replace(FRISIAN.rays, king_value=100, king_captures_first=False),
    )
    assert len(moves_of("W:W28,K41:B18,K37", flat)) == 2


def test_frisian_man_passing_the_far_row_is_not_crowned() -> None:
    # 13 jumps 8 onto 2 (the far row), then must go on over 7 to 11: stays a man.
    assert moves_of("W:W13:B7,8", FRISIAN) == [(13, 11, (7, 8), False)]
    # Going on along the far row (over 3 to 4) ends there: crowned.
    assert moves_of("W:W13:B3,8", FRISIAN) == [(13, 4, (3, 8), True)]


def test_frisian_orthogonal_paths_in_notation() -> None:
    # A two-piece capture with a horizontal leg: 28 x 30 (over 29), then up over 24.
    position = parse_fen("W:W28:B29,24,9", FRISIAN).position
    moves = legal_moves(position, FRISIAN)
    assert [(m.from_sq, m.to_sq, sorted(m.captures)) for m in moves] == [(28, 19, [24, 29])]
    move = moves[0]
    assert canonical_path(move, FRISIAN) == (28, 30, 19)
    assert parse_move("28x30x19", moves, FRISIAN).move == move
    assert parse_move("28x19", moves, FRISIAN).move == move


def test_frisian_king_move_limit_counts_one_kings_quiet_moves() -> None:
    # Black's men stay off the king's lines (diagonals, row and column).
    position = parse_fen("W:W50,K46:B3,4,8,9", FRISIAN).position
    limit = KingMoveLimit(3)

    def play(text: str) -> None:
        nonlocal position
        match = parse_move(text, legal_moves(position, FRISIAN), FRISIAN)
        assert match.move is not None
        assert not limit.refuses(position, match.move)
        limit.play(position, match.move)
        position = position.apply(match.move)

    for white, black in (("46-41", "8-12"), ("41-46", "9-13"), ("46-41", "4-9")):
        play(white)
        play(black)
    fourth = parse_move("41-46", legal_moves(position, FRISIAN), FRISIAN).move
    assert fourth is not None and limit.refuses(position, fourth)
    # Another piece may move, and afterwards the king again.
    before = limit.copy()
    play("50-44")
    play("3-8")
    assert not limit.refuses(position, fourth)
    assert before.runs != limit.runs


def test_frisian_king_move_limit_lifts_without_men() -> None:
    position = parse_fen("W:WK46:B6", FRISIAN).position
    limit = KingMoveLimit(3)
    moves = legal_moves(position, FRISIAN)
    assert not any(limit.refuses(position, m) for m in moves)
    move = parse_move("46-41", moves, FRISIAN).move
    assert move is not None
    limit.play(position, move)
    assert limit.runs == {}


# ---------------------------------------------------------------------- Turkish


# Depths 1-5 agree with pydraughts 0.6.7 (variant "turkish", moves counted once per
# (from, to, captured set)); see docs/variants-orthogonal.md for how.
TURKISH_PERFT = [8, 64, 708, 7538, 85090]


@pytest.mark.parametrize("depth", range(1, 6))
def test_turkish_perft_from_the_start(depth: int) -> None:
    start = Position.initial(TURKISH)
    assert write_fen(start) == "W:W41-56:B9-24"
    assert perft(start, depth, TURKISH) == TURKISH_PERFT[depth - 1]


def test_turkish_board_and_algebraic_squares() -> None:
    geo = geometry_for(TURKISH.board)
    assert geo.size == 64
    assert geo.square_named("a8") == 1
    assert geo.square_named("h8") == 8
    assert geo.square_named("a1") == 57
    assert geo.square_named("d4") == 36
    assert geo.square_named("i4") is None
    assert parse_fen("W:Wa2,h3:Ba7", TURKISH).position == parse_fen("W:W48,49:B9", TURKISH).position
    assert TURKISH.max_pieces == 16
    # The start: men on the second and third rows, the back rows empty.
    start = Position.initial(TURKISH)
    assert start.men(Color.WHITE) == list(range(41, 57))
    assert start.men(Color.BLACK) == list(range(9, 25))


def test_turkish_men_move_forward_or_sideways() -> None:
    # d4 -> d5, c4, e4; never diagonally, never backwards.
    assert moves_of("W:Wd4:Ba7", TURKISH) == [
        (36, 28, (), False),
        (36, 35, (), False),
        (36, 37, (), False),
    ]
    # Black's forward is down the board.
    assert moves_of("B:Wa2:Bd5", TURKISH) == [
        (28, 27, (), False),
        (28, 29, (), False),
        (28, 36, (), False),
    ]


def test_turkish_men_capture_forward_and_sideways_not_backwards() -> None:
    # d4 has enemies on e4 (sideways), d5 (forwards), d3 and c3 (backwards, diagonal).
    assert moves_of("W:Wd4:Bc3,d3,d5,e4", TURKISH) == [
        (36, 20, (28,), False),
        (36, 38, (37,), False),
    ]
    assert moves_of("B:Wd4,e5:Bd5", TURKISH) == [(28, 30, (29,), False), (28, 44, (36,), False)]


def test_turkish_king_flies_orthogonally() -> None:
    assert len(moves_of("W:WKd4:Ba7", TURKISH)) == 14
    # Its own man on d6 stops it after d5.
    moves = moves_of("W:WKd4,d6:Ba7", TURKISH)
    assert sorted(to for frm, to, _, _ in moves if frm == 36) == [
        28,
        33,
        34,
        35,
        37,
        38,
        39,
        40,
        44,
        52,
        60,
    ]
    # An enemy two squares away is captured at a distance; h4 (own) leaves only g4.
    assert moves_of("W:WKd4,h4:Bf4,a7", TURKISH) == [(36, 39, (38,), False)]


def test_turkish_majority_counts_kings_as_men() -> None:
    # The man on d2 takes two men; the king on h1 could take one king.
    assert moves_of("W:Wd2,Kh1:Bd3,d5,Kg1", TURKISH) == [(52, 20, (28, 44), False)]


def test_turkish_no_180_degree_turn() -> None:
    # The king on d4 may take b4 or f4 but not both: that would reverse its direction.
    assert moves_of("W:WKd4:Bb4,f4", TURKISH) == [
        (36, 33, (34,), False),
        (36, 39, (38,), False),
        (36, 40, (38,), False),
    ]
    assert TURKISH.rays is not None
    turning = replace(TURKISH, name="turning", rays=replace(TURKISH.rays, no_reversal=False))
    assert {len(m[2]) for m in moves_of("W:WKd4:Bb4,f4", turning)} == {2}


def test_turkish_captured_pieces_leave_at_once() -> None:
    # b4 x d4, up the f-file over f6, left over e7, then down the d-file -- across d4,
    # whose man has already gone -- over d2 to d1.
    fen = "W:WKb4:Bd4,f6,e7,d2"
    assert moves_of(fen, TURKISH) == [(34, 60, (13, 22, 36, 52), False)]
    # With removal after the move the man on d4 would block that last leg.
    later = replace(TURKISH, name="later", removal=Removal.AFTER_MOVE)
    assert {len(m[2]) for m in moves_of(fen, later)} == {3}


def test_turkish_promotion_during_a_capture() -> None:
    # c6 x c7 reaches the far row: it is crowned there, without a king's long capture
    # of f8 (IP-09: it goes on as a man).
    assert moves_of("W:Wc6:Bc7,f8", TURKISH) == [(19, 3, (11,), True)]
    # As a man it may go on sideways along the far row, and is crowned at the end.
    assert moves_of("W:Wc6:Bc7,d8", TURKISH) == [(19, 5, (4, 11), True)]
    # IP-09's other reading (crowned at once, goes on as a king) is one field away.
    crowning = replace(
        TURKISH, name="crowning", capture_promotion=CapturePromotion.CROWN_AND_CONTINUE
    )
    assert moves_of("W:Wc6:Bc7,f8", crowning) == [(19, 7, (6, 11), True), (19, 8, (6, 11), True)]
    # A quiet step onto the far row crowns too.
    assert (11, 3, (), True) in moves_of("W:Wc7:Ba2", TURKISH)


# ---------------------------------------------------------------------- fast paths


def _value(move: Move, position: Position, variant: Variant) -> tuple[int, int]:
    rays = variant.rays
    assert rays is not None
    opp_kings = position.black_kings if position.turn is Color.WHITE else position.white_kings
    kings = (move.capture_mask & opp_kings).bit_count()
    value = rays.man_value * (len(move.captures) - kings) + rays.king_value * kings
    own_kings = position.white_kings if position.turn is Color.WHITE else position.black_kings
    return value, int(bool(move.from_mask & own_kings) and rays.king_captures_first)


@pytest.mark.parametrize("variant", [FRISIAN, TURKISH], ids=lambda v: v.name)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 200))
def test_fast_paths_agree_with_generation(variant: Variant, seed: int, plies: int) -> None:
    """``has_capture``, perft and notation agree with ``legal_moves`` along random
    games; captures all have the best value; FENs round-trip."""
    gen = generator_for(variant)
    for position in random_line(variant, random.Random(seed), plies)[::5]:
        moves = legal_moves(position, variant)
        assert len({m.identity for m in moves}) == len(moves)
        white = position.turn is Color.WHITE
        own_men = position.white_men if white else position.black_men
        own_kings = position.white_kings if white else position.black_kings
        opp = (
            (position.black_men | position.black_kings)
            if white
            else position.white_men | (position.white_kings)
        )
        opp_kings = position.black_kings if white else position.white_kings
        must = gen.has_capture(own_men, own_kings, opp, opp_kings, white)
        assert must == any(m.captures for m in moves)
        if must:
            assert all(m.captures for m in moves)
            assert len({_value(m, position, variant) for m in moves}) == 1
        assert perft(position, 1, variant) == len(moves)
        slow = sum(len(legal_moves(position.apply(m), variant)) for m in moves)
        assert perft(position, 2, variant) == slow
        assert parse_fen(write_fen(position), variant).position == position
        for move, text in zip(moves, move_texts(moves, variant), strict=True):
            assert parse_move(text, moves, variant).move == move
            for path in move.paths:
                assert parse_move(path, moves, variant, capture=move.is_capture).move == move


def test_short_capture_crowns_only_the_side_whose_far_row_it_reaches() -> None:
    # 30x50 over 40 along a column: a Black man landing on 50 is crowned, a White man
    # (crowned on 1-5) is not, though both make the same jump; asking for Black first
    # must not hand White Black's move.
    gen = generator_for(FRISIAN)
    black = parse_fen("B:W40:B30", FRISIAN).position
    white = parse_fen("W:W30:BK7,K40,K45", FRISIAN).position
    for position, crowned in ((black, True), (white, False)):
        found = gen.short_capture(position, 30, 50)
        (legal,) = [m for m in legal_moves(position, FRISIAN) if (m.from_sq, m.to_sq) == (30, 50)]
        assert found is not None and found.promotes is crowned == legal.promotes
