"""Replay validator: every diagnostic it emits, draw rules at their exact ply,
variations, set-ups and the result checks, on small hand-made records."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn_tools import read_games, read_string
from pdn_tools.diagnostics import CATALOGUE, Issue
from pdn_tools.pdn.model import Game
from pdn_tools.replay import ReplayedMove, ReplayOptions, ReplayResult, replay_game

G = '[GameType "20"]\n'
REPLAY_CODES = {"E04", "E05", "E06", "E07", "E08", "E09", "E10", "W12", "W23", "W24", "W25"}
REPLAY_CODES |= {"W26", "W28", "W32", "W33", "W34", "W80"}


def run(text: str, **options: object) -> tuple[Game, ReplayResult, list[Issue]]:
    """Read one game, replay it, and return the game, the result and the replay's issues."""
    game = read_string(text)[0]
    before = len(game.issues)
    result = replay_game(game, ReplayOptions(**options))  # type: ignore[arg-type]
    return game, result, game.issues[before:]


def codes(issues: list[Issue]) -> list[str]:
    """The codes of *issues*, in order."""
    return [i.code for i in issues]


def test_replay_codes_are_catalogued() -> None:
    assert REPLAY_CODES.issubset(CATALOGUE)


def test_legal_game_replays_completely() -> None:
    _, result, issues = run(G + "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 *")
    assert issues == []
    assert result.completed and result.plies == 7 and result.stop is None
    assert result.final_fen == "B:W28,31,34-36,38-50:B1-13,15-18,20"
    assert [m.text for m in result.moves][:4] == ["32-28", "19-23", "28x19", "14x23"]
    assert result.moves[2].move.captures == frozenset({23})


def test_e04_square_off_the_board() -> None:
    _, result, issues = run(G + "1. 51-46 *")
    assert codes(issues) == ["E04"] and "51" in issues[0].message
    assert result.stop is not None and result.stop.code == "E04"
    _, _, issues = run(G + "1. c3-d4 *")
    assert codes(issues) == ["E04"]


@pytest.mark.parametrize(
    ("moves", "needle"),
    [
        ("1. 22-27 *", "no white piece on 22"),
        ("1. 32-37 *", "37 is occupied by a white man"),
        ("1. 33-27 *", "not on a diagonal"),
        ("1. 32-28 17-21 2. 28-32 *", "cannot move backward"),
        ("1. 32-23 *", "a man moves one square"),
    ],
)
def test_e05_illegal_move_says_why(moves: str, needle: str) -> None:
    game, result, issues = run(G + moves)
    assert codes(issues) == ["E05"], issues
    assert needle in issues[0].message
    assert issues[0].move == moves.split()[-2] and issues[0].ply is not None
    assert not result.completed and game.status == "error"


def test_e05_message_counts_unchecked_plies_and_ply_is_mainline_halfmove() -> None:
    _, result, issues = run(G + "1. 32-28 19-23 2. 33-27 14-19 3. 37-32 *")
    assert codes(issues) == ["E05"] and issues[0].ply == 3
    assert "replay stops here; 2 later plies not checked" in issues[0].message
    assert result.plies == 2 and result.stop is not None and result.stop.ply == 3


def test_e06_quiet_move_while_capture_compulsory() -> None:
    _, _, issues = run(G + "1. 32-28 19-23 2. 31-27 *")
    assert codes(issues) == ["E06"] and "28x19" in issues[0].message


def test_e07_fewer_pieces_than_the_maximum() -> None:
    _, _, issues = run('[FEN "W:W28,45:B23,14,40"]' + G + "1. 45x34 *")
    assert codes(issues) == ["E07"]
    assert "maximum is 2" in issues[0].message and "28x19x10" in issues[0].message


def test_e07_capture_stopped_while_it_can_continue() -> None:
    _, _, issues = run('[FEN "W:W28,45:B23,14,40"]' + G + "1. 28x19 *", merge_split_captures=False)
    assert codes(issues) == ["E07"] and "must continue" in issues[0].message


def test_w24_split_capture_is_merged() -> None:
    _, result, issues = run('[FEN "W:W28,45:B23,14,40,1"]' + G + "1. 28x19 19x10 1-7 *")
    assert codes(issues) == ["W24"] and "28x10" in issues[0].message
    assert result.completed and result.plies == 2
    assert result.moves[0].move.captures == frozenset({23, 14}) and len(result.moves[0].merged) == 1


AMBIG = '[FEN "W:WK27,48:B29,20,39,22,3"]\n' + G


def test_w25_ambiguity_resolved_by_lookahead() -> None:
    _, result, issues = run(AMBIG + "1. 27x43 20-25 *")
    assert codes(issues) == ["W25"] and "27x18x34x43" in issues[0].message
    assert result.completed and result.moves[0].move.captures == frozenset({22, 29, 39})


def test_e08_ambiguity_lookahead_cannot_decide() -> None:
    _, result, issues = run(AMBIG + "1. 27x43 3-8 *")
    assert codes(issues) == ["E08"]
    assert "27x9x25x43" in issues[0].message and "27x18x34x43" in issues[0].message
    assert not result.completed


