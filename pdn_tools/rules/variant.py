"""Rules descriptions: one frozen dataclass per variant, read by one engine.

A variant is *data*.  The move generator, FEN reader and notation code never test a
variant's name; they read the fields below (board size and numbering, which way men
capture, how far kings reach, how a capture is chosen, when captured pieces leave the
board, what happens to a man that reaches the far row during a capture).  International
draughts (rules.md §4.1) is the instance :data:`INTERNATIONAL`; further variants are
further instances, not copies of the engine.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, replace
from typing import Any

from mypy_extensions import mypyc_attr

from pdn_tools.rules.rayrules import (
    DIAGONALS,
    DIAGONALS_FORWARD,
    FORWARD_AND_SIDEWAYS,
    ORTHOGONALS,
    ORTHOGONALS_DARK,
    RayRules,
)


@mypyc_attr(native_class=False)  # two built-in bases: a Python class in both builds
class UnknownVariantError(KeyError, ValueError):
    """A variant name, alias or GameType number that the engine does not know.

    Both a ``KeyError`` (what an unknown name has always raised, so that ``except
    KeyError`` goes on working) and a ``ValueError`` (as :class:`FenError` and
    ``IllegalMoveError`` are: a value the caller gave is wrong).  Its ``str()`` is the
    plain message, which names every known variant (a ``KeyError`` would quote it).
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Color(enum.Enum):
    """A side.  White sits at the bottom of every diagram and moves up the board."""

    WHITE = "W"
    BLACK = "B"

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE


class KingRange(enum.Enum):
    """How far a king moves and captures along a diagonal."""

    FLYING = "flying"
    """Any distance over empty squares (International, Russian, Brazilian, ...)."""
    SHORT = "short"
    """One square; captures an adjacent piece, landing directly behind (English)."""


class CaptureChoice(enum.Enum):
    """Which of the available capture sequences the player may choose."""

    MAJORITY = "majority"
    """Only sequences taking the most pieces (kings and men count one each)."""
    FREE = "free"
    """Any complete sequence (Russian, English, pool)."""


class Removal(enum.Enum):
    """When jumped pieces leave the board."""

    AFTER_MOVE = "after-move"
    """Turkish-strike rule: they stay (and block) until the move ends."""
    IMMEDIATE = "immediate"
    """Each jumped piece disappears at once; its square may be crossed again."""


class CapturePromotion(enum.Enum):
    """What happens to a man that lands on its far row in the middle of a capture."""

    STAYS_MAN = "stays-man"
    """It continues as a man; it is crowned only if the move ends there (FMJD)."""
    CROWN_AND_CONTINUE = "crown-and-continue"
    """It is crowned at once and continues capturing as a king (Russian)."""
    CROWN_AND_STOP = "crown-and-stop"
    """It is crowned and the move ends there (English, house rules)."""


class KingLanding(enum.Enum):
    """Where a flying king may land behind a captured piece."""

    FREE = "free"
    """Any empty square behind it, restricted to squares that continue the capture
    when the sequence can continue (FMJD art. 4.3)."""
    DIRECTLY_BEHIND = "directly-behind"
    """Only the square directly behind the captured piece (house-rules profile)."""


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """Size and numbering of a diagonal board.

    ``width`` and ``height`` count all squares; only the dark ones are playing squares.
    ``dark_near_left`` says whether White's near-left corner is a playing square (True on
    the international and standard 8x8 boards, False on the turned Italian board).
    Numbering always runs row by row from White's top-left, left to right
    (rules.md §1.1); both dimensions must be even.  ``all_squares`` makes every square
    a playing square (Turkish, rules.md §1.5): 1 is a8, 8 is h8, 64 is h1.
    """

    width: int = 10
    height: int = 10
    dark_near_left: bool = True
    all_squares: bool = False

    def __post_init__(self) -> None:
        if self.width % 2 or self.height % 2 or self.width < 4 or self.height < 4:
            raise ValueError(f"unsupported board {self.width}x{self.height}")

    def __reduce__(self) -> tuple[type[BoardSpec], tuple[int, int, bool, bool]]:
        # Pickled by value and rebuilt through __init__: a compiled frozen class cannot
        # be restored field by field (positions and report boards cross processes).
        return (BoardSpec, (self.width, self.height, self.dark_near_left, self.all_squares))

    @property
    def squares(self) -> int:
        """Number of playing squares (and of the highest square number)."""
        if self.all_squares:
            return self.width * self.height
        return self.width * self.height // 2


