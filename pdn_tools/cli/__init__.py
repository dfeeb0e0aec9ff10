"""The ``pdn`` command line: a thin face over the Python API.

Each sub-command lives in its own module; this module only assembles the group.
Data goes to stdout, chatter and diagnostics about the tool itself to stderr.  Every
usage error (unknown option or command, bad value) ends with exit status 2 and one
line on stderr, like the input errors of the commands.  ``pdn`` alone prints the
help to stdout, as ``pdn --help`` does, and exits with status 2 as click does (no
command was given).

Layer 7, the top of the pipeline: it may import every layer and none imports it.
"""

from __future__ import annotations

import gc
import sys

# Importing makes many objects and no garbage: the collector's passes over them while
# the command starts are wasted time (a tenth of it).  It is off again while the
# command's modules are imported (:meth:`_Group.get_command`).
gc.disable()
try:
    import errno
    import importlib
    import signal
    from collections.abc import Sequence
    from typing import Any, NoReturn

    from pdn_tools.atomic import (
        STDOUT_NAME,
        GuardedStdout,
        OutputError,
        Terminated,
        check_stop,
        handle_termination,
        stop_signal,
    )

    # From here on a Ctrl-C is noted as well as raised: one that lands in a finaliser
    # of the imports below (the import system's own) is lost there, and would leave
    # the run to go on to its end as if none had come.
    handle_termination()

    import click

    from pdn_tools.cli.config import ConfigError
    from pdn_tools.cli.terminal import mend_closed_streams
    from pdn_tools.version import __version__, version_line
except (KeyboardInterrupt, RuntimeError) as exc:
    # Ctrl-C while the command starts, before its handlers exist.  Landing while a
    # class is being made (``__set_name__``), it reaches us as a RuntimeError it caused.
    cause = exc if isinstance(exc, KeyboardInterrupt) else exc.__cause__
    if not isinstance(cause, KeyboardInterrupt):
        raise
    # SIGTERM or SIGHUP after handle_termination() (a Terminated: its signal number) is
    # told and ends as it does once the command runs, not as a Ctrl-C.
    signum = getattr(cause, "signum", None)
    if isinstance(signum, int):
        sys.stderr.write("pdn: terminated\n")
        raise SystemExit(128 + signum) from None
    sys.stderr.write("pdn: interrupted\n")
    raise SystemExit(130) from None
finally:
    gc.enable()

#: The sub-commands: name -> (module, attribute).  A command's module is imported when
#: the command is asked for, so that ``pdn validate`` does not start by importing
#: what only ``pdn convert`` needs (pyarrow, the writers).
#:
#: Adding a command: write it in its own module ``pdn_tools/cli/NAME.py`` as a
#: ``@click.command()`` function, then add one line here and its one-line help (the
#: first sentence of its docstring) to :data:`SHORT_HELP` below; document it in
#: docs/cli.md.  Nothing else imports the module (tests/test_startup.py checks that
#: ``pdn --help`` imports no command and that both tables agree with the commands).
COMMANDS = {
    "validate": ("pdn_tools.cli.validate", "validate"),
    "moves": ("pdn_tools.cli.engine", "moves"),
    "perft": ("pdn_tools.cli.engine", "perft"),
    "engine": ("pdn_tools.cli.engine", "engine"),
    "analyse": ("pdn_tools.cli.analyse", "analyse"),
    "convert": ("pdn_tools.cli.convert", "convert"),
    "show": ("pdn_tools.cli.show", "show"),
    "stats": ("pdn_tools.cli.stats", "stats"),
    "duplicates": ("pdn_tools.cli.duplicates", "duplicates"),
    "events": ("pdn_tools.cli.events", "events"),
    "report": ("pdn_tools.cli.report", "report"),
    "schema": ("pdn_tools.cli.schema", "schema_command"),
}

#: Each command's one-line help as ``pdn --help`` lists it, so that listing the
#: commands imports none of them.  A command missing here is imported to list it.
SHORT_HELP = {
    "analyse": "Annotate games with an engine: evaluations, best lines, blunders.",
    "convert": "Convert game collections to PDN, JSON, JSONL or Parquet.",
    "duplicates": "List the games that occur more than once.",
    "engine": "Run the built-in searcher as a Hub engine.",
    "events": "List the events of a collection, or their crosstables.",
    "moves": "List the legal moves of a position.",
    "perft": "Count the positions DEPTH plies ahead.",
    "report": "Write an HTML report with a board for every finding.",
    "schema": "Print the JSON Schema of a game or a report record.",
    "show": "Show one game at one ply: board, moves and findings.",
    "stats": "Count games, results, variants, producers and finding codes.",
    "validate": "Check PDN files and report every finding.",
}


