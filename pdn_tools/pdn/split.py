"""Text to game chunks: a cheap scanner that finds where each game begins and ends.

pdn-format.md §3.5.  The scanner knows just enough PDN to be safe: comments
(``{…}``, ``%`` lines, ``;`` to the end of the line), tags (whose values may hold
anything), set-up commands and variation depth.  A terminator at depth 0 ends a
game; a tag opening after movetext ends a game that forgot its terminator (the
reader reports W01); text after a terminator that cannot start a game is skipped
to the next tag opening (W06).  Blank lines are not boundaries.

It works on the pieces of :mod:`pdn_tools.pdn.source` and holds only the current
game's text, so a file of any size streams through in constant memory; a game
larger than the size limit is scanned to its end but not kept (E11).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.source import Piece
from pdn_tools.pdn.terminals import pattern, terminal

#: How many following lines a tag value may continue onto (FEN values broken over lines).
MAX_TAG_LINES = 8


class Chunk:
    """The text of one game and what the scanner saw of it.

    ``line``/``column`` locate the first character (1-based line, 0-based column);
    ``first_line``/``first_column`` the first one that is not blank (where a game
    begins: a chunk begins with the blank lines after the terminator before it),
    the same as ``line``/``column`` for a blank chunk.
    ``text`` is None when the game was larger than the limit.  ``terminated`` says a
    terminator ended it; ``next_game`` that a following game's tags ended it.
    """

    line: int
    column: int
    text: str | None
    end_line: int
    terminated: bool
    next_game: bool
    has_tags: bool
    has_movetext: bool
    oversize: bool
    max_depth: int
    unclosed_comment: bool
    issues: list[Issue]
    first_line: int
    first_column: int

    __slots__ = (
        "column",
        "end_line",
        "first_column",
        "first_line",
        "has_movetext",
        "has_tags",
        "issues",
        "line",
        "max_depth",
        "next_game",
        "oversize",
        "terminated",
        "text",
        "unclosed_comment",
    )

    def __init__(
        self,
        line: int,
        column: int,
        text: str | None = None,
        end_line: int = 0,
        terminated: bool = False,
        next_game: bool = False,
        has_tags: bool = False,
        has_movetext: bool = False,
        oversize: bool = False,
        max_depth: int = 0,
        unclosed_comment: bool = False,
        issues: list[Issue] | None = None,
        first_line: int = 0,
        first_column: int = 0,
    ) -> None:
        self.line = line
        self.column = column
        self.text = text
        self.end_line = end_line
        self.terminated = terminated
        self.next_game = next_game
        self.has_tags = has_tags
        self.has_movetext = has_movetext
        self.oversize = oversize
        self.max_depth = max_depth
        self.unclosed_comment = unclosed_comment
        self.issues = [] if issues is None else issues
        self.first_line = first_line
        self.first_column = first_column

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chunk) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.line,
            self.column,
            self.text,
            self.end_line,
            self.terminated,
            self.next_game,
            self.has_tags,
            self.has_movetext,
            self.oversize,
            self.max_depth,
            self.unclosed_comment,
            self.issues,
            self.first_line,
            self.first_column,
        ) == (
            other.line,
            other.column,
            other.text,
            other.end_line,
            other.terminated,
            other.next_game,
            other.has_tags,
            other.has_movetext,
            other.oversize,
            other.max_depth,
            other.unclosed_comment,
            other.issues,
            other.first_line,
            other.first_column,
        )

    def __repr__(self) -> str:
        return (
            f"Chunk(line={self.line!r}, "
            f"column={self.column!r}, "
            f"text={self.text!r}, "
            f"end_line={self.end_line!r}, "
            f"terminated={self.terminated!r}, "
            f"next_game={self.next_game!r}, "
            f"has_tags={self.has_tags!r}, "
            f"has_movetext={self.has_movetext!r}, "
            f"oversize={self.oversize!r}, "
            f"max_depth={self.max_depth!r}, "
            f"unclosed_comment={self.unclosed_comment!r}, "
            f"issues={self.issues!r}, "
            f"first_line={self.first_line!r}, "
            f"first_column={self.first_column!r})"
        )

    def __reduce__(self) -> tuple[type[Chunk], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Chunk,
            (
                self.line,
                self.column,
                self.text,
                self.end_line,
                self.terminated,
                self.next_game,
                self.has_tags,
                self.has_movetext,
                self.oversize,
                self.max_depth,
                self.unclosed_comment,
                self.issues,
                self.first_line,
                self.first_column,
            ),
        )


class _Builder:
    """Accumulates the text of the chunk being scanned."""

    def __init__(self, line: int, column: int, limit: int) -> None:
        self.chunk = Chunk(line, column)
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.depth = 0
        self.nbsp_reported = False
        self.tag_names: set[str] = set()
        # Where the first text that is not blank lies, found as text is added (also
        # when the chunk is over the size limit and its text is not kept): line ends
        # before it, and its offset in its line (from the chunk's column on line 0).
        self.found = False
        self.lead_lines = 0
        self.lead_column = 0

    def _lead(self, text: str) -> None:
        """Note where the first text that is not blank lies, if *text* holds it."""
        blank = _BLANK.match(text)
        end = blank.end() if blank is not None else 0
        newlines = text.count("\n", 0, end)
        if newlines:
            self.lead_lines += newlines
            self.lead_column = end - (text.rfind("\n", 0, end) + 1)
        else:
            self.lead_column += end
        self.found = end < len(text)

    def repeats_header(self, name: str) -> bool:
        """Whether tag *name* starts a new header: seen already, after a Result tag.

        Header-only records are often followed directly by the next header; a
        second ``Event`` after ``Result`` begins a new game, while a repeated tag in
        the middle of one header (two ``Event`` tags before ``Result``) does not,
        nor does a second ``Result`` (a header does not start with it; the two are
        kept, with W05, as any duplicate tag).
        """
        key = name.lower()
        repeated = key in self.tag_names and "result" in self.tag_names and key != "result"
        if not self.chunk.oversize:
            # Over the size limit the chunk keeps no text, and no more names either:
            # the names kept are bounded by the limit, whatever a hostile header holds.
            self.tag_names.add(key)
        return repeated

    def add(self, text: str) -> None:
        if not self.found:
            self._lead(text)
        if self.chunk.oversize:
            return
        self.size += len(text)
        if self.size > self.limit:
            self.chunk.oversize = True
            self.parts.clear()
            return
        self.parts.append(text)

    def finish(self, end_line: int) -> Chunk:
        chunk = self.chunk
        chunk.end_line = end_line
        if self.found:
            chunk.first_line = chunk.line + self.lead_lines
            chunk.first_column = self.lead_column + (0 if self.lead_lines else chunk.column)
        else:
            chunk.first_line, chunk.first_column = chunk.line, chunk.column
        chunk.text = None if chunk.oversize else "".join(self.parts)
        return chunk

    def cut(self, text: str, end_line: int) -> Chunk:
        """Finish the chunk with *text* because the next game's tags begin here."""
        self.add(text)
        self.chunk.next_game = True
        return self.finish(end_line)

    def is_blank(self) -> bool:
        return not self.chunk.oversize and not any(_visible(p) for p in self.parts)