@dataclass(frozen=True, slots=True)
class DrawRules:
    """Draw-rule parameters in plies (rules.md §5-§6); used by the replay, not movegen."""

    repetitions: int | None = 3
    """Occurrence that makes a repetition draw (third); None: no repetition rule."""
    king_moves_plies: int | None = 50
    """Plies of only non-capturing king moves (the FMJD 25-move rule)."""
    three_v_one_plies: int | None = 32
    """Plies allowed in the 16-move class (three pieces with a king v a lone king);
    None here and below: the variant has no such rule."""
    two_v_one_plies: int | None = 10
    """Plies allowed in the 5-move class (at most two pieces with a king v a lone king)."""
    repetition_includes_side_to_move: bool = True
    """IP-04: positions compare placement and side to move (FMJD)."""
    king_moves_rule: str = "25-move"
    """Name under which the :attr:`king_moves_plies` rule is reported: ``25-move``
    (FMJD), ``15-move`` (Russian art. 7.2.5, Czech), ``40-move`` (English)."""
    three_kings_v_one_plies: int | None = None
    """Plies allowed once three or more kings (and no men) face a lone king (Russian
    7.2.4: 30; pool: 26; house rules: 32); None: no such rule."""
    two_kings_v_one_plies: int | None = None
    """Plies allowed once exactly two kings face a lone king (house rules: 0, drawn at
    once); None: no such rule."""
    balance_plies: tuple[tuple[int, int, int], ...] = ()
    """(fewest pieces, most pieces, plies): both sides have kings and the material
    does not change (no capture, no promotion) for so many plies with that many
    pieces on the board (Russian 7.2.6)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # By value, through __init__ (see BoardSpec.__reduce__).
        return (DrawRules, tuple(getattr(self, f.name) for f in fields(self)))


@dataclass(frozen=True, slots=True)
class Variant:
    """A complete rules description read by the generic engine.

    Every field is something the engine consults; nothing in the engine tests ``name``.
    """

    name: str
    gametype: int | None
    board: BoardSpec = field(default_factory=BoardSpec)
    first_mover: Color = Color.WHITE
    men_rows: int = 4
    """Rows of men per side in the start position (4 on 10x10, 3 on 8x8)."""
    men_capture_backward: bool = True
    men_capture_kings: bool = True
    """False when a man may not jump a king (Italian, rules.md §4.5)."""
    king_range: KingRange = KingRange.FLYING
    king_landing: KingLanding = KingLanding.FREE
    capture_choice: CaptureChoice = CaptureChoice.MAJORITY
    king_capture_priority: bool = False
    """When a king can capture, only captures by a king are legal (Czech, rules.md
    §4.8); applied after :attr:`capture_choice`."""
    capture_precedence: bool = False
    """Italian quality rules (rules.md §4.5), applied after the majority rule: prefer a
    capture by a king, then the sequence taking most kings, then the one that meets a
    king first."""
    removal: Removal = Removal.AFTER_MOVE
    capture_promotion: CapturePromotion = CapturePromotion.STAYS_MAN
    capture_separator: str = "x"
    draw_rules: DrawRules = field(default_factory=DrawRules)
    aliases: tuple[str, ...] = ()
    rays: RayRules | None = None
    """Direction sets for variants with orthogonal moves or captures (Frisian,
    Turkish); such a variant is served by the ray-walking generator of :mod:`.raygen`.
    None: the diagonal engine."""

    def __reduce__(self) -> tuple[Any, ...]:
        # A registered variant unpickles as the registered object itself: the engine
        # finds its generator and tables by identity.  Others are rebuilt by value.
        values = tuple(getattr(self, f.name) for f in fields(self))
        return (_unpickled_variant, (self.name, values))

    @property
    def max_pieces(self) -> int:
        """Pieces per side in the start position: the most a legal position may hold."""
        return self.men_rows * self.board.squares // self.board.height


INTERNATIONAL = Variant(
    name="international",
    gametype=20,
    aliases=("fmjd", "standard", "20"),
)
"""International draughts under the FMJD rules (rules.md §4.1)."""

_BOARD_8X8 = BoardSpec(8, 8)
_BOARD_ITALIAN = BoardSpec(8, 8, dark_near_left=False)

ENGLISH = Variant(
    name="english",
    gametype=21,
    board=_BOARD_8X8,
    first_mover=Color.BLACK,
    men_rows=3,
    men_capture_backward=False,
    king_range=KingRange.SHORT,
    capture_choice=CaptureChoice.FREE,
    capture_promotion=CapturePromotion.CROWN_AND_STOP,
    draw_rules=DrawRules(
        three_v_one_plies=None,
        two_v_one_plies=None,
        king_moves_plies=80,
        king_moves_rule="40-move",
    ),
    aliases=("american", "checkers", "21"),
)
"""English draughts / American checkers under ACF rules (rules.md §4.4, §6.2)."""

ITALIAN = Variant(
    name="italian",
    gametype=22,
    board=_BOARD_ITALIAN,
    men_rows=3,
    men_capture_backward=False,
    men_capture_kings=False,
    king_range=KingRange.SHORT,
    capture_precedence=True,
    capture_promotion=CapturePromotion.CROWN_AND_STOP,
    draw_rules=DrawRules(king_moves_plies=None, three_v_one_plies=None, two_v_one_plies=None),
    aliases=("22",),
)
"""Italian draughts under FID rules on the turned board (rules.md §1.4, §4.5, §6.3)."""

POOL = Variant(
    name="pool",
    gametype=23,
    board=_BOARD_8X8,
    first_mover=Color.BLACK,
    men_rows=3,
    capture_choice=CaptureChoice.FREE,
    draw_rules=DrawRules(
        king_moves_plies=None,
        three_v_one_plies=None,
        two_v_one_plies=None,
        three_kings_v_one_plies=26,
    ),
    aliases=("american-pool", "23"),
)
"""American pool checkers under APCA rules (rules.md §4.9, §6.7)."""

UNIFIED_POOL = replace(
    POOL,
    name="unified-pool",
    gametype=None,
    first_mover=Color.WHITE,
    aliases=(),
)
"""Pool checkers as the GameType table's unified row ``23,W,8,8,A0,0`` names them: the
pool rules with White moving first (rules.md §2, §4.9).  Its number alone is American
pool, so it has no GameType of its own: the reader selects it by that long form only,
and no guess of a record's variant ever tries it."""

