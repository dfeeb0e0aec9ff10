"""Checking on a Dask cluster: the units of :mod:`pdn_tools.run.units`, run by its workers.

Dask is optional (``pip install 'pdn-tools[dask]'``): this module imports it only
when a cluster is asked for, and says in one line how to install it when it is
missing.  The workers read the inputs themselves from the storage (local paths
they can see, or fsspec URLs): the client sends descriptions only — which files,
which byte ranges, the numbering and the findings carried over — never the text.

The run, in order:

* small files are grouped into units here (their sizes are metadata);
* each large file is scanned for game boundaries *by workers*, part by part
  (:func:`pdn_tools.run.spans.scan_part`, a few files ahead): a part returns a few
  spans and where the scan goes on, the next part is asked for at once, and each
  span becomes a unit, so a file's first games are checked while the rest of it is
  scanned (the parts together give exactly the spans of one scan);
* units are submitted in input order with a bounded number in flight (a few per
  worker thread) and their results handed on in input order, so the report streams
  and memory stays flat however large the input;
* a worker that dies is replaced and its units run again by the scheduler (each
  unit's result is taken once, so no game is lost or doubled); a unit that fails
  for another reason (unreadable storage, a file changed since its scan) reports
  E16 naming the games and lines not checked, and so does a unit the scheduler
  gives up on after it killed several workers; a part of a scan that fails reports
  E16 for the games from where it began (the parts before it are checked).
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import signal
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pdn_tools.collection.events.results import Assessment, ordered
from pdn_tools.diagnostics import Severity
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.pdn.source import Decoding
from pdn_tools.report.base import game_report
from pdn_tools.report.records import Checked
from pdn_tools.report.selection import Selection
from pdn_tools.run import storage
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.events import (
    EventGathering,
    checked_part,
    index_part,
    reduce_events,
    unit_with_events,
)
from pdn_tools.run.parallel import IN_FLIGHT, default_jobs
from pdn_tools.run.spans import GoOn, Span, cut_spans, scan_part
from pdn_tools.run.units import (
    GROUP_FILES,
    Input,
    Unit,
    WholeFile,
    failed_unit,
    failure_reason,
    found_inputs,
    run_unit_reported,
)

if TYPE_CHECKING:
    from dask.bag import Bag
    from distributed import Client, Future

#: Characters of game text per span of a large file: about 280 ordinary games, a
#: third of a second of work on one core, so the scheduler's few milliseconds per task
#: cost about 1 % and a large file spreads over many workers.
SPAN_CHARS = 1 << 18
#: Files larger than this (bytes) are scanned by a worker and cut into spans.
SPLIT_BYTES = 1 << 20
#: Small files are grouped into one unit until their sizes add up to this (bytes).
GROUP_BYTES = 1 << 18
#: Spans the first part of a large file's scan hands out (then the checking starts);
#: each part after it asks for twice as many, up to :data:`PART_SPANS`.
FIRST_PART_SPANS = 2
#: Most spans one part of a scan hands out: about 4 MB, scanned in a tenth of what
#: checking them takes, so the scan stays ahead of the checks.
PART_SPANS = 16
#: Seconds to wait for a scheduler to answer.
CONNECT_TIMEOUT = 30
#: Seconds to wait, once the scheduler has answered, for a worker to join it (a wait of
#: its own: a short one must not leave a loaded host too little time to connect).
WORKERS_TIMEOUT = 30

T = TypeVar("T")

_LOCAL = re.compile(r"local(?::(\d+))?\Z")


class ClusterError(Exception):
    """No cluster to run on (Dask missing, scheduler unreachable, connection lost);
    the command line turns it into one line and exit status 2."""


def require() -> None:
    """Raise :class:`ClusterError` saying how to install Dask when it is missing."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(f"--dask needs Dask: {storage.INSTALL}") from None