def _special() -> re.Pattern[str]:
    result = pattern("RESULT")
    return re.compile(
        r"(?P<brace>\{)"
        r"|(?P<double>\[(?=\[))"
        r"|(?P<tag>\[(?=[^\"\u201c\u201d\[\]\n]*+(?:[\"\u201c\u201d]|\]|$)))"
        r"|(?P<tagnb>^[ \t]*[A-Z][A-Za-z0-9_]*[ \t]+\"[^\"\n]*\"[ \t]*\])"
        r"|(?P<semi>;)"
        r"|(?P<lpar>\()"
        r"|(?P<rpar>\))"
        r"|(?P<setup>/[^/\n]*/)"
        r"|(?P<star>(?<![0-9A-Za-z!?)\]])\*)"
        rf"|(?P<result>(?<![0-9A-Za-z\-/:.])(?:{result}))"
        r"|(?P<literal>\\[rn])"
    )


_SPECIAL = _special()


def acts_on(text: str) -> bool:
    """Whether the splitter acts on something in *text* standing alone: a tag's ``[``,
    a terminator (``*``, a result), a ``;`` comment, a set-up, a literal ``\\r``.
    A word the parser reads as unrecognised text (E03) may hold one; written back
    elsewhere, it could then end the game or begin the next one."""
    return _SPECIAL.search(text) is not None


