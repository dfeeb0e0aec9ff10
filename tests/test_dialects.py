"""Producers' dialects and variants decided where the tags are silent (docs/dialects.md).

Each dialect rule is tested on a small record written here in that dialect (the games
are our own, in the producer's forms), and, where the producer installs from PyPI
(``python3 benchmarks/peers.py``), on games the producer itself writes in the test.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_helpers import run
from conftest import REPO

from pdn_tools import validate_string
from pdn_tools.diagnostics import CATALOGUE, Severity
from pdn_tools.pdn.dialects import DIALECTS, PRODUCERS, recognise
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.reader import read_string


def one(text: str, **options: object) -> Game:
    """The one game of *text*, read and replayed."""
    games = validate_string(text, **options)  # type: ignore[arg-type]
    assert len(games) == 1
    return games[0]


def codes(game: Game) -> list[str]:
    return [i.code for i in game.issues]


def errors(game: Game) -> list[str]:
    return [i.code for i in game.issues if i.level is Severity.ERROR]


# py-draughts' American checkers: its first mover on 21-32.  The standard opening
# 11-15 24-19 15x24 28x19 8-11 22-18, written on py-draughts' board (33 - n).
PY_AMERICAN = (
    '[GameType "23"]\n[Variant "American checkers"]\n[Result "*"]\n'
    "1. 22-18 9-14 2. 18x9 5x14 3. 25-22 11-15 *\n"
)


def test_codes_are_catalogued_and_documented() -> None:
    doc = (REPO / "docs" / "dialects.md").read_text(encoding="utf-8")
    for code in ("W60", "W61", "W62", "W63", "W64", "W65"):
        assert code in CATALOGUE
    for name in PRODUCERS:
        assert f"`{name}`" in doc
    assert DIALECTS[-1] == "none"


def test_py_draughts_american_game_reads_clean_as_english() -> None:
    game = one(PY_AMERICAN)
    assert game.producer == "py-draughts" and game.variant == "english"
    assert codes(game) == ["W60", "W61"]
    assert all(i.level is Severity.INFO for i in game.issues)
    assert "American checkers" in game.issues[0].message
    # read in the standard numbering: the squares, and the GameType now says 21
    moves = [n.move.text() for n in game.mainline() if n.move is not None]
    assert moves == ["11-15", "24-19", "15x24", "28x19", "8-11", "22-18"]
    assert game.tag("GameType") == "21"


def test_py_draughts_american_by_the_letter_fails_at_ply_one() -> None:
    game = one(PY_AMERICAN, dialect="none")
    assert game.producer is None and game.variant == "pool"
    first = next(i for i in game.issues if i.level is Severity.ERROR)
    assert first.code == "E05" and first.ply == 1


def test_strict_makes_dialect_readings_errors() -> None:
    game = one(PY_AMERICAN, strict=True)
    assert errors(game) == ["W60", "W61"]


def test_py_draughts_american_fen_is_turned_and_its_colours_exchanged() -> None:
    # py-draughts' White (its first mover) on 17, 29; its Black on 4, 13 (king).
    text = (
        '[GameType "23"]\n[Variant "American checkers"]\n[Result "*"]\n'
        '[FEN "W:W17,29:B4,K13"]\n1. 17-14 *\n'
    )
    game = one(text)
    assert game.tag("FEN") == "B:B16,4:W29,K20"
    assert errors(game) == [] and game.variant == "english"
    w61 = next(i for i in game.issues if i.code == "W61")
    assert "W:W17,29:B4,K13" in w61.message


def test_py_draughts_american_player_tags_are_read_for_the_other_side() -> None:
    """py-draughts' White is its first mover, the standard's Black: on its American
    board the player tags and their companions are read for the other side, and the
    finding says which; on another of its boards they stay as written."""
    tags = '[White "Jones, K."]\n[Black "Smith, J."]\n[WhiteElo "2100"]\n[BlackTeam "B"]\n'
    game = one(tags + PY_AMERICAN)
    assert (game.tag("Black"), game.tag("White")) == ("Jones, K.", "Smith, J.")
    assert (game.tag("BlackElo"), game.tag("WhiteTeam")) == ("2100", "B")
    assert game.tag("WhiteElo") is None and game.tag("BlackTeam") is None
    w61 = next(i for i in game.issues if i.code == "W61")
    assert "White, Black, WhiteElo, BlackTeam read for the other side" in w61.message
    assert errors(game) == []
    international = one(
        tags + '[GameType "20"]\n[Variant "Standard (international) checkers"]\n'
        '[Result "*"]\n1. 32-28 *\n'
    )
    assert international.tag("White") == "Jones, K." and international.tag("WhiteElo") == "2100"
    plain = one(tags + '[GameType "21"]\n[Result "*"]\n1. 11-15 *\n')  # no dialect
    assert plain.tag("White") == "Jones, K."


def test_py_draughts_result_dash_is_a_game_in_progress() -> None:
    text = (
        '[GameType "20"]\n[Variant "Standard (international) checkers"]\n[Result "-"]\n1. 32-28 *\n'
    )
    game = one(text)
    assert codes(game) == ["W63"] and game.producer == "py-draughts"
    # by the letter, the same result is an irregular one (W04)
    assert "W04" in codes(one(text, dialect="none"))


@pytest.mark.parametrize(
    ("name", "number", "meant"),
    [
        ("Frysk!", 40, "frysk"),
        ("Antidraughts", 20, "antidraughts"),
        ("Breakthrough", 20, "breakthrough"),
    ],
)
def test_py_draughts_variants_under_their_base_gametype(name: str, number: int, meant: str) -> None:
    # Frysk! starts from five men each: 48-43 is no Frisian opening move.
    text = f'[GameType "{number}"]\n[Variant "{name}"]\n[Result "*"]\n1. 48-43 2-8 *\n'
    game = one(text)
    assert game.variant == meant and codes(game) == ["W60", "W28"]
    assert errors(game) == []
    if meant == "frysk":
        assert "E05" in errors(one(text, dialect="none"))


@pytest.mark.parametrize(
    ("number", "meant"), [(96, "breakthrough"), (97, "frysk"), (98, "antidraughts")]
)
def test_lidraughts_own_gametypes(number: int, meant: str) -> None:
    text = (
        f'[Site "https://lidraughts.org/AbCdEfGh"]\n[GameType "{number}"]\n'
        '[FEN "W:W46,47,48,49,50:B1,2,3,4,5"]\n1. 48-43 2-8 2-0\n'
    )
    game = one(text)
    assert game.producer == "lidraughts" and game.variant == meant
    assert "W60" in codes(game) and errors(game) == []


def test_playstrategy_english_in_algebraic_squares() -> None:
    text = (
        '[Site "https://playstrategy.org/xYz12345"]\n[Variant "American/English"]\n'
        '[Result "*"]\n1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. b2-c3 *\n'
    )
    game = one(text)
    assert game.producer == "playstrategy" and game.variant == "english"
    assert errors(game) == [] and "W61" in codes(game)
    moves = [n.move.text() for n in game.mainline() if n.move is not None]
    assert moves == ["11-15", "24-19", "15x24", "28x19", "8-11"]


def test_unsettled_numbers_are_decided_by_the_board() -> None:
    frisian = one('[GameType "29"]\n1. 33-29 17-22 2. 34-30 11-17 3. 29-24 14x25 *\n')
    assert frisian.variant == "frisian" and "W60" in codes(frisian) and errors(frisian) == []
    czech = one('[GameType "32"]\n1. c3-d4 f6-g5 *\n')
    assert czech.variant == "czech" and "W60" in codes(czech) and errors(czech) == []
    # 29 on an 8x8 board is Czech, as the PDN table says: nothing to read
    assert "W60" not in codes(one('[GameType "29"]\n1. c3-d4 f6-g5 *\n'))
    # One square beyond 32 is a slip in a Czech record, not a 10x10 board: the game
    # stays Czech and stops at the slip, with the repair (9-14 for 9-41).
    moves = "1. 24-19 11-15 2. 19-16 12x19 3. 23x16 9-41 4. 16-12 8-11 *"
    slip = one(f'[GameType "29"]\n{moves}\n')
    assert slip.variant == "czech" and "W60" not in codes(slip)
    assert errors(slip) == ["E04"]
    (error,) = [i for i in slip.issues if i.code == "E04"]
    assert error.ply == 6 and "did you mean 9-14" in error.message
    # a set-up on the 10x10 board decides at once, and so do two moves beyond 32
    assert one('[GameType "29"]\n[FEN "W:W33:B18"]\n1. 33-28 *\n').variant == "frisian"
    two = one('[GameType "29"]\n1. 33-29 17-22 2. 34-30 *\n')
    assert two.variant == "frisian" and errors(two) == []


def test_fen_forms() -> None:
    # the doubled turn of older py-draughts releases
    game = one('[GameType "20"]\n[FEN "W:W:W31,32:B1,2"]\n1. 31-27 *\n')
    assert codes(game) == ["W62"] and game.tag("FEN") == "W:W31,32:B1,2"
    assert "W26" in codes(
        one('[GameType "20"]\n[FEN "W:W:W31,32:B1,2"]\n1. 31-27 *\n', dialect="none")
    )
    # algebraic squares in an English FEN: read on the algebraic grid, and said
    english = one('[GameType "21"]\n[FEN "B:Wa1,c3:Bd6,f8"]\n*\n')
    assert codes(english) == ["W62"] and errors(english) == []
    # ... but not in a Russian one, where they are PDN
    assert codes(one('[GameType "25"]\n[FEN "W:Wa1,c3:Bd6,f8"]\n*\n')) == []


def test_forced_dialect_that_does_not_fit_is_said() -> None:
    game = one('[GameType "21"]\n1. 11-15 24-19 *\n', dialect="py-draughts")
    assert "W65" in codes(game) and game.variant == "english" and errors(game) == []
    # forcing it on a bare 23 reads py-draughts' American board
    forced = one('[GameType "23"]\n1. 22-18 9-14 *\n', dialect="py-draughts")
    assert forced.variant == "english" and errors(forced) == []


@pytest.mark.parametrize(
    ("text", "producer"),
    [
        ('[GameType "21,B,8,8,N1,0"]\n[FEN "B:W21,22:B1,10"]\n1... 10-14 *', "pydraughts"),
        ('[Event "x"]\n[Black "Red"]\n[White "White"]\n1. 11-15 *', "checkerboard"),
        ('[Event "x"]\n[DamboTopLine "1"]\n[GameType "20"]\n1. 32-28 *', "toernooibase"),
        ('[Index "967858"]\n[GameType "20"]\n1. 32-28 *', "turbo-dambase"),
        ('[Event "x"]\n[White "a"]\n[Black "b"]\n[GameType "20"]\n1. 32-28 *', None),
    ],
)
def test_fingerprints(text: str, producer: str | None) -> None:
    assert recognise(read_string(text)[0]) == producer


def test_fen_only_ballots_are_decided_by_the_side_to_move() -> None:
    english = one('[FEN "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9"] *')
    italian = one('[FEN "W:W24,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15"] *')
    assert (english.variant, italian.variant) == ("english", "italian")
    assert codes(english) == ["W64"] == codes(italian)
    assert "Black to move" in english.issues[0].message
    # a problem position in a record as CheckerBoard writes them: English
    problem = one('[Black "Red"]\n[White "White"]\n[FEN "W:W31,27,19:B17,12,5"]\n0-1')
    assert problem.variant == "english" and codes(problem) == ["W64"]
    # ... even one with the men of a ballot and White to move (an English problem)
    many = '[FEN "W:W21,22,23,24,25,26,27,28,29:B1,2,3,4,5,6,7,8,9"]\n0-1'
    assert one('[Black "Red"]\n[White "White"]\n' + many).variant == "english"
    assert one(many).variant == "italian"
    # 10x10: international; algebraic squares: no decision
    assert one('[FEN "W:W31-50:B1-20"] *').variant == "international"
    assert one('[FEN "W:Wa1,c3:Bh8"] *').variant == "unknown"
    # --variant names the variant of such records: no decision is made
    assert codes(one('[FEN "W:W31-50:B1-20"] *', variant="frisian")) == []


def test_a_decided_ballot_that_does_not_fit_is_not_an_error() -> None:
    # A black man on 32 (Black's promotion row in English): not a valid English FEN.
    game = one('[FEN "B:W21,22,23,24,25,26,27,28,29,30:B1,2,3,4,5,6,7,8,9,10,32"] *')
    assert errors(game) == []


def test_cli_dialect_option_and_stats_producers(tmp_path: Path) -> None:
    path = tmp_path / "py.pdn"
    path.write_text(PY_AMERICAN, encoding="utf-8")
    done = run("validate", str(path), "--format", "jsonl", "--info")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout.splitlines()[0])
    assert record["producer"] == "py-draughts" and record["variant"] == "english"
    assert run("validate", str(path), "--dialect", "none").returncode == 1
    assert run("validate", str(path), "--strict").returncode == 1
    assert run("validate", str(path), "--dialect", "nonesuch").returncode == 2
    stats = json.loads(run("stats", str(path), "--format", "json").stdout)
    assert stats["total"]["producers"] == {"py-draughts": 1}
    config = tmp_path / "pdn.toml"
    config.write_text('dialect = "none"\n', encoding="utf-8")
    assert run("validate", str(path), "--config", str(config)).returncode == 1


# -- games written by the producers themselves ------------------------------------

PY_DRAUGHTS = REPO / "benchmarks" / ".venvs" / "py-draughts" / "bin" / "python"
PYDRAUGHTS = REPO / "benchmarks" / ".venvs" / "pydraughts" / "bin" / "python"

#: Plays a few random games on each py-draughts board (a capture when there is one,
#: as the rules require) and prints each game's PDN between blank lines.
PY_DRAUGHTS_GAMES = """
import random, draughts
random.seed(11)
for name in ("AmericanBoard", "StandardBoard", "RussianBoard", "BrazilianBoard",
             "FrisianBoard", "FryskBoard", "AntidraughtsBoard", "BreakthroughBoard"):
    for _ in range(3):
        board = getattr(draughts, name)()
        for _ in range(30):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if "x" in str(m)]
            board.push(random.choice(captures or moves))
        print(board.pdn)
        print()
