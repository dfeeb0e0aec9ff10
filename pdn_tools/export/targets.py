"""Writing for a target program (``pdn convert --for NAME``): what each program reads.

Canonical PDN (:mod:`pdn_tools.export.canonical`) is the standard's spelling; the
programs people use read dialects of it.  A :class:`Target` says, for one program, the
variants it plays and for each the GameType it reads, the square notation of its moves
and FEN (numbers, algebraic squares, or py-draughts' turned English board), the result
tokens, whether captures are written with their whole path, the tags it expects, and
what it cannot hold (comments, variations, NAGs).  The canonical writer consults it
for every move, the FEN tag and the terminator; the tables are documented in
``docs/export.md`` (*Writing for a target program*), with what each target loses.

A game of a variant the target does not play is written as canonical PDN (its own
GameType), which that program will not read as meant; the conversion counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pdn_tools.pdn.gametype import BY_NAME, SUPPORTED, naming_value
from pdn_tools.pdn.model import Game, Tag
from pdn_tools.pdn.tags import other_side, standard_name
from pdn_tools.rules import Color, FenError, Move, Position, Variant, parse_fen
from pdn_tools.rules.geometry import Geometry, geometry_for


@dataclass(frozen=True, slots=True)
class Form:
    """How a target writes the games of one variant."""

    gametype: str | None
    """The GameType value written (None: no GameType tag, the program's default)."""
    squares: str = "numeric"
    """``numeric`` (PDN numbers), ``algebraic`` (``c3``, 8x8 boards) or ``turned``
    (numbers seen from the other side, square n written 33 - n, and the colours
    exchanged: the side that moves first is White — py-draughts' English board)."""
    variant_tag: str | None = None
    """A ``Variant`` tag written with the GameType (py-draughts writes and names one)."""


@dataclass(frozen=True, slots=True)
class Target:
    """One program's dialect (see the module's docstring)."""

    name: str
    program: str
    forms: dict[str, Form]
    """The variants (rule profile names) the program plays, and how it writes each."""
    results: str = "gametype"
    """``gametype`` (the GameType's style: 2-0 / 1-0), or ``international`` (2-0,
    1-1, 0-2 whatever the variant: lidraughts)."""
    full_captures: bool = False
    """Every capture of more than one piece written with its whole path
    (``24x15x6``); otherwise from and to, the path only when another capture shares
    them (the standard's form)."""
    comments: bool = True
    variations: bool = True
    nags: bool = True
    roster: bool = False
    """The seven-tag roster always written (``?`` for what the record does not say)."""
    setup_tag: bool = False
    """``[SetUp "1"]`` written before a FEN tag."""
    fen_ranges: bool = False
    """FEN items may be ranges (``31-50``); otherwise every square is listed."""
    separator: str | None = "x"
    """The capture separator (None: the variant's own, ``x`` or ``:``)."""
    paired: bool = False
    """Move numbers before every other ply from the first, 1, 2, 3 ..., whoever moves
    first (``1. a b 2. c d``): pydraughts reads the moves in pairs after each number
    and knows no ``N...``."""
    result_prefix_padded: bool = False
    """A move that begins with the game's result (``1-18`` in a game whose Result is
    ``1-1``) written with its first square zero-padded (``01-18``): py-draughts ends
    the moves where the Result tag's text begins."""
    notes: tuple[str, ...] = field(default=())
    """What the target loses, in words (docs/export.md repeats them)."""

    def form(self, variant: str) -> Form | None:
        """How this target writes games of *variant* (None: it does not play it)."""
        return self.forms.get(variant)


def _notation(full: str) -> str:
    """The square notation a full GameType value names (its fifth field: ``A0``
    algebraic, ``N1``/``N2`` numeric)."""
    return "algebraic" if full.split(",")[4].startswith("A") else "numeric"


_TEN = {"international": Form("20"), "frisian": Form("40")}

TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(
            "lidraughts",
            "lidraughts.org (game import, studies)",
            {**_TEN, "russian": Form("25", "algebraic"), "brazilian": Form("26", "algebraic")},
            results="international",
            notes=("results in the 2-0 / 1-1 / 0-2 form in every variant",),
        ),
        Target(
            "pydraughts",
            "pydraughts (PDNReader)",
            {
                "international": Form("20"),
                "english": Form("21"),
                "italian": Form("22"),
                "russian": Form("25", "algebraic"),
                "brazilian": Form("26", "algebraic"),
                "turkish": Form("30", "algebraic"),
                "frisian": Form("40"),
            },
            comments=False,
            variations=False,
            paired=True,
            notes=(
                "comments and variations dropped: the reader discards them, and a result "
                "token or a full stop inside one ends or splits its game",
                "moves numbered in pairs from the first ply (1. a b 2. c d), as the reader "
                "takes them; the move numbers of the record are not kept",
                "a game from a FEN with Black to move is misread by PDNReader (it reads "
                "the first move twice); written in the standard form all the same",
            ),
        ),
        Target(
            "py-draughts",
            "py-draughts (Board.from_pdn)",
            {
                "international": Form("20", variant_tag="Standard (international) checkers"),
                "english": Form("23", "turned", "American checkers"),
                "russian": Form("25", "algebraic", "Russian draughts"),
                "brazilian": Form("26", "algebraic", "Brazilian draughts"),
                "frisian": Form("40", variant_tag="Frisian"),
            },
            variations=False,
            result_prefix_padded=True,
            notes=(
                "English games on py-draughts' board: GameType 23, squares turned "
                "(n written 33 - n) and colours exchanged, so that White moves first",
                "variations dropped (the reader skips them); set-ups inside the moves "
                "are refused by the reader",
            ),
        ),
        Target(
            "checkerboard",
            "CheckerBoard (8x8 English and Italian)",
            {"english": Form("21"), "italian": Form("22")},
            full_captures=True,
            variations=False,
            nags=False,
            notes=("variations and NAGs dropped; multiple captures with their whole path",),
        ),
        Target(
            "fmjd",
            "FMJD / PDN 3.0 tournament archives (10x10)",
            {
                "international": Form("20,W,10,10,N2,0"),
                "frisian": Form("40,W,10,10,N2,0"),
            },
            roster=True,
            setup_tag=True,
            notes=("the seven-tag roster always written, GameType in its full form",),
        ),
        Target(
            "pdn3",
            "the PDN 3.0 standard",
            {
                entry.name: Form(naming_value(entry), _notation(entry.full))
                for entry in BY_NAME.values()
                if entry.name in SUPPORTED
            },
            roster=True,
            setup_tag=True,
            fen_ranges=True,
            separator=None,
            notes=(
                "non-standard strength marks; squares in the notation of the GameType "
                "table (algebraic for Russian, Brazilian, Czech and Turkish)",
            ),
        ),
    )
}
"""The targets by name (``--for``)."""


