"""Property tests over random legal games from the start position."""

from __future__ import annotations

import itertools
import random

import pytest
from helpers import random_line, random_placement
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import (
    Color,
    MatchKind,
    Move,
    Position,
    legal_moves,
    move_texts,
    parse_fen,
    parse_move,
    perft,
    write_fen,
)
from pdn_tools.rules.generators import generator_for
from pdn_tools.rules.geometry import geometry_for
from pdn_tools.rules.variant import INTERNATIONAL, Variant, variants

GEO = geometry_for(INTERNATIONAL.board)


def random_game(seed: int, plies: int) -> list[Position]:
    """Positions of a random legal game (stops early when a side cannot move)."""
    rng = random.Random(seed)
    position = Position.initial()
    positions = [position]
    for _ in range(plies):
        moves = legal_moves(position)
        if not moves:
            break
        position = position.apply(rng.choice(moves))
        positions.append(position)
    return positions


def assert_valid(position: Position) -> None:
    men_w, men_b = position.white_men, position.black_men
    kings_w, kings_b = position.white_kings, position.black_kings
    boards = [men_w, kings_w, men_b, kings_b]
    for i, a in enumerate(boards):
        assert a & ~GEO.valid == 0
        for b in boards[i + 1 :]:
            assert a & b == 0
    assert men_w & GEO.white_promotion == 0
    assert men_b & GEO.black_promotion == 0
    assert position.piece_count(Color.WHITE) <= 20 and position.piece_count(Color.BLACK) <= 20


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(20, 160))
def test_random_games_stay_valid(seed: int, plies: int) -> None:
    positions = random_game(seed, plies)
    for before, after in itertools.pairwise(positions):
        assert_valid(after)
        assert after.turn is before.turn.opponent
        assert after.piece_count(Color.WHITE) <= before.piece_count(Color.WHITE)
        assert after.piece_count(Color.BLACK) <= before.piece_count(Color.BLACK)
        result = parse_fen(write_fen(after))
        assert result.position == after and result.warnings == ()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 140))
def test_notation_round_trips(seed: int, plies: int) -> None:
    position = random_game(seed, plies)[-1]
    moves = legal_moves(position)
    for move, text in zip(moves, move_texts(moves), strict=True):
        match = parse_move(text, moves)
        assert match.move == move
        assert match.kind in (MatchKind.EXACT, MatchKind.ABBREVIATED)
        for path in move.paths:
            squares_match = parse_move(path, moves, capture=move.is_capture)
            assert squares_match.move == move, (text, path, squares_match)
            assert not squares_match.separator_mismatch


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120))
def test_moves_are_distinct_and_captures_follow_majority(seed: int, plies: int) -> None:
    position = random_game(seed, plies)[-1]
    moves = legal_moves(position)
    assert len({m.identity for m in moves}) == len(moves)
    if any(m.captures for m in moves):
        assert all(m.captures for m in moves)
        assert len({len(m.captures) for m in moves}) == 1
    for move in moves:
        for path in move.paths:
            assert path[0] == move.from_sq and path[-1] == move.to_sq
            assert len(path) == max(2, len(move.captures) + 1)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(10, 120))
def test_fast_perft_agrees_with_public_api(seed: int, plies: int) -> None:
    position = random_game(seed, plies)[-1]
    slow = sum(len(legal_moves(position.apply(m))) for m in legal_moves(position))
    assert perft(position, 2) == slow
    assert perft(position, 1) == len(legal_moves(position))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(30, 160), st.randoms(use_true_random=False))
