"""The ``pdn moves`` and ``pdn perft`` commands through click's test runner."""

from __future__ import annotations

import json

import click
from click.testing import CliRunner


def _main() -> click.Group:
    """The real ``pdn`` group; while its other modules are missing, a stand-in group."""
    try:
        from pdn_tools.cli import main
    except ImportError:
        from pdn_tools.cli.engine import moves, perft

        group = click.Group("pdn")
        group.add_command(moves)
        group.add_command(perft)
        return group
    return main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(_main(), list(args))
    return result.exit_code, result.stdout, result.stderr


def test_moves_text_lists_canonical_notations() -> None:
    code, out, _ = run("moves", "W:W31-50:B1-20")
    assert code == 0
    assert out.split() == [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ]  # fmt: skip


def test_moves_json() -> None:
    # Hand-verified (test_movegen): king 46 takes 41 and must land on 32 to take 38.
    code, out, _ = run("moves", "W:WK46:B38,41", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data == [
        {"from": 46, "to": 43, "path": [46, 32, 43], "captures": [38, 41], "notation": "46x43"},
        {"from": 46, "to": 49, "path": [46, 32, 49], "captures": [38, 41], "notation": "46x49"},
    ]


def test_moves_invalid_fen_exits_2_with_one_line() -> None:
    code, out, err = run("moves", "W:W31-51:B1-20")
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "51" in err and "Traceback" not in err


def test_moves_unknown_variant_exits_2() -> None:
    code, _, err = run("moves", "W:W31-50:B1-20", "--variant", "chess")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "chess" in err


def test_perft_prints_the_count_last() -> None:
    code, out, _ = run("perft", "4")
    assert code == 0 and out.splitlines()[-1] == "4265"
    code, out, _ = run("perft", "2", "--fen", "B:W31-50:B1-20")
    assert code == 0 and out.splitlines()[-1] == "81"


def test_perft_divide() -> None:
    code, out, _ = run("perft", "2", "--divide")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "81" and len(lines) == 10
    assert sum(int(line.split()[1]) for line in lines[:-1]) == 81


def test_perft_invalid_fen() -> None:
    code, _, err = run("perft", "1", "--fen", "W:W3:B")
    assert code == 2 and "promotion row" in err


def test_moves_text_writes_full_paths_only_when_needed() -> None:
    # Hand-verified in test_movegen/test_notation: two 16 -> 46 captures differ in their
    # captured sets, so they need their paths; 16x4 and 16x9 are unique.
    code, out, _ = run("moves", "W:WK16:B11-13,21,41")
    assert code == 0
    assert set(out.split()) == {"16x4", "16x9", "16x7x23x46", "16x2x19x46"}


def test_perft_with_fen_and_variant() -> None:
    # Black to move in the start position: the mirror image of White's 9 moves.
    code, out, _ = run("perft", "1", "--fen", "B:W31-50:B1-20", "--variant", "international")
    assert code == 0 and out.strip() == "9"


def test_moves_of_an_8x8_variant_with_algebraic_fen() -> None:
    code, out, _ = run("moves", "W:Wc3:Bd4", "--variant", "russian", "--format", "json")
    assert code == 0
    assert json.loads(out) == [
        {"from": 22, "to": 15, "path": [22, 15], "captures": [18], "notation": "22:15"}
    ]
    code, out, _ = run("moves", "W:W18:B22", "--variant", "czech")
    assert code == 0 and out.split() == ["18-14", "18-15"]


def test_perft_of_the_8x8_variants_and_profiles() -> None:
    for name, count in (("english", "1469"), ("italian", "1469"), ("brazilian", "1469")):
        code, out, _ = run("perft", "4", "--variant", name)
        assert code == 0 and out.splitlines()[-1] == count, name
    code, out, _ = run("perft", "3", "--variant", "short-landing")
    assert code == 0 and out.splitlines()[-1] == "658"
    code, out, _ = run("perft", "3", "--variant", "immediate-removal")
    assert code == 0 and out.splitlines()[-1] == "658"
