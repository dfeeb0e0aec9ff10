"""Producers' dialects: which program wrote a record, and what it meant by it.

Programs that write PDN each have habits the PDN 3.0 standard does not share: py-draughts
numbers its American board from the other side and calls it GameType 23, writes
Frysk! under Frisian's number and ``-`` for a game in progress; lidraughts gives its own
variants the numbers 96 to 98; the programs never agreed on a number for Frisian or
Czech.  A record read by the letter of the standard then means another game than its
writer meant, and replays with false errors.

:func:`recognise` names the producer of a record from what the record shows (its tags,
their order, the form of its GameType, FEN and result: the fingerprints of
docs/dialects.md).  :func:`read_dialect` reads the record as that producer meant it:
each reading that differs from the standard's is a finding (W60-W63, info; errors under
``--strict``) that says what was read and how it is taken.  ``--dialect NAME``
(:attr:`ReadOptions.dialect`) reads every record in one producer's dialect, and
``--dialect none`` reads them all by the standard alone.  The tables here (the
producers, their GameType numbers and variant names) are the shared reference of the
readers and writers of pdn-tools.

Everything here is a matter of the record, not of the rules: the reader's layer.
"""

from __future__ import annotations

import re

from pdn_tools.diagnostics import Issue, escalate
from pdn_tools.pdn.gametype import FEN_ALGEBRAIC, LAST_8X8, LAST_10X10, fen_pieces
from pdn_tools.pdn.model import Game, ReadOptions, Tag, every_node
from pdn_tools.pdn.tags import other_side, standard_name


class Producer:
    """A program whose records can be recognised: its name (``--dialect NAME``), what
    it is, and how its records are recognised.  (A plain class: the command line
    imports this module as it starts, and a dataclass costs more to make.)"""

    __slots__ = ("fingerprint", "name", "title")

    def __init__(self, name: str, title: str, fingerprint: str) -> None:
        self.name = name
        self.title = title
        self.fingerprint = fingerprint

    def __repr__(self) -> str:
        return f"Producer({self.name!r})"


PRODUCERS: dict[str, Producer] = {
    p.name: p
    for p in (
        Producer(
            "py-draughts",
            "py-draughts (Python library, PyPI py-draughts)",
            "a Variant tag with one of its variant names and its GameType number for it",
        ),
        Producer(
            "pydraughts",
            "pydraughts (Python library, PyPI pydraughts)",
            "a GameType in its long form as its table writes it, followed by the FEN "
            "tag as the last tag",
        ),
        Producer(
            "lidraughts",
            "lidraughts.org",
            "a Site on lidraughts.org, or one of its GameType numbers 96-98",
        ),
        Producer(
            "playstrategy",
            "playstrategy.org",
            "a Site on playstrategy.org",
        ),
        Producer(
            "checkerboard",
            "CheckerBoard (English and Italian checkers program)",
            "no GameType, and the Black tag before the White tag; or a record that is "
            "a FEN tag alone (a ballot)",
        ),
        Producer(
            "turbo-dambase",
            "Turbo Dambase exports",
            "an Index tag with a number",
        ),
        Producer(
            "toernooibase",
            "Toernooibase / Dambo exports (FMJD and national federations)",
            "a DamboTopLine or WhiteUrl tag",
        ),
    )
}
"""The producers recognised, in the order their fingerprints are tried."""

DIALECTS: tuple[str, ...] = (*PRODUCERS, "none")
"""The values of ``--dialect``: a producer's name, or ``none``."""

PY_DRAUGHTS_VARIANTS: dict[str, tuple[int, str]] = {
    "American checkers": (23, "english"),
    "Standard (international) checkers": (20, "international"),
    "Russian draughts": (25, "russian"),
    "Brazilian draughts": (26, "brazilian"),
    "Frisian": (40, "frisian"),
    "Frysk!": (40, "frysk"),
    "Antidraughts": (20, "antidraughts"),
    "Breakthrough": (20, "breakthrough"),
}
"""py-draughts 1.10: its Variant tag value -> the GameType it writes and the variant meant."""

PYDRAUGHTS_GAMETYPES: dict[str, str] = {
    "20,W,10,10,N2,0": "international",
    "21,B,8,8,N1,0": "english",
    "22,W,8,8,N2,1": "italian",
    "25,W,8,8,A0,0": "russian",
    "26,W,8,8,A0,0": "brazilian",
    "30,W,8,8,A0,0": "turkish",
    "40,W,10,10,N2,0": "frisian",
}
"""pydraughts 0.6: the long GameType forms it writes (Frysk! as 40 with its FEN)."""

