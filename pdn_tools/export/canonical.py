"""Canonical PDN: one agreed spelling of a game, with nothing of it lost.

What is rewritten, and how (``docs/export.md``):

- tags: the seven-tag roster first, then GameType, SetUp and FEN, then the others
  in input order; a localised or irregularly spelt name of a standard tag
  (``Bianco``, ``Setup``, ``event``) written as the standard name, a Result value
  in the normal form of the GameType's style, a FEN value without the spaces and
  trailing ``.`` the reader ignores (:func:`regular_tags`); values escaped
  (``\\"``, ``\\\\``); a game without a GameType
  replayed under a variant other than international (given, or inferred: W27) gets
  the GameType of its variant, so that its moves, written in numbers, read back
  under the same rules, and so does one whose variant the order of its tags decided
  (W64), an order the roster does not keep; a guess the replay refuted gets none;
- moves: the replay's resolved moves in the standard's notation (``from-to``,
  ``fromxto`` for a capture no other legal move shares, else the canonical path);
  moves that could not be resolved (replay stopped, variant without rule profile)
  are written as read, in normalised spelling;
- move numbers: recomputed, ``N.`` before each move of the first mover and ``N...``
  before a move of the second mover that opens a line or follows a comment, a
  variation or a set-up; ``N. ...`` that stands for the first mover's missing move
  (W34) kept as such;
- the terminator in the GameType's result style (``2-0`` / ``1-0`` ...); a game
  whose guessed variant the replay refuted, written without GameType, keeps each
  result in its own style (``1/2-1/2`` stays so, not the guess's ``1-1``);
- movetext lines of at most :data:`WIDTH` columns (a comment is never split: one
  longer than a line stands on a line of its own).

Comments (with their embedded ``[%…]`` commands), NAGs, non-standard marks,
variations, set-ups and placeholders are kept.  :class:`CanonicalOptions` can strip
comments (embedded commands are kept) or variations, and normalise results (the
Result tag and the terminator both say the game's result in the GameType's style).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Literal

from pdn_tools.export.pdn import Lines, Unreads, opening, tag_lines, write_comment
from pdn_tools.export.targets import (
    TARGETS,
    Form,
    Target,
    move_text,
    square_name,
    target_tags,
    turned_squares,
)
from pdn_tools.pdn.commands import parse_commands
from pdn_tools.pdn.gametype import BY_NAME, PROFILE_BASES, naming_value, square_notation
from pdn_tools.pdn.model import SKIP, Comment, Game, Node, Skip, Tag, Visitor, every_node
from pdn_tools.pdn.results import read_result
from pdn_tools.pdn.tags import ALIASES, ROSTER, standard_name
from pdn_tools.replay.resolve import Resolution
from pdn_tools.rules import FenError, Variant, canonical_path, parse_fen
from pdn_tools.rules.geometry import Geometry, geometry_for

WIDTH = 80
"""Longest movetext line, in columns."""
_END = (sys.maxsize, 0)
"""A place after everything a game's text holds."""

_RESULTS: dict[str, dict[str, str]] = {
    "international": {"first-wins": "2-0", "second-wins": "0-2", "draw": "1-1"},
    "default": {"first-wins": "1-0", "second-wins": "0-1", "draw": "1/2-1/2"},
}


@dataclass(frozen=True, slots=True)
class CanonicalOptions:
    """What canonical writing may drop or rewrite beyond spelling."""

    strip_comments: bool = False
    """Drop comments; a comment holding embedded commands keeps just its commands."""
    strip_variations: bool = False
    """Write the main line only."""
    normalise_results: bool = False
    """Write the game's result (Result tag, else terminator) as both the Result tag and
    the terminator, in the GameType's style; unknown results become ``*``."""
    target: str | None = None
    """Write for this program (a name of :data:`pdn_tools.export.targets.TARGETS`):
    its GameType, square notation, FEN form, result tokens, capture form and tags,
    leaving out what it cannot read (results are then always normalised)."""


def result_style(game: Game, resolution: Resolution | None = None) -> str | None:
    """The GameType's result style (``international`` or ``default``), if known.

    None (each result in its own style, as written) when the replay refuted the
    reader's guess of the variant (*resolution*): the guess's style would rewrite an
    English problem's ``1/2-1/2`` as ``1-1``, a style the record never implied, while
    the game is written without a variant."""
    if resolution is not None and resolution.refuted and resolution.variant is None:
        return None
    entry = BY_NAME.get(game.variant)
    return entry.result_style if entry is not None else None


