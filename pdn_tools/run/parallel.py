"""Check many files, and the games of large files, in worker processes, in input order.

The inputs are cut into units of work of roughly equal size (:mod:`pdn_tools.run.units`):
several small files go to one worker whole, the games of a large file (or of
standard input) are split here and go out in batches.  Finding byte ranges that
workers read themselves (:mod:`pdn_tools.run.spans`, for machines that share storage
but not this process) needs that same split here, and the workers would split their
ranges again, so on one machine shipping the split games costs less.  Results come
back in input order, whatever order the workers finish in, and at most a few units per
worker are in flight, so memory stays flat however many and however large the inputs.
``jobs=1`` reads every file in this process with the reader itself, which makes it the
reference the parallel path is tested against (byte-identical reports).
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from pdn_tools.atomic import default_termination, signals_held
from pdn_tools.report.records import Checked
from pdn_tools.run.check import CheckOptions, iter_file
from pdn_tools.run.units import (
    BATCH_CHARS,
    SPLIT_BYTES,
    Input,
    input_list,
    plan,
    run_unit,
)

if TYPE_CHECKING:
    import multiprocessing.context
    from concurrent.futures import Future

#: Units in flight per worker.
IN_FLIGHT = 3
#: Games handed on at a time when everything runs in this process (``jobs`` 1).
STREAM_GAMES = 256

T = TypeVar("T")
R = TypeVar("R")
C = TypeVar("C")


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def usable_jobs(jobs: int) -> int:
    """*jobs* capped at the cores this process may use (at least 1): more workers than
    cores only cost memory and switching."""
    return max(1, min(jobs, default_jobs()))


def check_inputs(
    inputs: Iterable[Input],
    options: CheckOptions,
    jobs: int,
    stdin: BinaryIO | None = None,
    *,
    split_bytes: int = SPLIT_BYTES,
    batch_chars: int = BATCH_CHARS,
) -> Iterator[tuple[int, list[Checked]]]:
    """Check every input; yield (bytes done, checked games) in input order.

    *stdin* is the stream read for the input ``-``.  With ``jobs`` 1 everything
    runs in this process, a file's games handed on :data:`STREAM_GAMES` at a time
    (the bytes of the file counted with its last piece); otherwise in up to
    ``jobs`` worker processes (never more than the cores this process may use,
    :func:`usable_jobs`), files larger than *split_bytes* being cut into batches of
    about *batch_chars* characters.
    """
    if usable_jobs(jobs) <= 1:
        for source in inputs:
            stream = stdin if source.path == "-" else None
            games = iter_file(source.file_no, stream or source.path, source.name, options)
            chunk: list[Checked] = []
            for game in games:  # a large file in pieces: memory stays flat
                chunk.append(game)
                if len(chunk) >= STREAM_GAMES:
                    yield 0, chunk
                    chunk = []
            yield source.size, chunk
        return
    units = plan(inputs, options, stdin, split_bytes=split_bytes, batch_chars=batch_chars)
    yield from ordered_map(run_unit, units, jobs, options)


_PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal a process gets when its parent dies (Linux)."""
WATCH_SECONDS = 0.5
"""How often a worker checks that its parent is still alive."""


def _die_with_parent(parent: int) -> None:
    """End this worker when *parent* dies, whatever kills it (even SIGKILL).

    Linux sends the worker SIGKILL on its parent's death (``PR_SET_PDEATHSIG``, set
    through ``prctl``); everywhere, a daemon thread also checks every
    :data:`WATCH_SECONDS` that the parent is still the parent (an orphan is adopted by
    another process) and ends the worker if not.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes  # only workers need it: not imported by every run

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watch below still ends the worker
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="pdn-parent-watch", daemon=True).start()


def _start_worker(parent: int) -> None:
    """Set a worker up: Ctrl-C is left to the parent, which stops the pool; SIGTERM
    has its default effect; the worker dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    default_termination()
    _die_with_parent(parent)


def _context() -> multiprocessing.context.BaseContext:
    """``fork`` where available (fast start, modules already imported), else the default."""
    import multiprocessing  # only a run that starts workers needs it (start-up time)

    if sys.platform != "win32" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


_LIVE: set[Any] = set()
"""The worker pools of this process that are running (see :func:`abandon_pools`)."""
_WORKERS: list[Any] = []
"""The worker processes this process started (see :func:`_end_workers_at_exit`)."""
EXIT_GRACE = 3.0
"""Seconds the interpreter's exit gives workers still alive to end on their own."""
KILL_WAIT = 5.0
"""Seconds the exit waits, at most, for workers it has killed to be gone (a killed
process ends as soon as it is given the CPU: only a stalled host takes this long)."""


def abandon_pools() -> None:
    """Stop every running pool of this process (:func:`ordered_map`): its queued
    units cancelled, the units its workers already hold finished, its workers then
    ended, without waiting here.

    For a run stopped by a signal while its consumer, not the pool's own generator,
    was running: the generator is then left suspended, and its pool would be shut
    down only when the generator is collected, or at the interpreter's exit, which
    waits for every queued unit to be checked first.  (The workers are not killed:
    a pool whose workers die while its queue is full can block its own shutdown.)
    """
    for pool in list(_LIVE):
        _LIVE.discard(pool)
        pool.shutdown(wait=False, cancel_futures=True)


