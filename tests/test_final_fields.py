"""The engine's and the replay's hot records (:class:`Position`, :class:`ReplayedMove`,
``Written``) hand their fields out inside tuples, and those fields outlive the record.

mypyc 2.4.1 lends out a ``Final`` field of a compiled class without a reference of its
own where a function returns it inside a tuple: once the record is gone the tuple
holds freed objects (the compiled build crashed on every game with a FEN tag when
written-out classes still had ``Final`` fields).  These tests take the tuples, drop
the record, churn the allocator and read the values back, many times, with integers
too large for a machine word (Turkish boards use 71 bits); the values are compared
with ones the test computes itself.  They run in both builds (CI runs the suite
against the compiled wheel too).
"""

from __future__ import annotations

import gc
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools.pdn.model import Game
from pdn_tools.pdn.reader import read_string
from pdn_tools.replay import ReplayOptions, replay_game
from pdn_tools.replay.misrecord import Written
from pdn_tools.replay.options import ReplayedMove
from pdn_tools.replay.positions import position_at
from pdn_tools.rules import (
    INTERNATIONAL,
    Color,
    Position,
    geometry_for,
    legal_moves,
    move_text,
    parse_fen,
    variant_by_name,
    write_fen,
)
from pdn_tools.rules.frozen import freeze

TURKISH = variant_by_name("turkish")
CORPUS_FEN_FILES = (
    "corpus/clean/problem-setup.pdn",
    "corpus/oddities/fen-only.pdn",
    "corpus/faults/illegal-moves.pdn",
)


def _big(seed: int) -> tuple[int, int, int, int]:
    """Four bitboards beyond a machine word, made fresh (no other reference to them)."""
    rng = random.Random(seed)
    return (
        (1 << 70) | rng.getrandbits(70),
        (1 << 66) | rng.getrandbits(66),
        (1 << 90) | rng.getrandbits(90),
        (1 << 64) | seed,
    )


def _churn() -> None:
    """Allocate and free many objects of the fields' kinds, so that memory freed too
    early is reused (a freed field then reads as another value, or crashes)."""
    junk = [(1 << 80) + i for i in range(200)] + [str(i) * 3 for i in range(200)]
    del junk
    gc.collect(0)


def test_position_fields_outlive_the_position() -> None:
    geometry = geometry_for(TURKISH.board)
    kept: list[tuple[object, ...]] = []
    for seed in range(3000):
        wm, wk, bm, bk = _big(seed)
        position = Position(wm, wk, bm, bk, Color.BLACK, geometry)
        del wm, wk, bm, bk
        fields = position.fields()
        unpacked = tuple(position)
        reduced = position.__reduce__()[1]
        key = position.key()
        del position
        if seed % 100 == 0:
            _churn()
        expected = _big(seed)
        assert fields[:4] == expected and unpacked[:4] == expected and reduced[:4] == expected
        assert fields[4] is Color.BLACK and fields[5] is geometry and unpacked[5] is geometry
        assert key == (*expected, False)
        kept.append(fields)
    _churn()
    assert all(fields[:4] == _big(seed) for seed, fields in enumerate(kept))


def test_position_hash_pickle_and_equality_with_wide_boards() -> None:
    geometry = geometry_for(TURKISH.board)
    for seed in range(500):
        a = Position(*_big(seed), Color.WHITE, geometry)
        b = Position(*_big(seed), Color.WHITE, geometry)
        assert a == b and hash(a) == hash(b) == hash((*_big(seed), Color.WHITE, geometry))
        back = pickle.loads(pickle.dumps(a))
        del a
        _churn()
        assert back == b and back.fields()[:4] == _big(seed)


