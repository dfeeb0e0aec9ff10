"""Positions: four bitboards and the side to move.

A :class:`Position` is immutable and hashable.  Its bitboards use the bit layout of its
board's :class:`~pdn_tools.rules.geometry.Geometry`; squares go in and out as PDN
numbers through the accessors.  :meth:`Position.apply` plays a move produced by the move
generator for this position; it does not check legality (the generator did).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from pdn_tools.rules.geometry import Geometry, geometry_for
from pdn_tools.rules.variant import INTERNATIONAL, Color, Variant

if TYPE_CHECKING:
    from pdn_tools.rules.move import Move

PositionKey = tuple[int, int, int, int, bool]
"""Hashable identity of a position for repetition: placement and side to move."""


class Position(NamedTuple):
    """Men and kings of both sides (bitboards) and the side to move.

    A named tuple rather than a frozen dataclass: positions are created once per ply
    (and per node in tree walks), and a tuple is several times cheaper to build.  The
    geometry compares by identity (one object per board), so equal positions of the
    same board compare and hash equal.
    """

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    turn: Color
    geometry: Geometry

    @classmethod
    def from_squares(
        cls,
        variant: Variant = INTERNATIONAL,
        *,
        white_men: tuple[int, ...] | list[int] = (),
        white_kings: tuple[int, ...] | list[int] = (),
        black_men: tuple[int, ...] | list[int] = (),
        black_kings: tuple[int, ...] | list[int] = (),
        turn: Color = Color.WHITE,
    ) -> Position:
        """Build a position from square lists (no validation; see :mod:`.fen`)."""
        geo = geometry_for(variant.board)
        return Position(
            geo.mask_of(white_men),
            geo.mask_of(white_kings),
            geo.mask_of(black_men),
            geo.mask_of(black_kings),
            turn,
            geo,
        )

    @classmethod
    def initial(cls, variant: Variant = INTERNATIONAL) -> Position:
        """The variant's start position: men on the first ``men_rows`` rows each (after
        the empty home rows of a variant such as Turkish).  Built once per rules
        description (looked up by identity, as the generators are)."""
        known = _INITIAL.get(id(variant))
        if known is not None and known[0] is variant:
            return known[1]
        geo = geometry_for(variant.board)
        black = 0
        white = 0
        skip = variant.rays.home_rows_empty if variant.rays is not None else 0
        for row in range(skip, skip + variant.men_rows):
            black |= geo.row_masks[row]
            white |= geo.row_masks[-1 - row]
        position = Position(white, 0, black, 0, variant.first_mover, geo)
        _INITIAL[id(variant)] = (variant, position)
        return position

    def __repr__(self) -> str:
        # Square lists rather than FEN: the FEN writer (.fen) builds on this module.
        return (
            f"Position(turn={self.turn.name}, white_men={self.men(Color.WHITE)}, "
            f"white_kings={self.kings(Color.WHITE)}, black_men={self.men(Color.BLACK)}, "
            f"black_kings={self.kings(Color.BLACK)})"
        )

    @property
    def white_to_move(self) -> bool:
        """True when White is to move."""
        return self.turn is Color.WHITE

    def key(self) -> PositionKey:
        """Placement and side to move: equal keys are the same position (IP-04)."""
        return (
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
            self.turn is Color.WHITE,
        )

    def placement_key(self) -> tuple[int, int, int, int]:
        """Placement only, for the house rule that ignores the side to move (IP-04)."""
        return (self.white_men, self.white_kings, self.black_men, self.black_kings)

    def men(self, color: Color) -> list[int]:
        """Squares of *color*'s men, ascending."""
        return self.geometry.squares(self.white_men if color is Color.WHITE else self.black_men)

    def kings(self, color: Color) -> list[int]:
        """Squares of *color*'s kings, ascending."""
        mask = self.white_kings if color is Color.WHITE else self.black_kings
        return self.geometry.squares(mask)

    def piece_count(self, color: Color) -> int:
        """Number of *color*'s pieces."""
        if color is Color.WHITE:
            return (self.white_men | self.white_kings).bit_count()
        return (self.black_men | self.black_kings).bit_count()

    def piece_at(self, square: int) -> tuple[Color, bool] | None:
        """(colour, is_king) of the piece on *square*, or None when it is empty."""
        bit = 1 << self.geometry.bit_of[square]
        if self.white_men & bit:
            return (Color.WHITE, False)
        if self.white_kings & bit:
            return (Color.WHITE, True)
        if self.black_men & bit:
            return (Color.BLACK, False)
        if self.black_kings & bit:
            return (Color.BLACK, True)
        return None

    def with_turn(self, turn: Color) -> Position:
        """The same placement with *turn* to move."""
        return Position(
            self.white_men, self.white_kings, self.black_men, self.black_kings, turn, self.geometry
        )

    def apply(self, move: Move) -> Position:
        """The position after *move* (generated for this position), other side to move."""
        return apply_move(self, move)


def apply_move(position: Position, move: Move) -> Position:
    """The position after *move* (generated for *position*), other side to move.

    What :meth:`Position.apply` does, as a plain function: a named tuple stays a Python
    class in the compiled build, so calling its method goes through a Python-level
    method lookup, while this function is called directly by the board, the replay and
    the tree walks, once per ply.  Built with ``tuple.__new__``: the named tuple's own
    constructor adds a Python-level call too.
    """
    wm, wk, bm, bk, turn, geometry = position
    src = move.from_mask
    dst = move.to_mask
    keep = ~move.capture_mask
    if turn is _WHITE:
        bm &= keep
        bk &= keep
        if not wm & src:
            return _new(Position, (wm, wk ^ src | dst, bm, bk, _BLACK, geometry))
        if move.promotes:
            return _new(Position, (wm ^ src, wk | dst, bm, bk, _BLACK, geometry))
        return _new(Position, (wm ^ src | dst, wk, bm, bk, _BLACK, geometry))
    wm &= keep
    wk &= keep
    if not bm & src:
        return _new(Position, (wm, wk, bm, bk ^ src | dst, _WHITE, geometry))
    if move.promotes:
        return _new(Position, (wm, wk, bm ^ src, bk | dst, _WHITE, geometry))
    return _new(Position, (wm, wk, bm ^ src | dst, bk, _WHITE, geometry))


_WHITE: Final = Color.WHITE
_BLACK: Final = Color.BLACK
_INITIAL: dict[int, tuple[Variant, Position]] = {}
_new: Final = tuple.__new__
