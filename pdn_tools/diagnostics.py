"""Diagnostics as values: the code catalogue and the :class:`Issue` record.

Every finding of pdn-tools is an :class:`Issue` with a stable code from
:data:`CATALOGUE`.  Codes are never reused for another meaning; the user
documentation (``docs/diagnostics.md``) and machine formats are generated from or
checked against this one table, so it is the single source of truth.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import partialmethod
from typing import Any, Literal, NotRequired, TypedDict, TypeVar

T = TypeVar("T")


def _set_once(self: object, name: str, value: object) -> None:
    # A field may be set while it has no value (the constructor), never again.
    try:
        object.__getattribute__(self, name)
    except AttributeError:
        object.__setattr__(self, name, value)
        return
    raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _refuse_delete(self: object, name: str) -> None:
    raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def freeze(cls: type[T]) -> type[T]:
    """Make the fields of *cls*, a written-out frozen class, settable once (by its
    constructor) and never deleted, in both builds.

    Why: frozen records are written out as plain classes rather than frozen
    dataclasses (``dataclasses`` writes each class's methods as source text and
    compiles it at import: two fifths of the start-up).  Their fields are not
    ``Final``: mypyc 2.4.1 lends out a ``Final`` field without a reference of its own
    where a function returns it inside a tuple, which frees it while in use.  This
    guard refuses an assignment or a deletion from Python code instead, as a frozen
    dataclass did (:class:`AttributeError`).  A compiled constructor writes the fields
    natively, past the guard; a Python one goes through it once per field.  The
    methods are bound through :class:`functools.partialmethod`, so that they work
    when this module is compiled too.  The rules engine, which imports nothing of
    pdn-tools outside itself, has its own copy (:mod:`pdn_tools.rules.frozen`).
    """
    setattr(cls, "__setattr__", partialmethod(_set_once))  # noqa: B010 (mypy refuses a method assignment)
    setattr(cls, "__delattr__", partialmethod(_refuse_delete))  # noqa: B010
    return cls


class Severity(StrEnum):
    """How serious a finding is; errors make a game's status ``error``."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Order for comparisons: info < warning < error."""
        return _RANKS[self]  # a member is its own string: no per-call dict, no .value


_RANKS: dict[str, int] = {"info": 0, "warning": 1, "error": 2}


class Code:
    """One entry of the catalogue: what the code means and how loud it is by default."""

    code: str
    severity: Severity
    title: str
    description: str

    __slots__ = ("code", "description", "severity", "title")

    def __init__(
        self,
        code: str,
        severity: Severity,
        title: str,
        description: str,
    ) -> None:
        self.code = code
        self.severity = severity
        self.title = title
        self.description = description

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Code) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.code, self.severity, self.title, self.description) == (
            other.code,
            other.severity,
            other.title,
            other.description,
        )

    def __hash__(self) -> int:
        return hash((self.code, self.severity, self.title, self.description))

    def __repr__(self) -> str:
        return (
            f"Code(code={self.code!r}, "
            f"severity={self.severity!r}, "
            f"title={self.title!r}, "
            f"description={self.description!r})"
        )

    def __reduce__(self) -> tuple[type[Code], tuple[str, Severity, str, str]]:
        # By value, through __init__: a compiled frozen class cannot be restored field
        # by field, and findings cross processes (--jobs workers, Dask).
        return (Code, (self.code, self.severity, self.title, self.description))


freeze(Code)


def _c(code: str, severity: str, title: str, description: str) -> Code:
    return Code(code, Severity(severity), title, description)


