"""The analysis-ready tables: real queries with DuckDB, polars, pyarrow and pandas on
``pdn convert`` output of corpus/ (and of a real archive of the shared corpus).

Every expectation is computed independently from the PDN (the public reading and
replay API and the format's own rules), never read back from the tables themselves.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import read_games
from pdn_tools.cli import main
from pdn_tools.export.tables import (
    GAMES_FIELDS,
    METADATA_KEY,
    MOVES_FIELDS,
    OPENING_PLIES,
    SCHEMA_VERSION,
)
from pdn_tools.replay import replay_game
from pdn_tools.run.paths import expand

#: Result strings of the archives and who they say won: the left score is the first
#: mover's (pdn-format.md §5.3); White moves first in the variants these files hold.
WHITE_FIRST = {"2-0": "white", "0-2": "black", "1-1": "draw", "1-0": "white", "0-1": "black"}
WHITE_FIRST["1/2-1/2"] = "draw"
_STANDARD_DATE = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})")


def convert(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["convert", *args])
    return result.exit_code, result.stderr


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """corpus/ converted once: the games and the moves table."""
    out = tmp_path_factory.mktemp("tables")
    games, moves = out / "games.parquet", out / "moves.parquet"
    code, err = convert(str(SAMPLES), "-o", str(games), "--moves-table", str(moves))
    assert code in (0, 1), err
    return games, moves


def _games_of(path: Path) -> list[tuple[object, object]]:
    """(game, replay) of every game of the PDN files under *path*, in conversion order."""
    out = []
    for name in expand((str(path),)):
        for game in read_games(name):
            out.append((game, replay_game(game)))
    return out


@pytest.fixture(scope="module")
def replayed() -> list[tuple[object, object]]:
    return _games_of(SAMPLES)


def test_schema_version_and_plain_column_names(tables: tuple[Path, Path]) -> None:
    games, moves = tables
    reserved = {
        name
        for (name,) in duckdb.sql(
            "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category <> 'unreserved'"
        ).fetchall()
    }
    for path, fields in ((games, GAMES_FIELDS), (moves, MOVES_FIELDS)):
        schema = pq.read_schema(path)
        assert schema.metadata[METADATA_KEY.encode()] == str(SCHEMA_VERSION).encode()
        assert schema.names == [f.name for f in fields]
        for name in schema.names:
            assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
            assert name not in reserved, name
    # Columns are usable unquoted, the old keyword columns are gone.
    duckdb.sql(f"SELECT from_square, to_square, ply, move FROM '{moves}' LIMIT 1").fetchall()


def test_integer_columns_stay_integers_in_pandas(tables: tuple[Path, Path]) -> None:
    """pandas turns an integer column with NULLs into float64 unless told otherwise:
    the files tell it (nullable Int32, Int64 / boolean)."""
    games, moves = tables
    plies = pd.read_parquet(moves)
    assert plies["from_square"].isna().any()  # unresolved moves: NULL squares
    for column in ("ply", "from_square", "to_square"):
        assert str(plies[column].dtype) == "Int32", column
    assert str(plies["is_capture"].dtype) == "boolean"
    frame = pd.read_parquet(games)
    assert frame["gametype"].isna().any()
    for column in ("year", "plies", "errors", "warnings"):
        assert str(frame[column].dtype) == "Int32", column
    for column in ("gametype", "game"):
        assert str(frame[column].dtype) == "Int64", column


def test_results_per_player_with_outcome(
    tables: tuple[Path, Path], replayed: list[tuple[object, object]]
) -> None:
    games, _ = tables
    rows = duckdb.sql(
        f"""
        SELECT player, count(*) AS games,
               count(*) FILTER (WHERE outcome = colour) AS wins,
               count(*) FILTER (WHERE outcome = 'draw') AS draws
        FROM (SELECT white AS player, 'white' AS colour, outcome FROM '{games}'
              UNION ALL SELECT black, 'black', outcome FROM '{games}')
        WHERE player IS NOT NULL GROUP BY player ORDER BY player
        """
    ).fetchall()
    expected: dict[str, list[int]] = {}
    for game, _ in replayed:
        for colour in ("white", "black"):
            name = (game.tag(colour.title()) or "").strip()
            if name in ("", "?", "??", "-", "--"):
                continue
            result = (game.result or "").strip()
            if game.variant == "english":  # Black moves first: 1-0 is a Black win
                won = {"1-0": "black", "0-1": "white"}.get(result)
            else:
                won = WHITE_FIRST.get(result)
            entry = expected.setdefault(name, [0, 0, 0])
            entry[0] += 1
            entry[1] += won == colour
            entry[2] += won == "draw"
    assert rows == [(name, *counts) for name, counts in sorted(expected.items())]
    assert any(draws for *_, draws in rows)
    assert "" not in {row[0] for row in rows}


def test_games_per_year_from_date(
    tables: tuple[Path, Path], replayed: list[tuple[object, object]]
) -> None:
    games, _ = tables
    rows = duckdb.sql(
        f"SELECT year(date) AS y, count(*) FROM '{games}' WHERE date IS NOT NULL "
        "GROUP BY y ORDER BY y"
    ).fetchall()
    expected = Counter(
        int(match.group(1))
        for game, _ in replayed
        if (match := _STANDARD_DATE.fullmatch(game.tag("Date") or ""))
    )
    assert rows == sorted(expected.items()) and rows
    assert duckdb.sql(f"SELECT typeof(date) FROM '{games}' LIMIT 1").fetchall()[0] == ("DATE",)
    partial = duckdb.sql(
        f"SELECT date, date_text, year FROM '{games}' WHERE date_text LIKE '%??%'"
    ).fetchall()
    assert partial and all(d is None and y is not None for d, _, y in partial)


def test_most_common_openings(
    tables: tuple[Path, Path], replayed: list[tuple[object, object]]
) -> None:
    games, _ = tables
    rows = duckdb.sql(
        f"SELECT opening, count(*) AS n FROM '{games}' WHERE opening IS NOT NULL "
        "GROUP BY opening ORDER BY n DESC, opening"
    ).fetchall()
    expected: Counter[str] = Counter()
    for game, replay in replayed:
        texts = [m.text for m in replay.moves]
        leading = all(m.ply == i + 1 for i, m in enumerate(replay.moves[:OPENING_PLIES]))
        if game.tag("FEN") is None and len(texts) >= OPENING_PLIES and leading:
            expected[" ".join(texts[:OPENING_PLIES])] += 1
    assert rows == sorted(expected.items(), key=lambda kv: (-kv[1], kv[0]))
    assert rows[0][1] > 1


def test_moves_join_games_on_game_id(
    tables: tuple[Path, Path], replayed: list[tuple[object, object]]
) -> None:
    games, moves = tables
    # First moves of decided games, each distinct game counted once.
    decided = ", ".join(f"'{r}'" for r in WHITE_FIRST)
    rows = duckdb.sql(
        f"""
        SELECT m.move, count(DISTINCT m.game_id) FROM '{moves}' m
        JOIN '{games}' g ON g.game_id = m.game_id
        WHERE m.ply = 1 AND g.result IN ({decided}) GROUP BY m.move ORDER BY m.move
        """
    ).fetchall()
    seen: dict[str, set[tuple[object, ...]]] = {}
    for game, replay in replayed:
        if (game.result or "").strip() not in WHITE_FIRST or not game.plies:
            continue
        resolved = {id(m.node): m.text for m in replay.moves}
        merged = {id(n) for m in replay.moves for n in m.merged}
        line = tuple(
            resolved.get(id(node), node.element_text())
            for node in game.mainline()
            if node.kind != "setup" and id(node) not in merged
        )
        key = (game.variant, game.tag("FEN"), line)
        seen.setdefault(line[0], set()).add(key)
    assert rows == [(move, len(keys)) for move, keys in sorted(seen.items())] and rows
    # Every move row belongs to exactly one record, and each record has its plies.
    per_record = duckdb.sql(
        f"""
        SELECT g.record_id, len(g.moves), count(m.ply) FROM '{games}' g
        LEFT JOIN '{moves}' m USING (record_id) GROUP BY ALL
        """
    ).fetchall()
    assert all(listed == joined for _, listed, joined in per_record)
    total = duckdb.sql(f"SELECT count(*) FROM '{moves}'").fetchall()[0]
    assert total == (sum(joined for *_, joined in per_record),)


def test_polars_reads_both_tables(tables: tuple[Path, Path]) -> None:
    games, moves = tables
    frame = pl.read_parquet(games)
    assert frame.schema["date"] == pl.Date and frame.schema["plies"] == pl.Int32
    assert frame.filter(pl.col("white") == "").height == 0  # NULL, never ''
    plies = pl.read_parquet(moves)
    joined = plies.join(frame.select("record_id", "variant"), on="record_id")
    assert joined.height == plies.height
    assert (joined["variant"] == joined["variant_right"]).all()


def _dataset_rows(root: Path) -> list[int]:
    """Row counts of the dataset as DuckDB, polars and pyarrow.dataset read it."""
    glob = f"{root}/**/*.parquet"
    return [
        duckdb.sql(
            f"SELECT count(*) FROM read_parquet('{glob}', hive_partitioning = true)"
        ).fetchall()[0][0],  # type: ignore[index]
        pl.scan_parquet(root, hive_partitioning=True).select(pl.len()).collect().item(),
        pads.dataset(root, format="parquet", partitioning="hive").count_rows(),
    ]


def test_partitioned_dataset_reads_back_and_appends(tmp_path: Path) -> None:
    single = tmp_path / "games.parquet"
    convert(str(SAMPLES), "-o", str(single))
    count = pq.read_metadata(single).num_rows
    root = tmp_path / "games"
    code, err = convert(
        str(SAMPLES), "-o", f"{root}/", "--partition-by", "variant,year",
        "--moves-table", str(tmp_path / "moves"),
    )  # fmt: skip
    assert code in (0, 1), err
    assert _dataset_rows(root) == [count] * 3
    # The partition columns come back from the directory names, NULL year included.
    by_partition = duckdb.sql(
        f"SELECT variant, year, count(*) FROM read_parquet('{root}/**/*.parquet', "
        "hive_partitioning = true) GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    expected = duckdb.sql(
        f"SELECT variant, year, count(*) FROM '{single}' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert by_partition == expected and any(year is None for _, year, _ in expected)
    table = pads.dataset(root, format="parquet", partitioning="hive").to_table()
    assert sorted(table.column("game_id").to_pylist(), key=str) == sorted(
        pq.read_table(single).column("game_id").to_pylist(), key=str
    )
    # A second conversion appends when asked to (--append, to both directories), and
    # no record_id repeats.
    code, err = convert(
        str(SAMPLES / "clean"), "-o", str(root), "--partition-by", "variant,year", "--append"
    )
    assert code in (0, 1), err
    assert f"appending to {root} (" in err
    added = len(_games_of(SAMPLES / "clean"))
    ids = duckdb.sql(
        f"SELECT count(*), count(DISTINCT record_id) FROM '{root}/**/*.parquet'"
    ).fetchall()[0]
    assert ids == (count + added, count + added)
    assert _dataset_rows(root)[0] == ids[0]
    moves_rows = duckdb.sql(
        f"SELECT count(*) FROM read_parquet('{tmp_path}/moves/**/*.parquet', "
        "hive_partitioning = true) m JOIN (SELECT DISTINCT record_id FROM "
        f"read_parquet('{root}/**/*.parquet')) g USING (record_id)"
    ).fetchall()[0]
    assert moves_rows is not None and moves_rows[0] > 0
    assert not list(root.rglob("*.tmp")) and not list(tmp_path.rglob(".*"))


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under *root* with its bytes (what a refused run must leave as it was)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("layout", [["--partition-by", "variant"], []])
def test_a_second_conversion_into_a_dataset_needs_append(tmp_path: Path, layout: list[str]) -> None:
    """Converting twice into one dataset directory would hold every game twice: the
    second run is refused (exit 2, one line naming --append, nothing written) unless
    --append asks for it, and then says so."""
    root, moves = tmp_path / "games", tmp_path / "moves"
    clean = str(SAMPLES / "clean")
    games = len(_games_of(SAMPLES / "clean"))
    code, err = convert(clean, "-o", f"{root}/", *layout, "--moves-table", f"{moves}/")
    assert code == 0 and "appending" not in err, err
    before, moves_before = _tree(root), _tree(moves)
    assert before and moves_before
    code, err = convert(clean, "-o", f"{root}/", *layout, "--moves-table", f"{moves}/")
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pdn convert: {root}: holds ")
    assert "--append" in lines[0] and f"{len(before)} file(s)" in lines[0]
    assert _tree(root) == before and _tree(moves) == moves_before
    # The moves table's directory alone holding files is refused as well.
    fresh = tmp_path / "fresh"
    code, err = convert(clean, "-o", f"{fresh}/", *layout, "--moves-table", f"{moves}/")
    assert code == 2 and f"{moves}: holds " in err and not fresh.exists()
    code, err = convert(clean, "-o", f"{root}/", *layout, "--moves-table", f"{moves}/", "--append")
    assert code == 0, err
    assert err.splitlines()[:2] == [
        f"pdn convert: appending to {root}/ ({len(before)} existing file(s))",
        f"pdn convert: appending to {moves}/ ({len(moves_before)} existing file(s))",
    ]
    assert _dataset_rows(root)[0] == 2 * games
    assert all(_tree(root)[name] == data for name, data in before.items())
    code, err = convert(clean, "-o", f"{root}/", *layout, "--append", "--quiet")
    assert code == 0 and err == ""
    assert _dataset_rows(root)[0] == 3 * games


def test_append_needs_a_dataset_directory(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    code, err = convert(str(SAMPLES / "clean"), "-o", str(out), "--append")
    assert code == 2 and "--append adds to a dataset directory" in err and not out.exists()
    code, err = convert(
        str(SAMPLES / "clean"), "-o", str(tmp_path / "split"), "--split-by", "year", "--append"
    )
    assert code == 2 and "--append" in err and not (tmp_path / "split").exists()


def test_dataset_refuses_another_layout_and_fails_whole(tmp_path: Path) -> None:
    root = tmp_path / "ds"
    convert(str(SAMPLES / "clean"), "-o", str(root), "--partition-by", "variant")
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    code, err = convert(
        str(SAMPLES / "clean"), "-o", str(root), "--partition-by", "year", "--append"
    )
    assert code == 2 and "partitioned by variant" in err
    # A conversion that fails part way (an input that is not pdn-tools JSON) leaves
    # the dataset as it was: no part of it, no temporary file.
    bad = tmp_path / "bad.json"
    bad.write_text('{"x": 1}\n', encoding="utf-8")
    code, err = convert(
        str(SAMPLES / "clean"), str(bad), "-o", str(root), "--partition-by", "variant", "--append"
    )
    assert code == 2 and "not pdn-tools JSON" in err
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    code, err = convert(str(SAMPLES / "clean"), "-o", str(root), "--partition-by", "colour")
    assert code == 2 and "cannot partition by 'colour'" in err
    code, err = convert(
        str(SAMPLES / "clean"), "-o", str(root), "--to", "jsonl", "--partition-by", "year"
    )
    assert code == 2 and "Parquet" in err
    code, err = convert(str(SAMPLES / "clean"), "-o", "-", "--partition-by", "year")
    assert code == 2 and "directory" in err


def test_record_column_only_when_asked(tmp_path: Path) -> None:
    plain, full = tmp_path / "plain.parquet", tmp_path / "full.parquet"
    convert(str(SAMPLES / "clean"), "-o", str(plain))
    convert(str(SAMPLES / "clean"), "-o", str(full), "--with-record")
    assert pq.read_table(plain, columns=["record"]).column(0).null_count == 7
    records = pq.read_table(full, columns=["record"]).column(0)
    assert records.null_count == 0 and '"schema_version"' in records[0].as_py()
    assert pq.read_schema(full).metadata[b"pdn_tools.with_record"] == b"true"
    code, err = convert(str(SAMPLES / "clean"), "-o", str(tmp_path / "x.jsonl"), "--with-record")
    assert code == 2 and "Parquet" in err


@pytest.mark.corpus
def test_real_archive_queries_and_size(corpus: Path, tmp_path: Path) -> None:
    """The Italian championships 2004-2016 (2,600 games): the same questions, and a
    games table under a quarter of the PDN's size."""
    archive = corpus / "Robin04-GH__Checkers"
    games, moves = tmp_path / "g.parquet", tmp_path / "m.parquet"
    code, err = convert(str(archive), "-o", str(games), "--moves-table", str(moves))
    assert code in (0, 1), err
    pdn_bytes = sum(Path(p).stat().st_size for p in expand((str(archive),)))
    assert games.stat().st_size <= 0.25 * pdn_bytes
    count = pq.read_metadata(games).num_rows
    players = duckdb.sql(
        f"""
        SELECT player, count(*) FILTER (WHERE outcome = colour) AS wins,
               count(*) FILTER (WHERE outcome NOT IN (colour, 'draw')) AS losses,
               count(*) FILTER (WHERE outcome = 'draw') AS draws, count(outcome) AS decided
        FROM (SELECT white AS player, 'white' AS colour, outcome FROM '{games}'
              UNION ALL SELECT black, 'black', outcome FROM '{games}')
        WHERE player IS NOT NULL GROUP BY player ORDER BY wins DESC
        """
    ).fetchall()
    assert len(players) > 50 and players[0][1] > 10
    assert all(won + lost + drawn == n for _, won, lost, drawn, n in players)
    years = duckdb.sql(
        f"SELECT year(date), count(*) FROM '{games}' WHERE date IS NOT NULL GROUP BY 1"
    ).fetchall()
    assert len(years) >= 4 and all(2004 <= y <= 2030 for y, _ in years)
    top = duckdb.sql(
        f"SELECT opening, count(*) n FROM '{games}' WHERE opening IS NOT NULL "
        "GROUP BY opening ORDER BY n DESC LIMIT 3"
    ).fetchall()
    assert top[0][1] > 50 and all(len(o.split()) == OPENING_PLIES for o, _ in top)
    joined = duckdb.sql(
        f"""
        SELECT count(*) FROM '{moves}' m
        JOIN (SELECT DISTINCT game_id, plies FROM '{games}') g USING (game_id)
        WHERE m.ply <= g.plies
        """
    ).fetchall()[0]
    assert joined is not None and joined[0] > 100_000
    root = tmp_path / "ds"
    convert(str(archive), "-o", f"{root}/", "--partition-by", "variant,year")
    assert _dataset_rows(root) == [count] * 3


