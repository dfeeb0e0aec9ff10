"""``pdn convert --repair``: the planted typos of corpus/faults/ repaired into games
that validate clean with a comment naming the move written; games without a unique
repair rejected verbatim; legal games never touched."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest import SAMPLES
from helpers import random_move_texts
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from pdn_tools import Game, Node, ReadOptions, read_string, validate
from pdn_tools.cli import main
from pdn_tools.collection.repair import COMMENT
from pdn_tools.export.pdn import write_game
from pdn_tools.rules import variant_by_name

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "export"))
from export_helpers import legal_games

FAULTS = SAMPLES / "faults"
TYPOS = Path(__file__).resolve().parent / "data" / "typos.pdn"
INTERNATIONAL = variant_by_name("international")
COMMENT_TEXT = re.compile(r"repaired: was (\S+) \((E\d\d)(?: at ply (\d+): [^)]*)?\)")


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def _errors_by_game(path: Path) -> dict[int, list[dict[str, object]]]:
    """The errors validate reports, by game number (moves as written)."""
    out: dict[int, list[dict[str, object]]] = {}
    for game in validate(path):
        out[game.index] = [
            {"code": i.code, "move": i.move, "line": i.line, "ply": i.ply}
            for i in game.issues
            if i.level.value == "error"
        ]
    return out


def test_planted_typos(tmp_path: Path) -> None:
    """Each game's Event says whether its typos can be repaired; the repaired ones
    validate clean and name what was written, the others go to the rejects file
    exactly as they were read."""
    out, rejects = tmp_path / "out.pdn", tmp_path / "rejects.pdn"
    done = invoke("convert", str(TYPOS), "-o", str(out), "--repair", "--rejects", str(rejects))
    assert done.exit_code == 0, done.output
    planted = read_string(TYPOS.read_text(encoding="utf-8"))
    others = [g for g in planted if "(not repaired)" in (g.tag("Event") or "")]
    repairable = [g for g in planted if g not in others]
    assert len(repairable) + len(others) == len(planted) == 9
    assert (
        f"9 game(s) read, {len(repairable)} written ({len(repairable)} repaired), "
        f"{len(others)} rejected" in done.stderr
    )
    written = read_string(out.read_text(encoding="utf-8"))
    assert [g.tag("Event") for g in written] == [g.tag("Event") for g in repairable]
    errors = _errors_by_game(TYPOS)
    for game, source in zip(written, repairable, strict=True):
        comments = [COMMENT_TEXT.fullmatch(c.text) for node in _nodes(game) for c in node.comments]
        found = [(m.group(1), m.group(2)) for m in comments if m]
        assert found, game.tag("Event")
        planted_errors = errors[source.index]
        event = game.tag("Event") or ""
        if "before the illegal move" in event:
            # the move written two plies before the illegal one is the typo
            [match] = [m for m in comments if m]
            assert match.group(1) == "33-29" and match.group(2) == planted_errors[0]["code"]
            assert match.group(3) == str(planted_errors[0]["ply"])
            continue
        # the first error is the first typo; a later one comes to light after it
        assert found[0] == (planted_errors[0]["move"], planted_errors[0]["code"])
        if "two in one game" in event:
            assert len(found) == 2
    assert all(g.status != "error" for g in validate(out))
    rejected = rejects.read_text(encoding="utf-8")
    sources = read_string(TYPOS.read_text(encoding="utf-8"), ReadOptions(keep_source=True))
    for game in sources:
        assert game.source is not None
        if game.tag("Event") in {g.tag("Event") for g in others}:
            assert game.source.strip() in rejected  # verbatim
    assert len(read_string(rejected)) == len(others)


def _nodes(game: Game) -> list[Node]:
    out: list[Node] = []
    stack = list(game.variations)
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.variations)
    return out


def test_every_unique_repair_of_the_faults_validates_clean(tmp_path: Path) -> None:
    """All of corpus/faults/: a game is written repaired exactly when it validates
    clean afterwards, and each repair comment names a move the record had."""
    for path in sorted(FAULTS.glob("*.pdn")):
        out = tmp_path / f"{path.stem}.jsonl"
        done = invoke("convert", str(path), "-o", str(out), "--repair")
        assert done.exception is None or isinstance(done.exception, SystemExit), done.output
        moves_written = {
            node.raw for game in read_string(path.read_text(encoding="utf-8"))
            for node in _nodes(game)
        }  # fmt: skip
        for line in out.read_text(encoding="utf-8").splitlines():
            data = json.loads(line)
            texts = [c["text"] for m in _json_nodes(data["moves"]) for c in m.get("comments", [])]
            repaired = [COMMENT_TEXT.fullmatch(t) for t in texts if COMMENT_TEXT.fullmatch(t)]
            if repaired:
                assert data["status"] != "error", (path.name, data["game"])
                assert all(m.group(1) in moves_written for m in repaired if m)
    illegal = tmp_path / "illegal-moves.pdn"
    invoke("convert", str(FAULTS / "illegal-moves.pdn"), "-o", str(illegal), "--repair")
    text = illegal.read_text(encoding="utf-8")
    assert "3. 43-39 {repaired: was 39-43 (E05)}" in text


def _json_nodes(line: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for node in line:
        out.append(node)
        for variation in node.get("variations", []):
            out.extend(_json_nodes(variation))
    return out


def test_repair_counts_only_written_games(tmp_path: Path) -> None:
    """A repaired game that the filter leaves out is not counted as repaired."""
    out = tmp_path / "out.pdn"
    done = invoke("convert", str(TYPOS), "-o", str(out), "--repair", "--only-variant", "russian")
    assert "9 game(s) read, 1 written (1 repaired), 0 rejected, 8 filtered out" in done.stderr
    clean = invoke("convert", str(TYPOS), "-o", str(out), "--repair", "--status", "errors")
    assert clean.exit_code == 1  # only the games still in error are kept
    assert "3 written (0 repaired)" in clean.stderr


def test_repaired_algebraic_move_stays_algebraic(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    invoke("convert", str(TYPOS), "-o", str(out), "--repair", "--only-variant", "russian")
    data = json.loads(out.read_text(encoding="utf-8"))
    repaired = [m for m in data["moves"] if m.get("comments")]
    assert len(repaired) == 1
    move = repaired[0]
    assert re.fullmatch(r"[a-h][1-8]-[a-h][1-8]", move["text"])
    assert move["comments"][0]["text"] == COMMENT.format(written="g3-f2", code="E05")
    assert data["status"] == "ok"


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(legal_games())
def test_a_legal_game_converts_byte_identical(tree: Game) -> None:
    text = write_game(tree)
    plain = invoke("convert", "-", "-o", "-", "--to", "pdn", stdin=text)
    repaired = invoke("convert", "-", "-o", "-", "--to", "pdn", "--repair", stdin=text)
    assert plain.exit_code == repaired.exit_code == 0, plain.output
    assert repaired.stdout == plain.stdout
    assert "(0 repaired)" in repaired.stderr


def _random_moves(seed: int, plies: int) -> list[str]:
    return random_move_texts(INTERNATIONAL, random.Random(seed), plies)


def _typo(move: str, kind: int) -> str:
    separator = "x" if "x" in move else "-"
    first, last = move.split(separator)[0], move.split(separator)[-1]
    if kind == 0:
        return f"{last}{separator}{first}"  # from and to swapped
    digits = list(last)
    digits[-1] = str((int(digits[-1]) + kind) % 10)
    return f"{first}{separator}{''.join(digits).lstrip('0') or '1'}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(4, 36), st.integers(0, 3))
@example(seed=200, at=22, kind=1)  # the typo is legal; the move after it is repaired
@example(seed=19, at=19, kind=2)  # 2-8 becomes 2-1, a score: not a move typo
@example(seed=361, at=35, kind=1)  # 2x30 is a legal king move that takes nothing
def test_a_planted_typo_is_repaired_clean_or_rejected(
    tmp_path_factory: pytest.TempPathFactory, seed: int, at: int, kind: int
) -> None:
    """One typo in a random legal game: the game is written repaired (then it
    validates clean, differs from the record only at repaired moves, none before the
    typo, and each repair's comment names the move written there) or it goes to the
    rejects file as it was written."""
    moves = _random_moves(seed, 40)
    if at >= len(moves) - 1:
        return
    typo = _typo(moves[at], kind)
    assume(re.fullmatch(r"[0-2]-[0-2]", typo) is None)  # a score ends the game: a result
    record = list(moves)
    record[at] = typo
    words = []
    for ply, move in enumerate(record):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move)
    text = '[GameType "20"]\n\n' + " ".join(words) + " *\n"
    folder = tmp_path_factory.mktemp("typo")
    out, rejects = folder / "out.pdn", folder / "rejects.pdn"
    done = invoke("convert", "-", "-o", str(out), "--repair", "--rejects", str(rejects), stdin=text)
    assert done.exit_code == 0, done.output
    written = read_string(out.read_text(encoding="utf-8"))
    if not written:  # legal after all (the typo is a legal move), or not repairable
        kept = rejects.read_text(encoding="utf-8")
        assert kept in ("", text), kept
        return
    [game] = written
    checked = next(validate(out))
    assert checked.status != "error"
    texts = [n.move.text() for n in game.mainline() if n.move is not None]
    comments = [COMMENT_TEXT.fullmatch(c.text) for n in game.mainline() for c in n.comments]
    fixes = [m for m in comments if m]
    assert len(texts) == len(record)
    if fixes:  # at the typo, or later when the typo was itself a legal move
        changed = [n for n, (a, b) in enumerate(zip(texts, record, strict=True)) if a != b]
        assert [m.group(1) for m in fixes] == [record[n] for n in changed]
        assert min(changed) >= at
    else:  # the typo was a legal move: nothing to repair, written as read (a move
        # that takes nothing but was written with "x", a king's 2x30, is written 2-30)
        assert [t.replace("x", "-") for t in texts] == [r.replace("x", "-") for r in record]
        assert "(0 repaired)" in done.stderr
