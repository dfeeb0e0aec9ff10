"""What the reader skips recovering from broken structure (E01) survives conversion:
a comment never closed, a ``)`` without its ``(`` and a variation never closed are
written back by canonical PDN, the ``--for`` writers, round-trip PDN and JSON so
that reading the output finds the same errors again, and the next game is read as
before."""

from __future__ import annotations

import json
import pickle
import re
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from export_helpers import legal_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn_tools import Game, read_string
from pdn_tools.cli import main
from pdn_tools.export.canonical import CanonicalOptions, OpenEnded, write_canonical
from pdn_tools.export.from_json import game_from_dict
from pdn_tools.export.jsonfmt import game_dict
from pdn_tools.export.pdn import write_game
from pdn_tools.export.targets import TARGETS
from pdn_tools.replay import replay_game
from pdn_tools.replay.resolve import resolve

UNCLOSED_COMMENT = (
    '[Event "a"]\n[Result "*"]\n1. 32-28 19-23 {unclosed comment 2. 28x19 14x23 *\n\n'
    '[Event "b"]\n[Result "*"]\n1. 31-27 *\n'
)
STRAY = '[Event "a"]\n[Result "*"]\n1. 32-28 19-23 ) 2. 28x19 14x23 *\n'
UNCLOSED_VARIATION = (
    '[Event "a"]\n[Result "*"]\n1. 32-28 19-23 (2. 28x19 14x23 *\n\n'
    '[Event "b"]\n[Result "*"]\n1. 31-27 *\n'
)


def _findings(game: Game) -> list[tuple[str, str]]:
    """The findings of *game* without their places (the output moves them)."""
    return [(issue.code, issue.message) for issue in game.issues]


def _canonical(game: Game, options: CanonicalOptions | None = None) -> str:
    """*game* replayed (its findings then complete) and written as canonical PDN."""
    return write_canonical(game, resolve(game, replay_game(game)), options)


def _convert(tmp_path: Path, text: str, name: str) -> tuple[str, str, str]:
    """*text* converted to PDN by the command line, the output validated: the output,
    the validation of the input and that of the output."""
    source = tmp_path / f"{name}.pdn"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / f"{name}-out.pdn"
    runner = CliRunner()
    result = runner.invoke(main, ["convert", "-q", str(source), "-o", str(out)])
    assert result.exit_code == 1, result.stderr  # a game written has errors
    before = runner.invoke(main, ["validate", "--format", "jsonl", str(source)]).stdout
    after = runner.invoke(main, ["validate", "--format", "jsonl", str(out)]).stdout
    return out.read_text(encoding="utf-8"), before, after


def _codes_by_game(jsonl: str) -> list[list[tuple[str, str]]]:
    """The errors and warnings of each game (the information findings say how the
    record was written, which canonical writing changes: W33 on a move number)."""
    records = [json.loads(line) for line in jsonl.splitlines()]
    return [
        [(i["code"], i["message"]) for i in r["issues"] if i["severity"] != "info"] for r in records
    ]


def test_unclosed_comment_keeps_the_rest_of_its_game(tmp_path: Path) -> None:
    written, before, after = _convert(tmp_path, UNCLOSED_COMMENT, "comment")
    assert '1. 32-28 19-23 {unclosed comment 2. 28x19 14x23 *\n\n[Event "b"]' in written
    # The same findings, game by game: E01 and W01 on the first, the second as before.
    assert _codes_by_game(after) == _codes_by_game(before)
    assert [code for code, _ in _codes_by_game(after)[0]][:2] == ["E01", "W01"]
    games = read_string(written)
    assert len(games) == 2
    assert [p.text for p in games[0].unread] == ["{unclosed comment 2. 28x19 14x23 *"]
    assert games[0].terminator is None
    assert games[1].tag("Event") == "b" and games[1].plies == 1


def test_unclosed_comment_over_lines_is_kept_as_written() -> None:
    text = (
        '[Event "a"]\n\n1. 32-28 {never closed\n  2. 28x19 ; not a comment\n'
        '% nor this\n(1. 33-28) [Round "not a tag line"] 19-23 *\n\n'
        '[Event "b"]\n\n1. 31-27 *\n'
    )
    games = read_string(text)
    kept = text[text.index("{") : text.index("\n\n[Event")]
    assert [p.text for p in games[0].unread] == [kept]
    written = _canonical(games[0])
    assert isinstance(written, OpenEnded)
    assert written.endswith(kept + "\n")
    back = read_string(written + "\n" + _canonical(games[1]))
    assert len(back) == 2
    assert _canonical(back[0]) == written
    assert _findings(back[0]) == _findings(games[0])


