"""Write game trees as PDN text.

The writer is the reader's inverse on the model: writing a game and reading the
text back gives the same tree (tags, moves, comments, NAGs, variations, set-ups,
move numbers as recorded, terminator).  Movetext lines are wrapped between
tokens at :data:`WIDTH` columns; a comment is never split, so a comment longer
than a line stands on a line of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pdn_tools.pdn.model import Comment, Game, Node, Tag, Unread, Visitor
from pdn_tools.pdn.split import acts_on
from pdn_tools.pdn.tags import ROSTER, escape, standard_name
from pdn_tools.pdn.terminals import terminal

WIDTH = 79
TagOrder = Literal["canonical", "input"]


def tag_lines(game: Game, order: TagOrder) -> list[str]:
    """The tag section as lines: as read, or in canonical order (the roster, then
    GameType, SetUp and FEN, then the others, each group in reading order).

    In canonical order a tag whose name occurs more than once is written before the
    Result tag: readers take a name repeated after Result for the start of the next
    game's header (docs/reading.md), so the duplicates must not follow it.
    """
    tags = list(game.tags)
    if order == "canonical":
        rank = {name: i for i, name in enumerate((*ROSTER, "GameType", "SetUp", "FEN"))}
        result = rank["Result"]
        names = [standard_name(t.name) for t in tags]
        repeated = {n for n in names if names.count(n) > 1 and n != "Result"}

        def key(tag: Tag) -> tuple[int, int]:
            name = standard_name(tag.name)
            place = rank.get(name, len(rank))
            if place < result or name in repeated:
                return (0, place)
            return (1, place)

        tags.sort(key=key)
    return [f'[{t.name} "{escape(t.value)}"]' for t in tags]


class Lines:
    """Collects movetext tokens into lines of at most *width* columns.

    A token longer than the width (a long comment) stands on a line of its own.
    """

    def __init__(self, width: int = WIDTH) -> None:
        self.lines: list[str] = []
        self.current = ""
        self.width = width

    def token(self, text: str) -> None:
        if not self.current:
            self.current = text
        elif len(self.current) + 1 + len(text) <= self.width:
            self.current += " " + text
        else:
            self.lines.append(self.current)
            self.current = text

    def own_line(self, text: str) -> None:
        """A token that must start in column 1 and end its line (``%`` and ``;``)."""
        if text.startswith(";"):
            self.current = f"{self.current} {text}" if self.current else text
            self.lines.append(self.current)
            self.current = ""
            return
        self.flush()
        self.lines.append(text)

    def flush(self) -> None:
        if self.current:
            self.lines.append(self.current)
            self.current = ""


#: A separator and a square: the rest of a move whose first square a bare number
#: before it would be (grammar/pdn.lark, MOVE).
_HOP = re.compile("[-xX:\u2010-\u2015\u2212][ \t]?0?[1-9]")
#: A set-up command as the splitter takes it: on one line, no '/' inside.
_SET_UP = re.compile(r"/[^/\n]*/")
_SETUP_FEN = re.compile(r'/\s*FEN\s*"(.*)"\s*/\Z', re.S)


#: The unread pieces that are a parenthesis of a recovery (E01), written as read.
_PARENTHESES = frozenset("()")
#: An unread piece that is a result: one ignored in a variation never closed (W06).
_RESULT = re.compile(r"\*|" + terminal("RESULT").pattern)

#: The tag name a reader takes from a ``[`` where it looks for games (pdn/split.py).
_TAG_NAME = re.compile(r"\[[ \t]*([^\s\"\[\]](?:[^\"\[\]\n]*[^\s\"\[\]])?)")


def unread_text(text: str, tags: list[Tag] | None) -> str:
    """How a piece of unread movetext is written: as read, or between ``/`` and ``/``
    where, written as read, it would not read back as it did.

    The parser reads the piece as one word (E03), but where the writer puts it a
    reader looking for games could read it otherwise: a ``*`` or a result in it as
    the end of the game, a ``%`` that starts a line as a comment line; one that ends
    in a move's separator (``32x``) or starts with one and a square would make a move
    with its neighbour (``32x 2``), and a ``"`` may open a value that the next pieces close
    (``Elo "2000"]``, a tag line without its ``[``).  A ``[`` is kept as read at the
    start of the movetext (*tags* given), where such a piece stood (anywhere else the
    game would have ended before it), unless it names one of *tags* and Result is
    among them: a tag name met again after Result starts the next game.  What follows
    a ``;`` is not looked at (see :class:`Unreads`).

    Between slashes a piece is a set-up command that holds no FEN: the text kept
    whole, the game in one piece and the error the same (E03), read and written again
    as it then stands.  A piece that holds a ``/`` or a line break is written as read.
    """
    head = text.split(";", 1)[0]  # after a ';' the splitter reads nothing
    if "/" in text or "\n" in text:
        return text
    if head.startswith("[") and tags is not None:
        named = _TAG_NAME.match(head)
        names = {tag.name.lower() for tag in tags}
        if named is None or "result" not in names or named.group(1).lower() not in names:
            head = head[1:]
    joined = terminal("MOVE").match(text + " 9")
    merges = _HOP.match(text) is not None or (joined is not None and joined.end() > len(text))
    if not (merges or head[:1] in ('"', "%") or acts_on(head)):
        return text
    wrapped = f"/{text}/"
    return text if _SETUP_FEN.match(wrapped) else wrapped


class Unreads:
    """Puts a game's unread movetext (:attr:`Game.unread`) back at its place while a
    writer walks the game in source order: each piece before the first element or
    comment that stood after it in the file, the rest before the terminator.

    The pieces are written as read (:func:`unread_text`), one token each, so that
    reading the output back finds the same errors (E03, E01) again; they take no move
    number and change no move.  A piece holding a ``;`` hides the rest of its line
    from a reader looking for games, as it did where it was read: the pieces read
    after it on that line follow it, and its line ends there.  Elements without a
    position (a game built by hand) place nothing before them.

    What a recovery from broken structure (E01) skipped is written so that it is
    broken again: a ``)`` without its ``(`` before the ``(`` of a variation that
    followed it (:meth:`before_variation`), never inside one, where it would close
    it; a comment never closed (a piece that begins with ``{``) as read, with its
    lines, last; the last :attr:`Game.open_variations` variations written are left
    open (:meth:`closes`), the ``(`` of one that holds no move written as read, and
    the results ignored in them (W06) as read.  A game that ends inside a comment or
    a variation never closed gets no terminator (:meth:`ends`): it had none, and one
    written there would be read as more text of it.
    """

    __slots__ = (
        "closings",
        "ended",
        "ending",
        "kept_open",
        "next",
        "out",
        "pieces",
        "placed",
        "tags",
    )

    def __init__(self, game: Game, out: Lines) -> None:
        self.pieces: list[Unread] = game.unread
        self.next = 0
        self.out = out
        self.ended = False
        """Whether the game ends in what was written: a comment never closed, or a
        variation never closed (no terminator follows either, as none did)."""
        self.kept_open = game.open_variations
        """How many of the last variations are left open (E01)."""
        self.closings = _alternatives(game) - self.kept_open if self.kept_open else 0
        """How many more variations are closed before those left open."""
        self.tags: list[Tag] = game.tags
        """The tags written before the movetext (a piece may not repeat their names)."""
        self.placed = True
        """Each piece as a token at its place; False: all of them in one comment
        wherever the pieces are first written (the canonical writer: at the start of
        the movetext; the form that always reads back as one game)."""
        self.ending = ""
        """The last piece written when it ends the game for the splitter (a ``*`` or a
        result in a piece that holds a ``/``, written as read): no terminator follows
        it (:meth:`ends`), as none did where it was read."""

    def before(self, line: int, column: int) -> bool:
        """Write the pieces that stood before (*line*, *column*); whether any was."""
        pieces = self.pieces
        start = self.next
        if line <= 0 or start >= len(pieces):
            return False
        while self.next < len(pieces):
            piece = pieces[self.next]
            if (piece.line, piece.column) >= (line, column):
                break
            self._write()
        return self.next > start

    def before_variation(self, line: int, column: int) -> bool:
        """Before a variation whose first element or comment stands at (*line*,
        *column*): write the pieces up to the last ``)`` that stood before it (it
        stood before the variation's ``(``, as would the pieces before it); whether
        any was."""
        pieces = self.pieces
        start = self.next
        if line <= 0 or not self.placed:
            return False
        last = -1
        for i in range(start, len(pieces)):
            piece = pieces[i]
            if (piece.line, piece.column) >= (line, column):
                break
            if piece.text == ")":
                last = i
        while self.next <= last:
            self._write()
        return self.next > start

    def closes(self) -> bool:
        """Whether the variation ending now is closed: all but the last
        :attr:`Game.open_variations` written are (all of them when the pieces are not
        placed)."""
        if not self.kept_open or not self.placed:
            return True
        if self.closings > 0:
            self.closings -= 1
            return True
        self.ended = True  # the game ends inside it
        return False

    def ends(self) -> bool:
        """Whether the movetext written so far ends the game: a piece the splitter
        ends it at, or a comment or a variation never closed (written so)."""
        if self.ended:
            return True
        lines = self.out.lines
        return bool(self.ending) and not self.out.current and lines[-1] == self.ending

    def rest(self) -> bool:
        """Write every piece not written yet (before the terminator); whether any was."""
        start = self.next
        while self.next < len(self.pieces):
            self._write()
        return self.next > start

    def _write(self) -> None:
        """Write the next piece (with those it hides, if it holds a ';')."""
        pieces = self.pieces
        if not self.placed:
            # One comment: a '{' in it (of a comment never closed) written '(', as a
            # '}' is written ')', so that it holds no other error (E02).
            text = " ".join(piece.text for piece in pieces).replace("{", "(")
            self.next = len(pieces)
            write_comment(self.out, Comment(text))
            return
        piece = pieces[self.next]
        self.next += 1
        if piece.text.startswith("{"):
            # A comment never closed (E01): the rest of the game as written.  It is
            # the last piece; what follows it in the output would be in it.
            self.out.token(piece.text)
            self.ended = True
            return
        if piece.text in _PARENTHESES or _RESULT.fullmatch(piece.text):
            # A ')' without its '(', the '(' of a variation never closed (E01) or a
            # result ignored in it (W06): as read, to be unbalanced again.
            self.out.token(piece.text)
            self.ending = ""
            if piece.text == "(":
                self.ended = True  # the game ends inside it
            return
        first = not self.out.current and not self.out.lines
        text = unread_text(piece.text, self.tags if first else None)
        slash = ("/" in text or "\n" in text) and not _SET_UP.fullmatch(text)
        if slash:
            # A '/' would make a set-up with the next '/' on its line: alone on one
            # (and so is a set-up broken over lines).
            self.out.flush()
            if text[:1] in ("%", "["):
                text = " " + text  # where a '%' or '[' does not start the line
        if ";" in piece.text:
            # What follows on its line is behind the ';': written as read, and the line
            # ends there (one token, so that it reads back on one line again).
            hidden = [text]
            while self.next < len(pieces) and piece.line and pieces[self.next].line == piece.line:
                hidden.append(pieces[self.next].text)
                self.next += 1
            self.out.token(" ".join(hidden))
            self.out.flush()
            self.ending = ""
            return
        self.out.token(text)
        self.ending = text if slash and acts_on(text) else ""
        if slash:
            self.out.flush()


def _alternatives(game: Game) -> int:
    """How many variations a writer opens in *game* (every node's alternatives to its
    first line: the order of :meth:`Node.accept` does not matter for a count)."""
    count = 0
    stack: list[Node] = [game]
    while stack:
        node = stack.pop()
        children = node.variations
        if len(children) > 1:
            count += len(children) - 1
        stack.extend(children)
    return count


def write_comment(out: Lines, comment: Comment) -> None:
    """Write *comment* in its own kind (``{…}``, ``%…`` line or ``;…``)."""
    if comment.kind == "line":
        out.own_line("%" + comment.text)
    elif comment.kind == "semicolon":
        out.own_line(";" + comment.text)
    else:
        out.token("{" + comment.text.replace("}", ")") + "}")


def _comments(out: Lines, comments: Iterable[Comment], unreads: Unreads | None = None) -> None:
    for comment in comments:
        if unreads is not None:
            unreads.before(comment.line, comment.column)
        write_comment(out, comment)


def _element(out: Lines, node: Node, unreads: Unreads | None = None) -> None:
    if node.starting_comments:
        _comments(out, node.starting_comments, unreads)
    for nag in node.starting_nags:
        out.token(f"${nag}")
    if unreads is not None:
        unreads.before(node.line, node.column)
    if node.number is not None:
        dots = node.number_dots or "."
        if dots == ". ...":
            out.token(f"{node.number}.")
            out.token("...")
        else:
            out.token(f"{node.number}{dots}")
    if node.kind == "move" and node.move is not None:
        out.token(node.move.text() + (node.move.mark or ""))
    elif node.kind == "placeholder":
        out.token(node.placeholder or "--")
    elif node.kind == "setup":
        out.token(f'/FEN "{node.fen}"/')
    for nag in node.nags:
        out.token(f"${nag}")
    _comments(out, node.comments, unreads)


class _Movetext(Visitor[None]):
    """Writes the move tree as read: elements in order, alternatives in parentheses,
    the unread movetext at its place."""

    def __init__(self, out: Lines, unreads: Unreads) -> None:
        self.out = out
        self.unreads = unreads

    def visit_node(self, node: Node) -> None:
        _element(self.out, node, self.unreads)

    def begin_variation(self, first: Node) -> None:
        self.unreads.before_variation(*opening(first))
        self.out.token("(")

    def end_variation(self, first: Node) -> None:
        if self.unreads.closes():
            self.out.token(")")


def opening(first: Node) -> tuple[int, int]:
    """Where the first element or comment of the variation starting at *first*
    stands."""
    if first.starting_comments:
        comment = first.starting_comments[0]
        return comment.line, comment.column
    return first.line, first.column


def write_game(
    game: Game,
    *,
    tag_order: TagOrder = "canonical",
    terminator: Literal["asis", "star"] = "asis",
) -> str:
    """The PDN text of *game*, ending with a newline.

    ``tag_order="canonical"`` puts the seven-tag roster first, then GameType,
    SetUp and FEN, then the rest in input order; ``"input"`` keeps input order.
    ``terminator="star"`` writes ``*`` (PDN 3.0's only separator) whatever was read.
    """
    out = Lines()
    for comment in game.preamble:
        write_comment(out, comment)
    out.flush()
    head = out.lines
    out.lines = []
    unreads = Unreads(game, out)
    _comments(out, game.comments, unreads)
    for nag in game.nags:
        out.token(f"${nag}")
    game.accept(_Movetext(out, unreads))  # writes the alternatives to the first move too
    unreads.rest()
    end = "*" if terminator == "star" or game.terminator is None else game.terminator.text
    if not unreads.ends():
        out.token(end)
    out.flush()
    parts = [*head, *tag_lines(game, tag_order)]
    if parts:
        parts.append("")
    parts.extend(out.lines)
    return "\n".join(parts) + "\n"


def write_games(games: Iterable[Game], **options: str) -> Iterable[str]:
    """The PDN text of each game, separated by blank lines."""
    first = True
    for game in games:
        if not first:
            yield "\n"
        first = False
        yield write_game(game, **options)  # type: ignore[arg-type]
