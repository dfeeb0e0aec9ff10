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
    Move, Color, Variant, variant_by_name, variants, FenError, IllegalMoveError,
    UnknownVariantError (an unknown variant name, wherever one is taken)

Analysis (the built-in searcher)
    analyse(board, depth=…, nodes=…, seconds=…)
               score (centi-men) and principal variation; also ``board.analyse(…)``
    Analysis   its result: ``score``, ``white_score``, ``win_in``, ``pv``, ``pv_text``

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

The names are loaded when first used (all of the API at once, so that ``str(game)``
and ``node.board()`` work whichever name came first): importing a sub-module, as the
``pdn`` command does, costs only that sub-module, and Ctrl-C while the command
starts meets its handler rather than a half-imported package.
"""

from __future__ import annotations

import importlib
import os

from pdn_tools.version import __version__

# Not ``typing.TYPE_CHECKING``: importing the package imports nothing it does not need,
# so that Ctrl-C while ``pdn`` starts meets the command's handler (type checkers read
# this name as they read typing's).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

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
    from pdn_tools.pdn.reader import FileReport, Source, read_game, read_games, read_string
    from pdn_tools.replay import ReplayOptions, validate_string
    from pdn_tools.report.svg import Arrow, board_svg
    from pdn_tools.rules import (
        Board,
        Color,
        FenError,
        IllegalMoveError,
        Move,
        UnknownVariantError,
        Variant,
        variant_by_name,
        variants,
    )
    from pdn_tools.run.cluster import record_bag
    from pdn_tools.run.cluster_convert import convert_dataset
    from pdn_tools.search import Analysis, analyse

#: Where each name of the API lives.
_HOMES = {
    "CATALOGUE": "pdn_tools.diagnostics",
    "DrawEvent": "pdn_tools.diagnostics",
    "Issue": "pdn_tools.diagnostics",
    "Severity": "pdn_tools.diagnostics",
    "Comment": "pdn_tools.pdn.model",
    "Game": "pdn_tools.pdn.model",
    "MoveText": "pdn_tools.pdn.model",
    "Node": "pdn_tools.pdn.model",
    "ReadOptions": "pdn_tools.pdn.model",
    "Tag": "pdn_tools.pdn.model",
    "Terminator": "pdn_tools.pdn.model",
    "Visitor": "pdn_tools.pdn.model",
    "FileReport": "pdn_tools.pdn.reader",
    "read_game": "pdn_tools.pdn.reader",
    "read_games": "pdn_tools.pdn.reader",
    "read_string": "pdn_tools.pdn.reader",
    "ReplayOptions": "pdn_tools.replay",
    "validate_string": "pdn_tools.replay",
    "Arrow": "pdn_tools.report.svg",
    "board_svg": "pdn_tools.report.svg",
    "Board": "pdn_tools.rules",
    "Color": "pdn_tools.rules",
    "FenError": "pdn_tools.rules",
    "IllegalMoveError": "pdn_tools.rules",
    "Move": "pdn_tools.rules",
    "UnknownVariantError": "pdn_tools.rules",
    "Variant": "pdn_tools.rules",
    "variant_by_name": "pdn_tools.rules",
    "variants": "pdn_tools.rules",
    "Analysis": "pdn_tools.search",
    "analyse": "pdn_tools.search",
    "record_bag": "pdn_tools.run.cluster",
    "convert_dataset": "pdn_tools.run.cluster_convert",
}
#: Names that need Dask and are imported only for themselves.
_ON_THEIR_OWN = frozenset({"record_bag", "convert_dataset"})


def _load_api() -> None:
    """Import the layers that fill the tree's conveniences: the writers
    (``str(game)``, ``to_pdn``, ``to_json``) and the replay (``node.board()``)."""
    importlib.import_module("pdn_tools.export")
    importlib.import_module("pdn_tools.replay")
    importlib.import_module("pdn_tools.search")


def __getattr__(name: str) -> object:
    """The API's names, imported when first used."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pdn_tools' has no attribute {name!r}")
    if name not in _ON_THEIR_OWN:
        _load_api()
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


def validate(
    source: Source,
    *,
    variant: str | int | None = None,
    strict: bool = False,
    encoding: str | None = None,
    name: str | None = None,
    dialect: str | None = None,
    **rule_options: Any,
) -> Iterator[Game]:
    """Read the games of *source* and replay each one, streaming, as ``pdn validate``.

    *source* is a path — a PDN file (also compressed), a zip archive (its ``.pdn``
    members), a member named as reports name it (``games.zip:round1.pdn``) or a folder
    (walked as ``pdn validate`` walks it: ``.gitignore``, default exclusions, links
    out of it not followed) — or a binary or text handle.  A file of a folder or
    archive that is not read (it cannot be, or is a link out of the folder) comes as
    a game without moves whose ``index`` is 0 and whose ``issues`` say why (E14, E11,
    W39), so that nothing is dropped silently.  The other arguments are those of
    :func:`pdn_tools.replay.validate` (*variant*, *strict*, *encoding*, *name*,
    *dialect*, rule options such as ``draws=False``).  They are checked when it is called, before
    anything is read: an unknown *variant* raises ``UnknownVariantError`` (a
    ``KeyError`` and a ``ValueError``), an unknown rule option ``TypeError``.
    """
    _load_api()
    from pdn_tools.replay import ReplayOptions as _ReplayOptions
    from pdn_tools.replay import validate as validate_file
    from pdn_tools.rules import variant_by_name as _variant_by_name

    # Checked now, not when the first game is asked for; the name the variant goes by
    # (a GameType number named by its variant, as the compiled options take text).
    if variant is not None:
        variant = _variant_by_name(variant).name
    _ReplayOptions(variant=variant, **rule_options)
    path = os.fspath(source) if isinstance(source, (str, os.PathLike)) else None
    if path is None or not _many_files(path):
        return validate_file(
            source,
            variant=variant,
            strict=strict,
            encoding=encoding,
            name=name,
            dialect=dialect,
            **rule_options,
        )
    return _validate_files(path, variant, strict, encoding, dialect, rule_options)


def _validate_files(
    path: str,
    variant: str | None,
    strict: bool,
    encoding: str | None,
    dialect: str | None,
    rule_options: dict[str, Any],
) -> Iterator[Game]:
    """The games of every file of the folder or zip archive *path*, read and replayed."""
    from pdn_tools.diagnostics import Issue as _Issue
    from pdn_tools.pdn.model import Game as _Game
    from pdn_tools.replay import validate as validate_file
    from pdn_tools.run.check import not_read_message
    from pdn_tools.run.discover import Discovery

    for found in Discovery().files((path,)):
        if found.problem is not None:
            placeholder = _Game()
            placeholder.file = found.name
            placeholder.index = 0
            message = not_read_message(found.code, found.problem)
            placeholder.add_issue(_Issue(found.code, message, 1, 1))
            yield placeholder
            continue
        yield from validate_file(
            found.path,
            variant=variant,
            strict=strict,
            encoding=encoding,
            name=found.name,
            dialect=dialect,
            **rule_options,
        )


def _many_files(path: str) -> bool:
    """Whether *path* names a folder or a zip archive (several files to walk)."""
    return os.path.isdir(path) or (path.lower().endswith(".zip") and os.path.isfile(path))


__all__ = [
    "CATALOGUE",
    "Analysis",
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
    "UnknownVariantError",
    "Variant",
    "Visitor",
    "__version__",
    "analyse",
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
