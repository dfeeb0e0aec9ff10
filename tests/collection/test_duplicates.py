"""``pdn duplicates``, ``pdn stats``' duplicate counts and ``pdn convert --dedupe``:
planted copies (re-tagged, re-encoded, reformatted) in corpus/duplicates/, the
Yodachess folder of the shared corpus counted independently, and properties of
``--dedupe``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from click.testing import CliRunner, Result
from helpers import random_move_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn_tools import read_string
from pdn_tools.cli import main
from pdn_tools.collection.duplicates import Comparison, Copy, CopyIndex, TagLending, name_key
from pdn_tools.replay import ReplayOptions, replay_game
from pdn_tools.replay.identity import game_id
from pdn_tools.rules import variant_by_name

DUPS = Path(__file__).resolve().parent / "data" / "duplicates"
INTERNATIONAL = variant_by_name("international")

#: The planted copies: (file, game) of the first copy and of its copy, and how the
#: copy differs (the files' Event tags and names say the same).
PLANTED = {
    (("1-club-2024.pdn", 1), ("2-retagged.pdn", 1)),  # other Event, Round, names' case
    (("1-club-2024.pdn", 2), ("3-cp1252.pdn", 1)),  # CP1252, CRLF, a comment added
    (("1-club-2024.pdn", 3), ("2-retagged.pdn", 2)),  # tags reordered and added
    (("1-club-2024.pdn", 4), ("4-reformatted.pdn", 1)),  # full capture paths, 1-0
    (("1-club-2024.pdn", 5), ("4-reformatted.pdn", 2)),  # all on one line, 1/2-1/2
}


def groups_of(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def pairs(groups: list[dict[str, Any]]) -> set[tuple[tuple[str, int], ...]]:
    return {tuple((Path(c["file"]).name, c["game"]) for c in g["copies"]) for g in groups}


def test_planted_copies_are_found() -> None:
    done = run("duplicates", str(DUPS), "--format", "jsonl")
    assert done.returncode == 1, done.stderr  # copies found
    groups = groups_of(done.stdout)
    assert pairs(groups) == PLANTED
    assert "12 game(s): 7 distinct, 5 copies of an earlier game in 5 group(s)" in done.stderr
    records = {
        (Path(r["file"]).name, r["game"]): r
        for r in map(
            json.loads, run("validate", str(DUPS), "--format", "jsonl").stdout.split("\n")[:-1]
        )
    }
    for group in groups:
        first = group["copies"][0]
        assert group["game_id"] == records[(Path(first["file"]).name, first["game"])]["game_id"]
        for copy in group["copies"]:
            record = records[(Path(copy["file"]).name, copy["game"])]
            assert record["line"] == copy["line"]  # the game's first line
            assert record["game_id"] == group["game_id"]  # same moves, however written
    text = run("duplicates", str(DUPS))
    assert text.returncode == 1
    blocks = text.stdout.strip().split("\n\n")
    assert len(blocks) == len(groups)
    for block, group in zip(blocks, groups, strict=True):
        head, *lines = block.splitlines()
        assert head == f"2 copies of game {group['game_id']} (key {group['key']}):"
        assert lines == [f"  {c['file']}:{c['line']}: game {c['game']}" for c in group["copies"]]


def _main_lines(path: Path) -> list[list[str]]:
    games = run("convert", str(path), "-o", "-", "--to", "jsonl").stdout.splitlines()
    return [[m["canonical"] for m in json.loads(g)["moves"]] for g in games]


def test_comparisons_moves_only_and_prefix() -> None:
    """The training game with the moves of game 1 but other players and result is a
    copy only with --moves-only; the game that leaves game 1 after its opening joins
    with --prefix N for the plies they share, not for one more."""
    other = ("5-other-games.pdn", 1)
    opening = ("5-other-games.pdn", 2)
    first = (("1-club-2024.pdn", 1), ("2-retagged.pdn", 1))
    moves = groups_of(run("duplicates", str(DUPS), "--format", "jsonl", "--moves-only").stdout)
    assert pairs(moves) == (PLANTED - {first}) | {(*first, other)}
    game_1 = _main_lines(DUPS / "1-club-2024.pdn")[0]
    game_2 = _main_lines(DUPS / "5-other-games.pdn")[1]
    shared = next(n for n, (a, b) in enumerate(zip(game_1, game_2, strict=False)) if a != b)
    assert shared >= 10  # planted: the first 10 plies of game 1, then its own moves
    for plies, expected in ((shared, {(*first, other, opening)}), (shared + 1, {(*first, other)})):
        done = run("duplicates", str(DUPS), "--format", "jsonl", "--prefix", str(plies))
        assert pairs(groups_of(done.stdout)) == (PLANTED - {first}) | expected, plies


def test_no_copies_exit_zero(tmp_path: Path) -> None:
    one = tmp_path / "one.pdn"
    one.write_bytes((DUPS / "1-club-2024.pdn").read_bytes())
    done = run("duplicates", str(one))
    assert done.returncode == 0 and done.stdout == ""
    assert "5 game(s): 5 distinct, 0 copies" in done.stderr


def test_stats_counts_copies() -> None:
    doc = json.loads(run("stats", str(DUPS), "--format", "json").stdout)
    per_file = {Path(f["file"]).name: f["duplicates"] for f in doc["files"]}
    assert per_file == {
        "1-club-2024.pdn": 0,
        "2-retagged.pdn": 2,
        "3-cp1252.pdn": 1,
        "4-reformatted.pdn": 2,
        "5-other-games.pdn": 0,
    }
    assert doc["total"]["duplicates"] == 5 and doc["total"]["distinct_games"] == 7
    moves = json.loads(run("stats", str(DUPS), "--format", "json", "--moves-only").stdout)
    assert moves["total"]["duplicates"] == 6
    text = run("stats", str(DUPS), "--total-only").stdout
    assert "  duplicates 5 (copies of an earlier game; 7 distinct)" in text


def test_stats_does_not_count_copies_it_did_not_look_for(tmp_path: Path) -> None:
    """``--syntax-only`` makes no duplicate keys: the copies are said not counted
    (null in the JSON), never a false 0 and every game distinct."""
    games = '[Event "A"]\n[GameType "20"]\n\n1. 32-28 19-23 *\n\n[Event "B"]\n\n1. 33-28 *\n'
    (tmp_path / "a.pdn").write_text(games, encoding="utf-8")
    (tmp_path / "b.pdn").write_text(games, encoding="utf-16")  # the same games re-encoded
    paths = [str(tmp_path / "a.pdn"), str(tmp_path / "b.pdn")]
    replayed = json.loads(run("stats", *paths, "--format", "json").stdout)
    assert replayed["total"]["duplicates"] == 2 and replayed["total"]["distinct_games"] == 2
    doc = json.loads(run("stats", *paths, "--format", "json", "--syntax-only").stdout)
    assert doc["total"]["duplicates"] is None and doc["total"]["distinct_games"] is None
    assert [f["duplicates"] for f in doc["files"]] == [None, None]
    assert doc["total"]["games"] == 4  # the rest is counted as without the option
    text = run("stats", *paths, "--syntax-only").stdout
    assert text.count("  duplicates not counted (--syntax-only: games not replayed)") == 3
    assert "distinct" not in text and "duplicates 0" not in text


def test_games_without_identity_are_not_compared(tmp_path: Path) -> None:
    """Games refused by the reader (E11) have no identity: ``stats`` and
    ``duplicates`` say how many were not compared and count them neither as copies
    nor as distinct games."""
    moves = " ".join(f"{n}. 32-28 19-23" for n in range(1, 120))
    big = f'[Event "big"]\n{moves} *\n\n'
    path = tmp_path / "big.pdn"
    path.write_text(big + big + '[Event "small"]\n1. 32-28 *\n', encoding="utf-8")
    limit = ("--max-game-size", "1000")
    doc = json.loads(run("stats", str(path), "--format", "json", *limit).stdout)
    total = doc["total"]
    assert total["codes"]["E11"] == 2 and total["games"] == 3
    assert total["not_compared"] == doc["files"][0]["not_compared"] == 2
    assert total["duplicates"] == 0 and total["distinct_games"] == 1
    text = run("stats", str(path), "--total-only", *limit).stdout
    assert (
        "  duplicates 0 (copies of an earlier game; 1 distinct; "
        "2 not compared, having no identity (E11, E13))"
    ) in text
    assert (
        json.loads(run("stats", str(path), "--format", "json").stdout)["total"]["not_compared"] == 0
    )  # within the limit every game is compared: the big ones are copies
    dups = run("duplicates", str(path), *limit)
    assert dups.returncode == 0 and dups.stdout == ""
    assert (
        "3 game(s): 1 distinct, 0 copies of an earlier game in 0 group(s); "
        "2 game(s) not compared, having no identity (E11, E13)"
    ) in dups.stderr


def test_dedupe_keeps_first_copies_and_counts(tmp_path: Path) -> None:
    out = tmp_path / "kept.pdn"
    done = run("convert", str(DUPS), "-o", str(out), "--dedupe")
    assert done.returncode == 0, done.stderr
    assert "12 game(s) read, 7 written, 0 rejected, 5 duplicate(s) dropped" in done.stderr
    kept = read_string(out.read_text(encoding="utf-8"))
    events = [g.tag("Event") for g in kept]
    # the copies' own Event values are gone: the first copies (1-club-2024.pdn) stay
    assert events == ["Club Championship 2024"] * 5 + ["Training"] * 2
    again = run("duplicates", str(out))
    assert again.returncode == 0, again.stdout


def test_merge_tags_lends_what_copies_agree_on(tmp_path: Path) -> None:
    """Game 1 (Site "?") gains Site and Annotator from its re-tagged copy, game 3
    the Annotator; the copies' other Event and Round contradict and are not taken."""
    out = tmp_path / "kept.pdn"
    done = run("convert", str(DUPS), "-o", str(out), "--dedupe", "--merge-tags")
    assert done.returncode == 0, done.stderr
    assert "5 duplicate(s) dropped; 3 tag(s) merged into kept copies" in done.stderr
    kept = read_string(out.read_text(encoding="utf-8"))
    first, third = kept[0], kept[2]
    assert first.tag("Site") == "Haarlem" and first.tag("Annotator") == "K. Klaassen"
    assert first.tag("Event") == "Club Championship 2024" and first.tag("Round") == "1"
    assert sum(1 for t in first.tags if t.name == "Site") == 1  # the "?" was replaced
    assert third.tag("Annotator") == "K. Klaassen"
    assert kept[1].tag("Annotator") is None
    refused = run("convert", "-", "-o", str(out), "--dedupe", "--merge-tags", stdin=b"")
    assert refused.returncode == 2 and "standard input" in refused.stderr
    alone = run("convert", str(DUPS), "-o", str(out), "--merge-tags")
    assert alone.returncode == 2 and "--merge-tags goes with --dedupe" in alone.stderr


