"""Property: a generated game tree, written as PDN and read back, is the same tree."""

from __future__ import annotations

from helpers import signature
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn_tools import Comment, Game, MoveText, Node, Tag, Terminator, read_string
from pdn_tools.export.pdn import write_game

COMMENT_ALPHABET = st.characters(
    blacklist_characters="{}[\r\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    blacklist_categories=("Cs",),
)
LINE_ALPHABET = st.characters(
    blacklist_characters="\n\r\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    blacklist_categories=("Cs",),
)
VALUE_ALPHABET = st.characters(
    blacklist_characters="\n\r\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    blacklist_categories=("Cs", "Cc"),
)


@st.composite
def squares(draw: st.DrawFn) -> tuple[str, ...]:
    count = draw(st.integers(2, 4))
    sqs = tuple(str(draw(st.integers(1, 50))) for _ in range(count))
    # [012]-[012] would be a result ('1-2 ' ends a game, pdn-format.md §4.2): such moves
    # are impossible on every board, so they are not generated.
    if sqs[0] in ("1", "2") and sqs[-1] in ("1", "2") and count == 2:
        sqs = (sqs[0], "7")
    return sqs


@st.composite
def comments(draw: st.DrawFn, allow_line: bool = True) -> list[Comment]:
    kinds = ["brace", "line", "semicolon"] if allow_line else ["brace"]
    out = []
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(kinds))
        alphabet = COMMENT_ALPHABET if kind == "brace" else LINE_ALPHABET
        text = draw(st.text(alphabet, max_size=30))
        if kind == "brace" and "\n" in text:
            # a line starting with % inside a comment is text, but keep it simple
            text = text.replace("\n%", "\n ")
        out.append(Comment(text, kind))
    return out


@st.composite
def element(draw: st.DrawFn, first_in_variation: bool) -> Node:
    kind = draw(st.sampled_from(["move"] * 8 + ["placeholder", "setup"]))
    if first_in_variation and kind == "setup":
        kind = "move"
    if kind == "move":
        sqs = draw(squares())
        capture = len(sqs) > 2 or draw(st.booleans())
        mark = draw(st.sampled_from([None, None, None, "(?)", "!!!", "(!?!!!)"]))
        node = Node("move", move=MoveText(sqs, capture, mark))
        node.nags = draw(st.lists(st.integers(0, 999), max_size=2))
    elif kind == "placeholder":
        node = Node("placeholder", placeholder="--")
    else:
        fen = draw(st.sampled_from(["W:W31-50:B1-20", "B:W18,K24:B12", "W:W33:B", "W:W33:B12."]))
        node = Node("setup", fen=fen)
    if kind != "setup" and draw(st.booleans()):
        node.number = draw(st.integers(1, 120))
        node.number_dots = "." if first_in_variation else draw(st.sampled_from([".", "..."]))
    node.comments = draw(comments())
    if first_in_variation:
        node.starting_comments = draw(comments(allow_line=False))
        node.starting_nags = draw(st.lists(st.integers(0, 999), max_size=2))
    return node


@st.composite
def line_of_play(draw: st.DrawFn, depth: int) -> Node:
    """A detached line (its first node), with variations down to *depth*."""
    length = draw(st.integers(1, 6))
    first = draw(element(first_in_variation=True))
    nodes = [first]
    for _ in range(length - 1):
        node = draw(element(first_in_variation=False))
        nodes[-1].add_variation(node)
        nodes.append(node)
    if depth > 0:
        for node in nodes:
            if node.kind == "setup" or node.parent is None:
                continue
            for _ in range(draw(st.integers(0, 1))):
                node.parent.add_variation(draw(line_of_play(depth - 1)))
    return first


@st.composite
def games(draw: st.DrawFn) -> Game:
    game = Game()
    names = draw(
        st.lists(
            st.from_regex(r"[A-Z][A-Za-z0-9_]{0,8}", fullmatch=True),
            max_size=6,
            unique_by=str.lower,
        )
    )
    game.tags = [Tag(name, draw(st.text(VALUE_ALPHABET, max_size=20))) for name in names]
    game.comments = draw(comments(allow_line=False))
    game.nags = draw(st.lists(st.integers(0, 999), max_size=2))
    if draw(st.booleans()):
        first = draw(line_of_play(depth=2))
        # the main line may not start with a set-up followed by a variation; fine
        first.starting_comments = []
        first.starting_nags = []  # before the first move of the game: the game's own
        game.add_variation(first)
    game.terminator = Terminator(
        draw(st.sampled_from(["*", "2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2"]))
    )
    if not game.tags and not game.variations:
        game.tags = [Tag("Event", "x")]
    return game


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_write_then_read_gives_the_same_tree(game: Game) -> None:
    text = write_game(game, tag_order="input")
    back = read_string(text)
    assert len(back) == 1, text
    assert signature(back[0]) == signature(game), text
    assert not [i for i in back[0].issues if i.code.startswith("E")], text


@settings(max_examples=100, deadline=None)
@given(games())
def test_writing_is_stable(game: Game) -> None:
    once = write_game(game, tag_order="input")
    twice = write_game(read_string(once)[0], tag_order="input")
    assert once == twice
