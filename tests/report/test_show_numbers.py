"""``pdn show``'s move list numbers the moves from the variant's first mover, as
canonical PDN and the HTML report do (Black in English and pool draughts)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn_tools.export.canonical import write_canonical
from pdn_tools.pdn.gametype import BY_NAME, BY_NUMBER
from pdn_tools.pdn.reader import read_string
from pdn_tools.replay import replay_game
from pdn_tools.replay.positions import main_line, start_position
from pdn_tools.replay.resolve import resolve
from pdn_tools.report.show import move_list
from pdn_tools.rules import Position, legal_moves, move_text, variant_by_name, write_fen

#: Variants of either first mover (English and pool: Black), without Frisian's limit
#: on a king's moves in a row, which the move generator leaves to the replay.
VARIANTS = ("international", "english", "pool", "unified-pool", "italian", "russian", "turkish")


@st.composite
def games(draw: st.DrawFn) -> str:
    """A game of random legal moves with its GameType, from the start or from a
    position reached after a few moves (a FEN: either side may be to move)."""
    name = draw(st.sampled_from(VARIANTS))
    variant = variant_by_name(name)
    position = Position.initial(variant)
    entry = BY_NAME[name]
    # unified pool is named by its long form: 23 alone is American pool, Black first
    value = str(entry.number) if BY_NUMBER[entry.number] is entry else entry.full
    tags = f'[GameType "{value}"]\n'
    if draw(st.booleans()):
        for _ in range(draw(st.integers(1, 5))):
            legal = legal_moves(position, variant)
            if not legal:
                break
            position = position.apply(legal[draw(st.integers(0, len(legal) - 1))])
        tags += f'[FEN "{write_fen(position)}"]\n'
    moves = []
    for _ in range(draw(st.integers(1, 12))):
        legal = legal_moves(position, variant)
        if not legal:
            break
        move = legal[draw(st.integers(0, len(legal) - 1))]
        text = move_text(move, legal, variant)
        if text in ("1-2", "2-1", "1-1", "0-1", "1-0", "2-0", "0-2"):
            text = "0" + text  # a Turkish move that reads as a result
        moves.append(text)
        position = position.apply(move)
    return tags + "\n" + " ".join(moves) + " *\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_show_numbers_moves_as_canonical_pdn(text: str) -> None:
    (game,) = read_string(text)
    replay = replay_game(game)
    variant = variant_by_name(game.variant)
    start = start_position(game, variant)
    assert start is not None
    listed = " ".join(move_list(main_line(game), 0, start.turn is not variant.first_mover))
    written = write_canonical(game, resolve(game, replay)).split("\n\n", 1)[1]
    # the move numbers, and where they stand (the moves' spelling may differ: 10:17)
    assert _numbers(listed + " *") == _numbers(written)


def _numbers(movetext: str) -> list[str]:
    return [t if t.endswith(".") else "move" for t in movetext.split()]


def test_english_and_set_ups() -> None:
    (game,) = read_string('[GameType "21"]\n\n1. 11-15 23-18 2. 8-11 27-23 *\n')
    assert move_list(main_line(game), 4, False) == ["1. 11-15 23-18 2. 8-11 [27-23]"]
    (game,) = read_string('[GameType "21"]\n[FEN "W:W18,22:B5,6"]\n\n22-17 5-9 17-13 *\n')
    assert move_list(main_line(game), 0, True) == ["1... 22-17 2. 5-9 17-13"]
