"""One game written out: what ``str(game)``, ``game.to_pdn()`` and ``game.to_json()`` give.

The same writers as ``pdn convert`` (:mod:`.canonical`, :mod:`.jsonfmt`), fed with
what the replay established when the game was read with :func:`pdn_tools.validate`
(standard notation for every resolved move), else with the game as read.  The tree
reaches these functions through its registry (:data:`pdn_tools.pdn.model.EXTENSIONS`),
which this module fills when it is imported.
"""

from __future__ import annotations

from typing import Any

from pdn_tools.export.canonical import write_canonical
from pdn_tools.export.jsonfmt import game_dict
from pdn_tools.pdn.model import EXTENSIONS, Game
from pdn_tools.replay import GameReplay, ReplayResult
from pdn_tools.replay.resolve import Resolution


def _replayed(game: Game) -> tuple[ReplayResult | None, Resolution]:
    state = game.replay_state
    if isinstance(state, GameReplay):
        return state.result, state.resolution(game)
    return None, Resolution()


def game_pdn(game: Game) -> str:
    """*game* as canonical PDN text, ending with a newline."""
    return write_canonical(game, _replayed(game)[1])


def game_json(game: Game) -> dict[str, Any]:
    """*game* as its JSON object (``docs/export.md``)."""
    replay, resolution = _replayed(game)
    return game_dict(game, replay, resolution)


EXTENSIONS.pdn = game_pdn
EXTENSIONS.json = game_json
