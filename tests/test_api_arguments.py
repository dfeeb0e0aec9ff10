"""What the API does with the values a caller gives it: variant names, boards as keys,
moves of other positions, a FEN whose side to move is unknown.

A caller's mistake is refused where it is made, with an exception that says what was
wrong; it never turns into a different verdict on the games.
"""

from __future__ import annotations

import io
import itertools
import random
from pathlib import Path

import pytest
from cli_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

import pdn_tools
from pdn_tools import Board, FenError, IllegalMoveError, ReadOptions, UnknownVariantError
from pdn_tools.replay import ReplayOptions
from pdn_tools.rules import parse_fen, variant_by_name, variants

ENGLISH_GAME = "1. 11-15 23-19 2. 8-11 22-17 *"
KNOWN = {v.name for v in variants()} | {a for v in variants() for a in v.aliases}


# -- unknown variant names -------------------------------------------------------------
def test_a_misspelt_variant_is_refused_not_read_without_replay() -> None:
    with pytest.raises(UnknownVariantError) as raised:
        pdn_tools.validate_string(ENGLISH_GAME, variant="englsh")
    error = raised.value
    # Both families: old `except KeyError` callers and `except ValueError` ones.
    assert isinstance(error, KeyError) and isinstance(error, ValueError)
    message = str(error)
    assert message.startswith("unknown variant 'englsh'; known: international (20)")
    for variant in variants():
        assert variant.name in message


def test_the_api_refuses_in_the_words_of_the_command_line(tmp_path: Path) -> None:
    sample = tmp_path / "game.pdn"
    sample.write_text(ENGLISH_GAME + "\n", encoding="utf-8")
    with pytest.raises(UnknownVariantError) as raised:
        variant_by_name("klingon")
    result = run("validate", str(sample), "--variant", "klingon")
    assert result.returncode == 2
    assert str(raised.value) in " ".join(result.stderr.split())


def test_validate_refuses_when_called_before_anything_is_read(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-file.pdn"
    # Not a generator that fails on first use: the call itself raises (the missing
    # file would raise FileNotFoundError only when games are asked for).
    with pytest.raises(UnknownVariantError):
        pdn_tools.validate(missing, variant="englsh")
    with pytest.raises(UnknownVariantError):
        pdn_tools.replay.validate(missing, variant="englsh")
    with pytest.raises(TypeError):
        pdn_tools.validate(missing, no_such_rule=True)
    games = pdn_tools.validate(missing, variant="english")
    with pytest.raises(FileNotFoundError):
        next(games)


def test_options_objects_refuse_and_name_the_variant() -> None:
    with pytest.raises(UnknownVariantError):
        ReadOptions(variant="englsh")
    with pytest.raises(UnknownVariantError):
        ReplayOptions(variant="englsh")
    assert ReadOptions(variant="21").variant == "english"
    assert ReplayOptions(variant=" Checkers ").variant == "english"
    assert ReadOptions().variant is None and ReplayOptions().variant is None


@pytest.mark.parametrize("given_as", ["english", "English", "21", "checkers", "AMERICAN"])
def test_an_alias_replays_as_the_variant_it_names(given_as: str) -> None:
    game = pdn_tools.validate_string(ENGLISH_GAME, variant=given_as)[0]
    assert game.variant == "english"
    assert game.status == "ok" and [i.code for i in game.issues] == []
    assert game.to_json()["variant"] == "english"
    read = next(
        pdn_tools.read_games(io.BytesIO(ENGLISH_GAME.encode()), ReadOptions(variant=given_as))
    )
    assert read.variant == "english"


@pytest.mark.parametrize("variant", list(variants()))
def test_the_functions_take_the_gametype_number_in_both_builds(
    variant: pdn_tools.Variant, tmp_path: Path
) -> None:
    # validate() and validate_string() name a GameType number's variant first: the
    # compiled options objects hold text only, and a number worked in one build only.
    if variant.gametype is None:
        return
    text = '[Event "n"]\n*\n'
    by_number = pdn_tools.validate_string(text, variant=variant.gametype)[0]
    by_name = pdn_tools.validate_string(text, variant=variant.name)[0]
    assert by_number.variant == by_name.variant == variant.name
    assert by_number.to_json() == by_name.to_json()
    path = tmp_path / "n.pdn"
    path.write_text(text)
    assert next(pdn_tools.validate(path, variant=variant.gametype)).variant == variant.name


def test_the_options_objects_refuse_a_number_alike_in_both_builds() -> None:
    for make in (ReadOptions, ReplayOptions):
        # The message is the build's own: mypyc checks the field's type before the
        # class's checks run; the pure build names the variant option.
        with pytest.raises(TypeError):
            make(variant=21)  # type: ignore[arg-type]
    with pytest.raises(UnknownVariantError):
        pdn_tools.validate_string("*", variant=99)


def test_a_game_filter_takes_the_names_of_variants_and_refuses_unknown_ones() -> None:
    from pdn_tools.collection.filters import GameFilter

    assert GameFilter(variants=("English", "20", "checkers")).variants == (
        "english",
        "international",
        "english",
    )
    with pytest.raises(UnknownVariantError):
        GameFilter(variants=("internatonal",))
    game = pdn_tools.validate_string(ENGLISH_GAME, variant="english")[0]
    replay = game.replay_state.result  # type: ignore[union-attr]
    assert GameFilter(variants=("21",)).matches(game, replay, game.issues)
    assert not GameFilter(variants=("20",)).matches(game, replay, game.issues)


def test_a_gametype_without_rules_read_from_a_file_stays_a_finding() -> None:
    # Spanish (24) has no rule profile: a fact about the file, not a caller's mistake.
    game = pdn_tools.validate_string('[GameType "24"]\n1. 11-15 23-19 *', variant="english")[0]
    assert [i.code for i in game.issues] == ["W28"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_only_known_names_are_taken(name: str) -> None:
    if name.strip().lower() in KNOWN:
        assert variant_by_name(name).name in {v.name for v in variants()}
    else:
        with pytest.raises(UnknownVariantError):
            variant_by_name(name)
        with pytest.raises(UnknownVariantError):
            ReplayOptions(variant=name)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(KNOWN)), st.randoms(use_true_random=False))
