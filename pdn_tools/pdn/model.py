"""The game tree: what a PDN record says, with where it says it.

The shape follows the python-chess convention: a :class:`Game` is the root
:class:`Node`; every node's ``variations`` lists the alternatives that follow it,
``variations[0]`` being the main line.  A node holds one movetext element that
occupies a ply slot: a move, an unknown-move placeholder, or a ``/FEN/`` set-up.
Nothing here knows the rules of draughts: squares are kept as written (normalised
only in spelling), and whether a move is legal is the replay's question.

The conveniences that need the layers above — ``node.board()``, ``str(game)`` and
``game.to_pdn()`` (canonical PDN), ``game.to_json()`` — are reached through
:data:`EXTENSIONS`, which those layers fill when :mod:`pdn_tools` is imported: the tree
names the engine's :class:`~pdn_tools.rules.board.Board` in annotations only and never
imports a layer above it.  :class:`Visitor` walks a tree in writing order without
knowing its internals (``game.accept(visitor)``).
"""

from __future__ import annotations

import enum
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, final

from mypy_extensions import mypyc_attr

from pdn_tools.diagnostics import DrawEvent, Issue, freeze, status_of
from pdn_tools.pdn.archives import MAX_EXPANSION

if TYPE_CHECKING:  # annotations only: the format layer never imports the engine
    from pdn_tools.pdn.commands import Clock, Evaluation
    from pdn_tools.rules.board import Board

#: Standard strength marks and the NAG numbers they are stored as (pdn-format.md §8.1).
MARK_TO_NAG: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
#: NAG of a forced move; a glued ``*`` is stored as this (W15).
FORCED_NAG = 7
#: The largest NAG number a node holds (the ``nags`` column of the moves table is
#: 64-bit); the reader keeps a larger one as a comment, as written (W15).
LARGEST_NAG = (1 << 63) - 1


@final
class Tag:
    """One ``[Name "value"]`` pair, in file order.

    ``name`` is the name as written, trimmed and with HTML entities decoded;
    ``value`` is the decoded value (``\\"`` and ``\\\\`` unescaped).
    """

    # A plain class rather than a dataclass: compiled, its constructor is native
    # code, where a dataclass's generated __init__ stays a Python function.
    __slots__ = ("column", "line", "name", "value")

    def __init__(self, name: str, value: str, line: int = 0, column: int = 0) -> None:
        self.name = name
        self.value = value
        self.line = line
        self.column = column

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tag):
            return NotImplemented
        return (self.name, self.value, self.line, self.column) == (
            other.name,
            other.value,
            other.line,
            other.column,
        )

    def __reduce__(self) -> tuple[type[Tag], tuple[str, str, int, int]]:
        # Pickled by its constructor's arguments (worker processes send games back):
        # a compiled class is otherwise rebuilt by calling it without any.
        return (Tag, (self.name, self.value, self.line, self.column))

    def __repr__(self) -> str:
        return (
            f"Tag(name={self.name!r}, value={self.value!r}, line={self.line!r}, "
            f"column={self.column!r})"
        )


class Comment:
    """A comment: ``{…}`` (brace), ``%…`` in column 1 (line) or ``;…`` (semicolon)."""

    text: str
    kind: Literal["brace", "line", "semicolon"]
    line: int
    column: int

    __slots__ = ("column", "kind", "line", "text")

    def __init__(
        self,
        text: str,
        kind: Literal["brace", "line", "semicolon"] = "brace",
        line: int = 0,
        column: int = 0,
    ) -> None:
        self.text = text
        self.kind = kind
        self.line = line
        self.column = column

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Comment) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.text, self.kind, self.line, self.column) == (
            other.text,
            other.kind,
            other.line,
            other.column,
        )

    def __repr__(self) -> str:
        return (
            f"Comment(text={self.text!r}, "
            f"kind={self.kind!r}, "
            f"line={self.line!r}, "
            f"column={self.column!r})"
        )

    def __reduce__(self) -> tuple[type[Comment], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Comment, (self.text, self.kind, self.line, self.column))

    def commands(self) -> list[tuple[str, str]]:
        """Embedded ``[%name value]`` commands, in order, as (name, value) pairs."""
        from pdn_tools.pdn.commands import parse_commands

        return parse_commands(self.text)