def test_e08_without_lookahead() -> None:
    _, _, issues = run(AMBIG + "1. 27x43 20-25 *", lookahead=False)
    assert codes(issues) == ["E08"]


def test_w23_noncanonical_path() -> None:
    _, result, issues = run(AMBIG + "1. 27x9x43 *")
    assert codes(issues) == ["W23"] and "27x9x25x43" in issues[0].message
    assert result.completed


def test_e09_path_fits_no_capture() -> None:
    _, _, issues = run(AMBIG + "1. 27x22x43 *")
    assert codes(issues) == ["E09"]
    _, _, issues = run(G + "1. 32-28 19-23 2. 28x19x10 *")
    assert codes(issues) == ["E09"]
    _, _, issues = run(G + "1. 32x28x23 *")
    assert codes(issues) == ["E09"] and "no capture is possible" in issues[0].message


def test_w12_separator_mismatch() -> None:
    _, result, issues = run(G + "1. 32x28 19-23 2. 28-19 14x23 *")
    assert codes(issues) == ["W12", "W12"]
    assert "capture written with '-'" in issues[1].message and result.completed


def test_w33_move_number_disagrees() -> None:
    _, result, issues = run(G + "1. 32-28 19-23 5. 28x19 14x23 *")
    assert codes(issues) == ["W33"] and issues[0].level.value == "info"
    assert result.completed
    _, _, issues = run(G + "1. 32-28 19-23 2... 28x19 *")
    assert codes(issues) == ["W33"]


def test_w33_once_for_one_wrong_number_and_once_for_numbers_that_run_on() -> None:
    # One slip ('5.' for Black's 3rd move): the next number, right again, is not doubted.
    text = "1. 32-28 18-23 2. 33-29 23x32 3. 37x28 5. 20-25 4. 38-33 12-18 *"
    _, result, issues = run(G + text)
    assert codes(issues) == ["W33"] and issues[0].ply == 6
    assert "move 3 of Black" in issues[0].message and result.completed
    # Numbers that run on from a wrong one: said once, and the count follows them.
    text = "1. 32-28 18-23 2. 33-29 23x32 5. 37x28 20-25 6. 38-33 12-18 7. 42-38 9. 7-12 *"
    _, result, issues = run(G + text)
    assert codes(issues) == ["W33", "W33"] and [i.ply for i in issues] == [5, 10]
    assert "move 3 of White" in issues[0].message
    assert "'9.' written, but move 7 of Black" in issues[1].message


def test_w34_ellipsis_for_a_missing_move() -> None:
    _, result, issues = run(G + "1. 32-28 19-23 2. ... 18-22 3. 37-32 *")
    assert codes(issues) == ["W34"] and not result.completed and result.plies == 2


def test_repair_hint_one_digit() -> None:
    _, _, issues = run(G + "1. 32-28 19-23 2. 28x18 14x23 3. 33-28 *")
    assert codes(issues) == ["E05"]
    # the landing square is off by one: likelier than a capture's wrong landing square
    assert "did you mean 28x19 (a square off by one)?" in issues[0].message
    assert "with it all 5 plies replay" in issues[0].message
    assert issues[0].repair is not None and issues[0].repair["move"] == "28x19"


def test_repair_hint_missing_move() -> None:
    _, _, issues = run(G + "1. 32-28 2. 37-32 19-23 *")
    assert codes(issues) == ["W33", "E05"]
    assert "a move of Black seems to be missing" in issues[1].message


def test_variation_errors_are_marked_and_main_line_continues() -> None:
    text = G + "1. 32-28 (1. 33-27 19-23) (1. 33-29 19-23 2. 29x18) 19-23 2. 28x19 14x23 *"
    _, result, issues = run(text)
    assert codes(issues) == ["E05", "E05"] and all(i.in_variation for i in issues)
    assert "variation" in issues[0].message
    assert result.completed and result.plies == 4


def test_variation_replays_from_branch_position() -> None:
    _, result, issues = run(G + "1. 32-28 19-23 (1... 17-22 2. 28x17 11x22) 2. 28x19 14x23 *")
    assert issues == [] and result.completed


def test_setup_mid_game_and_invalid_setup() -> None:
    _, result, issues = run(G + '1. 32-28 19-23 /FEN "W:W33:B3"/ 2. 33-29 3-8 *')
    assert issues == [] and result.completed and result.final_fen == "W:W29:B8"
    _, result, issues = run(G + '1. 32-28 19-23 /FEN "W:W55:B3"/ 2. 33-29 *')
    assert codes(issues) == ["E10"] and not result.completed


def test_black_to_move_from_fen() -> None:
    _, result, issues = run('[FEN "B:W33:B3"]\n' + G + "1... 3-8 2. 33-29 *")
    assert issues == [] and result.completed and result.final_fen == "B:W29:B8"


