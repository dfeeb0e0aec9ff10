"""The board decides the variant of a record without GameType before its first move
does: a square above 32 in the FEN, or in a move of a game set up by its FEN, rules
out every 8x8 variant (docs/dialects.md, "Variants decided where the tags are silent").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import run
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pdn_tools import validate, validate_string
from pdn_tools.diagnostics import Severity
from pdn_tools.pdn.gametype import board_evidence, infer_variant
from pdn_tools.pdn.model import Game
from pdn_tools.rules import legal_moves, move_texts, parse_fen, variant_by_name

#: A 10x10 problem whose first moves read as Italian ones (White from 22 to 18).
FEN10 = (
    '[Event "T"]\n[Result "1-0"]\n[SetUp "1"]\n'
    '[FEN "W:W12,22,23,24,25,29,34:B1,3,9,13,14,40,45."]\n\n'
    "1. 22-18 13x22 2. 12-8 3x12 3. 23-19 14x23 4. 29x7 40x20 5. 25x3 1x12 6. 3x50\n1-0\n"
)
#: A 10x10 problem whose first move fits no first-mover guess (White from 12 to 8).
FEN10B = (
    '[Event "x"]\n[Result "1-0"]\n[SetUp "1"]\n'
    '[FEN "W:W6,11,12,17,30,38,41:B1,3,9,20,29,36,40"]\n\n'
    "1. 12-8 3x21 2. 11-7 1x12 3. 30-25 36x47 4. 25x3 47x33 5. 3x35 1-0\n"
)


def one(text: str) -> Game:
    """The one game of *text*, read and replayed."""
    games = validate_string(text)
    assert len(games) == 1
    return games[0]


def codes(game: Game) -> list[str]:
    return [i.code for i in game.issues]


def errors(game: Game) -> list[str]:
    return [i.code for i in game.issues if i.level is Severity.ERROR]


def inferred(game: Game) -> str:
    """The message of the reader's W27 (the variant inferred)."""
    (message,) = [i.message for i in game.issues if i.code == "W27"]
    return message


def test_a_fen_square_above_32_outranks_an_italian_first_move() -> None:
    game = one(FEN10)
    assert game.variant == "international"
    assert "E10" not in codes(game) and errors(game) == []
    assert inferred(game) == (
        "no GameType tag; variant inferred as international "
        "(its FEN holds square 45, beyond the 8x8 board)"
    )


def test_a_fen_square_above_32_decides_where_the_first_move_says_nothing() -> None:
    game = one(FEN10B)
    assert game.variant == "international"
    assert "W40" not in codes(game) and errors(game) == []
    assert "its FEN holds square 41" in inferred(game)


def test_a_move_square_above_32_decides_a_game_set_up_within_squares_1_to_32() -> None:
    # The men stand on 1-32 and the first moves stay there; the black king's run to
    # 48 is on the 10x10 board only.
    text = (
        '[FEN "B:W8,25,30:B7,15,18"]\n'
        "1. ... 7-12 2. 8x17 18-23 3. 17-12 23-28 4. 12-8 28-32 5. 8-3 32-37 "
        "6. 3-17 15-20 7. 25x14 37-42 8. 17-3 42-48 *\n"
    )
    game = one(text)
    assert game.variant == "international" and errors(game) == []
    assert "a move names square 37" in inferred(game)


def test_a_game_from_the_start_position_is_judged_by_its_first_moves() -> None:
    # From the start position the first move tells the board (22-18 is no 10x10
    # first move): a square above 32 later is a slip the replay reports there.
    text = "1. 22-18 10-14 2. 23-19 14x23 3. 27x41 *\n"
    game = one(text)
    assert game.variant == "italian"
    assert inferred(game) == "no GameType tag; variant inferred as italian"
    (first,) = [i for i in game.issues if i.level is Severity.ERROR]
    assert first.ply == 5


def test_a_fen_that_fits_another_board_than_the_guess_is_no_e10() -> None:
    # Squares 55 and 60 are on no board of 32 or 50 squares, but on Turkish draughts'
    # 64: the guess (international, from squares above 32) is at fault, not the FEN.
    game = one('[FEN "W:W55,60:B1,3"]\n1. 55-51 *\n')
    assert "E10" not in codes(game) and errors(game) == []
    (w40,) = [i.message for i in game.issues if i.code == "W40"]
    assert "its FEN does not fit it" in w40 and "it fits the board of turkish draughts" in w40
    # a FEN that fits no board at all stays an error
    assert "E10" in codes(one('[FEN "W:W55,160:B1,3"]\n1. 55-51 *\n'))


def test_a_fen_no_variant_reads_is_an_e10_under_a_guess_too() -> None:
    # A white man on square 1 stands on its own promotion row on every board: the
    # record is at fault whatever the variant, not the guess (8x8 squares, no W40).
    moves = "1. 32-27 25-22 2. 27-23 22-17 3. 14-9 6x13 *\n"
    game = one('[FEN "W:WK32,14,1:BK25,6"]\n' + moves)
    assert game.variant == "international"  # the reader's guess from the first moves
    assert errors(game) == ["E10"] and "W40" not in codes(game)
    # without the man on 1 the FEN fits the guess, and the moves refute it
    game = one('[FEN "W:WK32,14:BK25,6"]\n' + moves)
    assert errors(game) == [] and "W40" in codes(game)


