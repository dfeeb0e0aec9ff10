"""Units of work: what one worker call reads and checks, wherever it runs.

The inputs are cut into units of roughly equal size, in input order: several small
files go together whole (:class:`WholeFile`); the games of a large file, and of
standard input, are split by this process and shipped in batches (:class:`Batch`,
:func:`plan`, for the worker processes of this machine, ``--jobs``:
:mod:`pdn_tools.run.parallel`), or a large file is cut into game-aligned byte ranges
that a worker reads from the storage itself (:class:`pdn_tools.run.spans.Span`, for
a Dask cluster, ``--dask``: :mod:`pdn_tools.run.cluster`).  A unit is a small
picklable description.  :func:`task_games` gives the games of a
task in input order, as reading the whole file gives them; :func:`run_unit` checks
them into :class:`~pdn_tools.report.records.Checked` values; :func:`failed_unit` is
what a unit that could not run reports instead (E16), so that no part of the input
is silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import FrozenInstanceError
from typing import Any, BinaryIO

from pdn_tools.atomic import printable
from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.reader import FileReport, read_games
from pdn_tools.report.records import Checked, file_checked
from pdn_tools.run import storage
from pdn_tools.run.check import CheckOptions, check_file, checked, slot_games, unreadable
from pdn_tools.run.discover import Found
from pdn_tools.run.slots import SlotBatch, cut_batches
from pdn_tools.run.spans import Span, span_games

#: Characters of game text per batch of a large file (about 70 ordinary games).
BATCH_CHARS = 1 << 16
#: Files larger than this (bytes) are cut into batches.
SPLIT_BYTES = 1 << 18
#: Small files are grouped into one unit until their sizes add up to this (bytes).
GROUP_BYTES = 1 << 16
#: At most this many small files per unit.
GROUP_FILES = 64


class Input:
    """One input: its position among the inputs, its path (``-``: stdin) and name.

    The path is a local path or a URL (:mod:`pdn_tools.run.storage`).
    """

    file_no: int
    path: str
    name: str

    __slots__ = ("file_no", "name", "path")

    def __init__(
        self,
        file_no: int,
        path: str,
        name: str,
    ) -> None:
        object.__setattr__(self, "file_no", file_no)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "name", name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Input) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.file_no, self.path, self.name) == (other.file_no, other.path, other.name)

    def __hash__(self) -> int:
        return hash((self.file_no, self.path, self.name))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"Input(file_no={self.file_no!r}, path={self.path!r}, name={self.name!r})"

    def __reduce__(self) -> tuple[type[Input], tuple[Any, ...]]:
        # By value, through __init__ (its __setattr__ refuses to restore the fields).
        return (Input, (self.file_no, self.path, self.name))

    @property
    def size(self) -> int:
        """Size in bytes (0 for standard input or when it cannot be known)."""
        if self.path == "-":
            return 0
        return storage.size(self.path)


class WholeFile:
    """A file read whole by a worker."""

    source: Input
    weight: int

    __slots__ = ("source", "weight")

    def __init__(
        self,
        source: Input,
        weight: int,
    ) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "weight", weight)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WholeFile) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.source, self.weight) == (other.source, other.weight)

    def __hash__(self) -> int:
        return hash((self.source, self.weight))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"WholeFile(source={self.source!r}, weight={self.weight!r})"

    def __reduce__(self) -> tuple[type[WholeFile], tuple[Any, ...]]:
        # By value, through __init__ (its __setattr__ refuses to restore the fields).
        return (WholeFile, (self.source, self.weight))


class Batch:
    """Games of standard input, cut and shipped by this process."""

    source: Input
    batch: SlotBatch

    __slots__ = ("batch", "source")

    def __init__(
        self,
        source: Input,
        batch: SlotBatch,
    ) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "batch", batch)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Batch) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.source, self.batch) == (other.source, other.batch)

    def __hash__(self) -> int:
        return hash((self.source, self.batch))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"Batch(source={self.source!r}, batch={self.batch!r})"

    def __reduce__(self) -> tuple[type[Batch], tuple[Any, ...]]:
        # By value, through __init__ (its __setattr__ refuses to restore the fields).
        return (Batch, (self.source, self.batch))


Task = WholeFile | Span | Batch
Unit = list[Task]
"""What one worker call does: several small files, or one span or batch of games."""


def input_list(paths: Iterable[str], stdin_name: str | None) -> list[Input]:
    """Number the files to read; standard input gets *stdin_name* (or ``<stdin>``).

    A file is named by its path, with bytes that are not UTF-8 shown as ``\\xNN``
    (:func:`pdn_tools.atomic.printable`), so that every report format can hold it.
    """
    return [
        Input(n, path, (stdin_name or "<stdin>") if path == "-" else printable(path))
        for n, path in enumerate(paths)
    ]


def found_inputs(
    found: Iterable[Found], stdin_name: str | None
) -> tuple[list[Input], list[Checked]]:
    """The inputs among *found* (numbered in order, unreadable entries included), and
    the E14 records of the entries that cannot be read, in their places' order."""
    inputs: list[Input] = []
    unreadable_files: list[Checked] = []
    for number, entry in enumerate(found):
        if entry.problem is not None:
            unreadable_files.append(unreadable(number, entry.name, entry.problem, entry.code))
        else:
            name = (stdin_name or "<stdin>") if entry.path == "-" else entry.name
            inputs.append(Input(number, entry.path, name))
    return inputs, unreadable_files


