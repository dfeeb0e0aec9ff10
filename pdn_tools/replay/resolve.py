"""What each written move *is*: the engine move behind the text, for the exporters.

The replay (:func:`pdn_tools.replay.replay_game`) resolves the main line; this
module maps its :class:`~pdn_tools.replay.ReplayedMove` records back onto the tree's
nodes and resolves the variations too, from the position before the move they
replace, so that canonical PDN can write every capture in the standard notation.

Nothing is guessed: a variation move that does not match exactly one legal move
(illegal, ambiguous, off the board) stops resolution of its line, and the exporters
write the rest of that line as it was written.  A game that was not replayed (no
rule profile for its variant, invalid FEN) resolves nothing and is written as read.
"""

from __future__ import annotations

from typing import Any

from pdn_tools.pdn.gametype import PROFILE_BASES, square_notation
from pdn_tools.pdn.model import Game, Node
from pdn_tools.pdn.tags import standard_name
from pdn_tools.replay.options import ReplayResult
from pdn_tools.rules import (
    FenError,
    MatchKind,
    Move,
    Position,
    Variant,
    legal_moves,
    move_text,
    parse_fen,
    parse_move,
    variant_by_name,
)
from pdn_tools.rules.geometry import Geometry

_ACCEPTED = (MatchKind.EXACT, MatchKind.ABBREVIATED, MatchKind.NONCANONICAL)


class ResolvedMove:
    """The engine move a node stands for, its canonical text and the position after."""

    move: Move
    text: str
    after: Position
    ply: int | None
    """Main-line half-move slot (None in a variation)."""

    __slots__ = ("after", "move", "ply", "text")

    def __init__(
        self,
        move: Move,
        text: str,
        after: Position,
        ply: int | None = None,
    ) -> None:
        self.move = move
        self.text = text
        self.after = after
        self.ply = ply

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResolvedMove) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.move, self.text, self.after, self.ply) == (
            other.move,
            other.text,
            other.after,
            other.ply,
        )

    def __repr__(self) -> str:
        return (
            f"ResolvedMove(move={self.move!r}, "
            f"text={self.text!r}, "
            f"after={self.after!r}, "
            f"ply={self.ply!r})"
        )

    def __reduce__(self) -> tuple[type[ResolvedMove], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (ResolvedMove, (self.move, self.text, self.after, self.ply))


class Resolution:
    """Resolved moves keyed by ``id(node)``; ``merged`` maps the later nodes of a
    capture written jump by jump (W24) to the node that carries the merged move."""

    variant: Variant | None
    start: Position | None
    moves: dict[int, ResolvedMove]
    merged: dict[int, Node]
    refuted: bool
    """The replay refuted the reader's guess of the variant (``ReplayResult.refuted``):
    the game's variant is not known, whatever the reader guessed."""

    __slots__ = ("merged", "moves", "refuted", "start", "variant")

    def __init__(
        self,
        variant: Variant | None = None,
        start: Position | None = None,
        moves: dict[int, ResolvedMove] | None = None,
        merged: dict[int, Node] | None = None,
        refuted: bool = False,
    ) -> None:
        self.variant = variant
        self.start = start
        self.moves = {} if moves is None else moves
        self.merged = {} if merged is None else merged
        self.refuted = refuted

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Resolution) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.variant, self.start, self.moves, self.merged, self.refuted) == (
            other.variant,
            other.start,
            other.moves,
            other.merged,
            other.refuted,
        )

    def __repr__(self) -> str:
        return (
            f"Resolution(variant={self.variant!r}, "
            f"start={self.start!r}, "
            f"moves={self.moves!r}, "
            f"merged={self.merged!r}, "
            f"refuted={self.refuted!r})"
        )

    def __reduce__(self) -> tuple[type[Resolution], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Resolution, (self.variant, self.start, self.moves, self.merged, self.refuted))

    def get(self, node: Node) -> ResolvedMove | None:
        """The resolved move of *node*, or None when it was not resolved."""
        return self.moves.get(id(node))


_NAMES: dict[tuple[int, bool], tuple[str, ...]] = {}
"""Square names by board (the geometry's id) and notation: ``("", "1", "2", …)`` or
``("", "b8", "d8", …)``, indexed by square number."""


def square_names(geometry: Geometry, algebraic: bool) -> tuple[str, ...]:
    """Every square of *geometry* as a record names it: its number, or on boards at
    most 8 wide its algebraic name (a1 = White's near-left corner)."""
    key = (id(geometry), algebraic)
    names = _NAMES.get(key)
    if names is None:
        out = [""]
        height = geometry.spec.height
        for square in range(1, geometry.size + 1):
            if algebraic:
                row, col = geometry.coords[square]
                out.append(f"{chr(ord('a') + col)}{height - row}")
            else:
                out.append(str(square))
        names = _NAMES[key] = tuple(out)
    return names