#: Where a match of _SPECIAL can begin, but for a result written with a dash or as
#: 0.5-0.5 and a tag line without '[' (only at the start of a line): the characters
#: its other branches start with (a '/' of 1/2-1/2 one after the start).
_STARTS = re.compile(r"[{\[;()/*\\\u00bd]")
#: The dash of a result ('1-0', '0 - 2' ...): a superset of the result branch's
#: digit forms, found by a search for a literal first character, which skips ahead
#: in C where the alternation of _SPECIAL tries every branch at every position.
_QUICK_DASH = re.compile(r"-(?:(?<=[012]-)|(?<=[012] -)) ?[012](?:(?![0-9])|(?=0*1\.))")
_TAG = terminal("TAG")
_FULL_TAG_LINE = re.compile(r"[ \t]*\[[A-Z][A-Za-z0-9_]*[ \t]+\"[^\"\n]*\"[ \t]*\][ \t]*$")


def ends_comment(line: str) -> bool:
    """Whether *line* (a whole line) ends a comment left open before it: a tag line
    that the scanner takes for the next game's, in a comment never closed too."""
    return _FULL_TAG_LINE.match(line) is not None


#: A '[' that may open a tag: the name runs up to a quote (``"`` or a curly double
#: quote, as in the grammar's TAG), a ']' or the end of the line.  (One possessive
#: repetition: a '[' followed by many blanks and another '[' is refused in one pass,
#: where a blank repetition before a name repetition backtracked.)
_TAG_OPENING = re.compile(r"\[(?=[^\"\u201c\u201d\[\]\n]*+(?:[\"\u201c\u201d]|\]|$))")
#: From just after a '[': its name ends at a quote (a value follows) on this line.
_TO_QUOTE = re.compile(r'[^"\u201c\u201d\[\]\n]*+["\u201c\u201d]')
#: Only blanks to the end of the text (``not text[at:].strip()``, without a copy).
_REST_BLANK = re.compile(r"\s*+\Z")
_PLAIN_TAG_LINE = re.compile(r"[ \t]*\[([A-Za-z][A-Za-z0-9_]*)[ \t]+\"[^\"\\\n]*\"\]\s*\Z")
#: A tag's name as the reader takes it: everything up to its value, loose names with
#: spaces included ('[Black Elo "…"]' is not a second Black tag).
_TAG_NAME = re.compile(
    r"\[[ \t]*([^\s\"\u201c\u201d\[\]](?:[^\"\u201c\u201d\[\]\n]*[^\s\"\u201c\u201d\[\]])?)"
)
_CAN_START = re.compile(r"[0-9{(/$;\[%]|[a-hA-H][1-8]|-|\.\.\.")
_BLANK = re.compile(r"(?:\s|\\[rn])*")


