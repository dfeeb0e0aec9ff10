"""Game chunk to game tree: parse with the Lark grammar, then build the model.

The grammar gives a flat list of elements with nested variations; this module
decides what each element means and where it attaches, and records every
deviation of pdn-format.md §12 as an :class:`~pdn_tools.diagnostics.Issue` on the
game.  It knows nothing of the rules: squares are checked for spelling only.

Variations are built without recursion (an explicit stack), and the splitter
guarantees a bounded nesting depth, so hostile input cannot exhaust the stack.
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple, cast, final

from pdn_tools.diagnostics import STRICT_EXEMPT, Issue, Severity
from pdn_tools.pdn.commands import unreadable
from pdn_tools.pdn.gametype import (
    BY_NUMBER,
    SUPPORTED,
    TITLES,
    board_evidence,
    infer_variant,
    read_gametype,
)
from pdn_tools.pdn.model import (
    FORCED_NAG,
    LARGEST_NAG,
    MARK_TO_NAG,
    Comment,
    Game,
    MoveText,
    Node,
    ReadOptions,
    Span,
    Tag,
    Terminator,
    Unread,
)
from pdn_tools.pdn.ownership import ReadGame
from pdn_tools.pdn.results import read_result
from pdn_tools.pdn.split import Chunk
from pdn_tools.pdn.tags import (
    date_is_standard,
    date_range,
    date_readings,
    ends_in_backslash,
    normalise_name,
    split_tag,
    standard_name,
    unescape,
)
from pdn_tools.pdn.terminals import run_items, terminal

#: At most this many unrecognised-text errors are listed per game; the rest are counted.
MAX_JUNK_ISSUES = 10
_NAG_DIGITS = 19
"""``$`` and 18 digits: a NAG this short is within :data:`LARGEST_NAG` (the hot loop
reads it without the check)."""

_SQUARE = re.compile(r"[0-9]+|[a-hA-H][1-8]")
_MARK = re.compile(r"(?:[!?]+|\([!?]+\)|\*|[\u25a1\u2a00])\Z")
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212")
_SETUP = re.compile(r'/\s*FEN\s*"(.*)"\s*/\Z', re.S)
_SYNTAX_ERRORS = frozenset({"E01", "E02", "E03", "E04"})
#: A word no MOVE token takes that is a numeric move with a malformed square: one of
#: three digits or of zeros (``0-5``, ``100-5``), or three digits alone (``328``: not
#: the two squares of the four-digit form, W13).
_MALFORMED_MOVE = re.compile(r"[0-9]{3}|[0-9]{1,3}(?:[-xX:][0-9]{1,3})+")


class _Level:
    """Building state of one line of play (the main line or a variation)."""

    current: Node
    #: the level's root, held here because nodes hold their parents only weakly
    root: Node | None
    last: Node | None
    number: tuple[int, str, int, int] | None
    skip_first: bool
    before: list[Comment]
    #: NAGs before the first element of a variation, for its first node
    before_nags: list[int]
    deferred: list[Node]
    in_variation: bool
    #: results ignored in this variation (W06), kept should it never be closed
    results: list[Unread]

    def __init__(
        self,
        current: Node,
        root: Node | None = None,
        last: Node | None = None,
        number: tuple[int, str, int, int] | None = None,
        skip_first: bool = False,
        before: list[Comment] | None = None,
        deferred: list[Node] | None = None,
        in_variation: bool = False,
        results: list[Unread] | None = None,
        before_nags: list[int] | None = None,
    ) -> None:
        self.current = current
        self.root = root
        self.last = last
        self.number = number
        self.skip_first = skip_first
        self.before = [] if before is None else before
        self.deferred = [] if deferred is None else deferred
        self.in_variation = in_variation
        self.results = [] if results is None else results
        self.before_nags = [] if before_nags is None else before_nags

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Level) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.current,
            self.root,
            self.last,
            self.number,
            self.skip_first,
            self.before,
            self.deferred,
            self.in_variation,
            self.results,
            self.before_nags,
        ) == (
            other.current,
            other.root,
            other.last,
            other.number,
            other.skip_first,
            other.before,
            other.deferred,
            other.in_variation,
            other.results,
            other.before_nags,
        )

    def __repr__(self) -> str:
        return (
            f"_Level(current={self.current!r}, "
            f"root={self.root!r}, "
            f"last={self.last!r}, "
            f"number={self.number!r}, "
            f"skip_first={self.skip_first!r}, "
            f"before={self.before!r}, "
            f"deferred={self.deferred!r}, "
            f"in_variation={self.in_variation!r}, "
            f"results={self.results!r}, "
            f"before_nags={self.before_nags!r})"
        )

    def __reduce__(self) -> tuple[type[_Level], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            _Level,
            (
                self.current,
                self.root,
                self.last,
                self.number,
                self.skip_first,
                self.before,
                self.deferred,
                self.in_variation,
                self.results,
                self.before_nags,
            ),
        )


class _Locator:
    """Turns chunk-relative token positions into file positions."""

    def __init__(self, chunk: Chunk) -> None:
        self.line0 = chunk.line
        self.col0 = chunk.column

    def at(self, line: int, column: int) -> tuple[int, int]:
        if line == 1:
            return self.line0, column + self.col0
        return self.line0 + line - 1, column


class GameBuilder:
    """Builds one :class:`Game` from one :class:`Chunk`."""

    def __init__(self, chunk: Chunk, options: ReadOptions, *, direct: bool = True) -> None:
        self.chunk = chunk
        self.options = options
        #: read a plain game without the parser (:meth:`_plain_tokens`); after
        #: :meth:`build`, whether that was done
        self.direct = direct
        self.game: Game = ReadGame()
        self.loc = _Locator(chunk)
        self.junk = 0
        self.moves_seen = False
        self.squares: list[str] = []
        self.ply = 0
        self.once: set[str] = set()
        self.tag_keys: set[str] = set()
        self.tags_by_key: dict[str, Tag] = {}
        self.result_tags: list[Tag] = []
        self.result_from_tag = False
        self.stopped = False
        #: where the comment that is never closed opens (E01), once the walk stopped there
        self.stop: tuple[int, int] | None = None
        #: the variations never closed (E01): their lines and where each opened
        self.open_lines: list[tuple[list[Node], int, int]] = []
        #: the ')' without a matching '(' (E01) the parser skipped, by position
        self.strays: dict[tuple[int, int], Unread] = {}
        #: where the chunk's own text ends in the text parsed (the ')' after it close
        #: the variations it leaves open)
        self.text_end = len(chunk.text or "")
        self.run_token: Any = _NO_TOKEN
        #: the move run read without the parser is the lexer's token (:meth:`_lexers_run`)
        self.lexed = False

    # -- issues ----------------------------------------------------------------
    def issue(
        self,
        code: str,
        message: str,
        line: int,
        column: int,
        *,
        move: str | None = None,
        node: Node | None = None,
        in_variation: bool = False,
    ) -> None:
        severity: Severity | None = None
        if self.options.strict and code.startswith("W") and code not in STRICT_EXEMPT:
            severity = Severity.ERROR
        ply = self.ply if node is not None and not in_variation else None
        context = self._context(line, column) if code in _SYNTAX_ERRORS else None
        self.game.add_issue(
            Issue(code, message, line, column, severity, ply, move, in_variation, context)
        )

    def _context(self, line: int, column: int) -> str | None:
        """The source line of a syntax error with a caret under *column*."""
        text = self.chunk.text
        if text is None:
            return None
        index = line - self.chunk.line
        lines = text.split("\n", index + 1)
        if index >= len(lines):
            return None
        source = lines[index]
        # The line is shown from its start: the first line of a chunk lies at its
        # column, so that many blanks lead it.  Only the 120 characters around the
        # error are made (a chunk far into a long line, one of thousands on it, made
        # its whole column of blanks for each error: quadratic in the line).  A tab is
        # one blank, as expandtabs(1) made it.
        pad = self.chunk.column if index == 0 else 0
        if pad + len(source) > 120:
            start = max(0, column - 60)
            lead = min(max(0, pad - start), 120)
            begin = max(0, start - pad)
            source = " " * lead + source[begin : begin + 120 - lead]
            column -= start
        else:
            source = " " * pad + source
        source = source.replace("\t", " ")
        return f"{source.rstrip()}\n{' ' * (column - 1)}^"

    # -- entry -----------------------------------------------------------------
    def build(self) -> Game:
        game = self.game
        chunk = self.chunk
        # Where the game begins: its first text that is not blank (the chunk begins
        # after the terminator of the game before); refined to its first token below.
        game.span = Span(chunk.first_line, chunk.first_column + 1, chunk.end_line)
        game.issues.extend(chunk.issues)
        if chunk.oversize:
            self.issue(
                "E11",
                f"game larger than {self.options.max_game_chars:,} characters; skipped "
                "(raise the limit with --max-game-size)",
                chunk.first_line,
                chunk.first_column + 1,
            )
            return game
        if chunk.max_depth > self.options.max_depth:
            self.issue(
                "E11",
                f"variations nested {chunk.max_depth} deep, more than the limit of "
                f"{self.options.max_depth}; game skipped (raise the limit with --max-depth)",
                chunk.first_line,
                chunk.first_column + 1,
            )
            return game
        text = chunk.text or ""
        tree: Any = self._plain_tokens(text) if self.direct else None
        if tree is None:
            self.direct = False
            tree = self._parse(text)
        first: Any = tree
        while _is_tree(first) and first.children:
            first = first.children[0]
        if not _is_tree(first):
            line, col = self.loc.at(first.line, first.column)
            game.span = Span(line, col, chunk.end_line)
        try:
            self._walk(tree)
        except _NotPlain:  # read again with the parser
            self.direct = False
            game.close()  # what was built so far (its parent links are cycles)
            return GameBuilder(chunk, self.options, direct=False).build()
        self._finish()
        return game

    def _plain_tokens(self, text: str) -> _PlainTree | None:
        """The tokens of a plain game as the parser gives them, found without it; None
        for any other text.

        A plain game is a tag run, one move run and a terminator, with whitespace
        between: most games.  Finding their tokens needs no lexer, since the splitter
        cut the chunk at its terminator: what follows the tags up to the last word is
        the move run, if every word in it is one item of the grammar's move run
        (:meth:`_words` says so as it reads them, else the game is read again with
        the parser).  A result inside the run, which the lexer would make a token of
        its own, cannot occur: the splitter ends a game at every result that follows
        whitespace outside comments and variations, and the run's words are
        whitespace-separated.  ``tests/test_plain_reading.py`` compares both readings
        on every game of the corpora.
        """
        start = _SPACES.match(text).end()  # type: ignore[union-attr]
        tokens: list[Any] = []
        if text.startswith("[", start):
            tags = _TAG_RUN.match(text, start)
            if tags is None:
                return None
            tokens.append(_token("TAG_RUN", text, start, tags.end()))
            start = _SPACES.match(text, tags.end()).end()  # type: ignore[union-attr]
        end = len(text.rstrip())
        if end <= start:
            return _PlainTree(tokens)
        # The last word is the terminator of a chunk the splitter ended at one.
        word = end
        while word > start and not text[word - 1].isspace():
            word -= 1
        terminator = text[word:end]
        stop = -1
        run_end = end
        if self.chunk.terminated:
            if _PLAIN_TERMINATOR.fullmatch(terminator) is None:
                return None  # glued to what precedes it, or not a plain result
            stop = word
            run_end = max(start, len(text[:word].rstrip()))
        elif terminator == "*" or _RESULT.match(text, word) is not None:
            return None
        if run_end > start:
            if text[start] == "{":
                return None  # a comment first: the lexer's choice, not ours to guess
            tokens.append(_token("MOVE_RUN", text, start, run_end))
        if stop >= 0:
            tokens.append(_token("STAR" if terminator == "*" else "RESULT", text, stop, end))
        return _PlainTree(tokens)

    def _parse(self, text: str) -> Any:
        """Parse *text*; unbalanced parentheses are reported (E01) and repaired.

        lark is imported here, by the first game the plain reading does not take.
        """
        from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

        from pdn_tools.pdn.grammar import parser

        def on_error(exc: UnexpectedInput) -> bool:
            if isinstance(exc, UnexpectedToken) and exc.token.type == "RPAR":
                line, col = self.loc.at(exc.token.line, exc.token.column)
                if (line, col) not in self.strays:  # not again when parsed a second time
                    self.issue("E01", "')' without a matching '('", line, col)
                    self.strays[(line, col)] = Unread(")", line, col)
                return True
            return False

        try:
            return parser().parse(text, on_error=on_error)
        except UnexpectedToken as exc:
            if exc.token.type != "$END":
                raise
        except UnexpectedCharacters:  # pragma: no cover - JUNK matches any character
            raise
        # Unclosed variations: close them at the end and say where they opened.
        opened: list[Any] = []
        for token in parser().lex(text):
            if token.type == "LPAR":
                opened.append(token)
            elif token.type == "RPAR" and opened:
                opened.pop()
        if opened:
            line, col = self.loc.at(opened[0].line, opened[0].column)
            self.issue("E01", f"{len(opened)} variation(s) opened here never closed", line, col)
        return parser().parse(text + "\n" + ")" * len(opened), on_error=on_error)

    # -- the walk --------------------------------------------------------------
    def _walk(self, tree: Any) -> None:
        root = _Level(self.game)
        stack: list[tuple[list[Any], int, _Level, Node | None]] = [(tree.children, 0, root, None)]
        while stack:
            children, index, level, branch = stack.pop()
            while index < len(children):
                child = children[index]
                index += 1
                if _is_tree(child):
                    # Resume this level after the variation; build the variation.
                    stack.append((children, index, level, branch))
                    var_root = Node("root")
                    var_level = _Level(var_root, var_root, in_variation=True)
                    target = self._variation_target(level, child.children)
                    stack.append((child.children, 0, var_level, target))
                    break
                self._element(child, level)
            else:
                self._end_level(level)
                if level is not root:
                    never_closed = self._never_closed(children)
                    opening = None if never_closed else children[0]
                    self._close_variation(level, branch, stack, opening)
                    if never_closed:
                        self._left_open(level, children[0])

    def _end_level(self, level: _Level) -> None:
        """Findings about the end of a line of play: a move number with no move."""
        if level.number is not None and not level.skip_first:
            value, dots, line, col = level.number
            self.issue(
                "W16",
                f"move number '{value}{dots}' has no move after it",
                line,
                col,
                in_variation=level.in_variation,
            )
            level.number = None
        if level.deferred:
            # Variations that were to replace a following move that never came.
            for first in level.deferred:
                level.current.add_variation(first)
            level.deferred.clear()

    def _variation_target(self, level: _Level, children: list[Any]) -> Node | None:
        """The node a variation is an alternative to (None: to the next move, W20)."""
        last = level.last
        if last is None or last.kind == "setup":
            return None
        first = next((c for c in children if not _is_tree(c) and c.type != "LPAR"), None)
        if (
            first is not None
            and first.type == "MOVE_RUN"
            and last.number is not None
            and last.number_dots == "."
        ):
            m = run_items().match(first.value)
            if m and m.lastgroup == "MOVE_NUMBER":
                text = m.group()
                if text.endswith("...") and int(text.rstrip(".")) == last.number:
                    return None
        return last

    def _never_closed(self, children: list[Any]) -> bool:
        """Whether the variation made of *children* was closed by a ')' that
        :meth:`_parse` added after the chunk's text (E01: never closed), or by one in
        the text of a comment never closed (E01: the walk stopped before it)."""
        last = children[-1] if children else None
        if last is None or _is_tree(last) or last.type != "RPAR":
            return False
        start = last.start_pos
        if start is not None and start >= self.text_end:
            return True
        return self.stop is not None and self.loc.at(last.line, last.column) > self.stop

    def _left_open(self, level: _Level, opening: Any) -> None:
        """Note a variation the movetext never closes (E01), for :meth:`_kept_open`.
        The results ignored in it (W06) are kept as unread text: where the game
        ended, written back inside it again.  One opened after a comment that is never
        closed is part of that comment's text."""
        line, col = self.loc.at(opening.line, opening.column)
        if self.stop is not None and (line, col) > self.stop:
            return
        self.game.unread.extend(level.results)
        root = level.root
        self.open_lines.append((list(root.variations) if root is not None else [], line, col))

    def _kept_open(self) -> None:
        """Keep the variations never closed for the writers, once the tree is built:
        one that is an alternative in the tree is counted in
        :attr:`Game.open_variations` (the writers leave its ')' out); of one that
        holds no move, or whose moves continue the line it stood in (it opened
        before any move of that line), the '(' is kept as unread text at its place
        (the comments and NAGs in it are where it stands, :meth:`_no_move`)."""
        for lines, line, col in self.open_lines:
            # Its own line is the first (the others are alternatives to its first move).
            first = lines[0] if lines else None
            parent = first.parent if first is not None else None
            if parent is not None and parent.variations[0] is not first:
                self.game.open_variations += 1
            else:
                self.game.unread.append(Unread("(", line, col))

    def _close_variation(
        self,
        level: _Level,
        target: Node | None,
        stack: list[tuple[list[Any], int, _Level, Node | None]],
        opening: Any,
    ) -> None:
        """Attach a finished variation to its branch point in the enclosing level.

        The variation's root may hold more than one line: a variation nested inside
        it as an alternative to its first move hangs on that root too.  Every line
        is attached, the variation itself first.  A variation that holds no move
        has no line to attach: see :meth:`_no_move` (*opening* is its ``(``, None
        when the movetext never closes it).
        """
        var_root = level.root
        assert var_root is not None
        lines = list(var_root.variations)
        outer = stack[-1][2] if stack else None
        if not lines:
            self._no_move(level, outer, opening)
            return
        if target is None:
            if outer is not None:
                outer.deferred.extend(lines)
            return
        parent = target.parent
        assert parent is not None
        for line in lines:
            parent.add_variation(line)

    def _no_move(self, level: _Level, outer: _Level | None, opening: Any) -> None:
        """A variation that holds no move: ``()``, ``( {a comment} )``, ``( $3 )``.

        There is no line to hang it on, so its parentheses go; what it holds is kept
        where it stands, as if written outside them (its comments and NAGs on the
        element before it, or before the next one when none came before it in its
        line), and a closed one is reported (W83) so that nothing changes without a
        word.  One never closed is reported as E01 (and its ``(`` kept as unread
        text, :meth:`_kept_open`)."""
        if outer is not None:
            for comment in level.before:
                self._attach_comment(outer, comment)
            for nag in level.before_nags:
                self._nag(outer, nag)
        if opening is None:
            return
        line, col = self.loc.at(opening.line, opening.column)
        held = []
        if level.before:
            count = len(level.before)
            held.append("its comment" if count == 1 else f"its {count} comments")
        if level.before_nags:
            nags = " ".join(f"${n}" for n in level.before_nags)
            held.append(("its NAG " if len(level.before_nags) == 1 else "its NAGs ") + nags)
        what = (
            "its parentheses are dropped, " + " and ".join(held) + " kept where it stands"
            if held
            else "dropped"
        )
        self.issue("W83", f"variation holds no move: {what}", line, col, in_variation=True)

    def _nag(self, level: _Level, nag: int) -> None:
        """Attach *nag* to the element just read.  Before any element of a variation
        it is kept for the variation's first node (``starting_nags``), as one before
        the first move of the game is the game's own (``game.nags``)."""
        last = level.last
        if last is not None:
            last.nags.append(nag)
        elif level.in_variation:
            level.before_nags.append(nag)
        else:
            level.current.nags.append(nag)

    def _written_nag(self, level: _Level, text: str, line: int, column: int) -> None:
        """The NAG *text* (``$N``) as read: attached by :meth:`_nag`, or kept as a
        comment where it is beyond :data:`LARGEST_NAG` (:meth:`_oversized_nag`)."""
        big = self._oversized_nag(text, line, column)
        if big is None:
            self._nag(level, int(text[1:]))
        else:
            self._attach_comment(level, big)

    def _oversized_nag(self, text: str, line: int, column: int) -> Comment | None:
        """None for a NAG within :data:`LARGEST_NAG`; else, with W15, the comment that
        keeps it as written: it names no glyph of any table and is more than the 64-bit
        ``nags`` column holds, so every output holds it the same way, as text."""
        if int(text[1:]) <= LARGEST_NAG:
            return None
        shown = text if len(text) <= 24 else text[:21] + "..."
        self.issue("W15", f"NAG {shown!r} is beyond the NAGs read; kept as a comment", line, column)
        return Comment(text, "brace", line, column)

    def _element(self, token: Any, level: _Level) -> None:
        if self.stopped:
            return
        kind = token.type
        if kind == "MOVE_RUN":
            self._run(token, level)
        elif kind == "COMMENT":
            self._comment(token, level, "brace")
        elif kind == "TAG_RUN" or kind == "TAG":
            self._tag_run(token)
        elif kind == "TAG_NOBRACKET":
            line, col = self.loc.at(token.line, token.column)
            self._tag(token.value, line, col, missing_bracket=True)
        elif kind == "NAG":
            line, col = self.loc.at(token.line, token.column)
            self._written_nag(level, token.value, line, col)
        elif kind == "RESULT" or kind == "STAR":
            self._terminator(token, level)
        elif kind == "LINE_COMMENT":
            self._comment(token, level, "line")
        elif kind == "SEMI_COMMENT":
            line, col = self.loc.at(token.line, token.column)
            self.issue("W21", "';' comment (PDN 1.0 style)", line, col)
            self._comment(token, level, "semicolon")
        elif kind == "SETUP":
            self._setup(token, level)
        elif kind == "PLACEHOLDER":
            line, col = self.loc.at(token.line, token.column)
            node = self._add_node(
                level, "placeholder", token.value, line, col, placeholder=token.value
            )
            self.issue(
                "W17",
                f"unknown-move placeholder {token.value!r}",
                line,
                col,
                move=token.value,
                node=node,
                in_variation=level.in_variation,
            )
        elif kind == "ELLIPSIS":
            line, col = self.loc.at(token.line, token.column)
            self._ellipsis(level, token.value, line, col)
        elif kind == "LOOSE_STRENGTH":
            line, col = self.loc.at(token.line, token.column)
            self.issue("W15", f"detached strength mark {token.value!r}", line, col)
            mark = token.value
            if level.last is None and (mark in MARK_TO_NAG or mark == "*"):
                self._nag(level, MARK_TO_NAG.get(mark, FORCED_NAG))
            else:
                self._mark(level.last or level.current, mark)
        elif kind == "STRAY_DOT":
            line, col = self.loc.at(token.line, token.column)
            if token.value == "..":
                self.issue("W16", "'..' is not a move number", line, col)
            else:
                self.issue("W18", "stray '.'", line, col)
        elif kind in ("LPAR", "RPAR"):
            return
        else:  # JUNK
            self._junk(token, level)

    # -- elements ----------------------------------------------------------------
    def _junk(self, token: Any, level: _Level) -> None:
        line, col = self.loc.at(token.line, token.column)
        value = token.value
        if _MALFORMED_MOVE.fullmatch(value):
            self._malformed(value, line, col, level)
            return
        if value != "{":  # kept to be written back (a '{' is E01 or E02, not E03)
            self.game.unread.append(Unread(value, line, col))
        self.junk += 1
        if self.junk > MAX_JUNK_ISSUES:
            return
        if value == "{":
            if self.chunk.unclosed_comment:
                self.issue(
                    "E01",
                    "comment opened here is never closed; the rest of the game is not read",
                    line,
                    col,
                )
                self.stopped = True
                # The rest of the game is kept as written, from the '{' on: written
                # back, it is again a comment that the next game's tags end.
                rest = (self.chunk.text or "")[token.start_pos :].rstrip()
                self.game.unread.append(Unread(rest, line, col))
                self.stop = (line, col)
            else:
                self.issue("E02", "'{' inside a comment (comments do not nest)", line, col)
            return
        shown = value if len(value) <= 40 else value[:37] + "..."
        self.issue(
            "E03",
            f"unrecognised text {shown!r}: expected a move, move number, "
            "comment, variation or result",
            line,
            col,
        )

    def _malformed(self, value: str, line: int, col: int, level: _Level) -> None:
        """A numeric move with a malformed square (E04): kept as unread text, as E03
        keeps a word, to be written back where it stood.  A move number before it is
        its number: neither dangling (W16) nor an empty game's (W19)."""
        self.game.unread.append(Unread(value, line, col))
        squares = re.split(r"[-xX:]", value)
        if len(squares) == 1:
            why = "three digits are neither a square nor two (3228, W13)"
        else:
            bad = next(q for q in squares if len(q) > 2 or not q.strip("0"))
            why = f"{bad!r} is no square (a square is 1 to 50: at most two digits, not 0)"
        self.issue("E04", f"malformed square in {value!r}: {why}; not read as a move", line, col)
        if level.number is not None and not level.skip_first:
            level.number = None

    def _comment(self, token: Any, level: _Level, kind: str) -> None:
        line, col = self.loc.at(token.line, token.column)
        self._comment_at(token.value, line, col, level, kind)

    def _comment_at(self, value: str, line: int, col: int, level: _Level, kind: str) -> None:
        """Attach the comment *value* (as written, delimiters included) where it belongs."""
        if kind == "brace":
            text = value[1:-1]
            inner = text.find("{")
            if inner >= 0:
                before = text[:inner]
                nl = before.count("\n")
                iline = line + nl
                icol = (col + 1 + inner) if nl == 0 else inner - before.rfind("\n")
                self.issue("E02", "'{' inside a comment (comments do not nest)", iline, icol)
        elif kind == "line":
            text = value[1:]
        else:
            text = value[1:]
        if "[%" in text:
            for offset, why in unreadable(text):
                before = text[:offset]
                nl = before.count("\n")
                cline = line + nl
                ccol = (col + 1 + offset) if nl == 0 else offset - before.rfind("\n")
                self.issue("W66", why, cline, ccol)
        self._attach_comment(level, Comment(text, kind, line, col))  # type: ignore[arg-type]

    def _attach_comment(self, level: _Level, comment: Comment) -> None:
        """Put *comment* after the element just read, before the first element of a
        variation, in the preamble (a ``%`` line before any tag or move) or among the
        game's comments before its first move."""
        if level.last is not None:
            level.last.comments.append(comment)
        elif level.in_variation:
            level.before.append(comment)
        elif not self.game.tags and not self.moves_seen and comment.kind != "brace":
            self.game.preamble.append(comment)
        else:
            self.game.comments.append(comment)

    def _tag_run(self, token: Any) -> None:
        """Split a TAG_RUN token into its tags, each with its own position.

        A plain tag (``[Name "value"]`` with nothing to unescape) is handled in place,
        its name's reading cached; any other tag goes through :meth:`_tag`.
        """
        text: str = token.value
        line, base_col = self.loc.at(token.line, token.column)
        line_start = -base_col + 1
        scanned = 0
        pos = text.find("[")
        general = terminal("TAG").match
        while pos >= 0:
            line, line_start = _advance(text, scanned, pos, line, line_start)
            scanned = pos
            column = pos - line_start + 1
            plain = _PLAIN_TAG.match(text, pos)
            if plain is not None and not self.moves_seen:
                raw_name = plain.group(1)
                known = _TAG_NAMES.get(raw_name)
                if known is None:
                    if len(_TAG_NAMES) >= _MOVE_CACHE_SIZE:
                        _TAG_NAMES.clear()
                    name, why = normalise_name(raw_name)
                    known = _TAG_NAMES[raw_name] = (name, why, standard_name(name).lower())
                name, why, key = known
                if why is not None:
                    self.issue("W07", why, line, column)
                if key in self.tag_keys:
                    self.issue("W09", self._repeated(key, name), line, column)
                self._add_tag(key, Tag(name, plain.group(2), line, column))
                end = plain.end()
            else:
                match = general(text, pos)
                if match is None:  # cannot happen: the run is made of TAG matches
                    return
                self._tag(match.group(), line, column)
                end = match.end()
            pos = text.find("[", end)

    def _tag(self, text: str, line: int, col: int, missing_bracket: bool = False) -> None:
        raw_name, raw_value, curly = split_tag(text)
        name, why = normalise_name(raw_name)
        if self.moves_seen:
            self.issue("W09", f"tag [{name}] inside the movetext", line, col)
        if missing_bracket:
            self.issue("W09", f"tag {name!r} is missing its '['", line, col)
        if why is not None:
            self.issue("W07", why, line, col)
        if raw_value is None:
            self.issue("W09", f"tag [{name}] has no value", line, col)
            value = ""
        else:
            value = unescape(raw_value)
            if "\n" in value:
                self.issue("W08", f"value of tag {name!r} is broken over lines", line, col)
                if standard_name(name) == "FEN":
                    value = "".join(value.split())
            if '"' in raw_value.replace('\\"', ""):
                self.issue("W08", f"value of tag {name!r} holds an unescaped '\"'", line, col)
            if curly:
                self.issue(
                    "W08", f"value of tag {name!r} is in curly quotes, read as '\"'", line, col
                )
            if ends_in_backslash(raw_value):
                self.issue(
                    "W08",
                    f"value of tag {name!r} ends in a backslash; the quote after it is read"
                    " as its closing quote",
                    line,
                    col,
                )
        key = standard_name(name).lower()
        if key in self.tag_keys:
            self.issue("W09", self._repeated(key, name), line, col)
        self._add_tag(key, Tag(name, value, line, col))

    def _repeated(self, key: str, name: str) -> str:
        """The W09 message of tag *name* (its standard name's key *key*) met again:
        it names the standard tag both were read as, and the names as written when
        they differ from it (``Risultato``, then ``R&#x00e9;sultat``: both Result)."""
        earlier = self.tags_by_key[key].name
        standard = standard_name(name)
        if standard == name:  # not an alias: the earlier spelling may be one
            standard = standard_name(earlier)
        if earlier == name == standard:
            return f"tag {name!r} appears more than once; the last value wins"
        written = repr(name) if earlier == name else f"{earlier!r}, then {name!r}"
        return f"tag {standard!r} appears more than once (written {written}); the last value wins"

    def _add_tag(self, key: str, tag: Tag) -> None:
        """Keep *tag*, and index it by its standard name (lower case) for the checks."""
        self.tag_keys.add(key)
        self.tags_by_key[key] = tag
        if key == "result":
            self.result_tags.append(tag)
        self.game.tags.append(tag)

    def _setup(self, token: Any, level: _Level) -> None:
        line, col = self.loc.at(token.line, token.column)
        match = _SETUP.match(token.value)
        if match is None:
            self.issue("E03", f"set-up command {token.value[:40]!r} holds no FEN", line, col)
            self.game.unread.append(Unread(token.value, line, col))
            return
        fen = "".join(match.group(1).split())
        self._add_node(level, "setup", token.value, line, col, fen=fen)

    def _terminator(self, token: Any, level: _Level) -> None:
        line, col = self.loc.at(token.line, token.column)
        if level.in_variation:
            self.issue("W06", f"result {token.value!r} inside a variation ignored", line, col)
            level.results.append(Unread(token.value, line, col))
            return
        if self.game.terminator is not None:
            self.issue("W06", f"second terminator {token.value!r} ignored", line, col)
            return
        self.game.terminator = Terminator(token.value, line, col)
        if not self.moves_seen:
            number = level.number
            if number is not None and any(
                (piece.line, piece.column) > (number[2], number[3]) for piece in self.game.unread
            ):
                pass  # text that could not be read follows the number: no empty game
            elif number is not None:
                self.issue("W19", f"empty game written as '{number[0]}. {token.value}'", line, col)
                level.number = None
            elif not self.game.tags:
                self.issue(
                    "W19", f"lone terminator {token.value!r} with no tags or moves", line, col
                )

    def _ellipsis(self, level: _Level, text: str, line: int, column: int) -> None:
        if level.number is not None and level.number[1] == "." and not level.skip_first:
            # "N. ..." : the first mover's move is absent; the number is for the next move.
            level.skip_first = True
            return
        self._add_node(level, "placeholder", text, line, column, placeholder="...")

    def _mark(self, node: Node, mark: str) -> None:
        if mark in MARK_TO_NAG:
            node.nags.append(MARK_TO_NAG[mark])
        elif mark == "*":
            node.nags.append(FORCED_NAG)
        elif node.move is not None:
            node.move = MoveText(node.move.squares, node.move.capture, mark)

    def _run(self, token: Any, level: _Level) -> None:
        """Split a MOVE_RUN token into its items.

        This is the hot loop of reading.  The run is cut at its brace comments; each
        piece between them is split into words line by line with ``str.split``.  A
        plain move number, a NAG, or a move whose parse is cached and plain (no
        findings, no mark, nothing pending on the level) is handled in place.  At the
        first other word the rest of the run goes through the grammar's item patterns
        (:meth:`_run_general`).
        """
        text: str = token.value
        self.run_token = token
        line, col0 = self.loc.at(token.line, token.column)
        line_start = 1 - col0  # column = offset - line_start + 1
        pos = 0
        end = len(text)
        while pos < end:
            brace = text.find("{", pos)
            stop = brace if brace >= 0 else end
            if stop > pos:
                resume = self._words(text, pos, stop, line, line_start, level)
                if resume is not None:
                    if self.direct and not self.lexed and not self._lexers_run():
                        raise _NotPlain
                    self._run_general(text, *resume, level)
                    return
                line, line_start = _advance(text, pos, stop, line, line_start)
            if brace < 0:
                return
            close = text.find("}", brace)
            if close < 0:  # only where the run was not the lexer's
                raise _NotPlain
            self._comment_at(text[brace : close + 1], line, brace - line_start + 1, level, "brace")
            line, line_start = _advance(text, brace, close + 1, line, line_start)
            pos = close + 1

    def _lexers_run(self) -> bool:
        """Whether the move run read without the parser is the token the lexer makes
        there (the grammar's MOVE_RUN, matched where it starts, ends where it ends);
        then the game is read on as after the parser (``lexed``), which takes
        the words the plain loop does not (``01.32-28``, ``3- 8``) with the grammar's
        item patterns.  Called only when such a word is met."""
        token = self.run_token
        text = self.chunk.text or ""
        start = token.start_pos
        if start is None or _RESULT.match(text, start) is not None:
            return False
        found = terminal("MOVE_RUN").match(text, start)  # compiled on first use: 6 ms
        if found is None or found.end() != start + len(token.value):
            return False
        self.lexed = True
        return True

    def _words(
        self, text: str, begin: int, end: int, line: int, line_start: int, level: _Level
    ) -> tuple[int, int, int] | None:
        """Handle the words of ``text[begin:end]`` (no comments in it).

        Returns None when every word was handled, else (offset, line, line_start)
        of the first word the general path must take.  Each word is looked up in
        one cache (:data:`_WORDS`): a plain move number reads as an int, a plain move
        as its :class:`MoveText`, a move with a mark or findings as its parsed tuple.
        The level's state is kept in locals while plain words follow each other and
        written back before any general method runs, and at the end.
        """
        cache = _WORDS
        counting = not level.in_variation
        plies = 0
        need_squares = len(self.squares) < 8

        def plain_level() -> bool:
            last = level.last
            return (
                not level.before
                and not level.before_nags
                and not level.deferred
                and (last is None or last.kind != "placeholder")
            )

        plain = plain_level()
        current = level.current
        number = level.number
        skip_first = level.skip_first
        offset = begin

        def sync() -> None:
            """Write the local state back to the level before a general method runs."""
            nonlocal plies
            if current is not level.current:
                level.current = level.last = current
                self.moves_seen = True
            level.number = number
            level.skip_first = skip_first
            if counting:
                self.ply += plies
            plies = 0

        try:
            for index, row in enumerate(text[begin:end].split("\n")):
                if index:
                    line += 1
                    line_start = offset
                base = offset - line_start + 1
                pos = 0
                for word in row.split():
                    start = row.find(word, pos)
                    pos = start + len(word)
                    item = cache.get(word)
                    if item is None:
                        item = _read_word(word)
                        if item is None:
                            if word[0] == "$" and word[1:].isdigit() and word.isascii():
                                # the element just read: a node made here, else the level's
                                # last (before the first of a variation: kept for it)
                                if current is not level.current:
                                    big = (
                                        None
                                        if len(word) <= _NAG_DIGITS
                                        else self._oversized_nag(word, line, base + start)
                                    )
                                    if big is None:
                                        current.nags.append(int(word[1:]))
                                    else:
                                        current.comments.append(big)
                                else:
                                    self._written_nag(level, word, line, base + start)
                                    plain = plain_level()
                                continue
                            return offset + start, line, line_start
                    kind = item.__class__
                    if kind is int or kind is _Glued:  # a move number "N.", maybe glued
                        if kind is int:
                            value, split = cast(int, item), len(word)
                        else:
                            # "1.2-1" is a number and a result to the lexer
                            if self.direct and not self.lexed and not self._lexers_run():
                                raise _NotPlain
                            glued = cast(_Glued, item)
                            value, split = glued.number, glued.split
                        if number is not None and not skip_first:
                            sync()
                            self._number(level, word[:split], line, base + start)
                            number = level.number
                        else:
                            number = (value, ".", line, base + start)
                        skip_first = False
                        if kind is int:
                            continue
                        # "1.32-28": the move after the number, at its own column
                        start += split
                        word = word[split:]
                        item = glued.move
                        kind = item.__class__
                    if kind is not MoveText or not plain:
                        sync()
                        self._move(level, word, line, base + start)
                        current = level.current
                        number = level.number
                        skip_first = level.skip_first
                        plain = plain_level()
                        need_squares = len(self.squares) < 8
                        continue
                    node = Node("move", current, item, None, None, word, line, base + start)  # type: ignore[arg-type]
                    if number is not None:
                        node.number = number[0]
                        node.number_dots = ". ..." if skip_first else number[1]
                        node.number_line = number[2]
                        node.number_column = number[3]
                        number = None
                        skip_first = False
                    current.variations.append(node)
                    current = node
                    plies += 1
                    if need_squares:
                        self.squares.extend(item.squares)  # type: ignore[union-attr]
                        need_squares = len(self.squares) < 8
                offset += len(row) + 1
            return None
        finally:
            sync()

    def _run_general(self, text: str, pos: int, line: int, line_start: int, level: _Level) -> None:
        """Split the rest of a run from *pos* with the grammar's item patterns."""
        scanned = pos
        for m in run_items().finditer(text, pos):
            start = m.start()
            line, line_start = _advance(text, scanned, start, line, line_start)
            scanned = start
            kind = m.lastgroup
            column = start - line_start + 1
            if kind == "MOVE":
                self._move(level, m.group(), line, column)
            elif kind == "MOVE_NUMBER":
                self._number(level, m.group(), line, column)
            elif kind == "COMMENT":
                self._comment_at(m.group(), line, column, level, "brace")
            elif kind == "NAG":
                self._written_nag(level, m.group(), line, column)
            else:
                self._ellipsis(level, m.group(), line, column)

    def _number(self, level: _Level, value: str, line: int, column: int) -> None:
        if level.number is not None and not level.skip_first:
            pline, pcol = level.number[2], level.number[3]
            self.issue(
                "W16", f"move number '{level.number[0]}{level.number[1]}' has no move", pline, pcol
            )
        digits = value.rstrip(".")
        dots = value[len(digits) :]
        if dots == "..":
            self.issue("W16", f"move number {value!r} has two dots", line, column)
            dots = "..."
        level.number = (int(digits), dots, line, column)
        level.skip_first = False

    def _move(self, level: _Level, raw: str, line: int, column: int) -> None:
        # A MOVE token: the word cache holds its reading (a plain move as its MoveText).
        item = _WORDS.get(raw)
        if item is None:
            item = _read_word(raw)
        parsed: _ParsedMove = (
            (item, None, ()) if isinstance(item, MoveText) else cast(_ParsedMove, item)
        )
        move, mark, findings = parsed
        node = self._add_node(level, "move", raw, line, column, move=move)
        if len(self.squares) < 8:
            self.squares.extend(move.squares)
        if mark is not None:
            self._mark(node, mark)
        for code, message, once in findings:
            if once:
                if code in self.once:
                    continue
                self.once.add(code)
                message += " (reported once per game)"
            self.issue(
                code, message, line, column, move=raw, node=node, in_variation=level.in_variation
            )

    def _add_node(
        self,
        level: _Level,
        kind: Any,
        raw: str,
        line: int,
        column: int,
        *,
        move: MoveText | None = None,
        placeholder: str | None = None,
        fen: str | None = None,
    ) -> Node:
        node = Node(
            kind, move=move, placeholder=placeholder, fen=fen, raw=raw, line=line, column=column
        )
        if kind != "setup":
            self.moves_seen = True
        if level.number is not None:
            node.number = level.number[0]
            node.number_dots = ". ..." if level.skip_first else level.number[1]
            node.number_line = level.number[2]
            node.number_column = level.number[3]
            level.number = None
            level.skip_first = False
        if level.before:
            node.starting_comments.extend(level.before)
            level.before.clear()
        if level.before_nags:
            node.starting_nags.extend(level.before_nags)
            level.before_nags.clear()
        if (
            level.last is not None
            and level.last.kind == "placeholder"
            and level.last.placeholder == "..."
            and kind == "move"
        ):
            self.issue(
                "W34",
                "'...' stands for a missing move while moves follow",
                level.last.line,
                level.last.column,
                in_variation=level.in_variation,
            )
        level.current.add_variation(node)
        if level.deferred:
            parent = node.parent
            assert parent is not None
            for first in level.deferred:
                parent.add_variation(first)
                self.issue(
                    "W20",
                    "variation placed before the move it replaces; re-attached",
                    first.line,
                    first.column,
                    in_variation=True,
                )
            level.deferred.clear()
        level.current = node
        level.last = node
        if not level.in_variation and kind in ("move", "placeholder"):
            self.ply += 1
        return node

    # -- after the walk --------------------------------------------------------
    def _finish(self) -> None:
        game = self.game
        chunk = self.chunk
        if self.open_lines:
            self._kept_open()
        if self.strays:
            # The ')' the parser skipped, among the other unread pieces (those after a
            # comment never closed are in its text).
            stop = self.stop
            strays = [p for p in self.strays.values() if stop is None or (p.line, p.column) < stop]
            game.unread.extend(strays)
        if len(game.unread) > 1:
            game.unread.sort(key=_position)  # in file order ('(' kept at a variation's end)
        result = self.tags_by_key.get("result")
        result_tag = result.value if result is not None else None
        # A final token equal to the Result tag closes the game (4-6, a bare '-').
        if game.terminator is None and result_tag is not None and result_tag.strip():
            last = next(reversed(list(game.mainline())), None)
            if last is not None and last.raw.strip() == result_tag.strip() and last.parent:
                last.parent.variations.remove(last)
                game.issues[:] = [
                    i for i in game.issues if not (i.line == last.line and i.column == last.column)
                ]
                game.terminator = Terminator(last.raw, last.line, last.column)
                self.result_from_tag = True
                self.issue(
                    "W04",
                    f"last token {last.raw!r} equals the Result tag; read as the terminator",
                    last.line,
                    last.column,
                )
        if game.terminator is None and chunk.next_game:
            self.issue("W01", "game not terminated before the next game's tags", chunk.end_line, 1)
        # A dangling move number at the end of a line of play.
        self._check_results()
        self._variant()
        if self.junk > MAX_JUNK_ISSUES:
            self.issue(
                "E03",
                f"{self.junk - MAX_JUNK_ISSUES} more pieces of unrecognised text",
                chunk.end_line,
                1,
            )

    def _check_results(self) -> None:
        game = self.game
        tag = self.tags_by_key.get("result")
        term = game.terminator
        tag_reading = read_result(tag.value) if tag is not None else None
        if tag_reading is not None and tag_reading.irregular and tag is not None:
            self.issue("W04", tag_reading.irregular, tag.line, tag.column)
        term_reading = None
        if term is not None and term.text != "*" and not self.result_from_tag:
            term_reading = read_result(term.text)
            if term_reading.irregular:
                self.issue("W04", term_reading.irregular, term.line, term.column)
        if (
            tag_reading is not None
            and term_reading is not None
            and tag_reading.outcome != "unknown"
            and term is not None
        ):
            if term_reading.outcome != tag_reading.outcome:
                self.issue(
                    "W02",
                    f"terminator {term.text!r} contradicts Result tag "
                    f"{tag_reading.raw!r}; the tag wins",
                    term.line,
                    term.column,
                )
            elif term_reading.style != tag_reading.style and "none" not in (
                term_reading.style,
                tag_reading.style,
            ):
                self.issue(
                    "W03",
                    f"terminator {term.text!r} and Result tag {tag_reading.raw!r} "
                    "use different result styles",
                    term.line,
                    term.column,
                )
        date = self.tags_by_key.get("date")
        span = date_range(date.value) if date is not None else None
        if date is not None and span is not None:
            first, last = (day.strftime("%Y.%m.%d") for day in span)
            self.issue(
                "W29",
                f"{_tag_called(date, 'Date')} {date.value!r} is a range of days, "
                f"{first} to {last}: read as its first day, {first} (kept as written)",
                date.line,
                date.column,
            )
        elif date is not None and not date_is_standard(date.value):
            readings = date_readings(date.value)
            either = (
                "; its day and month may be read either way ("
                + " or ".join(r.standard() for r in readings)
                + ")"
                if len(readings) > 1
                else ""
            )
            self.issue(
                "W29",
                f"{_tag_called(date, 'Date')} {date.value!r} is not in the form YYYY.MM.DD"
                + either,
                date.line,
                date.column,
            )
        setup = self.tags_by_key.get("setup")
        fen = self.tags_by_key.get("fen")
        if setup is not None and setup.value.strip() == "1" and fen is None:
            self.issue("W26", 'SetUp "1" without a FEN tag', setup.line, setup.column)
        if setup is not None and setup.value.strip() == "0" and fen is not None:
            self.issue("W26", 'SetUp "0" with a FEN tag; the FEN is used', setup.line, setup.column)
        if fen is not None and fen.value.strip() in ("?", ""):
            self.issue("W26", f"FEN {fen.value!r} holds no position; ignored", fen.line, fen.column)

    def _variant(self) -> None:
        game = self.game
        style = None
        tag = self.tags_by_key.get("gametype")
        if tag is not None:
            reading = read_gametype(tag.value)
            game.variant = reading.variant
            if reading.irregular:
                self.issue("W27", reading.irregular, tag.line, tag.column)
            if reading.number is not None and reading.number in BY_NUMBER:
                style = BY_NUMBER[reading.number].result_style
            if reading.number is not None and (
                reading.number not in BY_NUMBER or game.variant not in SUPPORTED
            ):
                # A row that only its long form names is said by name: its number
                # alone would name a variant that has rules.
                title = TITLES.get(game.variant)
                self.issue(
                    "W28",
                    f"GameType {tag.value!r} "
                    + (f"is {title}, which " if title is not None else "")
                    + "has no rule profile; read but not replayed",
                    tag.line,
                    tag.column,
                )
        elif self.options.variant:
            game.variant = self.options.variant
        else:
            # The board first: a square no 8x8 board has rules out every 8x8 variant,
            # whatever the first move looks like (a problem's first move may read as
            # an Italian one); then the first mover of the first moves.  The reason is
            # said when the board overrules the first moves.
            guess = infer_variant(self.squares)
            why = None
            if guess != "international" and self.moves_seen:
                why = self._board_evidence()
                if why is not None:
                    guess = "international"
            if guess is not None:
                game.variant = guess
                if self.moves_seen:
                    self.issue(
                        "W27",
                        f"no GameType tag; variant inferred as {guess}"
                        + (f" ({why})" if why is not None else ""),
                        game.span.start_line,
                        game.span.start_column,
                    )
                    game.issues[-1].severity = Severity.INFO
        if style is not None:
            for raw, where in self._result_strings():
                result = read_result(raw)
                if result.style not in ("none", style):
                    self.issue(
                        "W03",
                        f"result {raw!r} is in the other style for {game.variant}",
                        where[0],
                        where[1],
                    )
                    break

    def _board_evidence(self) -> str | None:
        """Why the record is on the 10x10 board (:func:`board_evidence`), or None.

        Only a game set up by its FEN is asked: from the start position the first
        moves already tell the board (a 10x10 game's first move is impossible on 8x8,
        and a later square above 32 in an 8x8 game is a slip, which the replay reports
        there).  The FEN and every move, variations too, are the evidence, since a
        problem's first moves can stay within squares 1-32.
        """
        tag = self.tags_by_key.get("fen")
        if tag is None or tag.value.strip() in ("", "?"):
            return None
        squares: list[str] = []
        stack: list[Node] = list(self.game.variations)
        while stack:
            node = stack.pop()
            if node.move is not None:
                squares.extend(node.move.squares)
            stack.extend(node.variations)
        return board_evidence(tag.value, squares)

    def _result_strings(self) -> list[tuple[str, tuple[int, int]]]:
        out = [(t.value.strip(), (t.line, t.column)) for t in self.result_tags]
        term = self.game.terminator
        if term is not None:
            out.append((term.text, (term.line, term.column)))
        return out


