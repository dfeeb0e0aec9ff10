"""A board to play on: a position, its variant and the moves played, python-chess style.

:class:`~pdn_tools.rules.position.Position` is the engine's immutable value (four
bitboards and the side to move); :class:`Board` is what a program using the library
holds: it knows its variant, lists the legal moves, reads and writes move text and FEN,
plays moves (:meth:`Board.push`) and takes them back (:meth:`Board.pop`).  It also draws
itself as text (``str(board)``), the diagram ``pdn show`` prints.

A board knows the rules of a single position: whether the side to move has lost (no
legal move).  Draws by repetition or move counts depend on the game's history and are
the replay's findings, not the board's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from pdn_tools.rules.fen import FenError, parse_fen, write_fen
from pdn_tools.rules.generators import legal_moves
from pdn_tools.rules.move import Move
from pdn_tools.rules.notation import MatchKind, move_text, move_texts, parse_move
from pdn_tools.rules.position import Position, apply_move
from pdn_tools.rules.variant import INTERNATIONAL, Color, Variant, variant_by_name

_PIECES = {
    (Color.WHITE, False): "w",
    (Color.WHITE, True): "W",
    (Color.BLACK, False): "b",
    (Color.BLACK, True): "B",
}
_ACCEPTED = (MatchKind.EXACT, MatchKind.ABBREVIATED, MatchKind.NONCANONICAL)
_SEPARATORS = re.compile(r"[-xX:]")
_FEN_START = re.compile(r"\s*[WBwb?]\s*:")
"""How a FEN begins (the side to move, a colon): ``Board("W:W31-50:B1-20")``."""

ANALYSERS: list[Callable[..., Any]] = []
"""The searcher behind :meth:`Board.analyse`, put here by :mod:`pdn_tools.search` when
it is imported (the engine never imports the layer above it)."""


class IllegalMoveError(ValueError):
    """Move text that names no legal move of the position, or names several."""


def diagram(position: Position) -> list[str]:
    """The board of *position*, one text line per row, framed, numbers on the right.

    White men ``w``, white kings ``W``, black men ``b``, black kings ``B``, empty
    playing squares ``.``; light squares stay blank.  Row 0 (Black's side, squares 1,
    2, …) is at the top, as in diagrams, and beside each row are the numbers of its
    playing squares, so that a move such as 32-28 can be followed on the board.
    """
    geo = position.geometry
    width, height = geo.spec.width, geo.spec.height
    digits = len(str(geo.size))
    cells = [[" "] * width for _ in range(height)]
    numbers = [[" " * digits] * width for _ in range(height)]
    for square in range(1, geo.size + 1):
        row, col = geo.coords[square]
        piece = position.piece_at(square)
        cells[row][col] = _PIECES[piece] if piece is not None else "."
        numbers[row][col] = str(square).rjust(digits)
    frame = "+" + "-" * (2 * width + 1) + "+"
    lines = [frame]
    for row in range(height):
        lines.append(f"| {' '.join(cells[row])} |   {' '.join(numbers[row])}".rstrip())
    lines.append(frame)
    return lines


def _variant(variant: Variant | str | int) -> Variant:
    """The variant given by a :class:`Variant`, a name or alias, or a GameType number
    (``20`` or ``"20"``); UnknownVariantError for an unknown one."""
    return variant if isinstance(variant, Variant) else variant_by_name(variant)


class Board:
    """A position of a variant that moves can be played on.

    ``Board()`` is the international start position; ``Board(variant="russian")``
    another variant's; :meth:`from_fen` any position, and ``Board("W:W31-50:B1-20")``
    (a FEN where the variant goes, as python-chess takes one) an international one.
    Variants are given by name, alias or GameType number (``"english"``,
    ``"checkers"``, ``"21"`` or ``21``) or as a :class:`~pdn_tools.rules.variant.Variant`;
    an unknown one raises :class:`~pdn_tools.rules.variant.UnknownVariantError`.

    A board changes as moves are played, so it is not hashable (two boards compare
    equal when they hold the same variant and position): the immutable
    :attr:`position` (a :class:`~pdn_tools.rules.position.Position`) is the key for
    sets and dictionaries.

    >>> board = Board()
    >>> board.push("32-28").to_sq
    28
    >>> board.fen()
    'B:W28,31,33-50:B1-20'
    >>> len(board.legal_moves)
    9
    """

    __slots__ = ("_legal", "_legal_before", "_position", "move_stack", "variant")

    def __init__(
        self, variant: Variant | str | int = INTERNATIONAL, position: Position | None = None
    ) -> None:
        if isinstance(variant, str) and position is None and _FEN_START.match(variant):
            position = Board.from_fen(variant).position
            variant = INTERNATIONAL
        self.variant: Variant = _variant(variant)
        self._position = position if position is not None else Position.initial(self.variant)
        self._legal: list[Move] | None = None
        """The legal moves of the current position, once generated."""
        self._legal_before: list[tuple[Position, list[Move]]] = []
        """The legal moves of the positions :meth:`push` left, so that :meth:`pop`
        need not generate them again (a tree walk pops back to every position)."""
        self.move_stack: list[tuple[Move, Position]] = []
        """The moves played with :meth:`push`, each with the position before it."""

    @classmethod
    def from_fen(cls, fen: str, variant: Variant | str | int = INTERNATIONAL) -> Board:
        """The board of a FEN (``W:W31-50:B1-20``; algebraic squares on 8x8 boards).

        Raises :class:`~pdn_tools.rules.fen.FenError` (a ``ValueError``) saying why
        when the FEN is invalid, and for a ``?`` turn: a board always has a side to
        move, and choosing one for the caller would be a guess
        (:func:`~pdn_tools.rules.fen.parse_fen` reads such a FEN, with ``turn_known``
        False).
        """
        chosen = _variant(variant)
        read = parse_fen(fen, chosen)
        if not read.turn_known:
            raise FenError(
                f"the side to move of {fen.strip()!r} is unknown ('?'): a board needs W or B"
            )
        return cls(chosen, read.position)

    # -- the position -----------------------------------------------------------
    @property
    def position(self) -> Position:
        """The engine's immutable value of the current position."""
        return self._position

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self._position.turn

    def fen(self) -> str:
        """The FEN of the current position (PDN square numbers)."""
        return write_fen(self._position)

    def piece_at(self, square: int) -> tuple[Color, bool] | None:
        """(colour, is king) of the piece on *square*, or None when it is empty.

        Raises ``ValueError`` for a number that is not a square of the board.
        """
        size = self._position.geometry.size
        if not 1 <= square <= size:
            raise ValueError(f"{square} is not a square of {self.variant.name} (1 to {size})")
        return self._position.piece_at(square)

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves, sorted by (from, to, captured squares); empty: lost."""
        return list(self._legal_moves())

    def _legal_moves(self) -> list[Move]:
        """The board's own list of the legal moves (not to be changed: the property
        hands out copies)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_moves(self._position, self.variant)
        return legal

    def move_text(self, move: Move) -> str:
        """The canonical notation of *move* in this position (``32-28``, ``28x17``).

        Raises :class:`IllegalMoveError` when *move* is not a legal move here (its
        notation depends on the other legal moves of the position).
        """
        legal = self._legal_moves()
        return move_text(_own_move(legal, move, self), legal, self.variant)

    def legal_move_texts(self) -> list[str]:
        """The canonical notation of every legal move, in :attr:`legal_moves` order
        (what ``pdn moves`` prints)."""
        return move_texts(self._legal_moves(), self.variant)

    # -- playing ----------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """The legal move *text* names (``32-28``, ``28x17``, ``c3-d4`` on 8x8 boards).

        Raises :class:`IllegalMoveError` when it names no legal move or several.
        """
        geo = self._position.geometry
        parts = _SEPARATORS.split(text.strip())
        squares = [geo.square_named(p) for p in parts if p]
        if len(squares) < 2 or None in squares or "" in parts:
            raise IllegalMoveError(f"{text!r} is not a move on this board")
        numbers = tuple(s for s in squares if s is not None)
        capture = bool(re.search(r"[xX:]", text))
        match = parse_move(numbers, self._legal_moves(), self.variant, capture=capture)
        if match.kind in _ACCEPTED and match.move is not None:
            return match.move
        if match.kind is MatchKind.AMBIGUOUS:
            options = ", ".join(self.move_text(m) for m in match.candidates)
            raise IllegalMoveError(f"{text!r} is ambiguous here: {options}")
        raise IllegalMoveError(f"{text!r} is not a legal move in {self.fen()}")

    def push(self, move: Move | str) -> Move:
        """Play *move* (a legal :class:`Move` or its text) and return the move played.

        Raises :class:`IllegalMoveError` for a move that is not legal here.
        """
        legal = self._legal_moves()
        move = self.parse_move(move) if isinstance(move, str) else _own_move(legal, move, self)
        self.move_stack.append((move, self._position))
        self._legal_before.append((self._position, legal))
        self._position = apply_move(self._position, move)
        self._legal = None
        return move

    def apply(self, move: Move | str) -> Move:
        """Another name for :meth:`push` (the engine's word: ``Position.apply``)."""
        return self.push(move)

    def pop(self) -> Move:
        """Take back the last move played and return it (IndexError when none)."""
        move, before = self.move_stack.pop()
        self._position = before
        self._legal = None
        saved = self._legal_before
        if saved:
            position, legal = saved.pop()
            if position is before:
                self._legal = legal
            else:  # the move stack was replaced: what was saved belongs to other positions
                saved.clear()
        return move

    # -- analysis -----------------------------------------------------------------
    def analyse(
        self, depth: int | None = None, nodes: int | None = None, seconds: float | None = None
    ) -> Any:
        """Search the position with the built-in searcher and return its
        ``Analysis`` (score, principal variation): see :func:`pdn_tools.search.analyse`.

        Available once :mod:`pdn_tools.search` is imported (any name of the
        ``pdn_tools`` API, such as ``pdn_tools.Board``, does it); RuntimeError before.
        """
        if not ANALYSERS:
            raise RuntimeError("Board.analyse needs the searcher: import pdn_tools.search")
        return ANALYSERS[0](self, depth, nodes, seconds)

    # -- the end ------------------------------------------------------------------
    def is_game_over(self) -> bool:
        """Whether the side to move has no legal move (and so has lost)."""
        return not self._legal_moves()

    def outcome(self) -> Literal["white", "black"] | None:
        """The winner when the game is over on the board, else None.

        Only the rule of the board itself: a side without a legal move loses.  Draws
        (repetition, move counts, material) need the game's history: see the replay's
        draw events (``game.draws``).
        """
        if self._legal_moves():
            return None
        return "black" if self.turn is Color.WHITE else "white"

    # -- the usual --------------------------------------------------------------
    def copy(self) -> Board:
        """An independent board with the same position and move stack."""
        other = Board(self.variant, self._position)
        other.move_stack = list(self.move_stack)
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through __init__ (compiled classes have no default pickling).
        return (_rebuilt, (self.variant, self._position, tuple(self.move_stack)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.variant is other.variant and self._position == other._position

    # A board changes as moves are played: hashed by its position, it would be lost
    # in a set or dictionary by the next push.  Position is the immutable key.
    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return "\n".join(diagram(self._position))

    def __repr__(self) -> str:
        return f"Board.from_fen({self.fen()!r}, variant={self.variant.name!r})"


def _own_move(legal: list[Move], move: Move, board: Board) -> Move:
    """The generator's own object in *legal* for *move* (the same object, or the one
    equal to it); IllegalMoveError when *move* is not legal on *board*."""
    for known in legal:
        if known is move:
            return known
    for known in legal:
        if known == move:
            return known
    raise IllegalMoveError(f"{move!r} is not a legal move in {board.fen()}")


def _rebuilt(
    variant: Variant, position: Position, stack: tuple[tuple[Move, Position], ...]
) -> Board:
    """The board a pickle describes (see :meth:`Board.__reduce__`)."""
    board = Board(variant, position)
    board.move_stack = list(stack)
    return board


__all__ = ["Board", "FenError", "IllegalMoveError", "diagram"]