def test_partial_paths_never_pick_another_move(seed: int, plies: int, rng: random.Random) -> None:
    # Leaving intermediate squares out of a route gives that move (exact, non-canonical)
    # or an ambiguity that includes it -- never a different move and never a refusal.
    position = random_game(seed, plies)[-1]
    moves = legal_moves(position)
    for move in moves:
        for path in move.paths:
            inner = [s for s in path[1:-1] if rng.random() < 0.5]
            written = (path[0], *inner, path[-1])
            match = parse_move(written, moves, capture=True)
            if match.kind is MatchKind.AMBIGUOUS:
                assert move in match.candidates
            else:
                assert match.move == move, (written, match)


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.name)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 160))
def test_short_capture_check_agrees_with_generation(
    variant: Variant, seed: int, plies: int
) -> None:
    """``Generator.short_capture`` answers only a legal capture that is the sole legal
    move with its two squares, and it answers every capture of a position whose
    captures are all one jump by a man (the case it exists for), in every variant."""
    rng = random.Random(seed)
    gen = generator_for(variant)
    size = variant.board.squares
    positions = random_line(variant, rng, plies)[::3]
    positions += [random_placement(rng, variant) for _ in range(6)]
    for position in positions:
        legal = legal_moves(position, variant)
        by_squares: dict[tuple[int, int], list[Move]] = {}
        for m in legal:
            by_squares.setdefault((m.from_sq, m.to_sq), []).append(m)
        men = set(position.men(position.turn))
        simple = bool(legal) and all(
            m.captures and len(m.captures) == 1 and m.from_sq in men for m in legal
        )
        for frm in position.men(position.turn) + position.kings(position.turn):
            for to in range(1, size + 1):
                found = gen.short_capture(position, frm, to)
                expected = by_squares.get((frm, to), [])
                where = (variant.name, write_fen(position), frm, to)
                if found is not None:
                    assert expected == [found] and found.captures, where
                    assert found.paths == expected[0].paths, where
                    assert found.promotes == expected[0].promotes, where
                elif simple and variant.rays is None and not any(m.promotes for m in legal):
                    # (A man crowned on a jump may continue in some variants; the bulk
                    # check leaves every position with a crowning jump to the search.
                    # The ray generator of Frisian and Turkish answers only the cases
                    # its own checks cover: it is held to soundness, not completeness.)
                    assert not expected, where
        assert gen.short_capture(position, 0, size + 1) is None


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.name)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 160))
def test_capture_between_agrees_with_generation(variant: Variant, seed: int, plies: int) -> None:
    """``Generator.capture_between`` answers exactly when one legal capture has the two
    squares asked for, and answers that move (routes and crowning included)."""
    rng = random.Random(seed)
    gen = generator_for(variant)
    size = variant.board.squares
    positions = random_line(variant, rng, plies)[::3]
    positions += [random_placement(rng, variant) for _ in range(6)]
    answered = 0
    for position in positions:
        by_squares: dict[tuple[int, int], list[Move]] = {}
        for m in legal_moves(position, variant):
            by_squares.setdefault((m.from_sq, m.to_sq), []).append(m)
        for frm in position.men(position.turn) + position.kings(position.turn):
            for to in range(1, size + 1):
                found = gen.capture_between(position, frm, to)
                expected = by_squares.get((frm, to), [])
                where = (variant.name, write_fen(position), frm, to)
                if len(expected) == 1 and expected[0].captures:
                    assert found == expected[0], where
                    assert found.paths == expected[0].paths, where
                    assert found.promotes == expected[0].promotes, where
                    answered += 1
                else:
                    assert found is None, where
        assert gen.capture_between(position, 0, size + 1) is None
    assert answered or not any(m.captures for p in positions for m in legal_moves(p, variant))


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.name)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 160))
def test_one_quiet_move_check_agrees_with_generation(
    variant: Variant, seed: int, plies: int
) -> None:
    """``Generator.quiet_move`` answers exactly the legal quiet moves, and nothing
    else, for every (from, to) pair of the side to move's pieces, in every variant."""
    rng = random.Random(seed)
    gen = generator_for(variant)
    size = variant.board.squares
    positions = random_line(variant, rng, plies)[::7]
    positions += [random_placement(rng, variant) for _ in range(6)]
    for position in positions:
        legal = legal_moves(position, variant)
        quiet = {(m.from_sq, m.to_sq): m for m in legal if not m.captures}
        own = position.men(position.turn) + position.kings(position.turn)
        for frm in own:
            for to in range(1, size + 1):
                found = gen.quiet_move(position, frm, to)
                expected = quiet.get((frm, to))
                assert found == expected, (variant.name, write_fen(position), frm, to)
                if found is not None and expected is not None:
                    assert found.paths == ((frm, to),) and found.promotes == expected.promotes
        assert gen.quiet_move(position, 0, size + 1) is None