LIDRAUGHTS_GAMETYPES: dict[int, str] = {96: "breakthrough", 97: "frysk", 98: "antidraughts"}
"""lidraughts' own GameType numbers and the variants they stand for."""

VARIANT_TITLES: dict[str, str] = {
    "frysk": "Frysk! (Frisian rules, five men each)",
    "antidraughts": "Antidraughts (international moves, the side that cannot move wins)",
    "breakthrough": "Breakthrough (international moves, the first king wins)",
}
"""Variants that exist only in producers' dialects (no rules profile: not replayed)."""

_ALGEBRAIC = re.compile(r"[a-hA-H][1-8]")
_SQUARE_LIST = re.compile(r"(K?)(\d+)(?:-(\d+))?")


def _tag(game: Game, name: str) -> Tag | None:
    """The last tag standing for *name* (aliases too)."""
    for tag in reversed(game.tags):
        if standard_name(tag.name) == name:
            return tag
    return None


def _number(tag: Tag | None) -> int | None:
    """The GameType number of *tag* (short or long form), None when it has none."""
    if tag is None:
        return None
    head = tag.value.split(",", 1)[0].strip()
    return int(head) if head.isdigit() and head.isascii() else None


def recognise(game: Game) -> str | None:
    """The producer whose fingerprint *game* shows, or None (docs/dialects.md)."""
    gametype = _tag(game, "GameType")
    number = _number(gametype)
    variant_tag = _tag(game, "Variant")
    if variant_tag is not None and gametype is not None:
        known = PY_DRAUGHTS_VARIANTS.get(variant_tag.value.strip())
        if known is not None and known[0] == number:
            return "py-draughts"
    site = (game.tag("Site") or "").lower()
    if "lidraughts.org" in site or (number in LIDRAUGHTS_GAMETYPES and gametype is not None):
        return "lidraughts"
    if "playstrategy.org" in site:
        return "playstrategy"
    names = [standard_name(t.name) for t in game.tags]
    if (
        gametype is not None
        and gametype.value.strip() in PYDRAUGHTS_GAMETYPES
        and names[-1:] == ["FEN"]
        and len(names) >= 2
        and names[-2] == "GameType"
    ):
        return "pydraughts"
    if gametype is None:
        if "Black" in names and "White" in names and names.index("Black") < names.index("White"):
            return "checkerboard"
        value = game.tags[0].value if names == ["FEN"] else ""
        if (
            value.strip()[:1] in ("W", "B")
            and not game.variations
            and not FEN_ALGEBRAIC.search(value)
        ):
            return "checkerboard"
    if "DamboTopLine" in names or "WhiteUrl" in names:
        return "toernooibase"
    index = game.tag("Index")
    if index is not None and index.strip().isdigit():
        return "turbo-dambase"
    return None


def read_dialect(game: Game, options: ReadOptions) -> None:
    """Recognise the producer of *game* (or take ``options.dialect``) and read the
    record in its dialect: ``game.producer`` is set, the readings are made on the tree
    and each one is said in a finding."""
    known = {id(issue) for issue in game.issues}
    _read(game, options)
    if options.strict:  # a dialect reading is no PDN 3.0: an error (W64 stays info)
        escalate([issue for issue in game.issues if id(issue) not in known])


def _read(game: Game, options: ReadOptions) -> None:
    forced = options.dialect
    if forced == "none":
        _silent_variant(game, options)
        return
    producer = forced if forced is not None else recognise(game)
    game.producer = producer
    if options.variant is not None and _tag(game, "GameType") is None:
        return  # --variant names the variant of records without GameType
    if producer == "py-draughts":
        _py_draughts(game, forced is not None)
    elif producer == "lidraughts":
        _lidraughts(game)
    elif producer == "playstrategy":
        _playstrategy(game)
    _unsettled_numbers(game)
    _fen_forms(game)
    _silent_variant(game, options)


_DOUBLED_TURN = re.compile(r"^\s*([WB?])\s*:\s*([WB?])\s*:(?=\s*[WB])", re.IGNORECASE)
#: Variants whose PDN squares are numbers on an 8x8 board (notation N in the table).
_NUMERIC_8X8 = frozenset({"english", "italian", "pool", "spanish", "portuguese", "thai"})


