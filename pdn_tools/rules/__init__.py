"""The draughts rules engine: variants as data, positions, legal moves, FEN, notation.

The engine knows no PDN files.  It speaks squares (PDN numbers), positions and moves;
:mod:`.fen` and :mod:`.notation` are the only modules where text meets them.

Layer 1 of the pipeline, at the bottom beside :mod:`pdn_tools.diagnostics`: it imports
nothing of pdn-tools outside this package.

Typical replay use::

    from pdn_tools.rules import INTERNATIONAL, parse_fen, legal_moves, parse_move

    position = parse_fen("W:W31-50:B1-20").position
    moves = legal_moves(position, INTERNATIONAL)
    match = parse_move("32-28", moves, INTERNATIONAL)
    if match.move is not None:
        position = position.apply(match.move)
"""

from __future__ import annotations

from pdn_tools.rules.board import Board, IllegalMoveError, diagram
from pdn_tools.rules.fen import FenError, FenResult, parse_fen, write_fen
from pdn_tools.rules.generators import generator_for, legal_moves
from pdn_tools.rules.geometry import Geometry, geometry_for
from pdn_tools.rules.move import Move
from pdn_tools.rules.movegen import Generator
from pdn_tools.rules.notation import (
    MatchKind,
    MoveMatch,
    canonical_path,
    canonical_paths,
    move_text,
    move_texts,
    parse_move,
    path_text,
    split_move_text,
)
from pdn_tools.rules.perft import divide, perft
from pdn_tools.rules.position import Position, PositionKey
from pdn_tools.rules.variant import (
    INTERNATIONAL,
    BoardSpec,
    CaptureChoice,
    CapturePromotion,
    Color,
    DrawRules,
    KingLanding,
    KingRange,
    Removal,
    UnknownVariantError,
    Variant,
    variant_by_name,
    variant_names,
    variants,
)

__all__ = [
    "INTERNATIONAL",
    "Board",
    "BoardSpec",
    "CaptureChoice",
    "CapturePromotion",
    "Color",
    "DrawRules",
    "FenError",
    "FenResult",
    "Generator",
    "Geometry",
    "IllegalMoveError",
    "KingLanding",
    "KingRange",
    "MatchKind",
    "Move",
    "MoveMatch",
    "Position",
    "PositionKey",
    "Removal",
    "UnknownVariantError",
    "Variant",
    "canonical_path",
    "canonical_paths",
    "diagram",
    "divide",
    "generator_for",
    "geometry_for",
    "legal_moves",
    "move_text",
    "move_texts",
    "parse_fen",
    "parse_move",
    "path_text",
    "perft",
    "split_move_text",
    "variant_by_name",
    "variant_names",
    "variants",
    "write_fen",
]