@final
class Lexeme:
    """A token of a plain game, found without the parser: what the builder reads of
    lark's tokens (kind, text, offset in the chunk, 1-based line and column)."""

    __slots__ = ("column", "line", "start_pos", "type", "value")

    def __init__(self, kind: str, value: str, start_pos: int, line: int, column: int) -> None:
        self.type = kind
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column


@final
class _PlainTree:
    """The tokens of a plain game, in the shape of the parser's tree (its root)."""

    __slots__ = ("children",)

    def __init__(self, children: list[Any]) -> None:
        self.children = children


def _tag_called(tag: Tag, standard: str) -> str:
    """How a finding names *tag*, read as the *standard* tag: by the standard name,
    and by the name written too when that is another (``Anno (Date)``), so that the
    reader finds the tag in the file."""
    return standard if tag.name == standard else f"{tag.name} ({standard})"


def _position(piece: Unread) -> tuple[int, int]:
    """Where an unread piece stands (the order of :attr:`Game.unread`)."""
    return (piece.line, piece.column)


def _is_tree(item: Any) -> bool:
    """Whether *item* is a tree (the parser's or :class:`_PlainTree`), not a token
    (lark's, lark-cython's or a :class:`Lexeme`): only trees have children."""
    return hasattr(item, "children")


_NO_TOKEN: Final = Lexeme("MOVE_RUN", "", 0, 1, 1)


