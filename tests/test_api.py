"""The library API: validate, the board at a node, canonical text, the visitor.

The library and ``pdn validate`` must give the same findings, in the same order, with
the same places and plies: both are checked on the sample corpus and on a few
thousand real games of the shared corpus.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from click.testing import CliRunner
from conftest import SAMPLES
from export.export_helpers import legal_games
from helpers import random_line
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdn_tools
from pdn_tools import Board, Game, IllegalMoveError, Node, Visitor
from pdn_tools.cli import main
from pdn_tools.pdn.results import read_result
from pdn_tools.rules import Position, variants

Finding = tuple[str, str, int, int, int | None, str | None]


def _api_findings(path: Path) -> list[list[Finding]]:
    return [
        [(i.code, i.level.value, i.line, i.column, i.ply, i.move) for i in game.issues]
        for game in pdn_tools.validate(path)
    ]


def _cli_findings(paths: list[Path], *options: str) -> dict[str, list[list[Finding]]]:
    done = run("validate", *map(str, paths), "--format", "jsonl", "--jobs", "1", *options)
    assert done.returncode in (0, 1), done.stderr
    out: dict[str, list[list[Finding]]] = {}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        if record.get("game", 0) == 0:
            continue  # a file without games: the library yields none
        out.setdefault(record["file"], []).append(
            [
                (
                    i["code"],
                    i["severity"],
                    i["line"],
                    i["column"],
                    i.get("ply"),
                    i.get("move"),
                )
                for i in record["issues"]
            ]
        )
    return out


def _check_agreement(paths: list[Path]) -> int:
    cli = _cli_findings(paths)
    games = 0
    for path in paths:
        api = _api_findings(path)
        assert api == cli.get(str(path), []), path
        games += len(api)
    return games


def test_validate_lists_the_replay_codes_of_the_cli() -> None:
    path = SAMPLES / "faults" / "illegal-moves.pdn"
    codes = [i.code for g in pdn_tools.validate(str(path)) for i in g.issues]
    assert "E05" in codes and "E07" in codes
    assert [i.code for i in pdn_tools.read_games(str(path)).__next__().issues] == []


def test_api_and_cli_agree_on_every_sample_file() -> None:
    paths = sorted(SAMPLES.rglob("*.pdn"))
    assert _check_agreement(paths) > 20


@pytest.mark.corpus
def test_api_and_cli_agree_on_real_games(corpus: Path) -> None:
    paths = sorted(corpus.rglob("*.pdn"))
    picked = paths[::5]  # every fifth file: all sources, a few thousand games
    assert _check_agreement(picked) >= 2000


def test_validate_takes_handles_strings_and_rule_options() -> None:
    text = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
    from_handle = list(pdn_tools.validate(io.BytesIO(text.encode())))
    from_text = list(pdn_tools.validate(io.StringIO(text)))
    from_string = pdn_tools.validate_string(text)
    assert [g.plies for g in from_handle + from_text + from_string] == [4, 4, 4]
    assert all(g.issues == [] for g in from_string)
    with pytest.raises(TypeError):
        pdn_tools.validate_string(text, no_such_rule=True)


def test_strict_agrees_with_the_cli() -> None:
    paths = sorted((SAMPLES / "oddities").glob("*.pdn"))
    cli = _cli_findings(paths, "--strict")
    for path in paths:
        strict = [[(i.code, i.level.value, i.line, i.column, i.ply, i.move) for i in g.issues]
                  for g in pdn_tools.validate(path, strict=True)]  # fmt: skip
        assert strict == cli.get(str(path), []), path
    lax = [i.level.value for p in paths for g in pdn_tools.validate(p) for i in g.issues]
    strict_levels = [
        i.level.value for p in paths for g in pdn_tools.validate(p, strict=True) for i in g.issues
    ]
    assert strict_levels.count("error") > lax.count("error")


def test_draws_are_on_the_game() -> None:
    games = list(pdn_tools.validate(SAMPLES / "faults" / "illegal-moves.pdn"))
    drawn = [g for g in games if g.draws]
    assert [g.index for g in drawn] == [4]
    assert drawn[0].draws[0]["rule"] == "threefold"
    assert drawn[0].draws[0]["ply"] == 8
    assert drawn[0].draws == drawn[0].to_json()["validation"]["draws"]


def test_board_at_every_main_line_node_follows_the_replay() -> None:
    path = SAMPLES / "clean" / "club-evening.pdn"
    for game in pdn_tools.validate(path):
        board = game.board()
        assert board.position == Position.initial(board.variant) or game.tag("FEN")
        for node in game.mainline():
            after = node.board()
            if node.kind == "move":
                assert after.move_stack, node
                played, before = after.move_stack[-1]
                assert Board(after.variant, before).push(played) == played
        final = game.end().board()
        assert final.fen() == _final_fen(game)


def _final_fen(game: Game) -> str:
    state = game.to_json()["validation"]
    return str(state["final_fen"])


def test_board_after_an_illegal_move_says_why() -> None:
    game = next(pdn_tools.validate(SAMPLES / "faults" / "illegal-moves.pdn"))
    issue = game.issues[0]
    assert issue.ply is not None
    before = game.node_at(issue.ply - 1).board()
    assert before.turn.name == "WHITE"
    with pytest.raises(ValueError, match="replay stopped"):
        game.node_at(issue.ply).board()


def test_board_needs_a_replayed_game() -> None:
    game = pdn_tools.read_string("1. 32-28 *")[0]
    with pytest.raises(ValueError, match="validate"):
        game.end().board()


def test_node_at_counts_plies_past_setups() -> None:
    game = pdn_tools.read_string('1. 32-28 19-23 /FEN "W:W28:B23"/ 2. 28x19 *')[0]
    assert game.node_at(0) is game
    assert game.node_at(2).kind == "setup"
    assert game.node_at(3).element_text() == "28x19"
    with pytest.raises(IndexError):
        game.node_at(4)


# -- Board -------------------------------------------------------------------------


def test_board_push_pop_and_outcome() -> None:
    board = Board.from_fen("W:W28:B23", "international")
    assert board.legal_move_texts() == ["28x19"]
    move = board.push("28x19")
    assert board.is_game_over() and board.outcome() == "white"
    assert board.pop() == move and board.fen() == "W:W28:B23"
    with pytest.raises(IllegalMoveError):
        board.push("28-22")
    assert repr(board) == "Board.from_fen('W:W28:B23', variant='international')"
    assert "b" in str(board) and "w" in str(board)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.randoms(use_true_random=False),
    st.sampled_from([v.name for v in variants()]),
    st.lists(st.sampled_from(["push", "push", "pop", "push-equal", "replace-stack"]), max_size=40),
)
def test_board_push_and_pop_keep_the_legal_moves_of_each_position(
    rng: random.Random, name: str, steps: list[str]
) -> None:
    """Whatever pushes and pops came before (and a move stack replaced from outside),
    the board lists the legal moves of its current position, and pop goes back to
    the position the move was played from."""
    from pdn_tools.rules import Move, legal_moves

    variant = pdn_tools.variant_by_name(name)
    board = Board(variant)
    positions = [board.position]
    for step in steps:
        legal = legal_moves(board.position, variant)
        assert board.legal_moves == legal
        if step == "pop" and board.move_stack:
            board.pop()
            positions.pop()
        elif step == "replace-stack" and board.move_stack:
            # A stack rebuilt from outside (as a replay hands a board its moves).
            board.move_stack = [(m, p) for m, p in board.move_stack]
        elif step.startswith("push") and legal:
            chosen = rng.choice(legal)
            if step == "push-equal":  # an equal move, not the generator's own object
                chosen = Move(*chosen.__reduce__()[1])
            own = board.legal_moves  # the board's own move objects
            assert board.push(chosen) is own[own.index(chosen)]
            positions.append(board.position)
        assert board.position == positions[-1]
    while board.move_stack:
        board.pop()
        positions.pop()
        assert board.position == positions[-1]
        assert board.legal_moves == legal_moves(board.position, variant)


def test_board_reads_algebraic_moves_on_8x8() -> None:
    board = Board(variant="russian")
    move = board.push("c3-d4")
    assert (move.from_sq, move.to_sq) == (22, 18)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.randoms(use_true_random=False),
    st.sampled_from([v.name for v in variants()]),
    st.integers(0, 80),
)
def test_board_legal_moves_equal_pdn_moves(rng: random.Random, name: str, plies: int) -> None:
    variant = pdn_tools.variant_by_name(name)
    position = random_line(variant, rng, plies)[-1]  # a position reached by legal play
    board = Board(variant, position)
    done = CliRunner().invoke(main, ["moves", board.fen(), "--variant", name])
    assert done.exit_code == 0, done.output
    assert board.legal_move_texts() == done.output.split()
    assert Board.from_fen(board.fen(), name) == board


# -- writing -------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games())
def test_str_of_a_game_reads_back_as_the_same_game(tree: Game) -> None:
    from pdn_tools.export.pdn import write_game

    game = pdn_tools.validate_string(write_game(tree))[0]
    text = str(game)
    assert text == game.to_pdn()
    again = pdn_tools.validate_string(text)[0]
    assert _what_it_says(again) == _what_it_says(game)
    assert str(again) == text
    assert [i for i in again.issues if i.level.value == "error"] == []


_PLACES = {"line", "column", "raw", "text", "number", "number_dots", "span", "file", "issues"}


def _what_it_says(game: Game) -> Any:
    """The game's JSON without source places and spellings: tags, moves as the
    engine moves they are, comments, NAGs, variations, the result."""

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if k not in _PLACES}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    data = clean(game.to_json())
    # Canonical PDN writes the result in the GameType's style (1-0 becomes 2-0 in
    # international draughts): the same outcome, another spelling.
    data["result"] = read_result(game.result or "*").outcome
    data.pop("terminator")
    return data


def test_to_json_is_the_convert_object() -> None:
    game = pdn_tools.validate_string('[GameType "20"]\n1. 32-28 19-23 *')[0]
    data: dict[str, Any] = game.to_json()
    assert data["schema_version"] >= 1
    assert [m["canonical"] for m in data["moves"]] == ["32-28", "19-23"]
    assert data["validation"]["replayed"] is True


def test_visitor_sees_variations_and_can_skip_them() -> None:
    game = pdn_tools.read_string("1. 32-28 (1. 33-29 19-23 (1... 18-22)) (1. 34-30) 19-23 *")[0]

    class Trace(Visitor[list[str]]):
        def __init__(self, skip: bool) -> None:
            self.seen: list[str] = []
            self.skip = skip

        def visit_node(self, node: Node) -> None:
            self.seen.append(node.element_text())

        def begin_variation(self, first: Node) -> Any:
            self.seen.append("(")
            return pdn_tools.pdn.model.SKIP if self.skip else None

        def end_variation(self, first: Node) -> None:
            self.seen.append(")")

        def result(self) -> list[str]:
            return self.seen

    assert game.accept(Trace(False)) == [
        "32-28", "(", "33-29", "19-23", "(", "18-22", ")", ")", "(", "34-30", ")", "19-23",
    ]  # fmt: skip
    assert game.accept(Trace(True)) == ["32-28", "(", "(", "19-23"]


def test_help_reads_as_a_table_of_contents() -> None:
    doc = pdn_tools.__doc__ or ""
    for name in ("validate", "Board", "Visitor", "to_pdn", "node.board()"):
        assert name in doc
    assert set(pdn_tools.__all__) <= set(dir(pdn_tools))


def test_the_wheel_says_it_is_typed() -> None:
    assert (Path(pdn_tools.__file__).parent / "py.typed").is_file()