class _Specials:
    """``_SPECIAL.search(text, pos)`` over one line, for increasing *pos*, in time
    linear in the line's length.

    A search of _SPECIAL itself tries every branch at every position, which is slow
    over long plain movetext; and a line that holds many specials (a header on one
    line, clock comments after every move) would be searched again from each.  So
    the search starts where a match can first begin: at a character some branch
    starts with, two before a result's dash, or at '0.5'.  The positions of the next
    dash and '0.5' are kept while the search has not passed them.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.dash = -1  # the next result dash at or after the last search, or len
        self.half = -1  # the next '0.5' likewise

    def search(self, pos: int) -> re.Match[str] | None:
        text = self.text
        if pos == 0 and '"' in text:
            first = _SPECIAL.match(text)  # a tag line without '[' starts at 0 only
            if first is not None:
                return first
        end = len(text)
        if self.dash < pos:
            dash = _QUICK_DASH.search(text, pos)
            self.dash = dash.start() if dash is not None else end
        if self.half < pos:
            half = text.find("0.5", pos)
            self.half = half if half >= 0 else end
        start = min(self.dash - 2, self.half)
        found = _STARTS.search(text, pos)
        if found is not None:
            start = min(start, found.start() - 1)
        return _SPECIAL.search(text, max(pos, start)) if start < end else None


def _plain_line(text: str) -> bool:
    """Whether the line *text* holds nothing :data:`_SPECIAL` finds (the quick test that
    most movetext lines pass)."""
    return (
        _STARTS.search(text) is None
        and _QUICK_DASH.search(text) is None
        and "0.5" not in text
        and '"' not in text
    )


def _visible(text: str) -> bool:
    """Whether *text* holds more than whitespace and literal ``\\r``/``\\n`` pairs."""
    return _BLANK.fullmatch(text) is None


#: The message of the once-per-file finding about literal ``\r``/``\n`` characters.
LITERAL_MESSAGE = "literal '\\r' or '\\n' characters read as whitespace (reported once per file)"


def split_chunks(
    pieces: Iterable[Piece],
    max_chars: int = 2_000_000,
    max_depth: int = 100,
    *,
    literal_reported: bool = False,
) -> Iterator[Chunk]:
    """Cut the text of *pieces* into game chunks, in order.

    *literal_reported* says that the file's literal ``\\r``/``\\n`` finding was made
    before *pieces* (they continue a file at a game boundary:
    :mod:`pdn_tools.run.spans`).
    """
    source = iter(pieces)
    pushed: deque[Piece] = deque()

    def next_piece() -> Piece | None:
        if pushed:
            return pushed.popleft()
        return next(source, None)

    in_comment = False
    in_junk = False
    # literal_reported: literal \r / \n artefacts are reported once per file
    cur: _Builder | None = None
    last_line = 1

    def start(line: int, column: int) -> _Builder:
        return _Builder(line, column, max_chars)

    while (piece := next_piece()) is not None:
        text = piece.text
        line = piece.line
        last_line = line
        pos = 0
        if cur is None:
            cur = start(line, piece.column)
        take_from = 0  # start of the text of this piece not yet added to the chunk
        specials: _Specials | None = None
        # A tag whose value opened on this text was not closed (on it or on the lines
        # joined after it): every later '[' of the text whose name ends at a quote
        # fails too, so it is not matched again (see below).
        value_unclosed = False

        if not in_comment and not in_junk and piece.column == 0:
            if text.startswith("%"):
                cur.add(text + ("\n" if piece.ends_line else ""))
                continue
            # The common header line, one plain tag on its own: no need to scan it.
            plain = _PLAIN_TAG_LINE.match(text)
            if (
                plain is not None
                and not cur.chunk.has_movetext
                and not cur.repeats_header(plain.group(1))
            ):
                cur.chunk.has_tags = True
                cur.add(text + ("\n" if piece.ends_line else ""))
                continue
            # Otherwise (a repeated tag after Result starts the next header) the
            # general path below handles the line.
        if "\xa0" in text and not cur.nbsp_reported:
            cur.nbsp_reported = True
            cur.chunk.issues.append(
                Issue(
                    "W31",
                    "no-break space read as a space",
                    line,
                    piece.column + text.index("\xa0") + 1,
                )
            )

        while pos < len(text):
            if in_comment:
                close = text.find("}", pos)
                if close < 0:
                    if pos == 0 and _FULL_TAG_LINE.match(text):
                        # A complete tag line inside a comment: the comment was never
                        # closed.  Resynchronise here so the next game survives.
                        cur.chunk.unclosed_comment = True
                        cur.chunk.next_game = True
                        yield cur.finish(line - 1)
                        cur = start(line, piece.column)
                        in_comment = False
                        continue
                    pos = len(text)
                    break
                in_comment = False
                pos = close + 1
                continue
            if in_junk:
                opening = _TAG_OPENING.search(text, pos)
                if opening is None:
                    pos = take_from = len(text)
                    break
                in_junk = False
                pos = take_from = opening.start()
                cur.chunk.line = line
                cur.chunk.column = piece.column + pos
                continue

            if pos == 0 and _plain_line(text):
                # Plain movetext (the common case): nothing can end or start a game here.
                if not cur.chunk.has_movetext and _visible(text):
                    cur.chunk.has_movetext = True
                pos = len(text)
                break
            if specials is None:  # made once per line, when needed
                specials = _Specials(text)
            match = specials.search(pos)
            end = match.start() if match else len(text)
            if not cur.chunk.has_movetext and end > pos and _visible(text[pos:end]):
                cur.chunk.has_movetext = True
            if match is None:
                pos = len(text)
                break
            kind = match.lastgroup
            if kind == "brace":
                in_comment = True
                pos = match.end()
            elif kind == "tag":
                at = match.start()
                named = _TAG_NAME.match(text, at)
                if (
                    named is not None
                    and cur.repeats_header(named.group(1))
                    and not (cur.chunk.has_movetext)
                ):
                    # A header-only record followed directly by the next header.
                    yield cur.cut(text[take_from:at], line)
                    cur = start(line, piece.column + at)
                    cur.repeats_header(named.group(1))
                    take_from = at
                if cur.chunk.has_movetext:
                    yield cur.cut(text[take_from:at], line)
                    cur = start(line, piece.column + at)
                    take_from = at
                if value_unclosed and _TO_QUOTE.match(text, at + 1) is not None:
                    # An earlier '[' of this text opened a value that no quote closes,
                    # on this line or on the lines joined to it.  This value opens after
                    # that one, at a quote where the earlier value's scan also stood
                    # between two of its steps (any quote inside a value, '"' or curly,
                    # is one, as the escaped one '\"' ends one), and the TAG pattern's
                    # value steps from there on are the same, whichever quote opened
                    # the value: it is not closed either.  Matching it
                    # again would scan the rest of the line once per '[' (quadratic).
                    pos = at + 1
                    continue
                tag = _TAG.match(text, at)
                if tag is None and _REST_BLANK.match(text, at + 1) is not None:
                    nxt = next_piece()
                    if nxt is not None:
                        pushed.appendleft(nxt)
                    if nxt is None or nxt.text.lstrip().startswith("["):
                        # A line holding only '[' (an exporter artefact): skip it.
                        cur.chunk.issues.append(
                            Issue(
                                "W06",
                                "a line holding only '[' skipped",
                                line,
                                piece.column + at + 1,
                            )
                        )
                        cur.add(text[take_from:at])
                        pos = take_from = at + 1
                        continue
                if tag is not None:
                    pos = tag.end()
                    cur.chunk.has_tags = True
                    continue
                # The tag may continue on the next lines (a FEN broken over lines, a
                # tag split after its '[').  Look ahead a few lines.
                joined = text[at:]
                extra: list[Piece] = []
                found = None
                before = piece
                while len(extra) < MAX_TAG_LINES:
                    nxt = next_piece()
                    if nxt is None:
                        break
                    extra.append(nxt)
                    if (
                        before.ends_line
                        and nxt.text.lstrip().startswith("[")
                        and not (joined.strip() == "[" or joined.rstrip().endswith("["))
                    ):
                        break
                    joined += ("\n" if before.ends_line else "") + nxt.text
                    before = nxt
                    found = _TAG.match(joined)
                    if found is not None:
                        break
                if found is None:
                    # A broken tag: the parser reports it; it does not end the header.
                    pushed.extendleft(reversed(extra))
                    if _TO_QUOTE.match(text, at + 1) is not None and "\n" not in text:
                        value_unclosed = True
                    pos = at + 1
                    continue
                # Consume the pieces the tag spans; resume in the last one.
                newline = "\n" if piece.ends_line else ""
                cur.add(text[take_from:] + newline)
                consumed = len(text) - at + len(newline)
                for nxt in extra[:-1]:
                    newline = "\n" if nxt.ends_line else ""
                    cur.add(nxt.text + newline)
                    consumed += len(nxt.text) + len(newline)
                last = extra[-1]
                offset = found.end() - consumed
                cur.chunk.has_tags = True
                text, line, piece = last.text, last.line, last
                last_line = line
                pos, take_from = offset, 0
                value_unclosed = False
                continue
            elif kind == "double":
                # '[[Event …' : the first '[' is an exporter artefact; skip it.
                cur.chunk.issues.append(
                    Issue("W06", "doubled '[' skipped", line, piece.column + match.start() + 1)
                )
                cur.add(text[take_from : match.start()])
                pos = take_from = match.end()
            elif kind == "tagnb":
                # A tag line that lost its '[' (the parser reports W09).
                if cur.chunk.has_movetext:
                    yield cur.cut(text[take_from:pos], line)
                    cur = start(line, piece.column + pos)
                    take_from = pos
                cur.chunk.has_tags = True
                pos = match.end()
            elif kind == "semi":
                pos = len(text)
            elif kind == "lpar":
                cur.chunk.has_movetext = True
                cur.depth += 1
                cur.chunk.max_depth = max(cur.chunk.max_depth, cur.depth)
                pos = match.end()
            elif kind == "rpar":
                cur.chunk.has_movetext = True
                cur.depth = max(0, cur.depth - 1)
                pos = match.end()
            elif kind == "setup":
                cur.chunk.has_movetext = True
                pos = match.end()
            elif kind == "literal":
                if not literal_reported:
                    literal_reported = True
                    cur.chunk.issues.append(
                        Issue(
                            "W06",
                            LITERAL_MESSAGE,
                            line,
                            piece.column + match.start() + 1,
                        )
                    )
                pos = match.end()
            else:  # star or result: a terminator at depth 0
                if cur.depth > 0:
                    pos = match.end()
                    continue
                stop = match.end()
                if kind == "result" and stop < len(text) and text[stop].isdigit():
                    cur.chunk.issues.append(
                        Issue(
                            "W05",
                            "result glued to the next game's move number; split",
                            line,
                            piece.column + stop + 1,
                        )
                    )
                cur.add(text[take_from:stop])
                cur.chunk.terminated = True
                cur.chunk.has_movetext = True
                yield cur.finish(line)
                cur = start(line, piece.column + stop)
                pos = take_from = stop
                rest = _BLANK.match(text, pos)
                after = rest.end() if rest else pos
                if after < len(text) and not _CAN_START.match(text, after):
                    in_junk = True
                    word = text[after:].split()[0]
                    cur.chunk.issues.append(
                        Issue(
                            "W06",
                            f"text after the terminator skipped: {word[:40]!r}",
                            line,
                            piece.column + after + 1,
                        )
                    )
                    pos = take_from = after
        if not in_junk:
            cur.add(text[take_from:] + ("\n" if piece.ends_line else ""))

    if cur is not None and not cur.is_blank():
        if in_comment:
            cur.chunk.unclosed_comment = True
        yield cur.finish(last_line)
    elif cur is not None and cur.chunk.issues:
        # Only junk or comments at the very end: hand on the findings in an empty chunk.
        yield cur.finish(last_line)