def styled_result(raw: str, style: str | None) -> str | None:
    """*raw* written in *style* (None: its own style), or None when it means unknown."""
    reading = read_result(raw)
    if reading.outcome == "unknown":
        return None
    if reading.outcome == "both-lost":
        return "0-0"
    if style is None:
        style = reading.style if reading.style in _RESULTS else "default"
    return _RESULTS[style][reading.outcome]


class _Lines(Lines):
    """:class:`Lines` with parentheses glued to the tokens they enclose."""

    def __init__(self, width: int) -> None:
        super().__init__(width)
        self.pending = ""

    def token(self, text: str) -> None:
        super().token(self.pending + text)
        self.pending = ""

    def own_line(self, text: str) -> None:
        if self.pending:
            super().token(self.pending)
            self.pending = ""
        super().own_line(text)

    def open(self) -> None:
        """Open a variation: ``(`` is glued to the next token."""
        self.pending += "("

    def close(self) -> None:
        """Close a variation: ``)`` is glued to the last token when it fits."""
        if self.pending:
            super().token(self.pending + ")")
            self.pending = ""
        elif self.current and len(self.current) < self.width:
            self.current += ")"
        else:
            super().token(")")


class _Counter:
    """Move number and side to move along one line of play."""

    __slots__ = ("first", "number")

    def __init__(self, number: int, first: bool) -> None:
        self.number = number
        self.first = first  # the first mover is to move

    def copy(self) -> _Counter:
        return _Counter(self.number, self.first)

    def advance(self) -> None:
        if not self.first:
            self.number += 1
        self.first = not self.first