@given(
    squares=st.lists(st.integers(1, 64), max_size=40, unique=True),
    split=st.integers(0, 40),
    black=st.booleans(),
)
def test_turkish_positions_give_back_their_squares(
    squares: list[int], split: int, black: bool
) -> None:
    """Bitboards built from squares read back as the masks the test computes itself."""
    geometry = geometry_for(TURKISH.board)
    white, other = sorted(squares[:split]), sorted(squares[split:])
    turn = Color.BLACK if black else Color.WHITE
    position = Position.from_squares(TURKISH, white_kings=white, black_men=other, turn=turn)
    expected_white = sum(1 << geometry.bit_of[s] for s in white)
    expected_black = sum(1 << geometry.bit_of[s] for s in other)
    for _ in range(20):
        wm, wk, bm, bk, side, geo = position.fields()
        assert (wm, wk, bm, bk) == (0, expected_white, expected_black, 0)
        assert side is turn and geo is geometry
    assert position.kings(Color.WHITE) == white and position.men(Color.BLACK) == other


def test_position_is_immutable_in_both_builds() -> None:
    position = Position.initial(INTERNATIONAL)
    before = position.fields()
    for name in ("white_men", "white_kings", "black_men", "black_kings", "turn", "geometry"):
        with pytest.raises(AttributeError):
            setattr(position, name, getattr(position, name))
        with pytest.raises(AttributeError):
            delattr(position, name)
    assert position.fields() == before and position == Position.initial(INTERNATIONAL)


def _replayed(text: str) -> list[ReplayedMove]:
    (game,) = read_string(text)
    return replay_game(game, ReplayOptions()).moves


def test_replayed_moves_give_out_fields_that_outlive_them() -> None:
    text = '[GameType "20"]\n[FEN "W:W31,32:B19,20"]\n1. 32-28 20-25 2. 28-22 *\n'
    expected = [(1, "32-28"), (2, "20-25"), (3, "28-22")]
    for round_no in range(300):
        records = _replayed(text)
        unpacked = [tuple(record) for record in records]
        hashes = [hash(record) for record in records]
        assert hashes == [hash(tuple(record)) for record in records]
        copies = [pickle.loads(pickle.dumps(record)) for record in records]
        # The node comes back as a copy (nodes compare by identity): the rest is equal.
        assert [(c.ply, c.move, c.text, c.merged) for c in copies] == [
            (r.ply, r.move, r.text, r.merged) for r in records
        ]
        del records
        if round_no % 20 == 0:
            _churn()
        assert [(u[0], u[3]) for u in unpacked] == expected
        assert [u[2].from_sq for u in unpacked] == [32, 20, 28]
        assert all(u[4] == () for u in unpacked)


def test_replayed_move_and_written_are_immutable() -> None:
    (record, *_rest) = _replayed('[GameType "20"]\n1. 32-28 19-23 *\n')
    written = Written((32, 28), ("32", "28"), False, "32-28", 1)
    for item, name in ((record, "text"), (record, "merged"), (written, "squares")):
        before = getattr(item, name)
        with pytest.raises(AttributeError):
            setattr(item, name, before)
        with pytest.raises(AttributeError):
            delattr(item, name)
        assert getattr(item, name) == before
    assert repr(written) == (
        "Written(squares=(32, 28), names=('32', '28'), capture=False, text='32-28', ply=1)"
    )


def _set_up_games(path: str) -> list[Game]:
    """The games of a corpus file that start from a FEN tag."""
    with open(path, encoding="utf-8") as handle:
        games = read_string(handle.read(), name=path)
    return [game for game in games if game.tag("FEN") is not None]