#: The catalogue.  W/E codes follow the policy of docs/pdn-format.md §12; codes from
#: E11 on are pdn-tools' own (resource limits, input the reader cannot use).
CATALOGUE: dict[str, Code] = {
    c.code: c
    for c in (
        _c(
            "W01",
            "warning",
            "Game not terminated",
            "A game ended at the next game's tags without a terminator.",
        ),
        _c(
            "W02",
            "warning",
            "Terminator contradicts Result tag",
            "The result written as terminator differs from the Result tag; the tag wins.",
        ),
        _c(
            "W03",
            "info",
            "Result in the other style",
            "A result in the other result style for the GameType (1-0 in a 10x10 game, "
            "2-0 in an 8x8 game); normalised by its digits.",
        ),
        _c(
            "W04",
            "warning",
            "Non-standard result string",
            "A result written with spaces, as a match score, '-', '' or another "
            "non-standard form; trimmed and mapped where possible, else unknown.",
        ),
        _c(
            "W05",
            "warning",
            "Result glued to the next move number",
            "A terminator directly followed by the next game's move number (0-201.33-29); split.",
        ),
        _c(
            "W06",
            "warning",
            "Text outside any game or exporter artefact",
            "Text before, between or after the games that is neither tags nor movetext "
            "(a line of prose, a #! line: one finding for each run of such lines), "
            "literal \\r or \\n character pairs, or stray characters after a "
            "terminator; skipped.",
        ),
        _c(
            "W07",
            "warning",
            "Irregular tag name or alias",
            "A tag name with a lower-case start, spaces or HTML entities, or a known "
            "localised alias (Bianco, Type de jeu, Setup); kept and mapped.",
        ),
        _c(
            "W08",
            "warning",
            "Irregular tag value",
            "An unescaped inner quote, a value broken over lines, a value ending in a "
            "backslash, or a value in curly double quotes (read as plain ones).",
        ),
        _c(
            "W09",
            "warning",
            "Damaged tag structure",
            "A tag without value ([Empty]), a tag missing its '[', or the same tag twice "
            "(under any of its names: the message names the tag and the names as written).",
        ),
        _c(
            "W10",
            "warning",
            "Whitespace inside a move",
            "A move written with spaces around its separator (1- 6); joined.",
        ),
        _c("W11", "warning", "Leading zero in a square", "A square written as 05 or 07; stripped."),
        _c(
            "W12",
            "warning",
            "Separator does not match the move",
            "A capture written with '-' or a step written with 'x'; the replay decides.",
        ),
        _c(
            "W13",
            "warning",
            "Move without separator",
            "A numeric move written as four digits (3228); split into two squares.",
        ),
        _c("W14", "warning", "Upper-case algebraic squares", "A3-B4; lower-cased."),
        _c(
            "W15",
            "warning",
            "Irregular strength mark",
            "A glued '*' (forced move, stored as NAG 7), a detached mark, an unknown glyph, or a "
            "NAG beyond the 64-bit integers (kept as a comment, as written).",
        ),
        _c(
            "W16",
            "warning",
            "Dangling or malformed move number",
            "A move number with no move after it, or 'N..'; ignored.",
        ),
        _c(
            "W17",
            "warning",
            "Unknown-move placeholder",
            "'-' or '--' standing for an unknown move; replay of that line stops.",
        ),
        _c("W18", "warning", "Stray dot", "A lone '.' in the movetext; dropped."),
        _c(
            "W19",
            "warning",
            "Empty-game form",
            "A game written as '1. 0-2' or a lone terminator: no moves, only a result.",
        ),
        _c(
            "W20",
            "warning",
            "Variation placed before the move it replaces",
            "A variation numbered for the next ply; re-attached to the following move.",
        ),
        _c("W21", "warning", "Non-3.0 comment form", "A ';' comment to the end of the line."),
        _c(
            "W22",
            "warning",
            "FEN comment used as setup",
            "Reserved, not emitted: a comment holding only a FEN stays a comment (PDN gives "
            "it no meaning; lidraughts' importer reads one as a set-up, and no record met "
            "so far needs that reading).  The code is kept for that reading, should a "
            "producer's dialect need it.",
        ),
        _c(
            "W23",
            "warning",
            "Non-canonical capture path",
            "A capture path that identifies one legal move but is not the canonical path.",
        ),
        _c(
            "W24",
            "warning",
            "Multi-capture split into several moves",
            "One capture written as consecutive jumps (11x18 18x25); merged.",
        ),
        _c(
            "W25",
            "warning",
            "Ambiguous capture resolved by look-ahead",
            "Only one of the candidate captures lets the rest of the game replay.",
        ),
        _c(
            "W26",
            "warning",
            "Irregular but usable FEN or SetUp",
            "A FEN with a trailing dot, spaces or line breaks, lidraughts counters, a "
            "doubled turn field, or SetUp without FEN; normalised.",
        ),
        _c(
            "W27",
            "warning",
            "GameType irregular or missing",
            "A GameType long form that is no row of the table (the message lists the "
            "rows of its number, and the number decides), or none at all (info level: "
            "the variant was inferred).",
        ),
        _c(
            "W28",
            "warning",
            "Variant has no rule profile",
            "The game is read and exported but not replayed: a GameType the engine has "
            "no rules for, also a long form that names such a row under a number that "
            "otherwise has rules (`23,B,8,8,A1,1`, Jamaican draughts, is not replayed "
            "as pool).",
        ),
        _c(
            "W29",
            "info",
            "Date or time not in the standard form",
            "A Date such as 13-01-1996 or 17 april 2009; kept as written. A date that "
            "reads two ways (01/06/1998, day or month first) names both readings.  A "
            "range of days (2004.10.27 - 2004.11.01, an event's span) is read as its "
            "first day, which the message names.",
        ),
        _c(
            "W30",
            "warning",
            "Input is not UTF-8",
            "The file was decoded with a legacy 8-bit encoding, or as UTF-16 or UTF-32 (a "
            "byte order mark, or UTF-16's NUL pattern), named in the message.",
        ),
        _c(
            "W31",
            "info",
            "Character normalisation applied",
            "A BOM removed (at the start of the file, given there once or more; inside the "
            "file, at the start of a line or before a '[' where files were joined, read as "
            "a space), NBSP turned into a space, a Unicode dash normalised, "
            "an HTML entity in a tag name decoded.",
        ),
        _c(
            "W32",
            "warning",
            "Header inconsistent with the replayed game",
            "Result or PlyCount disagree with the replay.",
        ),
        _c("W33", "info", "Move number disagrees with the replay", "The number is ignored."),
        _c(
            "W34",
            "warning",
            "'...' used as an unknown move",
            "'...' stands for a missing move while moves follow; replay of that line stops.",
        ),
        _c(
            "W35",
            "info",
            "File holds no game",
            "The file is empty or holds only whitespace and comments (not said of compressed "
            "data that ended early, before any game: E14 or E11 alone then).",
        ),
        _c(
            "W36",
            "info",
            "Play continued after a draw condition",
            "A draw condition of the FMJD rules (threefold repetition, 25-, 16- or 5-move "
            "rule) held and the record goes on; the condition is listed in the game's draws.",
        ),
        _c(
            "W37",
            "warning",
            "Moves fit another variant",
            "The game has no GameType tag and does not replay under the variant inferred "
            "for it, but its main line replays without error under another variant on the "
            "same board (named in the message): the GameType tag is probably missing.",
        ),
        _c(
            "W38",
            "warning",
            "Bytes replaced by U+FFFD",
            "Bytes the encoding in use cannot decode (a byte a code page leaves undefined, "
            "or any byte an --encoding cannot read) are replaced by the replacement "
            "character U+FFFD; the message names the encoding.",
        ),
        _c(
            "W39",
            "warning",
            "Symbolic link out of the folder not followed",
            "A symbolic link inside a folder (or matched by a pattern) leads to a file or "
            "folder outside it; it is not read, so that a planted link cannot pour other "
            "files into the report.  --follow-links reads it.",
        ),
        _c(
            "W40",
            "warning",
            "Game not replayed",
            "A game with moves whose rules could not be told: no GameType tag and a "
            "variant that neither its set-up nor its moves tell, or a variant the reader "
            "guessed (from squares that fit another board or variant as well) under which "
            "the record does not replay.  Nothing in it is checked; --variant NAME or a "
            "GameType tag gives its rules.",
        ),
        _c(
            "W60",
            "info",
            "GameType read in a producer's dialect",
            "The program that wrote the record was recognised and its GameType (or Variant "
            "tag) means another variant than the PDN table says: py-draughts' 23 for "
            "English checkers, its Frysk!, Antidraughts and Breakthrough under their base "
            "variant's number, lidraughts' 96-98, the Frisian and Czech numbers programs "
            "never agreed on; the message says what was read and how it is taken.",
        ),
        _c(
            "W61",
            "info",
            "Squares read in a producer's numbering",
            "The record numbers the board as its writer does, not as PDN does (py-draughts' "
            "American board turned half a turn, playstrategy's English algebraic squares "
            "seen from the first mover); the squares of the moves and the FEN are read in "
            "the standard numbering, as the message says, and on py-draughts' board, whose "
            "White is the standard's Black, the player tags (White, Black, WhiteElo ...) "
            "are read for the other side.",
        ),
        _c(
            "W62",
            "info",
            "FEN in a producer's form",
            "A FEN tag in a form some programs write and PDN 3.0 does not (a position "
            "listing one side only, algebraic squares in a numeric variant's FEN); the "
            "message says how it is read.",
        ),
        _c(
            "W63",
            "info",
            "Result in a producer's form",
            "A result written as a recognised program writes it (py-draughts' '-' for a "
            "game in progress); read as the message says.",
        ),
        _c(
            "W64",
            "info",
            "Variant decided where the tags are silent",
            "A record without a GameType tag whose variant was decided from what it holds: "
            "the board of its FEN and squares and, for an opening ballot, the side to "
            "move (the first mover of English or Italian), or the one variant on that "
            "board under which its main line replays without error; the message says "
            "what decided it.",
        ),
        _c(
            "W65",
            "warning",
            "Producer's dialect does not fit the record",
            "A dialect was forced with --dialect (or recognised) but the record "
            "contradicts it (a GameType or board the producer never writes); the record "
            "is read as PDN 3.0 says.",
        ),
        _c(
            "W80",
            "warning",
            "Move numbers restart: a terminator is probably missing",
            "A main-line move numbered '1.' after later moves, and the moves from it "
            "replay from the start position: two games run together, the terminator of "
            "the first missing.  When the replay fails there, the error says so instead "
            "of naming a mis-recorded move.  A restart whose moves go on from the game's "
            "position (some programs number a long game's moves from 1 again) is only "
            "W33.",
        ),
        _c(
            "W81",
            "info",
            "Comment after the terminator",
            "A comment after a game's terminator, on its line or the lines right after it "
            "(before a blank line) with the next game's tags after it, or anywhere after "
            "the last game: read as part of the game it follows (a final note, as many "
            "programs write it after the result), kept with that game in every output.",
        ),
        _c(
            "W82",
            "info",
            "Decisive result where a draw condition held",
            "The Result (tag or terminator) names a winner, but a draw condition of the "
            "variant's rules (threefold repetition, a move-count or material rule) held "
            "when the last move was played, and the side to move has a legal move: by "
            "those rules the game was a draw.  Info, since an arbiter may have decided "
            "otherwise (a forfeit, a loss on time).",
        ),
        _c(
            "W83",
            "warning",
            "Variation without a move",
            "A variation that holds no move: '()', or only comments or NAGs.  The tree has "
            "no line to hold it, so its parentheses are dropped; the comments and NAGs in "
            "it are kept where it stands, as if written outside them (after the element "
            "before it, or before the next one when none came before it in its line).  "
            "PDN 3.0 allows an empty variation, so --strict leaves it a warning.",
        ),
        _c(
            "E01",
            "error",
            "Unterminated or unbalanced construct",
            "A comment whose '{' is never closed (the rest of the game is not read), a "
            "variation whose '(' is still open at the end of the game, or a ')' without "
            "'('.  A tag whose quote is never closed is not E01: its text is "
            "unrecognised (E03).",
        ),
        _c("E02", "error", "Nested comment", "A '{' inside a comment; comments do not nest."),
        _c(
            "E03",
            "error",
            "Unrecognised text in movetext",
            "Text that is neither a move, a move number, a comment nor another PDN element.",
        ),
        _c(
            "E04",
            "error",
            "Square not on the board or malformed",
            "A square number out of range for the board (found by the replay), or a "
            "malformed square (0-5, 100-5, 328: found by the reader, which keeps the text "
            "as for E03).",
        ),
        _c("E05", "error", "Illegal move", "The move is not legal in the position."),
        _c(
            "E06",
            "error",
            "Quiet move while a capture is compulsory",
            "A non-capturing move although a capture is available.",
        ),
        _c(
            "E07",
            "error",
            "Capture-choice rule violated",
            "A capture of fewer pieces than the maximum, or a sequence stopped early.",
        ),
        _c(
            "E08",
            "error",
            "Ambiguous capture notation",
            "A short capture that matches several legal moves with different captured sets.",
        ),
        _c(
            "E09",
            "error",
            "Capture path matches no legal capture",
            "The path's squares do not describe any legal capture.",
        ),
        _c("E10", "error", "Invalid FEN", "The FEN cannot describe a position; not replayed."),
        _c(
            "E11",
            "error",
            "Resource limit exceeded",
            "A game larger than the size limit, or variations nested deeper than the "
            "depth limit: the game is reported and skipped, its neighbours are read.  "
            "Compressed data that expands more than the expansion limit: the rest of the "
            "file is not read.  A zip archive with more members than the member limit: "
            "none is read.",
        ),
        _c(
            "E12",
            "error",
            "Input cannot be decoded as text",
            "The input looks binary (many control bytes in its first 64 KiB: an archive, a "
            "database, an image); nothing is read from it.  A Parquet file (an output of "
            "pdn convert, which reads PDN and its own JSON and JSON Lines) is named as such.",
        ),
        _c(
            "E13",
            "error",
            "Internal error",
            "pdn-tools failed on this game (a bug, please report it with the record); the "
            "game is reported with what was read and the next game is read as usual.",
        ),
        _c(
            "E14",
            "error",
            "Input cannot be read",
            "A file found in a folder cannot be opened (permission denied, a symbolic link "
            "to nothing, a symbolic link loop), a zip archive found in a folder is damaged, "
            "a member of a zip archive cannot be extracted or has a name that is never "
            "opened (absolute, or climbing out with '..'), or compressed data is damaged "
            "(what was decoded before the damage is read, the game it cuts short too; the "
            "rest of the file is not read); the other files are read as usual.",
        ),
        _c(
            "E15",
            "error",
            "No PDN in the file",
            "The file holds text but no PDN game: no tag pair, and no stretch of text "
            "whose moves outnumber its words, only prose (a README, notes, a web page, "
            "an account of a game with a few moves quoted).  One finding for the file, "
            "instead of one for every line that is not PDN.  A JSON file (it begins as a "
            "JSON array or object does) is not read at all: pdn convert reads the JSON and "
            "JSON Lines pdn-tools writes, and PDN held in the strings of other JSON (as "
            "py-draughts keeps games) is not PDN text.",
        ),
        _c(
            "W70",
            "warning",
            "Move possibly mis-recorded",
            "A legal move that an engine doubts (validate --plausibility, pdn analyse): a "
            "slip of the transcription-error model turns another legal move into what was "
            "written, the game goes on consistently to its end with that move in place, "
            "and the recorded moves from the ply on (a window of ten plies after it) lose "
            "at least the threshold more as written than with it: material dropped or "
            "shots ignored for no reason.  The finding names that move (its repair object "
            "has kind 'implausible' and the slip); docs/analysis.md gives the criteria "
            "and the rates measured on real games.",
        ),
        _c(
            "E16",
            "error",
            "Part of the input not checked",
            "A unit of work of a cluster run (a byte range of a large file, or small files "
            "read whole) could not be read or checked: the storage failed, the file changed "
            "after it was scanned, or the workers running it kept dying.  The finding names "
            "the games and lines left unchecked and why; the rest of the run is reported as "
            "usual.",
        ),
        _c(
            "W50",
            "warning",
            "Round without a player's game",
            "In an event that looks like a round robin, a round in which players who play "
            "in other rounds have no game (beyond the one bye an odd number of players "
            "needs); the finding names the round and the players.",
        ),
        _c(
            "W51",
            "warning",
            "Gap in the round numbers",
            "An event has games of rounds on both sides of a round number it has no game "
            "of (rounds 1-5 and 7-9, none of round 6).",
        ),
        _c(
            "W52",
            "warning",
            "Pairing repeated in a round robin",
            "Two players meet more often than the other pairs of a round-robin event meet "
            "(twice in a single round robin), in different rounds; the finding names the "
            "games.",
        ),
        _c(
            "W53",
            "warning",
            "Game dated outside the event",
            "A game dated far from the days the rest of its event was played on (more than "
            "the event-date-gap rule apart, 45 days by default, among at most the "
            "misdated-share of the event's games); the finding gives the event's span.",
        ),
        _c(
            "W54",
            "warning",
            "Game dated in another year",
            "A few games of an event (same Event and Site; at most the misdated-share of "
            "the year with most games) dated in another year: probably mis-dated.  They are "
            "checked with the event they belong to.",
        ),
        _c(
            "W55",
            "warning",
            "Live-feed snapshot of a game",
            "A game whose moves are a strict beginning of another game between the same "
            "players in the same round of the event (a live board writes a game several "
            "times as it grows); the finding names the longer game.  pdn convert --dedupe "
            "--drop-prefixes leaves such snapshots out.",
        ),
        _c(
            "W56",
            "warning",
            "Player spelled several ways",
            "One player's name is written in several ways within an event (Sijbrands, Ton / "
            "T. Sijbrands); the finding lists the spellings, the canonical one first.  A "
            "spelling of one or two games that mis-writes the name (Milshin,A for "
            "Milshin,V) and was joined to the player by the rounds is marked so, with its "
            "games, its round and how its name differs (docs/collections.md, Player "
            "names).",
        ),
        _c(
            "W57",
            "info",
            "Colours do not alternate",
            "In an event that looks like a round robin, a player has the same colour in "
            "three or more rounds in a row (the colour-run rule).",
        ),
        _c(
            "W58",
            "info",
            "Event too large to check as a whole",
            "An event of more games than the event-max-games rule allows (50,000 by "
            "default: online archives file whole seasons under one Event) is not put "
            "together, so that memory stays bounded; its games are checked one by one as "
            "always.",
        ),
        _c(
            "W66",
            "warning",
            "Clock or evaluation not understood",
            "A [%clock], [%clk] or [%eval] command in a comment whose value is none of "
            "the forms pdn-tools reads (docs/export.md, Clocks and evaluations): the move "
            "has no clock or evaluation as data, and the comment is kept as written.  A "
            "command is not part of the PDN grammar, so --strict leaves it a warning.",
        ),
        _c(
            "E50",
            "error",
            "Player paired twice in one round",
            "A player has two different games in one round of an event that has games of "
            "two or more rounds (copies of one game and live-feed snapshots count once); the "
            "finding names the round and the games.",
        ),
        _c(
            "E51",
            "error",
            "Player paired against themselves",
            "White and Black name the same player.",
        ),
        _c(
            "E52",
            "error",
            "Copies of a game disagree",
            "Two records of the same game (same moves and players, or one a live-feed "
            "snapshot of the other) in one event give different results or rounds.",
        ),
    )
}


