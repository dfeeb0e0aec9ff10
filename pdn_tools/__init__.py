"""pdn-tools: check and convert draughts game records written in PDN.

The public API: :func:`read_games` streams games from a file or handle;
:class:`Game` is the game tree; :class:`Issue` a finding with a stable code.
"""

from __future__ import annotations

from pdn_tools.diagnostics import CATALOGUE, Issue, Severity
from pdn_tools.pdn.model import Comment, Game, MoveText, Node, ReadOptions, Tag, Terminator
from pdn_tools.pdn.reader import FileReport, read_game, read_games, read_string
from pdn_tools.version import __version__

__all__ = [
    "CATALOGUE",
    "Comment",
    "FileReport",
    "Game",
    "Issue",
    "MoveText",
    "Node",
    "ReadOptions",
    "Severity",
    "Tag",
    "Terminator",
    "__version__",
    "read_game",
    "read_games",
    "read_string",
]