class _Writer(Visitor[None]):
    """Writes one game's movetext into :class:`Lines`, walking the tree as a visitor.

    ``counter`` is the move number and side along the line being written; ``before``
    the counter before the last element, from which an alternative to it starts.
    """

    def __init__(
        self, game: Game, resolution: Resolution, options: CanonicalOptions, first_mover: str
    ) -> None:
        self.game = game
        self.resolution = resolution
        self.options = options
        self.first_mover = first_mover
        self.out = _Lines(WIDTH)
        self.unreads = Unreads(game, self.out)
        self.interrupted = True
        self.counter = _Counter(1, True)
        self.before = self.counter
        self.saved: list[tuple[_Counter, _Counter]] = []
        self.target: Target | None = None
        self.form: Form | None = None
        self.result_token = "*"
        """The result the game is written with (for a target)."""
        self.paired = 0
        """Plies written so far, for a target that numbers plies in pairs."""
        self.algebraic = False
        """Resolved moves and FENs written in algebraic squares (canonical PDN of a
        variant whose GameType names that notation: :func:`move_notation`)."""

    # -- small pieces ----------------------------------------------------------
    def comments(self, comments: list[Comment]) -> None:
        if self.target is not None and not self.target.comments:
            return
        for comment in comments:
            self.place(comment.line, comment.column)
            if self.options.strip_comments:
                commands = parse_commands(comment.text)
                if not commands:
                    continue
                comment = Comment(" ".join(f"[%{n} {v}]".replace(" ]", "]") for n, v in commands))
            write_comment(self.out, comment)
            self.interrupted = True

    def place(self, line: int, column: int) -> None:
        """Write the unread movetext that stood before (*line*, *column*)."""
        if self.unreads.before(line, column):
            self.interrupted = True

    def nags(self, nags: list[int]) -> None:
        if self.target is not None and not self.target.nags:
            return
        for nag in nags:
            self.out.token(f"${nag}")

    def setup_side(self, fen: str | None) -> bool:
        """Whether the first mover is to move after a set-up *fen*."""
        turn = (fen or "").strip()[:1].upper()
        return turn not in ("W", "B") or turn == self.first_mover

    def fen(self, value: str) -> str:
        """A FEN *value* of the game (tag or set-up) in the notation of its moves."""
        variant = self.resolution.variant
        if self.target is not None or variant is None:
            return value
        return fen_in_notation(value, variant, "algebraic" if self.algebraic else "numeric")

    def padded(self, text: str) -> str:
        """A move's *text* for the target, its first square zero-padded when it
        begins with the game's result and the target ends the moves there."""
        padded = self.target is not None and self.target.result_prefix_padded
        return "0" + text if padded and text.startswith(self.result_token) else text

    # -- elements --------------------------------------------------------------
    def element(self, node: Node, counter: _Counter) -> None:
        if id(node) in self.resolution.merged:
            # A later jump of a capture written jump by jump: the move is already
            # written (merged); its annotations follow it.
            self.nags(node.nags)
            self.comments(node.comments)
            return
        if node.starting_comments:
            self.comments(node.starting_comments)
        if node.starting_nags:
            self.nags(node.starting_nags)
        self.place(node.line, node.column)
        if node.kind == "setup":
            # In the normal form of the FEN tag's value: the reader ignores a
            # trailing '.' here too (W26), which is then not found again.
            self.out.token(f'/FEN "{self.fen(regular_fen(node.fen or ""))}"/')
            counter.first = self.setup_side(node.fen)
            following = node.next()
            if following is not None and following.number is not None:
                counter.number = following.number
            self.interrupted = True
        else:
            number = ""
            resolved = self.resolution.get(node)
            if self.target is not None and self.target.paired:
                if self.paired % 2 == 0:
                    number = f"{self.paired // 2 + 1}. "
                self.paired += 1
            elif counter.first and node.number_dots == ". ..." and resolved is None:
                # 'N. ...' where the first mover is to move and the replay did not
                # take the element as its move: the '...' stands for the first
                # mover's missing move (W34), kept so that it reads back the same.
                number = f"{counter.number}. ... "
                counter.advance()
            elif counter.first:
                number = f"{counter.number}. "
            elif self.interrupted:
                number = f"{counter.number}... "
            self.interrupted = False
            if node.kind == "move" and node.move is not None:
                text = resolved.text if resolved is not None else node.move.text()
                variant = self.resolution.variant
                if self.target is None:
                    if self.algebraic and resolved is not None and variant is not None:
                        text = algebraic_move(text, variant)
                    text = _unmistakable(text) + (node.move.mark or "")
                elif resolved is not None and self.form is not None and variant is not None:
                    path = canonical_path(resolved.move, variant)
                    text = move_text(text, resolved.move, variant, self.target, self.form, path)
                    text = self.padded(_unmistakable(text))
                else:
                    # Written as read (the replay stopped before it), in the target's
                    # numbering: a turned form turns it (target_form made sure it can).
                    # Marks are not written for a target.
                    if self.form is not None and self.form.squares == "turned":
                        turned = turned_squares(node.move.squares, _TURNED_SIZE)
                        if turned is not None:
                            text = node.move.with_squares(turned).text()
                    text = self.padded(_unmistakable(text))
            else:
                text = "--"
            self.out.token(number + text)  # a number never ends a line
            counter.advance()
        self.nags(node.nags)
        self.comments(node.comments)

    # -- the walk ----------------------------------------------------------------
    def visit_node(self, node: Node) -> None:
        self.before = self.counter.copy()
        self.element(node, self.counter)

    def begin_variation(self, first: Node) -> Skip | None:
        if self.options.strip_variations or (
            self.target is not None and not self.target.variations
        ):
            return SKIP
        if self.unreads.before_variation(*opening(first)):
            self.interrupted = True
        self.saved.append((self.counter, self.before))
        self.counter = self.before.copy()
        self.out.open()
        self.interrupted = True
        return None

    def end_variation(self, first: Node) -> None:
        if self.unreads.closes():
            self.out.close()
        self.interrupted = True
        self.counter, self.before = self.saved.pop()


_RESULT_LIKE = re.compile(r"[0-2]-[0-2]")


def _unmistakable(text: str) -> str:
    """*text*, or its squares zero-padded when it reads like a result or holds the
    square 0 (which the reader only reads in a four-digit word).

    ``1-2`` is a legal Turkish move (a8-b8, squares 1 and 2), and ``2-1`` or ``1-1``
    can be read as moves inside a record, but at the top level a reader takes any of
    them for a result that ends the game.  Written ``01-02`` it can only be a move.
    """
    if _RESULT_LIKE.fullmatch(text):
        frm, to = text.split("-")
        return f"{int(frm):02d}-{int(to):02d}"
    squares = text.split("-")
    if len(squares) == 2 and "0" in squares and all(s.isdigit() for s in squares):
        # Square 0 comes only from a four-digit word (``2000``: 20 and 00, W13 and
        # W11), the one spelling that reads it: ``20-0`` and ``20-00`` are no moves.
        return "".join(f"{int(square):02d}" for square in squares)
    return text