def canonical_algebraic(variant: Variant) -> bool:
    """Whether canonical output writes *variant*'s moves in algebraic squares (``c3-d4``)
    rather than numbers: the one decision of the notation moves are written in, for
    every text pdn-tools writes among a game's canonical moves (such as ``pdn
    analyse``'s W70 comment, :func:`canonical_move_text`): the notation its GameType
    names (:func:`pdn_tools.pdn.gametype.square_notation`), as canonical PDN writes
    the moves :attr:`ResolvedMove.text` gives in numbers."""
    return square_notation(variant.name) == "algebraic"


def canonical_move_text(move: Move, legal: list[Move], variant: Variant) -> str:
    """*move* (one of the *legal* moves of its position, of *variant*) written in the
    notation of the canonical moves it sits among (:func:`canonical_algebraic`)."""
    if not canonical_algebraic(variant):
        return move_text(move, legal, variant)
    geometry = Position.initial(variant).geometry
    return move_text(move, legal, variant, square_names(geometry, True))


def replayed_name(name: str, option: str | None) -> str | None:
    """The variant name the replay uses for a game of variant *name*, given
    ``ReplayOptions.variant`` *option*: *option* for a game of unknown variant, and for
    a game whose variant is the base of the site profile *option* names (the profile's
    records carry the base variant's GameType); else *name*.  None: not replayed."""
    if name == "unknown":
        return option
    if option is not None:
        try:
            profile = variant_by_name(option)
        except KeyError:
            return name
        if PROFILE_BASES.get(profile.name) == name:
            return option
    return name


def game_variant(game: Game, default: str | None = None) -> Variant | None:
    """The rule profile the replay used for *game* (see :func:`replayed_name`;
    *default* is ``ReplayOptions.variant``)."""
    name = replayed_name(game.variant, default)
    if name is None:
        return None
    try:
        return variant_by_name(name)
    except KeyError:
        return None


def _start(game: Game, variant: Variant) -> Position | None:
    tag = next((t for t in reversed(game.tags) if standard_name(t.name) == "FEN"), None)
    if tag is None or tag.value.strip() in ("", "?"):
        return Position.initial(variant)
    try:
        return parse_fen(tag.value, variant).position
    except FenError:
        return None


def _setup(node: Node, variant: Variant) -> Position | None:
    try:
        return parse_fen(node.fen or "", variant).position
    except FenError:
        return None


def resolve(
    game: Game, replay: ReplayResult | None, default_variant: str | None = None
) -> Resolution:
    """Resolve the moves of *game* with what *replay* established.

    ``default_variant`` must be the variant the replay assumed for games of unknown
    variant (``ReplayOptions.variant``).
    """
    result = Resolution(refuted=replay is not None and replay.refuted)
    if replay is None or not replay.replayed:
        return result
    variant = game_variant(game, default_variant)
    if variant is None:
        return result
    start = _start(game, variant)
    if start is None:
        return result
    result.variant = variant
    result.start = start
    replayed = {id(r.node): r for r in replay.moves}
    position: Position | None = start
    node = game.next()
    while node is not None:
        parent = node.parent
        if position is not None and parent is not None and len(parent.variations) > 1:
            for alternative in parent.variations[1:]:
                _resolve_line(alternative, position, variant, result)
        record = replayed.get(id(node))
        if node.kind == "setup":
            position = _setup(node, variant)
        elif record is not None and position is not None:
            position = position.apply(record.move)
            result.moves[id(node)] = ResolvedMove(record.move, record.text, position, record.ply)
            for follower in record.merged:
                result.merged[id(follower)] = node
        elif id(node) not in result.merged:
            position = None  # replay stopped here: the rest is written as read
        node = node.next()
    return result


def _resolve_line(first: Node, position: Position, variant: Variant, out: Resolution) -> None:
    """Resolve the variation starting at *first* from *position* (recursive per
    nesting level, iterative along the line)."""
    node: Node | None = first
    pos: Position | None = position
    while node is not None and pos is not None:
        parent = node.parent
        if node is not first and parent is not None and len(parent.variations) > 1:
            for alternative in parent.variations[1:]:
                _resolve_line(alternative, pos, variant, out)
        if node.kind == "setup":
            pos = _setup(node, variant)
        elif node.kind == "move" and node.move is not None:
            named = [pos.geometry.square_named(s) for s in node.move.squares]
            if None in named:
                return
            legal = legal_moves(pos, variant)
            numbers = tuple(n for n in named if n is not None)
            match = parse_move(numbers, legal, variant, capture=node.move.capture)
            if match.kind not in _ACCEPTED or match.move is None:
                return
            pos = pos.apply(match.move)
            out.moves[id(node)] = ResolvedMove(
                match.move, move_text(match.move, legal, variant), pos
            )
        else:
            return  # a placeholder: the line's position is unknown from here
        node = node.next()
    # Alternatives further down a line whose resolution stopped stay as written.
