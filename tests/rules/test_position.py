"""What a :class:`Position` is as a value: equal and hashed like its bitboards, side to
move and board, immutable to the type checker, unpacked into its six fields, pickled
by its constructor's arguments — in the pure build and in the compiled one, where it
is a native class."""

from __future__ import annotations

import pickle
import random

from helpers import random_placement
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import Color, Position, legal_moves
from pdn_tools.rules.geometry import geometry_for
from pdn_tools.rules.position import apply_move
from pdn_tools.rules.variant import Variant, variants

VARIANTS = variants()


def _placement(seed: int, variant_index: int) -> tuple[Variant, Position]:
    variant = VARIANTS[variant_index % len(VARIANTS)]
    return variant, random_placement(random.Random(seed), variant)


def _fields(position: Position) -> tuple[int, int, int, int, Color, object]:
    return (
        position.white_men,
        position.white_kings,
        position.black_men,
        position.black_kings,
        position.turn,
        position.geometry,
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 100))
def test_positions_compare_and_hash_by_their_fields(seed: int, variant_index: int) -> None:
    _variant, position = _placement(seed, variant_index)
    fields = _fields(position)
    twin = Position(*fields)
    assert twin is not position
    assert twin == position and (twin != position) is False
    assert hash(twin) == hash(position)
    assert len({position, twin}) == 1 and {position: 1}[twin] == 1
    assert tuple(position) == fields  # unpacks into its six fields, in order
    assert position.fields() == fields  # the same six, in one call
    wm, wk, bm, bk, turn, geometry = position
    assert (wm, wk, bm, bk, turn, geometry) == fields
    # Not a tuple: never equal to its fields, whose order it does not impose either.
    assert position != fields and fields != position
    other_turn = position.with_turn(turn.opponent)
    assert other_turn != position and other_turn.key() != position.key()
    assert other_turn.placement_key() == position.placement_key()
    for index in range(4):
        changed = list(fields)
        changed[index] = fields[index] ^ 1 << geometry.bit_of[1]
        assert Position(*changed) != position


def test_the_board_is_part_of_a_position() -> None:
    boards = {v.board: v for v in VARIANTS}
    assert len(boards) > 1
    first, *others = boards.values()
    here = Position.initial(first)
    for variant in others:
        # The same bitboards on another board are another position.
        elsewhere = Position(*_fields(here)[:5], geometry_for(variant.board))
        assert elsewhere != here


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 100))
def test_positions_survive_pickling(seed: int, variant_index: int) -> None:
    variant, position = _placement(seed, variant_index)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(position, protocol))
        assert type(again) is Position
        assert again == position and hash(again) == hash(position)
        assert again.geometry is position.geometry
        assert repr(again) == repr(position)
        assert legal_moves(again, variant) == legal_moves(position, variant)


def test_apply_and_apply_move_agree_and_leave_the_position_unchanged() -> None:
    rng = random.Random(7)
    for variant in VARIANTS:
        position = Position.initial(variant)
        for _ in range(40):
            moves = legal_moves(position, variant)
            if not moves:
                break
            move = rng.choice(moves)
            before = _fields(position)
            after = position.apply(move)
            assert apply_move(position, move) == after
            assert _fields(position) == before
            assert after.turn is position.turn.opponent
            assert after.geometry is position.geometry
            position = after


def test_repr_lists_the_squares() -> None:
    position = Position.from_squares(white_men=[31, 45], black_kings=[3], turn=Color.BLACK)
    assert repr(position) == (
        "Position(turn=BLACK, white_men=[31, 45], white_kings=[], black_men=[], black_kings=[3])"
    )