def test_every_spelling_of_a_name_is_the_same_variant(name: str, rng: random.Random) -> None:
    spelt = "".join(c.upper() if rng.random() < 0.5 else c for c in name)
    assert variant_by_name(f" {spelt} ") is variant_by_name(name)
    assert ReplayOptions(variant=spelt).variant == variant_by_name(name).name


# -- a GameType number as an int -------------------------------------------------------
@pytest.mark.parametrize("variant", [v for v in variants() if v.gametype is not None])
def test_a_board_takes_the_gametype_number_as_int_or_text(variant: pdn_tools.Variant) -> None:
    number = variant.gametype
    assert number is not None
    assert Board(variant=number) == Board(variant=str(number))
    assert Board(variant=number).variant is variant
    assert Board.from_fen(Board(variant).fen(), number).variant is variant


def test_a_board_refuses_an_unknown_number_and_other_types() -> None:
    with pytest.raises(UnknownVariantError, match="unknown variant 99; known:"):
        Board(variant=99)
    with pytest.raises(TypeError):
        Board(variant=True)
    with pytest.raises(TypeError):
        Board(variant=20.0)  # type: ignore[arg-type]


# -- boards are not keys ---------------------------------------------------------------
def test_a_board_is_not_hashable_its_position_is() -> None:
    board = Board()
    with pytest.raises(TypeError, match="unhashable"):
        hash(board)
    with pytest.raises(TypeError):
        {board}  # noqa: B018
    start = board.position
    seen = {start}
    board.push(board.legal_move_texts()[0])
    assert board.position not in seen
    board.pop()
    assert board.position in seen
    # Equality stays what the docs say: the same variant and position.
    assert Board() == Board() and Board() != Board(variant="russian")


# -- move text of a move of another position -------------------------------------------
def test_move_text_refuses_a_move_not_legal_in_the_position() -> None:
    capture = Board.from_fen("W:W32:B27,17").legal_moves[0]
    assert Board.from_fen("W:W32:B27,17").move_text(capture) == "32x12"
    with pytest.raises(IllegalMoveError, match="not a legal move in W:W31-50:B1-20"):
        Board().move_text(capture)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([v.name for v in variants()]),
    st.randoms(use_true_random=False),
    st.integers(min_value=0, max_value=30),
)
def test_move_text_names_exactly_the_legal_moves(name: str, rng: random.Random, plies: int) -> None:
    board = Board(variant=name)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    legal = board.legal_moves
    assert [board.move_text(m) for m in legal] == board.legal_move_texts()
    other = Board(variant=name)
    for move in other.legal_moves:
        if move not in legal:
            with pytest.raises(IllegalMoveError):
                board.move_text(move)
        else:
            assert board.parse_move(board.move_text(move)) == move


# -- a FEN whose side to move is unknown -----------------------------------------------
@pytest.mark.parametrize("fen", ["?:W32:B27", " ?:W32:B27,17", "?:B1-20:W31-50"])
def test_a_board_refuses_an_unknown_side_to_move(fen: str) -> None:
    with pytest.raises(FenError, match=r"unknown \('\?'\)"):
        Board.from_fen(fen)
    with pytest.raises(FenError, match=r"unknown \('\?'\)"):
        Board(fen)
    # The engine's reader still reads it and says the turn was not given.
    assert parse_fen(fen, variant_by_name("international")).turn_known is False


