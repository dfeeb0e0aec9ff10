"""Options shared by several commands, defined once.

Each decorator adds a group of options; the commands receive them as keyword
arguments and turn them into option objects with the helpers below.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Any, TypeVar

import click

from pdn_tools.pdn.gametype import PROFILES, SUPPORTED
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.report.selection import Selection, SelectionError, parse_prefixes
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.parallel import default_jobs

F = TypeVar("F", bound=Callable[..., Any])


def _apply(func: F, options: list[Callable[[F], F]]) -> F:
    for option in reversed(options):
        func = option(func)
    return func


def reading_options(func: F) -> F:
    """The options that control how PDN is read (strictness, encoding, limits)."""
    return _apply(
        func,
        [
            click.option(
                "--strict", is_flag=True, help="Report every deviation from PDN 3.0 as an error."
            ),
            click.option(
                "--encoding",
                metavar="NAME",
                default=None,
                help="Decode input with this encoding instead of detecting it (e.g. cp1251, "
                "cp866).",
            ),
            click.option(
                "--variant",
                type=click.Choice(sorted(SUPPORTED | PROFILES)),
                default=None,
                help="Variant of games without a GameType tag; a site profile "
                "(immediate-removal, short-landing, itsyourturn...) also replaces its base "
                "variant's GameType.",
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
        ],
    )


def checking_options(func: F) -> F:
    """Reading options plus replay on/off and parallelism: what a checking run needs."""
    return _apply(
        reading_options(func),
        [
            click.option(
                "--syntax-only",
                is_flag=True,
                help="Only read the records; do not replay the moves.",
            ),
            click.option(
                "-j",
                "--jobs",
                type=click.IntRange(min=1),
                default=None,
                metavar="N",
                help="Worker processes (default: all cores); the output does not depend on it.",
            ),
            click.option(
                "-q",
                "--quiet",
                is_flag=True,
                help="No summary and no progress bar on stderr; only the report.",
            ),
        ],
    )


def _prefixes(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    try:
        return parse_prefixes(value)
    except SelectionError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


def selection_options(func: F) -> F:
    """``--select`` and ``--ignore``: which diagnostic codes are reported."""
    return _apply(
        func,
        [
            click.option(
                "--select",
                multiple=True,
                metavar="CODE",
                callback=_prefixes,
                help="Report only these codes or prefixes (W, E0, W12); repeat or separate "
                "with commas.",
            ),
            click.option(
                "--ignore",
                multiple=True,
                metavar="CODE",
                callback=_prefixes,
                help="Do not report these codes or prefixes; they count for nothing.",
            ),
        ],
    )


def check_options(
    *,
    strict: bool,
    encoding: str | None,
    variant: str | None,
    max_game_size: int,
    max_depth: int,
    syntax_only: bool,
) -> CheckOptions:
    """The :class:`CheckOptions` of the parsed command-line options.

    An unknown ``--encoding`` is a usage error (exit status 2).
    """
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise click.BadParameter(
                f"unknown encoding {encoding!r}", param_hint="'--encoding'"
            ) from None
    read = ReadOptions(
        strict=strict,
        encoding=encoding,
        variant=variant,
        max_game_chars=max_game_size,
        max_depth=max_depth,
    )
    return CheckOptions(read=read, syntax_only=syntax_only)


def selection(select: tuple[str, ...], ignore: tuple[str, ...]) -> Selection:
    """The :class:`Selection` of ``--select`` and ``--ignore``."""
    return Selection(select, ignore)


def jobs_or_default(jobs: int | None) -> int:
    """``--jobs``, or every core this process may use."""
    return jobs if jobs is not None else default_jobs()


def verdict_options(func: F) -> F:
    """``--info``, ``--fail-on`` and ``--exit-zero``: what a report lists and when the
    run fails (``validate`` and ``report``)."""
    return _apply(
        func,
        [
            click.option(
                "--info",
                "show_info",
                is_flag=True,
                help="Also list info-level findings in text, github and html.",
            ),
            click.option(
                "--fail-on",
                type=click.Choice(["error", "warning"]),
                default="error",
                show_default=True,
                help="Least severity of a finding that makes the exit status 1.",
            ),
            click.option(
                "--exit-zero",
                is_flag=True,
                help="Exit 0 even when games have errors (2 still means 2).",
            ),
        ],
    )
