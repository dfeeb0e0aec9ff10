"""Comments after a game's terminator stay with that game (W81, docs/reading.md).

A final note after the result (``2-0 {final note}``) belongs to the game it follows:
it must neither move to the next game nor be dropped after the last one, and every
writer must put it where reading the output again finds it in the same game.  A
comment after a blank line that the next game's tags follow is that game's."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from cli_helpers import run
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools import read_games
from pdn_tools.pdn.build import GameBuilder
from pdn_tools.pdn.model import Game, Node, ReadOptions
from pdn_tools.pdn.reader import FileReport
from pdn_tools.pdn.records import Outcome, comment_lead, records
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import split_chunks

FIRST = '[GameType "20"]\n\n1. 32-28 19-23 2-0'
SECOND = '[GameType "20"]\n\n1. 33-28 *'


def read(text: str) -> tuple[list[Game], FileReport]:
    report = FileReport("x.pdn")
    games = list(read_games(io.BytesIO(text.encode()), report=report))
    return games, report


def comments(game: Game) -> list[tuple[str, int, int]]:
    """Every comment of *game* (text, line, column), in the order of its tree."""
    out = [(c.text, c.line, c.column) for c in game.preamble + game.comments]
    stack: list[Node] = list(reversed(game.variations))
    while stack:
        node = stack.pop()
        out.extend((c.text, c.line, c.column) for c in node.starting_comments + node.comments)
        stack.extend(reversed(node.variations))
    return out


def texts(game: Game) -> list[str]:
    return [text for text, _line, _column in comments(game)]


def codes(game: Game) -> list[str]:
    return [issue.code for issue in game.issues]


def test_a_final_note_stays_with_its_game() -> None:
    games, _ = read(FIRST + " {final note}\n\n" + SECOND + "\n")
    assert [texts(g) for g in games] == [["final note"], []]
    assert comments(games[0]) == [("final note", 3, 20)]
    (w81,) = [i for i in games[0].issues if i.code == "W81"]
    assert (w81.line, w81.column) == (3, 20) and w81.level == "info"
    assert "W81" not in codes(games[1])
    assert games[0].status == "ok" and games[0].span.end_line == 3


def test_a_final_note_after_the_last_game_is_kept() -> None:
    for tail in (" {final note}\n", "\n{final note}\n", "\n\n\n{final note}\n\n"):
        (game,), report = read(FIRST + tail)
        assert texts(game) == ["final note"], tail
        assert codes(game) == ["W81"] and not report.issues


def test_notes_on_the_lines_right_after_the_terminator() -> None:
    text = FIRST + ' {one}\n{two} ; three\n[Event "next"]\n1. 33-28 *\n'
    games, _ = read(text)
    assert [texts(g) for g in games] == [["one", "two", " three"], []]


def test_a_comment_after_a_blank_line_is_the_next_games() -> None:
    games, _ = read(FIRST + " {mine}\n\n{header of the next}\n" + SECOND + "\n")
    assert [texts(g) for g in games] == [["mine"], ["header of the next"]]
    assert "W81" not in codes(games[1])


def test_a_comment_before_moves_without_tags_is_their_games() -> None:
    games, _ = read(FIRST + " {opening} 1. 33-28 *\n")
    assert [texts(g) for g in games] == [[], ["opening"]]
    assert not any("W81" in codes(g) for g in games)


def test_escape_lines_before_the_next_tags_change_nothing() -> None:
    """A ``%`` line between a final note and the next game's tags: the note is still
    the game's before (W81), the ``%`` line the next game's, before its tags."""
    for gap in ("\n% separator\n", "\n%a\n%b\n", "\n% separator\n\n"):
        games, _ = read(FIRST + " {final note}" + gap + SECOND + "\n")
        assert [texts(g) for g in games[:1]] == [["final note"]], gap
        assert "W81" in codes(games[0]), gap
        assert [c.kind for c in games[1].preamble] == ["line"] * gap.count("%"), gap
        assert not games[1].comments and "W81" not in codes(games[1]), gap
    # Moves without tags after the '%' line: the note is their game's first comment.
    games, _ = read(FIRST + " {opening}\n% separator\n1. 33-28 *\n")
    assert "opening" in texts(games[1]) and texts(games[0]) == []


def test_a_comment_never_closed_is_not_taken() -> None:
    games, _ = read(FIRST + " {never closed\n" + SECOND + "\n")
    assert texts(games[0]) == [] and "W81" not in codes(games[0])
    assert "W06" in codes(games[0])  # skipped as text outside the games, as before


def test_the_lead_stops_at_a_blank_line_or_other_text() -> None:
    assert comment_lead(" {a} {b}\n{c}\n\n{d}") == len(" {a} {b}\n{c}")
    assert comment_lead(" {a}\n\n{d}", to_end=True) == len(" {a}\n\n{d}")
    assert comment_lead("\n\n{a}") == 0
    assert comment_lead(" 1. 32-28 {a}") == 0
    assert comment_lead(" {open") == 0
    assert comment_lead(" ; to the end\n[Event") == len(" ; to the end")


def test_the_plain_reading_and_the_parser_agree() -> None:
    text = FIRST + " {final note}\n" + SECOND + " {last} ; words\n"
    decoding = Decoding()
    chunks = split_chunks(read_pieces(io.BytesIO(text.encode()), None, decoding))
    found = list(records(chunks, decoding, Outcome()))
    assert len(found) == 2
    for record in found:
        plain = GameBuilder(record.chunk, ReadOptions()).build()
        parsed = GameBuilder(record.chunk, ReadOptions(), direct=False).build()
        assert comments(plain) == comments(parsed) != []
        assert [i.code for i in plain.issues] == [i.code for i in parsed.issues]


def test_convert_keeps_the_note_in_its_game(tmp_path: Path) -> None:
    source = tmp_path / "post2.pdn"
    source.write_text(FIRST + " {final note}\n\n" + SECOND + "\n", encoding="utf-8")
    done = run("convert", str(source), "-o", "-", "--to", "jsonl", "-q")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    notes = [c for move in first["moves"] for c in move.get("comments", [])]
    assert notes == [{"text": "final note", "kind": "brace", "line": 3, "column": 20}]
    assert not second.get("comments") and not any(m.get("comments") for m in second["moves"])
    done = run("convert", str(source), "-o", "-", "--to", "pdn", "-q")
    assert done.returncode == 0, done.stderr
    assert "19-23 {final note} 2-0" in done.stdout
    games, _ = read(done.stdout)
    assert [texts(g) for g in games] == [["final note"], []]
    assert not any("W81" in codes(g) for g in games)  # written inside the game


NOTES = st.sampled_from(["", " {a}", " {b c}", "\n{d}", " ; e", " {f}\n{g}"])
GAPS = st.sampled_from(["\n", "\n\n", "\n\n{h}\n", " \n\t\n{i}\n", "\n{j}\n\n"])
GAMES = st.sampled_from(
    [FIRST, SECOND, '[Event "x"]\n[Result "1-1"]\n*', "1. 32-28 *", "% k\n" + SECOND]
)


@given(st.lists(st.tuples(GAMES, NOTES, GAPS), min_size=1, max_size=6))
def test_converting_to_pdn_keeps_every_comment_in_its_game(
    parts: list[tuple[str, str, str]],
) -> None:
    """Written as canonical PDN and read again, every game has the comments it had
    when read, and no comment of the input is lost."""
    text = "".join(game + note + gap for game, note, gap in parts)
    games, report = read(text)
    assert not report.issues
    written = "".join(game.to_pdn() + "\n" for game in games)
    again, _ = read(written)
    assert [texts(g) for g in again] == [texts(g) for g in games]
    letters = sorted(re.findall(r"[{;%] ?([a-k])", text))
    found = sorted(t.strip()[0] for g in games for t in texts(g))
    assert found == letters