_FMJD64_DRAWS = DrawRules(
    king_moves_plies=30,
    king_moves_rule="15-move",
    three_v_one_plies=None,
    two_v_one_plies=10,
    three_kings_v_one_plies=30,
    balance_plies=((4, 5, 60), (6, 7, 120)),
)
"""FMJD-64 draw rules as lidraughts applies them (rules.md §6.1)."""

RUSSIAN = Variant(
    name="russian",
    gametype=25,
    board=_BOARD_8X8,
    men_rows=3,
    capture_choice=CaptureChoice.FREE,
    capture_promotion=CapturePromotion.CROWN_AND_CONTINUE,
    capture_separator=":",
    draw_rules=_FMJD64_DRAWS,
    aliases=("shashki", "25"),
)
"""Russian draughts (rules.md §4.3, §6.1)."""

BRAZILIAN = Variant(
    name="brazilian",
    gametype=26,
    board=_BOARD_8X8,
    men_rows=3,
    draw_rules=_FMJD64_DRAWS,
    aliases=("26",),
)
"""Brazilian draughts: the international rules on 8x8 (rules.md §4.2)."""

CZECH = Variant(
    name="czech",
    gametype=29,
    board=_BOARD_8X8,
    men_rows=3,
    men_capture_backward=False,
    capture_choice=CaptureChoice.FREE,
    king_capture_priority=True,
    draw_rules=DrawRules(
        king_moves_plies=30,
        king_moves_rule="15-move",
        three_v_one_plies=None,
        two_v_one_plies=None,
    ),
    aliases=("29",),
)
"""Czech draughts (rules.md §4.8, §6.6)."""

