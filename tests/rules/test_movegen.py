"""Hand-verified rule positions for the move generator (international draughts).

Every expected move below was worked out on paper from the square numbering of
rules.md §1.2 (row r = (s-1) div 5, column 2i+1 on even rows, 2i on odd rows), not by
running the engine.  Coordinates are given as (row, column) where they help the reader.
"""

from __future__ import annotations

from dataclasses import replace

from pdn_tools.rules import (
    INTERNATIONAL,
    CaptureChoice,
    CapturePromotion,
    Color,
    KingRange,
    Move,
    Removal,
    Variant,
    legal_moves,
    parse_fen,
    write_fen,
)
from pdn_tools.rules.generators import generator_for

Identity = tuple[int, int, frozenset[int]]


def moves_of(fen: str, variant: Variant = INTERNATIONAL) -> list[Move]:
    return legal_moves(parse_fen(fen, variant).position, variant)


def ids(moves: list[Move]) -> set[Identity]:
    return {m.identity for m in moves}


def cap(*squares: int) -> frozenset[int]:
    return frozenset(squares)


def test_start_position_has_nine_quiet_moves() -> None:
    moves = moves_of("W:W31-50:B1-20")
    assert ids(moves) == {
        (31, 26, cap()), (31, 27, cap()), (32, 27, cap()), (32, 28, cap()), (33, 28, cap()),
        (33, 29, cap()), (34, 29, cap()), (34, 30, cap()), (35, 30, cap()),
    }  # fmt: skip


def test_black_men_move_towards_higher_numbers() -> None:
    # Black man 19 (3,6) steps down to 23 (4,5) or 24 (4,7).
    assert ids(moves_of("B:W50:B19")) == {(19, 23, cap()), (19, 24, cap())}


def test_men_capture_backwards_but_do_not_step_backwards() -> None:
    # White man 28 (5,4); black man on 33 (6,5) behind it; 39 (7,6) is empty.
    assert ids(moves_of("W:W28:B33")) == {(28, 39, cap(33))}
    # Without the capture, 28 only steps forward to 22 or 23.
    assert ids(moves_of("W:W28:B1")) == {(28, 22, cap()), (28, 23, cap())}


def test_turkish_strike_captured_pieces_block_and_are_not_jumped_twice() -> None:
    # King 47 (9,2) takes 42 and turns on 33, takes 22 and turns on 17, takes 21 and
    # lands on 26 (5,0), takes 31 heading for 42 (8,3): 42 was captured in this move, so
    # it still stands there, blocks the king on 37 and cannot be jumped a second time.
    moves = moves_of("W:WK47:B21,22,31,42")
    assert ids(moves) == {(47, 37, cap(21, 22, 31, 42))}
    assert moves[0].paths == ((47, 33, 17, 26, 37),)


def test_immediate_removal_is_a_description_not_a_copy() -> None:
    # The same position under immediate removal: 42 has gone when the king comes back,
    # so it may also stop on 42 or 48 behind it.
    immediate = replace(INTERNATIONAL, name="immediate-removal", removal=Removal.IMMEDIATE)
    moves = moves_of("W:WK47:B21,22,31,42", immediate)
    assert ids(moves) == {(47, to, cap(21, 22, 31, 42)) for to in (37, 42, 48)}


def test_man_passing_the_promotion_row_stays_a_man() -> None:
    # White man 15 (2,9) takes 10 landing on 4 (0,7), on White's promotion row, and must
    # go on: it takes 9 (1,6) landing on 13 (2,5).  It ends as a man.
    moves = moves_of("W:W15:B9,10")
    assert ids(moves) == {(15, 13, cap(9, 10))}
    move = moves[0]
    assert not move.promotes
    after = parse_fen("W:W15:B9,10").position.apply(move)
    assert write_fen(after) == "B:W13:B"


