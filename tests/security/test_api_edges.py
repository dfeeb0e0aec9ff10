"""The Python API at its edges, as a python-chess user would try it: clear errors,
the same spellings as the command line (docs/security.md, "Errors")."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from security_helpers import GAME, pdn

import pdn_tools
from pdn_tools import Board, IllegalMoveError


@pytest.mark.parametrize("square", [0, -1, 51, 10**9])
def test_piece_at_refuses_numbers_that_are_no_squares(square: int) -> None:
    with pytest.raises(ValueError, match=f"{square} is not a square of international"):
        Board().piece_at(square)
    assert Board().piece_at(1) is not None and Board().piece_at(25) is None


def test_a_board_takes_a_fen_where_the_variant_goes() -> None:
    board = Board("W:W31-50:B1-20")
    assert board.fen() == "W:W31-50:B1-20"
    assert board == Board()
    assert Board("B:W28,31,33-50:B1-20").turn.name == "BLACK"


@pytest.mark.parametrize("text", ["32-27x", "x32-27", "32--27", "32-", "-27", "32-27-"])
def test_push_refuses_malformed_moves(text: str) -> None:
    with pytest.raises(IllegalMoveError, match="is not a move on this board"):
        Board().push(text)
    assert Board().push("32-27").to_sq == 27


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "a.pdn").write_text(GAME, encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "set.zip", "w") as handle:
        handle.writestr("round1.pdn", GAME)
    return tmp_path


def test_validate_takes_what_the_command_line_takes(folder: Path) -> None:
    walked = [(Path(g.file).name, g.index) for g in pdn_tools.validate(str(folder))]
    assert walked == [("a.pdn", 1), ("set.zip:round1.pdn", 1)]
    for spelling in (f"{folder}/set.zip:round1.pdn", f"{folder}/set.zip/round1.pdn"):
        games = list(pdn_tools.validate(spelling))
        assert len(games) == 1 and games[0].tag("Event") == "x"
        done = pdn("validate", spelling, "--format", "jsonl", "--isolated")
        assert done.returncode == 0 and '"game": 1' in done.stdout, done.stderr
        shown = pdn("show", spelling, "--isolated")
        assert shown.returncode == 0, shown.stderr
