"""The move object the engine hands out.

A move's identity is (from square, to square, set of captured squares) (rules.md §8):
two routes with the same identity are one move, and :class:`Move` compares and hashes by
identity only.  All its routes are kept, as landing squares, because notation needs
them.
"""

from __future__ import annotations

from typing import Any

NO_CAPTURES: frozenset[int] = frozenset()
"""The captured set of every quiet move (shared)."""


class Move:
    """A legal move.  Equality and hashing use its identity (from, to, captured set).

    Moves are created by the generator and treated as immutable.  (A plain slotted
    class rather than a frozen dataclass: move lists are built in hot loops and a frozen
    dataclass costs several times more per instance.)
    """

    __slots__ = (
        "capture_mask",
        "captures",
        "from_mask",
        "from_sq",
        "paths",
        "promotes",
        "to_mask",
        "to_sq",
    )

    from_sq: int
    to_sq: int
    captures: frozenset[int]
    paths: tuple[tuple[int, ...], ...]
    """Every route, as landing squares from start to end (quiet move: ``(from, to)``)."""
    promotes: bool
    """Whether the moving man is crowned by this move."""
    from_mask: int
    to_mask: int
    capture_mask: int
    """Internal bitboards (the geometry's bit layout) used by :meth:`Position.apply`."""

    def __init__(
        self,
        from_sq: int,
        to_sq: int,
        captures: frozenset[int],
        paths: tuple[tuple[int, ...], ...],
        promotes: bool,
        from_mask: int,
        to_mask: int,
        capture_mask: int,
    ) -> None:
        self.from_sq = from_sq
        self.to_sq = to_sq
        self.captures = captures
        self.paths = paths
        self.promotes = promotes
        self.from_mask = from_mask
        self.to_mask = to_mask
        self.capture_mask = capture_mask

    @property
    def identity(self) -> tuple[int, int, frozenset[int]]:
        """(from, to, captured squares): what makes two moves the same (rules.md §8)."""
        return (self.from_sq, self.to_sq, self.captures)

    @property
    def is_capture(self) -> bool:
        """Whether the move captures anything."""
        return bool(self.capture_mask)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through __init__ (compiled classes have no default pickling).
        return (
            Move,
            (
                self.from_sq,
                self.to_sq,
                self.captures,
                self.paths,
                self.promotes,
                self.from_mask,
                self.to_mask,
                self.capture_mask,
            ),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (
            self.from_sq == other.from_sq
            and self.to_sq == other.to_sq
            and self.captures == other.captures
        )

    def __hash__(self) -> int:
        return hash((self.from_sq, self.to_sq, self.captures))

    def __repr__(self) -> str:
        sep = "x" if self.captures else "-"
        caught = f" captures={sorted(self.captures)}" if self.captures else ""
        return f"Move({self.from_sq}{sep}{self.to_sq}{caught})"
