"""``pdn duplicates``: the games of a collection that occur more than once.

Every game is read and replayed as by ``pdn validate`` (in worker processes with
``--jobs``); its duplicate key (:mod:`pdn_tools.collection.duplicates`) goes to an
index that keeps one key and a few integers per game, never its text.  When every
input is read, each group of two or more copies is written, in the order of its
first copy: as a block of ``file:line: game N`` lines (text) or one JSON object per
group (jsonl).
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from typing import TextIO

import click

from pdn_tools.cli.options import (
    Common,
    comparison,
    comparison_options,
    configured,
    discovery_options,
    filter_options,
    reading_options,
    run_options,
)
from pdn_tools.cli.run import Run
from pdn_tools.cli.terminal import stdout
from pdn_tools.collection.duplicates import Copy, CopyIndex, Group


def _text(group: Group, names: dict[int, str], out: TextIO) -> None:
    out.write(f"{len(group.copies)} copies of game {group.game_id} (key {group.key.hex()}):\n")
    for copy in group.copies:
        out.write(f"  {names[copy.file_no]}:{copy.line}: game {copy.game}\n")
    out.write("\n")


def _jsonl(group: Group, names: dict[int, str], out: TextIO) -> None:
    data = {
        "key": group.key.hex(),
        "game_id": group.game_id,
        "copies": [
            {"file": names[c.file_no], "line": c.line, "game": c.game} for c in group.copies
        ],
    }
    out.write(json.dumps(data, ensure_ascii=False) + "\n")


@click.command(short_help="List the games that occur more than once.")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl"]),
    default="text",
    show_default=True,
    help="A block of file:line lines per group, or one JSON object per group.",
)
@comparison_options
@filter_options
@run_options
@discovery_options
@reading_options
@configured
def duplicates(
    paths: tuple[str, ...],
    fmt: str,
    moves_only: bool,
    prefix: int | None,
    common: Common,
) -> None:
    """List groups of copies of one game in PDN files: a file, a folder
    (searched for *.pdn) or - for stdin.

    By default copies share the variant, start position, main-line moves,
    outcome and players; --moves-only compares the moves alone, --prefix N the
    first N plies.  Exit status: 0 when every game is distinct, 1 when there
    are copies, 2 for usage or input errors.
    """
    how = comparison(moves_only, prefix)
    run = Run("duplicates", paths, common, replace(common.check, comparison=how))
    index = CopyIndex()
    names: dict[int, str] = {}
    games = without = 0
    for checked in run.games():
        if not checked.game:
            continue  # a file without games (its findings are validate's business)
        games += 1
        if checked.key is None:
            without += 1
            continue
        names.setdefault(checked.file_no, checked.file)
        where = Copy(checked.file_no, int(checked.record["line"]), checked.game)
        index.add(checked.key, str(checked.record["game_id"]), where)
    out = stdout()
    write = _text if fmt == "text" else _jsonl
    groups = 0
    for group in index.groups():
        groups += 1
        write(group, names, out)
    out.flush()
    if not common.quiet:
        line = (
            f"{run.files} file(s), {games} game(s): {index.distinct} distinct, "
            f"{index.copies} cop{'y' if index.copies == 1 else 'ies'} of an earlier game "
            f"in {groups} group(s)"
        )
        if without:
            line += f"; {without} game(s) not compared, having no identity (E11, E13)"
        if run.filtering:
            line += f"; {run.filtered} game(s) filtered out"
        click.echo(line, err=True)
    sys.exit(1 if index.copies else 0)