def test_crowned_during_capture_variant_continues_as_a_king() -> None:
    # Russian-style promotion: crowned on 4, the new king flies on over 9 and may stop on
    # any of 13, 18, 22, 27, 31, 36 (the diagonal 4-9-13-18-22-27-31-36).
    russian_like = replace(
        INTERNATIONAL, name="crown-continue", capture_promotion=CapturePromotion.CROWN_AND_CONTINUE
    )
    moves = moves_of("W:W15:B9,10", russian_like)
    assert ids(moves) == {(15, to, cap(9, 10)) for to in (13, 18, 22, 27, 31, 36)}
    assert all(m.promotes for m in moves)
    # Crowning that ends the move stops on 4 after one capture.
    stop = replace(
        INTERNATIONAL, name="crown-stop", capture_promotion=CapturePromotion.CROWN_AND_STOP
    )
    stopped = moves_of("W:W15:B9,10", stop)
    assert ids(stopped) == {(15, 4, cap(10))}
    assert stopped[0].promotes


def test_free_king_landing_after_the_last_capture() -> None:
    # King 46 (9,0) takes 41; the whole rest of the long diagonal is empty, so it may
    # land on any of 37, 32, 28, 23, 19, 14, 10, 5.
    moves = moves_of("W:WK46:B41")
    assert ids(moves) == {(46, to, cap(41)) for to in (37, 32, 28, 23, 19, 14, 10, 5)}


def test_forced_king_landing_when_the_capture_continues() -> None:
    # King 46 takes 41; only from 32 (6,3) can it go on (over 38 to 43 or 49).  Under
    # free choice too, it must land on 32, so no one-piece capture is legal.
    moves = moves_of("W:WK46:B38,41")
    assert ids(moves) == {(46, 43, cap(38, 41)), (46, 49, cap(38, 41))}
    free = replace(INTERNATIONAL, name="free", capture_choice=CaptureChoice.FREE)
    assert ids(moves_of("W:WK46:B38,41", free)) == ids(moves)


def test_capture_may_end_on_its_own_start_square() -> None:
    # Man 28 (5,4) runs the loop 28x17x8x19x28 (or the other way round) over 22, 12, 13
    # and 23: one move, two routes, from == to.
    moves = moves_of("W:W28:B12,13,22,23")
    assert ids(moves) == {(28, 28, cap(12, 13, 22, 23))}
    assert set(moves[0].paths) == {(28, 17, 8, 19, 28), (28, 19, 8, 17, 28)}
    after = parse_fen("W:W28:B12,13,22,23").position.apply(moves[0])
    assert write_fen(after) == "B:W28:B"


def test_capture_may_cross_its_own_start_square() -> None:
    # As above with 32 and 33 occupied by Black: back on 28 the man goes on over 32 to
    # 37 or over 33 to 39 (5 pieces), so the loop alone (4 pieces) is not legal.
    moves = moves_of("W:W28:B12,13,22,23,32,33")
    assert ids(moves) == {
        (28, 37, cap(12, 13, 22, 23, 32)),
        (28, 39, cap(12, 13, 22, 23, 33)),
    }


def test_same_from_and_to_with_different_captured_sets_are_two_moves() -> None:
    # King 16 (3,0): over 11 to 7, over 12 to 23, over 41 to 46; or over 11 to 2, over
    # 13 to 19, over 41 to 46.  Both end on 46 with three pieces.
    moves = [m for m in moves_of("W:WK16:B11-13,21,41") if (m.from_sq, m.to_sq) == (16, 46)]
    assert ids(moves) == {(16, 46, cap(11, 12, 41)), (16, 46, cap(11, 13, 41))}


def test_king_blocked_by_its_own_piece() -> None:
    # King 46's only diagonal starts with its own man on 41: no king move, no capture of
    # 32 behind it; the man steps to 36 or 37.
    assert ids(moves_of("W:WK46,41:B28,32")) == {(41, 36, cap()), (41, 37, cap())}


def test_pieces_on_the_edge_cannot_be_captured() -> None:
    # Black 35 (6,9) is on the right edge: man 40 (7,8) has no square behind it.
    assert ids(moves_of("W:W40:B35")) == {(40, 34, cap())}
    # King 50 (9,8) faces 45 (8,9) on the edge; only its other diagonal is open.
    moves = moves_of("W:WK50:B45")
    assert not any(m.is_capture for m in moves)
    assert {m.to_sq for m in moves} == {44, 39, 33, 28, 22, 17, 11, 6}


