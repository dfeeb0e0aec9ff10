"""The published JSON Schemas hold every JSON object pdn-tools writes: the game
objects of ``pdn convert``, the records of ``pdn validate`` and its findings about
events, on corpus/ and on a sample of the shared corpus; and the first two share one
definition of the game head."""

from __future__ import annotations

import json
import random
import typing
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from cli_helpers import run
from click.testing import CliRunner
from conftest import SAMPLES

from pdn_tools.cli import main
from pdn_tools.diagnostics import CATALOGUE, DrawRule
from pdn_tools.replay.slips import SLIPS
from pdn_tools.replay.summary import HEAD_KEYS
from pdn_tools.run.paths import expand
from pdn_tools.schemas import DIALECT, NAMES, schema


def validator(name: str) -> jsonschema.Draft202012Validator:
    document = schema(name)
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document)


def errors(name: str, objects: list[dict[str, Any]]) -> list[str]:
    check = validator(name)
    return [
        f"{o.get('file')}#{o.get('game')} {e.json_path}: {e.message[:200]}"
        for o in objects
        for e in check.iter_errors(o)
    ]


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout


def outputs(paths: list[str], tmp_path: Path) -> tuple[list[Any], list[Any]]:
    """Game objects (convert --to json and jsonl) and validate records (jsonl and the
    games of json) of *paths*."""
    games, records, _events = all_outputs(paths, tmp_path)
    return games, records


def all_outputs(paths: list[str], tmp_path: Path) -> tuple[list[Any], list[Any], list[Any]]:
    """:func:`outputs` and the event findings of validate (the jsonl lines after the
    games', which have ``event`` where a record has ``game``, and the events of json)."""
    games: list[Any] = []
    for fmt in ("json", "jsonl"):
        out = tmp_path / f"out.{fmt}"
        cli("convert", *paths, "-o", str(out))
        text = out.read_text(encoding="utf-8")
        games += json.loads(text) if fmt == "json" else [json.loads(x) for x in text.splitlines()]
    lines = cli("validate", *paths, "--format", "jsonl", "--info").splitlines()
    records = [json.loads(line) for line in lines]
    events = [r for r in records if "event" in r]
    records = [r for r in records if "event" not in r]
    document = json.loads(cli("validate", *paths, "--format", "json", "--info"))
    records += document["games"]
    events += document["events"]
    return games, records, events


def test_pdn_schema_prints_each_schema() -> None:
    for name in NAMES:
        done = run("schema", name)
        assert done.returncode == 0, done.stderr
        document = json.loads(done.stdout)
        assert document == schema(name)
        assert document["$schema"] == DIALECT and document["$ref"] == f"#/$defs/{name}"
        jsonschema.Draft202012Validator.check_schema(document)
    assert json.loads(run("schema").stdout) == schema("game")
    done = run("schema", "stats")
    assert done.returncode == 2 and "stats" in done.stderr


def test_every_json_output_of_the_samples_is_valid(tmp_path: Path) -> None:
    games, records = outputs([str(SAMPLES)], tmp_path)
    assert len(games) == 2 * 36 and len(records) >= 2 * 36
    assert errors("game", games) == []
    assert errors("report", records) == []
    assert any(r["game"] == 0 for r in records)  # the file record of an empty file
    assert any(o["outcome"] for o in games) and any(o["gametype"] is None for o in games)


@pytest.mark.corpus
def test_a_sample_of_the_shared_corpus_is_valid(corpus: Path, tmp_path: Path) -> None:
    files = sorted(expand((str(corpus),)))
    sample = random.Random(17).sample(files, 40)
    games, records, events = all_outputs(sample, tmp_path)
    assert len(games) > 100
    assert errors("game", games) == []
    assert errors("report", records) == []
    assert errors("event", events) == []


@pytest.mark.corpus
def test_every_record_of_the_shared_corpus_is_valid(corpus: Path) -> None:
    """Every ``pdn validate --format jsonl`` record of the whole shared corpus, the
    repair objects of its broken games among them."""
    records = [
        json.loads(line) for line in cli("validate", str(corpus), "--format", "jsonl").splitlines()
    ]
    games = [r for r in records if "event" not in r]
    events = [r for r in records if "event" in r]
    assert len(games) > 15_000 and events  # the event findings come after the games
    assert records[: len(games)] == games
    assert errors("report", games) == []
    assert errors("event", events) == []
    assert sum("repair" in i for r in games for i in r["issues"]) > 100