def test_a_directory_without_partitions(tmp_path: Path) -> None:
    """``-o DIR/`` alone: a dataset of plain parts, one more per conversion (the
    second one asks to append)."""
    root = tmp_path / "plain"
    for again in ([], ["--append"]):
        code, err = convert(str(SAMPLES / "clean"), "-o", f"{root}/", *again)
        assert code == 0, err
    parts = sorted(root.glob("part-*.parquet"))
    assert len(parts) == 2 and len({p.name.split("-")[2] for p in parts}) == 2
    assert _dataset_rows(root) == [2 * len(_games_of(SAMPLES / "clean"))] * 3


def test_player_keys_join_the_spellings_of_one_player(tmp_path: Path) -> None:
    """``white_key``/``black_key``: one key for the spellings of one name (order, case,
    diacritics, titles, ratings), initials kept apart, NULL for no player; a DuckDB
    count of games per player key."""
    spellings = [
        ("Sijbrands, Ton", "Wiersma, Harm"),
        ("GMI Ton Sijbrands (NED) 2400", "HARM WIERSMA"),
        ("T. Sijbrands", "Wiérsma, Harm"),
        ("?", "White"),
    ]
    text = "".join(
        f'[Event "e"]\n[White "{w}"]\n[Black "{b}"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n'
        for w, b in spellings
    )
    source = tmp_path / "players.pdn"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "players.parquet"
    code, err = convert(str(source), "-o", str(out))
    assert code == 0, err
    rows = pq.read_table(out, columns=["white", "white_key", "black_key"]).to_pylist()
    assert [r["white_key"] for r in rows] == ["sibrands ton", "sibrands ton", "sibrands|t", None]
    assert {r["black_key"] for r in rows[:3]} == {"harm viersma"} and rows[3]["black_key"] is None
    assert rows[0]["white"] == "Sijbrands, Ton"  # the names as written stay
    count = duckdb.sql(
        f"SELECT key, count(*) FROM (SELECT white_key AS key FROM '{out}' UNION ALL "
        f"SELECT black_key FROM '{out}') WHERE key IS NOT NULL GROUP BY 1 ORDER BY 2 DESC"
    ).fetchall()
    assert count == [("harm viersma", 3), ("sibrands ton", 2), ("sibrands|t", 1)]


