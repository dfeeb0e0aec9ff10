"""Checking games: read, replay and summarise each one as a small picklable value.

``pdn validate`` and ``pdn stats`` see every game as a :class:`Checked`: its JSON
record (:func:`pdn_tools.report.records.game_record`) and its findings.  A
:class:`Checked` is plain data, so the games of a file can be checked in worker
processes and sent back to the parent (:mod:`pdn_tools.run.parallel`) without the game
tree.  Two entry points produce them, and they must agree exactly:

* :func:`check_file` reads a whole file with :func:`pdn_tools.pdn.reader.read_games`
  (the reference path, used with ``--jobs 1`` and for the small files of a
  parallel run);
* :func:`check_slots` builds games from chunks that the parent cut with
  :mod:`pdn_tools.run.slots` (the games of a large file, checked in batches).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from pdn_tools.collection.events.facts import game_facts
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.reader import FileReport, read_games, record_game
from pdn_tools.pdn.records import Record
from pdn_tools.replay import ReplayOptions, ReplayResult, check_game
from pdn_tools.report.records import Checked, file_checked, filtered_out, game_record
from pdn_tools.report.selection import Selection
from pdn_tools.run import storage
from pdn_tools.run.discover import InputError, unreadable_reason

if TYPE_CHECKING:
    from pdn_tools.analysis.plausibility import PlausibilityOptions
    from pdn_tools.collection.duplicates import Comparison
    from pdn_tools.collection.filters import GameFilter


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """How games are read, whether they are replayed, and how the rules are read
    (``rules``: :class:`~pdn_tools.replay.ReplayOptions` fields, as ``--rule`` sets them)."""

    read: ReadOptions = field(default_factory=ReadOptions)
    syntax_only: bool = False
    detail: bool = False
    """Also keep the tags, moves and boards of every game (what the HTML report and
    its game viewer show; :mod:`pdn_tools.report.detail`)."""
    rules: dict[str, Any] = field(default_factory=dict)
    keep: GameFilter | None = None
    """Which games are kept (None: all); tested where each game is replayed."""
    selection: Selection = field(default_factory=Selection)
    """The findings that count for the filter's status tests (``--select``/``--ignore``)."""
    comparison: Comparison | None = None
    """How duplicate keys are made (None: no key)."""
    events: EventRules | None = None
    """How events are formed, when what each game tells about its event is gathered
    (:attr:`~pdn_tools.report.records.Checked.facts`; None: not gathered)."""
    plausibility: PlausibilityOptions | None = None
    """Doubt the legal moves an engine finds implausible (W70, ``--plausibility``;
    None: not looked for)."""


Slot = Record
"""A game chunk cut by the parent, with the findings the reader would attach."""


def replay_checked(game: Game, options: CheckOptions) -> ReplayResult | None:
    """Replay *game* unless only its syntax is checked (see
    :func:`pdn_tools.replay.check_game`); findings go to ``game.issues``."""
    if options.syntax_only:
        return None
    replay = ReplayOptions(variant=options.read.variant, **options.rules)
    result = check_game(game, replay, strict=options.read.strict)
    if options.plausibility is not None and game.status != "error":
        # Imported here: the searcher is loaded by the runs that look for W70 only.
        from pdn_tools.analysis.plausibility import flag_implausible

        flag_implausible(game, result, options.plausibility)
    return result


def checked(file_no: int, game: Game, options: CheckOptions) -> Checked:
    """Replay *game* (see :func:`replay_checked`) and summarise it; a game the
    filter leaves out becomes a placeholder (:func:`~pdn_tools.report.records.filtered_out`).
    The game is then done with, and closed (:meth:`~pdn_tools.pdn.model.Game.close`)
    so that it is freed at once."""
    replay = replay_checked(game, options)
    keep = options.keep
    if keep is not None and not keep.matches(game, replay, options.selection.filter(game.issues)):
        placeholder = filtered_out(file_no, game)
        game.close()
        return placeholder
    record = game_record(game, replay)
    record["issues"] = []
    detail = None
    if options.detail:
        from pdn_tools.report.detail import game_detail  # only for HTML reports

        detail = game_detail(game, replay, options.read.variant)
    key = None
    if options.comparison is not None:
        key = options.comparison.key(game, replay, record["game_id"])
    facts = game_facts(game, replay, record["game_id"]) if options.events is not None else None
    game.close()
    return Checked(file_no, record, game.issues, detail, key, facts=facts)


def check_file(
    file_no: int, source: str | BinaryIO, name: str, options: CheckOptions
) -> list[Checked]:
    """Check every game of one file (a path, a URL or a binary stream), in order.

    A path that cannot be opened gives one record with E14 (the file may have gone,
    or be a link to nothing), so that the other files are still checked.
    """
    return list(iter_file(file_no, source, name, options))


def iter_file(
    file_no: int, source: str | BinaryIO, name: str, options: CheckOptions
) -> Iterator[Checked]:
    """:func:`check_file` one game at a time, holding no more than one game."""
    report = FileReport(name)
    any_game = False
    try:
        if isinstance(source, str) and storage.is_url(source):
            with storage.open_binary(source) as handle:
                yield from iter_file(file_no, handle, name, options)
            return
        for game in read_games(source, options.read, name=name, report=report):
            any_game = True
            yield checked(file_no, game, options)
    except (OSError, InputError) as exc:
        if any_game or not isinstance(source, str):
            raise
        reason = unreadable_reason(source, exc) if isinstance(exc, OSError) else str(exc)
        yield unreadable(file_no, name, reason)
        return
    if report.without_games:
        yield file_checked(file_no, name, report.issues)


def unreadable(file_no: int, name: str, reason: str, code: str = "E14") -> Checked:
    """The record of a file that is not read: it cannot be (E14), it is over a limit
    (E11), or it is a symbolic link out of the folder read (W39)."""
    return file_checked(file_no, name, [Issue(code, not_read_message(code, reason), 1, 1)])


def not_read_message(code: str, reason: str) -> str:
    """The message of a file that is not read, for :func:`unreadable`."""
    return f"file cannot be read: {reason}" if code == "E14" else reason


def check_slots(file_no: int, name: str, slots: list[Slot], options: CheckOptions) -> list[Checked]:
    """Build and check the games of *slots* exactly as :func:`check_file` would."""
    return [checked(file_no, game, options) for game in slot_games(name, slots, options.read)]


def slot_games(name: str, slots: list[Slot], options: ReadOptions) -> Iterator[Game]:
    """The games of *slots* as :func:`pdn_tools.pdn.reader.read_games` gives them."""
    for slot in slots:
        yield record_game(slot, options, name)
