"""``pdn convert -o DIR --split-by KEY``: one file per group, safe and deterministic
names, outputs complete or untouched; several inputs merged in input order."""

from __future__ import annotations

import json
import os
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import SAMPLES
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools import read_string
from pdn_tools.atomic import Outputs
from pdn_tools.cli import main
from pdn_tools.export.sinks import Exported, PdnSink, Renderer
from pdn_tools.export.split import UNKNOWN, SplitSink, file_stem, group_stems
from pdn_tools.pdn.tags import parse_date
from pdn_tools.replay.resolve import Resolution

DUPS = Path(__file__).resolve().parent / "data" / "duplicates"
CLEAN = SAMPLES / "clean"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _all_games(*paths: Path) -> list[tuple[str | None, ...]]:
    """(Event, White, Black, Date) of every game of *paths*, in order."""
    out = []
    for path in paths:
        for file in sorted(path.glob("*.pdn")) if path.is_dir() else [path]:
            text = file.read_bytes().decode("cp1252" if "cp1252" in file.name else "utf-8")
            for game in read_string(text):
                out.append(tuple(game.tag(n) for n in ("Event", "White", "Black", "Date")))
    return out


def _split(tmp_path: Path, by: str, *more: str) -> dict[str, list[tuple[str | None, ...]]]:
    folder = tmp_path / f"by-{by}"
    done = invoke("convert", str(DUPS), str(CLEAN), "-o", str(folder), "--split-by", by, *more)
    assert done.exit_code == 0, done.output
    files = sorted(os.listdir(folder))
    assert f"; {len(files)} file(s) in {folder}" in done.stderr
    return {
        name: [
            tuple(g.tag(n) for n in ("Event", "White", "Black", "Date"))
            for g in read_string((folder / name).read_text(encoding="utf-8"))
        ]
        for name in files
    }


def test_split_by_event(tmp_path: Path) -> None:
    groups = _split(tmp_path, "event")
    games = _all_games(DUPS, CLEAN)
    assert Counter(g for gs in groups.values() for g in gs) == Counter(games)
    for name, members in groups.items():
        assert name.endswith(".pdn")
        assert {file_stem(g[0]) + ".pdn" for g in members} == {name}
    assert "club-championship-2024.pdn" in groups
    assert len(groups["club-championship-2024.pdn"]) == 8  # 5 + 3 copies with that Event


def test_split_by_player_puts_a_game_in_both_files(tmp_path: Path) -> None:
    groups = _split(tmp_path, "player")
    games = _all_games(DUPS, CLEAN)
    for game in games:
        names = {file_stem(game[1]) + ".pdn", file_stem(game[2]) + ".pdn"}
        for name in names:
            assert game in groups[name]
    assert sum(len(g) for g in groups.values()) == sum(
        len({file_stem(g[1]), file_stem(g[2])}) for g in games
    )
    assert groups["jansen-anna.pdn"] == groups["de-vries-bram.pdn"]  # JANSEN, ANNA too


def test_split_by_year_variant_and_file(tmp_path: Path) -> None:
    years = _split(tmp_path, "year")
    for name, members in years.items():
        for game in members:
            year = parse_date(game[3]).year
            assert name == (f"{year}.pdn" if year is not None else f"{UNKNOWN}.pdn")
    expected = {parse_date(g[3]).year for g in _all_games(DUPS, CLEAN)}
    assert sorted(years) == sorted(f"{y}.pdn" if y else f"{UNKNOWN}.pdn" for y in expected)
    variants = _split(tmp_path, "variant", "--to", "jsonl")
    assert all(name.endswith(".jsonl") for name in variants)
    by_variant = tmp_path / "by-variant"
    for name in os.listdir(by_variant):
        for line in (by_variant / name).read_text(encoding="utf-8").splitlines():
            assert file_stem(json.loads(line)["variant"]) + ".jsonl" == name
    files = _split(tmp_path, "file", "--to", "json")
    inputs = sorted(DUPS.glob("*.pdn")) + sorted(CLEAN.glob("*.pdn"))
    assert len(files) == len(inputs)  # one file per input
    names = set()
    for name in files:
        array = json.loads((tmp_path / "by-file" / name).read_text(encoding="utf-8"))
        assert {file_stem(str(Path(g["file"]).with_suffix(""))) + ".json" for g in array} == {name}
        names.add(array[0]["file"])
    assert names == {str(p) for p in inputs}


def test_file_names_are_safe_and_deterministic() -> None:
    assert file_stem("WK 2024 / Round 1") == "wk-2024-round-1"
    assert file_stem("Чемпионат СССР") == "чемпионат-ссср"
    assert file_stem("  ..Hidden..  ") == "hidden"
    assert file_stem("a\\b:c*d?e<f>g|h") == "a-b-c-d-e-f-g-h"
    for nothing in (None, "", "?", "-", "...", "/"):
        assert file_stem(nothing) == UNKNOWN
    assert file_stem("CON") == "con_" and file_stem("COM\u00b9") == "com\u00b9_"
    assert file_stem("lpt1.old") == "lpt1-old"  # no extension: not a device name
    long_a, long_b = "x" * 300 + "a", "x" * 300 + "b"
    assert file_stem(long_a) == file_stem(long_a) != file_stem(long_b)
    assert len(file_stem(long_a)) <= 90
    assert file_stem("Open  A") == file_stem("open-a")  # the same file
    assert not file_stem("anything").startswith("_")


