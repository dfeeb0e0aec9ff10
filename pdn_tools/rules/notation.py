"""Move notation: writing canonical move text and matching written moves to legal moves.

This is the only place where text meets moves, and it stays text-light: it reads
squares already split (or a bare move string such as ``28x17x8``), never PDN files.

Writing (pdn-format.md §10): a quiet move is ``from-to``; a capture is ``fromxto`` when
no other legal move has the same from and to, otherwise its canonical full path.  A
canonical path lists one square per captured piece except the last: the square where the
piece turns if it changes direction after that capture, else the square directly behind
the captured piece.  A move whose routes give several canonical paths (a loop run either
way, pieces taken in another order) uses the smallest.

Reading classifies a written move against the legal moves as exact, abbreviated,
non-canonical, wrong path, ambiguous or unknown (:class:`MatchKind`).
"""

from __future__ import annotations

import enum
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pdn_tools.rules.frozen import freeze
from pdn_tools.rules.geometry import Geometry, geometry_for
from pdn_tools.rules.move import Move
from pdn_tools.rules.variant import INTERNATIONAL, Variant


class MatchKind(enum.Enum):
    """How a written move relates to the legal moves."""

    EXACT = "exact"
    """A quiet move, a single capture, or a canonical full path of exactly one move."""
    ABBREVIATED = "abbreviated"
    """The short form ``fromxto`` of a multiple capture that only one move fits."""
    NONCANONICAL = "noncanonical"
    """A path (squares missing, extra or not canonical) that fits exactly one move:
    its intermediate squares are, in order, landing squares of one of the move's routes,
    or failing that, squares one route passes over or lands on."""
    WRONG_PATH = "wrong-path"
    """From and to match legal captures but the intermediate squares fit none: refused."""
    AMBIGUOUS = "ambiguous"
    """Several legal moves fit; :attr:`MoveMatch.candidates` lists them."""
    NO_MATCH = "no-match"
    """No legal move has this from and to square."""


