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

from pdn_tools.diagnostics import Issue, Severity
from pdn_tools.export.jsonfmt import SCHEMA_VERSION
from pdn_tools.pdn.model import Comment, Game, MoveText, Node, Span, Tag, Terminator


class JsonInputError(ValueError):
    """A JSON file that does not hold pdn-tools game objects."""


def _comment(data: dict[str, Any]) -> Comment:
    return Comment(
        data["text"], data.get("kind", "brace"), data.get("line", 0), data.get("column", 0)
    )


def _node(data: dict[str, Any]) -> Node:
    kind = data["kind"]
    if kind == "move":
        text = data["text"]
        capture = "x" in text
        squares = tuple(text.split("x" if capture else "-"))
        node = Node("move", move=MoveText(squares, capture, data.get("mark")))
    elif kind == "placeholder":
        text = data["placeholder"]
        node = Node("placeholder", placeholder=text)
    elif kind == "setup":
        text = data["fen"]
        node = Node("setup", fen=text)
    else:
        raise JsonInputError(f"unknown node kind {kind!r}")
    node.raw = data.get("raw", text)
    node.line = data.get("line", 0)
    node.column = data.get("column", 0)
    node.number = data.get("number")
    node.number_dots = data.get("number_dots")
    if "nags" in data:
        node.nags = list(data["nags"])
    if "starting_comments" in data:
        node.starting_comments = [_comment(c) for c in data["starting_comments"]]
    if "comments" in data:
        node.comments = [_comment(c) for c in data["comments"]]
    return node


def _attach_line(parent: Node, nodes: list[dict[str, Any]]) -> None:
    """Attach the line *nodes* below *parent*; alternatives stored on a node are
    added to its parent right after it (recursive per nesting level only)."""
    at = parent
    for data in nodes:
        node = at.add_variation(_node(data))
        for alternative in data.get("variations", ()):
            _attach_line(at, alternative)
        at = node


def _issue(data: dict[str, Any]) -> Issue:
    return Issue(
        data["code"],
        data["message"],
        data["line"],
        data["column"],
        Severity(data["severity"]) if data.get("severity") else None,
        data.get("ply"),
        data.get("move"),
        bool(data.get("in_variation", False)),
        data.get("context"),
    )


def game_from_dict(data: dict[str, Any]) -> Game:
    """The :class:`Game` a JSON game object describes."""
    version = data.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise JsonInputError(
            f"not a pdn-tools game object of schema version <= {SCHEMA_VERSION} "
            f"(schema_version: {version!r})"
        )
    game = Game()
    game.file = data.get("file", "<json>")
    game.index = data.get("game", 0)
    span = data.get("span") or {}
    game.span = Span(
        span.get("start_line", 0), span.get("start_column", 0), span.get("end_line", 0)
    )
    game.variant = data.get("variant", "unknown")
    game.tags = [
        Tag(t["name"], t["value"], t.get("line", 0), t.get("column", 0)) for t in data["tags"]
    ]
    game.preamble = [_comment(c) for c in data.get("preamble", ())]
    if "comments" in data:
        game.comments = [_comment(c) for c in data["comments"]]
    if "nags" in data:
        game.nags = list(data["nags"])
    _attach_line(game, data.get("moves", []))
    term = data.get("terminator")
    if term is not None:
        game.terminator = Terminator(term["text"], term.get("line", 0), term.get("column", 0))
    game.issues = [_issue(i) for i in data.get("issues", ())]
    return game


def _objects(stream: IO[str]) -> Iterator[dict[str, Any]]:
    """The objects of a JSON Lines stream or of a JSON array written one object per
    line (as pdn-tools writes it); any other JSON array is loaded whole."""
    first = stream.readline()
    head = first.strip()
    if head.startswith("[") and head not in ("[", "[]"):
        # An array not laid out one object per line: load it whole.
        rest = stream.read()
        yield from json.loads(first + rest)
        return
    if head == "[]":
        return
    if head != "[" and head:
        yield json.loads(head)
    for line in stream:
        text = line.strip()
        if not text or text == "]":
            continue
        if text.endswith(","):
            text = text[:-1]
        yield json.loads(text)


def read_json(source: str | Path | IO[str]) -> Iterator[Game]:
    """Yield the games of a JSON (array) or JSON Lines file written by pdn-tools."""
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8") as stream:
            for data in _objects(stream):
                yield game_from_dict(data)
    else:
        for data in _objects(source):
            yield game_from_dict(data)