_INT64 = (1 << 63) - 1


@given(
    gametype=st.integers(min_value=20, max_value=1 << 70),
    seconds=st.integers(min_value=0, max_value=1 << 70),
    centi=st.integers(min_value=0, max_value=1 << 70),
    mate=st.integers(min_value=1, max_value=1 << 70),
    nag=st.integers(min_value=0, max_value=1 << 70),
)
@settings(max_examples=25, deadline=None)
def test_json_and_parquet_hold_the_same_numbers(
    tmp_path_factory: pytest.TempPathFactory,
    gametype: int,
    seconds: int,
    centi: int,
    mate: int,
    nag: int,
) -> None:
    # Any number a PDN file writes (a GameType, a clock, an evaluation, a NAG) may be
    # huge: the Parquet columns hold every value the JSON object holds, and a value
    # beyond the 64-bit integers is reported (W66, W15, W28) instead of vanishing.
    folder = tmp_path_factory.mktemp("big")
    clock = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    text = (
        f'[GameType "{gametype}"]\n'
        f"1. 32-28 {{[%clk {clock}] [%eval {centi // 100}.{centi % 100:02d}]}}"
        f" 19-23 {{[%eval #{mate}]}} ${nag} $3 *\n"
    )
    source = folder / "big.pdn"
    source.write_text(text, encoding="utf-8")
    games, moves = folder / "g.parquet", folder / "m.parquet"
    status, output = convert(
        str(source), "-o", str(games), "--moves-table", str(moves), "--with-record"
    )
    assert status in (0, 1) and "Traceback" not in output, output
    game = pq.read_table(games).to_pylist()[0]
    rows = pq.read_table(moves).to_pylist()
    record = json.loads(game["record"])
    codes = [issue["code"] for issue in record["issues"]]
    assert game["gametype"] == record["gametype"]
    if gametype == 20:
        assert game["gametype"] == 20
    elif gametype > _INT64:
        assert game["gametype"] is None and "W28" in codes
    else:
        assert game["gametype"] == gametype
    for row, move in zip(rows, record["moves"], strict=True):
        for key in ("clock_ms", "eval_cp", "eval_mate"):
            assert row[key] == move.get(key), key
        assert row["nags"] == move.get("nags", [])
    milliseconds = seconds * 1000
    assert rows[0]["clock_ms"] == (milliseconds if milliseconds <= _INT64 else None)
    assert rows[0]["eval_cp"] == (centi if centi <= _INT64 else None)
    assert rows[1]["eval_mate"] == (mate if mate <= _INT64 else None)
    too_large = milliseconds > _INT64, centi > _INT64, mate > _INT64
    assert codes.count("W66") == sum(too_large)
    if nag <= _INT64:
        assert rows[1]["nags"] == [nag, 3]
    else:
        assert rows[1]["nags"] == [3] and f"${nag}" in rows[1]["comments"]
        assert "W15" in codes


