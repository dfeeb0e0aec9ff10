"""Engine analysis of collections: annotate_game and ``pdn analyse``."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pdn_tools import read_string
from pdn_tools.analysis import AnalysisOptions, annotate_game
from pdn_tools.analysis.engines import EngineChoice, Evaluation, evaluate_position
from pdn_tools.replay import ReplayOptions, check_game
from pdn_tools.rules import Board, Position, legal_moves, parse_fen, variant_by_name
from pdn_tools.search import analyse

GAMES = (
    '[Event "a"]\n[GameType "20"]\n'
    "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 10-14 5. 31-27 *\n\n"
    '[Event "b"]\n[GameType "21"]\n1. 9-13 22-18 2. 13-17 *\n\n'
    '[Event "c"]\n[GameType "20"]\n[SetUp "1"]\n'
    '[FEN "W:W26,28,29,32,35-39,41-50:B1-7,9,10,12-17,21,25"]\n1. 32-27 *\n'
)
BLUNDER_FEN = "W:W26,28,29,32,35-39,41-50:B1-7,9,10,12-17,21,25"
"""White is three men up; 32-27 gives them back (found by the searcher itself)."""
SMALL = EngineChoice(nodes=400)
TIMEOUT = 300


def annotated(text: str, options: AnalysisOptions) -> list[tuple[str, str]]:
    """(move, last comment) of every main-line ply of the first game of *text*."""
    game = next(iter(read_string(text)))
    replay = check_game(game, ReplayOptions())
    annotate_game(game, replay, options)
    return [
        (node.move.text() if node.move else "", node.comments[-1].text if node.comments else "")
        for node in game.mainline()
    ]


def test_every_ply_gets_its_evaluation_best_move_and_line() -> None:
    rows = annotated(GAMES, AnalysisOptions(SMALL))
    assert len(rows) == 9
    board = Board()
    for written, comment in rows:
        match = re.fullmatch(r"\[%eval ([+-]\d+\.\d\d)\] \[%best (\S+)\]( .*)?", comment)
        assert match is not None, comment
        assert board.parse_move(match.group(2)) in board.legal_moves  # best move is legal here
        board.push(written)
        expected = analyse(board, nodes=400)
        assert float(match.group(1)) == pytest.approx(expected.white_score / 100)
        line = (match.group(3) or "").split()
        assert line == expected.pv_text[: len(line)]
        ahead = board.copy()
        for move in line:  # the line is legal from the position after the move
            ahead.push(move)


def test_a_move_that_gives_material_away_is_a_blunder() -> None:
    text = f'[GameType "20"]\n[SetUp "1"]\n[FEN "{BLUNDER_FEN}"]\n1. 32-27 *\n'
    game = next(iter(read_string(text)))
    done = annotate_game(game, check_game(game, ReplayOptions()), AnalysisOptions(SMALL))
    assert [ply for ply, _ in done.blunders] == [1]
    assert done.blunders[0][1] >= 150
    comment = next(game.mainline()).comments[-1].text
    assert "blunder -" in comment
    best = analyse(parse_fen(BLUNDER_FEN).position, nodes=400).pv_text[0]
    good = f'[GameType "20"]\n[SetUp "1"]\n[FEN "{BLUNDER_FEN}"]\n1. {best} *\n'
    game = next(iter(read_string(good)))
    assert (
        annotate_game(game, check_game(game, ReplayOptions()), AnalysisOptions(SMALL)).blunders
        == []
    )
    # A threshold above what was lost flags nothing.
    game = next(iter(read_string(text)))
    high = AnalysisOptions(SMALL, blunder=10_000)
    assert annotate_game(game, check_game(game, ReplayOptions()), high).blunders == []


# A shot: the searches before and after 46-41 see to different depths, so the engine's
# own best move seemed to lose 1.74 men (400 nodes: the forced 46x5, 1000 men).
SHOT = (
    '[Result "1-0"]\n[SetUp "1"]\n[FEN "W:W10,16,19,28,31,33,46:B7,8,12,17,26,37,42"]\n\n'
    "1. 46-41 37x46 2. 19-13 46x5 3. 13x22 26x37 4. 33-28 5x32 5. 22-17 12x21 6. 16x47 1-0\n"
)


@pytest.mark.parametrize("nodes", [400, 3000])
def test_the_engines_own_best_move_is_never_a_blunder(nodes: int) -> None:
    game = next(iter(read_string(SHOT)))
    done = annotate_game(
        game, check_game(game, ReplayOptions()), AnalysisOptions(EngineChoice(nodes=nodes))
    )
    assert done.plies == 11
    flagged = {ply for ply, _ in done.blunders}
    own_best = 0
    for ply, node in enumerate(game.mainline(), start=1):
        comment = node.comments[-1].text
        best = re.search(r"\[%best (\S+)\]", comment)
        assert best is not None and node.move is not None
        assert ("blunder" in comment) == (ply in flagged)
        if best.group(1) == node.move.text():
            own_best += 1
            assert ply not in flagged, comment
    assert own_best >= 9  # the forced captures at least


def test_a_game_analysed_twice_holds_one_analysis() -> None:
    game = next(iter(read_string('[GameType "20"]\n1. 32-28 {[%eval +9.99] kept} 19-23 *\n')))
    replay = check_game(game, ReplayOptions())
    annotate_game(game, replay, AnalysisOptions(SMALL))
    annotate_game(game, replay, AnalysisOptions(SMALL))
    first = next(game.mainline())
    texts = [c.text for c in first.comments]
    assert texts[0] == "kept"
    assert sum(t.count("[%eval") for t in texts) == 1


def test_a_win_on_the_board_and_a_forced_win_are_written_as_such() -> None:
    # English: two white kings catch the last black man (a win in 9 plies: 5 moves).
    text = '[GameType "21"]\n[SetUp "1"]\n[FEN "B:WK10,K19:B14"]\n1... 14-17 *\n'
    rows = annotated(text, AnalysisOptions(EngineChoice(nodes=None, depth=10)))
    assert rows[0][1].startswith("[%eval #5] [%best 14-")
    final = '[GameType "20"]\n[SetUp "1"]\n[FEN "W:W32:B27"]\n1. 32x21 *\n'
    rows = annotated(final, AnalysisOptions(SMALL))
    assert not rows[0][1].startswith("[%eval")  # the game is over: no evaluation
    assert rows[0][1].startswith("[%best 32x21]")


def test_an_illegal_move_ends_the_annotation() -> None:
    rows = annotated('[GameType "20"]\n1. 32-28 19-23 2. 33-29 *\n', AnalysisOptions(SMALL))
    assert [bool(c) for _, c in rows] == [True, True, False]


def pdn(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pdn_tools", *args], capture_output=True, text=True,
        cwd=cwd, timeout=TIMEOUT, check=False,
    )  # fmt: skip


def test_pdn_analyse_writes_annotated_games_the_same_with_jobs(tmp_path: Path) -> None:
    source = tmp_path / "games.pdn"
    source.write_text(GAMES, encoding="utf-8")
    one = pdn("analyse", "games.pdn", "-o", "one.pdn", "--nodes", "400", "-j", "1", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert "3 game(s) read, 3 written, 13 ply(ies) annotated, 1 blunder(s)" in one.stderr
    two = pdn("analyse", "games.pdn", "-o", "two.pdn", "--nodes", "400", "-j", "2", cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    text = (tmp_path / "one.pdn").read_text(encoding="utf-8")
    assert text == (tmp_path / "two.pdn").read_text(encoding="utf-8")
    assert text.count("[%eval") == 13
    assert text.count("[%best") == 13
    assert text.count("blunder") == 1
    assert "blunder" in text.split('[Event "c"]')[1]
    high = pdn("analyse", "games.pdn", "-o", "-", "--to", "pdn", "--nodes", "400",
               "--blunder", "10000", cwd=tmp_path)  # fmt: skip
    assert high.returncode == 0
    assert "blunder" not in high.stdout


def test_pdn_analyse_fills_the_moves_table(tmp_path: Path) -> None:
    (tmp_path / "games.pdn").write_text(GAMES, encoding="utf-8")
    done = pdn("analyse", "games.pdn", "-o", "g.parquet", "--moves-table", "m.parquet",
               "--depth", "2", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(tmp_path / "m.parquet").to_pylist()
    assert len(rows) == 13
    for row in rows:
        comment = row["comments"][-1]
        value = re.search(r"\[%eval ([+-]\d+\.\d\d)\]", comment)
        assert value is not None
        assert row["eval_cp"] == round(float(value.group(1)) * 100)
        assert row["best_move"] == re.search(r"\[%best (\S+)\]", comment).group(1)  # type: ignore[union-attr]
        board = Board.from_fen(row["fen_before"], variant=row["variant"])
        board.parse_move(row["best_move"])  # legal where the move was played


def test_pdn_analyse_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    source = tmp_path / "games.pdn"
    source.write_text(GAMES, encoding="utf-8")
    same = pdn("analyse", "games.pdn", "-o", "games.pdn", cwd=tmp_path)
    assert same.returncode == 2
    assert source.read_text(encoding="utf-8") == GAMES
    both = pdn("analyse", "games.pdn", "-o", "x.pdn", "--nodes", "5", "--depth", "2", cwd=tmp_path)
    assert both.returncode == 2 and "exclude each other" in both.stderr
    missing = pdn("analyse", "games.pdn", "-o", "x.pdn", "--engine", "/nonexistent/engine",
                  cwd=tmp_path)  # fmt: skip
    assert missing.returncode == 2
    assert "cannot start engine" in missing.stderr
    assert not (tmp_path / "x.pdn").exists()
    named = pdn("analyse", "games.pdn", "-o", "x.parquet", "--to", "pdn", cwd=tmp_path)
    assert named.returncode == 2
    assert named.stderr == "pdn analyse: -o x.parquet names a Parquet file, not PDN (--to pdn)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pdn"]


@pytest.mark.parametrize("value", ["inf", "nan", "1e300", "-inf", "86401", "0.05"])
def test_an_engine_timeout_that_is_no_bounded_wait_is_refused(tmp_path: Path, value: str) -> None:
    """``nan`` passes every range check and made the wait endless; ``inf`` and 1e300
    overflowed the clock (a traceback, exit 1): a usage error, before any engine starts."""
    (tmp_path / "games.pdn").write_text(GAMES, encoding="utf-8")
    done = pdn("analyse", "games.pdn", "-o", "x.pdn", "--engine", "cat",
               "--engine-timeout", value, "-j", "1", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "--engine-timeout" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.pdn").exists()


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 1e300, 0.0, -1.0])
def test_the_hub_client_refuses_an_unbounded_timeout(value: float) -> None:
    from pdn_tools.search.hub_client import HubEngine

    with pytest.raises(ValueError, match="timeout"):
        HubEngine([sys.executable, "-c", "pass"], timeout=value)


def test_pdn_analyse_with_a_hub_engine_gives_the_built_in_answers(tmp_path: Path) -> None:
    # International and English games in one file: the client sets the engine's
    # variant parameter for each position.
    (tmp_path / "games.pdn").write_text(GAMES, encoding="utf-8")
    engine = shlex.join([sys.executable, "-m", "pdn_tools", "engine", "--hub"])
    hub = pdn("analyse", "games.pdn", "-o", "hub.pdn", "--engine", engine, "--nodes", "400",
              "-j", "1", "--engine-timeout", "60", cwd=tmp_path)  # fmt: skip
    assert hub.returncode == 0, hub.stderr
    own = pdn("analyse", "games.pdn", "-o", "own.pdn", "--nodes", "400", "-j", "1", cwd=tmp_path)
    assert own.returncode == 0
    assert (tmp_path / "hub.pdn").read_text() == (tmp_path / "own.pdn").read_text()


def test_english_games_are_analysed_with_their_rules() -> None:
    rows = annotated(GAMES.split("\n\n")[1], AnalysisOptions(SMALL))
    board = Board(variant=variant_by_name("english"))
    for written, comment in rows:
        best = re.search(r"\[%best (\S+)\]", comment)
        assert best is not None
        board.parse_move(best.group(1))
        board.push(written)


def test_threads_of_one_process_evaluate_as_one_thread_does() -> None:
    """A Dask worker may run several threads: each has its own searcher, so that
    positions searched at once in four threads get the answers of one thread.  The
    choices differ by their (unused) timeout only: the same search, each its own
    cache entries."""
    variant = variant_by_name("international")
    positions = [Position.initial(variant)]
    for ply in range(11):  # a line of the game: each side's move in turn
        moves = legal_moves(positions[-1], variant)
        positions.append(positions[-1].apply(moves[ply % len(moves)]))
    alone = [evaluate_position(p, variant, EngineChoice(nodes=300, timeout=1.0)) for p in positions]
    found: dict[int, list[Evaluation]] = {}

    def run(n: int) -> None:
        choice = EngineChoice(nodes=300, timeout=2.0 + n)
        found[n] = [evaluate_position(p, variant, choice) for p in positions]

    threads = [threading.Thread(target=run, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert found == {n: alone for n in range(4)}


SCRIPTED = Path(__file__).parent / "scripted_hub_engine.py"
OPENING = '[Event "r"]\n[Result "*"]\n[GameType "20"]\n\n1. 32-28 18-23 2. 33-29 23x32 3. 37x28 *\n'


def scripted(mode: str) -> str:
    """The ``--engine`` command line of the scripted engine in *mode*."""
    return shlex.join([sys.executable, str(SCRIPTED), mode])


@pytest.mark.parametrize("mode", ["quiet", "nan", "inf"])
def test_a_move_without_a_score_gets_no_evaluation(tmp_path: Path, mode: str) -> None:
    """An engine that sends no score (or one that is no finite number: ``inf`` was a
    traceback) gives no ``[%eval]``, a NULL ``eval_cp`` and no blunder: a missing
    score is not an even game."""
    (tmp_path / "g.pdn").write_text(OPENING, encoding="utf-8")
    done = pdn("analyse", "g.pdn", "-o", "-", "--to", "pdn", "--engine", scripted(mode),
               "-j", "1", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "[%eval" not in done.stdout
    assert done.stdout.count("[%best") == 5
    assert "blunder" not in done.stdout
    table = pdn("analyse", "g.pdn", "-o", "g.parquet", "--moves-table", "m.parquet",
                "--engine", scripted(mode), "-j", "1", cwd=tmp_path)  # fmt: skip
    assert table.returncode == 0, table.stderr
    rows = pq.read_table(tmp_path / "m.parquet").to_pylist()
    assert len(rows) == 5
    assert all(row["eval_cp"] is None and row["eval_mate"] is None for row in rows)
    assert all(row["best_move"] for row in rows)


def test_scans_decisive_scores_are_forced_wins_not_material(tmp_path: Path) -> None:
    """Scan's 99.95 (the end in 5 plies for the side to move) is a forced win in 3
    moves, written ``#N`` and ``eval_mate``; its 89.50 (a won endgame, distance
    unknown) is written in words, with neither ``eval_cp`` nor ``eval_mate``."""
    (tmp_path / "g.pdn").write_text(OPENING, encoding="utf-8")
    done = pdn("analyse", "g.pdn", "-o", "g.parquet", "--moves-table", "m.parquet",
               "--engine", scripted("scan"), "-j", "1", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(tmp_path / "m.parquet").to_pylist()
    # After each move the other side is to move, and it wins: Black after White's.
    assert [row["eval_mate"] for row in rows] == [-3, 3, -3, 3, -3]
    assert all(row["eval_cp"] is None for row in rows)
    assert all(row["comments"][-1].startswith("[%eval #") for row in rows)
    lost = pdn("analyse", "g.pdn", "-o", "-", "--to", "pdn", "--engine", scripted("scanlost"),
               "-j", "1", cwd=tmp_path)  # fmt: skip
    assert lost.returncode == 0, lost.stderr
    assert re.findall(r"\[%eval (\S+)\]", lost.stdout) == ["#2", "#-2", "#2", "#-2", "#2"]
    won = pdn("analyse", "g.pdn", "-o", "g2.parquet", "--moves-table", "m2.parquet",
              "--engine", scripted("bitbase"), "-j", "1", cwd=tmp_path)  # fmt: skip
    assert won.returncode == 0, won.stderr
    rows = pq.read_table(tmp_path / "m2.parquet").to_pylist()
    assert all(row["eval_cp"] is None and row["eval_mate"] is None for row in rows)
    winners = [re.match(r"forced win for (\w+)", row["comments"][-1]) for row in rows]
    assert [m.group(1) if m else None for m in winners] == ["Black", "White"] * 2 + ["Black"]


MATE_GAME = (
    '[Event "m"]\n[Result "*"]\n[GameType "20"]\n[FEN "W:W32,33,34:B19,20"]\n\n'
    "1. 32-28 20-25 2. 28-22 25-30 *\n"
)
"""Black's last move lets White force the end (the built-in searcher sees it)."""


