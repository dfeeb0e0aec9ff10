"""Square numbering (rules.md §1), rules descriptions and position basics."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pdn_tools.rules import (
    INTERNATIONAL,
    BoardSpec,
    Color,
    Position,
    geometry_for,
    legal_moves,
    parse_fen,
    variant_by_name,
    variants,
    write_fen,
)
from pdn_tools.rules.geometry import DOWN_LEFT, UP_RIGHT
from pdn_tools.rules.movetables import CHUNK, move_code, tables_for


def test_square_coordinates_follow_the_formula() -> None:
    geo = geometry_for(BoardSpec())
    for square in range(1, 51):
        row, index = divmod(square - 1, 5)
        col = 2 * index + 1 if row % 2 == 0 else 2 * index
        assert geo.coords[square] == (row, col)


def test_long_diagonal_and_edges() -> None:
    geo = geometry_for(BoardSpec())
    ray = geo.rays[geo.bit_of[46]][UP_RIGHT]
    assert [geo.square_of[b] for b in ray] == [41, 37, 32, 28, 23, 19, 14, 10, 5]
    for square in (6, 16, 26, 36, 46):  # left edge: nothing further left
        assert geo.step[geo.bit_of[square]][DOWN_LEFT] == -1
    assert geo.squares(geo.white_promotion) == [1, 2, 3, 4, 5]
    assert geo.squares(geo.black_promotion) == [46, 47, 48, 49, 50]


def test_turned_board_numbering() -> None:
    # Italian board (rules.md §1.4): square 1 on a8, the diagonal 1-5-10-14-19-23-28-32.
    geo = geometry_for(BoardSpec(8, 8, dark_near_left=False))
    assert geo.coords[1] == (0, 0) and geo.coords[32] == (7, 7)
    ray = geo.rays[geo.bit_of[1]][3]
    assert [geo.square_of[b] for b in ray] == [5, 10, 14, 19, 23, 28, 32]


def test_an_8x8_description_uses_the_same_engine() -> None:
    # International rules on the standard 8x8 board (as Brazilian draughts): White men
    # on 21-32; 21 (5,0) can only go to 17, and 22, 23, 24 have two steps each.
    eight = replace(INTERNATIONAL, name="8x8", gametype=None, board=BoardSpec(8, 8), men_rows=3)
    start = Position.initial(eight)
    assert write_fen(start) == "W:W21-32:B1-12"
    moves = legal_moves(start, eight)
    assert len(moves) == 7
    assert {m.from_sq for m in moves} == {21, 22, 23, 24}
    assert eight.max_pieces == 12


def test_variant_lookup() -> None:
    assert variant_by_name("international") is INTERNATIONAL
    assert variant_by_name("20") is INTERNATIONAL
    assert variant_by_name(" FMJD ") is INTERNATIONAL
    with pytest.raises(KeyError, match="unknown variant"):
        variant_by_name("chess")


def test_position_key_and_moves_identity() -> None:
    a = parse_fen("W:W31-50:B1-20").position
    b = parse_fen("W:B1-20:W50,49,48,47,46,45,44,43,42,41,31-40").position
    assert a.key() == b.key() and hash(a) == hash(b)
    assert a.with_turn(Color.BLACK).key() != a.key()
    assert a.placement_key() == a.with_turn(Color.BLACK).placement_key()
    moves_a = legal_moves(a)
    assert moves_a == legal_moves(b)
    assert len(set(moves_a)) == 9
    assert a.piece_at(31) == (Color.WHITE, False) and a.piece_at(25) is None


def test_a_position_of_another_board_is_refused() -> None:
    eight = replace(INTERNATIONAL, name="8x8", gametype=None, board=BoardSpec(8, 8), men_rows=3)
    with pytest.raises(ValueError, match="8x8"):
        legal_moves(Position.initial(eight), INTERNATIONAL)


@pytest.mark.parametrize("name", [v.name for v in variants()])
def test_step_chunk_tables_list_the_codes_of_each_bit(name: str) -> None:
    """Entry v of a chunk's table holds, in ascending bit order, the code of every
    man step landing on a bit of v (the entries are made as they are met; this is their
    definition, checked entry by entry)."""
    variant = variant_by_name(name)
    geo = geometry_for(variant.board)
    tables = tables_for(variant, geo)
    size = len(geo.square_of)
    for side_tables in tables.step_chunks:
        assert side_tables, "every side steps somewhere"
        for n, is_left, chunks in side_tables:
            for k, table in enumerate(chunks):
                assert len(table.by_value) == 1 << CHUNK
                for v in range(1 << CHUNK):
                    expected = []
                    for bit in range(CHUNK):
                        to = k * CHUNK + bit
                        frm = to - n if is_left else to + n
                        if not v >> bit & 1 or to >= size or not 0 <= frm < size:
                            continue
                        if geo.square_of[to] and geo.square_of[frm]:
                            expected.append(move_code(frm, to, False, tables.code_bits))
                    assert table.codes(v) == tuple(expected)
                    assert table.by_value[v] == tuple(expected)  # kept once made


@pytest.mark.parametrize("name", ["international", "english", "russian", "italian"])
def test_quiet_tables_hold_every_step_and_king_move_once(name: str) -> None:
    """Each side's quiet table: its men's forward steps from the start; a king's moves
    along its reach once they are made for its square, and only then, the same objects
    in both sides' tables and in the look-up by (from, to) with the squares passed
    over."""
    variant = variant_by_name(name)
    geo = geometry_for(variant.board)
    tables = tables_for(variant, geo)
    sq = geo.square_of
    bits = tables.code_bits
    forward = ((0, 1), (2, 3))  # (UP_LEFT, UP_RIGHT) for White, the others for Black
    steps: list[set[int]] = [set(), set()]
    kings: set[int] = set()
    for side in (0, 1):
        for frm, neighbours in enumerate(geo.step):
            if not sq[frm]:
                continue
            for d in forward[side]:
                if neighbours[d] >= 0:
                    steps[side].add(move_code(frm, neighbours[d], False, bits))
            for ray in tables.king_reach[frm]:
                kings.update(move_code(frm, to, True, bits) for to in ray)
    assert [set(table) for table in tables.quiet] == steps  # no king move made yet
    assert not any(tables.kings.made)
    playing = [frm for frm in range(len(sq)) if sq[frm]]
    first = playing[len(playing) // 2]
    tables.kings.make(first)
    made_first = {c for c in kings if c >> 1 >> bits == first}
    assert made_first
    assert [set(table) for table in tables.quiet] == [s | made_first for s in steps]
    assert tables.kings.made[first] and sum(tables.kings.made) == 1
    for frm in playing:
        if frm != first:
            tables.kings.make(frm)
    for side, table in enumerate(tables.quiet):
        assert set(table) == steps[side] | kings
        for code, move in table.items():
            frm, to = code >> 1 >> bits, (code >> 1) & ((1 << bits) - 1)
            assert (move.from_sq, move.to_sq, move.paths) == (sq[frm], sq[to], ((sq[frm], sq[to]),))
            assert not move.captures
            assert move.promotes is False or not code & 1
    assert all(tables.quiet[0][c] is tables.quiet[1][c] for c in kings)
    for frm in playing:
        for ray in tables.king_reach[frm]:
            between = 0
            for to in ray:
                code = move_code(frm, to, True, bits)
                move, passed = tables.kings.with_between[code >> 1]
                assert move is tables.quiet[0][code]
                assert passed == between
                between |= 1 << to


def test_a_generator_makes_a_kings_moves_when_a_king_first_stands_on_its_square() -> None:
    """A fresh generator holds no king move; a king's moves appear, complete, the first
    time a position has a king on that square, whether the moves are listed or one move
    is looked up, and the answers match the board's geometry."""
    from pdn_tools.rules.movegen import Generator

    gen = Generator(INTERNATIONAL)
    geo = gen.geometry
    assert not any(gen.king_made)
    position = parse_fen("W:WK28,K46:B5", INTERNATIONAL).position
    moves = gen.legal_moves(position)
    made = {geo.square_of[b] for b, done in enumerate(gen.king_made) if done}
    assert made == {28, 46}
    expected = set()
    for square in (28, 46):
        for ray in geo.rays[geo.bit_of[square]]:
            for to in ray:
                if geo.square_of[to] in (5, 28, 46):
                    break
                expected.add((square, geo.square_of[to]))
    assert {(m.from_sq, m.to_sq) for m in moves} == expected
    # A look-up of one king move makes that square's moves and no other.
    other = parse_fen("W:WK33:B1", INTERNATIONAL).position
    move = gen.quiet_move(other, 33, 6)
    assert move is not None and (move.from_sq, move.to_sq) == (33, 6)
    assert gen.quiet_move(other, 33, 1) is None  # occupied
    assert {geo.square_of[b] for b, done in enumerate(gen.king_made) if done} == {28, 33, 46}
    assert move in gen.legal_moves(other)
