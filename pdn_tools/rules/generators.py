"""Which generator serves a variant: the one entry point to move generation.

:class:`~pdn_tools.rules.movegen.Generator` walks diagonal boards;
:class:`~pdn_tools.rules.raygen.RayGenerator` (which builds on it) walks the
orthogonal rays of Frisian and Turkish draughts.  This module picks one per rules
description and builds it once, so that the two generator modules never import each
other and callers need not know which one a variant uses.
"""

from __future__ import annotations

from pdn_tools.rules.move import Move
from pdn_tools.rules.movegen import Generator
from pdn_tools.rules.position import Position
from pdn_tools.rules.raygen import RayGenerator
from pdn_tools.rules.variant import INTERNATIONAL, Variant

_GENERATORS: dict[int, tuple[Variant, Generator]] = {}
_DEFAULT: list[Generator] = []
"""The international generator once built (the default variant skips the lookup)."""


def generator_for(variant: Variant) -> Generator:
    """The generator of a rules description, built once per description object.

    Looked up by object identity: hashing a whole frozen description on every call
    would cost more than generating the moves of a quiet position.
    """
    entry = _GENERATORS.get(id(variant))
    if entry is None or entry[0] is not variant:
        generator = Generator(variant) if variant.rays is None else RayGenerator(variant)
        entry = (variant, generator)
        _GENERATORS[id(variant)] = entry
        if variant is INTERNATIONAL:
            _DEFAULT.append(entry[1])
    return entry[1]


def legal_moves(position: Position, variant: Variant = INTERNATIONAL) -> list[Move]:
    """All legal moves of *position* under *variant*, sorted by (from, to, captures).

    Moves with the same identity (from, to, captured set) appear once, with all their
    routes in :attr:`Move.paths`.  An empty list means the side to move has lost.
    """
    if variant is INTERNATIONAL and _DEFAULT:
        return _DEFAULT[0].legal_moves(position)
    return generator_for(variant).legal_moves(position)
