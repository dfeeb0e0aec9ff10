"""Writers of game trees: canonical PDN, JSON / JSONL and Parquet, and JSON read back.

Layer 5 of the pipeline, beside :mod:`pdn_tools.report`.  Exporters write the game
itself (tags, moves, comments, variations), resolved by the replay where it could;
:mod:`.sinks` picks a writer per output format.

May import the format (:mod:`pdn_tools.pdn`), the rules engine and the replay; never
the reports, the runners or the command line.
"""

from pdn_tools.export.game import game_json, game_pdn

__all__ = ["game_json", "game_pdn"]