@contextmanager
def connect(address: str) -> Iterator[Client]:
    """A client of the cluster at *address*: ``local`` (a cluster of worker processes
    on this machine, one per core), ``local:N`` (N workers) or a scheduler address
    (``tcp://host:8786``).  A local cluster is stopped on leaving."""
    require()
    from distributed import Client

    local = _LOCAL.match(address)
    if local is not None:
        workers = int(local.group(1)) if local.group(1) else default_jobs()
        if workers < 1:
            raise ClusterError(f"{address}: at least one worker is needed")
        with _scratch() as scratch:
            with _workers_leave_interrupts():
                cluster = _local_cluster(workers, scratch)
            try:
                with Client(cluster) as client:
                    _quiet_gather_exits(client)
                    yield client
            finally:
                cluster.close()
        return
    if "://" not in address and ":" not in address:
        raise ClusterError(
            f"{address}: not a scheduler address (tcp://host:port) nor local or local:N"
        )
    with _quiet_client():
        yield from _remote(Client, address)


def _remote(factory: Any, address: str) -> Iterator[Client]:
    """A client of the scheduler at *address*, with a worker."""
    try:
        client = factory(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        _quiet_gather_exits(client)
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except TimeoutError:
            raise ClusterError(
                f"no worker joined the Dask scheduler at {address} within {WORKERS_TIMEOUT} s"
            ) from None
        yield client


def _quiet_gather_exits(client: Client) -> None:
    """Keep Dask's own way of ending a wait early off standard error.

    When Ctrl-C stops the command while it waits for a result, Dask cancels the wait,
    but the tasks that watched each awaited key stay behind; once the command releases
    those keys they end with Dask's internal ``AllExit``, which nobody retrieves, and
    asyncio prints "Task exception was never retrieved" with its traceback before the
    command's one line.  The client's event loop drops exactly those reports; every
    other one goes to asyncio's default handler as before.
    """
    from distributed.client import AllExit

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), AllExit):
            return
        loop.default_exception_handler(context)

    client.loop.asyncio_loop.set_exception_handler(handler)


@contextmanager
def _quiet_client() -> Iterator[None]:
    """Keep the client's own log records (a lost scheduler logs each failed attempt
    to reconnect with its chain of tracebacks) off standard error while it runs: the
    run reports what went wrong itself, in one line (:class:`ClusterError`)."""
    names = ["distributed"] + [
        name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
    ]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@contextmanager
def _scratch() -> Iterator[str]:
    """A private directory for a local cluster's scratch files, removed on leaving.

    Dask's scheduler and workers keep lock files and working directories under
    ``dask-scratch-space`` in the system's temporary folder, shared by every cluster
    of every user, and a worker that is killed (or a run that is interrupted) leaves
    its own there.  The cluster this command starts writes them under a directory of
    its own instead, which goes with the cluster whatever the way out.
    """
    import dask

    scratch = tempfile.mkdtemp(prefix="pdn-dask-")
    try:
        # the scheduler and the nannies take the place from the configuration; the
        # workers from ``local_directory``
        with dask.config.set({"temporary-directory": scratch}):
            yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _local_cluster(workers: int, scratch: str) -> Any:
    """A cluster of *workers* worker processes on this machine, listening on the
    loopback interface only, without a dashboard, its scratch files in *scratch*."""
    from distributed import LocalCluster

    return LocalCluster(
        local_directory=scratch,
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        # no dashboard, and the scheduler's HTTP routes on a free loopback port
        # (by default they take 8787, or warn when another cluster holds it)
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.CRITICAL,
        # a worker (re)started later leaves Ctrl-C to this process too
        preload=["pdn_tools.run.cluster_worker"],
    )


