"""``pdn schema``: print the JSON Schema of the game object, of the validate record or
of an event finding."""

from __future__ import annotations

import json

import click

from pdn_tools.schemas import NAMES, schema


@click.command(name="schema", short_help="Print the JSON Schema of a game or a report record.")
@click.argument("name", type=click.Choice(NAMES), default="game", metavar="[game|report|event]")
def schema_command(name: str) -> None:
    """Print a JSON Schema (draft 2020-12) on stdout.

    game: the game object of pdn convert --to json/jsonl (the default).
    report: one record of pdn validate --format jsonl.
    event: one finding about an event (validate's records after the games).
    """
    click.echo(json.dumps(schema(name), indent=2, ensure_ascii=False))
