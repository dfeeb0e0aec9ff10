"""Engine values cross process boundaries (worker processes, cluster workers, report
details): they pickle and come back equal, and a registered variant or a board's
geometry comes back as the very object the engine keys its tables by.

The suite runs on both builds (.ci/compiled), and compiled classes have no default
pickling: these tests hold each class's ``__reduce__`` to its promise there.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest
from helpers import random_line

from pdn_tools.rules import Board, legal_moves, variants
from pdn_tools.rules.geometry import geometry_for
from pdn_tools.rules.variant import BoardSpec, Variant


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.name)
def test_variants_positions_and_moves_survive_pickling(variant: Variant) -> None:
    assert pickle.loads(pickle.dumps(variant)) is variant
    assert pickle.loads(pickle.dumps(variant.board)) == variant.board
    geometry = geometry_for(variant.board)
    assert pickle.loads(pickle.dumps(geometry)) is geometry
    for position in random_line(variant, random.Random(variant.name), 30):
        again = pickle.loads(pickle.dumps(position))
        assert again == position and again.geometry is position.geometry
        moves = legal_moves(position, variant)
        back = pickle.loads(pickle.dumps(moves))
        assert back == moves
        assert [m.paths for m in back] == [m.paths for m in moves]
        assert [(m.promotes, m.capture_mask) for m in back] == [
            (m.promotes, m.capture_mask) for m in moves
        ]
        if moves:
            assert again.apply(back[0]) == position.apply(moves[0])
    board = Board(variant)
    if board.legal_moves:
        board.push(board.legal_moves[0])
    again_board = pickle.loads(pickle.dumps(board))
    assert again_board == board and again_board.move_stack == board.move_stack


def test_an_unregistered_variant_comes_back_by_value() -> None:
    base = variants()[0]
    custom = replace(base, name="house", board=BoardSpec(8, 8), men_rows=3, gametype=None)
    again = pickle.loads(pickle.dumps(custom))
    assert again == custom and again is not custom