@contextmanager
def _workers_leave_interrupts() -> Iterator[None]:
    """Ignore SIGINT while a local cluster starts its worker processes.

    They run in this process's group, so a Ctrl-C at the terminal reaches each of
    them, and each would print a traceback; a process started while SIGINT is ignored
    keeps ignoring it (Python then installs no handler of its own).  This process,
    which stops the workers, handles Ctrl-C again as soon as they have started; a
    Ctrl-C during that second or two is not seen.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def current_client() -> Iterator[Client]:
    """The ``distributed.Client`` in use in this process, else one of a cluster of
    worker processes on this machine (stopped on leaving)."""
    require()
    from distributed import get_client

    try:
        client = get_client()
    except ValueError:  # no client: start a local cluster
        with connect("local") as local:
            yield local
        return
    yield client


def scan_file(source: Input, options: ReadOptions, span_chars: int, size: int) -> list[Span]:
    """The spans of one large file (a task run by a worker)."""
    return list(cut_spans(source.file_no, source.path, source.name, options, span_chars, size))


def scan_reported(
    source: Input, options: ReadOptions, span_chars: int, size: int
) -> list[Span] | str:
    """:func:`scan_file`, or why it failed (a task run by a worker)."""
    try:
        return scan_file(source, options, span_chars, size)
    except Exception as exc:
        return failure_reason(exc)


def scan_part_reported(
    source: Input, options: ReadOptions, span_chars: int, size: int, go_on: GoOn | None, spans: int
) -> tuple[list[Span], GoOn | None] | str:
    """One part of a large file's scan (:func:`pdn_tools.run.spans.scan_part`), or why
    it failed (a task run by a worker)."""
    try:
        return scan_part(
            source.file_no, source.path, source.name, options, span_chars, size, go_on, spans
        )
    except Exception as exc:
        return failure_reason(exc)


@dataclass(slots=True)
class _Scan:
    """A large file, to be scanned by a worker."""

    source: Input
    size: int


@dataclass(slots=True)
class ScanFailed:
    """A large file whose scan failed, and why: none of its games were read, or with
    *rest*, those from there on (the parts scanned before it are checked)."""

    source: Input
    size: int
    reason: str
    rest: Span | None = None


Plan = list[list[WholeFile] | _Scan]
Result = tuple[int, list[Checked]]


def _plan(
    inputs: Iterable[Input],
    split_bytes: int,
    group_bytes: int,
    keep_whole: Callable[[Input], bool] | None = None,
) -> Plan:
    """Small files grouped, large files to be scanned, in input order; large files
    that cannot be cut (compressed, or *keep_whole*) are one unit each."""
    plan: Plan = []
    group: list[WholeFile] = []
    group_size = 0
    for source in inputs:
        if source.path == "-":
            raise ClusterError("standard input cannot be read by the workers of a cluster")
        size = source.size
        if size > split_bytes:
            if group:
                plan.append(group)
                group, group_size = [], 0
            if (keep_whole is not None and keep_whole(source)) or storage.compressed(source.path):
                # Read whole by one worker: a byte of compressed data is no place in its text.
                plan.append([WholeFile(source, size)])
            else:
                plan.append(_Scan(source, size))
            continue
        group.append(WholeFile(source, size))
        group_size += size
        if group_size >= group_bytes or len(group) >= GROUP_FILES:
            plan.append(group)
            group, group_size = [], 0
    if group:
        plan.append(group)
    return plan


def _scan_failed(scan: ScanFailed) -> Result:
    """What a file whose scan failed reports: E16 for the whole file, or for the games
    from where the failed part began."""
    task = scan.rest if scan.rest is not None else WholeFile(scan.source, scan.size)
    return failed_unit([task], f"scan failed: {scan.reason}")


@dataclass(slots=True)
class Done:
    """A unit that ran on the cluster: its value, or the error it ended with."""

    unit: Unit
    value: Any = None
    error: BaseException | None = None


@dataclass(slots=True)
class _Submitted:
    """A unit running on the cluster."""

    unit: Unit
    future: Future


def in_order(
    client: Client,
    items: Iterable[Unit | T],
    func: Callable[..., Any],
    *args: Any,
    window: int,
    submit: Callable[[Unit], Future] | None = None,
) -> Generator[Done | T, None, None]:
    """``func(unit, *args)`` on the cluster for every unit (a list) of *items*, at most
    *window* submitted and not yet handed on; a :class:`Done` per unit and the other
    items as they are, in order.  :class:`ClusterError` when the cluster is lost.
    Units not handed on when the caller stops are cancelled.  *submit*, when given,
    submits a unit instead (and returns the future whose result is handed on)."""
    pending: deque[_Submitted | T] = deque()
    try:
        for item in items:
            if isinstance(item, list):
                future = (
                    submit(item)
                    if submit is not None
                    else client.submit(func, item, *args, pure=False)
                )
                pending.append(_Submitted(item, future))
            else:
                pending.append(item)
            while len(pending) >= window:
                yield _taken(client, pending.popleft())
        while pending:
            yield _taken(client, pending.popleft())
    finally:
        futures = [item.future for item in pending if isinstance(item, _Submitted)]
        if futures:
            client.cancel(futures)


def _taken(client: Client, item: _Submitted | T) -> Done | T:
    from concurrent.futures import CancelledError

    if not isinstance(item, _Submitted):
        return item
    try:
        return Done(item.unit, item.future.result())
    except CancelledError:
        raise ClusterError("the Dask scheduler cancelled the work (connection lost)") from None
    except Exception as exc:
        if client.status not in ("running", "connecting"):
            raise ClusterError(f"lost the Dask cluster: {exc}") from None
        return Done(item.unit, error=exc)
    finally:
        item.future.release()


def check_on_cluster(
    client: Client,
    inputs: Iterable[Input],
    options: CheckOptions,
    *,
    split_bytes: int = SPLIT_BYTES,
    span_chars: int = SPAN_CHARS,
    group_bytes: int = GROUP_BYTES,
    events: EventGathering | None = None,
) -> Iterator[Result]:
    """Check every input on the cluster of *client*; yield (bytes done, checked games)
    in input order, as :func:`pdn_tools.run.parallel.check_inputs` does.

    With *events* (and ``options.events``) the facts of the games stay on the cluster,
    split by event into one part per worker thread, and are reduced there when every
    unit is done (:mod:`pdn_tools.run.events`); the results are set on *events*."""
    threads = max(1, sum(client.nthreads().values()))
    plan = _plan(inputs, split_bytes, group_bytes)
    units = units_of(client, plan, options.read, span_chars, threads)
    submit = None
    tails: dict[int, tuple[Unit, list[Future]]] = {}  # the unit kept: its id stays its own
    if events is not None and options.events is not None:

        def submit(unit: Unit) -> Future:
            whole = client.submit(unit_with_events, unit, options, threads, pure=False)
            head = client.submit(checked_part, whole, pure=False)
            tails[id(unit)] = (
                unit,
                [client.submit(index_part, whole, part, pure=False) for part in range(threads)],
            )
            return head

    window = threads * IN_FLIGHT
    for item in in_order(client, units, run_unit_reported, options, window=window, submit=submit):
        if isinstance(item, ScanFailed):
            yield _scan_failed(item)
        elif item.error is not None:
            for future in tails.pop(id(item.unit), (item.unit, []))[1]:  # facts lost with it
                future.release()
            yield failed_unit(item.unit, failure_reason(item.error))
        else:
            yield item.value
    if events is not None and options.events is not None:
        kept = [futures for _unit, futures in tails.values()]
        events.results = reduce_on_cluster(client, events, kept)


def reduce_on_cluster(
    client: Client, events: EventGathering, tails: list[list[Future]]
) -> Assessment:
    """Each part of the run's event indexes merged and assessed by a worker (as
    *events* asks); the results in order
    (:func:`~pdn_tools.collection.events.results.ordered`)."""
    if not tails:
        return Assessment()
    parts = len(tails[0])
    how = (events.index.rules, events.chosen, events.tables, events.summaries)
    jobs = [
        client.submit(reduce_events, *how, *[unit[part] for unit in tails], pure=False)
        for part in range(parts)
    ]
    try:
        done = client.gather(jobs)
    except Exception as exc:
        if client.status not in ("running", "connecting"):
            raise ClusterError(f"lost the Dask cluster: {exc}") from None
        raise ClusterError(
            f"the events could not be assessed on the cluster: {failure_reason(exc)}"
        ) from None
    finally:
        for unit in tails:
            for future in unit:
                future.release()
    return ordered(done)


def units_of(
    client: Client, plan: Plan, options: ReadOptions, span_chars: int, lookahead: int
) -> Iterator[Unit | ScanFailed]:
    """The units of *plan* in order (or the failure of a file whose scan failed);
    large files are scanned by workers, up to *lookahead* files ahead, part by part:
    the next part of a file is asked for as soon as the part before it is in, so the
    file's first spans are checked while the rest of it is scanned."""
    scans: dict[int, Future] = {}
    waiting = deque(n for n, item in enumerate(plan) if isinstance(item, _Scan))
    going: Future | None = None  # the part being scanned after the one handed out
    try:
        for n, item in enumerate(plan):
            if not isinstance(item, _Scan):
                yield list(item)
                continue
            while waiting and len(scans) < lookahead:
                ahead = waiting.popleft()
                scan = plan[ahead]
                assert isinstance(scan, _Scan)
                scans[ahead] = client.submit(
                    scan_part_reported, scan.source, options, span_chars, scan.size,
                    None, FIRST_PART_SPANS, pure=False,
                )  # fmt: skip
            future: Future | None = scans.pop(n)
            asked = FIRST_PART_SPANS
            rest: Span | None = None  # where the part being taken begins, after the first
            while future is not None:
                part = _scanned(client, future)
                future = going = None
                if isinstance(part, str):
                    yield ScanFailed(item.source, item.size, part, rest)
                    break
                spans, go_on = part
                if go_on is not None:
                    asked = min(PART_SPANS, asked * 2)
                    future = going = client.submit(
                        scan_part_reported, item.source, options, span_chars, item.size,
                        go_on, asked, pure=False,
                    )  # fmt: skip
                    rest = _rest_of(item, go_on)
                for span in spans:
                    yield [span]
    finally:
        pending = [*scans.values(), *([going] if going is not None else [])]
        if pending:
            client.cancel(pending)


