"""The ``pdn`` command line: a thin face over the Python API.

Each sub-command lives in its own module; this module only assembles the group.
Data goes to stdout, chatter and diagnostics about the tool itself to stderr.  Every
usage error (unknown option or command, bad value) ends with exit status 2 and one
line on stderr, like the input errors of the commands.

Layer 6, the top of the pipeline: it may import every layer and none imports it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from pdn_tools.cli.convert import convert
from pdn_tools.cli.engine import moves, perft
from pdn_tools.cli.show import show
from pdn_tools.cli.stats import stats
from pdn_tools.cli.validate import validate
from pdn_tools.version import __version__, version_line


class _Group(click.Group):
    """A group whose usage errors take one line: ``pdn validate: message (see …)``."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        **extra: Any,
    ) -> NoReturn:
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "pdn"
            message = " ".join(exc.format_message().split())
            click.echo(f"{where}: {message} (see '{where} --help')", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"pdn: {' '.join(exc.format_message().split())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("pdn: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            # The reader of our output went away (``| head``): stop quietly, and keep
            # Python from failing again when it flushes stdout at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pdn", message=version_line())
def main() -> None:
    """Check and convert draughts game records written in PDN."""


main.add_command(validate)
main.add_command(moves)
main.add_command(perft)
main.add_command(convert)
main.add_command(show)
main.add_command(stats)