def test_invalid_fen_tag_is_e10_and_not_replayed() -> None:
    game, result, issues = run('[FEN "W:W55:B3"]\n' + G + "1. 33-29 *")
    assert codes(issues) == ["E10"] and not result.replayed
    fen_tag = game.tags[0]
    assert (issues[0].line, issues[0].column) == (fen_tag.line, fen_tag.column)


def test_w28_variant_without_profile() -> None:
    # Spanish draughts (GameType 24) is in the GameType table but has no rule profile.
    game, result, issues = run('[GameType "24"]\n1. 9-13 24-20 *')
    # The reader already says it (W28); the replay adds nothing and replays nothing.
    assert codes(game.issues) == ["W28"] and issues == [] and not result.replayed


def test_8x8_variants_replay_by_gametype() -> None:
    _, result, issues = run('[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 *')
    assert issues == [] and result.completed and result.final_fen.startswith("B:")
    # Italian numbering on the turned board: White starts from 21-24 towards 17-20.
    _, result, issues = run('[GameType "22,W,8,8,N2,1"]\n1. 21-17 12-15 2. 22-18 *')
    assert issues == [] and result.completed
    # Algebraic squares and ':' captures in Russian; numeric squares are read too.
    _, result, issues = run('[GameType "25"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. 21-17 *')
    assert issues == [] and result.completed
    assert [m.text for m in result.moves][:3] == ["22-18", "11-15", "18:11"]
    _, result, issues = run('[GameType "29"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *')
    assert issues == [] and result.completed
    # Czech men do not capture backwards: a backward capture is an illegal move.
    _, result, issues = run('[GameType "29"]\n[FEN "W:W18:B22"]\n1. 18x25 *')
    assert codes(issues)[0].startswith("E")


def test_profile_option_replaces_gametype_20() -> None:
    text = '[GameType "20"]\n[FEN "W:WK25:B14,44"]\n1. 25x3 *'
    _, result, issues = run(text)
    assert issues == [] and result.completed
    _, result, issues = run(text, variant="short-landing")
    assert issues and issues[0].code.startswith("E")


def test_unknown_variant_uses_option() -> None:
    text = '[FEN "W:W29:B3"]\n1. 29-24 *'
    _, result, _ = run(text)
    assert not result.replayed
    _, result, issues = run(text, variant="international")
    assert result.completed and issues == []


def test_w32_result_contradicts_lost_position() -> None:
    _, result, issues = run('[Result "1-1"]\n[FEN "W:W28:B23"]\n' + G + "1. 28x19 1-1")
    assert "W32" in codes(issues) and "has lost" in issues[0].message
    assert result.final_side_has_moves is False
    _, _, issues = run('[Result "2-0"]\n[FEN "W:W28:B23"]\n' + G + "1. 28x19 2-0")
    assert issues == []


def test_w32_plycount() -> None:
    _, _, issues = run('[PlyCount "5"]\n' + G + "1. 32-28 19-23 *")
    assert codes(issues) == ["W32"] and "PlyCount 5" in issues[0].message


def _game(fen: str, first: list[str], cycle: list[str], plies: int) -> str:
    """A record from *fen* (White to move): the *first* moves, then *cycle* repeated."""
    moves = first + [cycle[i % len(cycle)] for i in range(plies)]
    out: list[str] = []
    for i, move in enumerate(moves):
        if i % 2 == 0:
            out.append(f"{i // 2 + 1}.")
        out.append(move)
    return f'[FEN "{fen}"]\n' + G + " ".join(out) + " *"


def draws(result: ReplayResult) -> list[tuple[str, int]]:
    """The draw events as (rule, ply)."""
    return [(d["rule"], d["ply"]) for d in result.draws]


def test_threefold_repetition_at_exact_ply() -> None:
    text = _game("W:WK47,K50:BK1,K4", [], ["47-42", "1-7", "42-47", "7-1"], 10)
    _, result, issues = run(text)
    assert draws(result) == [("threefold", 8)]
    assert [(i.code, i.ply, i.level.value) for i in issues] == [("W36", 9, "info")]
    assert "third time" in result.draws[0]["article"]
    assert result.continued_after_draw == 9
    # IP-03 off: the set-up position is not the first occurrence.
    _, result, _ = run(text, ip03_setup_counts_for_repetition=False)
    assert draws(result) == [("threefold", 9)]


def test_25_move_rule_counts_from_the_last_man_move() -> None:
    text = _game("W:WK47,K50,35:BK1,K4", ["35-30"], ["1-7", "47-42", "7-1", "42-47"], 52)
    _, result, issues = run(text)
    assert draws(result) == [("threefold", 9), ("25-move", 51)]
    assert [(i.code, i.ply) for i in issues] == [("W36", 10)]


def test_16_move_rule() -> None:
    text = _game("W:WK47,K48,K49:BK5", [], ["49-44", "5-10", "44-49", "10-5"], 34)
    _, result, _ = run(text)
    assert draws(result) == [("threefold", 8), ("16-move", 32)]