def _scanned(client: Client, future: Future) -> tuple[list[Span], GoOn | None] | str:
    """The result of a part of a scan, or why it failed."""
    try:
        result: tuple[list[Span], GoOn | None] | str = future.result()
        return result
    except Exception as exc:
        if client.status not in ("running", "connecting"):
            raise ClusterError(f"lost the Dask cluster: {exc}") from None
        return failure_reason(exc)
    finally:
        future.release()


def _rest_of(item: _Scan, go_on: GoOn) -> Span:
    """The games of a file from where a part of its scan goes on, to the end (what
    E16 names when that part fails)."""
    begin = go_on.begin
    return begin.span(
        item.source.file_no, item.source.path, item.source.name, Decoding(), [],
        item.size, go_on.version, None,
    )  # fmt: skip


def record_bag(
    paths: Sequence[str],
    options: CheckOptions | None = None,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_on: str = "error",
    split_bytes: int = SPLIT_BYTES,
    span_chars: int = SPAN_CHARS,
    group_bytes: int = GROUP_BYTES,
    scheduler: Any = None,
) -> Bag:
    """A Dask bag of the report records of every game of *paths* (``--format jsonl``'s
    lines, as dicts), in input order: one partition per unit of work.

    Large files are scanned for game boundaries first (with *scheduler*, or Dask's
    current one: a ``distributed.Client``'s cluster when one is active); the bag's
    partitions then read and check their games where they run.
    """
    require()
    import dask
    import dask.bag

    opts = options or CheckOptions()
    chosen = Selection(tuple(select), tuple(ignore))
    level = Severity(fail_on)
    inputs, unreadable_files = found_inputs(storage.find(tuple(paths)), None)
    plan = _plan(inputs, split_bytes, group_bytes)
    scans = [
        dask.delayed(scan_reported)(item.source, opts.read, span_chars, item.size)
        for item in plan
        if isinstance(item, _Scan)
    ]
    scanned = iter(dask.compute(*scans, scheduler=scheduler))
    parts = []
    waiting = deque(unreadable_files)  # E14 records, in their places among the files
    for item in plan:
        first = item.source.file_no if isinstance(item, _Scan) else item[0].source.file_no
        while waiting and waiting[0].file_no < first:
            parts.append(dask.delayed(_records)([waiting.popleft()], chosen, level))
        if not isinstance(item, _Scan):
            parts.append(dask.delayed(_unit_records)(list(item), opts, chosen, level))
            continue
        spans = next(scanned)
        if isinstance(spans, str):
            failed = _scan_failed(ScanFailed(item.source, item.size, spans))[1]
            parts.append(dask.delayed(_records)(failed, chosen, level))
            continue
        parts.extend(dask.delayed(_unit_records)([span], opts, chosen, level) for span in spans)
    if waiting or not parts:
        parts.append(dask.delayed(_records)(list(waiting), chosen, level))
    return dask.bag.from_delayed(parts)


def _unit_records(
    unit: Unit, options: CheckOptions, chosen: Selection, level: Severity
) -> list[dict[str, Any]]:
    return _records(run_unit_reported(unit, options)[1], chosen, level)


def _records(checked: list[Checked], chosen: Selection, level: Severity) -> list[dict[str, Any]]:
    return [game_report(c, chosen, level).record for c in checked]