def plan(
    inputs: Iterable[Input],
    options: CheckOptions,
    stdin: BinaryIO | None = None,
    *,
    split_bytes: int = SPLIT_BYTES,
    batch_chars: int = BATCH_CHARS,
    group_bytes: int = GROUP_BYTES,
) -> Iterator[Unit]:
    """Cut the inputs into units of work for the worker processes of this machine,
    lazily and in order.

    Files larger than *split_bytes*, and standard input, are split here and their
    games shipped in batches of about *batch_chars* characters (:func:`cut_file`);
    smaller files are grouped until their sizes add up to *group_bytes*.  (A cluster
    cuts large files into spans instead: :mod:`pdn_tools.run.cluster`.)
    """
    group: Unit = []
    group_size = 0
    for source in inputs:
        size = source.size
        if source.path == "-" or size > split_bytes:
            if group:
                yield group
                group, group_size = [], 0
            for batch in cut_file(source, stdin, options, batch_chars, size):
                yield [batch]
            continue
        group.append(WholeFile(source, size))
        group_size += size
        if group_size >= group_bytes or len(group) >= GROUP_FILES:
            yield group
            group, group_size = [], 0
    if group:
        yield group


def cut_file(
    source: Input, stdin: BinaryIO | None, options: CheckOptions, batch_chars: int, size: int = 0
) -> Iterator[Batch]:
    """The games of one large input (a file, or standard input: *stdin*), split here,
    in batches, in order.

    The split is the scan that cutting the file into byte ranges would need, and
    workers that read ranges would split them again: on one machine, shipping the
    split games costs less in all.
    """
    if source.path != "-":
        with storage.open_binary(source.path) as handle:
            for batch in cut_batches(handle, options.read, batch_chars, size):
                yield Batch(source, batch)
        return
    if stdin is None:
        raise ValueError("standard input named as input but no stream given")
    for batch in cut_batches(stdin, options.read, batch_chars, size):
        yield Batch(source, batch)


def task_games(task: Task, options: ReadOptions, report: FileReport) -> Iterator[Game]:
    """The games of *task* in input order, numbered and with the findings that reading
    the whole file gives them; *report* receives the findings of a file without games."""
    if isinstance(task, Span):
        yield from span_games(task, options, report)
    elif isinstance(task, WholeFile):
        path = task.source.path
        if storage.is_url(path):
            with storage.open_binary(path) as handle:
                yield from read_games(handle, options, name=task.source.name, report=report)
        else:  # the reader opens compressed files and zip members itself
            yield from read_games(path, options, name=task.source.name, report=report)
    else:
        report.games += len(task.batch.slots)
        yield from slot_games(task.source.name, task.batch.slots, options)
        if task.batch.empty_file is not None:
            report.issues.extend(task.batch.empty_file)


def task_weight(task: Task) -> int:
    """The bytes of input *task* covers (for progress)."""
    if isinstance(task, Batch):
        return task.batch.weight
    return task.weight


def task_path(task: Task) -> str:
    """The path (or URL; ``-``: standard input) of the file *task* reads."""
    if isinstance(task, Span):
        return task.path
    return task.source.path


def task_source(task: Task) -> tuple[int, str]:
    """The position among the inputs and the name of the file *task* reads."""
    if isinstance(task, Span):
        return task.file_no, task.name
    return task.source.file_no, task.source.name


def run_unit(unit: Unit, options: CheckOptions) -> tuple[int, list[Checked]]:
    """Check one unit of work (in a worker): the bytes it covers and its games."""
    weight = 0
    out: list[Checked] = []
    for task in unit:
        weight += task_weight(task)
        file_no, name = task_source(task)
        if isinstance(task, WholeFile):  # a file that cannot be opened gives E14
            out.extend(check_file(file_no, task.source.path, name, options))
            continue
        report = FileReport(name)
        out.extend(
            checked(file_no, game, options) for game in task_games(task, options.read, report)
        )
        if report.without_games:
            out.append(file_checked(file_no, name, report.issues))
    return weight, out


def run_unit_reported(unit: Unit, options: CheckOptions) -> tuple[int, list[Checked]]:
    """:func:`run_unit`, with a failure (storage, a changed file,
    a bug) reported as E16 findings instead of lost (a task run by a cluster worker)."""
    try:
        return run_unit(unit, options)
    except Exception as exc:
        return failed_unit(unit, failure_reason(exc))


def failure_reason(exc: BaseException) -> str:
    """Why a unit of work failed, in a few words for its E16 finding."""
    name = type(exc).__name__
    if name == "KilledWorker":
        return "the workers that ran it died (it was run on several and each was lost)"
    text = str(exc) or repr(exc)
    return text if isinstance(exc, OSError) else f"{name}: {text}"


def failed_unit(unit: Unit, reason: str) -> tuple[int, list[Checked]]:
    """What *unit* reports when it could not be checked: one E16 record per task,
    naming the games and lines left unchecked and *reason*."""
    weight = 0
    out: list[Checked] = []
    for task in unit:
        weight += task_weight(task)
        file_no, name = task_source(task)
        out.append(file_checked(file_no, name, [unchecked(task, reason)]))
    return weight, out


def unchecked(task: Task, reason: str) -> Issue:
    """The E16 finding of a task that could not be checked."""
    if isinstance(task, Span):
        where = f"games from number {task.games_before + 1} at line {task.line}"
        where += f" to line {task.end_line - 1}" if task.end_line else " to the end of the file"
        return Issue("E16", f"{where} not checked: {reason}", task.line, 1)
    return Issue("E16", f"file not checked: {reason}", 1, 1)


__all__ = [
    "BATCH_CHARS",
    "SPLIT_BYTES",
    "Batch",
    "Input",
    "Task",
    "Unit",
    "WholeFile",
    "cut_file",
    "failed_unit",
    "failure_reason",
    "found_inputs",
    "input_list",
    "plan",
    "run_unit",
    "run_unit_reported",
    "task_games",
    "task_path",
    "task_source",
    "task_weight",
]