IMMEDIATE_REMOVAL = Variant(
    name="immediate-removal",
    gametype=None,
    removal=Removal.IMMEDIATE,
    aliases=("polish-kl",),
)
"""International rules with each captured piece removed as it is jumped (rules.md
§4.10); selected by name only, never by GameType."""

SHORT_LANDING = Variant(
    name="short-landing",
    gametype=None,
    king_landing=KingLanding.DIRECTLY_BEHIND,
    capture_promotion=CapturePromotion.CROWN_AND_STOP,
    draw_rules=DrawRules(
        king_moves_plies=None,
        three_v_one_plies=None,
        two_v_one_plies=None,
        three_kings_v_one_plies=32,
        two_kings_v_one_plies=0,
    ),
    aliases=("house-rules",),
)
"""The house-rules profile over international (rules.md §4.11): a capturing king stops
directly behind the captured piece, a man crowned during a capture ends the move, and
2 kings v 1 is drawn at once, 3 kings v 1 after 16 moves each (IP-13 defaults)."""


def _whole_board(rules: DrawRules) -> DrawRules:
    """*rules* with ItsYourTurn's house rule, "in all games": the entire board position
    repeated three times is a draw, whoever is to move (rules.md §4.10, §9; IP-04)."""
    return replace(rules, repetition_includes_side_to_move=False)


ITSYOURTURN = replace(
    INTERNATIONAL,
    name="itsyourturn",
    gametype=None,
    draw_rules=_whole_board(INTERNATIONAL.draw_rules),
    aliases=("iyt",),
)
"""International draughts as ItsYourTurn plays it: FMJD rules, and a repetition of the
whole board (side to move ignored) for the third time is a draw."""

ITSYOURTURN_ITALIAN = replace(
    ITALIAN,
    name="itsyourturn-italian",
    gametype=None,
    draw_rules=_whole_board(ITALIAN.draw_rules),
    aliases=("iyt-italian", "italian-kt"),
)
"""ItsYourTurn's Italian checkers (KT): the FID rules (rules.md §4.5), whole-board
repetition."""

ITSYOURTURN_POLISH = replace(
    IMMEDIATE_REMOVAL,
    name="itsyourturn-polish",
    draw_rules=_whole_board(IMMEDIATE_REMOVAL.draw_rules),
    aliases=("iyt-polish",),
)
"""ItsYourTurn's Polish checkers (KL): the immediate-removal profile (rules.md §4.10),
whole-board repetition."""

ITSYOURTURN_RUSSIAN = replace(
    RUSSIAN,
    name="itsyourturn-russian",
    gametype=None,
    draw_rules=_whole_board(RUSSIAN.draw_rules),
    aliases=("iyt-russian", "russian-kr"),
)
"""ItsYourTurn's Russian checkers (KR): the Russian rules (rules.md §4.3), whole-board
repetition."""