def test_tag_lending_rule() -> None:
    """Copies that disagree lend nothing; a value the kept copy has is never replaced."""
    [kept, agree, differ] = read_string(
        '[Event "E"]\n[Round "?"]\n[White "A"]\n[Result "*"]\n1. 32-28 *\n\n'
        '[Event "F"]\n[Round "2"]\n[Site "X"]\n[Result "2-0"]\n1. 32-28 *\n\n'
        '[Round "3"]\n[Site "X"]\n[Bianco "B"]\n[Result "0-2"]\n1. 32-28 *\n'
    )
    lending = TagLending()
    key = b"k" * 8
    for game in (kept, agree, differ):
        lending.observe(key, game.tags)
    assert lending.lend(key, kept) == 1
    assert kept.tag("Site") == "X" and kept.tag("Round") == "?"  # 2 and 3 contradict
    assert kept.tag("White") == "A" and kept.tag("Event") == "E" and kept.tag("Result") == "*"


def test_copy_index_groups_in_input_order() -> None:
    index = CopyIndex()
    keys = [b"a" * 8, b"b" * 8, b"a" * 8, b"c" * 8, b"a" * 8, b"b" * 8]
    copies = [index.add(k, f"{n:016x}", Copy(n % 2, 10 * n + 1, n + 1)) for n, k in enumerate(keys)]
    assert copies == [False, False, True, False, True, True]
    assert (index.distinct, index.copies, index.groups_found) == (3, 3, 2)
    groups = list(index.groups())
    assert [g.key for g in groups] == [b"a" * 8, b"b" * 8]
    assert [[c.game for c in g.copies] for g in groups] == [[1, 3, 5], [2, 6]]
    assert groups[0].copies[1] == Copy(0, 21, 3) and groups[0].game_id == f"{0:016x}"