def square_name(geo: Geometry, square: int, form: Form) -> str:
    """*square* as *form* writes it."""
    if form.squares == "algebraic":
        row, col = geo.coords[square]
        return f"{chr(ord('a') + col)}{geo.spec.height - row}"
    if form.squares == "turned":
        return str(geo.size + 1 - square)
    return str(square)


def turned_squares(squares: tuple[str, ...], size: int) -> tuple[str, ...] | None:
    """*squares* of a move written as read, turned as a turned form writes them
    (n written *size* + 1 - n), or None when one of them is no board square in
    numbers (algebraic, 0, beyond *size*), which the turned numbering cannot hold."""
    turned: list[str] = []
    for square in squares:
        if not (square.isascii() and square.isdigit() and 1 <= int(square) <= size):
            return None
        turned.append(str(size + 1 - int(square)))
    return tuple(turned)


def move_text(
    canonical: str, move: Move, variant: Variant, target: Target, form: Form, path: tuple[int, ...]
) -> str:
    """The move *move* (canonical text *canonical*, canonical full path *path*) as the
    target writes it."""
    geo = geometry_for(variant.board)
    if move.captures:
        separator = target.separator or variant.capture_separator
        if target.full_captures and len(move.captures) > 1:
            squares: list[int] = list(path)
        else:
            squares = [int(s) for s in canonical.split(variant.capture_separator)]
    else:
        separator = "-"
        squares = [move.from_sq, move.to_sq]
    return separator.join(square_name(geo, s, form) for s in squares)


def fen_text(position: Position, target: Target, form: Form) -> str:
    """The FEN of *position* as the target reads it: every square listed (ranges
    where the target allows them), in its square notation, colours exchanged on a
    turned board."""
    geo = position.geometry
    white = _items(geo, position.white_men, position.white_kings, form)
    black = _items(geo, position.black_men, position.black_kings, form)
    turn = position.turn
    if form.squares == "turned":
        white, black = black, white
        turn = Color.WHITE if turn is Color.BLACK else Color.BLACK
    if target.fen_ranges and form.squares == "numeric":
        from pdn_tools.rules import write_fen

        return write_fen(position)
    return f"{turn.value}:W{','.join(white)}:B{','.join(black)}"


def _items(geo: Geometry, men: int, kings: int, form: Form) -> list[str]:
    pieces = [(s, False) for s in geo.squares(men)] + [(s, True) for s in geo.squares(kings)]
    if form.squares == "turned":
        pieces = [(geo.size + 1 - s, king) for s, king in pieces]
        pieces.sort()
        return [("K" if king else "") + str(s) for s, king in pieces]
    pieces.sort()
    return [("K" if king else "") + square_name(geo, s, form) for s, king in pieces]


def target_fen(value: str, variant: Variant, target: Target, form: Form) -> str:
    """A FEN tag's *value* as the target reads it (as written when it does not parse)."""
    try:
        position = parse_fen(value, variant).position
    except FenError:
        return value
    return fen_text(position, target, form)


_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_UNKNOWN = {"Date": "????.??.??"}


def target_tags(
    game: Game, target: Target, form: Form | None, variant: Variant | None
) -> list[Tag]:
    """The tags of *game* as the target wants them: GameType (and py-draughts'
    Variant) set for the variant, the FEN in the target's form (with SetUp where the
    target writes it), on a turned board the White and Black tags and their
    companions exchanged with the colours (:func:`other_side`), the roster completed
    where the target requires it.  The Result is the game's: ``1-0`` says the first
    mover won both in the standard's English (Black) and on the turned board (White)."""
    tags: list[Tag] = []
    for tag in game.tags:
        name = standard_name(tag.name)
        if form is not None and name in ("GameType", "Variant", "SetUp"):
            continue  # written below
        value = tag.value
        if form is not None and name == "FEN" and variant is not None:
            value = target_fen(value, variant, target, form)
        if form is not None and form.squares == "turned":
            # The colours are exchanged: each player tag and its companions too, so
            # that White still names the player of the side that moves first.
            name = other_side(name) or name
        tags.append(Tag(name, value, tag.line, tag.column))  # the standard name
    if target.roster:
        present = {standard_name(t.name) for t in tags}
        tags.extend(Tag(n, _UNKNOWN.get(n, "?")) for n in _ROSTER if n not in present)
    if form is not None:
        if form.gametype is not None:
            tags.append(Tag("GameType", form.gametype))
        if form.variant_tag is not None:
            tags.append(Tag("Variant", form.variant_tag))
        if target.setup_tag and any(standard_name(t.name) == "FEN" for t in tags):
            tags.append(Tag("SetUp", "1"))
    return tags
