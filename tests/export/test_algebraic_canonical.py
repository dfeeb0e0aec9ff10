"""Canonical PDN of variants whose GameType names algebraic squares (Russian,
Brazilian, Czech, Turkish, pool with White first): moves, FEN tag and set-ups in
algebraic names, read back as the same game."""

from __future__ import annotations

import re

from export_helpers import converted, replay_facts, semantic_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn_tools.export.canonical import move_notation, write_canonical
from pdn_tools.pdn.gametype import BY_NAME, naming_value, square_notation
from pdn_tools.pdn.model import Game
from pdn_tools.replay.resolve import Resolution
from pdn_tools.rules import (
    Position,
    Variant,
    legal_moves,
    move_text,
    parse_fen,
    variant_by_name,
    write_fen,
)
from pdn_tools.rules.geometry import geometry_for

ALGEBRAIC = ("russian", "brazilian", "czech", "turkish", "unified-pool")
#: A square written in numbers: digits not glued to a letter.
RESULT_LIKE = re.compile(r"[0-2]-[0-2]")
NUMERIC_SQUARE = re.compile(r"(?<![A-Za-z0-9])[0-9]+(?![0-9.])")


def test_the_gametype_table_decides_the_notation() -> None:
    assert [square_notation(name) for name in ALGEBRAIC] == ["algebraic"] * 5
    for name in ("international", "english", "italian", "pool", "frisian", "unknown"):
        assert square_notation(name) == "numeric"
    assert square_notation("itsyourturn-russian") == "algebraic"  # its base variant's


def _moves(text: str) -> str:
    """The movetext of a one-game canonical *text*, without its terminator."""
    return text.split("\n\n", 1)[1].rsplit(" ", 1)[0]


def test_russian_moves_fen_and_setups_are_written_in_algebraic_squares() -> None:
    record = (
        '[GameType "25"]\n[FEN "W:W21,22,K30:B9-12"]\n[Result "*"]\n\n'
        '1. 21-17 /FEN "B:W21,22:B9,10"/ 9-14 *\n'
    )
    game, replay, resolution = converted(record)
    assert move_notation(game, resolution) == "algebraic"
    text = write_canonical(game, resolution)
    assert '[FEN "W:Wa3,c3,Kc1:Bb6,d6,f6,h6"]' in text
    assert _moves(text) == '1. a3-b4 /FEN "B:Wa3,c3:Bb6,d6"/ 1... b6-c5'
    again, replay2, resolution2 = converted(text)
    assert replay_facts(again, replay2) == replay_facts(game, replay)
    assert write_canonical(again, resolution2) == text


def test_an_algebraic_fen_is_kept_with_algebraic_moves() -> None:
    record = '[GameType "25"]\n[FEN "W:Wc3,e3:Bf6"]\n[Result "*"]\n\n1. c3-d4 f6-g5 2. e3-f4 *\n'
    game, replay, resolution = converted(record)
    text = write_canonical(game, resolution)
    assert text.endswith('[FEN "W:Wc3,e3:Bf6"]\n\n1. c3-d4 f6-g5 2. e3-f4 *\n')
    again, replay2, _ = converted(text)
    assert replay_facts(again, replay2) == replay_facts(game, replay)


def test_a_numeric_variant_writes_an_algebraic_fen_in_numbers() -> None:
    """English numbers its squares: a FEN in algebraic squares (W62) is written in
    numbers, as its moves are, and reads as the same position."""
    record = '[GameType "21"]\n[FEN "B:Wc3,e3:Bf6"]\n[Result "*"]\n\n1. 11-16 *\n'
    game, replay, resolution = converted(record)
    assert "W62" in [i.code for i in game.issues]
    text = write_canonical(game, resolution)
    assert '[FEN "B:W22,23:B11"]' in text
    again, replay2, _ = converted(text)
    assert replay_facts(again, replay2) == replay_facts(game, replay)