def test_punctuation_dots_and_underscores_become_one_dash() -> None:
    """Every run of characters that are not letters or digits is one ``-``: dots and
    underscores too, so that values differing only in punctuation share a file and a
    name never holds a second extension, nor is hidden, ``.`` or ``..``."""
    assert file_stem("NK 2003") == file_stem("NK.2003") == "nk-2003"
    assert file_stem("A.B. Smith") == file_stem("A B Smith") == "a-b-smith"
    assert file_stem("Andall, A.K.") == "andall-a-k"
    assert file_stem("round_1") == file_stem("Round 1") == "round-1"
    assert file_stem("games.pdn") == "games-pdn"
    assert file_stem("_unknown") == "unknown" != UNKNOWN
    for nothing in (".", "..", "._", "_", ". .", "\u2026"):
        assert file_stem(nothing) == UNKNOWN
    # letters with the marks that combine with them stay one word (Devanagari)
    assert file_stem("\u0939\u093f\u0928\u094d\u0926\u0940 Open") == (
        "\u0939\u093f\u0928\u094d\u0926\u0940-open"
    )
    # long values that differ only in case or punctuation share a file as short ones do
    assert file_stem("Open." * 40) == file_stem("open " * 40)
    assert file_stem("Open." * 40) != file_stem("Open." * 39)


@given(st.text(max_size=200))
def test_every_file_stem_is_a_plain_name(value: str) -> None:
    """Whatever the value, the stem is one name with no dot, separator or control
    character, not hidden, and the same for the value in other case or punctuation."""
    stem = file_stem(value)
    assert stem and stem not in (".", "..")
    assert "." not in stem and "/" not in stem and "\\" not in stem
    assert not stem.startswith("-") and not stem.endswith("-")
    assert all(ch.isalnum() or ch in "-_" or unicodedata.category(ch)[0] == "M" for ch in stem)
    assert len(stem.encode("utf-8", "surrogatepass")) <= 121
    assert file_stem(value.replace(" ", ".").upper()) == file_stem(value.replace(".", " ").upper())


def test_split_names_of_values_differing_in_punctuation(tmp_path: Path) -> None:
    """Events and players spelt with dots or spaces share one file, named without dots."""
    source = tmp_path / "n.pdn"
    source.write_text(
        '[Event "NK 2003"]\n[White "A.B. Smith"]\n[Black "..."]\n[GameType "20"]\n\n1. 32-28 *\n\n'
        '[Event "NK.2003"]\n[White "A B Smith"]\n[Black "."]\n[GameType "20"]\n\n1. 32-28 *\n',
        encoding="utf-8",
    )
    events = tmp_path / "events"
    done = invoke("convert", str(source), "-o", str(events), "--split-by", "event")
    assert done.exit_code == 0, done.output
    assert os.listdir(events) == ["nk-2003.pdn"]
    assert len(read_string((events / "nk-2003.pdn").read_text(encoding="utf-8"))) == 2
    players = tmp_path / "players"
    done = invoke("convert", str(source), "-o", str(players), "--split-by", "player")
    assert done.exit_code == 0, done.output
    assert sorted(os.listdir(players)) == [f"{UNKNOWN}.pdn", "a-b-smith.pdn"]


def test_groups_beyond_the_open_file_limit(tmp_path: Path) -> None:
    """Games of 5 groups interleaved, at most 2 files open: every file complete."""
    texts = [f'[Event "E{n % 5}"]\n[Round "{n}"]\n[GameType "20"]\n1. 32-28 *\n' for n in range(20)]
    games = read_string("\n".join(texts))
    folder = tmp_path / "out"
    folder.mkdir()
    with Outputs() as outputs:
        sink = SplitSink(
            str(folder), ".pdn", outputs, PdnSink, open_files=2,
        )  # fmt: skip
        for game in games:
            piece = Renderer("pdn").render(Exported(game, None, Resolution()))
            sink.put_in(piece, group_stems(game, "event"))
        assert len(sink.files.open) <= 2
        assert os.listdir(folder) == [] or all(".pdn-tmp-" in n for n in os.listdir(folder))
        sink.close()
    assert sorted(os.listdir(folder)) == [f"e{n}.pdn" for n in range(5)]
    for n in range(5):
        read = read_string((folder / f"e{n}.pdn").read_text(encoding="utf-8"))
        assert [g.tag("Round") for g in read] == [str(r) for r in range(n, 20, 5)]