def written_variant(game: Game, resolution: Resolution) -> str:
    """The variant a game is written as: the rules it was replayed under (a site
    profile's records are those of its base variant), else the variant read, unless
    the replay refuted the reader's guess of it (``unknown``: no writer may state a
    variant the moves or the FEN contradict, as a GameType would)."""
    if resolution.variant is not None:
        name = resolution.variant.name
    elif resolution.refuted:
        name = "unknown"
    else:
        name = game.variant
    return PROFILE_BASES.get(name, name)


_TURNED_SIZE = 32
"""The squares of the only turned board (py-draughts' American board)."""


def move_notation(game: Game, resolution: Resolution) -> Literal["numeric", "algebraic"]:
    """The square notation in which canonical PDN writes *game*'s moves and FENs:
    that of the GameType of the variant it is written as (:func:`written_variant`;
    :func:`pdn_tools.pdn.gametype.square_notation`), ``algebraic`` (Russian,
    Brazilian, Czech, Turkish, pool with White first) or ``numeric``.  It applies to
    what the replay resolved; moves written as read keep their squares."""
    return square_notation(written_variant(game, resolution))


_ALGEBRAIC = Form(None, "algebraic")
_NUMBER = re.compile(r"[0-9]+")


def algebraic_move(text: str, variant: Variant) -> str:
    """A move's canonical *text* (numbers) with its squares in algebraic names
    (``22-18`` → ``c3-d4``; the separators kept)."""
    geo = geometry_for(variant.board)
    return _NUMBER.sub(lambda m: square_name(geo, int(m.group()), _ALGEBRAIC), text)


_FEN_NUMERIC = re.compile(r"([Kk]?)([0-9]+)(?:-([0-9]+))?")
_FEN_ALGEBRAIC = re.compile(r"([Kk]?)([a-hA-H][1-8])")


def fen_in_notation(value: str, variant: Variant, notation: str) -> str:
    """A FEN *value* with its squares in *notation* (``numeric`` or ``algebraic``),
    the rest as written (the order of its items, its extras, its irregular forms, so
    that the reader finds the same W26 again); a range of numbers becomes its squares
    in algebraic names.  As written when it is already so, when the board has no
    algebraic names (wider than 8), or when it does not read as the same position with
    the same irregularities after the change (an invalid FEN, E10, stays as read)."""
    geo = geometry_for(variant.board)
    if geo.spec.width > 8:
        return value
    wanted = _FEN_NUMERIC if notation == "algebraic" else _FEN_ALGEBRAIC
    fields = value.split(":")
    out = fields[:1]
    changed = False
    for field in fields[1:]:
        if field[:1].upper() not in ("W", "B"):
            out.append(field)
            continue
        items: list[str] = []
        for item in field[1:].split(","):
            match = wanted.fullmatch(item)
            if match is None:
                items.append(item)
                continue
            changed = True
            items.extend(_respelled(match, geo, notation))
        out.append(field[:1] + ",".join(items))
    if not changed:
        return value
    text = ":".join(out)
    try:
        before = parse_fen(value, variant)
        after = parse_fen(text, variant)
    except FenError:
        return value
    same = (after.position, after.turn_known, after.warnings)
    return text if same == (before.position, before.turn_known, before.warnings) else value


def _respelled(match: re.Match[str], geo: Geometry, notation: str) -> list[str]:
    """The FEN item *match* (a square or range of the other notation) in *notation*."""
    king = match.group(1)
    if notation == "algebraic":
        first = int(match.group(2))
        last = int(match.group(3)) if match.group(3) else first
        if not 1 <= first <= last <= geo.size:
            return [match.group()]  # not on the board: the check above keeps the FEN
        return [king + square_name(geo, s, _ALGEBRAIC) for s in range(first, last + 1)]
    name = match.group(2).lower()
    for square in range(1, geo.size + 1):
        if square_name(geo, square, _ALGEBRAIC) == name:
            return [king + str(square)]
    return [match.group()]