def _fen_forms(game: Game) -> None:
    """FEN forms of producers (W62): the doubled turn of older py-draughts releases,
    read as one; algebraic squares in a numeric 8x8 variant's FEN, read on the
    algebraic grid of that board."""
    fen = _tag(game, "FEN")
    if fen is None:
        return
    doubled = _DOUBLED_TURN.match(fen.value)
    if doubled is not None and doubled.group(1).upper() == doubled.group(2).upper():
        written = fen.value
        fen.value = fen.value[: doubled.start(2)] + fen.value[doubled.end() :].lstrip()
        _said(
            game,
            "W62",
            f"FEN {written!r} repeats its side to move, as older py-draughts releases "
            f"write it: read as {fen.value!r}",
            fen,
        )
    if game.variant in _NUMERIC_8X8 and FEN_ALGEBRAIC.search(fen.value):
        _said(
            game,
            "W62",
            f"FEN {fen.value!r} names algebraic squares in a {game.variant} record, whose "
            "squares PDN numbers: read on the algebraic grid of the 8x8 board",
            fen,
        )


#: Fewest men of each side for a position without kings to count as an opening
#: ballot (the start position with a few men taken off and a few moves played).
BALLOT_MEN = 9


def _silent_variant(game: Game, options: ReadOptions) -> None:
    """Decide the variant of a record without GameType and without moves from its FEN
    (W64): the reader's guess (W27) needs moves, so such records stayed unknown.

    On the numeric 8x8 board an opening ballot (no kings, at least
    :data:`BALLOT_MEN` men a side) starts a game, so its side to move is the first
    mover: Black is English draughts, White Italian.  Another position on that board
    is English when the record is CheckerBoard's (English is the game it writes
    without GameType).  A 10x10 position is international draughts.  The replay
    treats the decision as the reader's guess: a FEN that does not fit it drops the
    findings and the game counts as not replayed, never as an error, unless no
    variant reads the FEN at all (E10: the record's fault; for CheckerBoard's records,
    no variant on the 8x8 board).
    """
    if game.variant != "unknown" or options.variant is not None or game.variations:
        return
    if _tag(game, "GameType") is not None:
        return
    fen = _tag(game, "FEN")
    sides = fen_pieces(fen.value) if fen is not None else None
    if fen is None or sides is None:
        return
    turn, pieces = sides
    if not pieces:
        return
    highest = max(n for _, _, n in pieces)
    if LAST_8X8 < highest <= LAST_10X10:
        game.variant = "international"
        reason = f"a 10x10 position (squares up to {highest}): read as international draughts"
    elif highest <= LAST_8X8:
        men = {c: sum(1 for side, king, _ in pieces if side == c and not king) for c in "WB"}
        kings = any(king for _, king, _ in pieces)
        tagged = game.producer == "checkerboard" and _tag(game, "Black") is not None
        if tagged:
            game.variant = "english"
            reason = (
                "a position on the 8x8 board in a record as CheckerBoard writes them "
                "(Black before White), which is English draughts unless the record says "
                "otherwise: read as English"
            )
        elif not kings and min(men.values()) >= BALLOT_MEN and turn in ("W", "B"):
            game.variant = "english" if turn == "B" else "italian"
            first = "Black" if turn == "B" else "White"
            reason = (
                f"an opening ballot on the 8x8 board ({men['W']} men v {men['B']}, no kings) "
                f"with {first} to move, the first mover of "
                + (
                    "English draughts (Italian starts with White): read as English"
                    if turn == "B"
                    else "Italian draughts (English starts with Black): read as Italian"
                )
            )
        elif game.producer == "checkerboard":
            game.variant = "english"
            reason = (
                "a position on the 8x8 board in a record as CheckerBoard writes them, "
                "which is English draughts unless the record says otherwise: read as English"
            )
        else:
            return
    else:
        return
    _said(game, "W64", f"no GameType tag; the FEN is {reason}", fen)


def _said(game: Game, code: str, message: str, where: Tag | None) -> None:
    """Add the finding *code* at *where* (the game's first line when None), before the
    game's other findings on later lines."""
    line, column = (
        (where.line, where.column)
        if where is not None
        else (game.span.start_line, game.span.start_column)
    )
    issue = Issue(code, message, line, column)
    at = next(
        (n for n, i in enumerate(game.issues) if (i.line, i.column) > (line, column)),
        len(game.issues),
    )
    game.issues.insert(at, issue)


def _drop(game: Game, code: str, where: Tag | None) -> None:
    """Remove the reader's finding *code* at the tag *where* (a dialect reading says
    it instead)."""
    if where is None:
        return
    game.issues[:] = [
        i
        for i in game.issues
        if not (i.code == code and (i.line, i.column) == (where.line, where.column))
    ]