def test_a_blunder_into_a_forced_loss_is_said_in_words_not_in_men() -> None:
    rows = annotated(MATE_GAME, AnalysisOptions(EngineChoice()))
    comment = rows[-1][1]
    evaluation = re.match(r"\[%eval (#\d+)\]", comment)
    assert evaluation is not None, comment
    assert f"blunder (allows a forced loss, {evaluation.group(1)}):" in comment
    assert not re.search(r"blunder [+-]\d", comment)  # no size in men of a forced win


def test_a_forced_result_lost_is_a_blunder_and_a_longer_win_is_not(tmp_path: Path) -> None:
    """With every position a forced win for the side to move (the scripted Scan), each
    move that is not the engine's own throws a win away and allows a loss; the
    engine's own moves are never blunders.  No size in men is written."""
    (tmp_path / "g.pdn").write_text(OPENING, encoding="utf-8")
    done = pdn("analyse", "g.pdn", "-o", "-", "--to", "pdn", "--engine", scripted("scan"),
               "-j", "1", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    blunders = re.findall(r"blunder \(([^)]*)\)", done.stdout)
    assert len(blunders) == 3
    assert all(b.startswith("misses a forced win, #") and "allows a forced loss, #" in b
               for b in blunders)  # fmt: skip
    assert not re.search(r"blunder [+-]\d", done.stdout)
    evaluation = Evaluation(None, 3, (), 5)
    longer = Evaluation(None, 4, (), 7)
    from pdn_tools.analysis.annotate import _blunder

    assert _blunder(evaluation, longer, 1, 150) is None  # still a forced win
    assert _blunder(longer, evaluation, -1, 150) is None  # Black was lost anyway
    assert _blunder(Evaluation(None, None, ()), evaluation, 1, 150) is None  # no score


def test_analysing_an_analysed_file_again_changes_nothing(tmp_path: Path) -> None:
    """analyse(analyse(x)) == analyse(x) byte for byte: the blunder note, the W70
    doubt and the best lines of the first analysis are replaced, not doubled; a
    reader's own comment text stays (its old evaluation command goes)."""
    text = MATE_GAME.replace("1. 32-28", "1. 32-28 {a fine start [%eval +5.00]} {19-24 next}")
    (tmp_path / "x.pdn").write_text(text, encoding="utf-8")
    once = pdn("analyse", "x.pdn", "-o", "once.pdn", "-j", "1", cwd=tmp_path)
    assert once.returncode == 0, once.stderr
    twice = pdn("analyse", "once.pdn", "-o", "twice.pdn", "-j", "1", cwd=tmp_path)
    assert twice.returncode == 0, twice.stderr
    first = (tmp_path / "once.pdn").read_text(encoding="utf-8")
    assert first.count("blunder (") == 1 and first.count("(W70)") == 1
    assert "{a fine start}" in first and "{19-24 next}" in first
    assert "+5.00" not in first
    assert (tmp_path / "twice.pdn").read_text(encoding="utf-8") == first


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_engine_command_that_cannot_be_split_is_one_line_and_status_2(
    tmp_path: Path, jobs: str
) -> None:
    (tmp_path / "g.pdn").write_text(OPENING, encoding="utf-8")
    done = pdn("analyse", "g.pdn", "-o", "x.pdn", "--engine", "scan 'hub", "-j", jobs,
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "No closing quotation" in lines[0], done.stderr
    assert not (tmp_path / "x.pdn").exists()


def test_the_best_move_is_the_engines_done_move_not_its_pv(tmp_path: Path) -> None:
    """The scripted engine's last pv starts with another move than its ``done``: the
    best move is the ``done`` move, and that pv is not written as its line."""
    (tmp_path / "g.pdn").write_text(OPENING, encoding="utf-8")
    done = pdn("analyse", "g.pdn", "-o", "g.parquet", "--moves-table", "m.parquet",
               "--engine", scripted("otherpv"), "-j", "1", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    international = variant_by_name("international")
    for row in pq.read_table(tmp_path / "m.parquet").to_pylist():
        before = parse_fen(row["fen_before"]).position
        first = legal_moves(before, international)[0]
        board = Board.from_fen(row["fen_before"])
        assert board.parse_move(row["best_move"]) == first
        comment = row["comments"][-1]
        line = comment.split("]")[-1].split()
        assert len(line) <= 1  # the pv of another move is not the line


def test_the_w70_comment_is_written_in_the_notation_of_the_moves_around_it() -> None:
    """A Russian record written in numbers is written with canonical moves in the
    algebraic squares its GameType names: its W70 comment, its best moves and lines
    name moves so too, while the finding's message and repair keep the record's own
    notation (they point into the record)."""
    from pdn_tools.analysis.plausibility import PlausibilityOptions
    from pdn_tools.export.canonical import write_canonical
    from pdn_tools.replay.resolve import resolve

    text = '[Result "0-2"]\n[GameType "25"]\n[FEN "B:WK1,K32:BK3"]\n\n1... 3-8 2. 1-15 0-2\n'
    game = next(iter(read_string(text)))
    replay = check_game(game, ReplayOptions())
    choice = EngineChoice()
    done = annotate_game(
        game, replay, AnalysisOptions(choice, plausibility=PlausibilityOptions(choice))
    )
    assert done.doubted == 1
    doubts = [c.text for n in game.mainline() for c in n.comments if "(W70)" in c.text]
    assert len(doubts) == 1
    shown = re.fullmatch(r"possibly mis-recorded \(W70\): (\S+)\?", doubts[0])
    assert shown is not None and re.fullmatch(r"[a-h]\d-[a-h]\d", shown.group(1)), doubts[0]
    (issue,) = [i for i in game.issues if i.code == "W70"]
    assert issue.repair is not None and re.fullmatch(r"\d+-\d+", issue.repair["move"])
    written = write_canonical(game, resolve(game, replay))
    assert f"(W70): {shown.group(1)}?" in written
    assert "1... f8-g7 " in written  # the moves around it: algebraic too
    moves = [
        word
        for first, line in re.findall(r"\[%best (\S+)\]([^}]*)", written)
        for word in [first, *line.split()]
        if word != "blunder" and not re.fullmatch(r"[-+]?\d+\.\d+:", word)  # its size
    ]
    assert len(moves) > 4 and all(re.fullmatch(r"[a-h]\d[-:][a-h]\d", m) for m in moves), moves


def test_a_parameter_the_engine_refuses_ends_the_run(tmp_path: Path) -> None:
    """The engine's ``error`` to a ``set-param`` the user asked for is no longer
    ignored: one line naming the parameter and the engine's message, status 2,
    nothing written."""
    (tmp_path / "g.pdn").write_text(OPENING, encoding="utf-8")
    engine = shlex.join([sys.executable, "-m", "pdn_tools", "engine", "--hub"])
    done = pdn("analyse", "g.pdn", "-o", "x.pdn", "--engine", engine, "--engine-param",
               "variant=klingon", "-j", "1", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "variant=klingon" in lines[0] and "unknown variant klingon" in lines[0]
    assert not (tmp_path / "x.pdn").exists()


def test_the_refused_parameter_is_the_one_the_message_names() -> None:
    from pdn_tools.search.hub import HubError
    from pdn_tools.search.hub_client import HubEngine

    command = [sys.executable, str(SCRIPTED), "strict"]
    with pytest.raises(HubError, match=r"refused the parameter book=off: I take no book"):
        HubEngine(command, timeout=60, params={"book": "off", "threads": "2"})
    with HubEngine(command, timeout=60) as engine:  # no parameter set: nothing refused
        assert engine.id == {"name": "scripted"}


@pytest.mark.parametrize("mode", ["scan", "bitbase"])
def test_an_engines_forced_wins_analysed_twice_hold_one_analysis(tmp_path: Path, mode: str) -> None:
    """The words written for forced results (``forced win for White``, ``blunder
    (misses a forced win…)``) are recognised as the analysis's own on a second run."""
    (tmp_path / "g.pdn").write_text(OPENING, encoding="utf-8")
    once = pdn("analyse", "g.pdn", "-o", "once.pdn", "--engine", scripted(mode), "-j", "1",
               cwd=tmp_path)  # fmt: skip
    assert once.returncode == 0, once.stderr
    twice = pdn("analyse", "once.pdn", "-o", "twice.pdn", "--engine", scripted(mode),
                "-j", "1", cwd=tmp_path)  # fmt: skip
    assert twice.returncode == 0, twice.stderr
    first = (tmp_path / "once.pdn").read_text(encoding="utf-8")
    assert first.count("blunder (") == 3
    assert (tmp_path / "twice.pdn").read_text(encoding="utf-8") == first