def test_stray_parenthesis_reads_back_with_its_error(tmp_path: Path) -> None:
    written, before, after = _convert(tmp_path, STRAY, "stray")
    assert "1. 32-28 19-23 ) 2. 28x19 14x23 *" in written
    assert _codes_by_game(after) == _codes_by_game(before)
    assert _codes_by_game(after)[0][0] == ("E01", "')' without a matching '('")


def test_stray_parenthesis_before_a_variation_stays_before_it() -> None:
    # Written inside the variation, the ')' would close it.
    text = '[GameType "20"]\n\n1. 32-28 ) (1. 33-28) 1... 19-23 *\n'
    game = read_string(text)[0]
    written = _canonical(game)
    assert "1. 32-28 ) (1. 33-28) 1... 19-23 *" in written
    assert "1. 32-28 ) ( 1. 33-28 ) 1... 19-23 *" in write_game(game)
    back = read_string(written)[0]
    replay_game(back)
    assert _findings(back) == _findings(game)
    assert len(back.variations) == 2  # 33-28 still an alternative to 32-28


def test_stray_parenthesis_is_reported_once_beside_an_unclosed_variation() -> None:
    # The parser reads such a game twice; the ')' was reported by both passes.
    game = read_string("1. 32-28 ) 19-23 (1... 18-23 *\n")[0]
    assert [i.code for i in game.issues if i.code == "E01"] == ["E01", "E01"]
    assert [p.text for p in game.unread] == [")", "*"]
    assert game.open_variations == 1


def test_unclosed_variation_is_left_open(tmp_path: Path) -> None:
    written, before, after = _convert(tmp_path, UNCLOSED_VARIATION, "variation")
    # Left open, the result that stood in it where it stood, no terminator after it.
    assert '1. 32-28 19-23 (1... 28x19 2. 14x23 *\n\n[Event "b"]' in written
    assert _codes_by_game(after) == _codes_by_game(before)
    assert ("E01", "1 variation(s) opened here never closed") in _codes_by_game(after)[0]


def test_unclosed_variation_without_moves_keeps_its_parenthesis() -> None:
    for text in (
        '[Event "a"]\n\n1. 32-28 ( {a note}\n',
        '[Event "a"]\n\n1. 32-28 ( 2-0\n',
        '[Event "a"]\n\n( 1. 32-28 19-23 *\n',  # opened before any move: the main line
    ):
        game = read_string(text)[0]
        assert "(" in [p.text for p in game.unread], text
        written = _canonical(game)
        back = read_string(written)[0]
        assert _canonical(back) == written
        assert _findings(back) == _findings(game), written


def test_nested_recoveries_are_all_kept() -> None:
    text = (
        '[Event "a"]\n\n1. 32-28 ) 1... 19-23 (1... 18-22 (1... 17-21) 2. 31-27 1-0 '
        "{never closed ( ) \n"
    )
    game = read_string(text)[0]
    written = _canonical(game)
    codes = [i.code for i in game.issues if i.code.startswith("E0")]
    assert codes.count("E01") == 3  # the stray ")", the variation, the comment
    assert written.rstrip().endswith("{never closed ( )")
    back = read_string(written)[0]
    replay_game(back)
    assert [i.code for i in back.issues if i.code.startswith("E0")] == codes
    assert back.open_variations == game.open_variations == 1
    assert _canonical(back) == written


def test_json_carries_the_kept_text_back_to_the_same_pdn() -> None:
    for text in (UNCLOSED_COMMENT, STRAY, UNCLOSED_VARIATION):
        game = read_string(text)[0]
        replay = replay_game(game)
        resolution = resolve(game, replay)
        data = json.loads(json.dumps(game_dict(game, replay, resolution)))
        assert data["unread"] or data["open_variations"]
        copy = game_from_dict(data)
        assert copy.open_variations == game.open_variations
        again = replay_game(copy)
        assert write_canonical(copy, resolve(copy, again)) == write_canonical(game, resolution)
        assert write_game(copy) == write_game(game)
    data = game_dict(read_string(STRAY)[0], None, None)
    assert "open_variations" not in data  # only when there are some


def test_target_writers_keep_the_recoveries() -> None:
    for text in (UNCLOSED_COMMENT, STRAY, UNCLOSED_VARIATION):
        game = read_string(text.replace('[Result "*"]', '[Result "*"]\n[GameType "20"]'))[0]
        for target in ("lidraughts", "pydraughts", "checkerboard"):
            if text is UNCLOSED_VARIATION and not TARGETS[target].variations:
                continue  # a program that reads no variations is written none
            written = _canonical(game, CanonicalOptions(target=target))
            back = read_string(written)
            assert len(back) == 1, (target, written)
            e01 = [i.message for i in back[0].issues if i.code == "E01"]
            assert e01 == [i.message for i in game.issues if i.code == "E01"], (target, written)