def test_5_move_rule_from_start_and_from_a_capture() -> None:
    text = _game("W:WK47,K48:BK5", [], ["48-43", "5-10", "43-48", "10-5"], 12)
    _, result, _ = run(text)
    assert ("5-move", 10) in draws(result)
    # The capture on ply 1 creates K+M v K: ply 1 is not counted, the limit is ply 11.
    text = _game("W:WK47,33:BK5,28", ["33x22"], ["5-10", "47-42", "10-5", "42-47"], 12)
    _, result, _ = run(text)
    assert draws(result) == [("threefold", 9), ("5-move", 11)]


def test_no_draw_when_the_limit_move_wins() -> None:
    # 2K v K: White's 10th ply captures the lone king: a win, not a 5-move draw.
    moves = ["48-43", "5-10", "43-48", "10-5", "48-43", "5-10", "43-48", "10-5", "48-43"]
    text = _game("W:WK47,K48:BK5", moves, [], 0)
    game = read_string(text)[0]
    result = replay_game(game)
    assert ("5-move", 10) not in draws(result)


def test_draw_tracking_can_be_switched_off() -> None:
    text = _game("W:WK47,K50:BK1,K4", [], ["47-42", "1-7", "42-47", "7-1"], 10)
    _, result, _ = run(text, draws=False)
    assert result.draws == []


def test_uncertain_variant_inference() -> None:
    # No GameType, a FEN and squares that fit 8x8: the reader's 10x10 guess is weak.
    _, result, issues = run('[FEN "W:W32:B3"]\n1. 32-27 3-8 *')
    assert result.replayed and result.completed and issues == []
    # Its errors would be false errors: dropped, and W40 says the game was not checked.
    _, result, issues = run('[FEN "W:W32:B3"]\n1. 32-27 3-7 *')
    assert not result.replayed and result.skipped and codes(issues) == ["W40"]
    assert "guessed as international" in issues[0].message
    assert (issues[0].line, issues[0].column, issues[0].ply) == (1, 1, None)


def test_a_game_nothing_checks_is_never_clean() -> None:
    # No GameType, and neither the set-up nor the moves tell the variant: every square
    # is on both boards (a square above 32 would make it international), and the first
    # move is no 8x8 first mover's.
    fen = '[FEN "W:W27,29,32:B3,4,6,7,8,10,15,11,12,13,14,16,18,21"]'
    game, result, issues = run(f"{fen}\n\n1. 29-23 18x29 *")
    assert game.variant == "unknown" and not result.replayed
    assert codes(issues) == ["W40"] and issues[0].level.value == "warning"
    assert "variant is unknown" in issues[0].message and "--variant" in issues[0].message
    # given the variant, it replays; a record without a move has nothing to check
    _, result, issues = run(f"{fen}\n\n1. 29-23 18x29 *", variant="international")
    assert result.replayed and result.completed and issues == []


def test_w40_after_a_refuted_guess_names_the_variants_that_fit(corpus: Path) -> None:
    # Algebraic squares make the reader guess Russian, which Brazilian and Czech
    # writers use too; a capture none of them has leaves no variant to name.
    _, result, issues = run("1. c3-b4 f6-g5 2. b4-a5 g5-h4 *")
    assert result.replayed and issues == []
    _, result, issues = run("1. c3-b4 f6-g5 2. b4-a5 g5-h4 3. g3xe5 *")
    assert not result.replayed and codes(issues) == ["W40"]
    assert "guessed as russian" in issues[0].message
    assert "replays without error as" not in issues[0].message
    # A Czech team championship's game, written without GameType: not Russian, and
    # both Brazilian and Czech replay it, so neither decides (W64); W40 names both.
    game = list(read_games(corpus / "wiegerw__pdn" / "fail" / "mrdrcd07.pdn"))[5]
    before = len(game.issues)
    result = replay_game(game)
    (w40,) = game.issues[before:]
    assert not result.replayed and w40.code == "W40" and w40.line == game.span.start_line
    assert "as brazilian (GameType 26) or czech (GameType 29)" in w40.message


def test_ip01_capture_inside_the_16_move_window() -> None:
    # 3K v K from the start; on ply 26 the lone king takes a king: 2K v K.
    cycle = ["49-44", "5-10", "44-49", "10-5"]
    first = [cycle[i % 4] for i in range(24)] + ["47-41", "5x46"]
    text = _game("W:WK47,K48,K49:BK5", first, ["49-44", "46-41", "44-49", "41-46"], 12)
    # (A, default) the earlier of the running 16-move limit (ply 32) and 26 + 10.
    _, result, issues = run(text)
    assert draws(result) == [("threefold", 8), ("16-move", 32)]
    assert [(i.code, i.ply) for i in issues] == [("W36", 9)]
    # (B) a fresh 5-move count only.
    _, result, _ = run(text, ip01_capture_in_16_window="fresh")
    assert draws(result) == [("threefold", 8), ("5-move", 36)]


