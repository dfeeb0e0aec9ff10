"""Replaying Frisian and Turkish records: the rules that live in the replay (Frisian's
limit on king moves, the variants' draw rules), algebraic Turkish squares, and the
real Frisian games of the shared corpus."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pdn_tools import read_games, read_string
from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game
from pdn_tools.replay import ReplayOptions, ReplayResult, replay_game
from pdn_tools.replay.draws import VariantDrawTracker, draw_tracker
from pdn_tools.rules import legal_moves, parse_fen, parse_move
from pdn_tools.rules.variant import TURKISH

ERROR_CODES = {"E04", "E05", "E06", "E07", "E08", "E09", "E10"}


def run(text: str) -> tuple[Game, ReplayResult, list[Issue]]:
    """Read one game, replay it, and return the game, the result and the replay's issues."""
    game = read_string(text)[0]
    before = len(game.issues)
    result = replay_game(game)
    return game, result, game.issues[before:]


def frisian(fen: str, moves: str) -> str:
    return f'[GameType "40"]\n[FEN "{fen}"]\n\n{moves} *\n'


# ---------------------------------------------------------------------- Frisian

KING_SHUFFLE = "1. 46-41 8-12 2. 41-46 9-13 3. 46-41 4-9"
"""Three moves in a row by the king that started on 46; Black's men stay off its lines."""


def test_frisian_three_king_moves_in_a_row_are_legal() -> None:
    _, result, issues = run(frisian("W:W50,K46:B3,4,8,9", KING_SHUFFLE))
    assert result.completed and not issues
    assert result.plies == 6


def test_frisian_fourth_king_move_in_a_row_is_illegal() -> None:
    _, result, issues = run(frisian("W:W50,K46:B3,4,8,9", KING_SHUFFLE + " 4. 41-46 3-8"))
    assert [i.code for i in issues] == ["E05"]
    assert issues[0].ply == 7
    assert "non-capturing moves in a row" in issues[0].message
    assert result.stop is not None and result.stop.ply == 7
    assert result.plies == 6


def test_frisian_another_piece_moving_resets_the_king_count() -> None:
    moves = KING_SHUFFLE + " 4. 50-44 3-8 5. 41-46 12-17"
    _, result, issues = run(frisian("W:W50,K46:B3,4,8,9", moves))
    assert result.completed and not issues


def test_frisian_king_limit_applies_in_variations_too() -> None:
    moves = KING_SHUFFLE + " 4. 50-44 (4. 41-46) 3-8"
    _, result, issues = run(frisian("W:W50,K46:B3,4,8,9", moves))
    assert result.completed
    assert [(i.code, i.in_variation) for i in issues] == [("E05", True)]


def test_frisian_lone_kings_draw_at_once() -> None:
    # The kings stay off each other's lines (all eight directions): the start position
    # is drawn already (ply 0), and the moves after it continue a drawn game (W36).
    _, result, issues = run(frisian("W:WK46:BK4", "1. 46-41 4-10"))
    assert [(d["rule"], d["ply"]) for d in result.draws] == [("lone-pieces", 0)]
    assert [(i.code, i.ply) for i in issues] == [("W36", 1)]


def test_frisian_lone_kings_draw_when_the_material_arises() -> None:
    # A capture leaves a lone king against a lone king: drawn at that ply.
    _, result, issues = run(frisian("W:WK47:BK4,38", "1. 47x33 4-10"))
    assert [(d["rule"], d["ply"]) for d in result.draws] == [("lone-pieces", 1)]
    assert [(i.code, i.ply) for i in issues] == [("W36", 2)]


def test_frisian_two_kings_against_one_draw_after_seven_moves_each() -> None:
    moves = "1. 47-15 3-8 2. 15-4 8-12 3. 4-9 12-1 4. 9-13 1-6 5. 13-2 6-1 6. 2-8 1-6 7. 8-2 6-1"
    _, result, issues = run(frisian("W:WK47,K49:BK3", moves))
    assert result.completed and not [i for i in issues if i.code in ERROR_CODES]
    rules = {d["rule"]: d["ply"] for d in result.draws}
    assert rules["two-kings-v-king"] == 14
    assert "25-move" not in rules and "5-move" not in rules and "16-move" not in rules


# ---------------------------------------------------------------------- Turkish