# -- plies: half-moves; ply slots: written moves ---------------------------------------
SPLIT_CAPTURE = (
    '[GameType "20"]\n[FEN "W:W32,45:B27,17,3,5"]\n'
    "1. 32x21 21x12 1... 3-9 2. 45-40 5-10 3. 40-35 10-15 4. 35-30 15-20 5. 30-25 20x24 *"
)


def test_a_capture_written_jump_by_jump_is_one_half_move() -> None:
    game = pdn_tools.validate_string(SPLIT_CAPTURE)[0]
    assert game.plies == game.to_json()["plies"] == 10
    assert game.ply_slots == 11
    # Findings keep counting ply slots, as node_at does: the tenth half-move is slot 11.
    assert [(i.code, i.ply) for i in game.issues] == [("W24", 1), ("W12", 11)]
    last = game.node_at(11).move
    assert last is not None and last.squares == ("20", "24")
    # Read but not replayed, every written jump counts; written back, one move.
    read = pdn_tools.read_string(SPLIT_CAPTURE)[0]
    assert read.plies == read.ply_slots == 11
    again = pdn_tools.validate_string(game.to_pdn())[0]
    assert again.plies == again.ply_slots == again.to_json()["plies"] == 10


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=60))
def test_plies_agree_with_the_json_when_captures_are_split(rng: random.Random, n: int) -> None:
    board = Board()
    written: list[str] = []
    for _ in range(n):
        if board.is_game_over():
            break
        move = rng.choice(board.legal_moves)
        path = rng.choice(sorted(move.paths))
        # Any route may be split, also one whose first jump is a whole move by itself
        # (a route back to its first landing square, or another route ending there).
        if move.captures and len(path) > 2 and rng.random() < 0.7:
            written += [f"{a}x{b}" for a, b in itertools.pairwise(path)]
        else:
            written.append(board.move_text(move))
        board.push(move)
    game = pdn_tools.validate_string('[GameType "20"]\n' + " ".join(written) + " *")[0]
    assert game.ply_slots == len(written)
    assert game.plies == game.to_json()["plies"] == len(board.move_stack)


# Black's 16x27x36x47x38x27 comes back to where its first jump lands: written jump by
# jump, its first jump "16x27" is also the whole capture's own short form.
CIRCULAR_OPENING = (
    "33-29 18-22 34-30 13-18 31-26 9-13 29-23 19x28 32x23 18x29 37-31 29-33 38x29 "
    "13-19 31-27 22x31 26x37 20-24 29x20 20x9 3x14 40-34 17-21 44-40 12-17 39-33 "
    "19-23 42-38 15-20 36-31 20-24 30x19 19x28 10-15 38-32 17-22 28x17 17x26 8-12 "
    "49-44 4-9 33-29 12-18 47-42 14-20 35-30 20-25 26-21 "
)
CIRCULAR_SPLIT = "16x27 27x36 36x47 47x38 38x27"
CIRCULAR_AFTER = " 44-39 5-10 30-24 25-30 34x25 27-31 37x26 7-12 *"


def test_a_capture_split_where_its_first_jump_is_the_whole_capture_is_merged() -> None:
    game = pdn_tools.validate_string(
        '[GameType "20"]\n' + CIRCULAR_OPENING + CIRCULAR_SPLIT + CIRCULAR_AFTER
    )[0]
    assert [i.code for i in game.issues if i.code != "W24"] == []
    merged = [i for i in game.issues if i.code == "W24" and CIRCULAR_SPLIT in i.message]
    assert len(merged) == 1 and merged[0].message.endswith("merged into 16x27")
    assert game.plies == 54 and game.ply_slots == 61  # four splits: 3 + 4 jumps more
    # The game ends where the same moves, the capture written whole, lead.
    whole = pdn_tools.validate_string(
        '[GameType "20"]\n' + CIRCULAR_OPENING + "16x27x36x47x38x27" + CIRCULAR_AFTER
    )[0]
    assert not [i for i in whole.issues if i.code != "W24"]
    assert game.end().board().fen() == whole.end().board().fen()


def test_a_slip_after_such_a_split_capture_is_found_through_it() -> None:
    # 34x25 written as 43x25 four plies after the merged capture: the hint replays the
    # whole game through the split capture.
    text = CIRCULAR_OPENING + CIRCULAR_SPLIT + CIRCULAR_AFTER.replace("34x25", "43x25")
    game = pdn_tools.validate_string('[GameType "20"]\n' + text)[0]
    errors = [i for i in game.issues if i.severity.name == "ERROR"]
    assert len(errors) == 1
    assert "did you mean 34x25" in errors[0].message
    assert "with it all 54 plies replay" in errors[0].message