def test_ip02_promotion_inside_the_16_move_class() -> None:
    # K+2M v K from the start; the man on 7 is crowned on ply 1 (2K+M v K).
    moves = ["47-42", "10-5", "42-47", "5-10"]
    text = _game("W:WK47,7,45:BK5", ["7-2", "5-10"], moves, 32)
    # Default: the class did not change, the count runs from the start (ply 32).
    _, result, issues = run(text)
    assert draws(result) == [("threefold", 9), ("16-move", 32)]
    assert [(i.code, i.ply) for i in issues] == [("W36", 10)]
    # Option: the promotion restarts the count (ply 1 + 32).
    _, result, _ = run(text, ip02_promotion_restarts_16=True)
    assert draws(result) == [("threefold", 9), ("16-move", 33)]


def test_repair_hint_superfluous_move() -> None:
    _, _, issues = run(G + "1. 32-28 19-23 2. 28x19 33-29 14x23 3. 37-32 *")
    assert [i.code for i in issues if i.code.startswith("E")] == ["E05"]
    assert "superfluous" in next(i for i in issues if i.code == "E05").message


def test_move_after_the_game_ended() -> None:
    _, result, issues = run('[FEN "W:W28:B23"]\n' + G + "1. 28x19 2-7 *")
    assert codes(issues) == ["E05"] and "game is over" in issues[0].message
    assert result.plies == 1 and not result.completed


def test_w26_tolerated_fen_irregularity() -> None:
    _, result, issues = run('[FEN "W:W33:B3."]\n' + G + "1. 33-29 *")
    assert codes(issues) == ["W26"] and result.completed


def test_issue_positions_and_written_move() -> None:
    game, _, issues = run(G + "1. 32-28 19-23\n2. 28x18 *")
    assert (issues[0].line, issues[0].column, issues[0].move) == (3, 4, "28x18")
    assert issues[0] in game.issues


def test_e09_squares_of_a_capture_out_of_order() -> None:
    # Horizon engine logs write king paths scrambled (``24x15x29x47`` for 47x29x15).
    _, _, issues = run('[FEN "W:W28,45:B23,14,40"]\n' + G + "1. 19x10x28 *")
    assert codes(issues) == ["E09"] and "legal capture 28x19x10" in issues[0].message
    assert "in another order" in issues[0].message


def test_fragment_without_fen_is_explained() -> None:
    _, _, issues = run(G + "9. 37-31 26x37 *")
    error = next(i for i in issues if i.code == "E05")
    assert "starts at move 9 without a FEN tag" in error.message


def test_setup_after_an_illegal_move_resumes_replay() -> None:
    # pdn-format.md §8.4: a set-up records an irregular move played over the board.
    text = G + '1. 32-28 19-23 2. 33-27 /FEN "B:W28,40:B23"/ 2... 23x32 *'
    _, result, issues = run(text)
    assert codes(issues) == ["E05"]
    assert result.stop is not None and result.stop.ply == 3 and not result.completed
    assert result.final_fen == "W:W40:B32"


def test_repair_searches_are_bounded() -> None:
    text = G + "1. 32-28 19-23 2. 28x18 14x23 3. 33-28 *"
    _, _, issues = run(text, max_repair_searches=0)
    assert codes(issues) == ["E05"] and "did you mean" not in issues[0].message
    _, _, issues = run(text, repair_hints=False)
    assert "did you mean" not in issues[0].message


def test_draw_conditions_inside_a_variation_are_reported_and_marked() -> None:
    # Main line: 1. 47-42 1-7 2. 42-47 7-1 3. 50-45; the variation replaces 3. 50-45 by
    # 3. 47-42, reaching the start position a third time at ply 8, then plays on.
    fen = "W:WK47,K50:BK1,K4"
    text = (
        f'[FEN "{fen}"]\n' + G + "1. 47-42 1-7 2. 42-47 7-1 "
        "3. 50-45 (3. 47-42 1-7 4. 42-47 7-1 5. 50-45) 4-9 *"
    )
    _, result, issues = run(text)
    assert result.completed and result.plies == 6
    main = [d for d in result.draws if not d.get("in_variation")]
    inside = [d for d in result.draws if d.get("in_variation")]
    assert main == []
    assert [(d["rule"], d["ply"]) for d in inside] == [("threefold", 8)]
    event = inside[0]
    assert (event["line"], event["column"]) == (3, text.splitlines()[2].index("7-1 5.") + 1)
    assert result.continued_after_draw is None
    w36 = [i for i in issues if i.code == "W36"]
    assert [(i.ply, i.in_variation, i.move) for i in w36] == [(9, True, "50-45")]


def _shuffle(first: tuple[str, str], second: tuple[str, str], rounds: int) -> str:
    """Movetext of two kings going back and forth: 4 plies per round."""
    out = []
    for i in range(rounds):
        out.append(f"{2 * i + 1}. {first[0]} {second[0]} {2 * i + 2}. {first[1]} {second[1]}")
    return " ".join(out)


def _rules_fired(result: ReplayResult) -> dict[str, int]:
    return {event["rule"]: event["ply"] for event in result.draws}


