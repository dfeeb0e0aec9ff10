"""Which of the splitter's chunks are games, and which findings each game carries.

The splitter (:mod:`pdn_tools.pdn.split`) cuts text wherever a game may begin or end;
this module decides what the pieces are, for the reader and for the parallel cutter
alike, so both number the games and place the findings identically:

* a chunk with a tag pair (``[Name "value"]``, or a line that begins one and breaks
  off; a name of up to 81 characters, so that the loose names the reader accepts
  with W07 and the writers write back still count, or none at all where the pair is
  a line of its own, ``[ "value"]``, as the writers write a tag whose name is empty)
  is a game, and so is a chunk
  without tags whose text is moves (a move such as ``32-28``, ``c3-d4`` or ``c3d4``, or a
  ``/FEN "…"/`` set-up, and no more words than those) or no word but a terminator
  that ends it (``1. 0-2``, a lone ``*``);
* any other chunk is text outside the games — a ``#!`` line, a line of prose, a
  README: consecutive such chunks become one W06 on the game after them (on the last
  game for text after it), never a game of their own;
* a file with no game at all gets one finding: E15 when it held such text (it is no
  PDN file), W35 when it is empty or holds only comments — not when its compressed
  data ended early (E14, E11), before any game: what followed is unknown.

Comments after a game's terminator belong to that game (W81: a final note after the
result, as many programs write it), not to the text after it:

* the comments (``{…}``, ``;`` to the end of the line) that follow the terminator
  on its line and on the lines right after it, up to the first blank line, when
  the next game's tags (or text outside the games) come after them;
* every comment after the last game, blank lines or not (nothing follows it to
  take them).

A comment after a blank line that the next game's tags follow is that game's (a
header comment); one that moves follow directly, with no tags, is the first comment
of that game.  The comments are moved, as written, from the next chunk to the end of
the game's own, so that the game reads them after its terminator: they keep their
lines and columns, and the writers put them back inside the game, before its
terminator, where reading it again finds them in the same game.

Findings of the decoder go to the game whose text holds them (those after a
terminator, on its line, to the next game, but for comments moved to the game
before); those about the file as a whole (line 1) to the first game.  A game is
handed on one chunk late, so that text after it can still join it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.source import Decoding
from pdn_tools.pdn.split import Chunk

_QUOTED_TAG = re.compile(r"\[[ \t]*[^\s\"\[\]][^\"\[\]\n]{0,80}?\"[^\"\n]*\"[ \t]*\]")
_TAG_START = re.compile(r"^[ \t]*\[[ \t]*[^\s\"\[\]][^\"\[\]\n]{0,80}?\"", re.MULTILINE)
_NAMELESS_TAG_LINE = re.compile(r"^[ \t]*\[[ \t]*\"[^\"\n]*\"[ \t]*\][ \t]*$", re.MULTILINE)
_COMMENTS = re.compile(r"\{[^}]*\}?|;[^\n]*|^%[^\n]*", re.MULTILINE)
_NUMERIC_MOVE = re.compile(r"(?<![\w/])0?([1-9]\d?)[ \t]?[-x:][ \t]?0?([1-9]\d?)(?![\d/-])")
_ALGEBRAIC_MOVE = re.compile(
    r"(?<![\w/])[a-hA-H][1-8](?:[ \t]?[-x:][ \t]?)?[a-hA-H][1-8](?!\w)"  # also a3b4
)
_SETUP = re.compile(r'/\s*FEN\s*"[^"\n]*"\s*/', re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{3,}")
_FIRST_WORDS = 40
#: The decoder's findings that end a file early (compressed data damaged or expanding
#: past the limit): what followed is unknown.
_ENDED = frozenset({"E11", "E14"})


def _moves(text: str) -> int:
    numeric = sum(1 for m in _NUMERIC_MOVE.finditer(text) if m.group(1) != m.group(2))
    return numeric + len(_ALGEBRAIC_MOVE.findall(text))


def is_game(chunk: Chunk) -> bool:
    """Whether *chunk* is a game rather than text outside the games (see above)."""
    if chunk.oversize or chunk.text is None:
        return True
    if not chunk.has_tags and not chunk.has_movetext:
        return False
    text = chunk.text
    if (chunk.has_tags and _QUOTED_TAG.search(text)) or _TAG_START.search(text):
        return True
    if chunk.has_tags and _NAMELESS_TAG_LINE.search(text):
        return True
    body = _COMMENTS.sub(" ", text)
    body, setups = _SETUP.subn(" ", body)  # a set-up command is PDN, whatever it holds
    moves = _moves(body) + setups
    words = len(_WORD.findall(body))
    if moves:
        return words <= moves
    # no move: a game only when a terminator ends it (``1. 0-2``, a lone ``*``); a
    # separator line (``=====``, ``----``), a stray Ctrl-Z or ``ok`` is no game
    return words == 0 and chunk.terminated


_BLANK_CHARS = " \t\r\n"
_LEAD_BLANKS = re.compile(r"[ \t\r\n]*")


def comment_lead(text: str, *, to_end: bool = False) -> int:
    """The length of the comments that begin *text* (the text after a terminator),
    blanks between them included, up to the first blank line (with *to_end*: past
    blank lines too); 0 when it begins with anything else.  A comment never closed
    is not taken."""
    pos = end = 0
    while True:
        blanks = _LEAD_BLANKS.match(text, pos)
        at = blanks.end() if blanks is not None else pos
        if not to_end and text.count("\n", end, at) >= 2:
            return end  # a blank line: what follows is the next game's
        if text.startswith("{", at):
            close = text.find("}", at)
            if close < 0:
                return end
            pos = end = close + 1
        elif text.startswith(";", at):
            close = text.find("\n", at)
            pos = end = close if close >= 0 else len(text)
        else:
            return end


def _past_escape_lines(text: str) -> str:
    """*text* without the blanks and the ``%`` escape lines (a ``%`` at the start of
    a line, to its end) that begin it; *text* begins where a comment ended, so a ``%``
    at its very start is on that comment's line and no escape line."""
    pos = 0
    while True:
        blanks = _LEAD_BLANKS.match(text, pos)
        at = blanks.end() if blanks is not None else pos
        if not (text.startswith("%", at) and at > 0 and text[at - 1] == "\n"):
            return text[at:]
        close = text.find("\n", at)
        if close < 0:
            return ""
        pos = close


