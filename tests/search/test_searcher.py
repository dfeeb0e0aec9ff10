"""The built-in searcher: legal principal variations, wins and losses, symmetry."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import Board, Color, Position, legal_moves, parse_fen, variant_by_name
from pdn_tools.rules.variant import Variant
from pdn_tools.search import WIN, Searcher, analyse, evaluate

VARIANTS = ["international", "english", "russian", "brazilian", "italian", "frisian", "turkish"]


def random_position(variant: Variant, seed: int, plies: int) -> Position:
    """The position after up to *plies* random legal moves from the start."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    for _ in range(plies):
        moves = legal_moves(position, variant)
        if not moves:
            break
        position = position.apply(rng.choice(moves))
    return position


def flipped(position: Position, variant: Variant) -> Position:
    """The colour-flip: the board turned half a turn, colours and the turn exchanged."""
    size = position.geometry.size

    def turn(squares: list[int]) -> list[int]:
        return [size + 1 - s for s in squares]

    return Position.from_squares(
        variant,
        white_men=turn(position.men(Color.BLACK)),
        white_kings=turn(position.kings(Color.BLACK)),
        black_men=turn(position.men(Color.WHITE)),
        black_kings=turn(position.kings(Color.WHITE)),
        turn=Color.BLACK if position.turn is Color.WHITE else Color.WHITE,
    )


def assert_line_legal(position: Position, variant: Variant, moves: list[object]) -> None:
    for move in moves:
        assert move in legal_moves(position, variant)
        position = position.apply(move)  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 60),
    depth=st.integers(1, 3),
)
def test_the_principal_variation_is_legal(name: str, seed: int, plies: int, depth: int) -> None:
    variant = variant_by_name(name)
    position = random_position(variant, seed, plies)
    result = analyse(position, variant, depth=depth)
    assert_line_legal(position, variant, list(result.pv))
    assert len(result.pv) == len(result.pv_text)
    if legal_moves(position, variant):
        assert result.best_move in legal_moves(position, variant)
        assert result.depth >= 1
    else:
        assert result.pv == []
        assert result.score == -WIN


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), plies=st.integers(0, 50))
def test_colour_flipped_positions_score_the_same_for_the_side_to_move(
    name: str, seed: int, plies: int
) -> None:
    variant = variant_by_name(name)
    position = random_position(variant, seed, plies)
    mirror = flipped(position, variant)
    assert evaluate(mirror, variant) == evaluate(position, variant)
    here = analyse(position, variant, depth=3)
    there = analyse(mirror, variant, depth=3)
    assert there.score == here.score
    assert there.white_score == -here.white_score


@pytest.mark.parametrize("name", VARIANTS)
def test_symmetric_positions_score_zero(name: str) -> None:
    variant = variant_by_name(name)
    start = Position.initial(variant)
    assert flipped(start, variant).with_turn(start.turn) == start
    assert evaluate(start, variant) == 0
    assert evaluate(start.with_turn(Color.BLACK), variant) == 0


def test_a_side_without_a_move_has_lost() -> None:
    # White's only man on 46 is blocked by black men on 41 and 37 behind it: no move.
    blocked = parse_fen("W:W46:B41,37").position
    assert legal_moves(blocked, variant_by_name("international")) == []
    result = analyse(blocked, depth=5)
    assert result.score == -WIN
    assert result.white_score == -WIN
    assert result.pv == []
    # Black to move with no piece left is lost too.
    assert analyse(parse_fen("B:W28:B").position, depth=2).white_score == WIN


def test_a_capture_that_ends_the_game_is_a_win_in_one() -> None:
    # White takes the last black piece: won in one ply.
    result = analyse(parse_fen("W:W32:B27").position, depth=4)
    assert result.score == WIN - 1
    assert result.win_in == 1
    assert result.pv_text == ["32x21"]


def test_a_forced_win_found_deeper_is_scored_as_one() -> None:
    # English: a lone black man against two white kings that trap it.
    board = Board.from_fen("B:WK10,K19:B14", "english")
    result = board.analyse(depth=12)
    assert result.win_in is not None and result.win_in < 0
    assert result.white_win_in is not None and result.white_win_in > 0
    assert_line_legal(board.position, board.variant, list(result.pv))


