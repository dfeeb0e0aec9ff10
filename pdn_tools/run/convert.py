"""Converting many inputs: every game read, replayed, rendered and written in input order.

``pdn convert`` hands every game it reads to one output (canonical PDN, JSON, JSON
Lines, Parquet) or, when it has an error and ``--rejects`` is given, to the rejects
file.  The work per game is split in two:

* :func:`convert_game` — replay, resolve, and decide where the game goes — and the
  rendering of its piece for the output (:class:`pdn_tools.export.sinks.Renderer`):
  this runs where the game is read, in this process or in a worker process;
* :class:`Conversion` — the counts, and the writing of pieces through the sinks and
  of rejected games to the rejects file, in input order: this runs here.

With ``jobs`` 1 each file is read in this process by the reader itself, game by game
(the reference); otherwise the inputs are cut into the units of work of ``validate
--jobs`` (:mod:`pdn_tools.run.units`: small files whole, game-aligned byte ranges of
large files, batches of standard input and of compressed files), converted in worker
processes (:func:`convert_unit`), and their pieces written here in input order, so
every output is byte for byte the one ``jobs`` 1 writes.  A rejected game whose text
the reader did not keep (larger than the size limit) is copied from its input here
(:class:`pdn_tools.run.rejects.LineCopier`), whatever process read it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from pdn_tools.atomic import check_stop
from pdn_tools.collection.duplicates import TagLending
from pdn_tools.collection.events.facts import game_facts
from pdn_tools.collection.events.index import EventIndex
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.diagnostics import CATALOGUE, Issue, Severity, status_of
from pdn_tools.export.from_json import JsonInputError, read_json
from pdn_tools.export.pdn import write_game
from pdn_tools.export.sinks import Exported, Piece, RejectsSink, Renderer, Sink
from pdn_tools.export.split import SplitSink, group_stems
from pdn_tools.pdn.model import Game, ReadOptions, Tag
from pdn_tools.pdn.reader import FileReport, read_games
from pdn_tools.replay import ReplayOptions, ReplayResult, check_game
from pdn_tools.replay.identity import game_id
from pdn_tools.replay.resolve import Resolution, resolve
from pdn_tools.run import storage
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.discover import Found
from pdn_tools.run.parallel import ordered_map, usable_jobs
from pdn_tools.run.rejects import LineCopier, Spool
from pdn_tools.run.stages import Admission, StageCounts, Staged, StageOptions, stage_game
from pdn_tools.run.units import (
    BATCH_CHARS,
    SPLIT_BYTES,
    Input,
    Task,
    Unit,
    WholeFile,
    plan,
    task_games,
    task_path,
    task_source,
    task_weight,
)

JSON_INPUT = (".json", ".jsonl", ".ndjson")
"""Endings of the inputs read as pdn-tools JSON rather than PDN."""


class ConvertInputError(ValueError):
    """An input that cannot be converted (not pdn-tools JSON): a usage error."""


def is_json_input(path: str) -> bool:
    """Whether *path* is read as pdn-tools JSON (by its ending)."""
    return path != "-" and path.lower().endswith(JSON_INPUT)


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """How games are read and replayed, what the output needs of each, and whether
    games with errors go to a rejects file (then the reader keeps their text)."""

    read: ReadOptions = field(default_factory=ReadOptions)
    rules: dict[str, Any] = field(default_factory=dict)
    """:class:`~pdn_tools.replay.ReplayOptions` fields (``--rule``)."""
    renderer: Renderer = field(default_factory=lambda: Renderer("jsonl"))
    rejects: bool = False
    stages: StageOptions = field(default_factory=StageOptions)
    """Repair, filter, duplicate keys (:mod:`pdn_tools.run.stages`)."""
    lending: TagLending | None = None
    """``--merge-tags``: the tags copies lend, noted by the first pass."""
    split_by: str | None = None
    """``--split-by``: each game is told the file stems of its groups."""
    observe: bool = False
    """The first pass of ``--merge-tags`` and ``--drop-prefixes``: games are staged,
    keyed and their event facts gathered, not rendered."""
    events: EventRules | None = None
    """How events are formed (``--drop-prefixes``: facts are gathered in the first pass)."""


Copy = tuple[int, int, int]
"""Where a rejected game's text lies in its input: first line, its column, last line."""