def test_name_key() -> None:
    assert name_key("de Vries,  Bram") == name_key("DE VRIES BRAM") == "bram de vries"
    assert name_key("Jansen, Anna") == name_key("Anna Jansen")  # archives write either
    assert name_key("?") == name_key("-") == name_key(None) == ""
    assert name_key("Müller") != name_key("Muller")


def test_jobs_do_not_change_the_groups(tmp_path: Path) -> None:
    """A file large enough to be cut into batches for worker processes: the groups
    are those of a run in one process."""
    texts = [
        p.read_bytes().decode("cp1252" if "cp1252" in p.name else "utf-8")
        for p in sorted(DUPS.glob("*.pdn"))
    ]
    big = tmp_path / "big.pdn"
    big.write_text("\n".join(texts * 40).replace("\r\n", "\n"), encoding="utf-8")
    assert big.stat().st_size > 1 << 18  # cut into batches (run/parallel.py)
    one = run("duplicates", str(big), "--format", "jsonl", "-j", "1")
    two = run("duplicates", str(big), "--format", "jsonl", "-j", "2")
    assert one.stdout == two.stdout and one.returncode == two.returncode == 1
    groups = groups_of(one.stdout)
    assert len(groups) == 7  # every distinct game has copies now
    assert sum(len(g["copies"]) for g in groups) == 12 * 40