class Issue:
    """One finding, located in the source.

    ``line`` and ``column`` are 1-based and count decoded characters.  ``ply`` is the
    1-based half-move of the mainline the finding belongs to (None when not about a
    move).  ``move`` is the move text as written, when the finding is about a move.
    ``context`` shows the source line and a caret under the column, for syntax errors.
    """

    code: str
    message: str
    line: int
    column: int
    severity: Severity | None
    ply: int | None
    move: str | None
    in_variation: bool
    context: str | None
    repair: dict[str, Any] | None

    __slots__ = (
        "code",
        "column",
        "context",
        "in_variation",
        "line",
        "message",
        "move",
        "ply",
        "repair",
        "severity",
    )

    def __init__(
        self,
        code: str,
        message: str,
        line: int,
        column: int,
        severity: Severity | None = None,
        ply: int | None = None,
        move: str | None = None,
        in_variation: bool = False,
        context: str | None = None,
        repair: dict[str, Any] | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.severity = severity
        self.ply = ply
        self.move = move
        self.in_variation = in_variation
        self.context = context
        self.repair = repair
        self.__post_init__()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Issue) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.code,
            self.message,
            self.line,
            self.column,
            self.severity,
            self.ply,
            self.move,
            self.in_variation,
            self.context,
            self.repair,
        ) == (
            other.code,
            other.message,
            other.line,
            other.column,
            other.severity,
            other.ply,
            other.move,
            other.in_variation,
            other.context,
            other.repair,
        )

    def __repr__(self) -> str:
        return (
            f"Issue(code={self.code!r}, "
            f"message={self.message!r}, "
            f"line={self.line!r}, "
            f"column={self.column!r}, "
            f"severity={self.severity!r}, "
            f"ply={self.ply!r}, "
            f"move={self.move!r}, "
            f"in_variation={self.in_variation!r}, "
            f"context={self.context!r}, "
            f"repair={self.repair!r})"
        )

    def __reduce__(self) -> tuple[type[Issue], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Issue,
            (
                self.code,
                self.message,
                self.line,
                self.column,
                self.severity,
                self.ply,
                self.move,
                self.in_variation,
                self.context,
                self.repair,
            ),
        )

    def __post_init__(self) -> None:
        if self.code not in CATALOGUE:
            raise ValueError(f"unknown diagnostic code {self.code!r}")
        if self.severity is None:
            self.severity = CATALOGUE[self.code].severity

    @property
    def level(self) -> Severity:
        """The severity, never None after construction."""
        assert self.severity is not None
        return self.severity

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by ``--format jsonl``."""
        data: dict[str, Any] = {
            "code": self.code,
            "severity": self.level.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "ply": self.ply,
            "move": self.move,
        }
        if self.in_variation:
            data["in_variation"] = True
        if self.context is not None:
            data["context"] = self.context
        if self.repair is not None:
            data["repair"] = self.repair
        return data


class GameRef:
    """Where one game is: the input's position among the inputs, its name, the game's
    1-based index in it and its first line."""

    file_no: int
    file: str
    game: int
    line: int

    __slots__ = ("file", "file_no", "game", "line")

    def __init__(
        self,
        file_no: int,
        file: str,
        game: int,
        line: int,
    ) -> None:
        self.file_no = file_no
        self.file = file
        self.game = game
        self.line = line

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRef) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.file_no, self.file, self.game, self.line) == (
            other.file_no,
            other.file,
            other.game,
            other.line,
        )

    def __hash__(self) -> int:
        return hash((self.file_no, self.file, self.game, self.line))

    def __repr__(self) -> str:
        return (
            f"GameRef(file_no={self.file_no!r}, "
            f"file={self.file!r}, "
            f"game={self.game!r}, "
            f"line={self.line!r})"
        )

    def __reduce__(self) -> tuple[type[GameRef], tuple[int, str, int, int]]:
        # By value, through __init__ (see Code.__reduce__): events found on a cluster
        # come back with the games they name.
        return (GameRef, (self.file_no, self.file, self.game, self.line))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: file, game and line."""
        return {"file": self.file, "game": self.game, "line": self.line}