@dataclass(slots=True)
class Converted:
    """One game converted: whether it has an error and where it goes.

    A game for the output carries its ``piece``; a rejected one its ``text``, or,
    when the reader did not keep it (too large), where to ``copy`` it from.
    """

    error: bool
    rejected: bool
    piece: Piece | None = None
    text: str | None = None
    copy: Copy | None = None
    filtered: bool = False
    """The filter left the game out (nothing else is set)."""
    repaired: bool = False
    key: bytes | None = None
    """The duplicate key (``--dedupe``)."""
    lent: int = 0
    """Tags the game gained from its copies (``--merge-tags``)."""
    groups: tuple[str, ...] = ()
    """The file stems of its groups (``--split-by``)."""
    tags: tuple[Tag, ...] = ()
    """Its tags, in the first pass of ``--merge-tags`` only."""
    game: int = 0
    """Its 1-based index in its input."""
    line: int = 0
    """Its first line (first pass of ``--drop-prefixes``)."""
    facts: bytes | None = None
    """What it tells about its event, in the first pass of ``--drop-prefixes`` only."""
    foreign: bool = False
    """Written for a program (``--for``) that does not play its variant, or whose
    numbering cannot hold it: canonical PDN."""
    annotated: int = 0
    """Plies annotated (``pdn analyse``)."""
    blunders: int = 0
    """Blunders flagged (``pdn analyse``)."""
    doubted: int = 0
    """Moves found possibly mis-recorded (W70, ``pdn analyse``)."""


@dataclass(slots=True)
class Part:
    """The converted games of one input file, or of a part of one, in order.

    ``empty`` holds the findings of a file without any game (None otherwise).
    """

    file_no: int
    name: str
    path: str
    games: list[Converted] = field(default_factory=list)
    empty: list[Issue] | None = None


def _replay(
    game: Game, replay: ReplayOptions, strict: bool, from_json: bool
) -> ReplayResult | None:
    """Replay *game* as every command does (:func:`~pdn_tools.replay.check_game`: a
    crash costs the game an E13, never the run).

    A game read from JSON already carries its findings: it is replayed for its
    resolved moves only, and its issues stay as stored.
    """
    if not from_json:
        return check_game(game, replay, strict=strict)
    kept = game.issues
    game.issues = []
    try:
        return check_game(game, replay)
    finally:
        game.issues = kept


def _resolution(game: Game, replay: ReplayResult | None, variant: str | None) -> Resolution:
    try:
        return resolve(game, replay, variant)
    except Exception as exc:  # the moves are then written as read
        game.add_issue(
            Issue(
                "E13",
                f"internal error while resolving moves for export: {exc!r}",
                game.span.start_line,
                game.span.start_column,
            )
        )
        return Resolution()


def convert_game(game: Game, options: ConvertOptions, from_json: bool = False) -> Converted:
    """Replay *game*, and render it for the output or take it for the rejects file;
    the game is then done with, and closed (:meth:`~pdn_tools.pdn.model.Game.close`)
    so that it is freed at once, without the cycle collector."""
    try:
        return _convert_game(game, options, from_json)
    finally:
        game.close()


def _convert_game(game: Game, options: ConvertOptions, from_json: bool) -> Converted:
    read = options.read
    replay_options = ReplayOptions(variant=read.variant, **options.rules)
    reading = list(game.issues)
    replay = _replay(game, replay_options, read.strict, from_json)
    staged = Staged(replay)
    if options.stages.active:
        staged = stage_game(
            game, replay, reading, options.stages, replay_options,
            strict=read.strict, repairable=not from_json, lending=options.lending,
        )  # fmt: skip
        if staged.filtered:
            return Converted(False, False, filtered=True, game=game.index)
        replay = staged.replay
    if options.observe:
        facts = None
        if options.events is not None:
            facts = game_facts(game, replay, game_id(game, replay))
        return Converted(
            False, False, key=staged.key, tags=tuple(game.tags), game=game.index,
            line=game.span.start_line, facts=facts,
        )  # fmt: skip
    item = Exported(game, replay, _resolution(game, replay, read.variant))
    error = game.status == "error"
    done: Converted
    if options.rejects and error:
        if game.source is None and not from_json:
            span = game.span
            done = Converted(error, True, copy=(span.start_line, span.start_column, span.end_line))
        else:
            text = game.source if game.source is not None else write_game(game)
            done = Converted(error, True, text=text)
    else:
        groups = group_stems(game, options.split_by) if options.split_by is not None else ()
        done = Converted(error, False, piece=options.renderer.render(item), groups=groups)
        done.foreign = options.renderer.foreign(item)
    done.repaired, done.key, done.lent = staged.repaired, staged.key, staged.lent
    done.annotated, done.blunders = staged.annotated, staged.blunders
    done.doubted = staged.doubted
    done.game = game.index
    return done


