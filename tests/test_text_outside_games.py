"""Text that is not PDN: before the first game, between games, and files of nothing else."""

from __future__ import annotations

import io
import json
from pathlib import Path

from click.testing import CliRunner
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import read_games
from pdn_tools.cli import main
from pdn_tools.pdn.reader import FileReport

GAME = '[Event "{}"]\n[GameType "20"]\n1. 32-28 18-23 2. 38-32 *\n\n'


def read(text: str) -> tuple[list, FileReport]:  # type: ignore[type-arg]
    report = FileReport("x.pdn")
    games = list(read_games(io.BytesIO(text.encode()), report=report))
    return games, report


def test_shebang_and_prose_before_the_first_game_are_one_warning() -> None:
    text = "#!/usr/bin/env pdn validate\nGames of the club evening, played in 1995.\n"
    games, _ = read(text + GAME.format("a") + GAME.format("b"))
    assert [g.tag("Event") for g in games] == ["a", "b"]
    first = games[0]
    assert first.status == "warning"
    skipped = [i for i in first.issues if i.code == "W06"]
    assert len(skipped) == 1 and skipped[0].line == 1
    assert "before the first game skipped (2 line(s)" in skipped[0].message
    assert not any(i.code.startswith("E") for g in games for i in g.issues)


def test_long_prose_between_games_keeps_every_game() -> None:
    prose = "".join(f"Round {n} was played on a rainy evening at the club.\n" for n in range(40))
    text = GAME.format("a") + prose + GAME.format("b") + prose + GAME.format("c")
    games, _ = read(text)
    assert [g.tag("Event") for g in games] == ["a", "b", "c"]
    assert [len([i for i in g.issues if i.code == "W06"]) for g in games] == [0, 1, 1]
    assert not any(i.code.startswith("E") for g in games for i in g.issues)


def test_tagless_games_and_empty_game_forms_stay_games() -> None:
    games, _ = read("1. 32-28 18-23 2. 38-32 *\n\n1. 0-2\n\n1. c3-d4 f6-e5 *\n")
    assert len(games) == 3


def test_a_separator_line_or_a_dos_end_of_file_is_no_game(tmp_path: Path) -> None:
    """A line of ``=`` or ``-`` between games, a short word (``ok``) or the Ctrl-Z that
    DOS programs wrote at the end of a file has no move, no tag and no terminator:
    text outside the games (one W06), never a game of its own with an error."""
    for junk in ("==========\n", "----------\n", "ok\n", "12\n", "\x1a"):
        text = GAME.format("a") + junk + "\n" + GAME.format("b") + junk
        games, _ = read(text)
        assert [g.tag("Event") for g in games] == ["a", "b"], repr(junk)
        assert [i.code for i in games[1].issues] == ["W06", "W06"], repr(junk)
        assert games[1].plies == 3
    path = tmp_path / "sep.pdn"
    path.write_text(GAME.format("a") + "==========\n\n" + GAME.format("b"), encoding="utf-8")
    checked = CliRunner().invoke(main, ["validate", str(path), "--isolated"])
    assert checked.exit_code == 0, checked.output
    out = tmp_path / "out.pdn"
    converted = CliRunner().invoke(main, ["convert", str(path), "-o", str(out), "--isolated"])
    assert converted.exit_code == 0, converted.output
    assert "=" not in out.read_text(encoding="utf-8").replace('"', "")
    assert out.read_text(encoding="utf-8").count("32-28") == 2


def test_a_file_without_pdn_is_one_finding() -> None:
    text = "# Notes\n\nThese are notes about [links](elsewhere.md) and 3 things (a, b).\n" * 30
    games, report = read(text)
    assert games == []
    assert [i.code for i in report.issues] == ["E15"]
    assert "no PDN game in this file" in report.issues[0].message


def test_a_tag_without_a_name_is_a_tag_pair_as_the_writers_write_it() -> None:
    # The reader takes '[ "value"]' as a tag with an empty name (W07) and the canonical
    # writer writes it back so: that text must read back as the game it was.
    games, _ = read('[ "Campionato"]\n\n*\n')
    assert len(games) == 1
    assert [(t.name, t.value) for t in games[0].tags] == [("", "Campionato")]
    assert "W07" in [i.code for i in games[0].issues]


def test_prose_that_quotes_a_few_moves_is_still_prose() -> None:
    # An account of a game: a couple of moves among many words is not a game, and the
    # finding does not claim the text holds no move.
    text = "After 32-28 the club champion answered 19-23 and the game went quiet.\n" * 5
    games, report = read(text)
    assert games == [] and [i.code for i in report.issues] == ["E15"]
    assert "reads as prose" in report.issues[0].message
    # The same moves on their own are a game.
    games, report = read("1. 32-28 19-23 *\n")
    assert len(games) == 1