FRISIAN = Variant(
    name="frisian",
    gametype=40,
    draw_rules=DrawRules(king_moves_plies=None, three_v_one_plies=None, two_v_one_plies=None),
    aliases=("fries", "friesland", "40"),
    rays=RayRules(
        man_steps=DIAGONALS_FORWARD,
        man_captures=DIAGONALS + ORTHOGONALS_DARK,
        king_steps=DIAGONALS,
        king_captures=DIAGONALS + ORTHOGONALS_DARK,
        man_value=100,
        king_value=199,
        king_captures_first=True,
        king_move_limit=3,
        king_v_king_draw=True,
        two_kings_v_king_plies=14,
    ),
)
"""Frisian draughts (rules.md §4.6): International's board, start and flying kings;
men and kings also capture along rows and columns; the most valuable capture is
compulsory (a king worth 1.99 men, IP-07), a king capturing first on equal value;
at most three king moves in a row while the player has men; draws per §6.4."""

TURKISH = Variant(
    name="turkish",
    gametype=30,
    board=BoardSpec(8, 8, all_squares=True),
    men_rows=2,
    removal=Removal.IMMEDIATE,
    draw_rules=DrawRules(king_moves_plies=None, three_v_one_plies=None, two_v_one_plies=None),
    aliases=("dama", "30"),
    rays=RayRules(
        man_steps=FORWARD_AND_SIDEWAYS,
        man_captures=FORWARD_AND_SIDEWAYS,
        king_steps=ORTHOGONALS,
        king_captures=ORTHOGONALS,
        no_reversal=True,
        home_rows_empty=1,
        lone_piece_draw=True,
    ),
)
"""Turkish draughts (rules.md §4.7): all 64 squares, 16 men each on the second and
third rows; men step and capture forward or sideways, kings fly along rows and columns;
majority rule; captured pieces leave at once but a sequence never turns back on
itself; a man crowned only where its move ends (IP-09); draws per §6.5."""

_VARIANTS: tuple[Variant, ...] = (
    INTERNATIONAL,
    ENGLISH,
    ITALIAN,
    POOL,
    UNIFIED_POOL,
    RUSSIAN,
    BRAZILIAN,
    CZECH,
    IMMEDIATE_REMOVAL,
    SHORT_LANDING,
    ITSYOURTURN,
    ITSYOURTURN_ITALIAN,
    ITSYOURTURN_POLISH,
    ITSYOURTURN_RUSSIAN,
    FRISIAN,
    TURKISH,
)


def _unpickled_variant(name: str, values: tuple[Any, ...]) -> Variant:
    """The variant a pickle describes (see :meth:`Variant.__reduce__`)."""
    variant = Variant(*values)
    for known in _VARIANTS:
        if known.name == name and known == variant:
            return known
    return variant


def variants() -> tuple[Variant, ...]:
    """Every rules description the engine knows."""
    return _VARIANTS


def variant_names() -> str:
    """Every variant and profile by name, with its GameType number where it has one
    (``international (20), english (21), …, short-landing``): the list an unknown name
    is answered with."""
    named = sorted(_VARIANTS, key=lambda v: (v.gametype is None, v.gametype or 0))
    return ", ".join(f"{v.name} ({v.gametype})" if v.gametype else v.name for v in named)


def variant_by_name(name: str | int) -> Variant:
    """Look a variant up by name, alias or GameType number (case-insensitive); the
    number may be given as an ``int`` (``20``) or as text (``"20"``).

    Raises :class:`UnknownVariantError` (a ``KeyError`` and a ``ValueError``) naming
    the known variants when *name* is unknown, and ``TypeError`` for a value that is
    neither text nor a whole number.
    """
    if isinstance(name, bool) or not isinstance(name, (str, int)):
        raise TypeError(
            f"a variant is named by text or a GameType number, not {type(name).__name__}"
        )
    wanted = str(name).strip().lower()
    for variant in _VARIANTS:
        if wanted == variant.name or wanted in variant.aliases:
            return variant
    raise UnknownVariantError(f"unknown variant {name!r}; known: {variant_names()}")
