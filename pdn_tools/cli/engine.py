"""``pdn moves``, ``pdn perft`` and ``pdn engine``: the engine on the command line.

``pdn engine --hub`` runs the built-in searcher as a Hub engine on the standard
streams (:mod:`pdn_tools.search.hub_server`), for any program that drives Hub engines.

Both commands read a position as FEN and a variant by name (or GameType number).  On
8x8 boards the FEN may use algebraic squares (``W:Wc3:Bd4``); output always uses PDN
square numbers.  Bad input (an invalid FEN, an unknown variant) ends with exit status 2
and one line on stderr saying why.
"""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import click

from pdn_tools.cli.options import variant_option
from pdn_tools.rules import (
    FenError,
    Position,
    Variant,
    canonical_path,
    divide,
    legal_moves,
    move_texts,
    parse_fen,
    variant_by_name,
)
from pdn_tools.rules import perft as count_positions
from pdn_tools.rules.perft import MAX_DEPTH as MAX_PERFT_DEPTH

_VARIANT_HELP = (
    "The rules to apply: {variants}.  Aliases and GameType numbers work too, in any letter case."
)


def _signals_in() -> None:
    """Called by the compiled perft walk every few milliseconds.  Compiled code does
    not look for signals; the call of this plain Python function does (the
    interpreter runs pending signal handlers when it enters a function), so Ctrl-C,
    SIGTERM and SIGHUP stop even a count that would take years."""


def _fail(message: str) -> NoReturn:
    """One line on stderr naming the command (``pdn moves: …``), exit status 2 (bad
    input)."""
    click.echo(f"pdn {click.get_current_context().info_name}: {message}", err=True)
    sys.exit(2)


def _variant(name: str) -> Variant:
    try:
        return variant_by_name(name)
    except KeyError as exc:
        _fail(str(exc.args[0]))


def _position(fen: str | None, variant: Variant) -> Position:
    if fen is None:
        return Position.initial(variant)
    try:
        return parse_fen(fen, variant).position
    except FenError as exc:
        _fail(f"invalid FEN: {exc}")


@click.command(short_help="List the legal moves of a position.")
@click.argument("fen")
@variant_option("international", _VARIANT_HELP)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="One move per line in canonical notation, or a JSON list.",
)
def moves(fen: str, variant: str, output_format: str) -> None:
    """List the legal moves of the position FEN."""
    rules = _variant(variant)
    position = _position(fen, rules)
    legal = legal_moves(position, rules)
    texts = move_texts(legal, rules)
    if output_format == "text":
        for text in texts:
            click.echo(text)
        return
    records = [
        {
            "from": move.from_sq,
            "to": move.to_sq,
            "path": list(canonical_path(move, rules)),
            "captures": sorted(move.captures),
            "notation": text,
        }
        for move, text in zip(legal, texts, strict=True)
    ]
    click.echo(json.dumps(records))


@click.command(short_help="Count the positions DEPTH plies ahead.")
@click.argument("depth", type=click.IntRange(min=0, max=MAX_PERFT_DEPTH))
@click.option(
    "--fen", default=None, help="The start position (default: the variant's initial position)."
)
@variant_option("international", _VARIANT_HELP)
@click.option(
    "--divide", "show_divide", is_flag=True, help="First print the count below each move."
)
def perft(depth: int, fen: str | None, variant: str, show_divide: bool) -> None:
    """Count the positions DEPTH plies ahead (identical moves counted once).

    DEPTH is at most 64: the count grows too fast for anything deeper to finish.
    """
    rules = _variant(variant)
    position = _position(fen, rules)
    if show_divide and depth >= 1:
        total = 0
        for text, count in divide(position, depth, rules, _signals_in):
            click.echo(f"{text} {count}")
            total += count
        click.echo(total)
        return
    click.echo(count_positions(position, depth, rules, _signals_in))


@click.command(short_help="Run the built-in searcher as a Hub engine.")
@click.option(
    "--hub",
    "hub",
    is_flag=True,
    help="Speak the Hub protocol (Scan's) on standard input and output.",
)
def engine(hub: bool) -> None:
    """Run the built-in searcher as an engine for programs that drive engines.

    With --hub it speaks the Hub protocol on stdin/stdout (hub, set-param, init, pos,
    level, go, stop, ping, new-game, quit) until quit or the end of its input.
    """
    if not hub:
        _fail("say which protocol to speak (--hub)")
    from pdn_tools.search.hub_server import serve
    from pdn_tools.version import __version__

    serve(sys.stdin, sys.stdout, __version__)