def json_games(path: str, name: str, options: ReadOptions) -> Iterator[Game]:
    """The games of a pdn-tools JSON or JSON Lines file; :class:`ConvertInputError`
    naming the file when it holds something else."""
    try:
        if storage.is_url(path):
            with storage.open_binary(path) as handle:
                text = io.TextIOWrapper(handle, encoding="utf-8")
                yield from read_json(text, max_depth=options.max_depth)
        else:
            yield from read_json(path, max_depth=options.max_depth)
    except JsonInputError as exc:
        raise ConvertInputError(f"{name}: not pdn-tools JSON: {exc}") from None


def task_converted(task: Task, options: ConvertOptions, part: Part) -> Iterator[Converted]:
    """The games of one task of a unit, converted one by one (in a worker); *part*
    receives the findings of a file without games."""
    name = task_source(task)[1]
    path = task_path(task)
    if isinstance(task, WholeFile) and is_json_input(path):
        for game in json_games(path, name, options.read):
            yield convert_game(game, options, True)
        return
    report = FileReport(name)
    for game in task_games(task, options.read, report):
        yield convert_game(game, options)
    if report.without_games:
        part.empty = report.issues


def convert_task(task: Task, options: ConvertOptions) -> Part:
    """Convert the games of one task of a unit (in a worker)."""
    file_no, name = task_source(task)
    part = Part(file_no, name, task_path(task))
    part.games = list(task_converted(task, options, part))
    return part


def convert_unit(unit: Unit, options: ConvertOptions) -> tuple[int, list[Part]]:
    """Convert one unit of work (in a worker): the bytes it covers and its parts."""
    return sum(task_weight(t) for t in unit), [convert_task(t, options) for t in unit]


EmptyNote = Callable[[str, list[Issue]], None]
"""Told the name and findings of a file without any game."""
UnreadableNote = Callable[[Found], None]
"""Told of an entry found in a folder that cannot be read (E14)."""
Elsewhere = Callable[[list[Input], "ConvertOptions"], Generator["Part", None, None]]
"""Converts the inputs somewhere else (on a Dask cluster): their parts, pieces
rendered, in input order; closed when the conversion ends."""


@dataclass(frozen=True, slots=True)
class Counts:
    """What a conversion did: games read, written, rejected, written with an error,
    and entries that could not be read; with the stages, what they did (``read =
    written + rejected + filtered out + duplicates dropped``)."""

    read: int
    written: int
    rejected: int
    errors_written: int
    unreadable: int
    """Inputs that failed as a whole: not read for an error (E14, E11), or read
    without a game and with an error (E12 binary, E15 no PDN)."""
    stages: StageCounts = field(default_factory=StageCounts)
    foreign: int = 0
    """Games written for a program (``--for``) that does not play their variant (or
    whose numbering cannot hold them), as canonical PDN."""
    not_written: bool = False
    """No game was read and an input failed as a whole: the outputs were not put in
    place (a previous file is left as it was)."""


