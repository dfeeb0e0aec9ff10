"""Engine analysis of whole collections: ``pdn analyse``.

:mod:`.engines` evaluates positions — with the built-in searcher or a Hub engine —
through a cache shared by every game a process annotates; :mod:`.annotate` walks a
replayed game's main line, evaluates every position once, writes the evaluation and
the best line of each ply into the record as comments (``[%eval …]``, ``[%best …]``)
and flags blunders.

On the collection layer beside :mod:`pdn_tools.collection`: it reads replayed games
and may use every layer below (the searcher, the replay, the format).
"""

from __future__ import annotations

from pdn_tools.analysis.annotate import (
    BLUNDER_THRESHOLD,
    AnalysisOptions,
    Annotated,
    annotate_game,
)
from pdn_tools.analysis.engines import Evaluation, evaluate_position

__all__ = [
    "BLUNDER_THRESHOLD",
    "AnalysisOptions",
    "Annotated",
    "Evaluation",
    "annotate_game",
    "evaluate_position",
]