def test_majority_rule_across_different_pieces() -> None:
    # Man 31 can take 27 and 17 (31x22x11); man 35 can only take 30 (35x24).
    assert ids(moves_of("W:W31,35:B17,27,30")) == {(31, 11, cap(17, 27))}
    # A king counts as one piece: taking the king on 30 is still the shorter capture.
    assert ids(moves_of("W:W31,35:B17,27,K30")) == {(31, 11, cap(17, 27))}
    # Under free choice both captures are legal, but a sequence must still be finished.
    free = replace(INTERNATIONAL, name="free", capture_choice=CaptureChoice.FREE)
    assert ids(moves_of("W:W31,35:B17,27,30", free)) == {
        (31, 11, cap(17, 27)),
        (35, 24, cap(30)),
    }


def test_blocked_side_has_no_moves() -> None:
    # White man 46: 41 is Black and 37 behind it is taken, so neither step nor capture.
    assert moves_of("W:W46:B37,41") == []
    assert moves_of("B:W46:B") == []


def test_promotion_at_the_end_of_a_move() -> None:
    # Man 7 (1,2) steps to 1 or 2 and is crowned.
    moves = moves_of("W:W7:B30")
    assert ids(moves) == {(7, 1, cap()), (7, 2, cap())}
    assert all(m.promotes for m in moves)
    position = parse_fen("W:W7:B30").position
    assert write_fen(position.apply(moves[0])) == "B:WK1:B30"
    # Man 12 (2,3) takes 7 and lands on 1: the move ends there, so it is crowned.
    capture = moves_of("W:W12:B7")
    assert ids(capture) == {(12, 1, cap(7))} and capture[0].promotes
    # Black men are crowned on 46-50.
    black = moves_of("B:W30:B41")
    assert ids(black) == {(41, 46, cap()), (41, 47, cap())} and all(m.promotes for m in black)


def test_capture_is_compulsory_even_over_a_promoting_step() -> None:
    # Man 7 could promote on 1 or 2, but man 28 must take 22 (landing on 17).
    assert ids(moves_of("W:W7,28:B22")) == {(28, 17, cap(22))}


def test_short_king_is_a_description_parameter() -> None:
    short = replace(INTERNATIONAL, name="short-kings", king_range=KingRange.SHORT)
    assert ids(moves_of("W:WK28:B1", short)) == {
        (28, 22, cap()), (28, 23, cap()), (28, 32, cap()), (28, 33, cap())
    }  # fmt: skip
    # A short king takes only an adjacent piece and lands directly behind it.
    assert ids(moves_of("W:WK46:B37", short)) == {(46, 41, cap())}
    assert ids(moves_of("W:WK46:B41", short)) == {(46, 37, cap(41))}


def test_apply_switches_side_and_removes_captured_pieces() -> None:
    position = parse_fen("W:W31,35:B17,27,30").position
    (move,) = legal_moves(position)
    after = position.apply(move)
    assert after.turn is Color.BLACK
    assert write_fen(after) == "B:W11,35:B30"
    assert after.key() != position.key()
    assert after.key() == parse_fen("B:W11,35:B30").position.key()


def test_short_capture_answers_one_jump_captures_only() -> None:
    gen = generator_for(INTERNATIONAL)
    # Only one-jump captures: 31x22 (over 27) and 35x24 (over 30) are both answered.
    simple = parse_fen("W:W31,35:B27,30", INTERNATIONAL).position
    assert ids(legal_moves(simple)) == {(31, 22, cap(27)), (35, 24, cap(30))}
    found = gen.short_capture(simple, 31, 22)
    assert found is not None and found.identity == (31, 22, cap(27))
    assert gen.short_capture(simple, 31, 27) is None  # not a capture
    assert gen.short_capture(simple, 22, 31) is None  # no piece of White on 22
    # With a two-piece capture on the board the majority rule needs the full search:
    # the one-jump 35x24 is not answered (and is not legal), nor is 31x22.
    longer = parse_fen("W:W31,35:B17,27,30", INTERNATIONAL).position
    assert gen.short_capture(longer, 35, 24) is None
    assert gen.short_capture(longer, 31, 22) is None
    # A king that can capture: not established by the one-jump check either.
    king = parse_fen("W:W31,K50:B27,44", INTERNATIONAL).position
    assert gen.short_capture(king, 31, 22) is None
