"""Options shared by several commands, defined once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from pdn_tools.gametype import SUPPORTED

F = TypeVar("F", bound=Callable[..., Any])


def reading_options(func: F) -> F:
    """The options that control how PDN is read (strictness, encoding, limits)."""
    options = [
        click.option(
            "--strict", is_flag=True, help="Report every deviation from PDN 3.0 as an error."
        ),
        click.option(
            "--encoding",
            metavar="NAME",
            default=None,
            help="Decode input with this encoding instead of detecting it (e.g. cp1251, cp866).",
        ),
        click.option(
            "--variant",
            type=click.Choice(sorted(SUPPORTED)),
            default=None,
            help="Variant of games without a GameType tag.",
        ),
        click.option(
            "--max-game-size",
            type=click.IntRange(min=1000),
            default=2_000_000,
            show_default=True,
            metavar="CHARS",
            help="Largest game read, in characters; larger games are reported (E11).",
        ),
        click.option(
            "--max-depth",
            type=click.IntRange(min=1, max=200),
            default=100,
            show_default=True,
            metavar="N",
            help="Deepest variation nesting read; deeper games are reported (E11).",
        ),
        click.option(
            "--stdin-filename",
            metavar="NAME",
            default=None,
            help="Name standard input ('-') by this name in reports.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func