def target_form(game: Game, resolution: Resolution, name: str) -> tuple[Target, Form] | None:
    """The target *name* and the form in which it writes *game*, or None when the game
    is written as canonical PDN instead: a variant the program does not play (or none
    known), or, on a turned board, a record the turned numbering cannot hold without
    losing what it says — a FEN tag that is no position to turn, or a move written as
    read (after the replay stopped) with a square that is not a board square in
    numbers.  Written as read beside turned squares, such a move would change its
    meaning when read back (docs/export.md)."""
    target = TARGETS[name]
    form = target.form(written_variant(game, resolution))
    if form is None:
        return None
    if form.squares != "turned":
        return target, form
    fen = game.tag("FEN")
    if fen is not None and fen.strip() not in ("", "?"):
        if resolution.variant is None:
            return None  # not replayed: the FEN would be written as read
        try:
            parse_fen(fen, resolution.variant)
        except FenError:
            return None
    nodes = list(game.mainline()) if not target.variations else every_node(game)
    for node in nodes:
        if node.move is None or id(node) in resolution.merged:
            continue
        if resolution.get(node) is None and turned_squares(node.move.squares, _TURNED_SIZE) is None:
            return None
    return target, form


def _keeps_variant(game: Game, resolution: Resolution) -> bool:
    """Whether the GameType of the game's variant is written when it has no GameType
    tag: the game was replayed (its moves are written in numbers, which no longer say
    the variant), or its variant was decided from what the writer does not keep (W64:
    CheckerBoard's order of the tags) and not refuted by the replay."""
    if resolution.variant is not None:
        return True
    return not resolution.refuted and any(issue.code == "W64" for issue in game.issues)


def _first_mover(game: Game, resolution: Resolution) -> str:
    if resolution.variant is not None:
        return resolution.variant.first_mover.value
    entry = BY_NAME.get(game.variant)
    if entry is not None:
        return entry.full.split(",")[1]
    return "W"


def _start_counter(game: Game, first_mover: str) -> _Counter:
    first_node = game.next()
    while first_node is not None and first_node.kind == "setup":
        first_node = first_node.next()
    number = first_node.number if first_node is not None and first_node.number else 1
    fen = game.tag("FEN")
    if fen is not None and fen.strip()[:1].upper() in ("W", "B"):
        first = fen.strip()[:1].upper() == first_mover
    else:
        # 'N...' opens with the second mover; 'N. ...' says the first mover is to
        # move and its move is missing (written back as such by the writer).
        first = first_node is None or first_node.number_dots != "..."
    return _Counter(number, first)


#: The standard tag names pdn-tools knows, by their lower-case spelling.
_STANDARD_NAMES: dict[str, str] = {
    name.lower(): name for name in (*ROSTER, "GameType", "SetUp", "FEN", *ALIASES.values())
}
_UNKNOWN_RESULTS = ("", "-", "?")
_SPACES = re.compile(r"\s+")


def regular_result(value: str, style: str | None) -> str:
    """A Result value in its normal form: *value* read as the reader reads it and
    written in *style* (the GameType's; None: the value's own), ``*`` for the
    spellings of an unknown result (``""``, ``-``, ``?``).  A value that says no
    result the reader can map (``4-6``, a match score) is kept as written."""
    styled = styled_result(value, style)
    if styled is not None:
        return styled
    return "*" if value.strip() in _UNKNOWN_RESULTS else value


def regular_fen(value: str) -> str:
    """A FEN value without what the reader ignores in it: spaces and line breaks,
    and one trailing ``.``.  An empty or ``?`` value (no position) is kept, and so is
    a second trailing ``.``, which makes the FEN invalid (E10) and must stay so."""
    compact = _SPACES.sub("", value)
    if compact.endswith(".") and not compact.endswith(".."):
        compact = compact[:-1]
    return compact if compact not in ("", "?") else value