def test_open_ended_text_travels_between_processes_whole() -> None:
    # A --jobs worker renders the game: both forms reach the writer.
    written = _canonical(read_string(UNCLOSED_COMMENT)[0])
    assert isinstance(written, OpenEnded)
    copy = pickle.loads(pickle.dumps(written))
    assert isinstance(copy, OpenEnded)
    assert (str(copy), copy.closed) == (str(written), written.closed)
    assert "{unclosed comment" not in written.closed  # the closed form: '(' for '{'
    assert "(unclosed comment 2. 28x19 14x23 *" in written.closed


def test_a_game_without_tags_after_an_open_game_is_not_swallowed(tmp_path: Path) -> None:
    # A filter leaves out game b: game c, which has no tags, would follow a game that
    # ends in a comment never closed, and be read as part of it.
    source = tmp_path / "open.pdn"
    source.write_text(
        '[Event "a"]\n\n1. 32-28 {open\n\n[Event "b"]\n\n1. 31-27 *\n1. 33-29 *\n',
        encoding="utf-8",
    )
    out = tmp_path / "open-out.pdn"
    result = CliRunner().invoke(
        main, ["convert", "-q", str(source), "--tag", "Event=b", "--invert", "-o", str(out)]
    )
    assert result.exit_code == 1, result.stderr
    written = out.read_text(encoding="utf-8")
    games = read_string(written)
    assert len(games) == 2, written
    assert "open" in written and games[1].plies == 1
    assert [i.code for i in games[0].issues if i.code.startswith("E")] == []  # closed form


# -- the property -----------------------------------------------------------------

_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_NUMBER = re.compile(r"\d+\.(?:\.\.)?")
_OPENED = re.compile(r"\((?:\s*\d+\.(?:\.\.)?)?\s*\Z")


def _boundaries(movetext: str) -> list[int]:
    """The places between two tokens of *movetext* (outside comments), the start too,
    before its terminator (the last token)."""
    places = [0]
    depth = 0
    for i, char in enumerate(movetext):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char.isspace() and depth == 0 and i > 0 and not movetext[i - 1].isspace():
            places.append(i)
    return places[:-1]  # the last one follows the terminator


def _letters(movetext: str) -> Counter[str]:
    """The characters of *movetext* but white space and move numbers (which the
    canonical writer renumbers)."""
    return Counter("".join(_NUMBER.sub(" ", movetext).split()))


def _errors(game: Game) -> list[str]:
    return sorted(issue.code for issue in game.issues if issue.code.startswith("E"))


@_SETTINGS
@given(legal_games(), st.sampled_from(["{", "(", ")"]), st.integers(0, 10_000))
def test_a_broken_game_reads_back_broken_alike(tree: Game, brace: str, where: int) -> None:
    clean = _canonical(read_string(write_game(tree, tag_order="input"))[0])
    head, _, movetext = clean.partition("\n\n")
    places = _boundaries(movetext)
    if brace == "{":
        # Where no comment follows: a '}' after it would close it (E02, not E01).  The
        # place before the terminator is one.
        places = [p for p in places if "}" not in movetext[p:]]
    elif brace == "(":
        # Before a move or a move number: a '(' takes the next ')', and a variation it
        # then closes with no move in it ('( $1 {note})') is not kept, nor one that
        # opens another before its first move ('(24... (35-40 ...)': one line); no E01
        # is lost there, the reader reads such variations so whether closed or not.
        places = [
            p
            for p in places
            if movetext[p:].lstrip()[:1].isdigit() and not _OPENED.search(movetext[:p])
        ] or [0]
    elif brace == ")":
        # Not where it would close an empty variation, '(' or '(4.', which is not kept.
        places = [p for p in places if not _OPENED.search(movetext[:p])] or [0]
    at = places[where % len(places)]
    broken = f"{movetext[:at]} {brace} {movetext[at:]}".lstrip()
    games = read_string(f"{head}\n\n{broken}")
    assert len(games) == 1
    game = games[0]
    written = _canonical(game)
    back = read_string(written)
    assert len(back) == 1, written
    assert _canonical(back[0]) == written  # written again, nothing moves
    assert _errors(back[0]) == _errors(game), written
    assert back[0].open_variations == game.open_variations
    assert [p.text for p in back[0].unread] == [p.text for p in game.unread], written
    missing = _letters(broken) - _letters(written.partition("\n\n")[2])
    assert not missing, (missing, written)
