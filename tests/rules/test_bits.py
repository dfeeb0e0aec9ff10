"""``popcount`` counts like ``int.bit_count`` in whichever build runs the suite.

The compiled build takes the loop that clears the lowest set bit, the pure build the
method; the suite runs on both, so each path is held to the same definition.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pdn_tools.rules.bits import COMPILED, popcount
from pdn_tools.version import build


def test_the_build_is_told_alike_by_the_module_and_by_the_version() -> None:
    assert COMPILED is (build() == "compiled")


@given(st.integers(min_value=0, max_value=(1 << 200) - 1))
def test_popcount_counts_the_set_bits(mask: int) -> None:
    """Masks beyond 64 bits too: boards of 12x12 and larger need them."""
    assert popcount(mask) == bin(mask).count("1")


@given(st.lists(st.integers(min_value=0, max_value=199), unique=True, max_size=40))
def test_popcount_of_a_board_of_given_squares(bits: list[int]) -> None:
    mask = 0
    for bit in bits:
        mask |= 1 << bit
    assert popcount(mask) == len(bits)


@given(st.integers(max_value=-1))
def test_a_negative_mask_counts_nothing_and_ends(mask: int) -> None:
    assert popcount(mask) == 0