"""

PYDRAUGHTS_GAMES = """
import random
from draughts import Board
from draughts.PDN import PDNWriter
random.seed(11)
for variant in ("standard", "english", "italian", "russian", "brazilian", "frisian"):
    board = Board(variant=variant)
    for _ in range(30):
        moves = board.legal_moves()
        if not moves or board.is_over():
            break
        board.push(random.choice(moves))
    print(PDNWriter(None, board=board, tags={"Event": variant}).pdn_text)
"""


def _peer_games(python: Path, script: str) -> str:
    if not python.exists():
        pytest.skip(f"peer environment absent ({python}); run python3 benchmarks/peers.py")
    done = subprocess.run(
        [str(python), "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_games_py_draughts_writes_read_as_it_meant() -> None:
    games = validate_string(_peer_games(PY_DRAUGHTS, PY_DRAUGHTS_GAMES))
    assert len(games) == 24
    assert all(g.producer == "py-draughts" for g in games)
    variants = [g.variant for g in games]
    assert variants[:3] == ["english"] * 3 and variants[15:18] == ["frysk"] * 3
    for game in games:
        assert errors(game) == [], (game.variant, game.issues)
    american = games[0]
    assert codes(american)[:2] == ["W60", "W61"]
    # Frysk!, Antidraughts, Breakthrough: named, not replayed as their base variant
    assert all("W28" in codes(g) for g in games[15:])


def test_games_pydraughts_writes_read_clean() -> None:
    games = validate_string(_peer_games(PYDRAUGHTS, PYDRAUGHTS_GAMES))
    assert [g.variant for g in games] == [
        "international",
        "english",
        "italian",
        "russian",
        "brazilian",
        "frisian",
    ]
    assert all(g.producer == "pydraughts" for g in games)
    for game in games:
        assert errors(game) == [], (game.variant, game.issues)
        assert not any(i.code.startswith("W6") for i in game.issues)


@pytest.mark.corpus
def test_checkerboard_ballots_of_the_shared_corpus_are_decided(corpus: Path) -> None:
    from pdn_tools import validate

    folder = corpus / "eygilbert__CheckerBoard"
    for name, variant in (("11_man_english.pdn", "english"), ("11_man_italian.pdn", "italian")):
        count = 0
        for game in validate(folder / name):
            count += 1
            assert game.variant == variant and codes(game) == ["W64"], (name, game.index)
        assert count == 2400