def regular_tags(tags: list[Tag], style: str | None) -> list[Tag]:
    """*tags* as canonical PDN writes them: the same tags in the same order, with
    each name the reader reads as a standard tag written as that tag's name (the
    localised ``Bianco``, ``Setup``, an entity-decoded ``R&eacute;sultat``, the
    lower-case ``event``), Result values in their normal form (:func:`regular_result`)
    and FEN values without what the reader ignores (:func:`regular_fen`).  Other
    names are kept as read.

    One case keeps an alias as written: a tag given under the standard name and
    after it under an alias (``[White "A"]`` ... ``[Bianco "B"]``).  The reader's
    checks take the last of them (B), a lookup by name the one under the standard
    name (A); written under one name, both would read B.  Kept apart, the record
    reads back as it was read.
    """
    groups: dict[str, list[Tag]] = {}
    for tag in tags:
        groups.setdefault(standard_name(tag.name).lower(), []).append(tag)
    kept: set[str] = set()
    for key, group in groups.items():
        exact = [t for t in group if t.name.lower() == key]
        if exact and group[-1].name.lower() != key:
            kept.add(key)
    out: list[Tag] = []
    for tag in tags:
        key = standard_name(tag.name).lower()
        name = tag.name if key in kept and tag.name.lower() != key else standard_name(tag.name)
        name = _STANDARD_NAMES.get(name.lower(), name)
        value = tag.value
        if key == "result":
            value = regular_result(value, style)
        elif key == "fen":
            value = regular_fen(value)
        if name == tag.name and value == tag.value:
            out.append(tag)
        else:
            out.append(Tag(name, value, tag.line, tag.column))
    return out


def _result_tags(game: Game, value: str) -> list[Tag]:
    """The tags with the (last) Result tag set to *value*, added when missing."""
    tags = list(game.tags)
    for i in range(len(tags) - 1, -1, -1):
        if standard_name(tags[i].name) == "Result":
            tags[i] = Tag(tags[i].name, value, tags[i].line, tags[i].column)
            return tags
    return [*tags, Tag("Result", value)]


def _with_gametype(tags: list[Tag], variant: str) -> list[Tag]:
    """*tags* with a GameType for *variant* added when they have none and the variant
    is not the one a reader assumes without it (international): the game was replayed
    under a variant given or inferred (W27, from algebraic squares say), and its
    moves, resolved and written in numbers, would no longer say it; or its variant was
    decided from the order of its tags (W64), which the roster order does not keep.
    (A guess the replay refuted leaves the moves as read, from which a reader guesses
    again, and no GameType.)"""
    entry = BY_NAME.get(variant)
    if entry is None or entry.name == "international":
        return tags
    if any(standard_name(tag.name) == "GameType" for tag in tags):
        return tags
    return [*tags, Tag("GameType", naming_value(entry))]


def write_canonical(
    game: Game, resolution: Resolution | None = None, options: CanonicalOptions | None = None
) -> str:
    """The canonical PDN text of *game*, ending with a newline.

    *resolution* (from :func:`pdn_tools.replay.resolve.resolve`) supplies the engine
    moves; without it every move is written as read.

    Movetext the reader could not read (:attr:`Game.unread`, E03, and what a recovery
    from broken structure skipped, E01) is written at its place, as read, and the
    variations the movetext never closed are left open
    (:class:`~pdn_tools.export.pdn.Unreads`).  Such text is what no rule of the
    format describes, so the text written is read back here: unless it gives one game
    with the same unread pieces, the same variations left open and the same numbers
    of E01 and E03 findings, and writing that game again gives the same text, the
    pieces are written together as a comment after the game's own comments, at the
    start of the movetext, and every variation is closed (their text kept, their
    errors not).

    A game that ends inside a comment or a variation never closed gets no terminator
    (it had none): the next game's tags end it when read.  Its text is then an
    :class:`OpenEnded`, which also holds the game with its variations closed, for a
    writer that puts a game without tags after it.
    """
    opts = options or CanonicalOptions()
    res = resolution or Resolution()
    text, ended = _write(game, res, opts, placed=True)
    if not (game.unread or game.open_variations):
        return text
    if not _reads_back(text, game, res, opts):
        return _write(game, res, opts, placed=False)[0]
    if ended:
        return OpenEnded(text, _write(game, res, opts, placed=False)[0])
    return text


