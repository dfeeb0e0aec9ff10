"""Positions: four bitboards and the side to move.

A :class:`Position` is immutable and hashable.  Its bitboards use the bit layout of its
board's :class:`~pdn_tools.rules.geometry.Geometry`; squares go in and out as PDN
numbers through the accessors.  :meth:`Position.apply` plays a move produced by the move
generator for this position; it does not check legality (the generator did).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, final

from pdn_tools.rules.frozen import freeze
from pdn_tools.rules.geometry import Geometry, geometry_for
from pdn_tools.rules.variant import INTERNATIONAL, Color, Variant

if TYPE_CHECKING:
    from pdn_tools.rules.move import Move

PositionKey = tuple[int, int, int, int, bool]
"""Hashable identity of a position for repetition: placement and side to move."""
PositionFields = tuple[int, int, int, int, Color, Geometry]
"""The fields of a position in order (:meth:`Position.fields`)."""


@final
class Position:
    """Men and kings of both sides (bitboards) and the side to move.

    Immutable and hashable: :func:`~pdn_tools.rules.frozen.freeze` refuses an
    assignment or a deletion with ``AttributeError`` in both builds.  The fields are
    not ``Final``: mypyc 2.4.1 lends out a ``Final`` field without a reference of its
    own where a function returns it inside a tuple (:meth:`fields` does, and so
    ``__hash__``, ``__iter__`` and ``__reduce__``), which frees it while in use.

    A plain slotted class rather than a named tuple or a frozen dataclass: one
    position is built per ply (and per node in tree walks), and compiled by mypyc this
    class is a C struct whose constructor, field reads and ``apply`` are native code,
    with the bitboards kept unboxed where they fit in a machine word; a named tuple
    stays a Python class there, built through ``tuple.__new__`` and read through
    Python-level getters.
    Equality and hashing use the six fields; the geometry compares by identity (one
    object per board), so equal positions of the same board compare and hash equal.
    A position unpacks into its six fields (``wm, wk, bm, bk, turn, geometry =
    position``), but it is not a tuple: it is not indexed, sliced or ordered, and it
    never equals a tuple.
    """

    __slots__ = ("black_kings", "black_men", "geometry", "turn", "white_kings", "white_men")

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    turn: Color
    geometry: Geometry

    def __init__(
        self,
        white_men: int,
        white_kings: int,
        black_men: int,
        black_kings: int,
        turn: Color,
        geometry: Geometry,
    ) -> None:
        self.white_men = white_men
        self.white_kings = white_kings
        self.black_men = black_men
        self.black_kings = black_kings
        self.turn = turn
        self.geometry = geometry

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.white_men == other.white_men
            and self.white_kings == other.white_kings
            and self.black_men == other.black_men
            and self.black_kings == other.black_kings
            and self.turn is other.turn
            and self.geometry is other.geometry
        )

    def fields(self) -> PositionFields:
        """The six fields in order: white men, white kings, black men, black kings (the
        bitboards), the side to move and the geometry — what unpacking gives, in one
        call (compiled, a tuple returned by a native method is not even built)."""
        return (
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
            self.turn,
            self.geometry,
        )

    def __hash__(self) -> int:
        return hash(self.fields())

    def __iter__(self) -> Iterator[int | Color | Geometry]:
        # Unpacking, as when positions were named tuples.
        return iter(self.fields())

    def __reduce__(self) -> tuple[type[Position], PositionFields]:
        # Pickled by its constructor's arguments (worker processes send positions back):
        # a compiled class is otherwise rebuilt by calling it without any.
        return (Position, self.fields())

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


freeze(Position, stores_arguments=True)


def apply_move(position: Position, move: Move) -> Position:
    """The position after *move* (generated for *position*), other side to move.

    What :meth:`Position.apply` does, as a plain function for the hot loops (the board,
    the replay and the tree walks call it once per ply): a direct call, with no method
    look-up in the pure build.
    """
    wm = position.white_men
    wk = position.white_kings
    bm = position.black_men
    bk = position.black_kings
    geometry = position.geometry
    src = move.from_mask
    dst = move.to_mask
    keep = ~move.capture_mask
    if position.turn is _WHITE:
        bm &= keep
        bk &= keep
        if not wm & src:
            return Position(wm, wk ^ src | dst, bm, bk, _BLACK, geometry)
        if move.promotes:
            return Position(wm ^ src, wk | dst, bm, bk, _BLACK, geometry)
        return Position(wm ^ src | dst, wk, bm, bk, _BLACK, geometry)
    wm &= keep
    wk &= keep
    if not bm & src:
        return Position(wm, wk, bm, bk ^ src | dst, _WHITE, geometry)
    if move.promotes:
        return Position(wm, wk, bm ^ src, bk | dst, _WHITE, geometry)
    return Position(wm, wk, bm ^ src | dst, bk, _WHITE, geometry)


_WHITE: Final = Color.WHITE
_BLACK: Final = Color.BLACK
_INITIAL: dict[int, tuple[Variant, Position]] = {}