class Conversion:
    """The writing side of one conversion: counts, the output, the rejects file.

    Pieces are written as they come, in input order, after the ordered stage (copies
    of a kept game dropped: :class:`~pdn_tools.run.stages.Admission`); ``read =
    written + rejected + filtered out + duplicates dropped``.  Without a sink the
    output is written elsewhere (by the workers of a cluster) and only counted here.
    With *observing* this is the first pass of ``--merge-tags``: the games only lend
    their tags to it, nothing is written or counted.
    """

    def __init__(
        self,
        sink: Sink | SplitSink | None,
        rejects: RejectsSink | None,
        read: ReadOptions,
        *,
        on_empty: EmptyNote | None = None,
        on_unreadable: UnreadableNote | None = None,
        observing: TagLending | None = None,
        gathering: EventIndex | None = None,
        snapshots: frozenset[tuple[int, int]] = frozenset(),
    ) -> None:
        self.sink = sink
        self.rejects = rejects
        self.observing = observing
        self.gathering = gathering
        """The first pass of ``--drop-prefixes``: the event facts of every game."""
        self.admission = Admission(snapshots=snapshots)
        self.encoding = read.encoding
        self.on_empty = on_empty
        self.on_unreadable = on_unreadable
        self.read = 0
        self.written = 0
        self.rejected = 0
        self.errors_written = 0
        self.unreadable = 0
        self.foreign = 0
        self._copier: LineCopier | None = None
        self._copying: str | None = None
        self.spool: Spool | None = None
        """Standard input's copy, when its rejected games may have to be copied."""

    def put(self, game: Converted, path: str, file_no: int = 0, name: str = "") -> None:
        """Write one converted game read from *path* (``-``: standard input), the
        *file_no*-th input, named *name*; a run told to stop stops here
        (:func:`pdn_tools.atomic.check_stop`)."""
        check_stop()
        if self.observing is not None or self.gathering is not None:
            if self.observing is not None and not game.filtered and game.key is not None:
                self.observing.observe(game.key, game.tags)
            if self.gathering is not None and game.facts is not None:
                self.gathering.add(game.facts, file_no, name, game.game, game.line)
            return
        self.read += 1
        place = (file_no, game.game)
        if not self.admission.admit(game.filtered, game.key, game.repaired, game.lent, place):
            return
        self.admission.counts.annotated += game.annotated
        self.admission.counts.blunders += game.blunders
        self.admission.counts.doubted += game.doubted
        if game.rejected:
            self.rejected += 1
            assert self.rejects is not None
            if game.copy is not None:
                start, column, end = game.copy
                copier = self._lines(path)
                self.rejects.write_pieces(copier.lines(self.encoding, start, end, column))
            else:
                self.rejects.write_text(game.text or "")
            return
        self.written += 1
        if game.error:
            self.errors_written += 1
        if game.foreign:
            self.foreign += 1
        if isinstance(self.sink, SplitSink):
            assert game.piece is not None
            self.sink.put_in(game.piece, game.groups)
        elif self.sink is not None:
            assert game.piece is not None
            self.sink.put(game.piece)

    def counts(self) -> Counts:
        """The counts so far."""
        return Counts(
            self.read,
            self.written,
            self.rejected,
            self.errors_written,
            self.unreadable,
            self.admission.counts,
            self.foreign,
        )

    def put_part(self, part: Part) -> None:
        """Write the games of one part, then note a file without games."""
        for game in part.games:
            self.put(game, part.path, part.file_no, part.name)
        if part.empty is not None:
            self.empty(part.name, part.empty)

    def empty(self, name: str, issues: list[Issue]) -> None:
        """A file without any game was read: told, and counted as failed when one of
        its findings is an error (binary input, no PDN)."""
        if status_of(issues) == "error":
            self.unreadable += 1
        if self.on_empty is not None:
            self.on_empty(name, issues)

    def unreadable_entry(self, entry: Found) -> None:
        """An entry found in a folder is not read: told, not converted, and counted
        as failed unless its finding is only a warning (W39, a link not followed)."""
        if CATALOGUE[entry.code].severity is Severity.ERROR:
            self.unreadable += 1
        if self.on_unreadable is not None:
            self.on_unreadable(entry)

    def _lines(self, path: str) -> LineCopier:
        """The copier of *path*'s lines, one input at a time."""
        if self._copier is None or self._copying != path:
            self.close()
            if path == "-":
                if self.spool is None:
                    raise ValueError("standard input was not spooled for copying")
                self._copier = LineCopier(spool=self.spool)
            else:
                self._copier = LineCopier(path=path)
            self._copying = path
        return self._copier

    def close(self) -> None:
        """Close the input opened for copying."""
        if self._copier is not None:
            self._copier.close()
        self._copier = None
        self._copying = None


