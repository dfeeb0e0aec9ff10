"""JSON and JSON Lines: one object per game, everything read plus what replay found.

The object is described in ``docs/export.md`` (``schema_version`` :data:`SCHEMA_VERSION`).
It holds the tags in order, the players' keys
(:func:`pdn_tools.pdn.players.player_key`), the move tree (comments, NAGs, variations, set-ups,
placeholders, move numbers, each with its line and column), the terminator, the
source span, every issue, and the replay's facts: plies, each resolved move's
canonical text, squares, full path and captured squares, draw events and the final
FEN.  :mod:`pdn_tools.export.from_json` reads it back into a :class:`Game`.

Optional keys are left out when empty (no ``comments`` key on a node without
comments) so that a JSON Lines file of plain games stays close to the PDN's size.
"""

from __future__ import annotations

import json
from typing import IO, Any

from pdn_tools.pdn.commands import Side, clock_and_eval
from pdn_tools.pdn.model import Comment, Game, Node
from pdn_tools.pdn.players import player_key
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.resolve import Resolution
from pdn_tools.replay.summary import HEAD_KEYS, game_head
from pdn_tools.rules import Color

SCHEMA_VERSION = 1
"""Version of the JSON game object; bumped when a key changes meaning or is removed."""


def comment_dict(comment: Comment) -> dict[str, Any]:
    """A comment as JSON: text, kind and where it was written."""
    return {
        "text": comment.text,
        "kind": comment.kind,
        "line": comment.line,
        "column": comment.column,
    }


def _node_dict(node: Node, resolution: Resolution) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": node.kind}
    if node.kind == "move" and node.move is not None:
        text = data["text"] = node.move.text()
        if node.move.mark is not None:
            data["mark"] = node.move.mark
    elif node.kind == "placeholder":
        text = data["placeholder"] = node.placeholder or ""
    else:
        text = data["fen"] = node.fen or ""
    if node.raw != text:
        data["raw"] = node.raw
    data["line"] = node.line
    data["column"] = node.column
    if node.number is not None:
        data["number"] = node.number
        data["number_dots"] = node.number_dots
    if node.nags:
        data["nags"] = list(node.nags)
    if node.starting_comments:
        data["starting_comments"] = [comment_dict(c) for c in node.starting_comments]
    if node.starting_nags:
        data["starting_nags"] = list(node.starting_nags)
    if node.comments:
        data["comments"] = [comment_dict(c) for c in node.comments]
    resolved = resolution.get(node)
    if resolved is not None:
        move = resolved.move
        if resolved.ply is not None:
            data["ply"] = resolved.ply
        data["canonical"] = resolved.text
        data["from"] = move.from_sq
        data["to"] = move.to_sq
        data["path"] = list(move.paths[0])
        data["captures"] = sorted(move.captures)
    elif id(node) in resolution.merged:
        data["merged"] = True
    if node.kind == "move":
        mover: Side | None = None
        if resolved is not None:
            mover = "black" if resolved.after.turn is Color.WHITE else "white"
        for key, value in clock_and_eval(node, mover).items():
            if value is not None:
                data[key] = value
    parent = node.parent
    if parent is not None and len(parent.variations) > 1 and parent.variations[0] is node:
        data["variations"] = [line_list(alt, resolution) for alt in parent.variations[1:]]
    return data


def line_list(first: Node, resolution: Resolution) -> list[dict[str, Any]]:
    """The line of play starting at *first*, as a list of node objects."""
    out: list[dict[str, Any]] = []
    node: Node | None = first
    while node is not None:
        out.append(_node_dict(node, resolution))
        node = node.next()
    return out


def validation_dict(game: Game, replay: ReplayResult | None) -> dict[str, Any]:
    """What the replay established (``replayed`` false when it was not replayed)."""
    if replay is None:
        replay = ReplayResult(skipped="not replayed")
    stop = replay.stop
    return {
        "replayed": replay.replayed,
        "skipped": replay.skipped,
        "plies": replay.plies,
        "completed": replay.completed,
        "stop": (
            None
            if stop is None
            else {
                "ply": stop.ply,
                "line": stop.line,
                "column": stop.column,
                "reason": stop.reason,
                "code": stop.code,
            }
        ),
        "final_fen": replay.final_fen,
        "final_side_has_moves": replay.final_side_has_moves,
        "draws": [dict(d) for d in replay.draws],
        "continued_after_draw": replay.continued_after_draw,
    }


def game_dict(
    game: Game, replay: ReplayResult | None = None, resolution: Resolution | None = None
) -> dict[str, Any]:
    """The JSON object of *game* (see ``docs/export.md``)."""
    res = resolution or Resolution()
    term = game.terminator
    head = game_head(game, replay)
    data: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    for key in HEAD_KEYS:
        if key != "issues":  # kept after the moves, where version 1 wrote them
            data[key] = head[key]
    data["span"] = {
        "start_line": game.span.start_line,
        "start_column": game.span.start_column,
        "end_line": game.span.end_line,
    }
    data["tags"] = [
        {"name": t.name, "value": t.value, "line": t.line, "column": t.column} for t in game.tags
    ]
    data["white_key"] = player_key(game.tag("White"))
    data["black_key"] = player_key(game.tag("Black"))
    if game.preamble:
        data["preamble"] = [comment_dict(c) for c in game.preamble]
    if game.comments:
        data["comments"] = [comment_dict(c) for c in game.comments]
    if game.nags:
        data["nags"] = list(game.nags)
    first = game.next()
    data["moves"] = line_list(first, res) if first is not None else []
    data["terminator"] = (
        None if term is None else {"text": term.text, "line": term.line, "column": term.column}
    )
    if game.unread:
        data["unread"] = [{"text": u.text, "line": u.line, "column": u.column} for u in game.unread]
    if game.open_variations:
        data["open_variations"] = game.open_variations
    data["issues"] = head["issues"]
    data["validation"] = validation_dict(game, replay)
    return data


def dumps(data: dict[str, Any]) -> str:
    """One game object as compact JSON text on one line (UTF-8 kept as is)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class JsonlWriter:
    """Writes one JSON object per line."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, data: dict[str, Any]) -> None:
        """Append one game object."""
        self.write_text(dumps(data))

    def write_text(self, text: str) -> None:
        """Append one game object already turned into text by :func:`dumps`."""
        self.stream.write(text + "\n")

    def close(self) -> None:
        """Nothing to finish: every line is complete."""


class JsonArrayWriter:
    """Writes one JSON array, streamed: ``[``, one game object per line, ``]``.

    The array is never built in memory; each object stands on its own line, so
    :func:`pdn_tools.export.from_json.read_json` can read it back line by line too.
    """

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.count = 0
        stream.write("[")

    def write(self, data: dict[str, Any]) -> None:
        """Append one game object."""
        self.write_text(dumps(data))

    def write_text(self, text: str) -> None:
        """Append one game object already turned into text by :func:`dumps`."""
        self.stream.write(("\n" if self.count == 0 else ",\n") + text)
        self.count += 1

    def close(self) -> None:
        """Close the array."""
        self.stream.write("\n]\n")