class _Group(click.Group):
    """A group whose usage errors take one line: ``pdn validate: message (see …)``.

    It also makes every run end cleanly: SIGTERM and SIGHUP unwind like Ctrl-C (so
    outputs in progress are discarded, :mod:`pdn_tools.atomic`), standard output is
    written through a stream whose errors name it, and a failed write (a full disk,
    ``/dev/full``) ends the run with one line and exit status 2, never a traceback.
    """

    running: str = "pdn"
    """The sub-command being run, for messages."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attribute = COMMANDS[cmd_name]
            gc.disable()
            try:
                command = getattr(importlib.import_module(module), attribute)
            finally:
                gc.enable()
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of ``pdn --help``, from :data:`SHORT_HELP` (no command imported)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in SHORT_HELP and name not in self.commands:
                # Shortened to the width as click shortens a command's own help.
                stand_in = click.Command(name, short_help=SHORT_HELP[name])
                rows.append((name, stand_in.get_short_help_str(limit)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Terminated as exc:
            # Not a Ctrl-C at a terminal: no blank line from click, just the message.
            raise _Stopped(exc.signum) from None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] in COMMANDS:  # named before its module is imported
            self.running = f"pdn {args[0]}"
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            self.running = f"pdn {command.name}"
        return name, command, rest

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        **extra: Any,
    ) -> NoReturn:
        handle_termination()
        mend_closed_streams()
        original = sys.stdout
        stdout = GuardedStdout() if hasattr(original, "buffer") else None
        if stdout is not None:
            sys.stdout = stdout.text
        try:
            status = self._run(args, prog_name, stdout, **extra)
        finally:
            sys.stdout = original
        if args is None:
            # The process's own command line (a caller such as click's test runner
            # passes its arguments): the run is over and Python is about to exit.
            # Its shutdown collects every object the imports made, a tenth of a short
            # run; frozen, they are left to the exit.  Everything is written and
            # closed by now (outputs, workers, temporary files).
            gc.freeze()
        sys.exit(status)

    def _run(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        stdout: GuardedStdout | None,
        **extra: Any,
    ) -> int:
        """Run the command; its exit status."""
        self.running = "pdn"
        try:
            try:
                code = super().main(args, prog_name, standalone_mode=False, **extra)
                status = code if isinstance(code, int) else 0
            except SystemExit as exc:
                status = _exit_status(exc)
            if status < 128:
                check_stop()  # a signal whose exception was lost in a finaliser
            if stdout is not None:
                stdout.finish()
            return status
        except click.exceptions.NoArgsIsHelpError as exc:  # bare ``pdn``: the whole help
            click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            return exc.exit_code
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "pdn"
            message = " ".join(exc.format_message().split())
            click.echo(f"{where}: {message} (see '{where} --help')", err=True)
            return exc.exit_code
        except ConfigError as exc:
            click.echo(f"{exc.command}: {' '.join(exc.format_message().split())}", err=True)
            return exc.exit_code
        except click.ClickException as exc:
            click.echo(f"pdn: {' '.join(exc.format_message().split())}", err=True)
            return exc.exit_code
        except _Stopped as exc:
            _abandon_workers()
            if stdout is not None:
                stdout.drop()
            click.echo(f"{self.running}: terminated", err=True)
            return 128 + exc.signum
        except (click.Abort, KeyboardInterrupt) as exc:
            _abandon_workers()
            if stdout is not None:
                stdout.drop()
            cause = exc if isinstance(exc, KeyboardInterrupt) else exc.__cause__ or exc.__context__
            if isinstance(cause, Terminated):
                click.echo(f"{self.running}: terminated", err=True)
                return 128 + cause.signum
            click.echo(f"{self.running}: interrupted", err=True)
            return 130
        except OutputError as exc:
            if stdout is not None:
                stdout.drop()
            if not (exc.errno == errno.EPIPE and exc.name == STDOUT_NAME):
                # The reader of our output went away (``| head``): stop quietly.
                click.echo(f"{self.running}: {exc}", err=True)
            return 2
        except Exception:
            # A signal's exception raised where Python turns it into another (a class
            # being made wraps it in RuntimeError): the signal, not a traceback.
            signum = stop_signal()
            if signum is None:
                raise
            _abandon_workers()
            if stdout is not None:
                stdout.drop()
            stopped = "interrupted" if signum == signal.SIGINT else "terminated"
            click.echo(f"{self.running}: {stopped}", err=True)
            return 128 + signum


def _abandon_workers() -> None:
    """Stop the local worker pools of a run stopped by a signal at once, whatever
    still holds them (:func:`pdn_tools.run.parallel.abandon_pools`); a run that
    started none never imported that module."""
    parallel = sys.modules.get("pdn_tools.run.parallel")
    if parallel is not None:
        parallel.abandon_pools()


class _Stopped(Exception):
    """The run was terminated by a signal (SIGTERM, SIGHUP)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _exit_status(exc: SystemExit) -> int:
    """The status a ``sys.exit`` asked for (a message means 1, as Python does)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    click.echo(str(exc.code), err=True)
    return 1


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pdn", message=version_line())
def main() -> None:
    """Check and convert draughts game records written in PDN."""