class _NotPlain(Exception):
    """A word of a move run read without the parser is not a plain item."""


#: Whitespace (what the lexer ignores between tokens, but for literal \r and \n).
_SPACES = re.compile(r"\s*")
_TAG_RUN = terminal("TAG_RUN")
#: The terminators a plain game ends with (results the lexer always reads as such).
_PLAIN_TERMINATOR = re.compile(r"[012]-[012]|1/2-1/2|\*")
_RESULT = terminal("RESULT")


def _token(kind: str, text: str, start: int, end: int) -> Lexeme:
    """The token *kind* of ``text[start:end]``, placed as the lexer places it."""
    line = text.count("\n", 0, start) + 1
    column = start - text.rfind("\n", 0, start)
    return Lexeme(kind, text[start:end], start, line, column)


def _advance(text: str, begin: int, end: int, line: int, line_start: int) -> tuple[int, int]:
    """Line number and line-start offset after ``text[begin:end]``.

    Token texts carry their own line breaks; positions inside them are computed from
    the token's start by counting the breaks passed over.
    """
    newlines = text.count("\n", begin, end)
    if newlines:
        return line + newlines, text.rfind("\n", begin, end) + 1
    return line, line_start


_Finding = tuple[str, str, bool]  # code, message, reported once per game
_ParsedMove = tuple[MoveText, str | None, tuple[_Finding, ...]]
_MOVE_CACHE_SIZE = 50_000
_WHOLE_MOVE = terminal("MOVE")
#: A tag with a plain value (no escapes, quotes or line breaks) and a plain name.
_PLAIN_TAG = re.compile(r'\[([A-Z][A-Za-z0-9_]*) "([^"\\\n]*)"\]')
#: Cached readings of tag names: raw name -> (name, why irregular, standard key).
_TAG_NAMES: dict[str, tuple[str, str | None, str]] = {}