def _py_draughts(game: Game, forced: bool) -> None:
    """py-draughts: its variant names and numbers, its American board, its ``-``."""
    gametype = _tag(game, "GameType")
    number = _number(gametype)
    variant_tag = _tag(game, "Variant")
    named = PY_DRAUGHTS_VARIANTS.get(variant_tag.value.strip()) if variant_tag else None
    if named is None and number == 23:
        named = (23, "english")  # the number alone, when the dialect is forced
    if named is None:
        if (
            forced
            and number is not None
            and number not in {n for n, _ in PY_DRAUGHTS_VARIANTS.values()}
        ):
            _said(
                game,
                "W65",
                f"py-draughts never writes GameType {number}; the record is read as PDN says",
                gametype,
            )
        return
    meant = named[1]
    if number == 23 and meant == "english":
        game.variant = "english"
        if gametype is not None:
            gametype.value = "21"  # the record now says what it means: written as read
        _said(
            game,
            "W60",
            "py-draughts writes GameType 23 (pool in the PDN table) for American checkers: "
            "read as English draughts, GameType 21",
            gametype,
        )
        _turn_board(game)
    elif meant in VARIANT_TITLES:
        game.variant = meant
        _said(
            game,
            "W60",
            f"py-draughts writes {VARIANT_TITLES[meant]} with the GameType of its base "
            f"variant ({number}) and Variant {variant_tag.value.strip()!r}: read as "
            f"{meant}"
            if variant_tag is not None
            else f"read as {meant}",
            gametype,
        )
    result = _tag(game, "Result")
    if result is not None and result.value.strip() == "-":
        _drop(game, "W04", result)
        _said(
            game,
            "W63",
            "py-draughts writes Result '-' for a game in progress: read as '*'",
            result,
        )


def _turn_board(game: Game) -> None:
    """Read py-draughts' American board in the standard numbering: its first mover
    stands on 21-32 and moves up the board, the standard's (Black) on 1-12 moving down;
    the board turned half a turn is square n -> 33 - n, and the FEN's colours change
    places (py-draughts' White is the standard's Black, the side that moves first), and
    so do the player tags and their companions (``White`` read as ``Black``,
    ``WhiteElo`` as ``BlackElo``: :func:`~pdn_tools.pdn.tags.other_side`)."""
    for node in every_node(game):
        if node.move is not None and all(s.isdigit() for s in node.move.squares):
            node.move = node.move.with_squares(tuple(str(33 - int(s)) for s in node.move.squares))
    fen = _tag(game, "FEN")
    read_fen = ""
    if fen is not None and fen.value.strip() not in ("", "?"):
        read_fen = fen.value
        fen.value = _turned_fen(fen.value)
    exchanged: list[str] = []
    for tag in game.tags:
        other = other_side(tag.name)
        if other is not None:
            exchanged.append(tag.name)
            tag.name = other
    _said(
        game,
        "W61",
        "py-draughts numbers its American board from its first mover's side (21-32, "
        "moving first): squares read as 33 minus the number written"
        + (f", and the FEN {read_fen!r} as {fen.value!r}" if fen is not None and read_fen else "")
        + (
            f"; its White is the first mover, the standard's Black: tags "
            f"{', '.join(dict.fromkeys(exchanged))} read for the other side"
            if exchanged
            else ""
        ),
        fen if fen is not None and read_fen else _tag(game, "GameType"),
    )


def _turned_fen(value: str) -> str:
    """A numeric 8x8 FEN turned half a turn, its colours exchanged."""
    swap = {"W": "B", "B": "W", "w": "b", "b": "w"}
    fields = value.strip().rstrip(".").split(":")
    out = []
    for n, part in enumerate(fields):
        if n == 0:
            out.append(swap.get(part.strip(), part.strip()))
            continue
        text = part.strip()
        if not text or text[0] not in swap:
            out.append(text)
            continue

        def turned(match: re.Match[str]) -> str:
            king, first, last = match.group(1), int(match.group(2)), match.group(3)
            if last is None:
                return f"{king}{33 - first}"
            return f"{king}{33 - int(last)}-{33 - first}"

        out.append(swap[text[0]] + _SQUARE_LIST.sub(turned, text[1:]))
    return ":".join(out)


