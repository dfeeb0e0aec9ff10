"""FEN as PDN writes it (pdn-format.md §6): reading with tolerance, strict writing.

Reading accepts the standard grammar ``turn ":" side [":" side] {":" extra} ["."]``
with ranges (``W31-50``), kings (``K``), empty sides and any square order, and tolerates
the irregular forms found in real files -- a trailing dot, lower case, spaces or line
breaks inside, a ``?`` turn, the doubled turn ``W:W:W31...``, lidraughts extras
(``:H0:F1``, ``:+...``) and ``G``/``P`` ghost items -- reporting each as a warning
string.  Anything that does not describe a legal placement is refused with a
:class:`FenError` that says why.

Writing produces the canonical form: ``W:W...:B...``, White first, ascending squares,
``K`` for kings, ranges for runs of at least three consecutive men, no trailing dot.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pdn_tools.rules.frozen import freeze
from pdn_tools.rules.geometry import Geometry, geometry_for
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import INTERNATIONAL, Color, Variant


class FenError(ValueError):
    """A FEN that cannot be read or describes an invalid position; the message says why."""


class FenResult:
    """A read FEN: the position, whether the turn was given, and tolerated irregularities."""

    position: Position
    turn_known: bool
    """False for a ``?`` turn: the position carries the variant's first mover."""
    warnings: tuple[str, ...]
    """One human-readable string per tolerated irregularity (the caller's W26)."""

    __slots__ = ("position", "turn_known", "warnings")

    def __init__(
        self,
        position: Position,
        turn_known: bool,
        warnings: tuple[str, ...],
    ) -> None:
        self.position = position
        self.turn_known = turn_known
        self.warnings = warnings

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FenResult) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.position, self.turn_known, self.warnings) == (
            other.position,
            other.turn_known,
            other.warnings,
        )

    def __hash__(self) -> int:
        return hash((self.position, self.turn_known, self.warnings))

    def __repr__(self) -> str:
        return (
            f"FenResult(position={self.position!r}, "
            f"turn_known={self.turn_known!r}, "
            f"warnings={self.warnings!r})"
        )

    def __reduce__(self) -> tuple[type[FenResult], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (FenResult, (self.position, self.turn_known, self.warnings))


freeze(FenResult)


_ITEM = re.compile(r"(K?)(?:(\d+)(?:-(\d+))?|([A-Za-z])(\d+))\Z")
_EXTRA = re.compile(r"(?:[HF]\d+|\+.*)\Z")
_ALLOWED = re.compile(r"[WBKGPHF0-9A-Za-z,:\-?.+]*\Z")


def parse_fen(
    text: str, variant: Variant = INTERNATIONAL, *, check_piece_count: bool = True
) -> FenResult:
    """Read a FEN value; raise :class:`FenError` with the reason when it is invalid.

    *check_piece_count* refuses a side with more pieces than the variant's start
    position (pdn-format.md §6.1 makes this check optional, on by default).
    """
    warnings: list[str] = []
    geo = geometry_for(variant.board)
    raw = text
    compact = re.sub(r"\s+", "", raw)
    if compact != raw.strip():
        warnings.append("spaces or line breaks inside the FEN were removed")
    if not compact:
        raise FenError("empty FEN")
    if compact.endswith("."):
        compact = compact[:-1]
        warnings.append("trailing '.' after the FEN was ignored")
    if not _ALLOWED.match(compact):
        bad = sorted({c for c in compact if not _ALLOWED.match(c)})
        raise FenError(f"unexpected character(s) {''.join(bad)!r} in FEN")
    lower: list[str] = []
    fields = compact.split(":")
    if fields[0].islower():
        lower.append(fields[0])
    turn_text = fields[0].upper()
    if turn_text not in ("W", "B", "?"):
        raise FenError(f"the side to move must be W, B or ?, not {fields[0]!r}")
    rest = fields[1:]
    if (
        len(rest) >= 2
        and rest[0].upper() == turn_text
        and any(f[:1].upper() == turn_text for f in rest[1:])
    ):
        rest = rest[1:]
        warnings.append("doubled side-to-move field (W:W:...) was read as one")
    sides: dict[Color, list[tuple[int, bool]]] = {}
    for field_text in rest:
        if not field_text:
            raise FenError("empty field between ':' separators")
        head = field_text[0].upper()
        if field_text[0].islower():
            lower.append(field_text[0])
        if head in ("W", "B"):
            color = Color(head)
            if color in sides:
                raise FenError(f"the pieces of {color.name.lower()} are listed twice")
            sides[color] = _read_side(field_text[1:], geo, warnings, lower)
        elif _EXTRA.match(field_text.upper()):
            warnings.append(f"extra field ':{field_text}' (move counters) was ignored")
        else:
            raise FenError(f"unknown colour or field {field_text!r}: a side starts with W or B")
    if lower:
        warnings.append("lower-case letters in the FEN were read as upper case")
    if not sides:
        raise FenError("the FEN lists no side (expected e.g. W:W31-50:B1-20)")
    placed: dict[int, Color] = {}
    masks = {(c, k): 0 for c in Color for k in (False, True)}
    for color, items in sides.items():
        if check_piece_count and len(items) > variant.max_pieces:
            raise FenError(
                f"{color.name.lower()} has {len(items)} pieces, more than the "
                f"{variant.max_pieces} of the start position"
            )
        for square, is_king in items:
            if square in placed:
                raise FenError(f"square {square} is used twice")
            placed[square] = color
            bit = 1 << geo.bit_of[square]
            if not is_king:
                row = geo.white_promotion if color is Color.WHITE else geo.black_promotion
                if row & bit:
                    raise FenError(
                        f"a {color.name.lower()} man stands on its own promotion row"
                        f" (square {square})"
                    )
            masks[(color, is_king)] |= bit
    turn_known = turn_text != "?"
    turn = Color(turn_text) if turn_known else variant.first_mover
    position = Position(
        masks[(Color.WHITE, False)],
        masks[(Color.WHITE, True)],
        masks[(Color.BLACK, False)],
        masks[(Color.BLACK, True)],
        turn,
        geo,
    )
    return FenResult(position, turn_known, tuple(warnings))


def _read_side(
    body: str, geo: Geometry, warnings: list[str], lower: list[str]
) -> list[tuple[int, bool]]:
    """Squares and king flags of one side field (without its colour letter).

    Algebraic squares (``c3``) are read only on boards at most 8 wide, where PDN uses
    them; on wider boards a leading ``G`` or ``P`` marks a lidraughts ghost item instead.
    """
    algebraic = geo.spec.width <= 8
    items: list[tuple[int, bool]] = []
    if not body:
        return items
    for item in body.split(","):
        if not item:
            warnings.append("empty item (doubled or trailing ',') in the FEN was ignored")
            continue
        head = item[:1].upper()
        if not algebraic and head in ("G", "P"):
            warnings.append(f"ghost item {item!r} in the FEN was dropped")
            continue
        if item[0] == "k":
            lower.append(item[0])
            item = "K" + item[1:]
        match = _ITEM.match(item)
        if match is None:
            raise FenError(f"cannot read FEN item {item!r}")
        king = bool(match.group(1))
        if match.group(2) is not None:
            first = _numeric(match.group(2), geo)
            last = _numeric(match.group(3), geo) if match.group(3) else first
            if last < first:
                raise FenError(f"range {item!r} runs backwards")
            items.extend((square, king) for square in range(first, last + 1))
        elif algebraic:
            items.append((_algebraic(match.group(4), match.group(5), geo, item), king))
        else:
            raise FenError(f"algebraic square {item!r} is not used on this board")
    return items


def _numeric(text: str, geo: Geometry) -> int:
    square = int(text)
    if not geo.on_board(square):
        raise FenError(f"square {square} is not on the board (1-{geo.size})")
    return square


def _algebraic(file: str, rank: str, geo: Geometry, item: str) -> int:
    """Square number of an algebraic square such as ``c3`` (a1 = White's near-left)."""
    col = ord(file.lower()) - ord("a")
    row = geo.spec.height - int(rank)
    for square in range(1, geo.size + 1):
        if geo.coords[square] == (row, col):
            return square
    raise FenError(f"{item!r} is not a playing square of this board")


def write_fen(position: Position) -> str:
    """The canonical FEN of *position* (pdn-format.md §6.2)."""
    geo = position.geometry
    return (
        f"{position.turn.value}:W{_side(geo, position.white_men, position.white_kings)}"
        f":B{_side(geo, position.black_men, position.black_kings)}"
    )


@lru_cache(maxsize=8192)
def _side(geo: Geometry, men: int, kings: int) -> str:
    """One side's FEN items, cached: a move changes one side's pieces (two with a
    capture), so consecutive positions of a game share most side texts."""
    return ",".join(_items(geo.squares(men), geo.squares(kings)))


def _items(men: list[int], kings: list[int]) -> list[str]:
    """FEN items in ascending square order; runs of >= 3 consecutive men become ranges."""
    king_set = set(kings)
    squares = sorted([*men, *kings])
    out: list[str] = []
    i = 0
    while i < len(squares):
        square = squares[i]
        if square in king_set:
            out.append(f"K{square}")
            i += 1
            continue
        j = i
        while (
            j + 1 < len(squares)
            and squares[j + 1] == squares[j] + 1
            and squares[j + 1] not in king_set
        ):
            j += 1
        if j - i >= 2:
            out.append(f"{square}-{squares[j]}")
        else:
            out.extend(str(s) for s in squares[i : j + 1])
        i = j + 1
    return out