class MoveMatch:
    """The result of :func:`parse_move`."""

    kind: MatchKind
    move: Move | None
    """The identified move (exact, abbreviated or non-canonical), else None."""
    candidates: tuple[Move, ...]
    """Ambiguous: the moves that fit; wrong path: the moves with the same from and to."""
    separator_mismatch: bool
    """The text said capture (``x``/``:``) for a quiet move or ``-`` for a capture."""

    __slots__ = ("candidates", "kind", "move", "separator_mismatch")

    def __init__(
        self,
        kind: MatchKind,
        move: Move | None,
        candidates: tuple[Move, ...] = (),
        separator_mismatch: bool = False,
    ) -> None:
        self.kind = kind
        self.move = move
        self.candidates = candidates
        self.separator_mismatch = separator_mismatch

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MoveMatch) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.move, self.candidates, self.separator_mismatch) == (
            other.kind,
            other.move,
            other.candidates,
            other.separator_mismatch,
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.move, self.candidates, self.separator_mismatch))

    def __repr__(self) -> str:
        return (
            f"MoveMatch(kind={self.kind!r}, "
            f"move={self.move!r}, "
            f"candidates={self.candidates!r}, "
            f"separator_mismatch={self.separator_mismatch!r})"
        )

    def __reduce__(self) -> tuple[type[MoveMatch], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (MoveMatch, (self.kind, self.move, self.candidates, self.separator_mismatch))

    @property
    def accepted(self) -> bool:
        """Whether the text identifies one legal move."""
        return self.move is not None


freeze(MoveMatch)


_SPLIT = re.compile(r"\s*([-xX:])\s*")


def split_move_text(text: str) -> tuple[tuple[int, ...], bool]:
    """Split ``32-28`` / ``28x17x8`` / ``28:17`` into squares and a capture flag.

    Raises ``ValueError`` when the text is not numeric squares joined by separators.
    """
    parts = _SPLIT.split(text.strip())
    squares = parts[0::2]
    seps = parts[1::2]
    if len(squares) < 2 or not all(s.isdigit() for s in squares):
        raise ValueError(f"not a numeric move: {text!r}")
    return tuple(int(s) for s in squares), any(sep != "-" for sep in seps)


def _direction(geo: Geometry, a: int, b: int) -> tuple[int, int]:
    """Step from square *a* to the next playing square towards *b* (same line).

    Along a diagonal, or along a row or column of a board where every square is
    played, that is one square; along a row or column of a board of dark squares
    (Frisian) the next playing square is two squares away.
    """
    (ra, ca), (rb, cb) = geo.coords[a], geo.coords[b]
    dr, dc = (rb > ra) - (rb < ra), (cb > ca) - (cb < ca)
    if not (dr and dc) and (ra + dr, ca + dc) not in geo.square_at:
        return (2 * dr, 2 * dc)
    return (dr, dc)


def _between(geo: Geometry, a: int, b: int) -> list[int]:
    """Squares strictly between *a* and *b* on their diagonal, in order of travel."""
    dr, dc = _direction(geo, a, b)
    (r, c), target = geo.coords[a], geo.coords[b]
    out = []
    lookup = geo.square_at
    r, c = r + dr, c + dc
    while (r, c) != target:
        out.append(lookup[(r, c)])
        r, c = r + dr, c + dc
    return out


def _canonical_of_path(
    geo: Geometry, path: tuple[int, ...], captures: frozenset[int]
) -> tuple[int, ...]:
    """The canonical (§10.3) form of one route given as landing squares."""
    if len(path) <= 2:
        return path
    lookup = geo.square_at
    out = [path[0]]
    for i in range(1, len(path) - 1):
        victim = next(s for s in _between(geo, path[i - 1], path[i]) if s in captures)
        here = _direction(geo, path[i - 1], path[i])
        nxt = _direction(geo, path[i], path[i + 1])
        if nxt != here:
            out.append(path[i])
        else:
            r, c = geo.coords[victim]
            out.append(lookup[(r + here[0], c + here[1])])
    out.append(path[-1])
    return tuple(out)


def canonical_paths(move: Move, variant: Variant = INTERNATIONAL) -> tuple[tuple[int, ...], ...]:
    """All distinct canonical forms of *move*'s routes, smallest first."""
    if not move.captures:
        return ((move.from_sq, move.to_sq),)
    geo = geometry_for(variant.board)
    return tuple(sorted({_canonical_of_path(geo, p, move.captures) for p in move.paths}))


def canonical_path(move: Move, variant: Variant = INTERNATIONAL) -> tuple[int, ...]:
    """The canonical full path of *move* (the smallest if its routes give several)."""
    return canonical_paths(move, variant)[0]


def path_text(
    move: Move,
    variant: Variant = INTERNATIONAL,
    names: Sequence[str] | None = None,
    separator: str | None = None,
) -> str:
    """The canonical full path as text, e.g. ``47x38x24x13x36`` (``32-28`` if quiet).

    *names*, indexed by square number, spells the squares another way (algebraic
    ``c3xe5``, as a record that writes them so reads best); by default their numbers.
    *separator* joins the squares of a capture instead of the variant's own (``:``
    for a message about a record that writes captures so).
    """
    sep = (separator or variant.capture_separator) if move.captures else "-"
    if names is None:
        return sep.join(str(s) for s in canonical_path(move, variant))
    return sep.join(names[s] for s in canonical_path(move, variant))


def move_text(
    move: Move,
    legal: Sequence[Move],
    variant: Variant = INTERNATIONAL,
    names: Sequence[str] | None = None,
    separator: str | None = None,
) -> str:
    """Canonical text of *move* among the *legal* moves of its position.

    The short form when no other legal move shares from and to; else the full path.
    *names* spells the squares and *separator* joins those of a capture as
    :func:`path_text` says.
    """
    sep = (separator or variant.capture_separator) if move.captures else "-"
    if move.captures:
        clash = any(
            other.from_sq == move.from_sq and other.to_sq == move.to_sq and other != move
            for other in legal
        )
        if clash:
            return path_text(move, variant, names, separator)
    if names is None:
        return f"{move.from_sq}{sep}{move.to_sq}"
    return f"{names[move.from_sq]}{sep}{names[move.to_sq]}"


def move_texts(legal: Sequence[Move], variant: Variant = INTERNATIONAL) -> list[str]:
    """Canonical text of every move of *legal*, in the same order."""
    shared = Counter((m.from_sq, m.to_sq) for m in legal)
    sep = variant.capture_separator
    out = []
    for move in legal:
        if not move.captures:
            out.append(f"{move.from_sq}-{move.to_sq}")
        elif shared[(move.from_sq, move.to_sq)] > 1:
            out.append(path_text(move, variant))
        else:
            out.append(f"{move.from_sq}{sep}{move.to_sq}")
    return out


def _visited(geo: Geometry, path: tuple[int, ...], captures: frozenset[int]) -> list[int]:
    """Squares a route passes over or lands on after the start, captured ones excluded."""
    out: list[int] = []
    for a, b in itertools.pairwise(path):
        out.extend(s for s in _between(geo, a, b) if s not in captures)
        out.append(b)
    return out


def _is_subsequence(needle: Sequence[int], hay: Sequence[int]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def _fits(geo: Geometry, move: Move, inner: tuple[int, ...], loose: bool) -> bool:
    """Whether the written intermediate squares lie, in order, on one of the routes.

    Strictly, they must be landing squares of one route; *loose* also admits squares
    the piece passes over (a king's flight written square by square).
    """
    for path in move.paths:
        # Loosely, the final square closes the route: intermediates come before its end.
        hay = _visited(geo, path, move.captures)[:-1] if loose else list(path[1:-1])
        if _is_subsequence(inner, hay):
            return True
    return False


def parse_move(
    written: str | Sequence[int],
    legal: Sequence[Move],
    variant: Variant = INTERNATIONAL,
    *,
    capture: bool | None = None,
) -> MoveMatch:
    """Match a written move against the *legal* moves of a position.

    *written* is move text (``32-28``, ``28x17x8``) or its squares already split; with
    squares, *capture* says whether the text used a capture separator (None: unknown).
    Raises ``ValueError`` only for text that is not a numeric move at all.
    """
    if isinstance(written, str):
        squares, capture = split_move_text(written)
    else:
        squares = tuple(written)
        if len(squares) < 2:
            raise ValueError("a move needs at least two squares")
    first, last = squares[0], squares[-1]
    same_ends = tuple(m for m in legal if m.from_sq == first and m.to_sq == last)
    if not same_ends:
        return MoveMatch(MatchKind.NO_MATCH, None)

    def found(kind: MatchKind, move: Move) -> MoveMatch:
        mismatch = capture is not None and capture != move.is_capture
        return MoveMatch(kind, move, (), mismatch)

    if len(squares) == 2:
        if len(same_ends) > 1:
            return MoveMatch(MatchKind.AMBIGUOUS, None, same_ends)
        move = same_ends[0]
        kind = MatchKind.ABBREVIATED if len(move.captures) >= 2 else MatchKind.EXACT
        return found(kind, move)
    exact = [m for m in same_ends if squares in canonical_paths(m, variant)]
    if len(exact) == 1:
        return found(MatchKind.EXACT, exact[0])
    geo = geometry_for(variant.board)
    inner = squares[1:-1]
    for loose in (False, True):
        fitting = tuple(m for m in same_ends if m.captures and _fits(geo, m, inner, loose))
        if len(fitting) == 1:
            return found(MatchKind.NONCANONICAL, fitting[0])
        if fitting:
            return MoveMatch(MatchKind.AMBIGUOUS, None, fitting)
    return MoveMatch(MatchKind.WRONG_PATH, None, same_ends)
