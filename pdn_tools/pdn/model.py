"""The game tree: what a PDN record says, with where it says it.

The shape follows the python-chess convention: a :class:`Game` is the root
:class:`Node`; every node's ``variations`` lists the alternatives that follow it,
``variations[0]`` being the main line.  A node holds one movetext element that
occupies a ply slot: a move, an unknown-move placeholder, or a ``/FEN/`` set-up.
Nothing here knows the rules of draughts: squares are kept as written (normalised
only in spelling), and whether a move is legal is the replay's question.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal
from weakref import ref

from pdn_tools.diagnostics import Issue, Severity

#: Standard strength marks and the NAG numbers they are stored as (pdn-format.md §8.1).
MARK_TO_NAG: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
#: NAG of a forced move; a glued ``*`` is stored as this (W15).
FORCED_NAG = 7


@dataclass(slots=True)
class Tag:
    """One ``[Name "value"]`` pair, in file order.

    ``name`` is the name as written, trimmed and with HTML entities decoded;
    ``value`` is the decoded value (``\\"`` and ``\\\\`` unescaped).
    """

    name: str
    value: str
    line: int = 0
    column: int = 0


@dataclass(slots=True)
class Comment:
    """A comment: ``{…}`` (brace), ``%…`` in column 1 (line) or ``;…`` (semicolon)."""

    text: str
    kind: Literal["brace", "line", "semicolon"] = "brace"
    line: int = 0
    column: int = 0

    def commands(self) -> list[tuple[str, str]]:
        """Embedded ``[%name value]`` commands, in order, as (name, value) pairs."""
        from pdn_tools.pdn.commands import parse_commands

        return parse_commands(self.text)


@dataclass(frozen=True, slots=True)
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
    mark: str | None = None

    def text(self, separator: str | None = None) -> str:
        """The move in normalised spelling, e.g. ``32-28`` or ``28x17x8``."""
        sep = separator if separator is not None else ("x" if self.capture else "-")
        return sep.join(self.squares)

    def __str__(self) -> str:
        return self.text()


NodeKind = Literal["root", "move", "placeholder", "setup"]


class Node:
    """A point in the move tree.

    The root (the :class:`Game` itself) holds no element.  A child node holds a
    move (:attr:`move`), an unknown-move placeholder (:attr:`placeholder`, the text
    as written: ``-``, ``--`` or ``...``) or a set-up command (:attr:`fen`).
    ``comments`` follow the element; ``starting_comments`` precede the first
    element of a variation.  ``number`` is the move number written before the
    element (None when there was none) and ``number_dots`` its dots.

    A node holds its ``variations`` strongly and its ``parent`` weakly, so a tree
    has no reference cycle: a game is freed the moment the last reference to it
    goes, without the cyclic garbage collector (which otherwise costs about a
    tenth of reading time and lets memory climb between its passes).  The price:
    ``parent`` is valid while something holds the tree's root (the :class:`Game`);
    a node kept alone after its game is dropped keeps the moves after it, and its
    ``parent`` turns None where the dropped part began.
    """

    __slots__ = (
        "__weakref__",
        "_comments",
        "_nags",
        "_parent",
        "_starting_comments",
        "column",
        "fen",
        "kind",
        "line",
        "move",
        "number",
        "number_dots",
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
        self._parent: ref[Node] | None = None if parent is None else ref(parent)
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
        self._nags: list[int] | None = None
        self.number: int | None = None
        self.number_dots: str | None = None

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
    def parent(self) -> Node | None:
        """The node this one follows (None for a root, or once the root is gone)."""
        link = self._parent
        return None if link is None else link()

    @parent.setter
    def parent(self, value: Node | None) -> None:
        self._parent = None if value is None else ref(value)

    @property
    def nags(self) -> list[int]:
        """Numeric annotation glyphs of the element (strength marks included)."""
        if self._nags is None:
            self._nags = []
        return self._nags

    @nags.setter
    def nags(self, value: list[int]) -> None:
        self._nags = value

    # -- navigation --------------------------------------------------------
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

    def element_text(self) -> str:
        """The element in normalised spelling (move text, placeholder or set-up)."""
        if self.kind == "move" and self.move is not None:
            return self.move.text()
        if self.kind == "placeholder":
            return self.placeholder or "--"
        if self.kind == "setup":
            return f'/FEN "{self.fen}"/'
        return ""

    def __repr__(self) -> str:
        return f"<Node {self.kind} {self.element_text()!r} at {self.line}:{self.column}>"


@dataclass(slots=True)
class Terminator:
    """The game terminator as written (``*``, ``2-0``, ``1/2-1/2`` ...)."""

    text: str
    line: int = 0
    column: int = 0


@dataclass(slots=True)
class Span:
    """Where a game lies in its file: 1-based lines, inclusive."""

    start_line: int
    start_column: int
    end_line: int


class Game(Node):
    """One game record: tags, the move tree, the terminator and the findings.

    ``issues`` collects every diagnostic of reading (and, later, of replay), in
    source order.  ``file`` and ``index`` (1-based within the file) identify it.
    ``source`` is the game's text as read, kept only when
    :attr:`ReadOptions.keep_source` asks for it (rejects files copy it verbatim).
    """

    __slots__ = (
        "file",
        "index",
        "issues",
        "preamble",
        "source",
        "span",
        "tags",
        "terminator",
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
        self.source: str | None = None

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
        """Half-moves on the main line (moves and unknown-move placeholders)."""
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
        worst = max((i.level.rank for i in self.issues), default=-1)
        if worst >= Severity.ERROR.rank:
            return "error"
        if worst >= Severity.WARNING.rank:
            return "warning"
        return "ok"

    def add_issue(self, issue: Issue) -> None:
        """Record a finding on this game."""
        self.issues.append(issue)

    def __repr__(self) -> str:
        return (
            f"<Game {self.file}#{self.index} {self.tag('White', '?')} - "
            f"{self.tag('Black', '?')} plies={self.plies}>"
        )


@dataclass(slots=True)
class ReadOptions:
    """How tolerant the reader is, and its resource limits.

    ``strict`` turns every deviation from the PDN 3.0 writing grammar into an error.
    ``max_game_chars`` and ``max_depth`` bound the memory and the work one game may
    take; a game over a limit is reported (E11) and skipped, its neighbours are read.
    """

    strict: bool = False
    encoding: str | None = None
    max_game_chars: int = 2_000_000
    max_depth: int = 100
    variant: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    keep_source: bool = False
    """Keep each game's text as read on :attr:`Game.source` (None for a game over
    ``max_game_chars``, whose text is never held)."""
