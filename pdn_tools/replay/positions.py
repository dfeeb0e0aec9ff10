"""Positions along a replayed main line: the board at any ply of a game.

:func:`pdn_tools.replay.replay_game` returns the engine move of each main-line ply it
replayed (:attr:`~pdn_tools.replay.ReplayResult.moves`); this module plays them
again from the start position (the FEN tag, else the variant's initial position),
honouring ``/FEN/`` set-ups on the way, to give the position after any ply up to
where replay stopped.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pdn_tools.diagnostics import freeze
from pdn_tools.pdn.model import Game, Node
from pdn_tools.replay.options import ReplayResult
from pdn_tools.rules import FenError, Position, Variant, parse_fen


class PlyPosition:
    """The position after ``reached`` plies (0: the start), None when unknown.

    ``reached`` is less than the ply asked for when replay stopped before it.
    """

    position: Position | None
    reached: int

    __slots__ = ("position", "reached")

    def __init__(
        self,
        position: Position | None,
        reached: int,
    ) -> None:
        self.position = position
        self.reached = reached

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlyPosition) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.position, self.reached) == (other.position, other.reached)

    def __hash__(self) -> int:
        return hash((self.position, self.reached))

    def __repr__(self) -> str:
        return f"PlyPosition(position={self.position!r}, reached={self.reached!r})"

    def __reduce__(self) -> tuple[type[PlyPosition], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (PlyPosition, (self.position, self.reached))


freeze(PlyPosition)


def main_line(game: Game) -> list[Node]:
    """The main line's move and placeholder nodes, one per ply (set-ups left out)."""
    return [node for node in game.mainline() if node.kind != "setup"]


def start_position(game: Game, variant: Variant) -> Position | None:
    """The FEN tag's position (``?`` or empty ignored), else the initial one.

    None when the FEN tag describes no position (replay reports E10).
    """
    fen = game.tag("FEN")
    if fen is None or fen.strip() in ("", "?"):
        return Position.initial(variant)
    try:
        return parse_fen(fen, variant).position
    except FenError:
        return None


def position_at(game: Game, variant: Variant, replay: ReplayResult, ply: int) -> PlyPosition:
    """The position after *ply* main-line plies, or the last one replay knows."""
    position = start_position(game, variant)
    played = {id(done.node): done for done in replay.moves}
    merged = {id(node) for done in replay.moves for node in done.merged}
    reached = 0
    for node in game.mainline():
        if node.kind == "setup":
            if reached >= ply and reached > 0:
                break  # a set-up after the ply asked for replaces a later position
            try:
                position = parse_fen(node.fen or "", variant).position
            except FenError:
                position = None
            continue
        if reached >= ply or position is None:
            break
        done = played.get(id(node))
        if done is not None:
            position = position.apply(done.move)
        elif id(node) not in merged:
            break  # not replayed: an illegal move or a placeholder
        reached += 1
    return PlyPosition(position, reached)


def positions_reached(game: Game, variant: Variant, replay: ReplayResult) -> Iterator[Position]:
    """Every position of the main line as far as replay went, in order: the start,
    the position after each replayed ply, and each ``/FEN/`` set-up."""
    position = start_position(game, variant)
    if position is None:
        return
    yield position
    played = {id(done.node): done for done in replay.moves}
    merged = {id(node) for done in replay.moves for node in done.merged}
    for node in game.mainline():
        if node.kind == "setup":
            try:
                position = parse_fen(node.fen or "", variant).position
            except FenError:
                return
            yield position
            continue
        done = played.get(id(node))
        if done is not None:
            position = position.apply(done.move)
            yield position
        elif id(node) not in merged:
            return  # not replayed: an illegal move or a placeholder