class MoveText:
    """A move as written, split into squares.

    ``squares`` are normalised spellings: numeric squares without leading zeros
    ("7"), algebraic squares in lower case ("c3").  ``capture`` says whether the
    writer used a capture separator (x, X, :); the replay decides what the move is.
    ``mark`` keeps a non-standard strength mark verbatim (standard marks become
    NAGs on the node).
    """

    squares: tuple[str, ...]
    capture: bool
    mark: str | None

    __slots__ = ("capture", "mark", "squares")

    def __init__(
        self,
        squares: tuple[str, ...],
        capture: bool,
        mark: str | None = None,
    ) -> None:
        self.squares = squares
        self.capture = capture
        self.mark = mark

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MoveText) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.squares, self.capture, self.mark) == (other.squares, other.capture, other.mark)

    def __hash__(self) -> int:
        return hash((self.squares, self.capture, self.mark))

    def __repr__(self) -> str:
        return f"MoveText(squares={self.squares!r}, capture={self.capture!r}, mark={self.mark!r})"

    def __reduce__(self) -> tuple[type[MoveText], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (MoveText, (self.squares, self.capture, self.mark))

    def with_squares(self, squares: tuple[str, ...]) -> MoveText:
        """The same move written on other squares (a board turned or renumbered)."""
        return MoveText(squares, self.capture, self.mark)

    def text(self, separator: str | None = None) -> str:
        """The move in normalised spelling, e.g. ``32-28`` or ``28x17x8``."""
        sep = separator if separator is not None else ("x" if self.capture else "-")
        return sep.join(self.squares)

    def __str__(self) -> str:
        return self.text()


freeze(MoveText)


NodeKind = Literal["root", "move", "placeholder", "setup"]


@mypyc_attr(allow_interpreted_subclasses=True)  # for Game's (pdn/ownership.py)
class Node:
    """A point in the move tree.

    The root (the :class:`Game` itself) holds no element.  A child node holds a
    move (:attr:`move`), an unknown-move placeholder (:attr:`placeholder`, the text
    as written: ``-``, ``--`` or ``...``) or a set-up command (:attr:`fen`).
    ``comments`` follow the element; ``starting_comments`` and ``starting_nags``
    precede the first element of a variation (as the game's own ``comments`` and
    ``nags`` precede its first move).  ``number`` is the move number written before the
    element (None when there was none) and ``number_dots`` its dots; ``number_line``
    and ``number_column`` where that number is written (0 when there is none, or the
    node was not read from text), so that an edit of the text can take the number into
    account (a fix that inserts a move before it).

    A node holds its ``variations`` and its ``parent``.  The nodes of a game the
    reader made link to the game itself weakly (see :mod:`pdn_tools.pdn.ownership`),
    so such a game is in no reference cycle: dropped, it unlinks its tree and
    everything is freed at once, without the cyclic garbage collector.  A node below
    them holds its parent with a plain reference.  :meth:`Game.close` breaks every
    parent link at once.
    """

    __slots__ = (
        "_comments",
        "_game",
        "_nags",
        "_parent",
        "_references",
        "_starting_comments",
        "_starting_nags",
        "column",
        "fen",
        "kind",
        "line",
        "move",
        "number",
        "number_column",
        "number_dots",
        "number_line",
        "placeholder",
        "raw",
        "variations",
    )

    def __init__(
        self,
        kind: NodeKind,
        parent: Node | None = None,
        move: MoveText | None = None,
        placeholder: str | None = None,
        fen: str | None = None,
        raw: str = "",
        line: int = 0,
        column: int = 0,
    ) -> None:
        self.kind: NodeKind = kind
        self._parent: Node | None = None
        self._game: weakref.ReferenceType[Game] | None = None
        if parent is not None:
            self.parent = parent
        self.move = move
        self.placeholder = placeholder
        self.fen = fen
        self.raw = raw
        self.line = line
        self.column = column
        self.variations: list[Node] = []
        # Most nodes have no comments or NAGs: their lists are made on first use,
        # which keeps reading fast (fewer allocations, less garbage-collector work).
        self._comments: list[Comment] | None = None
        self._starting_comments: list[Comment] | None = None
        self._starting_nags: list[int] | None = None
        self._nags: list[int] | None = None
        self.number: int | None = None
        self.number_dots: str | None = None
        self.number_line = 0
        self.number_column = 0
        self._references = 0
        """Scratch of :func:`tree_references` (zero outside it)."""

    @property
    def comments(self) -> list[Comment]:
        """Comments after the element, in order."""
        if self._comments is None:
            self._comments = []
        return self._comments

    @comments.setter
    def comments(self, value: list[Comment]) -> None:
        self._comments = value

    @property
    def starting_comments(self) -> list[Comment]:
        """Comments before the first element of a variation."""
        if self._starting_comments is None:
            self._starting_comments = []
        return self._starting_comments

    @starting_comments.setter
    def starting_comments(self, value: list[Comment]) -> None:
        self._starting_comments = value

    @property
    def starting_nags(self) -> list[int]:
        """NAGs written before the first element of a variation (``( $3 1... 19-23 )``),
        after its starting comments; the game's own are :attr:`nags` of the game."""
        if self._starting_nags is None:
            self._starting_nags = []
        return self._starting_nags

    @starting_nags.setter
    def starting_nags(self, value: list[int]) -> None:
        self._starting_nags = value

    @property
    def nags(self) -> list[int]:
        """Numeric annotation glyphs of the element (strength marks included)."""
        if self._nags is None:
            self._nags = []
        return self._nags

    @nags.setter
    def nags(self, value: list[int]) -> None:
        self._nags = value

    @property
    def clock(self) -> Clock | None:
        """The clocks after the element, from the first readable ``[%clock …]`` or
        ``[%clk …]`` command of its comments (None when there is none)."""
        if not self._comments:
            return None
        from pdn_tools.pdn.commands import clock_of

        return clock_of([c.text for c in self._comments])

    @property
    def eval(self) -> Evaluation | None:
        """The evaluation after the element, from the first readable ``[%eval …]``
        command of its comments (None when there is none)."""
        if not self._comments:
            return None
        from pdn_tools.pdn.commands import eval_of

        return eval_of([c.text for c in self._comments])

    # -- navigation --------------------------------------------------------
    @property
    def parent(self) -> Node | None:
        """The node this one follows (None for a root, or once its game is closed
        or freed)."""
        parent = self._parent
        if parent is not None:
            return parent
        game = self._game
        return game() if game is not None else None

    @parent.setter
    def parent(self, value: Node | None) -> None:
        # A game that frees its own tree (the reader's) is linked to weakly: its
        # nodes then keep no reference to it, and it is in no reference cycle.
        if isinstance(value, Game) and value.frees_tree():
            self._parent = None
            self._game = weakref.ref(value)
        else:
            self._parent = value
            self._game = None

    def hold_parent(self) -> None:
        """Make the link to the parent a plain reference (a game then stays alive
        as long as this node does, as any Python object graph)."""
        game = self._game
        if game is not None:
            self._parent = game()
            self._game = None

    def add_variation(self, node: Node) -> Node:
        """Append *node* as a new alternative after this node and return it."""
        node.parent = self
        self.variations.append(node)
        return node

    def next(self) -> Node | None:
        """The main-line continuation, or None at the end of the line."""
        return self.variations[0] if self.variations else None

    def is_mainline(self) -> bool:
        """Whether every step from the root to this node takes ``variations[0]``."""
        node: Node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def mainline(self) -> Iterator[Node]:
        """The nodes of the main line after this node, in order (iterative)."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def end(self) -> Node:
        """The last node of the main line that follows this node (itself at the end)."""
        node: Node = self
        while node.variations:
            node = node.variations[0]
        return node

    def game(self) -> Game:
        """The game this node belongs to (ValueError once the game has been closed)."""
        node: Node = self
        while True:
            if isinstance(node, Game):
                return node
            parent = node.parent
            if parent is None:
                raise ValueError("this node's game has been closed")
            node = parent

    def ply(self) -> int:
        """Half-move slots from the start to this node (moves and placeholders; 0 at
        the root).  A node in a variation counts along its own line."""
        count = 0
        node: Node | None = self
        while node is not None and node.kind != "root":
            if node.kind != "setup":
                count += 1
            node = node.parent
        return count

    def board(self) -> Board:
        """The position after this node, as a :class:`~pdn_tools.rules.board.Board`.

        python-chess's idiom: ``game.board()`` is the start position and
        ``game.end().board()`` the final one.  The game must have been replayed
        (:func:`pdn_tools.validate`); raises ``ValueError`` saying why when the
        position is unknown (the move is illegal, or follows one that is).
        """
        if EXTENSIONS.board is None:
            raise _missing("board")
        return EXTENSIONS.board(self)

    def element_text(self) -> str:
        """The element in normalised spelling (move text, placeholder or set-up)."""
        if self.kind == "move" and self.move is not None:
            return self.move.text()
        if self.kind == "placeholder":
            return self.placeholder or "--"
        if self.kind == "setup":
            return f'/FEN "{self.fen}"/'
        return ""

    def accept(self, visitor: Visitor[T]) -> T:
        """Walk the line that starts at this node's first variation with *visitor*
        (for a :class:`Game`, the whole game) and return ``visitor.result()``."""
        visitor.begin_line(self)
        if self.variations:
            _walk_line(self.variations[0], visitor)
        visitor.end_line(self)
        return visitor.result()

    def __repr__(self) -> str:
        return f"<Node {self.kind} {self.element_text()!r} at {self.line}:{self.column}>"


@final
class Terminator:
    """The game terminator as written (``*``, ``2-0``, ``1/2-1/2`` ...)."""

    __slots__ = ("column", "line", "text")

    def __init__(self, text: str, line: int = 0, column: int = 0) -> None:
        self.text = text
        self.line = line
        self.column = column

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Terminator):
            return NotImplemented
        return (self.text, self.line, self.column) == (other.text, other.line, other.column)

    def __reduce__(self) -> tuple[type[Terminator], tuple[str, int, int]]:
        # Pickled by its constructor's arguments, as Tag.
        return (Terminator, (self.text, self.line, self.column))

    def __repr__(self) -> str:
        return f"Terminator(text={self.text!r}, line={self.line!r}, column={self.column!r})"


@final
class Unread:
    """A piece of movetext the reader could not read, as written, with where it stands.

    One word of unrecognised text (E03: ``Redoverstepped``, ``46x?``, a lone ``}``), a
    set-up command that holds no FEN (E03: ``/xyz/``), or what a recovery from broken
    structure skipped (E01): a ``)`` without a matching ``(``, the ``(`` of a
    variation that is never closed and holds no move, and a comment that is never
    closed, from its ``{`` to the end of the game (several lines, as written).  The
    reader keeps the finding on the game and the text here, in source order
    (:attr:`Game.unread`), so that the writers can put it back at its place and a
    reader finds the same error again.
    """

    __slots__ = ("column", "line", "text")

    def __init__(self, text: str, line: int = 0, column: int = 0) -> None:
        self.text = text
        self.line = line
        self.column = column

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Unread):
            return NotImplemented
        return (self.text, self.line, self.column) == (other.text, other.line, other.column)

    def __reduce__(self) -> tuple[type[Unread], tuple[str, int, int]]:
        # Pickled by its constructor's arguments, as Tag.
        return (Unread, (self.text, self.line, self.column))

    def __repr__(self) -> str:
        return f"Unread(text={self.text!r}, line={self.line!r}, column={self.column!r})"


@final
class Span:
    """Where a game lies in its file: 1-based lines, inclusive."""

    __slots__ = ("end_line", "start_column", "start_line")

    def __init__(self, start_line: int, start_column: int, end_line: int) -> None:
        self.start_line = start_line
        self.start_column = start_column
        self.end_line = end_line

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Span):
            return NotImplemented
        return (self.start_line, self.start_column, self.end_line) == (
            other.start_line,
            other.start_column,
            other.end_line,
        )

    def __reduce__(self) -> tuple[type[Span], tuple[int, int, int]]:
        # Pickled by its constructor's arguments, as Tag.
        return (Span, (self.start_line, self.start_column, self.end_line))

    def __repr__(self) -> str:
        return (
            f"Span(start_line={self.start_line!r}, start_column={self.start_column!r}, "
            f"end_line={self.end_line!r})"
        )


@mypyc_attr(allow_interpreted_subclasses=True)  # the reader's games (pdn/ownership.py)
class Game(Node):
    """One game record: tags, the move tree, the terminator and the findings.

    ``issues`` collects every diagnostic of reading (and, later, of replay), in
    source order.  ``file`` and ``index`` (1-based within the file) identify it.
    ``source`` is the game's text as read, kept only when
    :attr:`ReadOptions.keep_source` asks for it (rejects files copy it verbatim).
    ``unread`` holds the movetext the reader could not read (:class:`Unread`, E03 and
    E01), in source order, for the writers to put back; ``open_variations`` counts
    the variations the movetext leaves open at its end (E01: the reader closes them
    there), whose ``)`` the writers leave out.
    """

    __slots__ = (
        "draws",
        "file",
        "index",
        "issues",
        "open_variations",
        "preamble",
        "producer",
        "replay_state",
        "source",
        "span",
        "tags",
        "terminator",
        "unread",
        "variant",
    )

    def __init__(self) -> None:
        super().__init__("root")
        self.tags: list[Tag] = []
        self.terminator: Terminator | None = None
        self.issues: list[Issue] = []
        self.preamble: list[Comment] = []
        self.file: str = "<string>"
        self.index: int = 0
        self.span: Span = Span(0, 0, 0)
        self.variant: str = "unknown"
        self.producer: str | None = None
        """The program that wrote the record, when recognised (docs/dialects.md)."""
        self.source: str | None = None
        self.unread: list[Unread] = []
        """Movetext not read (E03, E01), as written, in source order."""
        self.open_variations: int = 0
        """Variations never closed (E01): the last ones the writers open, which they
        leave open."""
        self.draws: list[DrawEvent] = []
        """Draw conditions the replay found on the game (empty until replayed)."""
        self.replay_state: object | None = None
        """What the replay established, kept by :func:`pdn_tools.validate` for
        :meth:`board` and the writers; opaque to the tree (None: not replayed)."""

    # -- tags ----------------------------------------------------------------
    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the last tag called *name* (case-insensitive), or *default*.

        When no tag has that name, a localised alias standing for it is used
        (``Bianco`` for ``White``, ``Type de jeu`` for ``GameType``).
        """
        from pdn_tools.pdn.tags import standard_name

        lowered = name.lower()
        for tag in reversed(self.tags):
            if tag.name.lower() == lowered:
                return tag.value
        for tag in reversed(self.tags):
            if standard_name(tag.name).lower() == lowered:
                return tag.value
        return default

    @property
    def headers(self) -> dict[str, str]:
        """Tags as a mapping (the last of duplicates wins; all stay in :attr:`tags`)."""
        return {t.name: t.value for t in self.tags}

    # -- summary -------------------------------------------------------------
    @property
    def result(self) -> str | None:
        """The game's result as recorded: the Result tag, else the terminator."""
        value = self.tag("Result")
        if value is not None and value.strip() not in ("", "*", "?"):
            return value.strip()
        if self.terminator is not None and self.terminator.text != "*":
            return self.terminator.text
        if value is not None:
            return value.strip() or None
        return self.terminator.text if self.terminator is not None else None

    @property
    def plies(self) -> int:
        """Half-moves on the main line (moves and unknown-move placeholders).

        A capture written jump by jump (``32x21 21x12``) is one half-move once the
        replay has merged it (W24), as the JSON outputs' ``plies`` count it; before,
        and in a game never replayed, every written jump counts.  Each jump keeps its
        own *ply slot* all the same (:meth:`node_at`, ``Issue.ply``).
        """
        slots = self.ply_slots
        merged_of = EXTENSIONS.merged
        if merged_of is None or self.replay_state is None:
            return slots
        return slots - merged_of(self)

    @property
    def ply_slots(self) -> int:
        """Ply slots on the main line: one per written move or unknown-move placeholder
        (set-ups fill none), the later jumps of a capture written jump by jump too.
        ``Issue.ply`` and :meth:`node_at` count these."""
        count = 0
        line = self.variations
        while line:
            node = line[0]
            if node.kind != "setup":  # moves and placeholders fill ply slots
                count += 1
            line = node.variations
        return count

    @property
    def status(self) -> Literal["ok", "warning", "error"]:
        """``error`` if any issue is an error, ``warning`` if any is a warning."""
        return status_of(self.issues)

    def add_issue(self, issue: Issue) -> None:
        """Record a finding on this game."""
        self.issues.append(issue)

    def frees_tree(self) -> bool:
        """Whether this game unlinks its tree itself when it is dropped, its nodes
        holding it weakly (the reader's games: :mod:`pdn_tools.pdn.ownership`)."""
        return False

    def close(self) -> None:
        """Break the tree's parent links.

        The tree stays readable downwards — moves, variations, comments, findings
        and the writers — but ``parent`` is None on every node, and :meth:`Node.game`
        and :meth:`Node.board` of a node raise ``ValueError``.  The reader's games
        need it no more (dropped, they free their tree themselves); a game built by
        hand (``Game()``) with nodes added holds reference cycles until it is closed
        or the cyclic garbage collector frees it.  Closing twice does nothing.
        """
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            for child in node.variations:
                child._parent = None
                child._game = None
                stack.append(child)

    def node_at(self, ply: int) -> Node:
        """The main-line node after which *ply* plies have been played (the game itself
        for 0; a set-up written after that ply is included).  ``node_at(issue.ply -
        1).board()`` is the position a finding's move was played in.  IndexError when
        the main line is shorter."""
        if ply < 0:
            raise IndexError(f"ply {ply} is before the start")
        found: Node = self
        count = 0
        for node in self.mainline():
            if node.kind != "setup":
                count += 1
                if count > ply:
                    return found
            found = node
        if count < ply:
            raise IndexError(f"the main line has {count} plies, not {ply}")
        return found

    # -- writing -------------------------------------------------------------
    def to_pdn(self) -> str:
        """The game as canonical PDN (what ``pdn convert`` writes), ending with a newline.

        Moves are written in the standard notation when the game was replayed
        (:func:`pdn_tools.validate`), else as read, in normalised spelling.
        """
        if EXTENSIONS.pdn is None:
            raise _missing("to_pdn")
        return EXTENSIONS.pdn(self)

    def to_json(self) -> dict[str, Any]:
        """The game's JSON object, as ``pdn convert`` writes it (docs/export.md)."""
        if EXTENSIONS.json is None:
            raise _missing("to_json")
        return EXTENSIONS.json(self)

    def __str__(self) -> str:
        return self.to_pdn()

    def __repr__(self) -> str:
        return (
            f"<Game {self.file}#{self.index} {self.tag('White', '?')} - "
            f"{self.tag('Black', '?')} plies={self.plies}>"
        )


def variant_text_expected(given: object) -> str:
    """The message for a variant option that is not text (an ``int`` GameType, say):
    the options hold a variant's name; the API functions turn a number into it."""
    return (
        f"the variant option is text (a name, an alias or a GameType number such as "
        f"'21'), not {type(given).__name__}; variant_by_name({given!r}).name gives its name"
    )


@dataclass(slots=True)
class ReadOptions:
    """How tolerant the reader is, and its resource limits.

    ``strict`` turns every deviation from the PDN 3.0 writing grammar into an error.
    ``max_game_chars`` and ``max_depth`` bound the memory and the work one game may
    take; a game over a limit is reported (E11) and skipped, its neighbours are read.
    ``max_expansion`` bounds how far compressed input may expand.
    """

    strict: bool = False
    encoding: str | None = None
    max_game_chars: int = 2_000_000
    max_depth: int = 100
    max_expansion: int = MAX_EXPANSION
    """The most bytes compressed data may expand to per compressed byte (beyond
    16 MiB); the rest of such a file is reported (E11) and not read."""
    variant: str | None = None
    dialect: str | None = None
    """The producer whose dialect every game is read in (``--dialect``); None: the
    producer is recognised per game, ``"none"``: no dialect is read."""
    extra: dict[str, str] = field(default_factory=dict)
    keep_source: bool = False
    """Keep each game's text as read on :attr:`Game.source` (None for a game over
    ``max_game_chars``, whose text is never held)."""

    def __post_init__(self) -> None:
        # The variant by its name, an unknown one refused (UnknownVariantError), once
        # the rules engine's names are known (EXTENSIONS.variant_name: the format
        # knows no rules).
        given: object = self.variant
        if given is not None and not isinstance(given, str):
            raise TypeError(variant_text_expected(given))
        name_of = EXTENSIONS.variant_name
        if self.variant is not None and name_of is not None:
            self.variant = name_of(self.variant)


T = TypeVar("T")


class Skip(enum.Enum):
    """The type of :data:`SKIP`."""

    SKIP = "skip"


SKIP = Skip.SKIP
"""Returned by :meth:`Visitor.begin_variation` to leave that variation out of the walk."""


@mypyc_attr(allow_interpreted_subclasses=True)  # users and the writers subclass it
class Visitor(Generic[T]):
    """Walks a game tree in the order PDN writes it, python-chess style.

    Override what you need; every method does nothing by default.  For each line the
    walk calls :meth:`visit_node` on its nodes in order; after a node that has
    alternatives (a node that is ``variations[0]`` of its parent, with siblings), each
    alternative line follows between :meth:`begin_variation` and
    :meth:`end_variation`, before the line goes on.  ``game.accept(visitor)`` walks the
    whole game: :meth:`begin_line` and :meth:`end_line` are then called with the game.

    >>> from pdn_tools import read_string
    >>> class Moves(Visitor[list[str]]):
    ...     def __init__(self) -> None:
    ...         self.moves: list[str] = []
    ...     def visit_node(self, node: Node) -> None:
    ...         self.moves.append(node.element_text())
    ...     def begin_variation(self, first: Node) -> None:
    ...         self.moves.append("(")
    ...     def end_variation(self, first: Node) -> None:
    ...         self.moves.append(")")
    ...     def result(self) -> list[str]:
    ...         return self.moves
    >>> read_string("1. 32-28 (1. 33-29) 19-23 *")[0].accept(Moves())
    ['32-28', '(', '33-29', ')', '19-23']
    """

    def begin_line(self, start: Node) -> None:
        """Before the walk: *start* is the game (or the node whose line is walked)."""

    def visit_node(self, node: Node) -> None:
        """One element (move, placeholder or set-up) with its comments and NAGs."""

    def begin_variation(self, first: Node) -> Skip | None:
        """An alternative line starting at *first* begins; return :data:`SKIP` to leave
        it (and what it holds) out of the walk, :meth:`end_variation` included."""
        return None

    def end_variation(self, first: Node) -> None:
        """The alternative line that started at *first* ends."""

    def end_line(self, start: Node) -> None:
        """After the walk."""

    def result(self) -> T:
        """What :meth:`Node.accept` returns (None unless overridden)."""
        return None  # type: ignore[return-value]


def every_node(root: Node) -> list[Node]:
    """Every node of the tree below *root*, variations too, in no particular order
    (iterative: a deep tree needs no recursion)."""
    out: list[Node] = []
    stack = list(root.variations)
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.variations)
    return out


def _walk_line(first: Node, visitor: Visitor[Any]) -> None:
    """Visit the line starting at *first*: iterative along the line, recursive per
    nesting level (bounded by ``ReadOptions.max_depth``)."""
    node: Node | None = first
    while node is not None:
        visitor.visit_node(node)
        parent = node.parent
        if parent is not None and len(parent.variations) > 1 and parent.variations[0] is node:
            for alternative in parent.variations[1:]:
                if visitor.begin_variation(alternative) is SKIP:
                    continue
                _walk_line(alternative, visitor)
                visitor.end_variation(alternative)
        node = node.variations[0] if node.variations else None


def tree_references(game: Game, held: list[Node], base: int) -> tuple[list[Node], list[int]]:
    """Every node below *game* with the references to it its tree holds: its place in
    its parent's ``variations``, its children's parent links, its entries in *held*
    (references the game's replay state holds) and *base*.  What
    :mod:`pdn_tools.pdn.ownership` compares with the nodes' reference counts when a
    game is dropped.

    The entries of *held* are counted on the nodes themselves (a field that is zero
    again on return): the state of a replayed game holds every node of its main
    line, and counting them by identity in a dictionary took half of this walk.
    """
    for other in held:
        other._references += 1
    nodes: list[Node] = []
    expected: list[int] = []
    stack: list[Node] = list(game.variations)
    while stack:
        node = stack.pop()
        children = node.variations
        nodes.append(node)
        expected.append(base + 1 + len(children) + node._references)
        node._references = 0
        stack.extend(children)
    for other in held:  # a held node outside the tree, if any
        other._references = 0
    return nodes, expected


class Extensions:
    """The tree's conveniences that the layers above the format provide.

    ``board`` (node → Board), ``merged`` (for :attr:`Game.plies`) and
    ``variant_name`` (a variant name checked, see :class:`ReadOptions`) are set by
    :mod:`pdn_tools.replay`, ``pdn`` (game → canonical PDN text) and ``json`` (game →
    JSON object) by :mod:`pdn_tools.export`, when they are imported (``import
    pdn_tools`` imports both), so that the tree can
    offer ``node.board()`` and ``str(game)`` without importing them.
    """

    def __init__(self) -> None:
        self.board: Callable[[Node], Board] | None = None
        self.pdn: Callable[[Game], str] | None = None
        self.json: Callable[[Game], dict[str, Any]] | None = None
        self.merged: Callable[[Game], int] | None = None
        """How many written main-line moves the replay merged into the move before
        them (the later jumps of captures written jump by jump, W24), from the game's
        ``replay_state`` (set by :mod:`pdn_tools.replay`)."""
        self.variant_name: Callable[[str], str] | None = None
        """The name of the variant a name, alias or GameType number gives, or
        UnknownVariantError (set by :mod:`pdn_tools.replay`): ReadOptions checks its
        ``variant`` with it."""


def _missing(name: str) -> RuntimeError:
    return RuntimeError(f"{name}() is provided by the pdn_tools package: import pdn_tools first")


EXTENSIONS = Extensions()
"""The one registry of the tree's conveniences (see :class:`Extensions`)."""