class OpenEnded(str):
    """The canonical text of a game that ends inside a comment or a variation never
    closed (E01), with no terminator: the tags of the game written after it end it.
    ``closed`` is the same game with its variations closed, its unread pieces in one
    comment and a terminator (:func:`write_canonical`'s other form), for a file where
    a game without tags follows it, which would be read as more of it."""

    closed: str

    def __new__(cls, text: str, closed: str) -> OpenEnded:
        made = super().__new__(cls, text)
        made.closed = closed
        return made

    def __reduce__(self) -> tuple[type[OpenEnded], tuple[str, str]]:
        # Pickled with both texts (a --jobs worker renders it).
        return (OpenEnded, (str(self), self.closed))


def _reads_back(text: str, game: Game, res: Resolution, opts: CanonicalOptions) -> bool:
    """Whether *text*, written from *game* with its unread pieces placed, reads back as
    one game with them, its variations left open and the same E01 and E03 findings,
    and is written again the same."""
    from pdn_tools.pdn.reader import read_string
    from pdn_tools.replay import ReplayOptions, replay_game
    from pdn_tools.replay.resolve import resolve

    games = read_string(text)
    if len(games) != 1:
        return False
    back = games[0]
    if len(back.unread) != len(game.unread) or back.open_variations != game.open_variations:
        return False
    for code in ("E01", "E03"):
        if sum(i.code == code for i in back.issues) != sum(i.code == code for i in game.issues):
            return False
    if res.variant is None:  # the moves were written as read
        return _write(back, Resolution(refuted=res.refuted), opts, placed=True)[0] == text
    variant = res.variant.name
    replay = replay_game(back, ReplayOptions(variant=variant))
    return _write(back, resolve(back, replay, variant), opts, placed=True)[0] == text


def _write(
    game: Game, res: Resolution, opts: CanonicalOptions, *, placed: bool
) -> tuple[str, bool]:
    """The canonical text of *game*, its unread pieces *placed* or in a comment, and
    whether it ends inside a comment or variation never closed (no terminator)."""
    first_mover = _first_mover(game, res)
    writer = _Writer(game, res, opts, first_mover)
    writer.unreads.placed = placed
    chosen = target_form(game, res, opts.target) if opts.target is not None else None
    # None: no target, or canonical PDN for it (a variant it does not play ...)
    target, form = chosen if chosen is not None else (None, None)
    style = result_style(game, res)
    if target is not None:
        writer.target = target
        writer.form = form
        if target.results == "international":
            style = "international"
        writer.result_token = styled_result(game.result or "*", style) or "*"
    out = writer.out
    if not opts.strip_comments and (target is None or target.comments):
        for comment in game.preamble:
            write_comment(out, comment)
    out.flush()
    head = out.lines
    out.lines = []
    tagged = game
    if target is not None:
        end = writer.result_token
        tagged = Game()
        tagged.tags = target_tags(game, target, writer.form, res.variant)
        tagged.tags = _result_tags(tagged, end)
    else:
        tagged = Game()
        writer.algebraic = move_notation(game, res) == "algebraic"
        tagged.tags = [
            Tag(t.name, writer.fen(t.value), t.line, t.column)
            if standard_name(t.name) == "FEN"
            else t
            for t in regular_tags(game.tags, style)
        ]
        if opts.normalise_results:
            end = styled_result(game.result or "*", style) or "*"
            tagged.tags = _result_tags(tagged, end)
        else:
            written = game.terminator.text if game.terminator is not None else game.result
            end = styled_result(written or "*", style) or "*"
    if target is None and _keeps_variant(game, res):
        tags = _with_gametype(tagged.tags, written_variant(game, res))
        if tags is not tagged.tags:
            tagged = Game()
            tagged.tags = tags
    writer.unreads.tags = tagged.tags
    writer.comments(game.comments)
    if not placed:
        # The one comment goes after the game's comments, where it reads back as one
        # of them and is written again: anywhere later it would join a move's
        # comments or a NAG's, which are written in another order.
        writer.place(*_END)
    writer.nags(game.nags)
    if game.variations:
        writer.counter = _start_counter(game, first_mover)
        game.accept(writer)  # alternatives to the first move too
    writer.unreads.rest()
    ended = writer.unreads.ends()
    if not ended:
        out.token(end)
    out.flush()
    parts = [*head, *tag_lines(tagged, "canonical")]
    if parts:
        parts.append("")
    parts.extend(out.lines)
    return "\n".join(parts) + "\n", ended
