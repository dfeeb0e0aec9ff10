"""Inputs shaped to make the reader's work or memory grow faster than their size.

Each test builds a small hostile file whose cost the old code made quadratic (or
kept in memory), and checks a bound the old code missed by far: the command finishes
well inside a generous timeout, or the memory traced while reading stays below what
the hostile part alone would take.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from security_helpers import no_traceback, pdn

from pdn_tools import read_games
from pdn_tools.pdn.commands import parse_commands, unreadable
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.report.raster import MAX_GIF_FRAMES


def test_a_comment_of_many_unclosed_commands_is_read_in_linear_time(tmp_path: Path) -> None:
    """``[%a [%a …`` without a ``]``: each command used to be scanned to the end of the
    comment (400 KB took minutes); now the scan stops where no ``]`` is left."""
    hostile = tmp_path / "commands.pdn"
    hostile.write_text(
        '[Event "x"]\n[Result "*"]\n\n1. 32-28 {' + "[%a " * 100_000 + "} 18-23 *\n",
        encoding="utf-8",
    )
    done = pdn("validate", str(hostile), "--isolated", timeout=60)
    no_traceback(done)
    assert done.returncode == 0, done.stdout
    # The same commands closed are still read, one by one or as one.
    assert parse_commands("[%clk 0:01:00] [%eval 0.5]") == [("clk", "0:01:00"), ("eval", "0.5")]
    assert parse_commands("[%a [%b ]") == [("a", "[%b")]
    assert parse_commands("[%1 [%eval x]") == [("eval", "x")]
    assert [why for _, why in unreadable("[%clk x] [%eval 1.0")] == ["[%clk x] is not a clock"]


def test_an_oversize_header_keeps_no_tag_names(tmp_path: Path) -> None:
    """A game over the size limit keeps no text; the names of its tags (a million
    distinct ones in a hostile header) are not kept either: memory stays bounded by
    the limit, not by the file."""
    hostile = tmp_path / "tags.pdn"
    header = "".join(f'[T{i} "v"]\n' for i in range(120_000))
    hostile.write_text('[Event "x"]\n' + header + "\n1. 32-28 *\n", encoding="utf-8")
    tracemalloc.start()
    try:
        games = list(read_games(hostile, ReadOptions(max_game_chars=10_000)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [issue.code for issue in games[0].issues][:1] == ["E11"]
    # 120,000 names kept took 11 MB; reading the file in pieces takes about 1.5 MB.
    assert peak < 4_000_000, peak


def test_a_gif_of_a_long_game_is_refused_before_drawing(tmp_path: Path) -> None:
    """Every frame of a GIF is held until the file is written, and the number of plies
    comes from the file: past :data:`MAX_GIF_FRAMES` the command refuses with one line
    (before any frame is drawn, so with or without the picture libraries), and a
    range of plies draws part of the game."""
    shuffle = " ".join(f"{2 * i + 1}. 46-41 5-10 {2 * i + 2}. 41-46 10-5" for i in range(130))
    hostile = tmp_path / "long.pdn"
    hostile.write_text(
        '[GameType "20"]\n[SetUp "1"]\n[FEN "W:WK46:BK5"]\n[Result "*"]\n\n' + shuffle + " *\n",
        encoding="utf-8",
    )
    gif = tmp_path / "game.gif"
    done = pdn("show", str(hostile), "--gif", str(gif), "--isolated", timeout=60)
    no_traceback(done)
    assert done.returncode == 2
    assert f"would hold 521 frames, more than {MAX_GIF_FRAMES}" in done.stderr
    assert not gif.exists()
