"""Read the JSON and JSON Lines of :mod:`pdn_tools.export.jsonfmt` back into games.

The inverse of :func:`~pdn_tools.export.jsonfmt.game_dict` on the model: tags, the
move tree (comments, NAGs, variations, set-ups, placeholders, numbers, marks),
terminator, span, file, index, variant and issues come back as they were read, so
writing the game as PDN gives the text the original game gives.  What replay
derived (canonical moves, paths, final FEN) is not part of the model; replaying the
game again gives it back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from pdn_tools.diagnostics import CATALOGUE, Issue, Severity
from pdn_tools.export.jsonfmt import SCHEMA_VERSION
from pdn_tools.pdn.model import (
    LARGEST_NAG,
    Comment,
    Game,
    MoveText,
    Node,
    Span,
    Tag,
    Terminator,
    Unread,
)
from pdn_tools.pdn.ownership import ReadGame

#: Characters read from the file at a time.
READ_CHARS = 1 << 16
#: Largest game object read, in characters (its text is held while it is decoded).
MAX_OBJECT_CHARS = 1 << 27
#: Deepest variation nesting read back (as ``--max-depth`` for PDN).
MAX_DEPTH = 100


class JsonInputError(ValueError):
    """A JSON file that does not hold pdn-tools game objects; says where and why."""


_KINDS = {"brace", "line", "semicolon"}
_NEWLINE = "\n"
_BLANK = " \t\r\n\ufeff"
"""What JSON text may have between values (and a byte-order mark)."""
_REQUIRED = object()
"""Default of :func:`_get` for a key that must be present."""
_INT_LOW = -(1 << 31)
_INT_HIGH = (1 << 31) - 1
"""The integers a key of kind ``int`` may hold (32 bits)."""


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _get(data: dict[str, Any], key: str, kind: str, where: str, default: Any = None) -> Any:
    """``data[key]`` checked to be of *kind* (``str``, ``int`` — a line, a column, a
    count: 32 bits —, ``written`` — an integer as the PDN text wrote it, of any size —,
    ``bool``, ``object``, ``array``, a ``?`` suffix allowing null); *default* when the
    key is missing."""
    if key not in data:
        if default is _REQUIRED:
            raise JsonInputError(f"{where}: {key!r} is missing")
        return default
    value = data[key]
    optional = kind.endswith("?")
    if optional and value is None:
        return None
    base = kind.rstrip("?")
    ok = {
        "str": isinstance(value, str),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "written": isinstance(value, int) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
    }[base]
    if not ok:
        article = "an" if base in ("int", "written", "object", "array") else "a"
        names = {"str": "string", "int": "integer", "written": "integer"}
        raise JsonInputError(
            f"{where}.{key}: expected {article} {names.get(base, base)}, found {_describe(value)}"
        )
    if base == "int" and not _INT_LOW <= value <= _INT_HIGH:
        # Lines, columns, plies and game numbers: what no file read gives, and what the
        # outputs' 32-bit columns could not hold.
        raise JsonInputError(f"{where}.{key}: the integer {value} is out of range")
    return value


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise JsonInputError(f"{where}: expected an object, found {_describe(value)}")
    return value


def _comment(data: object, where: str) -> Comment:
    item = _object(data, where)
    kind = _get(item, "kind", "str", where, "brace")
    if kind not in _KINDS:
        raise JsonInputError(f"{where}.kind: unknown comment kind {kind!r}")
    return Comment(
        _get(item, "text", "str", where, _REQUIRED),
        kind,
        _get(item, "line", "int", where, 0),
        _get(item, "column", "int", where, 0),
    )


def _comments(data: dict[str, Any], key: str, where: str) -> list[Comment]:
    items = _get(data, key, "array", where, [])
    return [_comment(c, f"{where}.{key}[{i}]") for i, c in enumerate(items)]


def _nags(data: dict[str, Any], where: str, key: str = "nags") -> list[int]:
    nags = _get(data, key, "array", where, [])
    for i, nag in enumerate(nags):
        if not isinstance(nag, int) or isinstance(nag, bool):
            raise JsonInputError(f"{where}.{key}[{i}]: expected an integer, found {_describe(nag)}")
        if nag < 0:  # $n is written with digits only
            raise JsonInputError(f"{where}.{key}[{i}]: a NAG is never negative, found {nag}")
        if nag > LARGEST_NAG:  # the PDN reader keeps such a NAG as a comment (W15)
            raise JsonInputError(f"{where}.{key}[{i}]: the NAG {nag} is out of range")
    return list(nags)


def _node(value: object, where: str) -> Node:
    data = _object(value, where)
    kind = _get(data, "kind", "str", where, _REQUIRED)
    if kind == "move":
        text = _get(data, "text", "str", where, _REQUIRED)
        capture = "x" in text
        squares = tuple(text.split("x" if capture else "-"))
        node = Node("move", move=MoveText(squares, capture, _get(data, "mark", "str?", where)))
    elif kind == "placeholder":
        text = _get(data, "placeholder", "str", where, _REQUIRED)
        node = Node("placeholder", placeholder=text)
    elif kind == "setup":
        text = _get(data, "fen", "str", where, _REQUIRED)
        node = Node("setup", fen=text)
    else:
        raise JsonInputError(f"{where}.kind: unknown node kind {kind!r}")
    node.raw = _get(data, "raw", "str", where, text)
    node.line = _get(data, "line", "int", where, 0)
    node.column = _get(data, "column", "int", where, 0)
    node.number = _get(data, "number", "written?", where)  # any number, as written
    node.number_dots = _get(data, "number_dots", "str?", where)
    if "nags" in data:
        node.nags = _nags(data, where)
    if "starting_comments" in data:
        node.starting_comments = _comments(data, "starting_comments", where)
    if "starting_nags" in data:
        node.starting_nags = _nags(data, where, "starting_nags")
    if "comments" in data:
        node.comments = _comments(data, "comments", where)
    return node


def _attach_line(
    parent: Node, nodes: object, where: str, depth: int = 0, max_depth: int = MAX_DEPTH
) -> None:
    """Attach the line *nodes* below *parent*; alternatives stored on a node are
    added to its parent right after it (recursive per nesting level only, which
    *max_depth* bounds)."""
    if not isinstance(nodes, list):
        raise JsonInputError(f"{where}: expected an array of moves, found {_describe(nodes)}")
    if depth > max_depth:
        raise JsonInputError(
            f"{where}: variations nested deeper than {max_depth} levels (see --max-depth)"
        )
    at = parent
    for i, data in enumerate(nodes):
        here = f"{where}[{i}]"
        node = at.add_variation(_node(data, here))
        assert isinstance(data, dict)
        alternatives = _get(data, "variations", "array", here, [])
        for j, alternative in enumerate(alternatives):
            _attach_line(at, alternative, f"{here}.variations[{j}]", depth + 1, max_depth)
        at = node


def _issue(value: object, where: str) -> Issue:
    data = _object(value, where)
    code = _get(data, "code", "str", where, _REQUIRED)
    if code not in CATALOGUE:
        raise JsonInputError(f"{where}.code: unknown diagnostic code {code!r}")
    severity = _get(data, "severity", "str?", where)
    if severity is not None and severity not in {s.value for s in Severity}:
        raise JsonInputError(f"{where}.severity: unknown severity {severity!r}")
    return Issue(
        code,
        _get(data, "message", "str", where, _REQUIRED),
        _get(data, "line", "int", where, _REQUIRED),
        _get(data, "column", "int", where, _REQUIRED),
        Severity(severity) if severity else None,
        _get(data, "ply", "int?", where),
        _get(data, "move", "str?", where),
        bool(_get(data, "in_variation", "bool", where, False)),
        _get(data, "context", "str?", where),
        _get(data, "repair", "object?", where),
    )


def game_from_dict(value: object, *, max_depth: int = MAX_DEPTH, where: str = "game") -> Game:
    """The :class:`Game` a JSON game object describes.

    Raises :class:`JsonInputError`, naming the offending key, when *value* is not a
    pdn-tools game object (a wrong type anywhere, variations nested deeper than
    *max_depth*).
    """
    data = _object(value, where)
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version > SCHEMA_VERSION:
        raise JsonInputError(
            f"{where}: not a pdn-tools game object of schema version <= {SCHEMA_VERSION} "
            f"(schema_version: {version!r})"
        )
    game = ReadGame()
    game.file = _get(data, "file", "str", where, "<json>")
    game.index = _get(data, "game", "int", where, 0)
    span = _get(data, "span", "object?", where) or {}
    here = f"{where}.span"
    game.span = Span(
        _get(span, "start_line", "int", here, 0),
        _get(span, "start_column", "int", here, 0),
        _get(span, "end_line", "int", here, 0),
    )
    game.variant = _get(data, "variant", "str", where, "unknown")
    tags = _get(data, "tags", "array", where, _REQUIRED)
    game.tags = []
    for i, item in enumerate(tags):
        here = f"{where}.tags[{i}]"
        tag = _object(item, here)
        game.tags.append(
            Tag(
                _get(tag, "name", "str", here, _REQUIRED),
                _get(tag, "value", "str", here, _REQUIRED),
                _get(tag, "line", "int", here, 0),
                _get(tag, "column", "int", here, 0),
            )
        )
    game.preamble = _comments(data, "preamble", where)
    if "comments" in data:
        game.comments = _comments(data, "comments", where)
    if "nags" in data:
        game.nags = _nags(data, where)
    _attach_line(game, _get(data, "moves", "array", where, []), f"{where}.moves", 0, max_depth)
    term = _get(data, "terminator", "object?", where)
    if term is not None:
        here = f"{where}.terminator"
        game.terminator = Terminator(
            _get(term, "text", "str", here, _REQUIRED),
            _get(term, "line", "int", here, 0),
            _get(term, "column", "int", here, 0),
        )
    for i, item in enumerate(_get(data, "unread", "array", where, [])):
        here = f"{where}.unread[{i}]"
        piece = _object(item, here)
        game.unread.append(
            Unread(
                _get(piece, "text", "str", here, _REQUIRED),
                _get(piece, "line", "int", here, 0),
                _get(piece, "column", "int", here, 0),
            )
        )
    game.open_variations = max(0, _get(data, "open_variations", "int", where, 0))
    issues = _get(data, "issues", "array", where, [])
    game.issues = [_issue(item, f"{where}.issues[{i}]") for i, item in enumerate(issues)]
    return game


class _Values:
    """JSON values read one at a time from a text stream, in bounded memory.

    The buffer holds the value being decoded and at most :data:`READ_CHARS` more;
    text already decoded is dropped (its line ends counted, and the column its last
    line ends at, so that messages name the line and column of what they are about;
    a column counts characters from 1).  A value
    cut by the end of the buffer is decoded again once more text is read, the buffer
    doubling each time, up to :data:`MAX_OBJECT_CHARS`.
    """

    def __init__(self, stream: IO[str], max_chars: int = MAX_OBJECT_CHARS) -> None:
        self.stream = stream
        self.buffer = ""
        self.pos = 0
        self.line = 1
        """Line of ``buffer[0]`` in the file."""
        self.column = 0
        """Characters before ``buffer[0]`` on its line."""
        self.eof = False
        self.max_chars = max_chars
        self.decoder = json.JSONDecoder()

    def where(self, pos: int | None = None) -> str:
        """``line L, column C`` of ``buffer[pos]`` (default: the read position)."""
        at = self.pos if pos is None else pos
        newlines = self.buffer.count(_NEWLINE, 0, at)
        start = self.buffer.rfind(_NEWLINE, 0, at) + 1 if newlines else -self.column
        column = at - start + 1
        return f"line {self.line + newlines}, column {column}"

    def _read(self, at_least: int) -> None:
        """Drop the decoded text and read at least *at_least* more characters."""
        if self.pos:
            newlines = self.buffer.count(_NEWLINE, 0, self.pos)
            if newlines:
                self.line += newlines
                self.column = self.pos - self.buffer.rfind(_NEWLINE, 0, self.pos) - 1
            else:
                self.column += self.pos
            self.buffer = self.buffer[self.pos :]
            self.pos = 0
        try:
            more = self.stream.read(max(at_least, READ_CHARS))
        except UnicodeDecodeError as exc:
            raise JsonInputError(f"{self.where()}: not UTF-8 text ({exc.reason})") from None
        if more:
            if not self.buffer and self.line == 1 and self.column == 0 and more[0] == "\ufeff":
                # A byte order mark opens the file: not a character of line 1, whose
                # columns count from what follows it (as the PDN reader counts them).
                more = more[1:]
            self.buffer += more
        else:
            self.eof = True

    def peek(self) -> str:
        """The next character that is not white space ('' at the end)."""
        while True:
            buffer = self.buffer
            pos = self.pos
            size = len(buffer)
            while pos < size and buffer[pos] in " \t\r\n\ufeff":
                pos += 1
            self.pos = pos
            if pos < size:
                return buffer[pos]
            if self.eof:
                return ""
            self._read(READ_CHARS)

    def take(self, char: str) -> None:
        if self.peek() != char:
            found = self.peek() or "the end of the file"
            raise JsonInputError(f"{self.where()}: expected {char!r}, found {found!r}")
        self.pos += 1

    def _rest_blank(self, pos: int) -> bool:
        """Whether only white space follows ``buffer[pos]``."""
        return not self.buffer[pos:].strip(_BLANK)

    def _broken(self, exc: json.JSONDecodeError) -> str:
        """The message of text that is not JSON: where the decoder stopped and why,
        and where the value starts when that is on an earlier line (a line of JSON
        Lines cut short is found only on the next one)."""
        reason = exc.msg.removesuffix(" at").removesuffix(" starting")
        stopped = self.where(exc.pos)
        if self.buffer.count(_NEWLINE, self.pos, exc.pos):
            return (
                f"{self.where()}: the JSON value that starts here is broken at {stopped}: {reason}"
            )
        return f"{stopped}: {reason}"

    def value(self) -> Any:
        """Decode the next value."""
        self.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buffer, self.pos)
            except json.JSONDecodeError as exc:
                held = len(self.buffer) - self.pos
                cut = exc.pos >= len(self.buffer) - 8 or exc.msg.startswith("Unterminated")
                if self.eof and (exc.msg.startswith("Unterminated") or self._rest_blank(exc.pos)):
                    # The file ends inside the value: it was cut short (a truncated
                    # file).  Where the value starts says which one; where the decoder
                    # stopped is only the end of the file.
                    last = max(len(self.buffer.rstrip(_BLANK)) - 1, self.pos)
                    raise JsonInputError(
                        f"{self.where()}: the file ends inside this JSON value: it breaks "
                        f"off after {self.where(last)} (a file cut short?)"
                    ) from None
                if self.eof or not cut:
                    raise JsonInputError(self._broken(exc)) from None
                if held >= self.max_chars:
                    raise JsonInputError(
                        f"{self.where()}: a JSON value longer than {self.max_chars} characters"
                    ) from None
                self._read(held)
                continue
            except RecursionError:
                raise JsonInputError(f"{self.where()}: JSON nested too deeply") from None
            if end >= len(self.buffer) and not self.eof and not isinstance(value, (dict, list)):
                self._read(READ_CHARS)  # a number or literal may go on
                continue
            self.pos = end
            return value


def _objects(stream: IO[str], max_chars: int = MAX_OBJECT_CHARS) -> Iterator[tuple[str, Any]]:
    """The values of a JSON array, or of JSON Lines (values one after another),
    streamed: only one value's text is held at a time; each with the line and column
    where it starts."""
    values = _Values(stream, max_chars)
    if values.peek() != "[":
        while values.peek():
            yield values.where(), values.value()
        return
    values.take("[")
    if values.peek() == "]":
        values.take("]")
    else:
        while True:
            values.peek()
            yield values.where(), values.value()
            following = values.peek()
            if following == "]":
                values.take("]")
                break
            if following != ",":
                found = following or "the end of the file"
                raise JsonInputError(f"{values.where()}: expected ',' or ']', found {found!r}")
            values.take(",")
    if values.peek():
        raise JsonInputError(f"{values.where()}: text after the closing ']'")


def read_json(
    source: str | Path | IO[str],
    *,
    max_depth: int = MAX_DEPTH,
    max_chars: int = MAX_OBJECT_CHARS,
) -> Iterator[Game]:
    """Yield the games of a JSON (array) or JSON Lines file written by pdn-tools.

    The file is streamed: only one game object's text is held at a time (at most
    *max_chars* characters, plus :data:`READ_CHARS` read ahead), however large the
    file or however long its lines.  Anything that is not a pdn-tools game object
    raises :class:`JsonInputError` naming the game and the key.
    """
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8") as stream:
            yield from _games(stream, max_depth, max_chars)
    else:
        yield from _games(source, max_depth, max_chars)


def _games(stream: IO[str], max_depth: int, max_chars: int) -> Iterator[Game]:
    for number, (start, value) in enumerate(_objects(stream, max_chars), 1):
        try:
            game = game_from_dict(value, max_depth=max_depth, where=f"game {number}")
        except JsonInputError as exc:
            raise JsonInputError(f"{start}: {exc}") from None
        yield game