def _independent_key(game: dict[str, Any], moves_only: bool) -> tuple[Any, ...]:
    """A game's identity computed here from its JSON object, without game_id: the
    variant, the FEN tag, every main-line move as (from, to, captured squares) or as
    written; unless *moves_only*, the outcome and the players' words."""
    tags = {t["name"]: t["value"] for t in game["tags"]}
    moves = tuple(
        (m["from"], m["to"], tuple(m["captures"])) if "from" in m else m.get("text", m.get("fen"))
        for m in game["moves"]
        if not m.get("merged")
    )
    fen = re.sub(r"\s+", "", tags.get("FEN", "")).upper()
    base: tuple[Any, ...] = (game["variant"], fen, moves)
    if moves_only:
        return base
    words = [
        " ".join(re.findall(r"\w+", (tags.get(name) or "").casefold()))
        for name in ("White", "Black")
    ]
    return (*base, game["outcome"], *words)


@pytest.mark.corpus
def test_yodachess_distinct_games(corpus: Path, tmp_path: Path) -> None:
    """938 records of about 750 distinct games: the count of pdn duplicates agrees with
    a count of distinct move sequences made here from the converted games; the round
    files of Dames_PartiesPdn/ are all copies of games of the tournament files."""
    folder = corpus / "Yodachess__BrunoGUI_Dames"
    out = tmp_path / "all.jsonl"
    done = run("convert", str(folder), "-o", str(out))
    assert done.returncode in (0, 1), done.stderr
    games = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(games) > 900
    for moves_only, option in ((False, ()), (True, ("--moves-only",))):
        distinct = len({_independent_key(g, moves_only) for g in games})
        dup = run("duplicates", str(folder), "--format", "jsonl", *option)
        groups = groups_of(dup.stdout)
        copies = sum(len(g["copies"]) - 1 for g in groups)
        assert len(games) - copies == distinct, option
        assert f"{len(games)} game(s): {distinct} distinct" in dup.stderr
        assert 700 <= distinct <= 800
    rounds = {
        (c["file"], c["game"])
        for g in groups
        for c in g["copies"]
        if "Dames_PartiesPdn/" in c["file"]
    }
    round_games = {(g["file"], g["game"]) for g in games if "Dames_PartiesPdn/" in g["file"]}
    assert round_games and round_games <= rounds
    kept = tmp_path / "kept.jsonl"
    deduped = run("convert", str(folder), "-o", str(kept), "--dedupe", "--moves-only")
    ids = [json.loads(line)["game_id"] for line in kept.read_text(encoding="utf-8").splitlines()]
    assert len(ids) == len(set(ids)) == len({g["game_id"] for g in games})
    assert f"{len(games) - len(ids)} duplicate(s) dropped" in deduped.stderr