def _lidraughts(game: Game) -> None:
    """lidraughts: its GameType numbers 96-98."""
    gametype = _tag(game, "GameType")
    number = _number(gametype)
    meant = LIDRAUGHTS_GAMETYPES.get(number) if number is not None else None
    if meant is None:
        return
    game.variant = meant
    _said(
        game,
        "W60",
        f"lidraughts' GameType {number} is {VARIANT_TITLES[meant]}: read as {meant}",
        gametype,
    )


def _playstrategy(game: Game) -> None:
    """playstrategy.org: English draughts without GameType, in algebraic squares seen
    from the first mover's side (a1 at Black's near left)."""
    if _tag(game, "GameType") is not None:
        return
    variant_tag = _tag(game, "Variant")
    if variant_tag is None or "english" not in variant_tag.value.lower():
        return
    nodes = every_node(game)
    moves = [n for n in nodes if n.move is not None]
    if not moves or not all(_ALGEBRAIC.fullmatch(s) for n in moves for s in n.move.squares):  # type: ignore[union-attr]
        return
    for node in moves:
        assert node.move is not None
        node.move = node.move.with_squares(tuple(_english_number(s) for s in node.move.squares))
    game.variant = "english"
    game.issues[:] = [i for i in game.issues if not (i.code == "W27" and "inferred" in i.message)]
    _said(
        game,
        "W61",
        f"playstrategy writes English draughts (Variant {variant_tag.value.strip()!r}, no "
        "GameType) in algebraic squares with a1 at the first mover's (Black's) near left: "
        "read as English draughts in the standard numbering (a1 = 4, h8 = 29)",
        variant_tag,
    )


def _english_number(square: str) -> str:
    """An algebraic square seen from Black's side as the standard English number:
    Black's near row (rank 1) holds 4..1 from a to h, rank 8 holds 32..29."""
    file = ord(square[0].lower()) - ord("a")
    rank = int(square[1]) - 1
    return str(rank * 4 + (7 - file) // 2 + 1)


def _unsettled_numbers(game: Game) -> None:
    """Frisian written as 29 and Czech as 32: numbers some programs use, decided by the
    board the record is written on (10x10 squares are not Czech; 8x8 are not Frisian)."""
    gametype = _tag(game, "GameType")
    number = _number(gametype)
    if number not in (29, 32) or gametype is None:
        return
    squares = _board_squares(game)
    if number == 29 and _on_ten_by_ten(game):
        game.variant = "frisian"
        _drop(game, "W28", gametype)
        _said(
            game,
            "W60",
            "GameType 29 on a 10x10 board: the number some programs give Frisian draughts "
            "(40 in the PDN table; 29 is Czech there): read as Frisian",
            gametype,
        )
    elif number == 32 and squares is not None and squares <= 32:
        game.variant = "czech"
        _drop(game, "W28", gametype)
        _said(
            game,
            "W60",
            "GameType 32 on an 8x8 board: the number some programs give Czech draughts "
            "(29 in the PDN table): read as Czech",
            gametype,
        )


def _on_ten_by_ten(game: Game) -> bool:
    """Whether the record is written on a 10x10 board: its FEN names a square above 32,
    or at least two of its moves do.

    One move alone is not enough: a Czech record (GameType 29) with one square
    mistyped (``9-41`` for ``9-14``) would be read as Frisian and fail from its first
    move, where read as Czech it stops at the slip with a repair to offer.
    """
    fen = _tag(game, "FEN")
    if fen is not None and any(int(n) > 32 for n in re.findall(r"\d+", fen.value)):
        return True
    beyond = 0
    for node in every_node(game):
        if node.move is not None and any(s.isdigit() and int(s) > 32 for s in node.move.squares):
            beyond += 1
            if beyond == 2:
                return True
    return False


def _board_squares(game: Game) -> int | None:
    """The highest numeric square of the record's FEN and moves (32 for algebraic
    squares, which only 8x8 boards use here), or None when it names none."""
    numbers: list[int] = []
    fen = _tag(game, "FEN")
    if fen is not None:
        if FEN_ALGEBRAIC.search(fen.value):
            numbers.append(32)
        numbers.extend(int(n) for n in re.findall(r"\d+", fen.value))
    for node in every_node(game):
        if node.move is not None:
            for s in node.move.squares:
                numbers.append(int(s) if s.isdigit() else 32)
    return max(numbers, default=None)


__all__ = [
    "DIALECTS",
    "LIDRAUGHTS_GAMETYPES",
    "PRODUCERS",
    "PYDRAUGHTS_GAMETYPES",
    "PY_DRAUGHTS_VARIANTS",
    "VARIANT_TITLES",
    "Producer",
    "read_dialect",
    "recognise",
]