def test_a_gametype_or_variant_option_is_never_overruled() -> None:
    tagged = one('[GameType "22"]\n' + FEN10)
    assert tagged.variant == "italian" and "E10" in codes(tagged)
    named = validate_string(FEN10, variant="italian")[0]
    assert named.variant == "italian" and "W27" not in codes(named)


def test_board_evidence() -> None:
    assert board_evidence("W:W12,22:B45", ["22", "18"]) is not None
    assert board_evidence("W:WK31-34:B1", []) == "its FEN holds square 34, beyond the 8x8 board"
    assert board_evidence("W:W12,22:B30", ["22", "18", "30", "37"]) == (
        "a move names square 37, beyond the 8x8 board"
    )
    assert board_evidence("W:W12,22:B30", ["22", "18"]) is None
    # algebraic squares (and squares of no 10x10 board) are no 10x10 evidence
    assert board_evidence("W:Wa1,c3:Bh8", ["a1", "b2"]) is None
    assert board_evidence("W:W55:B1", []) is None
    assert board_evidence(None, []) is None


def test_convert_for_pdn3_writes_the_10x10_gametype(tmp_path: Path) -> None:
    source = tmp_path / "fen10.pdn"
    source.write_text(FEN10, encoding="utf-8")
    out = tmp_path / "out.pdn"
    done = run("convert", str(source), "-o", str(out), "--for", "pdn3")
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert '[GameType "20"]' in text and '[GameType "22"]' not in text


#: Squares a man of each colour may stand on in a 10x10 FEN (not its promotion row).
_PIECES = st.sampled_from(["W", "B", "WK", "BK"])


@st.composite
def problems(draw: st.DrawFn) -> tuple[str, str]:
    """A 10x10 position with a square above 32, and a legal first move on squares
    1-32 that reads as an 8x8 first move: (FEN, the move as written)."""
    turn = draw(st.sampled_from("WB"))
    # the side to move has a man where an 8x8 first move starts: White on 21-24
    # (Italian's first mover), Black on 9-12 (English's)
    mover = draw(st.integers(21, 24) if turn == "W" else st.integers(9, 12))
    high = draw(st.integers(33, 50))
    high_piece = draw(st.sampled_from(["W", "WK", "BK"] if high > 45 else ["W", "B", "WK", "BK"]))
    others = draw(st.dictionaries(st.integers(1, 50), _PIECES, max_size=8))
    board = {sq: kind for sq, kind in others.items() if sq not in (mover, high)}
    board[mover] = turn
    board[high] = high_piece
    # no man on its own promotion row
    board = {
        sq: kind
        for sq, kind in board.items()
        if not (kind == "W" and sq <= 5) and not (kind == "B" and sq >= 46)
    }
    assume(any(kind.startswith("W") for kind in board.values()))
    assume(any(kind.startswith("B") for kind in board.values()))

    def side(colour: str) -> str:
        return ",".join(
            ("K" if kind.endswith("K") else "") + str(sq)
            for sq, kind in sorted(board.items())
            if kind[0] == colour
        )

    fen = f"{turn}:W{side('W')}:B{side('B')}"
    variant = variant_by_name("international")
    legal = legal_moves(parse_fen(fen, variant).position, variant)
    texts = move_texts(legal, variant)
    fitting = [
        text
        for text in texts
        if all(int(s) <= 32 for s in re.split(r"[-x]", text))
        and infer_variant(re.split(r"[-x]", text)[:2]) != "international"
    ]
    assume(fitting)
    return fen, draw(st.sampled_from(fitting))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(problems())
def test_a_10x10_position_is_international_whatever_its_first_move(
    problem: tuple[str, str],
) -> None:
    fen, move = problem
    number = "1." if fen[0] == "W" else "1. ..."
    game = one(f'[SetUp "1"]\n[FEN "{fen}"]\n\n{number} {move} *\n')
    assert game.variant == "international", game.issues
    assert "E10" not in codes(game) and "W40" not in codes(game)
    assert errors(game) == [], game.issues
    assert "beyond the 8x8 board" in inferred(game)


@pytest.mark.corpus
def test_the_10x10_problems_of_the_shared_corpus_are_international(corpus: Path) -> None:
    # Problems of the PDN 3.0 conformance set without GameType whose first moves look
    # like 8x8 ones (or like nothing): before, Italian with E10, or not replayed (W40).
    folder = corpus / "wiegerw__pdn"
    expected = {
        "fail/Cat.A1.pdn": (5, 8, 22),
        "fail/Cat.C1.pdn": (8, 20, 33, 34, 37, 45),
        "succeed/Cat.B1.pdn": (18, 19),
    }
    for name, numbers in expected.items():
        games = {game.index: game for game in validate(folder / name)}
        for number in numbers:
            game = games[number]
            assert game.variant == "international", (name, number)
            assert "W27" in codes(game) and "W40" not in codes(game), (name, number)
            assert errors(game) == [], (name, number, game.issues)