#: Readings of the words of move runs: "N." -> N, a plain move -> its MoveText, a
#: move with a mark or findings -> its parsed tuple (see :func:`_read_word`).
_WORDS: dict[str, int | MoveText | _ParsedMove | _Glued] = {}


class _Glued(NamedTuple):
    """A move number glued to its move ("1.32-28"): the number, the offset where the
    move starts, and the move's reading (as :func:`_read_move` gives it)."""

    number: int
    split: int
    move: MoveText | _ParsedMove


def _read_word(word: str) -> int | MoveText | _ParsedMove | _Glued | None:
    """Read one word of a move run and cache it; None when it is neither a plain
    move number, a whole move, nor a number glued to a whole move (the general path
    decides what it is)."""
    item: int | MoveText | _ParsedMove | _Glued | None
    dot = word.find(".")
    if dot < 0:
        item = _read_move(word)
    elif dot == len(word) - 1:
        digits = word[:-1]
        item = int(digits) if digits.isdigit() and digits.isascii() else None
    elif dot > 0 and word[:dot].isdigit() and word.isascii() and word[dot + 1] != ".":
        move = _read_move(word[dot + 1 :])
        item = None if move is None else _Glued(int(word[:dot]), dot + 1, move)
    else:
        item = None
    if item is None:
        return None
    if len(_WORDS) >= _MOVE_CACHE_SIZE:
        _WORDS.clear()
    _WORDS[word] = item
    return item


