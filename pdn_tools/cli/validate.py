"""``pdn validate``: read PDN files and report every finding, game by game."""

from __future__ import annotations

import codecs
import json
import sys
from typing import TextIO

import click

from pdn_tools.cli.options import reading_options
from pdn_tools.diagnostics import Issue, escalate
from pdn_tools.model import ReadOptions
from pdn_tools.paths import InputError, check, expand
from pdn_tools.reader import FileReport, read_games
from pdn_tools.replay import ReplayOptions, replay_game
from pdn_tools.report.records import file_record, game_record
from pdn_tools.report.text import issue_lines


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl"]),
    default="text",
    show_default=True,
    help="text for people, jsonl (one object per game) for tools.",
)
@click.option("--syntax-only", is_flag=True, help="Only read the records; do not replay the moves.")
@click.option(
    "--info", "show_info", is_flag=True, help="Also list info-level findings in the text format."
)
@reading_options
def validate(
    paths: tuple[str, ...],
    fmt: str,
    syntax_only: bool,
    show_info: bool,
    strict: bool,
    encoding: str | None,
    variant: str | None,
    max_game_size: int,
    max_depth: int,
    stdin_filename: str | None,
) -> None:
    """Check PDN files: a file, a directory (searched for *.pdn) or - for stdin.

    Exit status: 0 when no game has an error, 1 when one has, 2 for usage or
    input errors.
    """
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise click.UsageError(f"unknown encoding {encoding!r}") from None
    try:
        check(paths)
    except InputError as exc:
        click.echo(f"pdn validate: {exc}", err=True)
        sys.exit(2)
    options = ReadOptions(
        strict=strict,
        encoding=encoding,
        variant=variant,
        max_game_chars=max_game_size,
        max_depth=max_depth,
    )
    out = click.get_text_stream("stdout")
    totals = {"files": 0, "games": 0, "error": 0, "warning": 0, "info": 0, "bad_games": 0}
    try:
        for path in expand(paths):
            _validate_file(path, options, syntax_only, fmt, show_info, stdin_filename, out, totals)
    except InputError as exc:
        click.echo(f"pdn validate: {exc}", err=True)
        sys.exit(2)
    except OSError as exc:
        click.echo(f"pdn validate: {exc.filename or ''}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    if fmt == "text":
        click.echo(
            f"{totals['files']} file(s), {totals['games']} game(s): {totals['error']} error(s), "
            f"{totals['warning']} warning(s), {totals['info']} info; "
            f"{totals['bad_games']} game(s) with errors",
            err=True,
        )
    sys.exit(1 if totals["bad_games"] else 0)


def _validate_file(
    path: str,
    options: ReadOptions,
    syntax_only: bool,
    fmt: str,
    show_info: bool,
    stdin_filename: str | None,
    out: TextIO,
    totals: dict[str, int],
) -> None:
    name = (stdin_filename or "<stdin>") if path == "-" else path
    report = FileReport(name)
    source = click.get_binary_stream("stdin") if path == "-" else path
    totals["files"] += 1
    for game in read_games(source, options, name=name, report=report):
        replay = None
        if not syntax_only:
            known = len(game.issues)
            try:
                replay = replay_game(game, ReplayOptions(variant=options.variant))
            except Exception as exc:  # a bug must cost one game, never the run
                start = game.span
                game.add_issue(
                    Issue(
                        "E13",
                        f"internal error while replaying: {exc!r}",
                        start.start_line,
                        start.start_column,
                    )
                )
            if options.strict:
                escalate(game.issues[known:])
        totals["games"] += 1
        _count(game.issues, totals)
        if game.status == "error":
            totals["bad_games"] += 1
        if fmt == "jsonl":
            out.write(json.dumps(game_record(game, replay), ensure_ascii=False) + "\n")
        else:
            for text in issue_lines(name, game.index, game.issues, show_info):
                out.write(text + "\n")
    if report.games == 0 and report.issues:
        _count(report.issues, totals)
        if any(i.level.value == "error" for i in report.issues):
            totals["bad_games"] += 1
        if fmt == "jsonl":
            out.write(json.dumps(file_record(name, report.issues), ensure_ascii=False) + "\n")
        else:
            for text in issue_lines(name, 0, report.issues, show_info):
                out.write(text + "\n")


def _count(issues: list[Issue], totals: dict[str, int]) -> None:
    for issue in issues:
        totals[issue.level.value] += 1