def test_the_32_bit_columns_count_within_one_game() -> None:
    """Only what counts within one game (bounded by --max-game-size) or names a square
    or a year is 32-bit; a value a record writes freely (a GameType, a NAG, a clock, an
    evaluation) or a count through a whole file is 64-bit."""
    import pyarrow as pa

    def narrow(fields: list[pa.Field]) -> set[str]:
        out = set()
        for f in fields:
            kind = f.type.value_type if pa.types.is_list(f.type) else f.type
            if pa.types.is_struct(kind):
                out |= {f"{f.name}.{g.name}" for g in kind if g.type == pa.int32()}
            elif kind == pa.int32():
                out.add(f.name)
        return out

    assert narrow(GAMES_FIELDS) == {"year", "plies", "errors", "warnings", "issues.ply"}
    assert narrow(MOVES_FIELDS) == {"ply", "from_square", "to_square", "path", "captured"}


def test_tag_values_too_large_for_a_number_stay_text(tmp_path: Path) -> None:
    """A Round, an Elo or a Date with numbers beyond any integer column: the text
    columns and the tags keep them as written, the year is NULL (W29 names the date)."""
    source = tmp_path / "tags.pdn"
    big = "9" * 25
    source.write_text(
        f'[Round "{big}"]\n[WhiteElo "{big}"]\n[Date "{big}.01.01"]\n[GameType "20"]\n\n'
        "1. 32-28 19-23 *\n",
        encoding="utf-8",
    )
    games = tmp_path / "games.parquet"
    status, output = convert(str(source), "-o", str(games))
    assert status == 0, output
    [row] = pq.read_table(games).to_pylist()
    assert row["round"] == big and row["year"] is None and row["date_text"] == f"{big}.01.01"
    assert dict(row["tags"])["WhiteElo"] == big
    assert "W29" in row["codes"]


