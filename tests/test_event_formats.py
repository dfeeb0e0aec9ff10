"""Findings about events in every format of ``pdn validate``, after the games, and in
the exit status, the summary and ``--select``/``--ignore`` as any finding.

The input: two rounds of six players' games of random legal moves (clean games: no
finding of their own), with one player paired twice in round 2 (E50, an error) and
one player spelled two ways (W56, a warning).
"""

from __future__ import annotations

import json
import random
import xml.dom.minidom
from pathlib import Path

import pytest
from cli_helpers import run
from helpers import random_game_pdn

from pdn_tools.report.formats import FORMATS
from pdn_tools.rules import variant_by_name

PAIRINGS = (
    ("1", "Ann Kok", "Bob Ros"),
    ("1", "Cas Bos", "Dan Wit"),
    ("1", "Eve Dam", "Fay Lam"),
    ("2", "Bob Ros", "Cas Bos"),
    ("2", "A. Kok", "Cas Bos"),
    ("2", "Dan Wit", "Eve Dam"),
)


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = random.Random(5)
    variant = variant_by_name("international")
    text = "".join(
        random_game_pdn(
            variant,
            rng,
            24,
            {
                "Event": "Cup",
                "Site": "Here",
                "Date": f"2024.03.0{n + 1}",
                "Round": number,
                "White": white,
                "Black": black,
                "Result": "1-1",
                "GameType": "20",
            },
        )
        for n, (number, white, black) in enumerate(PAIRINGS)
    )
    path = tmp_path_factory.mktemp("formats") / "cup.pdn"
    path.write_text(text, encoding="utf-8")
    return path


def validate(path: Path, *args: str) -> tuple[int, str, str]:
    done = run("validate", str(path), "--jobs", "1", *args)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def test_text_lists_them_after_the_games_placed_at_their_first_game(event_file: Path) -> None:
    status, out, err = validate(event_file)
    assert status == 1
    lines = out.splitlines()
    assert [line.split()[2] for line in lines] == ["E50", "W56"]
    assert lines[0].startswith(f"{event_file}:")
    assert "Cas Bos plays 2 times in round 2 (games 4 and 5)" in lines[0]
    assert lines[0].endswith("[event 'Cup' (Here, 2024), round 2; games 4, 5]")
    assert "'Ann Kok' (1); 'A. Kok' (1)" in lines[1]
    summary, *codes = err.strip().splitlines()
    assert summary.endswith("; 2 finding(s) about events (1 checked)")
    assert codes == ["  errors:   E50 1", "  warnings: W56 1"]  # event codes count too
    assert "1 error(s), 1 warning(s)" in err


def test_every_format_carries_them(event_file: Path) -> None:
    for fmt in FORMATS:
        status, out, _ = validate(event_file, "--format", fmt)
        assert status == 1, fmt
        assert "E50" in out and "W56" in out, fmt
    _, out, _ = validate(event_file, "--format", "jsonl")
    records = [json.loads(line) for line in out.splitlines()]
    assert ["game" in r for r in records] == [True] * 6 + [False] * 2
    assert records[6]["event"] == "Cup" and records[6]["round"] == "2"
    assert [g["game"] for g in records[6]["games"]] == [4, 5]
    _, out, _ = validate(event_file, "--format", "json")
    document = json.loads(out)
    assert document["events"] == records[6:]
    assert document["summary"]["events"] == 1 and document["summary"]["event_findings"] == 2
    assert document["summary"]["failed_event_findings"] == 1
    assert document["summary"]["errors"] == 1
    _, out, _ = validate(event_file, "--format", "sarif")
    results = json.loads(out)["runs"][0]["results"]
    (double,) = [r for r in results if r["ruleId"] == "E50"]
    assert double["level"] == "error" and len(double["relatedLocations"]) == 1
    assert double["properties"]["round"] == "2"
    _, out, _ = validate(event_file, "--format", "github")
    assert "::error file=" in out and "title=E50::" in out and "title=W56::" in out
    _, out, _ = validate(event_file, "--format", "junit")
    suites = xml.dom.minidom.parseString(out).getElementsByTagName("testsuite")
    assert suites[-1].getAttribute("name") == "events"
    assert suites[-1].getAttribute("failures") == "1"