def _after(line: int, column: int, text: str) -> tuple[int, int]:
    """The line and column (from 0) just after *text*, which begins at *line*, *column*."""
    newlines = text.count("\n")
    if not newlines:
        return line, column + len(text)
    return line + newlines, len(text) - text.rfind("\n") - 1


def _take_lead(held: Record, chunk: Chunk, decoding: Decoding, *, game: bool, last: bool) -> None:
    """Move the comments that begin *chunk* to the end of *held*'s game, which they
    follow (see above; *game*: *chunk* is a game's, *last*: it holds nothing but
    comments and blanks, with no game after them), with a W81 on that game."""
    before = held.chunk
    text = chunk.text
    if (
        not before.terminated
        or before.text is None
        or text is None
        or chunk.line != before.end_line
    ):
        return
    size = comment_lead(text, to_end=last)
    lead, rest = text[:size], text[size:]
    after = rest.lstrip(_BLANK_CHARS)
    blank_line = rest.count("\n", 0, len(rest) - len(after)) >= 2
    # '%' escape lines between the comments and the next game's tags change nothing:
    # they are the next game's (written before its tags), the comments the game's before.
    tags_after = _past_escape_lines(rest).startswith("[")
    if not size or not (last or not game or blank_line or tags_after):
        return  # no comment, or one that moves follow: the next game's first
    skip = len(lead) - len(lead.lstrip(_BLANK_CHARS))
    first_line, first_column = _after(chunk.line, chunk.column, lead[:skip])
    end_line, end_column = _after(chunk.line, chunk.column, lead)
    before.text += lead
    before.end_line = max(before.end_line, end_line)
    moved = [i for i in chunk.issues if (i.line, i.column) <= (end_line, end_column)]
    chunk.issues = [i for i in chunk.issues if (i.line, i.column) > (end_line, end_column)]
    held.after.extend(decoding.take(end_line, end_column))
    held.after.extend(moved)
    held.after.append(
        Issue(
            "W81",
            "comment after the terminator read as part of this game",
            first_line,
            first_column + 1,
        )
    )
    chunk.text = rest
    chunk.line, chunk.column = end_line, end_column
    blanks = len(rest) - len(rest.lstrip(_BLANK_CHARS))
    if blanks == len(rest):  # nothing left: a blank chunk begins where it begins
        chunk.first_line, chunk.first_column = end_line, end_column
    else:
        chunk.first_line, chunk.first_column = _after(end_line, end_column, rest[:blanks])


def _visible_text(chunk: Chunk) -> bool:
    return bool(chunk.text and chunk.text.strip())


class Record:
    """A game chunk with the findings the reader puts before and after its own.

    ``before`` holds the decoder's findings on its lines (and, for the first game,
    those about the file and the text before it); ``after`` those about text that
    follows the game.
    """

    index: int
    chunk: Chunk
    before: list[Issue]
    after: list[Issue]

    __slots__ = ("after", "before", "chunk", "index")

    def __init__(
        self,
        index: int,
        chunk: Chunk,
        before: list[Issue] | None = None,
        after: list[Issue] | None = None,
    ) -> None:
        self.index = index
        self.chunk = chunk
        self.before = [] if before is None else before
        self.after = [] if after is None else after

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.index, self.chunk, self.before, self.after) == (
            other.index,
            other.chunk,
            other.before,
            other.after,
        )

    def __repr__(self) -> str:
        return (
            f"Record(index={self.index!r}, "
            f"chunk={self.chunk!r}, "
            f"before={self.before!r}, "
            f"after={self.after!r})"
        )

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Record, (self.index, self.chunk, self.before, self.after))


