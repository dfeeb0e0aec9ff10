"""Write game trees as PDN text.

The writer is the reader's inverse on the model: writing a game and reading the
text back gives the same tree (tags, moves, comments, NAGs, variations, set-ups,
move numbers as recorded, terminator).  Movetext lines are wrapped between
tokens at :data:`WIDTH` columns; a comment is never split, so a comment longer
than a line stands on a line of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pdn_tools.pdn.model import Comment, Game, Node, Tag, Visitor
from pdn_tools.pdn.tags import ROSTER, escape, standard_name

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


def write_comment(out: Lines, comment: Comment) -> None:
    """Write *comment* in its own kind (``{…}``, ``%…`` line or ``;…``)."""
    if comment.kind == "line":
        out.own_line("%" + comment.text)
    elif comment.kind == "semicolon":
        out.own_line(";" + comment.text)
    else:
        out.token("{" + comment.text.replace("}", ")") + "}")


def _comments(out: Lines, comments: Iterable[Comment]) -> None:
    for comment in comments:
        write_comment(out, comment)


def _element(out: Lines, node: Node) -> None:
    if node.starting_comments:
        _comments(out, node.starting_comments)
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
    _comments(out, node.comments)


class _Movetext(Visitor[None]):
    """Writes the move tree as read: elements in order, alternatives in parentheses."""

    def __init__(self, out: Lines) -> None:
        self.out = out

    def visit_node(self, node: Node) -> None:
        _element(self.out, node)

    def begin_variation(self, first: Node) -> None:
        self.out.token("(")

    def end_variation(self, first: Node) -> None:
        self.out.token(")")


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
    _comments(out, game.comments)
    for nag in game.nags:
        out.token(f"${nag}")
    game.accept(_Movetext(out))  # writes the alternatives to the first move too
    end = "*" if terminator == "star" or game.terminator is None else game.terminator.text
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