@pytest.mark.parametrize("name", ["international", "english", "frisian"])
def test_deeper_budgets_never_return_an_illegal_move(name: str) -> None:
    variant = variant_by_name(name)
    searcher = Searcher(variant)
    for seed in range(3):
        position = random_position(variant, seed, 20 + seed * 7)
        legal = legal_moves(position, variant)
        for depth in range(1, 5):
            result = analyse(position, variant, depth=depth, searcher=searcher)
            assert result.best_move in legal
            assert result.depth == depth or result.win_in is not None
        for nodes in (1, 100, 3000):
            result = analyse(position, variant, nodes=nodes, searcher=searcher)
            assert result.best_move in legal
            assert result.depth >= 1


def test_a_node_budget_gives_the_same_result_every_time() -> None:
    board = Board()
    for move in ("32-28", "19-23", "28x19", "14x23"):
        board.push(move)
    first = analyse(board, nodes=4000)
    again = analyse(board, nodes=4000)
    assert (first.score, first.pv_text, first.depth) == (again.score, again.pv_text, again.depth)
    assert first.nodes <= 4000 + 1 or first.depth == 1


def test_the_table_does_not_change_a_fixed_depth_score() -> None:
    variant = variant_by_name("international")
    shared = Searcher(variant)
    for seed in range(4):
        position = random_position(variant, seed, 30)
        cold = analyse(position, variant, depth=4)
        warm = analyse(position, variant, depth=4, searcher=shared)
        assert warm.score == cold.score


def test_the_searcher_prefers_winning_material() -> None:
    # International: White can take two men with 33x22x13? Simply: a free man to take.
    result = analyse(parse_fen("W:W33,45:B28,3,4").position, depth=3)
    assert result.pv_text[0] == "33x22"
    assert result.score > 0


def _random_placement(variant: Variant, seed: int) -> Position:
    """Any placement of men and kings (men never on their own crowning row), either
    side to move: the static evaluation is defined on every board, reachable or not."""
    rng = random.Random(seed)
    geometry = Position.initial(variant).geometry
    width = variant.board.width
    white_crown = set(range(1, width // 2 + 1))
    black_crown = set(range(geometry.size - width // 2 + 1, geometry.size + 1))
    lists: dict[str, list[int]] = {"wm": [], "wk": [], "bm": [], "bk": []}
    for square in range(1, geometry.size + 1):
        roll = rng.random()
        if roll < 0.15 and square not in white_crown:
            lists["wm"].append(square)
        elif 0.15 <= roll < 0.3 and square not in black_crown:
            lists["bm"].append(square)
        elif 0.3 <= roll < 0.3 + rng.choice((0.0, 0.03)):
            lists["wk" if rng.random() < 0.5 else "bk"].append(square)
    return Position.from_squares(
        variant,
        white_men=lists["wm"],
        white_kings=lists["wk"],
        black_men=lists["bm"],
        black_kings=lists["bk"],
        turn=rng.choice((Color.WHITE, Color.BLACK)),
    )


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_the_evaluation_of_any_placement_is_colour_symmetric(name: str, seed: int) -> None:
    # Kings and men anywhere, not only the positions random play reaches: the
    # colour-flip scores the same for the side to move, so no term favours a colour.
    variant = variant_by_name(name)
    position = _random_placement(variant, seed)
    assert evaluate(flipped(position, variant), variant) == evaluate(position, variant)


@pytest.mark.parametrize(
    "budget", [{"depth": 0}, {"depth": -1}, {"nodes": 0}, {"seconds": 0.0}, {"seconds": math.nan}]
)
def test_a_budget_of_no_search_is_refused(budget: dict[str, float]) -> None:
    """``analyse`` refuses a budget that allows no search, as the Hub engine refuses
    such a level, instead of running a depth-1 search the caller did not ask for."""
    with pytest.raises(ValueError, match=next(iter(budget))):
        analyse(Board(), **budget)  # type: ignore[arg-type]
    assert analyse(Board(), depth=1).depth == 1