def _read_move(word: str) -> MoveText | _ParsedMove | None:
    """A whole move's reading: its MoveText when plain, the parsed tuple when it has a
    mark or findings; None when *word* is not one MOVE token."""
    plain = _two_squares(word)
    if plain is not None:
        return plain
    whole = _WHOLE_MOVE.match(word)  # the lexer's move here: the whole word?
    if whole is None or whole.end() != len(word):
        return None
    parsed = _parse_move(word)
    return parsed[0] if parsed[1] is None and not parsed[2] else parsed


def _two_squares(word: str) -> MoveText | None:
    """The reading of the commonest move word, ``32-28`` or ``23x32``, without a
    regular expression: two squares of one or two ASCII digits, neither starting with
    0, joined by ``-`` or ``x``.  None for every other word (the lexer's pattern and
    :func:`_parse_move` read it); where it answers, it answers as they do (tested)."""
    if not 3 <= len(word) <= 5:
        return None
    dash = word.find("-")
    middle = dash if dash >= 0 else word.find("x")
    if not 0 < middle <= 2 or len(word) - middle > 3:
        return None
    first, second = word[:middle], word[middle + 1 :]
    if not (word.isascii() and first.isdigit() and second.isdigit()):
        return None
    if first[0] == "0" or second[0] == "0":
        return None
    return MoveText((first, second), dash < 0)


