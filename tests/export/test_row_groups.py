"""The Parquet writers hold a bounded number of rows whatever the input's size: rows
move on from Python values to Arrow batches to row groups at fixed limits (the
games and the moves table alike, one file or a dataset of many parts)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
from conftest import SAMPLES

import pdn_tools.export.dataset as dataset
from pdn_tools import read_games
from pdn_tools.export.dataset import DatasetWriter
from pdn_tools.export.parquet import Limits, ParquetWriter
from pdn_tools.replay import ReplayResult, replay_game
from pdn_tools.replay.resolve import Resolution, resolve
from pdn_tools.run.paths import expand

Item = tuple[object, ReplayResult, Resolution]


@pytest.fixture(scope="module")
def items() -> list[Item]:
    """Every game of corpus/ three times over (about a hundred games)."""
    out: list[Item] = []
    for _ in range(3):
        for name in expand((str(SAMPLES),)):
            for game in read_games(name):
                replay = replay_game(game)
                out.append((game, replay, resolve(game, replay)))
    return out


def test_one_file_keeps_its_buffers_bounded(items: list[Item]) -> None:
    games, moves = io.BytesIO(), io.BytesIO()
    writer = ParquetWriter(
        games, moves, games_limits=Limits(4, 10, 1 << 30), moves_limits=Limits(16, 40, 1 << 30)
    )
    for game, replay, resolution in items:
        writer.write(game, replay, resolution)  # type: ignore[arg-type]
        assert writer.games.rows < 4 and writer.games.batched_rows < 10
        assert writer.moves is not None
        assert writer.moves.rows < 16 and writer.moves.batched_rows < 40
    writer.close()
    table = pq.ParquetFile(io.BytesIO(games.getvalue()))
    sizes = [table.metadata.row_group(i).num_rows for i in range(table.num_row_groups)]
    assert sum(sizes) == len(items) and len(sizes) == math.ceil(len(items) / 12)
    assert set(sizes[:-1]) == {12}  # three batches of four make a group
    plies = pq.ParquetFile(io.BytesIO(moves.getvalue()))
    assert plies.num_row_groups > 1
    assert max(plies.metadata.row_group(i).num_rows for i in range(plies.num_row_groups)) <= 48
    # The byte limit alone also closes row groups.
    small = io.BytesIO()
    writer = ParquetWriter(small, games_limits=Limits(2, 1_000_000, 1))
    for game, replay, resolution in items[:10]:
        writer.write(game, replay, resolution)  # type: ignore[arg-type]
    writer.close()
    assert pq.ParquetFile(io.BytesIO(small.getvalue())).num_row_groups == 5


def test_a_dataset_shares_one_budget_over_its_parts(
    items: list[Item], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dataset, "MAX_OPEN", 2)
    single = io.BytesIO()
    reference = ParquetWriter(single)
    writer = DatasetWriter(
        tmp_path / "games",
        ("variant", "year"),
        tmp_path / "moves",
        games_limits=Limits(3, 5, 1 << 30),
        moves_limits=Limits(20, 50, 1 << 30),
    )
    for game, replay, resolution in items:
        writer.write(game, replay, resolution)  # type: ignore[arg-type]
        reference.write(game, replay, resolution)  # type: ignore[arg-type]
        for parts in (writer.games, writer.moves):
            assert parts is not None
            assert len(parts.open) <= 2
            assert sum(p.rows for p in parts.open.values()) < parts.limits.batch_rows
            assert all(p.batched_rows < parts.limits.group_rows for p in parts.open.values())
        # Nothing of the conversion is visible before it completes.
        assert not list((tmp_path / "games").rglob("*.parquet"))
    writer.close()
    reference.close()
    read = pads.dataset(tmp_path / "games", format="parquet", partitioning="hive").to_table()
    expected = pq.read_table(io.BytesIO(single.getvalue()))
    assert sorted(read.column("game_id").to_pylist(), key=str) == sorted(
        expected.column("game_id").to_pylist(), key=str
    )
    partitions = {
        (r["variant"], r["year"]) for r in expected.select(["variant", "year"]).to_pylist()
    }
    parts = list((tmp_path / "games").rglob("part-*.parquet"))
    assert len(parts) > len(partitions)  # parts were finished early to keep two open
    assert not list(tmp_path.rglob("*.tmp"))
    moves = pads.dataset(tmp_path / "moves", format="parquet", partitioning="hive")
    assert moves.count_rows() == sum(len(r["moves"]) for r in expected.to_pylist())
