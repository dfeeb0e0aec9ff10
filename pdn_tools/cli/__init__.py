"""The ``pdn`` command line: a thin face over the Python API.

Each sub-command lives in its own module; this module only assembles the group.
Data goes to stdout, chatter and diagnostics about the tool itself to stderr.
"""

from __future__ import annotations

import click

from pdn_tools import __version__
from pdn_tools.cli.engine import moves, perft
from pdn_tools.cli.show import show
from pdn_tools.cli.stats import stats
from pdn_tools.cli.validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pdn")
def main() -> None:
    """Check and convert draughts game records written in PDN."""


main.add_command(validate)
main.add_command(moves)
main.add_command(perft)
main.add_command(show)
main.add_command(stats)