def test_values_beyond_32_bits_reach_the_moves_table(tmp_path: Path) -> None:
    """A clock of 597 hours and an evaluation of 21,474,836.48 men: more than a 32-bit
    column holds, and the moves table holds them as the JSON does (they were NULL)."""
    source = tmp_path / "big.pdn"
    source.write_text(
        '[Result "*"]\n\n1. 32-28 {[%eval 21474836.48]} 18-23 {[%clk 596:31:23.648]}'
        " $2147483648 *\n",
        encoding="utf-8",
    )
    moves = tmp_path / "m.parquet"
    status, output = convert(
        str(source), "-o", str(tmp_path / "g.parquet"), "--moves-table", str(moves)
    )
    assert status == 0, output
    rows = pq.read_table(moves, columns=["eval_cp", "clock_ms", "nags"]).to_pylist()
    assert rows == [
        {"eval_cp": 2_147_483_648, "clock_ms": None, "nags": []},
        {"eval_cp": None, "clock_ms": 2_147_483_648, "nags": [2_147_483_648]},
    ]


def test_a_range_of_days_is_dated_by_its_first_day(tmp_path: Path) -> None:
    """``[Date "2004.10.27 - 2004.11.01"]`` (an event's span): the ``date`` column
    holds its first day, ``date_text`` the whole text, ``year`` that day's year."""
    source = tmp_path / "span.pdn"
    source.write_text(
        '[Event "E"]\n[Date "2004.12.27 - 2005.01.02"]\n[GameType "20"]\n\n1. 32-28 19-23 *\n',
        encoding="utf-8",
    )
    games = tmp_path / "games.parquet"
    code, err = convert(str(source), "-o", str(games))
    assert code == 0, err
    rows = pq.read_table(games, columns=["date", "date_text", "year"]).to_pylist()
    assert [(str(r["date"]), r["date_text"], r["year"]) for r in rows] == [
        ("2004-12-27", "2004.12.27 - 2005.01.02", 2004)
    ]