def test_the_game_head_is_one_definition() -> None:
    """Both objects take the head by reference, and the head names exactly the keys
    that :func:`pdn_tools.replay.summary.game_head` builds."""
    for name in ("game", "report"):
        definition = schema(name)["$defs"][name]
        assert {"$ref": "#/$defs/game_head"} in definition["allOf"]
        assert definition["unevaluatedProperties"] is False
    head = schema("game")["$defs"]["game_head"]
    assert tuple(head["required"]) == HEAD_KEYS
    assert set(head["properties"]) == set(HEAD_KEYS)


def test_the_schemas_follow_the_code() -> None:
    defs = schema("game")["$defs"]
    assert defs["draw"]["properties"]["rule"]["enum"] == list(typing.get_args(DrawRule))
    assert defs["slip"]["enum"] == list(SLIPS)
    pattern = defs["issue"]["properties"]["code"]["pattern"]
    check = jsonschema.Draft202012Validator({"type": "string", "pattern": pattern})
    assert all(check.is_valid(code) for code in CATALOGUE)


def test_the_schemas_reject_what_is_not_written(tmp_path: Path) -> None:
    """Undocumented keys, wrong types and unknown values are caught (the tests above
    would not notice a drift otherwise)."""
    path = tmp_path / "one.pdn"
    path.write_text('[Event "a"]\n[Result "2-0"]\n1. 32-28 {x} 19-23 (1... 18-23) 2-0\n')
    games, records = outputs([str(path)], tmp_path)
    assert errors("game", games) == [] and errors("report", records) == []
    game, record = games[0], records[0]
    broken = [
        ({**game, "extra": 1}, "game"),
        ({**game, "outcome": "white wins"}, "game"),
        ({**game, "game_id": "not-a-hash"}, "game"),
        ({**game, "moves": [{**game["moves"][0], "bogus": True}]}, "game"),
        ({**game, "schema_version": 2}, "game"),
        ({k: v for k, v in game.items() if k != "game_id"}, "game"),
        ({**record, "span": game["span"]}, "report"),
        ({**record, "issues": [{"code": "X1"}]}, "report"),
        ({**game, "white_key": ""}, "game"),
    ]
    finding = {
        "event": "a", "site": None, "year": 2003, "round": "3", "code": "E50",
        "severity": "error", "message": "m", "games": [{"file": "f", "game": 1, "line": 1}],
    }  # fmt: skip
    assert errors("event", [finding]) == []
    broken += [
        ({**finding, "code": "W05"}, "event"),
        ({**finding, "games": [{"file": "f", "game": 1}]}, "event"),
        ({**finding, "extra": 1}, "event"),
        ({k: v for k, v in finding.items() if k != "round"}, "event"),
    ]
    for obj, name in broken:
        assert errors(name, [obj]), obj


def test_objects_without_the_added_keys_still_read(tmp_path: Path) -> None:
    """Game objects of schema version 1 written before gametype, outcome, game_id and
    the players' keys were added read back into the same games, and convert as before."""
    path = tmp_path / "one.pdn"
    path.write_text('[Event "a"]\n[GameType "20"]\n1. 32-28 {x} 19-23 (1... 18-23) 2-0\n')
    games, _ = outputs([str(path)], tmp_path)
    old = tmp_path / "old.jsonl"
    old.write_text(
        "".join(
            json.dumps({k: v for k, v in g.items() if k not in ADDED_KEYS}) + "\n"
            for g in games[:1]
        ),
        encoding="utf-8",
    )
    back = tmp_path / "back.pdn"
    cli("convert", str(old), "-o", str(back))
    direct = tmp_path / "direct.pdn"
    cli("convert", str(path), "-o", str(direct))
    assert back.read_text(encoding="utf-8") == direct.read_text(encoding="utf-8")
    again = tmp_path / "again.jsonl"
    cli("convert", str(old), "-o", str(again))
    renewed = json.loads(again.read_text(encoding="utf-8"))
    assert renewed["game_id"] == games[0]["game_id"] and renewed["outcome"] == "white"
    assert renewed["white_key"] is None and games[0]["black_key"] is None


ADDED_KEYS = ("gametype", "outcome", "game_id", "white_key", "black_key")