def _random_game(seed: int, plies: int) -> list[str]:
    return random_move_texts(INTERNATIONAL, random.Random(seed), plies)


def _written(moves: list[str], style: int, white: str, result: str) -> str:
    """One game written in one of several layouts (the same game whatever *style*)."""
    tags = f'[Event "E{style}"]\n[White "{white}"]\n[Black "B"]\n[Result "{result}"]\n'
    if style % 3 == 1:
        tags += '[GameType "20"]\n[Round "7"]\n'
    words = []
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        elif style % 2:
            words.append(f"{ply // 2 + 1}...")
        words.append(move)
    separator = " " if style % 2 == 0 else "\n"
    return tags + "\n" + separator.join(words) + f" {result}\n"


POOL = [_random_game(seed, 12 + seed % 5) for seed in range(6)]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(POOL) - 1),
            st.integers(0, 3),
            st.sampled_from(["A", "a", "C"]),
            st.sampled_from(["2-0", "1-0", "*"]),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_dedupe_output_has_no_copies_and_loses_no_game(
    tmp_path_factory: pytest.TempPathFactory, picks: list[tuple[int, int, str, str]]
) -> None:
    """Any mix of games and copies written differently: --dedupe --moves-only writes
    each game id once and every game id read; the default --dedupe writes each
    (game id, outcome, players) once and loses none."""
    folder = tmp_path_factory.mktemp("dedupe")
    source = folder / "mix.pdn"
    source.write_text(
        "\n".join(_written(POOL[p], style, white, result) for p, style, white, result in picks),
        encoding="utf-8",
    )
    listed = folder / "read.jsonl"
    assert invoke("convert", str(source), "-o", str(listed)).exit_code == 0
    read = [json.loads(line) for line in listed.read_text(encoding="utf-8").splitlines()]
    for option, key in (
        (("--moves-only",), lambda g: g["game_id"]),
        ((), lambda g: (g["game_id"], g["outcome"], name_key(_tag(g, "White")))),
    ):
        out = folder / "out.jsonl"
        done = invoke("convert", str(source), "-o", str(out), "--dedupe", *option)
        assert done.exit_code == 0, done.stderr
        kept = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        kept_keys = [key(g) for g in kept]
        assert len(kept_keys) == len(set(kept_keys))
        assert set(kept_keys) == {key(g) for g in read}
        assert f"{len(read) - len(kept)} duplicate(s) dropped" in done.stderr


def invoke(*args: str) -> Result:
    """``pdn ARGS`` in this process (fast enough for many examples)."""
    return CliRunner().invoke(main, list(args))


def _tag(game: dict[str, Any], name: str) -> str | None:
    return next((t["value"] for t in game["tags"] if t["name"] == name), None)


def test_prefix_id_is_the_id_of_the_opening() -> None:
    """game_id(plies=N) of a game is the game_id of its first N plies as a game."""
    moves = POOL[0]
    full = read_string("1. " + " ".join(moves) + " *")[0]
    cut = read_string("1. " + " ".join(moves[:6]) + " *")[0]
    full_replay = replay_game(full, ReplayOptions())
    cut_replay = replay_game(cut, ReplayOptions())
    assert game_id(full, full_replay, plies=6) == game_id(cut, cut_replay)
    assert game_id(full, full_replay, plies=6) != game_id(full, full_replay)
    key = Comparison(prefix=6).key(full, full_replay)
    assert key == bytes.fromhex(game_id(cut, cut_replay) or "")


def test_the_python_example_of_the_collections_page_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "collections.md").read_text(
        encoding="utf-8"
    )
    code = page.split("## From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    archive = (DUPS / "1-club-2024.pdn").read_text(encoding="utf-8")
    archive = archive.replace("Jansen, Anna", "Sijbrands, Ton")  # game 1
    (tmp_path / "archive.pdn").write_text(archive + "\n" + archive, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "collections.md", "exec"), {})
    assert capsys.readouterr().out.splitlines() == [
        "Club Championship 2024 Sijbrands, Ton de Vries, Bram",  # once: its copy is not new
    ]
