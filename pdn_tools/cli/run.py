"""The run shared by the commands that check files (``validate``, ``stats``).

It resolves the paths, checks them in parallel (:mod:`pdn_tools.run.parallel`), shows
progress, and turns missing or unreadable input into one line on stderr and exit
status 2, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import NoReturn

import click

from pdn_tools.atomic import Terminated
from pdn_tools.cli.progress import Progress, wanted
from pdn_tools.report.records import Checked
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.parallel import Input, check_inputs, input_list, usable_jobs
from pdn_tools.run.paths import InputError, check, expand


def fail(command: str, message: str) -> NoReturn:
    """One line on stderr, exit status 2 (usage or input error)."""
    click.echo(f"pdn {command}: {message}", err=True)
    sys.exit(2)


def os_message(exc: OSError) -> str:
    """An OS error as ``path: reason``."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


class Run:
    """The inputs of one command and how to check them."""

    def __init__(
        self,
        command: str,
        paths: tuple[str, ...],
        options: CheckOptions,
        *,
        jobs: int,
        stdin_filename: str | None,
        quiet: bool,
    ) -> None:
        self.command = command
        self.options = options
        self.jobs = usable_jobs(jobs)
        self.quiet = quiet
        if self.jobs < jobs and not quiet:
            click.echo(
                f"pdn {command}: note: --jobs {jobs} reduced to {self.jobs}, "
                "the number of CPUs this process may use",
                err=True,
            )
        if paths.count("-") > 1:
            fail(command, "standard input ('-') can be read only once")
        try:
            check(paths)
            self.inputs: list[Input] = input_list(list(expand(paths)), stdin_filename)
        except InputError as exc:
            fail(command, str(exc))
        if not self.inputs and not quiet:
            click.echo(f"pdn {command}: warning: no *.pdn files found", err=True)

    @property
    def files(self) -> int:
        """How many files are read."""
        return len(self.inputs)

    def games(self) -> Iterator[Checked]:
        """Every checked game of every input, in input order."""
        stderr = sys.stderr
        total = sum(source.size for source in self.inputs)
        progress = Progress(stderr, total, wanted(stderr, total, self.quiet))
        stdin = sys.stdin.buffer
        try:
            for weight, checked in check_inputs(self.inputs, self.options, self.jobs, stdin):
                progress.clear()
                yield from checked
                progress.advance(weight)
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