def test_english_40_move_rule() -> None:
    moves = _shuffle(("1-5", "5-1"), ("32-28", "28-32"), 20)
    _, result, _ = run(f'[GameType "21"]\n[FEN "B:WK32:BK1"]\n{moves} *')
    assert result.completed and _rules_fired(result) == {"threefold": 8, "40-move": 80}


def test_italian_has_no_king_move_rule() -> None:
    moves = _shuffle(("29-25", "25-29"), ("4-8", "8-4"), 13)
    _, result, _ = run(f'[GameType "22"]\n[FEN "W:WK29:BK4"]\n{moves} *')
    assert result.completed and _rules_fired(result) == {"threefold": 8}


def test_russian_three_kings_and_15_move_rules() -> None:
    moves = _shuffle(("30-26", "26-30"), ("1-5", "5-1"), 8)
    _, result, _ = run(f'[GameType "25"]\n[FEN "W:WK29,K30,K31:BK1"]\n{moves} *')
    fired = _rules_fired(result)
    assert result.completed and fired == {"threefold": 8, "3-kings": 30, "15-move": 30}


def test_short_landing_two_kings_against_one_is_drawn_at_once() -> None:
    text = '[GameType "20"]\n[FEN "W:WK46,K5:BK41,K30"]\n1. 46x37 *'
    _, result, issues = run(text, variant="short-landing")
    assert issues == [] and _rules_fired(result) == {"2-kings": 1}
    _, result, issues = run(text)
    assert _rules_fired(result) == {}


def test_two_kings_against_one_at_the_start_position_is_drawn_at_ply_0() -> None:
    # The house rule's allowance is 0 plies: the start position is drawn already.
    text = '[GameType "20"]\n[FEN "W:WK47,K49:BK1"]\n1. 47-42 1-6 *'
    _, result, issues = run(text, variant="short-landing")
    assert _rules_fired(result) == {"2-kings": 0}
    assert result.continued_after_draw == 1
    assert [(i.code, i.ply) for i in issues] == [("W36", 1)]
    # FMJD rules have no such rule: the same record is no draw at ply 0.
    _, result, _ = run(text)
    assert "2-kings" not in _rules_fired(result)


def test_two_kings_against_one_at_an_in_game_setup_is_drawn_at_its_ply() -> None:
    text = '[GameType "20"]\n1. 32-28 19-23 /FEN "W:WK47,K49:BK1"/ 2. 47-42 1-6 *'
    _, result, issues = run(text, variant="short-landing")
    assert _rules_fired(result) == {"2-kings": 2}
    assert [(i.code, i.ply) for i in issues] == [("W36", 3)]
    # Inside a variation, the event carries the set-up's place.
    text = '[GameType "20"]\n1. 32-28 19-23 (1... 18-23 /FEN "W:WK47,K49:BK1"/ 2. 47-42) *'
    _, result, _ = run(text, variant="short-landing")
    [event] = result.draws
    assert (event["rule"], event["ply"], event.get("in_variation")) == ("2-kings", 2, True)
    assert event["column"] == text.splitlines()[1].index("/FEN") + 1


def test_no_draw_at_the_start_when_the_side_to_move_has_lost() -> None:
    # Win beats draw, at ply 0 too: the black king on 5 can move (drawn at once) ...
    _, result, _ = run('[GameType "20"]\n[FEN "B:WK47,K49:BK5"]\n*', variant="short-landing")
    assert _rules_fired(result) == {"2-kings": 0}
    # ... the one on 46, hemmed in by kings it cannot take, cannot: Black has lost.
    _, result, _ = run('[GameType "20"]\n[FEN "B:WK37,K41:BK46"]\n*', variant="short-landing")
    assert result.final_side_has_moves is False and _rules_fired(result) == {}


#: A white king goes 46-41-37-46 (three plies of White) while a black king goes
#: 1-7-1: the whole board comes back every six plies with the other side to move.
TRIANGLE = (
    "1. 46-41 1-7 2. 41-37 7-1 3. 37-46 1-7 4. 46-41 7-1 5. 41-37 1-7 6. 37-46 7-1 7. 46-41 1-7 *"
)


@pytest.mark.parametrize("variant", ["itsyourturn", "itsyourturn-polish", "iyt"])
def test_itsyourturn_repetition_ignores_the_side_to_move(variant: str) -> None:
    text = f'[GameType "20"]\n[FEN "W:WK46,48,49:BK1,3,4"]\n{TRIANGLE}'
    _, result, _ = run(text, variant=variant)
    assert _rules_fired(result) == {"threefold": 12}
    assert "whoever is to move" in result.draws[0]["article"]
    # Under FMJD rules the same placement with the other side to move is another
    # position: no threefold repetition within these 14 plies.
    _, result, _ = run(text)
    assert _rules_fired(result) == {}


def test_ip04_option_overrides_the_variant_either_way() -> None:
    text = f'[GameType "20"]\n[FEN "W:WK46,48,49:BK1,3,4"]\n{TRIANGLE}'
    _, result, _ = run(text, ip04_repetition_includes_side_to_move=False)
    assert _rules_fired(result) == {"threefold": 12}
    _, result, _ = run(text, variant="itsyourturn", ip04_repetition_includes_side_to_move=True)
    assert _rules_fired(result) == {}


