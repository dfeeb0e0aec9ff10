"""Perft from the start position against the published counts.

The published numbers for international draughts (moves counted by identity) are 9, 81,
658, 4265, 27117, 167140, 1049442, 6483961, 41022423 for depths 1-9.
"""

from __future__ import annotations

import pytest

from pdn_tools.rules import Position, divide, legal_moves, perft

PUBLISHED = [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423]


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_start_position(depth: int) -> None:
    assert perft(Position.initial(), depth) == PUBLISHED[depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [7, 8])
def test_perft_start_position_deep(depth: int) -> None:
    assert perft(Position.initial(), depth) == PUBLISHED[depth - 1]


def test_perft_depth_zero_is_one() -> None:
    assert perft(Position.initial(), 0) == 1


def _slow_perft(position: Position, depth: int) -> int:
    """Perft through the public API (Move objects, Position.apply): an independent path."""
    if depth == 0:
        return 1
    return sum(_slow_perft(position.apply(m), depth - 1) for m in legal_moves(position))


def test_public_api_agrees_with_the_fast_path() -> None:
    assert _slow_perft(Position.initial(), 4) == PUBLISHED[3]


def test_divide_sums_to_perft() -> None:
    rows = divide(Position.initial(), 3)
    assert len(rows) == 9
    assert sum(count for _, count in rows) == PUBLISHED[2]
    assert rows[0][0] == "31-26"