freeze(GameRef)


class EventFinding:
    """A finding about an event as a whole (codes W50-W59, E50-E59), located by the
    event (its name, site and year as written), the round (None when it is about no
    round) and the games involved, in input order.

    ``line`` and ``column`` are those of the first game, so that formats that place
    every finding in a file (text, GitHub, SARIF) place it there.
    """

    code: str
    message: str
    event: str | None
    site: str | None
    year: int | None
    round: str | None
    games: tuple[GameRef, ...]
    severity: Severity | None

    __slots__ = ("code", "event", "games", "message", "round", "severity", "site", "year")

    def __init__(
        self,
        code: str,
        message: str,
        event: str | None,
        site: str | None = None,
        year: int | None = None,
        round: str | None = None,
        games: tuple[GameRef, ...] = (),
        severity: Severity | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.event = event
        self.site = site
        self.year = year
        self.round = round
        self.games = games
        self.severity = severity
        self.__post_init__()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EventFinding) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.code,
            self.message,
            self.event,
            self.site,
            self.year,
            self.round,
            self.games,
            self.severity,
        ) == (
            other.code,
            other.message,
            other.event,
            other.site,
            other.year,
            other.round,
            other.games,
            other.severity,
        )

    def __repr__(self) -> str:
        return (
            f"EventFinding(code={self.code!r}, "
            f"message={self.message!r}, "
            f"event={self.event!r}, "
            f"site={self.site!r}, "
            f"year={self.year!r}, "
            f"round={self.round!r}, "
            f"games={self.games!r}, "
            f"severity={self.severity!r})"
        )

    def __reduce__(self) -> tuple[type[EventFinding], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            EventFinding,
            (
                self.code,
                self.message,
                self.event,
                self.site,
                self.year,
                self.round,
                self.games,
                self.severity,
            ),
        )

    def __post_init__(self) -> None:
        if self.code not in CATALOGUE:
            raise ValueError(f"unknown diagnostic code {self.code!r}")
        if self.severity is None:
            self.severity = CATALOGUE[self.code].severity

    @property
    def level(self) -> Severity:
        """The severity, never None after construction."""
        assert self.severity is not None
        return self.severity

    @property
    def file(self) -> str:
        """The file of the first game involved ('' when none)."""
        return self.games[0].file if self.games else ""

    @property
    def line(self) -> int:
        """The first line of the first game involved (1 when none)."""
        return self.games[0].line if self.games else 1

    column = 1

    def place(self) -> str:
        """Where the finding is, in words: ``event 'NK 2003' (Amsterdam, 2003), round 3``."""
        text = f"event {self.event!r}" if self.event is not None else "no event"
        extra = [
            part for part in (self.site, None if self.year is None else str(self.year)) if part
        ]
        if extra:
            text += f" ({', '.join(extra)})"
        if self.round is not None:
            text += f", round {self.round}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``pdn validate --format jsonl`` (one line per finding)."""
        return {
            "event": self.event,
            "site": self.site,
            "year": self.year,
            "round": self.round,
            "code": self.code,
            "severity": self.level.value,
            "message": self.message,
            "games": [game.to_dict() for game in self.games],
        }