RUSSIAN_TRIANGLE = (
    "1. 29-25 1-5 2. 25-22 5-1 3. 22-29 1-5 4. 29-25 5-1 5. 25-22 1-5 6. 22-29 5-1 7. 29-25 1-5 *"
)


def test_itsyourturn_russian_replaces_russian_records_only() -> None:
    text = f'[GameType "25"]\n[FEN "W:WK29,31,32:BK1,3,4"]\n{RUSSIAN_TRIANGLE}'
    _, result, _ = run(text, variant="itsyourturn-russian")
    assert _rules_fired(result) == {"threefold": 12}
    _, result, _ = run(text)
    assert _rules_fired(result) == {}
    # A profile over international or Russian leaves other variants' records alone:
    # an English record keeps English rules (Black moves first) ...
    english = '[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 *'
    _, result, issues = run(english, variant="itsyourturn-russian")
    assert result.completed and issues == []
    # ... and a Frisian record its orthogonal captures.
    _, result, issues = run('[GameType "40"]\n' + FRISIAN_MOVES, variant="short-landing")
    assert result.completed and issues == []


FRISIAN_MOVES = (
    "1. 33-29 17-22 2. 34-30 11-17 3. 29-24 14x25 4. 38-33 20-24 5. 31-26 19-23 "
    "6. 33-28 18x27 7. 26x30 25x34 8. 44x24 7-11 *"
)


def test_the_one_variant_a_tagless_record_fits_decides() -> None:
    # A Frisian game without its GameType tag is inferred as international; its
    # capture 14x25 (14x34x25: straight down a column over 24, then over 30) is
    # illegal there (E05 at ply 6), and Frisian alone of the 10x10 variants replays
    # it: Frisian decides, said in W64 after the reader's guess (W27).
    game, result, issues = run(FRISIAN_MOVES)
    assert game.variant == "frisian" and result.completed and result.variant == "frisian"
    assert codes(issues) == ["W64"]
    assert "E05 at ply 6" in issues[0].message and "GameType 40" in issues[0].message
    assert [i.code for i in game.issues if i.code in ("W27", "W64")] == ["W27", "W64"]
    # W27 names the variant the game is read as, not the refuted guess.
    (w27,) = [i for i in game.issues if i.code == "W27"]
    assert "inferred as frisian" in w27.message and "inferred as international" not in w27.message
    # With the tag the same moves are legal, and nothing is said.
    _, result, issues = run('[GameType "40"]\n' + FRISIAN_MOVES)
    assert result.completed and issues == []


def test_no_w37_when_no_other_variant_fits_or_the_gametype_is_given() -> None:
    # Swapped squares are illegal under every rule set: the error stands alone.
    _, _, issues = run("1. 34-30 20-25 2. 39-34 19-23 3. 39-43 23-29 *")
    assert "E05" in codes(issues) and "W37" not in codes(issues)
    # A GameType tag is the record's own statement: no second guess.
    _, _, issues = run(G + FRISIAN_MOVES)
    assert "W37" not in codes(issues) and any(i.level.value == "error" for i in issues)


def test_export_resolves_moves_under_the_profile_the_replay_used() -> None:
    from pdn_tools.replay.resolve import game_variant

    def name(text: str, option: str | None) -> str | None:
        variant = game_variant(read_string(text)[0], option)
        return None if variant is None else variant.name

    assert name('[GameType "20"]\n1. 32-28 *', "itsyourturn") == "itsyourturn"
    assert name('[GameType "21"]\n1. 11-15 *', "itsyourturn-russian") == "english"
    assert name("*", "itsyourturn-italian") == "itsyourturn-italian"
    assert name("*", None) is None


def test_replayed_move_records_are_values_of_their_fields() -> None:
    text = G + "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 *"
    game, result, _ = run(text)
    assert [r.node for r in result.moves] == list(game.mainline())
    for record in result.moves:
        ply, node, move, written, merged = record  # unpacks into its five fields
        twin = ReplayedMove(ply, node, move, written, merged)
        assert twin == record and hash(twin) == hash(record)
        assert (
            repr(twin)
            == repr(record)
            == (
                f"ReplayedMove(ply={ply!r}, node={node!r}, move={move!r}, "
                f"text={written!r}, merged={merged!r})"
            )
        )
        assert ReplayedMove(ply + 1, node, move, written) != record
        assert record != (ply, node, move, written, merged)  # not a tuple


