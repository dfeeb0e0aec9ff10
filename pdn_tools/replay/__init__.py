"""Replay validation: play a read game with the rules engine and report what is wrong.

``replay_game(game, options)`` appends its findings to ``game.issues`` and returns a
:class:`ReplayResult`.  See ``docs/replay.md``.
"""

from __future__ import annotations

from pdn_tools.replay.draws import DrawTracker, material_class
from pdn_tools.replay.options import (
    DrawEvent,
    DrawRule,
    ReplayedMove,
    ReplayOptions,
    ReplayResult,
    ReplayStop,
)
from pdn_tools.replay.replay import replay_game

__all__ = [
    "DrawEvent",
    "DrawRule",
    "DrawTracker",
    "ReplayOptions",
    "ReplayResult",
    "ReplayStop",
    "ReplayedMove",
    "material_class",
    "replay_game",
]