DrawRule = Literal[
    "threefold",
    "25-move",
    "16-move",
    "5-move",
    "15-move",
    "40-move",
    "3-kings",
    "2-kings",
    "balance",
    "lone-pieces",
    "two-kings-v-king",
]
"""Draw conditions: the FMJD four (rules.md §5) and those of the other variants (§6)."""


class DrawEvent(TypedDict):
    """A draw condition that first holds at ``ply`` (1-based half-move, counted along
    the line from the start position; a variation continues its branch's count).

    Events inside a variation carry ``in_variation`` (True) and the ``line`` and
    ``column`` of the move at which the condition holds; main-line events have only
    the three required keys.
    """

    rule: DrawRule
    ply: int
    article: str
    in_variation: NotRequired[bool]
    line: NotRequired[int]
    column: NotRequired[int]


def is_event_code(code: str) -> bool:
    """Whether *code* is about an event as a whole (W50-W59, E50-E59)."""
    return code[:1] in "WE" and code[1:].isdigit() and 50 <= int(code[1:]) <= 59


EVENT_CODES = tuple(code for code in CATALOGUE if is_event_code(code))
"""The codes of the event checks, in catalogue order."""


def catalogue_markdown() -> str:
    """The code table of ``docs/diagnostics.md`` (a test keeps the two in sync)."""
    lines = ["| Code | Default | Title | Meaning |", "|---|---|---|---|"]
    for entry in CATALOGUE.values():
        description = entry.description.replace("|", "\\|")
        lines.append(f"| {entry.code} | {entry.severity.value} | {entry.title} | {description} |")
    return "\n".join(lines) + "\n"


