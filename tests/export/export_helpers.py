"""Helpers of the exporter tests: legal generated games, conversion and comparison."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from pdn_tools import Comment, Game, MoveText, Node, Tag, Terminator, read_string
from pdn_tools.pdn.gametype import BY_NAME, BY_NUMBER, PROFILE_BASES
from pdn_tools.pdn.results import read_result
from pdn_tools.pdn.tags import standard_name
from pdn_tools.replay import ReplayResult, replay_game
from pdn_tools.replay.resolve import Resolution, resolve
from pdn_tools.rules import INTERNATIONAL, Position, legal_moves, move_text, path_text

COMMENTS = st.sampled_from(
    [
        "good",
        "[%clock w1:29:46 B1:29:40]",
        "a long remark that goes on and on about the position and why it matters " * 2,
        "[%eval 0.3] then [%clock w0:01:02 B0:00:59]",
        "Ходят белые",
    ]
)


def _move_node(draw: st.DrawFn, position: Position) -> tuple[Node, Position] | None:
    legal = legal_moves(position, INTERNATIONAL)
    if not legal:
        return None
    move = legal[draw(st.integers(0, len(legal) - 1))]
    spelling = draw(st.sampled_from(["canonical", "canonical", "path"]))
    text = move_text(move, legal) if spelling == "canonical" else path_text(move)
    capture = "x" in text
    node = Node("move", move=MoveText(tuple(text.split("x" if capture else "-")), capture))
    node.raw = text
    if draw(st.integers(0, 4)) == 0:
        node.nags = [draw(st.sampled_from([1, 2, 3, 4, 5, 6, 7, 14, 250]))]
    if draw(st.integers(0, 3)) == 0:
        node.comments = [Comment(draw(COMMENTS))]
    return node, position.apply(move)


@st.composite
def legal_games(draw: st.DrawFn) -> Game:
    """An international game of random legal moves, with comments, NAGs and
    variations (each a few legal moves from the position before the move it
    replaces), written in short or full capture notation."""
    game = Game()
    game.tags = [
        Tag("Event", draw(st.sampled_from(["Cup", 'Open "A"', "Back\\slash"]))),
        Tag("White", "W"),
        Tag("Black", "B"),
        Tag("GameType", "20"),
    ]
    if draw(st.booleans()):
        game.tags.insert(0, Tag("Annotator", "me"))
    position = Position.initial(INTERNATIONAL)
    parent: Node = game
    for _ in range(draw(st.integers(0, 70))):
        made = _move_node(draw, position)
        if made is None:
            break
        node, after = made
        parent.add_variation(node)
        if draw(st.integers(0, 7)) == 0:
            alt_parent: Node = parent
            alt_position = position
            for _ in range(draw(st.integers(1, 4))):
                alt = _move_node(draw, alt_position)
                if alt is None:
                    break
                alt_node, alt_position = alt
                alt_parent.add_variation(alt_node)
                alt_parent = alt_node
        parent, position = node, after
    result = draw(st.sampled_from(["2-0", "0-2", "1-1", "*", "1-0"]))
    game.terminator = Terminator(result)
    return game


def converted(text: str) -> tuple[Game, ReplayResult, Resolution]:
    """The single game of *text*, replayed and resolved."""
    games = read_string(text)
    assert len(games) == 1, text
    game = games[0]
    replay = replay_game(game)
    return game, replay, resolve(game, replay)


def replay_facts(game: Game, replay: ReplayResult) -> Any:
    """What validation established, without source positions or notation warnings."""
    return (
        replay.replayed,
        replay.plies,
        replay.completed,
        replay.final_fen,
        [dict(d) for d in replay.draws],
        [m.move.identity for m in replay.moves],
        [m.text for m in replay.moves],
        [(i.code, i.ply) for i in game.issues if i.level.value == "error"],
    )


def issue_facts(game: Game) -> list[tuple[str, str, str, int | None]]:
    """Every issue without its line and column."""
    return [(i.code, i.level.value, i.message, i.ply) for i in game.issues]


def named_variant(game: Game, resolution: Resolution) -> list[tuple[str, str]]:
    """The GameType tag canonical PDN adds to *game* (docs/export.md): that of the
    variant a game without one was replayed under, unless international; its number,
    or its long form when the number alone names another variant (unified pool)."""
    if resolution.variant is None or any(standard_name(t.name) == "GameType" for t in game.tags):
        return []
    name = PROFILE_BASES.get(resolution.variant.name, resolution.variant.name)
    entry = BY_NAME.get(name)
    if entry is None or entry.number == 20:
        return []
    own = BY_NUMBER[entry.number] is entry
    return [("GameType", str(entry.number) if own else entry.full)]


def tag_meaning(tag: tuple[str, str]) -> tuple[str, str]:
    """What a tag says, as canonical PDN must keep it: the standard tag its name is
    read as (case aside), and its value, where canonical writing spells it regularly
    (docs/export.md) by what it means: a Result by its outcome (an unknown result by
    any spelling that says so), a FEN without spaces and one trailing '.', any other
    value with its line breaks as spaces."""
    name, value = tag
    key = standard_name(name).lower()
    if key == "result":
        outcome = read_result(value).outcome
        if outcome == "unknown":
            return key, "" if value.strip() in ("", "-", "?", "*") else value
        return key, outcome
    if key == "fen":
        compact = "".join(value.split())
        if compact.endswith(".") and not compact.endswith(".."):
            compact = compact[:-1]
        return key, compact if compact not in ("", "?") else value
    return key, value.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def semantic_tree(game: Game, resolution: Resolution, written: bool = False) -> Any:
    """The tree with each move as its engine identity when resolved (spelling and
    move numbers aside) and each tag by what it says (:func:`tag_meaning`): what
    canonical writing must keep.  *written*: as canonical
    PDN writes it, with the GameType it adds (:func:`named_variant`)."""
    added = named_variant(game, resolution) if written else []

    def node_sig(node: Node) -> Any:
        resolved = resolution.get(node)
        what: Any = resolved.move.identity if resolved is not None else node.element_text()
        if node.kind == "placeholder":
            what = "--"  # "-", "--" and "..." all stand for an unknown move
        elif node.kind == "setup":
            what = tag_meaning(("FEN", node.fen or ""))[1]  # as the FEN tag's value
        return (
            node.kind,
            what,
            node.move.mark if node.move else None,
            tuple(node.nags),
            tuple((c.kind, c.text) for c in node.comments),
            tuple((c.kind, c.text) for c in node.starting_comments),
            tuple(node.starting_nags),
        )

    def line_sig(first: Node) -> Any:
        out = []
        node: Node | None = first
        while node is not None:
            parent = node.parent
            alternatives = []
            if parent is not None and parent.variations[0] is node:
                alternatives = [line_sig(v) for v in parent.variations[1:]]
            out.append((node_sig(node), tuple(alternatives)))
            node = node.next()
        return tuple(out)

    return (
        sorted(tag_meaning(t) for t in [*((t.name, t.value) for t in game.tags), *added]),
        tuple((c.kind, c.text) for c in game.comments),
        tuple(game.nags),
        tuple(line_sig(v) for v in game.variations),
    )
