"""The facts every JSON output states about a checked game, built in one place.

``pdn validate --format jsonl`` records (:mod:`pdn_tools.report.records`) and the
game objects of ``pdn convert`` (:mod:`pdn_tools.export.jsonfmt`) both start with
:func:`game_head`, and the published JSON Schemas (``pdn schema``) define these keys
once (``$defs/game_head``) for both.  The Parquet games table takes the same values.
"""

from __future__ import annotations

from typing import Any

from pdn_tools.pdn.gametype import BY_NAME, read_gametype
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.results import colour_outcome
from pdn_tools.replay.identity import game_id
from pdn_tools.replay.options import ReplayResult

HEAD_KEYS = (
    "file",
    "game",
    "variant",
    "gametype",
    "status",
    "result",
    "outcome",
    "plies",
    "game_id",
    "issues",
)
"""The keys of :func:`game_head`, in order."""


LARGEST_GAMETYPE = (1 << 63) - 1
"""The largest GameType number a game head gives (the ``gametype`` column is 64-bit)."""


def gametype_number(game: Game) -> int | None:
    """The GameType number the game is played under: the tag's, else the number of
    the variant the reader inferred; None when neither is known, and for a number
    beyond the 64-bit integers (no variant's; W28 names the tag), which the Parquet
    column could not hold: every output then says the same."""
    value = game.tag("GameType")
    if value is not None:
        number = read_gametype(value).number
        if number is not None:
            return number if number <= LARGEST_GAMETYPE else None
    entry = BY_NAME.get(game.variant)
    return entry.number if entry is not None else None


def game_head(game: Game, replay: ReplayResult | None) -> dict[str, Any]:
    """The shared keys (:data:`HEAD_KEYS`) of *game* with what *replay* established.

    ``plies`` counts the main-line half-moves replayed when the game was replayed,
    else those read; ``outcome`` is the result by colour (``white``, ``black``,
    ``draw``, None); ``game_id`` is :func:`pdn_tools.replay.identity.game_id`.
    """
    replayed = replay is not None and replay.replayed
    result = game.result
    return {
        "file": game.file,
        "game": game.index,
        "variant": game.variant,
        "gametype": gametype_number(game),
        "status": game.status,
        "result": result,
        "outcome": colour_outcome(result, game.variant),
        "plies": replay.plies if replay is not None and replayed else game.plies,
        "game_id": game_id(game, replay),
        "issues": [issue.to_dict() for issue in game.issues],
    }