def test_turkish_algebraic_record_replays() -> None:
    text = '[GameType "30"]\n\n1. a3-a4 h6-h5 2. a4-a5 a6xa4 3. b3-b4 a4xc4 *\n'
    game, result, issues = run(text)
    assert game.variant == "turkish"
    assert result.completed and not issues
    assert [m.text for m in result.moves] == ["41-33", "24-32", "33-25", "17x33", "42-34", "33x35"]


def test_turkish_compulsory_capture_is_enforced() -> None:
    # After 2. a4-a5, Black must take it (a6xa4); a sideways step is refused.
    text = '[GameType "30"]\n\n1. a3-a4 h6-h5 2. a4-a5 h5-g5 *\n'
    _, result, issues = run(text)
    assert [i.code for i in issues] == ["E06"]
    assert result.stop is not None and result.stop.ply == 4


def test_turkish_square_off_the_board() -> None:
    _, _, issues = run('[GameType "30"]\n\n1. 41-65 *\n')
    assert [i.code for i in issues] == ["E04"]
    assert "1-64" in issues[0].message


def test_turkish_man_cannot_move_diagonally() -> None:
    _, _, issues = run('[GameType "30"]\n\n1. a3-b4 *\n')
    assert [i.code for i in issues] == ["E05"]
    # squares named as the record writes them (a4 is square 33)
    assert "quiet moves here: a4" in issues[0].message


def test_an_illegal_step_while_a_capture_is_due_names_the_capture() -> None:
    # The quiet moves of the man are not legal either: the message names the capture.
    text = '[GameType "30"]\n[SetUp "1"]\n[FEN "W:Wd4:Bd5"]\n\n1. d4-e5 *\n'
    _, _, issues = run(text)
    assert [i.code for i in issues] == ["E05"]
    assert "a capture is compulsory, e.g. d4xd6" in issues[0].message
    assert "quiet moves" not in issues[0].message
    _, _, issues = run(frisian("W:W33:B34", "1. 33x25"))
    assert [i.code for i in issues] == ["E05"]
    assert "a capture is compulsory, e.g. 33x35" in issues[0].message
    assert "quiet moves" not in issues[0].message


def test_turkish_one_piece_each_is_a_draw() -> None:
    # Drawn at the start position already (ply 0), not only from the first move.
    _, result, _ = run('[GameType "30"]\n[FEN "W:Wa2:Bh7"]\n\n1. a2-a3 h7-h6 *\n')
    assert [(d["rule"], d["ply"]) for d in result.draws] == [("lone-pieces", 0)]


# ---------------------------------------------------------------------- corpus

FRISIAN_FILE = "miskibin__py-draughts/test/games/frisian/random_pdns.extracted.pdn"


def test_corpus_frisian_games_replay_without_errors(corpus: Path) -> None:
    """The 14 lidraughts Frisian movetexts (described in the corpus's README) replay completely.

    In this derived file headers and movetexts are separate records, so the movetexts
    carry no GameType (the reader guesses international from their squares); they
    are replayed as Frisian here.
    """
    replayed = 0
    flagged = []
    for game in read_games(corpus / FRISIAN_FILE):
        if not list(game.mainline()):
            assert game.variant == "frisian"  # the header-only records say GameType 40
            continue
        game.variant = "frisian"
        before = len(game.issues)
        result = replay_game(game)
        replayed += result.replayed
        errors = [i for i in game.issues[before:] if i.code in ERROR_CODES]
        if errors or not result.completed:
            flagged.append((game.index, [(i.code, i.ply) for i in errors]))
    assert replayed == 14
    assert flagged == []


def test_lone_pieces_draw_can_wait_two_moves_each() -> None:
    # IP-10's other reading (pydraughts: one against one drawn after 2 moves each).
    assert TURKISH.rays is not None
    later = replace(TURKISH, name="later", rays=replace(TURKISH.rays, lone_draw_plies=4))
    position = parse_fen("W:Wa2:Bh7", later).position
    tracker = draw_tracker(position, later, ReplayOptions())
    assert isinstance(tracker, VariantDrawTracker)
    fired = []
    for ply, text in enumerate(("49-41", "16-24", "41-33", "24-32", "33-25"), start=1):
        move = parse_move(text, legal_moves(position, later), later).move
        assert move is not None
        after = position.apply(move)
        if "lone-pieces" in tracker.fire(tracker.play(position, move, after)):
            fired.append(ply)
        position = after
    assert fired == [4]