def convert_inputs(
    found: Iterable[Found],
    options: ConvertOptions,
    conversion: Conversion,
    *,
    jobs: int = 1,
    stdin: BinaryIO | None = None,
    stdin_name: str | None = None,
    split_bytes: int = SPLIT_BYTES,
    batch_chars: int = BATCH_CHARS,
    elsewhere: Elsewhere | None = None,
) -> None:
    """Convert every file of *found* into *conversion*, in order.

    *stdin* is the stream read for ``-``.  With *jobs* 1 (or one usable core) the
    files are read here, game by game; otherwise the games are read, replayed and
    rendered in up to *jobs* worker processes and written here in input order.
    *elsewhere*, when given, converts the inputs instead (on a Dask cluster: no
    standard input), and their pieces are written here in input order too.
    Raises :class:`ConvertInputError` for a JSON input that is not pdn-tools JSON and
    :class:`OSError` for an input that cannot be read, in their turn.
    """
    entries = list(found)
    inputs: list[Input] = []
    for number, entry in enumerate(entries):
        if entry.problem is None:
            name = (stdin_name or "<stdin>") if entry.path == "-" else entry.name
            inputs.append(Input(number, entry.path, name))
    problems = [(n, e) for n, e in enumerate(entries) if e.problem is not None]
    stream = stdin
    if stdin is not None and options.rejects and any(s.path == "-" for s in inputs):
        conversion.spool = Spool(stdin)
        stream = io.BufferedReader(conversion.spool, 1 << 16)
    parts: Generator[Part, None, None]
    if elsewhere is not None:
        parts = elsewhere(inputs, options)
    elif usable_jobs(jobs) <= 1:
        parts = _here(inputs, options, stream)
    else:
        sizes = (split_bytes, batch_chars)
        parts = _in_workers(inputs, options, stream, jobs, sizes)
    try:
        with closing(parts):  # the worker processes are stopped here, whatever happens
            for part in parts:
                while problems and problems[0][0] < part.file_no:
                    conversion.unreadable_entry(problems.pop(0)[1])
                conversion.put_part(part)
        for _, entry in problems:
            conversion.unreadable_entry(entry)
    finally:
        conversion.close()
        if conversion.spool is not None:
            conversion.spool.close()


def _in_workers(
    inputs: list[Input],
    options: ConvertOptions,
    stdin: BinaryIO | None,
    jobs: int,
    sizes: tuple[int, int],
) -> Generator[Part, None, None]:
    """Convert in worker processes, parts in input order.  A JSON input is read here,
    game by game, in its turn (it cannot be cut, and a worker would hand back all of
    its games at once)."""
    start = 0
    while start < len(inputs):
        if is_json_input(inputs[start].path):
            yield from _here(inputs[start : start + 1], options, stdin)
            start += 1
            continue
        end = start
        while end < len(inputs) and not is_json_input(inputs[end].path):
            end += 1
        units = plan(
            inputs[start:end],
            CheckOptions(read=options.read),
            stdin,
            split_bytes=sizes[0],
            batch_chars=sizes[1],
        )
        # Closed here, in this thread, however the loop ends: a pool left to the
        # cycle collector could be shut down from one of its own threads.
        with closing(ordered_map(convert_unit, units, jobs, options)) as done:
            for _, unit_parts in done:
                yield from unit_parts
        start = end


def _here(
    inputs: list[Input], options: ConvertOptions, stdin: BinaryIO | None
) -> Generator[Part, None, None]:
    """Convert in this process, game by game: each game is written before the next
    is read (a part holds one game at a time), so memory stays flat."""
    for source in inputs:
        path = source.path
        if is_json_input(path):
            for game in json_games(path, source.name, options.read):
                yield Part(source.file_no, source.name, path, [convert_game(game, options, True)])
            continue
        report = FileReport(source.name)
        with ExitStack() as opened:
            reading: str | BinaryIO = path
            if path == "-":
                if stdin is None:
                    raise ValueError("standard input named as input but no stream given")
                reading = stdin
            elif storage.is_url(path):
                reading = opened.enter_context(storage.open_binary(path))
            for game in read_games(reading, options.read, name=source.name, report=report):
                yield Part(source.file_no, source.name, path, [convert_game(game, options)])
        if report.without_games:
            yield Part(source.file_no, source.name, path, empty=report.issues)


__all__ = [
    "JSON_INPUT",
    "Conversion",
    "ConvertInputError",
    "ConvertOptions",
    "Converted",
    "Counts",
    "Elsewhere",
    "EmptyNote",
    "Part",
    "UnreadableNote",
    "convert_game",
    "convert_inputs",
    "convert_unit",
    "is_json_input",
    "task_converted",
]
