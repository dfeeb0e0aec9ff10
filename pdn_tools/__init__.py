"""pdn-tools: check and convert draughts (checkers) game records written in PDN.

Reading and checking
    validate(source, *, variant=None, strict=False, **rule_options)
        Games read *and replayed*, streaming: ``game.issues`` holds every finding
        (reading and rules alike), ``game.draws`` the draw events.
    validate_string(text, ...)    the same for a string
    read_games(source, options)   games as read, without replay (syntax only)
    read_game(handle), read_string(text)

The game tree (python-chess's shape: ``variations[0]`` is the main line)
    Game       tags, moves, comments, result; ``str(game)`` / ``game.to_pdn()`` is
               canonical PDN, ``game.to_json()`` the JSON object of ``pdn convert``
    Node       one move, placeholder or set-up; ``node.board()`` the position after it
    Visitor    walks a tree in writing order: ``game.accept(visitor)``
    Tag, Comment, MoveText, Terminator, ReadOptions, ReplayOptions

Findings
    Issue      a finding: code, severity, message, line, column, ply, move
    Severity, CATALOGUE (every code), DrawEvent

The rules engine
    Board      a position to play on: ``legal_moves``, ``push``, ``pop``, ``fen()``,
               ``is_game_over()``, ``outcome()``, ``Board.from_fen(fen, variant=…)``
    Move, Color, Variant, variant_by_name, variants, FenError, IllegalMoveError

Board diagrams
    board_svg(board, arrows=…, highlights=…, coordinates=…, flipped=…)
               an SVG diagram of any variant's board; Arrow draws a move

Many files, on a Dask cluster (``pip install 'pdn-tools[dask]'``)
    record_bag(paths, options, select=…, ignore=…, fail_on=…)
               a ``dask.bag`` of the report records of every game (``pdn validate
               --format jsonl``'s lines), in input order; paths may be fsspec URLs
    convert_dataset(paths, out, to=…, moves=…, partition_by=…, rejects=…, client=…)
               a Parquet dataset (or JSON Lines parts) written by the workers, as
               ``pdn convert --dask`` writes it; returns the counts

See ``docs/api.md`` for examples; the command line (``pdn``) is built on these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdn_tools import export as _export  # noqa: F401  (fills str(game), to_pdn, to_json)
from pdn_tools.diagnostics import CATALOGUE, DrawEvent, Issue, Severity
from pdn_tools.pdn.model import (
    Comment,
    Game,
    MoveText,
    Node,
    ReadOptions,
    Tag,
    Terminator,
    Visitor,
)
from pdn_tools.pdn.reader import FileReport, read_game, read_games, read_string
from pdn_tools.replay import ReplayOptions, validate, validate_string
from pdn_tools.report.svg import Arrow, board_svg
from pdn_tools.rules import (
    Board,
    Color,
    FenError,
    IllegalMoveError,
    Move,
    Variant,
    variant_by_name,
    variants,
)
from pdn_tools.version import __version__

if TYPE_CHECKING:
    from pdn_tools.run.cluster import record_bag
    from pdn_tools.run.cluster_convert import convert_dataset


def __getattr__(name: str) -> object:
    """``record_bag`` and ``convert_dataset`` are imported when first used: they are
    not needed to read games."""
    if name == "record_bag":
        from pdn_tools.run.cluster import record_bag

        return record_bag
    if name == "convert_dataset":
        from pdn_tools.run.cluster_convert import convert_dataset

        return convert_dataset
    raise AttributeError(f"module 'pdn_tools' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "record_bag", "convert_dataset"})


__all__ = [
    "CATALOGUE",
    "Arrow",
    "Board",
    "Color",
    "Comment",
    "DrawEvent",
    "FenError",
    "FileReport",
    "Game",
    "IllegalMoveError",
    "Issue",
    "Move",
    "MoveText",
    "Node",
    "ReadOptions",
    "ReplayOptions",
    "Severity",
    "Tag",
    "Terminator",
    "Variant",
    "Visitor",
    "__version__",
    "board_svg",
    "convert_dataset",
    "read_game",
    "read_games",
    "read_string",
    "record_bag",
    "validate",
    "validate_string",
    "variant_by_name",
    "variants",
]