class Outcome:
    """What a whole file gave: its number of games and, when it has none, its findings."""

    games: int
    issues: list[Issue]

    __slots__ = ("games", "issues")

    def __init__(
        self,
        games: int = 0,
        issues: list[Issue] | None = None,
    ) -> None:
        self.games = games
        self.issues = [] if issues is None else issues

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.games, self.issues) == (other.games, other.issues)

    def __repr__(self) -> str:
        return f"Outcome(games={self.games!r}, issues={self.issues!r})"

    def __reduce__(self) -> tuple[type[Outcome], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Outcome, (self.games, self.issues))


class _Outside:
    """A run of consecutive chunks of text outside the games, reported once."""

    def __init__(self, chunk: Chunk) -> None:
        self.line = chunk.first_line
        self.column = chunk.first_column
        self.end_line = _last_line(chunk)
        self.first = " ".join((chunk.text or "").split())[:_FIRST_WORDS]

    def add(self, chunk: Chunk) -> None:
        self.end_line = max(self.end_line, _last_line(chunk))

    def issue(self, where: str) -> Issue:
        lines = self.end_line - self.line + 1
        return Issue(
            "W06",
            f"text {where} skipped ({lines} line(s), not PDN): {self.first!r}",
            self.line,
            self.column + 1,
        )


def _last_line(chunk: Chunk) -> int:
    """The last line that holds text of *chunk*."""
    return chunk.line + (chunk.text or "").rstrip().count("\n")


def _end(chunk: Chunk) -> tuple[int, int]:
    """The line of the last character of *chunk*, and its column (from 1) when the
    chunk's text is known to end there (0: the whole line).  The decoder's findings
    after it on that line — a byte order mark glued to the terminator, say — belong
    to the text that follows, so to the next game."""
    last = max(chunk.end_line, chunk.line)
    text = chunk.text
    if text is None or not text or text.endswith("\n"):
        return last, 0
    newlines = text.count("\n")
    if chunk.line + newlines != last:
        return last, 0
    if newlines:
        return last, len(text) - text.rfind("\n") - 1
    return last, chunk.column + len(text)


def records(
    chunks: Iterable[Chunk],
    decoding: Decoding,
    outcome: Outcome,
    *,
    first_index: int = 0,
    last: bool = True,
) -> Iterator[Record]:
    """The games among *chunks*, numbered from *first_index* + 1, with their findings
    (see above).

    When the chunks run out, *outcome* holds the number of games and, for a file
    without any, the findings about it.  With *last* false the chunks are a part of a
    file that goes on after them, cut just after a game (:mod:`pdn_tools.run.spans`):
    what belongs to the file's end (the decoder's remaining findings, those of a file
    without games) is then left to the part that ends the file.
    """
    pending: list[Issue] = []  # findings for the next game
    held: Record | None = None
    outside: _Outside | None = None
    prose: str | None = None  # the start of the first text that is not PDN
    index = first_index

    def flush(last: bool = False) -> None:
        """Report the run of text outside the games: on the next game, or on the
        last one when no game follows."""
        nonlocal outside
        if outside is not None:
            if held is None:
                pending.append(outside.issue("before the first game"))
            elif last:
                held.after.append(outside.issue("after the last game"))
            else:
                pending.append(outside.issue("before this game"))
            outside = None

    for chunk in chunks:
        game = is_game(chunk)
        if held is not None and outside is None and (not game or chunk.has_tags):
            ends = not game and not chunk.has_tags and not chunk.has_movetext
            _take_lead(held, chunk, decoding, game=game, last=ends)
        if not game:
            if chunk.has_tags or chunk.has_movetext:
                if outside is None:
                    outside = _Outside(chunk)
                    prose = outside.first if prose is None else prose
                else:
                    outside.add(chunk)
                continue
            # Comments, whitespace or skipped text with no game after them.
            flush()
            leftovers = list(chunk.issues)
            if _visible_text(chunk):
                leftovers.append(
                    Issue(
                        "W06",
                        "comment or text after the last game",
                        chunk.first_line,
                        chunk.first_column + 1,
                    )
                )
            (held.after if held is not None else pending).extend(leftovers)
            continue
        flush()
        index += 1
        record = Record(index, chunk)
        found = decoding.take(*_end(chunk))
        record.before = found + pending if pending else found
        pending = []
        if held is not None:
            yield held
        held = record
    if not last:
        if outside is not None or pending or held is None:
            # Its findings would belong to the next part's first game.
            raise ValueError("a part of a file must end just after a game")
        outcome.games = index
        yield held
        return
    flush(last=True)
    outcome.games = index
    if held is not None:
        held.after.extend(decoding.take())
        yield held
        return
    outcome.issues = decoding.take()
    if prose is not None:
        outcome.issues.append(
            Issue(
                "E15",
                f"no PDN game in this file: its text reads as prose, not as tag pairs "
                f"and moves (it begins {prose!r})",
                1,
                1,
            )
        )
    else:
        outcome.issues.extend(pending)
        # Input not read (binary), or compressed data that ended early (damaged: E14;
        # expanding past the limit: E11) before any game: the file may well hold games.
        if not decoding.binary and not any(i.code in _ENDED for i in outcome.issues):
            outcome.issues.append(Issue("W35", "file holds no game", 1, 1))
