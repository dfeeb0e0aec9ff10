"""Replay validation: play a read game with the rules engine and report what is wrong.

Layer 4 of the pipeline, where the format meets the rules.  ``replay_game(game,
options)`` appends its findings to ``game.issues`` and returns a :class:`ReplayResult`;
:mod:`.resolve` maps the engine move behind every written move (variations too) and
:mod:`.positions` gives the board at any ply.  See ``docs/replay.md``.

May import the format (:mod:`pdn_tools.pdn`), the rules engine and the diagnostics;
never the exporters, reports, runners or the command line.
"""

from __future__ import annotations

from pdn_tools.diagnostics import DrawEvent, DrawRule
from pdn_tools.replay.draws import DrawTracker, material_class
from pdn_tools.replay.options import (
    ReplayedMove,
    ReplayOptions,
    ReplayResult,
    ReplayStop,
)
from pdn_tools.replay.replay import replay_game
from pdn_tools.replay.validate import (
    GameReplay,
    board_after,
    check_game,
    validate,
    validate_string,
)

__all__ = [
    "DrawEvent",
    "DrawRule",
    "DrawTracker",
    "GameReplay",
    "ReplayOptions",
    "ReplayResult",
    "ReplayStop",
    "ReplayedMove",
    "board_after",
    "check_game",
    "material_class",
    "replay_game",
    "validate",
    "validate_string",
]
