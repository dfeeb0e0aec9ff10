"""The run shared by the commands that check files (``validate``, ``stats``).

It finds the files (:mod:`pdn_tools.run.discover`; globs and fsspec URLs through
:mod:`pdn_tools.run.storage`), checks them in parallel (:mod:`pdn_tools.run.parallel`)
or on a Dask cluster (:mod:`pdn_tools.run.cluster`), shows progress, and turns missing or unreadable
input named on the command line into one line on stderr and exit status 2, never a
traceback.  A file found in a folder that cannot be read becomes a record with E14
in its place among the others.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterator
from contextlib import closing
from dataclasses import replace
from typing import BinaryIO, NoReturn

import click

from pdn_tools.atomic import Terminated, check_stop, printable
from pdn_tools.cli.options import Common
from pdn_tools.cli.progress import Progress, wanted
from pdn_tools.cli.terminal import colour_wanted, stderr
from pdn_tools.report.records import Checked
from pdn_tools.run import storage
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.discover import Discovery, Found
from pdn_tools.run.events import EventGathering
from pdn_tools.run.parallel import check_inputs, usable_jobs
from pdn_tools.run.paths import InputError
from pdn_tools.run.units import Input, found_inputs


def fail(command: str, message: str) -> NoReturn:
    """One line on stderr, exit status 2 (usage or input error)."""
    click.echo(f"pdn {command}: {message}", err=True)
    sys.exit(2)


def os_message(exc: OSError) -> str:
    """An OS error as ``path: reason``."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


def find_files(command: str, paths: tuple[str, ...], common: Common) -> list[Found]:
    """The files *paths* name, walked as configured; notes about skipped entries go
    to stderr (unless quiet).  A path that cannot be read ends the command (exit 2),
    and so do paths that name no file at all (folders without PDN files): every
    command treats an input it cannot find alike (docs/cli.md, exit status)."""
    if paths.count("-") > 1:
        fail(command, "standard input ('-') can be read only once")
    discovery = Discovery(common.walk)
    try:
        found = list(storage.find(paths, discovery))
    except InputError as exc:
        fail(command, str(exc))
    if not common.quiet:
        for note in discovery.notes:
            click.echo(f"pdn {command}: note: {note}", err=True)
    if not found:
        shown = ", ".join(printable(path) for path in paths)
        fail(command, f"no PDN files found in {shown} (*.pdn, also compressed, and .zip)")
    return found


def require_cluster(command: str, paths: tuple[str, ...]) -> None:
    """End the command (exit 2) when ``--dask`` cannot be used: Dask is not installed,
    or standard input is among *paths* (the workers cannot read it)."""
    if "-" in paths:
        fail(command, "standard input cannot be read by the workers of a Dask cluster")
    from pdn_tools.run import cluster  # see _cluster_errors

    try:
        cluster.require()
    except cluster.ClusterError as exc:
        fail(command, str(exc))


def _cluster_errors() -> tuple[type[Exception], ...]:
    """The errors of a run on a Dask cluster.  :mod:`pdn_tools.run.cluster` is imported
    by the runs that use ``--dask`` only: the others start without it."""
    from pdn_tools.run import cluster

    return (cluster.ClusterError,)


class Run:
    """The inputs of one command and how to check them."""

    def __init__(
        self,
        command: str,
        paths: tuple[str, ...],
        common: Common,
        options: CheckOptions | None = None,
        *,
        events: EventGathering | None = None,
    ) -> None:
        self.command = command
        self.common = common
        self.options = options if options is not None else common.check
        """How games are checked (the shared options', unless a command asks for more)."""
        self.events = events
        """The event checks, when the command asks for them: the facts of the games are
        gathered (on a Dask cluster, reduced there)."""
        if events is not None:
            self.options = replace(self.options, events=events.index.rules)
        self.dask = common.dask
        """The Dask cluster to check on (``--dask``), or None for local workers."""
        if self.dask is not None:
            self.jobs = 1
            require_cluster(command, paths)
        else:
            wanted_jobs = common.workers
            self.jobs = usable_jobs(wanted_jobs)
            if self.jobs < wanted_jobs and not common.quiet:
                click.echo(
                    f"pdn {command}: note: --jobs {wanted_jobs} reduced to {self.jobs}, "
                    "the number of CPUs this process may use",
                    err=True,
                )
        found = find_files(command, paths, common)
        self.found = [entry.path for entry in found]
        """The paths of the files found (for the collision checks of outputs)."""
        self.files = len(found)
        """How many files are read (those that cannot be read included)."""
        self.filtered = 0
        """Games the filter options left out (counted as :meth:`games` runs)."""
        self.inputs: list[Input]
        self.unreadable: list[Checked]
        self.inputs, self.unreadable = found_inputs(found, common.stdin_filename)

    @property
    def filtering(self) -> bool:
        """Whether the run leaves out games (a filter option was given)."""
        return self.options.keep is not None

    def games(self) -> Iterator[Checked]:
        """Every checked game of every input that the filter keeps, in input order
        (the others are counted in :attr:`filtered`)."""
        err = stderr()
        total = sum(source.size for source in self.inputs)
        common = self.common
        progress = Progress(
            err, total, wanted(err, total, common.quiet), colour_wanted(common.color, err)
        )
        waiting = list(self.unreadable)  # in input order
        stdin = sys.stdin.buffer
        cluster_errors = _cluster_errors() if self.dask is not None else ()
        try:
            # Closed here, in this thread, however the loop ends: worker pools are
            # never left to the cycle collector (which may run in one of their threads).
            with closing(self._checked(stdin)) as results:
                for weight, checked in results:
                    check_stop()
                    progress.clear()
                    for game in checked:
                        if game.filtered:
                            self.filtered += 1
                            continue
                        while waiting and waiting[0].file_no < game.file_no:
                            yield waiting.pop(0)
                        if self.events is not None:
                            self.events.add(game)
                        yield game
                    progress.advance(weight)
        except cluster_errors as exc:
            progress.finish()
            fail(self.command, str(exc))
        except InputError as exc:
            progress.finish()
            fail(self.command, str(exc))
        except OSError as exc:
            progress.finish()
            fail(self.command, os_message(exc))
        except KeyboardInterrupt as exc:
            progress.finish()
            if isinstance(exc, Terminated):
                click.echo(f"pdn {self.command}: terminated", err=True)
                sys.exit(128 + exc.signum)
            click.echo(f"pdn {self.command}: interrupted", err=True)
            sys.exit(130)
        progress.finish()
        yield from waiting

    def _checked(self, stdin: BinaryIO) -> Generator[tuple[int, list[Checked]], None, None]:
        """(bytes done, checked games) in input order: on the Dask cluster when one is
        named, else in this process or local workers."""
        if self.dask is None:
            yield from check_inputs(self.inputs, self.options, self.jobs, stdin)
            return
        from pdn_tools.run import cluster  # see _cluster_errors

        with cluster.connect(self.dask) as client:
            yield from cluster.check_on_cluster(
                client, self.inputs, self.options, events=self.events
            )