def test_a_missing_terminator_between_tagless_games_is_named_not_mended() -> None:
    """Two tagless games separated by a blank line only are read as one; the second's
    first move is illegal where the first ended.  The numbers restart at '1.' and the
    moves from there replay from the start: the error says a terminator is probably
    missing (W80 marks the place) instead of proposing a mis-recorded move."""
    _, result, issues = run("1. 32-28 19-23\n\n1. 31-27 17-21 *\n")
    assert codes(issues) == ["W33", "W80", "E06"]
    _, w80, error = issues
    assert (w80.line, w80.column, w80.ply) == (error.line, error.column, error.ply) == (3, 4, 3)
    assert w80.level.value == "warning" and "a terminator (a result or '*') is probably" in (
        w80.message
    )
    assert "the move numbers restart at '1.' on line 3" in error.message
    assert "a terminator is probably missing before it (W80)" in error.message
    assert "mis-recorded" not in error.message and error.repair is None
    assert result.repairs == {} and result.stop is not None and result.stop.ply == 3
    # A first game of one ply: its '1.' comes back where Black is to move; no move of
    # Black is missing.
    _, _, issues = run("1. 32-28\n\n1. 31-27 17-21 *\n")
    assert codes(issues) == ["W33", "W80", "E05"] and issues[1].ply == 2
    assert "terminator is probably missing" in issues[2].message
    assert "seems to be missing" not in issues[2].message and issues[2].repair is None


def test_a_restart_that_goes_on_legally_from_the_start_is_w80_without_error() -> None:
    _, result, issues = run(G + "1. 32-28 19-23 2. 28x19 14x23 1. 34-30 16-21 *")
    assert codes(issues) == ["W33", "W80"] and issues[1].ply == 5
    assert result.completed


def test_numbers_that_restart_while_the_game_goes_on_are_only_w33() -> None:
    """Some programs number a long game's moves from 1 again: the moves go on from the
    game's position and do not replay from the start, so no terminator is missing."""
    _, result, issues = run(G + "1. 32-28 19-23 2. 28x19 14x23 1. 37-32 16-21 *")
    assert codes(issues) == ["W33"] and result.completed
    # An illegal move after such a restart keeps its search for the mis-recorded move.
    _, _, issues = run(G + "1. 32-28 19-23 2. 28x19 14x23 1. 37-32 16-21 2. 32-27 21-27 *")
    assert codes(issues) == ["W33", "E05"] and "did you mean 21x32" in issues[1].message
    # In a variation, numbers are the variation's own business.
    _, _, issues = run(G + "1. 32-28 19-23 2. 28x19 14x23 (2... 13x24 1. 34-30 16-21) 3. 33-28 *")
    assert codes(issues) == ["W33"] and issues[0].in_variation


def test_real_records_whose_numbers_restart_keep_their_verdicts(corpus: Path) -> None:
    """BoomstraDam's old files number a long game's moves from 1 again and go on: W33,
    never a missing terminator."""
    folder = corpus / "rhalbersma__horizon" / "BoomstraDam" / "pdn files" / "oud"
    if not folder.is_dir():
        pytest.skip(f"{folder} is not in this copy of the shared corpus")
    for name in ("row-scr.pdn", "test2.pdn", "test2c.pdn"):
        (game,) = list(read_games(str(folder / name)))
        result = replay_game(game)
        found = codes(game.issues)
        assert "W33" in found and "W80" not in found and result.completed, name


def _ending(result: str, plies: int, fen: str = "W:WK47,K50:BK1,K4") -> str:
    """The threefold cycle of :func:`test_threefold_repetition_at_exact_ply`, *plies*
    long, with *result* in the tag and as the terminator."""
    text = _game(fen, [], ["47-42", "1-7", "42-47", "7-1"], plies)
    return f'[Result "{result}"]\n' + text[: -len("*")] + result


@pytest.mark.parametrize("result", ["2-0", "0-2"])
def test_w82_a_winner_named_where_the_last_move_drew(result: str) -> None:
    """Threefold repetition holds after ply 8, the last: a result naming either side
    the winner is W82 (info), once, at the Result tag; a draw, an unknown result or one
    more move is not."""
    _, replayed, issues = run(_ending(result, 8))
    assert draws(replayed) == [("threefold", 8)]
    [finding] = [i for i in issues if i.code == "W82"]
    assert (finding.line, finding.column, finding.level.value) == (1, 1, "info")
    winner = "White" if result == "2-0" else "Black"
    assert f"says {winner} won" in finding.message
    assert "threefold repetition held" in finding.message and "(ply 8)" in finding.message
    for other in ("1-1", "*"):
        assert "W82" not in codes(run(_ending(other, 8))[2])
    # Seven plies: no condition yet; nine: play went on after it (W36, not W82).
    assert codes(run(_ending(result, 7))[2]) == []
    assert codes(run(_ending(result, 9))[2]) == ["W36"]


def test_w82_names_the_5_move_rule() -> None:
    """The 5-move rule (two kings against one) at its limit, then a win: W82."""
    text = (
        '[GameType "20"]\n[FEN "W:WK46,K50:BK3"]\n[Result "2-0"]\n'
        "1. 46-41 3-21 2. 50-45 21-16 3. 45-12 16-43 4. 41-23 43-25 5. 23-46 25-3 2-0"
    )
    _, replayed, issues = run(text)
    assert ("5-move", 10) in draws(replayed)
    [finding] = [i for i in issues if i.code == "W82"]
    assert "the 5-move rule held" in finding.message
