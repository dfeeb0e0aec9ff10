"""The static evaluation of the searcher: material and a few positional terms.

Scores are integers in *centi-men*: a man is worth :data:`MAN` (100).  A king is worth
:data:`FLYING_KING` (three men) where kings fly (international, Russian, Brazilian,
Frisian, Turkish …) and :data:`SHORT_KING` (one man and a half) where they step one
square (English checkers, Italian); those figures are the players' usual rules of
thumb, not tuned values.  The positional terms, all small beside a man:

* **advancement** — :data:`ADVANCE` per row a man has travelled from its own back
  row (men that near the crown are worth more, and an advanced mass has space);
* **back row** — :data:`BACK_ROW` per man still on its own back row while the
  opponent has men (the guard that stops a break-through to the crown);
* **centre** — :data:`CENTRE` per man on the board's middle columns.

Every term is the same for both colours seen from their own side, so the colour-flip
of a position (the board turned half a turn, colours exchanged) evaluates to the
negated score: the searcher's symmetry tests rest on that.
"""

from __future__ import annotations

from pdn_tools.rules.bits import popcount
from pdn_tools.rules.geometry import Geometry
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import Color, KingRange, Variant

MAN = 100
"""A man, the unit of every score (centi-men)."""
FLYING_KING = 300
"""A king that flies over the diagonals (or ranks and files)."""
SHORT_KING = 150
"""A king that steps one square."""
ADVANCE = 3
"""Per row a man has advanced."""
BACK_ROW = 4
"""Per man on its own back row while the opponent still has men."""
CENTRE = 2
"""Per man on the middle columns."""


class Weights:
    """The evaluation of one board and variant, precomputed: row and column masks
    with the weight of each (looked up once per variant, see :func:`weights_for`)."""

    __slots__ = ("black_back", "black_rows", "centre", "king", "white_back", "white_rows")

    def __init__(self, variant: Variant, geometry: Geometry) -> None:
        self.king: int = FLYING_KING if variant.king_range is KingRange.FLYING else SHORT_KING
        rows = geometry.row_masks
        height = len(rows)
        # Row 0 is Black's back row (squares 1, 2, …): White men advance towards it.
        self.white_rows: list[tuple[int, int]] = [
            (rows[r], ADVANCE * (height - 1 - r)) for r in range(height) if height - 1 - r
        ]
        self.black_rows: list[tuple[int, int]] = [
            (rows[r], ADVANCE * r) for r in range(height) if r
        ]
        self.white_back: int = rows[height - 1]
        self.black_back: int = rows[0]
        width = geometry.spec.width
        low, high = (
            (width - 1) // 2 - (1 if width >= 8 else 0),
            width // 2 + (1 if width >= 8 else 0),
        )
        centre = 0
        for square in range(1, geometry.size + 1):
            col = geometry.coords[square][1]
            if low <= col <= high:
                centre |= 1 << geometry.bit_of[square]
        self.centre: int = centre


_WEIGHTS: dict[int, tuple[Variant, Weights]] = {}


def weights_for(variant: Variant, geometry: Geometry) -> Weights:
    """The weights of *variant* (built once per rules description object)."""
    entry = _WEIGHTS.get(id(variant))
    if entry is None or entry[0] is not variant:
        entry = (variant, Weights(variant, geometry))
        _WEIGHTS[id(variant)] = entry
    return entry[1]


def score_white(weights: Weights, wm: int, wk: int, bm: int, bk: int) -> int:
    """The evaluation of a placement from White's point of view (centi-men)."""
    score = MAN * (popcount(wm) - popcount(bm)) + weights.king * (popcount(wk) - popcount(bk))
    for mask, weight in weights.white_rows:
        score += weight * popcount(wm & mask)
    for mask, weight in weights.black_rows:
        score -= weight * popcount(bm & mask)
    if bm:
        score += BACK_ROW * popcount(wm & weights.white_back)
    if wm:
        score -= BACK_ROW * popcount(bm & weights.black_back)
    centre = weights.centre
    score += CENTRE * (popcount(wm & centre) - popcount(bm & centre))
    return score


def evaluate(position: Position, variant: Variant) -> int:
    """The static evaluation of *position* from the side to move's point of view."""
    weights = weights_for(variant, position.geometry)
    score = score_white(
        weights, position.white_men, position.white_kings, position.black_men, position.black_kings
    )
    return score if position.turn is Color.WHITE else -score