def test_empty_and_comment_only_files_stay_w35() -> None:
    for text in ("", "\n\n", "{ nothing here yet }\n"):
        games, report = read(text)
        assert games == [] and "W35" in [i.code for i in report.issues]


def test_validate_a_markdown_file_gives_one_clear_finding(tmp_path: Path) -> None:
    notes = tmp_path / "notes.pdn"
    notes.write_text((REPO / "docs" / "architecture.md").read_text(encoding="utf-8"))
    done = CliRunner().invoke(main, ["validate", str(notes), "--isolated", "-j", "1"])
    assert done.exit_code == 1
    assert done.stdout.count("\n") == 1
    assert ":1:1: error E15 no PDN game in this file" in done.stdout
    readme = CliRunner().invoke(
        main, ["validate", str(REPO / "README.md"), "--isolated", "-j", "1", "--format", "jsonl"]
    )
    records = [json.loads(line) for line in readme.stdout.splitlines()]
    # The README quotes one PDN game (in its Python example): that one is read, the
    # prose around it is two warnings, not hundreds of findings.
    assert len(records) == 1
    assert [i["code"] for i in records[0]["issues"] if i["code"] != "W27"] == [
        "W06",
        "W06",
        "W06",
    ]


def test_parallel_cutting_places_findings_as_the_reader(tmp_path: Path) -> None:
    prose = "Introduction to the games that follow.\n" * 3
    text = prose + "".join(GAME.format(n) for n in range(400)) + prose
    path = tmp_path / "big.pdn"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    one = runner.invoke(main, ["validate", str(path), "-j", "1", "--format", "jsonl", "--isolated"])
    from pdn_tools.run.check import CheckOptions, check_slots
    from pdn_tools.run.slots import cut_batches

    with open(path, "rb") as handle:
        batches = list(cut_batches(handle, CheckOptions().read, 2000))
    records = [
        c.record | {"issues": [i.to_dict() for i in c.issues]}
        for batch in batches
        for c in check_slots(0, str(path), batch.slots, CheckOptions())
    ]
    expected = [json.loads(line) for line in one.stdout.splitlines()]
    assert len(batches) > 3
    assert [(r["game"], r["issues"]) for r in records] == [
        (e["game"], e["issues"]) for e in expected
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["game", "prose", "shebang", "comment", "blank", "rule", "dashes", "eof", "short"]
        ),
        min_size=1,
        max_size=8,
    )
)
def test_game_count_is_the_number_of_records(parts: list[str]) -> None:
    pieces = {
        "prose": "This line is prose about the tournament and nothing else.\n",
        "shebang": "#!/usr/bin/env pdn\n",
        "comment": "{ a comment }\n",
        "blank": "\n",
        "rule": "==========\n",
        "dashes": "----------\n",
        "eof": "\x1a",
        "short": "ok\n",
    }
    text = "".join(GAME.format(i) if p == "game" else pieces[p] for i, p in enumerate(parts))
    games, report = read(text)
    assert len(games) == parts.count("game")
    assert not any(i.code.startswith("E") for g in games for i in g.issues)
    if not games:
        has_text = bool({"prose", "shebang", "rule", "dashes", "eof", "short"} & set(parts))
        assert [i.code for i in report.issues][-1] == ("E15" if has_text else "W35")


def test_a_long_irregular_tag_name_keeps_its_game() -> None:
    """A tag whose name is long and loose (W07: spaces, up to 80 characters) still
    marks its record as a game, however wordy its value: canonical PDN writes such a
    tag back as it was read, and the record must read back as one game."""
    name = "EvThe last game of a file may om0silently"
    for width in (len(name), 60, 80):
        tag = f'[{name.ljust(width, "x")} "] Result \\"*"]'
        games, report = read(f"{tag}\n\n1. 34-29 17-21 *\n")
        assert len(games) == 1, report.issues
        assert games[0].plies == 2 and "W07" in {i.code for i in games[0].issues}


def test_prose_between_games_is_reported_where_it_stands() -> None:
    """W06 points at the skipped text and counts its lines, not the blank lines
    between the terminator before it and the text."""
    prose = "Some words about the next game.\nAnd a second line of them.\n"
    text = GAME.format("a").rstrip("\n") + "\n\n\n  " + prose + "\n" + GAME.format("b")
    text += "\n\n   trailing words after the games\n"
    games, _ = read(text)
    before = next(i for i in games[1].issues if i.code == "W06")
    assert (before.line, before.column) == (6, 3)
    assert "(2 line(s)" in before.message
    after = [i for i in games[1].issues if i.code == "W06"][1]
    assert (after.line, after.column) == (15, 4)
    assert "(1 line(s)" in after.message
