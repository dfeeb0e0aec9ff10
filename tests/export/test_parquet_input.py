"""A Parquet file given to ``pdn convert`` (its own output) is named as Parquet, an
output format only (E12), and a run that read no game leaves its outputs as they were."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pdn_tools import read_games
from pdn_tools.cli import main

GAME = '[GameType "20"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n'


def _parquet(tmp_path: Path) -> Path:
    source = tmp_path / "games.pdn"
    source.write_text(GAME, encoding="utf-8")
    table = tmp_path / "games.parquet"
    made = CliRunner().invoke(main, ["convert", str(source), "-o", str(table)])
    assert made.exit_code == 0, made.stderr
    assert table.read_bytes()[:4] == b"PAR1"
    return table


def test_parquet_input_is_named_and_the_previous_output_kept(tmp_path: Path) -> None:
    table = _parquet(tmp_path)
    out = tmp_path / "back.pdn"
    out.write_bytes(b"previous content\n")
    result = CliRunner().invoke(main, ["convert", str(table), "-o", str(out)])
    assert result.exit_code == 1
    assert "error E12 input is a Parquet file" in result.stderr
    assert "does not read it" in result.stderr
    assert "looks binary" not in result.stderr
    assert result.stderr.rstrip().endswith(
        f"0 game(s) read, 0 written, 0 rejected; {out} not written"
    )
    assert out.read_bytes() == b"previous content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["back.pdn", "games.parquet", "games.pdn"]


def test_parquet_input_creates_no_output(tmp_path: Path) -> None:
    table = _parquet(tmp_path)
    for name in ("new.pdn", "new.json", "new.parquet"):
        result = CliRunner().invoke(main, ["convert", str(table), "-o", str(tmp_path / name)])
        assert result.exit_code == 1, result.stderr
        assert not (tmp_path / name).exists()


def test_parquet_beside_pdn_converts_the_pdn(tmp_path: Path) -> None:
    table = _parquet(tmp_path)
    out = tmp_path / "both.pdn"
    result = CliRunner().invoke(
        main, ["convert", str(table), str(tmp_path / "games.pdn"), "-o", str(out)]
    )
    assert result.exit_code == 1  # an input failed
    assert "E12 input is a Parquet file" in result.stderr
    assert "not written" not in result.stderr
    assert [g.plies for g in read_games(out)] == [4]


def test_validate_names_a_parquet_file(tmp_path: Path) -> None:
    table = _parquet(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(table)])
    assert result.exit_code == 1
    assert f"{table}:1:1: error E12 input is a Parquet file" in result.stdout