def test_a_failed_run_writes_no_group_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text("[{]", encoding="utf-8")
    folder = tmp_path / "new"
    done = invoke("convert", str(CLEAN), str(bad), "-o", str(folder), "--split-by", "event")
    assert done.exit_code == 2 and "not pdn-tools JSON" in done.stderr
    assert not folder.exists()  # made by the run, removed again
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "old.pdn").write_text("old", encoding="utf-8")
    (kept / "sample-english-draughts.pdn").write_text("before", encoding="utf-8")
    done = invoke("convert", str(CLEAN), str(bad), "-o", str(kept), "--split-by", "event")
    assert done.exit_code == 2
    assert sorted(os.listdir(kept)) == ["old.pdn", "sample-english-draughts.pdn"]
    assert (kept / "sample-english-draughts.pdn").read_text(encoding="utf-8") == "before"
    done = invoke("convert", str(CLEAN), "-o", str(kept), "--split-by", "event")
    assert done.exit_code == 0, done.output
    assert (kept / "old.pdn").read_text(encoding="utf-8") == "old"  # not a group: kept
    english = (kept / "sample-english-draughts.pdn").read_text(encoding="utf-8")
    assert english.startswith('[Event "Sample: English draughts"]')


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("-o", "-"), "not standard output"),
        (("--to", "parquet"), "--partition-by"),
        (("--partition-by", "year"), "--partition-by"),
        (("--moves-table", "m.parquet"), "--moves-table needs Parquet output"),
    ],
)
def test_refused_combinations(tmp_path: Path, options: tuple[str, ...], message: str) -> None:
    args = ["convert", str(CLEAN), "--split-by", "event", *options]
    if "-o" not in options:
        args += ["-o", str(tmp_path / "out")]
    done = invoke(*args)
    assert done.exit_code == 2 and message in done.stderr, done.output
    assert not (tmp_path / "out").exists()


def test_outputs_that_would_be_inputs_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    game = (CLEAN / "club-evening.pdn").read_text(encoding="utf-8")
    (folder / "club-evening.pdn").write_text(game, encoding="utf-8")
    inside = invoke("convert", str(folder), "-o", str(folder / "split"), "--split-by", "event")
    assert inside.exit_code == 2 and "would be read back" in inside.stderr
    monkeypatch.chdir(folder)
    same = invoke("convert", "club-evening.pdn", "-o", ".", "--split-by", "file")
    assert same.exit_code == 2 and "is also an input" in same.stderr
    assert (folder / "club-evening.pdn").read_text(encoding="utf-8") == game
    assert sorted(os.listdir(folder)) == ["club-evening.pdn"]  # no temporary left
    a_file = invoke(
        "convert", str(CLEAN), "-o", str(folder / "club-evening.pdn"), "--split-by", "year"
    )
    assert a_file.exit_code == 2 and "is a file" in a_file.stderr


def test_inputs_merge_in_input_order(tmp_path: Path) -> None:
    """Several inputs, one output: the games of each input in turn, in its order."""
    inputs = [CLEAN / "variants.pdn", DUPS / "5-other-games.pdn", CLEAN / "club-evening.pdn"]
    out = tmp_path / "all.pdn"
    done = invoke("convert", *map(str, inputs), "-o", str(out))
    assert done.exit_code == 0, done.output
    merged = [g.tag("Event") for g in read_string(out.read_text(encoding="utf-8"))]
    assert merged == [e for e, *_ in _all_games(*inputs)]


def test_outputs_file_is_renamed_at_commit_or_removed(tmp_path: Path) -> None:
    """Outputs.file: a temporary the caller fills (opening it as often as it likes)
    that becomes the file at commit, or goes away when the run fails."""
    target = tmp_path / "out.pdn"
    target.write_text("before", encoding="utf-8")
    with Outputs() as outputs:
        temp = outputs.file(str(target))
        for part in ("one ", "two"):
            with open(temp, "a", encoding="utf-8") as stream:
                stream.write(part)
        assert target.read_text(encoding="utf-8") == "before"
    assert target.read_text(encoding="utf-8") == "one two"
    assert sorted(os.listdir(tmp_path)) == ["out.pdn"]
    with pytest.raises(RuntimeError), Outputs() as outputs:
        temp = outputs.file(str(target))
        Path(temp).write_text("never", encoding="utf-8")
        raise RuntimeError("the run fails")
    assert target.read_text(encoding="utf-8") == "one two"
    assert sorted(os.listdir(tmp_path)) == ["out.pdn"]
    with Outputs() as outputs, pytest.raises(ValueError):
        outputs.file("-")


def test_a_group_file_that_is_the_rejects_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = invoke(
        "convert", str(CLEAN), "-o", str(out), "--split-by", "year",
        "--rejects", str(out / f"{UNKNOWN}.pdn"),
    )  # fmt: skip
    assert done.exit_code == 2 and "and --rejects are the same file" in done.stderr
    assert not out.exists()


def test_merge_tags_names_an_unreadable_input_once(tmp_path: Path) -> None:
    """Two passes over the inputs, one message per file without games."""
    empty = tmp_path / "empty.pdn"
    empty.write_text("", encoding="utf-8")
    done = invoke(
        "convert", str(CLEAN), str(empty), "-o", str(tmp_path / "o.pdn"),
        "--dedupe", "--merge-tags",
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert done.stderr.count("empty.pdn") == 1
