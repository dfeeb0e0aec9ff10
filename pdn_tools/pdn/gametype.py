"""The GameType tag: which variant a record claims, and a guess when it claims none.

rules.md §2 gives the table.  Reading it is a matter of the record, not of the
rules, so it lives on the reader's side: the replay engine receives a variant name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final, Literal

from pdn_tools.diagnostics import freeze


class GameTypeEntry:
    """One row of the GameType table."""

    number: int
    name: str
    full: str
    result_style: str

    __slots__ = ("full", "name", "number", "result_style")

    def __init__(
        self,
        number: int,
        name: str,
        full: str,
        result_style: str,
    ) -> None:
        self.number = number
        self.name = name
        self.full = full
        self.result_style = result_style

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameTypeEntry) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.number, self.name, self.full, self.result_style) == (
            other.number,
            other.name,
            other.full,
            other.result_style,
        )

    def __hash__(self) -> int:
        return hash((self.number, self.name, self.full, self.result_style))

    def __repr__(self) -> str:
        return (
            f"GameTypeEntry(number={self.number!r}, "
            f"name={self.name!r}, "
            f"full={self.full!r}, "
            f"result_style={self.result_style!r})"
        )

    def __reduce__(self) -> tuple[type[GameTypeEntry], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (GameTypeEntry, (self.number, self.name, self.full, self.result_style))


freeze(GameTypeEntry)


_TABLE = (
    GameTypeEntry(20, "international", "20,W,10,10,N2,0", "international"),
    GameTypeEntry(21, "english", "21,B,8,8,N1,0", "default"),
    GameTypeEntry(22, "italian", "22,W,8,8,N2,1", "default"),
    GameTypeEntry(23, "pool", "23,B,8,8,N1,0", "default"),
    GameTypeEntry(24, "spanish", "24,W,8,8,N1,1", "default"),
    GameTypeEntry(25, "russian", "25,W,8,8,A0,0", "default"),
    GameTypeEntry(26, "brazilian", "26,W,8,8,A0,0", "default"),
    GameTypeEntry(27, "canadian", "27,W,12,12,N2,0", "international"),
    GameTypeEntry(28, "portuguese", "28,W,8,8,N1,1", "default"),
    GameTypeEntry(29, "czech", "29,W,8,8,A0,0", "default"),
    GameTypeEntry(30, "turkish", "30,W,8,8,A0,0", "default"),
    GameTypeEntry(31, "thai", "31,B,8,8,N2,0", "default"),
    GameTypeEntry(40, "frisian", "40,W,10,10,N2,0", "default"),
    GameTypeEntry(41, "spantsiretti", "41,W,10,8,A0,0", "default"),
)
_OTHER_FORMS = (
    GameTypeEntry(23, "unified-pool", "23,W,8,8,A0,0", "default"),
    GameTypeEntry(23, "jamaican", "23,B,8,8,A1,1", "default"),
)
"""Rows of the table whose number is another row's: only their long form names them
(rules.md §2).  ``23,W,8,8,A0,0`` is pool checkers under the unified rules, White
first (Zimbabwean pool, played on the light squares, is given the same value; the tag
cannot tell it apart); ``23,B,8,8,A1,1`` is Jamaican draughts, numbered along the
columns, which the engine has no rules for."""

BY_NUMBER: dict[int, GameTypeEntry] = {e.number: e for e in _TABLE}
"""The row each number names on its own (the short form)."""
BY_NAME: dict[str, GameTypeEntry] = {e.name: e for e in (*_TABLE, *_OTHER_FORMS)}
BY_FULL: dict[str, GameTypeEntry] = {e.full: e for e in (*_TABLE, *_OTHER_FORMS)}
"""Every row by its long form: the form that names a row whatever its number says."""

TITLES: dict[str, str] = {
    "unified-pool": "pool checkers under the unified rules (White first)",
    "jamaican": "Jamaican draughts",
}
"""What the rows that only their long form names are called in messages."""


def naming_value(entry: GameTypeEntry) -> str:
    """The shortest GameType value that names *entry*: its number where the number
    alone names it, else its long form (``23`` would be read as American pool)."""
    return str(entry.number) if BY_NUMBER.get(entry.number) is entry else entry.full


PROFILE_BASES: dict[str, str] = {
    "immediate-removal": "international",
    "short-landing": "international",
    "itsyourturn": "international",
    "itsyourturn-italian": "italian",
    "itsyourturn-polish": "international",
    "itsyourturn-russian": "russian",
}
"""Site rule profiles and the variant whose records they replay: they have no GameType
of their own (their records carry the base variant's), and are selected by name only
(rules.md §2, §4.10, §4.11; ItsYourTurn's whole-board repetition, IP-04)."""

PROFILES = frozenset(PROFILE_BASES)
"""The names of the site rule profiles."""


def square_notation(variant: str) -> Literal["numeric", "algebraic"]:
    """The square notation the GameType of *variant* names (the notation attribute of
    its row of the table: ``A`` algebraic, ``c3``; ``N`` numbers), in which canonical
    PDN writes the squares of the variant's moves and FENs, so that a record is in one
    notation.  A site profile writes its base variant's; a variant without a row
    (``unknown``, a GameType number the table lacks) numbers.

    Any writer or comment that names squares "as the record's moves are written" asks
    this, so that every output of a game speaks one notation."""
    entry = BY_NAME.get(PROFILE_BASES.get(variant, variant))
    if entry is not None and entry.full.split(",")[4].startswith("A"):
        return "algebraic"
    return "numeric"


#: Variants the rules engine has (or will have) a profile for.
SUPPORTED = frozenset(
    {
        "international",
        "english",
        "italian",
        "pool",
        "unified-pool",
        "russian",
        "brazilian",
        "czech",
        "turkish",
        "frisian",
    }
)

_FULL = re.compile(
    r"^\s*(\d+)\s*(?:,\s*([WB])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANS][0-3])"
    r"\s*(?:,\s*([01]))?)?\s*$"
)


class GameTypeReading:
    """What a GameType value says: the variant name and what was odd about it."""

    number: int | None
    variant: str
    irregular: str | None

    __slots__ = ("irregular", "number", "variant")

    def __init__(
        self,
        number: int | None,
        variant: str,
        irregular: str | None = None,
    ) -> None:
        self.number = number
        self.variant = variant
        self.irregular = irregular

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameTypeReading) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.number, self.variant, self.irregular) == (
            other.number,
            other.variant,
            other.irregular,
        )

    def __hash__(self) -> int:
        return hash((self.number, self.variant, self.irregular))

    def __repr__(self) -> str:
        return (
            f"GameTypeReading(number={self.number!r}, "
            f"variant={self.variant!r}, "
            f"irregular={self.irregular!r})"
        )

    def __reduce__(self) -> tuple[type[GameTypeReading], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (GameTypeReading, (self.number, self.variant, self.irregular))


freeze(GameTypeReading)


def read_gametype(value: str) -> GameTypeReading:
    """Interpret a GameType tag value (short or full form).

    The short form names the number's own row (:data:`BY_NUMBER`).  A long form that
    is a row of the table names that row, also one that shares its number with
    another (:data:`BY_FULL`: ``23,W,8,8,A0,0`` is pool with White first, not American
    pool): its first mover and notation are what the record is written in.  A long
    form that is no row of the table is irregular, and then the number decides.  An
    omitted last attribute (the invert flag) counts as ``0``.
    """
    match = _FULL.match(value)
    if match is None:
        return GameTypeReading(None, "unknown", f"GameType {value!r} is not a number or full form")
    number = int(match.group(1))
    entry = BY_NUMBER.get(number)
    irregular = None
    if match.group(2) is not None and entry is not None:
        written = ",".join([str(number), *(g for g in match.groups()[1:] if g is not None)])
        row = BY_FULL.get(written) or BY_FULL.get(written + ",0")
        if row is not None:
            entry = row
        else:
            forms = "; ".join(e.full for e in BY_FULL.values() if e.number == number)
            irregular = f"GameType {value!r} differs from the table ({forms}); the number decides"
    name = entry.name if entry else f"gametype-{number}"
    if " " in value.strip():
        irregular = irregular or f"GameType {value!r} contains spaces"
    return GameTypeReading(number, name, irregular)


#: An algebraic square in a FEN's side field (after the colour letter and commas).
FEN_ALGEBRAIC = re.compile(r"[,:]\s*[WB]?\s*K?[a-h][1-8]")
_FEN_SQUARES = re.compile(r"(K?)(\d+)(?:-(\d+))?")

#: The highest square of the numeric 8x8 board: any numeric square above it is on a
#: larger board (10x10 up to 50).
LAST_8X8: Final = 32
#: The highest square of the 10x10 board.
LAST_10X10: Final = 50


def fen_pieces(value: str) -> tuple[str, list[tuple[str, bool, int]]] | None:
    """The side to move and the pieces (colour, king, square) of a numeric FEN; None
    when it is not one (algebraic squares, no side fields).

    A lenient reading, for deciding a variant: items that are no square or range are
    passed over (the replay's FEN reading says what is wrong with them).
    """
    fields = [f.strip() for f in value.strip().rstrip(".").split(":")]
    if len(fields) < 2 or FEN_ALGEBRAIC.search(value):
        return None
    turn = fields[0].upper()
    pieces: list[tuple[str, bool, int]] = []
    for part in fields[1:]:
        if not part or part[0].upper() not in "WB":
            continue
        colour = part[0].upper()
        for item in part[1:].split(","):
            # spaces inside an item do not count (a canonical writer drops them)
            match = _FEN_SQUARES.fullmatch("".join(item.split()))
            if match is None:
                continue
            king, first, last = match.group(1) == "K", int(match.group(2)), match.group(3)
            end = int(last) if last is not None else first
            pieces.extend((colour, king, n) for n in range(first, min(end, 100) + 1))
    return turn, pieces


def board_evidence(fen: str | None, squares: Iterable[str]) -> str | None:
    """Why a record without GameType is on the 10x10 board, or None when nothing
    says so: a square of its FEN above 32 (and up to 50), or a numeric move square
    above 32 among *squares* (pdn-format.md §7).

    The board outranks the first-mover guess of :func:`infer_variant`: a problem's
    first move can look like an Italian or English one while its position holds
    pieces no 8x8 board has.
    """
    if fen is not None:
        sides = fen_pieces(fen)
        if sides is not None and sides[1]:
            highest = max(n for _, _, n in sides[1])
            if LAST_8X8 < highest <= LAST_10X10:
                return f"its FEN holds square {highest}, beyond the 8x8 board"
    for square in squares:
        if square.isdigit() and int(square) > LAST_8X8:
            return f"a move names square {int(square)}, beyond the 8x8 board"
    return None


def infer_variant(squares: Iterable[str]) -> str | None:
    """Guess the variant from the squares of the first moves (pdn-format.md §7).

    Numeric squares above 32, or a first move from 31-35 to 26-30, mean 10x10
    (international); algebraic squares mean the algebraic 8x8 family (Russian by
    default).  On a numeric 8x8 board the first
    move tells English (Black starts from 9-12 towards higher numbers) from Italian
    (White starts from 21-24 towards lower numbers).
    """
    numbers: list[int] = []
    for sq in squares:
        if sq[:1].isalpha():
            return "russian"
        numbers.append(int(sq))
    if not numbers:
        return None
    if max(numbers) > 32:
        return "international"
    if len(numbers) < 2:
        return None
    start, end = numbers[0], numbers[1]
    if 31 <= start <= 35 and 26 <= end <= 30:
        return "international"  # a first move out of 31-35 is impossible on 8x8
    if 9 <= start <= 12 and end > start:
        return "english"
    if 21 <= start <= 24 and end < start:
        return "italian"
    return None