def _parse_move(raw: str) -> _ParsedMove:
    """Split a MOVE token into squares, separator kind and glued mark, with findings.

    The same move text recurs across games, so results are cached by text.
    """
    body = raw
    mark = None
    mark_match = _MARK.search(raw)
    if mark_match is not None and mark_match.start() > 0:
        mark = mark_match.group()
        body = raw[: mark_match.start()]
    squares = _SQUARE.findall(body)
    capture = "x" in body or ":" in body or "X" in body
    findings: list[_Finding] = []
    if len(squares) == 1 and len(squares[0]) == 4:  # legacy 3228
        squares = [squares[0][:2], squares[0][2:]]
        findings.append(("W13", f"move {raw!r} has no separator", False))
    normal: list[str] = []
    for sq in squares:
        if sq[0].isalpha():
            if sq[0].isupper():
                sq = sq.lower()
                findings.append(("W14", f"upper-case algebraic square in {raw!r}", True))
        elif sq.startswith("0"):
            sq = sq.lstrip("0") or "0"
            findings.append(("W11", f"leading zero in {raw!r}", True))
        normal.append(sq)
    if " " in body or "\t" in body:
        findings.append(("W10", f"whitespace inside move {raw!r}", True))
    if _DASHES.intersection(body):
        findings.append(("W31", f"Unicode dash in move {raw!r} read as '-'", False))
    if mark == "*":
        findings.append(("W15", f"'*' glued to {body!r} read as a forced-move mark (NAG 7)", False))
    return MoveText(tuple(normal), capture), mark, tuple(findings)


def build_game(chunk: Chunk, options: ReadOptions | None = None) -> Game:
    """Build the game tree of *chunk*, with every finding recorded on it."""
    return GameBuilder(chunk, options or ReadOptions()).build()
