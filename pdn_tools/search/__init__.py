"""The built-in searcher: alpha-beta over the rules engine's bitboards.

It knows no PDN: it speaks positions, moves and variants, as the rules engine below it
does, and the Hub protocol (:mod:`.hub`), the text protocol of draughts engines, for
which it serves as an engine (``pdn engine --hub``) and drives others.

Layer 2, just above :mod:`pdn_tools.rules`: it imports nothing of pdn-tools but the
engine.  Importing it makes ``Board.analyse`` work (see :mod:`.analysis`)::

    from pdn_tools.rules import Board
    from pdn_tools.search import analyse

    result = analyse(Board(), nodes=20_000)
    result.white_score, result.pv_text
"""

from __future__ import annotations

from pdn_tools.rules.board import ANALYSERS
from pdn_tools.search.analysis import Analysis, _board_analyse, analyse, engine_line
from pdn_tools.search.evaluate import evaluate
from pdn_tools.search.searcher import WIN, Searcher

if not ANALYSERS:
    ANALYSERS.append(_board_analyse)

__all__ = ["WIN", "Analysis", "Searcher", "analyse", "engine_line", "evaluate"]