def test_selection_and_failing_as_any_code(event_file: Path) -> None:
    status, out, _ = validate(event_file, "--ignore", "E50")
    assert status == 0 and out.split()[2] == "W56"
    status, _, _ = validate(event_file, "--ignore", "E50", "--fail-on", "warning")
    assert status == 1
    status, out, err = validate(event_file, "--select", "E0,E1,W0")
    assert status == 0 and out == "" and "finding(s) about events" not in err
    status, out, _ = validate(event_file, "--rule", "events=no")
    assert status == 0 and out == ""
    status, out, _ = validate(event_file, "--rule", "player-initials=no")
    assert "W56" not in out and "E50" in out
    status, out, _ = validate(event_file, "--rule", "event-key=event,site,file,year")
    assert "E50" in out
    done = run("validate", str(event_file), "--rule", "event-key=site")
    assert done.returncode == 2 and "must hold event" in done.stderr
    done = run("validate", str(event_file), "--rule", "events-please=yes")
    assert done.returncode == 2 and "events, event-key" in done.stderr


def test_the_configuration_file_sets_the_event_rules(event_file: Path, tmp_path: Path) -> None:
    config = tmp_path / "pdn.toml"
    config.write_text("[rules]\nevents = false\n", encoding="utf-8")
    status, out, _ = validate(event_file, "--config", str(config))
    assert status == 0 and out == ""
    config.write_text('[rules]\nevent-key = ["event", "file"]\n', encoding="utf-8")
    status, out, _ = validate(event_file, "--config", str(config))
    assert status == 1 and "[event 'Cup' (2024), round 2" not in out and "event 'Cup'" in out
    config.write_text('[rules]\nevent-date-gap = "soon"\n', encoding="utf-8")
    done = run("validate", str(event_file), "--config", str(config))
    assert done.returncode == 2 and "event-date-gap" in done.stderr


def test_a_long_match_without_rounds(tmp_path: Path) -> None:
    """Two players, no Round tags: a finished game whose moves begin a longer game is
    no snapshot (matches replay openings); an unfinished one of 20 plies or more is."""
    rng = random.Random(11)
    variant = variant_by_name("international")
    base = random_game_pdn(variant, rng, 60, {}).split("*")[0].split()
    games = [random_game_pdn(variant, rng, 40, {"Result": "1-1"}) for _ in range(150)]

    def record(words: list[str], result: str) -> str:
        return f'[Result "{result}"]\n' + " ".join(words) + f" {result}\n\n"

    short_finished = base[: 3 * 12]  # 12 moves each side: "n. a b" words
    short_unfinished = base[: 3 * 11]
    games += [record(short_finished, "2-0"), record(base, "2-0"), record(short_unfinished, "*")]
    tags = '[Event "Match"]\n[White "Engine A"]\n[Black "Engine B"]\n[GameType "20"]\n'
    path = tmp_path / "match.pdn"
    path.write_text("".join(tags + g for g in games), encoding="utf-8")
    status, out, _ = validate(path, "--format", "jsonl")
    assert status == 0  # W55 is a warning
    findings = [json.loads(line) for line in out.splitlines() if line.startswith('{"event"')]
    assert [f["code"] for f in findings] == ["W55"], findings
    assert [g["game"] for g in findings[0]["games"]] == [152, 153]


def test_an_event_too_large_is_named_not_checked(tmp_path: Path) -> None:
    rng = random.Random(3)
    variant = variant_by_name("international")
    tags = {"Event": "Online", "White": "Same Player", "Black": "Same Player", "Round": "1"}
    text = "".join(random_game_pdn(variant, rng, 6, tags) for _ in range(101))
    path = tmp_path / "online.pdn"
    path.write_text(text, encoding="utf-8")
    status, out, _ = validate(path, "--format", "jsonl", "--rule", "event-max-games=100")
    findings = [json.loads(line) for line in out.splitlines() if line.startswith('{"event"')]
    assert [f["code"] for f in findings] == ["W58"] and status == 0
    assert "101 games, more than the event-max-games rule allows (100)" in findings[0]["message"]
    status, out, _ = validate(path, "--format", "jsonl")  # within the limit: checked
    assert '"code": "E51"' in out and status == 1
    done = run("events", str(path), "--rule", "event-max-games=100")
    assert done.returncode == 0 and "101 record(s), not checked as a whole" in done.stdout