@pytest.mark.parametrize("path", CORPUS_FEN_FILES)
def test_games_from_set_up_positions_replay_again_and_again(path: str) -> None:
    """Real records that start from a FEN replay the same each time, and the positions
    along their line are the ones their moves give, played by the test from the FEN."""
    first: list[tuple[str | None, str | None, int]] = []
    for round_no in range(40):
        seen = []
        for game in _set_up_games(path):
            result = replay_game(game, ReplayOptions())
            seen.append((result.start_fen, result.final_fen, result.plies))
            if result.start_fen is None or result.variant is None:
                continue
            variant = variant_by_name(result.variant)
            position = parse_fen(result.start_fen, variant).position
            for ply, record in enumerate(result.moves, 1):
                position = position.apply(record.move)
                assert position_at(game, variant, result, ply).position == position
            assert write_fen(position) == result.final_fen
            del result, position
        if round_no % 10 == 0:
            _churn()
        if first:
            assert seen == first
        else:
            first = seen
    assert any(start is not None for start, _final, _plies in first)


def test_a_turkish_game_from_a_set_up_position_replays() -> None:
    """Turkish bitboards take 71 bits (boxed integers in the compiled build): a game
    the engine plays from a FEN, written as PDN, replays through the same positions."""
    start = parse_fen("W:W34,41-47:B10,18-24", TURKISH).position
    positions = [start]
    words = []
    for ply in range(12):
        moves = sorted(legal_moves(positions[-1], TURKISH), key=lambda m: m.from_sq * 100 + m.to_sq)
        if not moves:
            break
        text = move_text(moves[ply % len(moves)], moves, TURKISH)
        words.append(f"{ply // 2 + 1}. {text}" if ply % 2 == 0 else text)
        positions.append(positions[-1].apply(moves[ply % len(moves)]))
    assert len(positions) > 4
    record = f'[GameType "30"]\n[FEN "{write_fen(start)}"]\n{" ".join(words)} *\n'
    for _ in range(100):
        (game,) = read_string(record)
        result = replay_game(game, ReplayOptions())
        assert result.plies == len(positions) - 1 and result.variant == "turkish"
        assert result.final_fen == write_fen(positions[-1])
        for ply, expected in enumerate(positions):
            reached = position_at(game, TURKISH, result, ply)
            assert reached.reached == ply and reached.position == expected
        del game, result
        _churn()


def test_the_problem_compositions_end_where_the_moves_lead() -> None:
    """Final positions worked out by hand from the compositions' FEN and moves."""
    games = _set_up_games("corpus/clean/problem-setup.pdn")
    finals = [replay_game(game, ReplayOptions()).final_fen for game in games]
    assert finals == ["W:W27,37:B12,13,29", "B:W28,38:BK10"]


def test_records_built_by_keyword_and_default_match_positional_ones() -> None:
    (record, *_rest) = _replayed('[GameType "20"]\n1. 32-28 19-23 *\n')
    by_name = ReplayedMove(text=record.text, move=record.move, node=record.node, ply=1)
    assert by_name == ReplayedMove(1, record.node, record.move, record.text, ())
    assert by_name.merged == () and by_name == record
    geometry = geometry_for(INTERNATIONAL.board)
    made = Position(
        turn=Color.BLACK, geometry=geometry, white_men=1, white_kings=2, black_men=4, black_kings=8
    )
    assert made.fields() == (1, 2, 4, 8, Color.BLACK, geometry)
    with pytest.raises(TypeError):
        Position(1, 2, 3)  # type: ignore[call-arg]


def test_only_a_constructor_that_stores_its_arguments_is_replaced() -> None:
    """``stores_arguments`` refuses a class whose constructor takes other names than
    its fields (it would store them past the guard under the wrong names)."""

    class Renamed:
        __slots__ = ("a", "b")

        def __init__(self, a: int, c: int) -> None:
            self.a = a
            self.b = c

    with pytest.raises(TypeError):
        freeze(Renamed, stores_arguments=True)

    class Stored:
        __slots__ = ("a", "b")

        def __init__(self, a: int, b: int = 5) -> None:
            self.a = a
            self.b = b

    freeze(Stored, stores_arguments=True)
    made = Stored(1)
    assert (made.a, made.b) == (1, 5) and Stored(b=2, a=3).b == 2
    with pytest.raises(AttributeError):
        made.a = 2
