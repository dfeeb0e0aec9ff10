"""Direction sets for variants whose pieces also move or capture orthogonally.

The diagonal engine (:mod:`.movegen`) reads a handful of variant fields and walks the
four diagonals with whole-board shifts.  Frisian draughts (men and kings also capture
straight ahead, back and sideways) and Turkish draughts (every piece moves along rows
and columns on all 64 squares) do not fit that picture, so a variant may carry a
:class:`RayRules`: the directions its men and kings use, as steps on the board's
(row, column) grid, plus the few capture rules only these variants have (piece values,
no 180-degree turn, the limit on consecutive king moves).  A variant with ``rays`` set
is served by the generic ray-walking generator of :mod:`.raygen`; the diagonal variants
never see this module.

Steps are written as White sees them: row -1 is towards Black (forward for White).  A
step is in board coordinates, not squares: on a board of dark squares the orthogonal
neighbour of a square lies two rows or two columns away, so Frisian's orthogonal steps
are ``(±2, 0)`` and ``(0, ±2)``, while Turkish, where every square is a playing square,
uses ``(±1, 0)`` and ``(0, ±1)``.  Black's steps are White's mirrored top to bottom.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

Step = tuple[int, int]
"""(row step, column step) on the board grid, as seen by White (row 0 at the top)."""

DIAGONALS: tuple[Step, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
"""The four diagonal steps."""
DIAGONALS_FORWARD: tuple[Step, ...] = ((-1, -1), (-1, 1))
"""A man's diagonal steps towards the opponent."""
ORTHOGONALS_DARK: tuple[Step, ...] = ((-2, 0), (0, -2), (0, 2), (2, 0))
"""Orthogonal steps on a board of dark squares: the next playing square along a row or
column is two squares away (Frisian, rules.md §4.6)."""
ORTHOGONALS: tuple[Step, ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))
"""Orthogonal steps on a board where every square is played (Turkish, rules.md §4.7)."""
FORWARD_AND_SIDEWAYS: tuple[Step, ...] = ((-1, 0), (0, -1), (0, 1))
"""A Turkish man's steps: straight forward or sideways, never backwards."""


@dataclass(frozen=True, slots=True)
class RayRules:
    """What a ray-walking variant's pieces may do (read by :mod:`.raygen`).

    The rest of the rules -- king range and landing, removal timing, promotion during a
    capture, majority or free choice -- come from the ordinary
    :class:`~pdn_tools.rules.variant.Variant` fields, read the same way as by the
    diagonal engine.
    """

    man_steps: tuple[Step, ...]
    """Quiet steps of a White man (one square along each)."""
    man_captures: tuple[Step, ...]
    """Directions in which a White man jumps an adjacent piece."""
    king_steps: tuple[Step, ...]
    """Directions of a king's quiet moves (flying or short per ``king_range``)."""
    king_captures: tuple[Step, ...]
    """Directions in which a king captures."""
    man_value: int = 1
    """Value of a captured man for the capture-choice rule."""
    king_value: int = 1
    """Value of a captured king.  Equal to ``man_value`` this is the plain majority
    rule; Frisian's "a king is worth more than a man but less than two" uses 199 against
    100 (lidraughts' weights, IP-07)."""
    king_captures_first: bool = False
    """On equal value, a capture by a king takes precedence over one by a man
    (Frisian)."""
    no_reversal: bool = False
    """A capture sequence may not turn 180 degrees between two captures (Turkish; with
    immediate removal nothing else would stop it)."""
    home_rows_empty: int = 0
    """Rows between each side's edge and its men in the start position (Turkish
    leaves its back row empty)."""
    king_move_limit: int | None = None
    """While a player also has men, one king may make at most this many non-capturing
    moves in a row (Frisian: 3).  It depends on the game's history, not the position,
    so the replay enforces it (:class:`~pdn_tools.rules.raygen.KingMoveLimit`); move
    generation and perft do not."""
    lone_piece_draw: bool = False
    """One piece against one piece is a draw at once (Turkish, IP-10)."""
    king_v_king_draw: bool = False
    """A lone king against a lone king is a draw at once (Frisian, IP-08)."""
    lone_draw_plies: int = 0
    """Plies the one-against-one material of ``lone_piece_draw`` or
    ``king_v_king_draw`` must last before the draw: 0 is "at once" (the defaults of
    IP-08 and IP-10); 4 is lidraughts' and pydraughts' "after 2 moves each"."""
    two_kings_v_king_plies: int | None = None
    """Plies after which two kings against a lone king are a draw (Frisian: 7 moves
    each, 14 plies)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # By value, through __init__: a compiled frozen class cannot be restored field
        # by field (variants cross processes).
        return (RayRules, tuple(getattr(self, f.name) for f in fields(self)))
