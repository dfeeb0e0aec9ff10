"""``pdn show`` and ``pdn stats`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import MIXED, run
from conftest import SAMPLES

from pdn_tools.pdn.reader import read_string
from pdn_tools.replay import replay_game
from pdn_tools.replay.positions import position_at
from pdn_tools.rules import INTERNATIONAL, Position, write_fen
from pdn_tools.rules.board import diagram

CLUB = str(SAMPLES / "clean" / "club-evening.pdn")


def test_board_of_the_start_position() -> None:
    lines = diagram(Position.initial(INTERNATIONAL))
    assert lines[0] == lines[-1] == "+" + "-" * 21 + "+"
    rows = lines[1:-1]
    assert len(rows) == 10
    assert rows[0].startswith("|   b   b   b   b   b |") and rows[0].split()[-5:] == [
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    assert rows[4].startswith("|   .   .   .   .   . |")
    assert rows[9].startswith("| w   w   w   w   w   |") and rows[9].endswith("50")
    board = "".join(row.split("|")[1] for row in rows)
    assert board.count("b") == board.count("w") == 20 and board.count(".") == 10


def test_positions_along_the_main_line() -> None:
    (game,) = read_string('[Event "x"]\n1. 32-28 18-23 2. 28x19 14x23 *\n')
    replay = replay_game(game)
    assert write_fen(position_at(game, INTERNATIONAL, replay, 0).position) == "W:W31-50:B1-20"  # type: ignore[arg-type]
    after_two = position_at(game, INTERNATIONAL, replay, 2)
    assert after_two.reached == 2 and after_two.position is not None
    assert write_fen(after_two.position) == "W:W28,31,33-50:B1-17,19,20,23"
    end = position_at(game, INTERNATIONAL, replay, 4)
    assert end.position is not None and write_fen(end.position) == replay.final_fen


def test_show_a_ply(tmp_path: Path) -> None:
    done = run("show", CLUB, "--ply", "5")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "game 1 (line 1), Jansen, A. - de Vries, B." in out
    assert "ply 5 of 11" in out
    assert "Black to move" in out
    assert "FEN B:W27,28,32-37,39-50:B1-11,13-20,23" in out
    assert "3. [31-27] 7-12" in out
    start = run("show", CLUB, "--ply", "0").stdout
    assert "White to move" in start and "FEN W:W31-50:B1-20" in start


def test_show_stops_where_replay_stops_and_lists_nearby_findings(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(MIXED, encoding="utf-8")
    done = run("show", str(path), "--game", "2", "--ply", "3")
    assert done.returncode == 0, done.stderr
    assert "replay stopped before ply 3: position after ply 2" in done.stdout
    assert "FEN W:W28,31,33-50:B1-17,19,20,23" in done.stdout
    assert f"{path}:9:19: error E05" in done.stdout  # the finding at that ply
    far = run("show", str(path), "--game", "2", "--ply", "0", "--around", "1").stdout
    assert "E05" not in far


def test_show_reads_stdin() -> None:
    done = run("show", "-", "--stdin-filename", "p.pdn", stdin=b"1. 32-28 18-23 *\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("p.pdn: game 1") and "1. 32-28 [18-23]" in done.stdout


def test_show_without_a_rule_profile() -> None:
    spanish = b'[GameType "24"]\n\n1. 9-13 24-20 *\n'
    done = run("show", "-", "--stdin-filename", "f.pdn", stdin=spanish)
    assert done.returncode == 0, done.stderr
    assert "no board: no rule profile for variant 'spanish'" in done.stdout


def test_show_a_game_of_unknown_variant_says_so(tmp_path: Path) -> None:
    """A game whose variant cannot be told: the reason says so and names --variant,
    which gives the board; the drawings refuse with the same reason."""
    # every square is on both boards, and 29-23 is no 8x8 first mover's move
    fen = "W:W27,29,32:B3,4,6,7,8,10,15,11,12,13,14,16,18,21"
    path = tmp_path / "dia3.pdn"
    path.write_text(f'[FEN "{fen}"]\n\n1. 29-23 18x29 *\n', encoding="utf-8")
    unknown = "the variant is unknown (no GameType tag, and the game does not tell it); "
    done = run("show", str(path))
    assert done.returncode == 0, done.stderr
    assert f"no board: {unknown}--variant NAME gives it" in done.stdout
    assert "no rule profile" not in done.stdout
    drawn = run("show", str(path), "--svg", str(tmp_path / "d.svg"))
    assert drawn.returncode == 2 and drawn.stderr.startswith(
        f"pdn show: no board to draw: {unknown}"
    )
    assert not (tmp_path / "d.svg").exists()
    given = run("show", str(path), "--variant", "international")
    assert given.returncode == 0, given.stderr
    assert "no board" not in given.stdout and "FEN W:W27,32:B3" in given.stdout
    # men on 33-44 are on the 10x10 board alone: the set-up tells the variant
    path.write_text(
        '[FEN "W:W27,29,32-35,37-44:B3,4,6,7,8,10,15,11,12,13,14,16,18,21"]\n\n1. 29-23 18x29 *\n',
        encoding="utf-8",
    )
    told = run("show", str(path))
    assert told.returncode == 0, told.stderr
    assert "no board" not in told.stdout and "FEN W:W27,32-35,37-44:B3" in told.stdout
    named = run("show", "-", stdin=b'[GameType "abc"]\n\n1. 32-28 *\n')
    assert "no board: the variant is unknown (GameType 'abc' names none); --variant" in (
        named.stdout
    )


def test_stats_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(MIXED, encoding="utf-8")
    (tmp_path / "empty.pdn").write_bytes(b"")
    text = run("stats", str(tmp_path))
    assert text.returncode == 1, text.stderr  # a game has an error, as for validate
    blocks = text.stdout.strip().split("\n\n")
    assert [b.splitlines()[0] for b in blocks] == [
        str(tmp_path / "empty.pdn"),
        str(path),
        "total: 2 file(s)",
    ]
    assert "games     2 (1 with errors), plies 4 (2.0 per game)" in blocks[2]
    assert "  codes     E05 1, W10 1, W27 1, W35 1" in blocks[2]
    doc = json.loads(run("stats", str(tmp_path), "--format", "json").stdout)
    empty, mixed = doc["files"]
    assert empty["games"] == 0 and empty["codes"] == {"W35": 1}
    assert mixed["file"] == str(path) and mixed["games"] == 2 and mixed["plies"] == 4
    assert mixed["results"] == {"*": 2} and mixed["variants"] == {"international": 2}
    assert mixed["codes"]["E05"] == 1 and mixed["codes"]["W10"] == 1
    total = doc["total"]
    assert total["files"] == 2 and total["games"] == 2 and total["games_with_errors"] == 1
    assert total["codes"] == {"E05": 1, "W10": 1, "W27": 1, "W35": 1}
    only = json.loads(run("stats", str(tmp_path), "--format", "json", "--select", "E").stdout)
    assert only["total"]["codes"] == {"E05": 1}
    assert run("stats", str(tmp_path), "--total-only").stdout.startswith("total: 2 file(s)")


def test_stats_agrees_with_validate_on_the_samples() -> None:
    stats = json.loads(run("stats", str(SAMPLES), "--format", "json", "-j", "2").stdout)
    records = [
        json.loads(line)
        for line in run("validate", str(SAMPLES), "--format", "jsonl").stdout.splitlines()
    ]
    assert stats["total"]["games"] == sum(1 for r in records if r["game"])
    assert stats["total"]["plies"] == sum(r["plies"] for r in records)
    assert sum(stats["total"]["codes"].values()) == sum(len(r["issues"]) for r in records)
    on_disk = sum(1 for f in SAMPLES.rglob("*") if f.suffix.lower() == ".pdn")
    assert len(stats["files"]) == stats["total"]["files"] == on_disk > 0


def test_stats_tells_files_without_games_apart_from_games(tmp_path: Path) -> None:
    """A file that is not PDN gives no game: it is no game with errors (which would
    make 0 games of which 1 has an error), but a file that gave none."""
    (tmp_path / "bin.pdn").write_bytes(b"\x00\x01\x02binary\x00\xff")
    (tmp_path / "mixed.pdn").write_text(MIXED, encoding="utf-8")
    text = run("stats", str(tmp_path / "bin.pdn"))
    assert text.returncode == 1, text.stderr  # the file's error still fails the run
    block, total = text.stdout.strip().split("\n\n")
    assert "  games     0 (0 with errors), plies 0 (0 per game)" in block.splitlines()
    assert "  no games  the file gave no game (it cannot be read, or holds no PDN)" in block
    assert "  games     0 (0 with errors)" in total
    assert "  no games  1 file(s) gave no game (1 cannot be read or hold no PDN)" in total
    doc = json.loads(run("stats", str(tmp_path), "--format", "json").stdout)
    binary, mixed = doc["files"]
    assert binary["games"] == binary["games_with_errors"] == 0
    assert binary["files_without_games"] == binary["file_errors"] == 1
    assert mixed["files_without_games"] == mixed["file_errors"] == 0
    total_doc = doc["total"]
    assert total_doc["games"] == 2 and total_doc["games_with_errors"] == 1
    assert total_doc["files_without_games"] == total_doc["file_errors"] == 1
    assert total_doc["severities"]["error"] == 2  # E15 (or E12) and the game's E05
    clean = run("stats", str(tmp_path / "mixed.pdn"), "--total-only").stdout
    assert "no games" not in clean  # said only when a file gave none


def test_show_numbers_moves_from_the_variants_first_mover(tmp_path: Path) -> None:
    """English is started by Black: 11-15 is move 1 of the first mover, numbered
    ``1.``, as canonical PDN numbers it; a set-up with the second mover to move
    starts with ``1...``, whichever colour that is."""
    english = b'[GameType "21"]\n[Result "*"]\n\n1. 11-15 23-18 2. 8-11 27-23 *\n'
    done = run("show", "-", stdin=english)
    assert done.returncode == 0, done.stderr
    assert "1. 11-15 23-18 2. 8-11 [27-23]" in done.stdout
    white = b'[GameType "21"]\n[FEN "W:W18,22:B5,6"]\n\n1... 22-17 2. 5-9 17-13 *\n'
    assert "1... 22-17 2. 5-9 [17-13]" in run("show", "-", stdin=white).stdout
    black = b'[GameType "20"]\n[FEN "B:W32,33:B5,6"]\n\n1... 6-11 2. 33-28 *\n'
    assert "1... 6-11 2. [33-28]" in run("show", "-", stdin=black).stdout
    converted = run("convert", "-", "-o", "-", "--to", "pdn", "-q", stdin=english)
    assert "1. 11-15 23-18 2. 8-11 27-23 *" in converted.stdout


def test_show_a_game_too_large_to_read_says_so(tmp_path: Path) -> None:
    """A game skipped for a limit (E11) has no board because it was not read, not for
    its variant: show says so and names the option that raises the limit."""
    path = tmp_path / "huge.pdn"
    path.write_text('[GameType "20"]\n\n1. 32-28 19-23 {' + "x" * 3000 + "} *\n", "utf-8")
    done = run("show", str(path), "--max-game-size", "1000")
    assert done.returncode == 0, done.stderr
    assert "no board: the game was not read (E11: game larger than 1,000 characters" in (
        done.stdout
    )
    assert "--max-game-size" in done.stdout and "--variant" not in done.stdout
    drawn = run("show", str(path), "--max-game-size", "1000", "--svg", str(tmp_path / "h.svg"))
    assert drawn.returncode == 2 and "the game was not read (E11: " in drawn.stderr
    assert not (tmp_path / "h.svg").exists()
    raised = run("show", str(path), "--max-game-size", "10000")
    assert raised.returncode == 0 and "no board" not in raised.stdout
    deep = tmp_path / "deep.pdn"
    deep.write_text('[GameType "20"]\n\n1. 32-28 (1. 31-27 (1. 33-29)) 19-23 *\n', "utf-8")
    nested = run("show", str(deep), "--max-depth", "1")
    assert "no board: the game was not read (E11: variations nested 2 deep" in nested.stdout
    assert "--max-depth" in nested.stdout and "--variant" not in nested.stdout