#: Codes that stay at their level in strict mode: facts about a record, not deviations
#: from the PDN 3.0 writing grammar.
STRICT_EXEMPT = frozenset(
    {
        "W03",
        "W27",
        "W28",
        "W29",
        "W31",
        "W32",
        "W33",
        "W35",
        "W36",
        "W37",
        "W64",
        "W66",
        "W81",
        "W82",
        "W83",
    }
)


Status = Literal["ok", "warning", "error"]
"""A game's verdict: its worst finding, info counting as ``ok``."""

#: The words that name a status (``--status clean``) and the status each stands for.
STATUS_WORDS = {
    "clean": "ok",
    "ok": "ok",
    "warnings": "warning",
    "warning": "warning",
    "errors": "error",
    "error": "error",
}


def status_of(issues: Iterable[Issue]) -> Status:
    """``error`` if any of *issues* is an error, else ``warning`` if any is a
    warning, else ``ok`` (the one rule of every report, filter and game)."""
    worst = max((issue.level.rank for issue in issues), default=-1)
    if worst >= Severity.ERROR.rank:
        return "error"
    if worst >= Severity.WARNING.rank:
        return "warning"
    return "ok"


def escalate(issues: list[Issue]) -> None:
    """Strict mode: turn every warning-level deviation in *issues* into an error."""
    for issue in issues:
        if issue.code.startswith("W") and issue.code not in STRICT_EXEMPT:
            issue.severity = Severity.ERROR