def _end_workers_at_exit() -> None:
    """At the interpreter's exit, end the workers still alive after :data:`EXIT_GRACE`.

    The run is over by then (its outputs written or removed), and every pool it
    finished has ended its workers.  A pool stopped by a signal may not have: a second
    signal coming while the pool shut down (``timeout`` sends one to the command and
    one to its process group) could leave its workers waiting for units and the
    pool's last word that never came, and the exit joining them for ever.  Registered
    after :mod:`multiprocessing`'s own exit handler, this runs before it.
    """
    _join_all(_WORKERS, EXIT_GRACE)
    left = [worker for worker in _WORKERS if worker.is_alive()]
    for worker in left:
        worker.terminate()  # SIGTERM: the default action in a worker
    _join_all(left, 1.0)
    # A worker started with the stop signals held that has not yet let them through (a
    # loaded host) outlives the SIGTERM; SIGKILL cannot be held.  Reaped here, so that
    # no process of the run outlives its exit.
    left = [worker for worker in left if worker.is_alive()]
    for worker in left:
        worker.kill()
    _join_all(left, KILL_WAIT)


def _join_all(workers: list[Any], seconds: float) -> None:
    """Wait at most *seconds* in all for every one of *workers* to end.

    One deadline for all of them, each signal sent to every worker before the first
    wait: the exit takes the same few seconds however many workers are left, rather
    than a wait of its own for each one in turn."""
    deadline = time.monotonic() + seconds
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))


def _started_workers(before: set[Any]) -> None:
    """Note the worker processes a pool has just started (absent from *before*), and
    have :func:`_end_workers_at_exit` run at the exit, before :mod:`multiprocessing`'s
    own handler (the exit handlers run last registered first)."""
    import atexit
    import multiprocessing.util

    if not _WORKERS:
        atexit.unregister(_end_workers_at_exit)  # registered once, after multiprocessing's
        atexit.register(_end_workers_at_exit)
    alive = [w for w in _WORKERS if w.is_alive()]
    _WORKERS[:] = alive + [p for p in multiprocessing.active_children() if p not in before]


class _Failed:
    """An exception met while preparing a unit, raised when its turn comes."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def ordered_map(
    func: Callable[[T, C], R],
    items: Iterable[T],
    jobs: int,
    context: C,
) -> Generator[R, None, None]:
    """``func(item, context)`` for every item, in worker processes, results in order.

    At most ``jobs * IN_FLIGHT`` items are submitted and not yet consumed.  When there
    is only one item, it runs here (starting processes would cost more).  An exception
    raised by *items* or by a call is raised in its turn, after every earlier result,
    as it would be without workers.
    """
    source = iter(items)
    head: list[T] = []
    try:
        for item in source:
            head.append(item)
            if len(head) == 2:
                break
    except Exception:
        for item in head:
            yield func(item, context)
        raise
    if len(head) < 2:
        for item in head:
            yield func(item, context)
        return
    jobs = usable_jobs(jobs)
    # The workers are forked: they share this process's memory page by page until one
    # side writes to a page.  A full garbage collection here writes into every object
    # it tracks (modules, functions, the parser...), so the kernel would copy each
    # shared page; frozen (left out of collections) until the pool is done, they stay
    # shared.  Python's gc documentation advises this before a fork; measured: 2-3 %
    # less wall time for ``--jobs 2``.
    import multiprocessing  # see _context
    from concurrent.futures import ProcessPoolExecutor

    gc.freeze()
    pool = ProcessPoolExecutor(
        jobs, mp_context=_context(), initializer=_start_worker, initargs=(os.getpid(),)
    )
    _LIVE.add(pool)
    window: deque[Future[R] | _Failed] = deque()
    pending = chain(head, source)
    try:
        exhausted = False
        started = False
        while True:
            while not exhausted and len(window) < jobs * IN_FLIGHT:
                try:
                    item = next(pending)
                except StopIteration:
                    exhausted = True
                    break
                except Exception as exc:
                    window.append(_Failed(exc))
                    exhausted = True
                    break
                if started:
                    window.append(pool.submit(func, item, context))
                    continue
                # The first unit starts the workers, then the thread that feeds them and
                # that alone ends them: a signal between the two left workers waiting
                # for units no thread would send, and the interpreter's exit joining
                # them for ever.  Held back, the signal arrives once both run.
                with signals_held():
                    before = set(multiprocessing.active_children())
                    window.append(pool.submit(func, item, context))
                    _started_workers(before)
                started = True
            if not window:
                return
            done = window.popleft()
            if isinstance(done, _Failed):
                raise done.error
            yield done.result()
    finally:
        _LIVE.discard(pool)
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


__all__ = [
    "BATCH_CHARS",
    "SPLIT_BYTES",
    "Input",
    "check_inputs",
    "default_jobs",
    "input_list",
    "ordered_map",
    "plan",
    "run_unit",
    "usable_jobs",
]
