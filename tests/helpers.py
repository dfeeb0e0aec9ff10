"""Test helpers: read PDN text and summarise trees for comparison."""

from __future__ import annotations

import random
from typing import Any

from pdn_tools import Game, Node, ReadOptions, read_string
from pdn_tools.rules import Color, Position, Variant, legal_moves, move_texts


def one(text: str, **options: Any) -> Game:
    """The single game of *text* (fails when there is not exactly one)."""
    games = read_string(text, ReadOptions(**options))
    assert len(games) == 1, [g.span for g in games]
    return games[0]


def codes(game: Game) -> list[str]:
    """The codes of a game's issues, in order."""
    return [i.code for i in game.issues]


def signature(game: Game) -> Any:
    """Everything a game tree says, without source positions (for round trips)."""

    def node_sig(node: Node) -> Any:
        return (
            node.kind,
            node.element_text(),
            node.move.mark if node.move else None,
            tuple(node.nags),
            tuple((c.kind, c.text) for c in node.comments),
            tuple((c.kind, c.text) for c in node.starting_comments),
            tuple(node.starting_nags),
            node.number,
            node.number_dots,
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
            node = node.variations[0] if node.variations else None
        return tuple(out)

    return (
        tuple((t.name, t.value) for t in game.tags),
        tuple((c.kind, c.text) for c in game.preamble),
        tuple((c.kind, c.text) for c in game.comments),
        tuple(game.nags),
        tuple(line_sig(v) for v in game.variations[:1]),
        tuple(line_sig(v) for v in game.variations[1:]),
        game.terminator.text if game.terminator else None,
    )


def mainline_texts(game: Game) -> list[str]:
    """The main line's elements in normalised spelling."""
    return [n.element_text() for n in game.mainline()]


def random_placement(
    rng: random.Random,
    variant: Variant,
    most: int = 24,
    kinds: tuple[str, ...] = ("wm", "wk", "bm", "bk"),
) -> Position:
    """A random position of *variant* with 2 to *most* pieces drawn from *kinds*
    (``wm`` white man, ``bk`` black king, …; repeat a kind to weight it), men never
    on their own promotion row (such a man becomes a king), either side to move."""
    size = variant.board.squares
    row = variant.board.width // 2
    pieces: dict[str, list[int]] = {"wm": [], "wk": [], "bm": [], "bk": []}
    for square in rng.sample(range(1, size + 1), rng.randint(2, min(most, size))):
        kind = rng.choice(kinds)
        if (kind == "wm" and square <= row) or (kind == "bm" and square > size - row):
            kind = kind[0] + "k"
        pieces[kind].append(square)
    return Position.from_squares(
        variant,
        white_men=pieces["wm"],
        white_kings=pieces["wk"],
        black_men=pieces["bm"],
        black_kings=pieces["bk"],
        turn=rng.choice((Color.WHITE, Color.BLACK)),
    )


def random_line(variant: Variant, rng: random.Random, plies: int) -> list[Position]:
    """The positions of a game of up to *plies* random legal moves from the start."""
    position = Position.initial(variant)
    out = [position]
    for _ in range(plies):
        moves = legal_moves(position, variant)
        if not moves:
            break
        position = position.apply(rng.choice(moves))
        out.append(position)
    return out


def random_move_texts(variant: Variant, rng: random.Random, plies: int) -> list[str]:
    """The texts of up to *plies* random legal moves from the start (fewer when the
    game ends)."""
    position = Position.initial(variant)
    words: list[str] = []
    for _ in range(plies):
        moves = legal_moves(position, variant)
        if not moves:
            break
        index = rng.randrange(len(moves))
        words.append(move_texts(moves, variant)[index])
        position = position.apply(moves[index])
    return words


def random_game_pdn(
    variant: Variant, rng: random.Random, plies: int, tags: dict[str, str] | None = None
) -> str:
    """A game of up to *plies* random legal moves as PDN text (tags, then movetext)."""
    words: list[str] = []
    for ply, move in enumerate(random_move_texts(variant, rng, plies)):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move)
    header = "".join(f'[{name} "{value}"]\n' for name, value in (tags or {}).items())
    return f"{header}{' '.join(words)} *\n\n"