def test_an_invalid_fen_and_irregular_forms_stay_as_read() -> None:
    """A FEN that is no position (E10) keeps its squares; one with a form the reader
    reports (W26) keeps that form, its squares respelled."""
    bad = '[GameType "25"]\n[FEN "W:W21,40:B9"]\n[Result "*"]\n\n1. 21-17 *\n'
    game, _, resolution = converted(bad)
    assert '[FEN "W:W21,40:B9"]' in write_canonical(game, resolution)
    odd = '[GameType "25"]\n[FEN "W:W21,,22:B9:H0"]\n[Result "*"]\n\n1. 21-17 *\n'
    game, replay, resolution = converted(odd)
    text = write_canonical(game, resolution)
    assert '[FEN "W:Wa3,,c3:Bb6:H0"]' in text
    again, replay2, _ = converted(text)
    assert [i.code for i in again.issues] == [i.code for i in game.issues]
    assert replay_facts(again, replay2) == replay_facts(game, replay)


def meaning(game: Game, resolution: Resolution, written: bool = False) -> object:
    """:func:`semantic_tree` with the FEN tag as the position it describes (its
    notation aside)."""
    tags, *rest = semantic_tree(game, resolution, written)
    assert resolution.variant is not None
    tags = [
        (key, write_fen(parse_fen(value, resolution.variant).position) if key == "fen" else value)
        for key, value in tags
    ]
    return (tags, *rest)


def named(variant: Variant, square: int) -> str:
    """The algebraic name of *square* (file from White's left, rank from White's side)."""
    geo = geometry_for(variant.board)
    row, col = geo.coords[square]
    return "abcdefgh"[col] + str(geo.spec.height - row)


@st.composite
def algebraic_games(draw: st.DrawFn) -> str:
    """A record of random legal moves of an algebraic variant, written in numbers or
    algebraic squares, from the start or from a FEN (in numbers) reached by a few random moves."""
    name = draw(st.sampled_from(ALGEBRAIC))
    variant = variant_by_name(name)
    position = Position.initial(variant)
    tags = [f'[GameType "{naming_value(BY_NAME[name])}"]']
    if draw(st.booleans()):
        for _ in range(draw(st.integers(1, 12))):
            legal = legal_moves(position, variant)
            if not legal:
                break
            position = position.apply(legal[draw(st.integers(0, len(legal) - 1))])
        tags.append(f'[FEN "{write_fen(position)}"]')
    moves: list[str] = []
    for _ in range(draw(st.integers(0, 40))):
        legal = legal_moves(position, variant)
        if not legal:
            break
        move = legal[draw(st.integers(0, len(legal) - 1))]
        text = move_text(move, legal, variant)
        if draw(st.booleans()) or RESULT_LIKE.fullmatch(text):
            # in algebraic squares (a1 White's near left), as most such records are
            text = re.sub("[0-9]+", lambda m: named(variant, int(m.group())), text)
        moves.append(text)
        position = position.apply(move)
    return "\n".join(tags) + '\n[Result "*"]\n\n' + " ".join(moves) + " *\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(algebraic_games())
def test_canonical_of_algebraic_games_is_algebraic_and_reads_back(record: str) -> None:
    """Canonical PDN of any legal game of an algebraic variant names no square in
    numbers, and reads back as the same tree, replay and text."""
    game, replay, resolution = converted(record)
    assert replay.completed, record
    text = write_canonical(game, resolution)
    tags, moves = text.split("\n\n", 1)
    fen = re.search(r'\[FEN "([^"]*)"\]', tags)
    for written in (moves.rsplit(" ", 1)[0], fen.group(1) if fen else ""):
        stripped = re.sub(r"\b[0-9]+\.(?:\.\.)?", "", written)  # move numbers
        assert not NUMERIC_SQUARE.search(stripped), text
    again, replay2, resolution2 = converted(text)
    assert meaning(again, resolution2) == meaning(game, resolution, written=True)
    assert replay_facts(again, replay2) == replay_facts(game, replay)
    assert write_canonical(again, resolution2) == text
