"""Byte order marks after the first: files joined with ``cat`` (each beginning with
one), a BOM given twice, UTF-16 of a file that began with one.  Each record is read
as it was in its own file, with W31, and the columns of the text after a BOM stay
those of the file."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import ReadOptions, read_games
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.reader import FileReport
from pdn_tools.report.records import game_record
from pdn_tools.run.check import CheckOptions, check_file, check_slots
from pdn_tools.run.slots import cut_batches
from pdn_tools.run.spans import cut_spans, span_games

RECORD = '[Event "g{}"]\n[GameType "20"]\n\n1. 32-28 18-23 2. 37-32 *'
BOM = "\ufeff"


def read(data: bytes, options: ReadOptions | None = None) -> tuple[list[Game], FileReport]:
    report = FileReport("joined.pdn")
    games = list(read_games(io.BytesIO(data), options, name="joined.pdn", report=report))
    return games, report


def position(text: str, at: int, start_marks: int) -> tuple[int, int]:
    """The line and column (1-based) of *text*[at], not counting the byte order marks
    the file starts with (*start_marks*), which are not part of its first line."""
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, column - start_marks if line == 1 else column


@st.composite
def joined_files(draw: st.DrawFn) -> tuple[str, int]:
    """Records of several files joined, each maybe beginning with a BOM (or two), each
    maybe ending without a line end; and the number of records."""
    count = draw(st.integers(1, 6))
    text = ""
    for n in range(count):
        text += BOM * draw(st.integers(0, 2)) + RECORD.format(n)
        text += draw(st.sampled_from(["\n", "\n\n", "", " ", "\n\n\n"]))
    return text, count


@settings(max_examples=150, deadline=None)
@given(joined=joined_files(), encoding=st.sampled_from(["utf-8", "utf-16", "utf-16-le"]))
def test_joined_files_give_their_records_and_nothing_else(
    joined: tuple[str, int], encoding: str
) -> None:
    text, count = joined
    games, report = read(text.encode(encoding))
    assert [g.tag("Event") for g in games] == [f"g{n}" for n in range(count)]
    assert report.games == count
    start_marks = len(text) - len(text.lstrip(BOM))
    for n, game in enumerate(games):
        assert {i.code for i in game.issues} <= {"W30", "W31"}, game.issues
        assert game.status != "error" and game.plies == 3
        at = text.index(f'[Event "g{n}"]')
        assert (game.span.start_line, game.span.start_column) == position(text, at, start_marks)
    marks = [i for g in games for i in g.issues if i.code == "W31"]
    # A UTF-16 file without its own BOM takes the first one for it (W30 says so).
    own = text[1:] if encoding == "utf-16-le" and text.startswith(BOM) else text
    assert bool(marks) == (BOM in own)
    for issue in marks:
        if "inside the file" in issue.message:  # on a mark, found where it is
            at = text.index(BOM, start_marks)
            lines = text.splitlines()
            assert lines[issue.line - 1][issue.column - 1] == BOM
            assert issue.line >= text.count("\n", 0, at) + 1
    for n, game in enumerate(games):
        for issue in game.issues:
            if "inside the file" in issue.message:
                # The mark belongs to the record it begins, even glued to the
                # terminator of the one before.
                lines = text.splitlines(keepends=True)
                at = sum(len(line) for line in lines[: issue.line - 1]) + issue.column - 1
                assert text.index('[Event "g', at) == text.index(f'[Event "g{n}"]'), issue


def test_the_reported_example_gives_two_games() -> None:
    data = (
        b'[Event "x"]\n[GameType "20"]\n\n1. 32-28 18-23 *\n\n'
        b'\xef\xbb\xbf[Event "y"]\n[GameType "20"]\n\n1. 32-28 18-23 *\n'
    )
    games, report = read(data)
    assert [g.tag("Event") for g in games] == ["x", "y"] and report.games == 2
    assert [[(i.code, i.line, i.column) for i in g.issues] for g in games] == [
        [],
        [("W31", 6, 1)],
    ]
    assert "inside the file" in games[1].issues[0].message
    assert (games[1].span.start_line, games[1].span.start_column) == (6, 2)


def test_a_bom_glued_to_a_terminator_belongs_to_the_next_game() -> None:
    """``cat`` of a file that ends without a line end and one that begins with a BOM:
    the mark follows the first game's terminator on its line, but it begins the
    second file, so its W31 is the second game's."""
    data = (
        b'[Event "a"]\n[GameType "20"]\n\n1. 32-28 18-23 *'
        b'\xef\xbb\xbf[Event "b"]\n[GameType "20"]\n\n1. 32-28 18-23 *\n'
    )
    games, _ = read(data)
    assert [g.tag("Event") for g in games] == ["a", "b"]
    assert [[(i.code, i.line, i.column) for i in g.issues] for g in games] == [
        [],
        [("W31", 4, 17)],
    ]
    assert (games[1].span.start_line, games[1].span.start_column) == (4, 18)
    # The same when a NUL byte (W06) follows the terminator instead: the text between
    # the games is the next one's.
    games, _ = read(data.replace(b"\xef\xbb\xbf", b" \x00 ", 1))
    assert [[i.code for i in g.issues] for g in games] == [[], ["W06"]]


def test_a_bom_given_twice_at_the_start_is_one_finding() -> None:
    record = RECORD.format(0).encode() + b"\n"
    games, _ = read(b"\xef\xbb\xbf" * 2 + record)
    assert [(i.code, i.line, i.column, i.message) for i in games[0].issues] == [
        ("W31", 1, 1, "UTF-8 byte order mark removed (2 of them)")
    ]
    assert (games[0].span.start_line, games[0].span.start_column) == (1, 1)
    # UTF-16 of a file that began with a BOM: the encoder's BOM, then the file's.
    games, _ = read((BOM + RECORD.format(0)).encode("utf-16"))
    assert [i.code for i in games[0].issues] == ["W30", "W31"]
    assert "repeated at the start" in games[0].issues[1].message
    assert games[0].status == "warning" and games[0].span.start_column == 1
    # A forced encoding that keeps the BOM as a character.
    games, _ = read(b"\xef\xbb\xbf" + record, ReadOptions(encoding="utf-8"))
    assert [(i.code, i.line, i.column) for i in games[0].issues] == [("W31", 1, 1)]
    assert games[0].status == "ok"


def test_a_zero_width_no_break_space_inside_text_is_kept() -> None:
    """Only a U+FEFF that begins a line or stands before a '[' is a joined file's BOM."""
    text = '[Event "A\ufeffB"]\n[GameType "20"]\n\n1. 32-28 {x\ufeffy} 18-23 *\n'
    games, _ = read(text.encode())
    assert games[0].tag("Event") == "A\ufeffB"
    assert "W31" not in {i.code for i in games[0].issues}


def _records(games: list[Game]) -> list[tuple[object, ...]]:
    return [(game_record(g), g.span, g.to_pdn()) for g in games]


def test_jobs_batches_and_spans_read_joined_files_as_the_reader(tmp_path: Path) -> None:
    """The --jobs batches (run/slots.py) and the --dask spans (run/spans.py), cut at
    every game, give the reader's games and findings: a span often begins on the line
    of a joined file's BOM."""
    parts = [BOM + RECORD.format(n) + ("\n\n" if n % 3 else "") for n in range(30)]
    path = tmp_path / "joined.pdn"
    path.write_bytes("".join(parts).encode())
    options = ReadOptions()
    report = FileReport(str(path))
    reference = list(read_games(path, options, name=str(path), report=report))
    assert report.games == 30
    assert sum(1 for g in reference for i in g.issues if i.code == "W31") == 30
    spans = list(cut_spans(0, str(path), str(path), options, 0))
    assert len(spans) > 10
    assert _records([g for span in spans for g in span_games(span, options)]) == _records(reference)
    check = CheckOptions(options)
    whole = [
        (c.record, [i.to_dict() for i in c.issues])
        for c in check_file(0, str(path), str(path), check)
    ]
    with open(path, "rb") as handle:
        batches = list(cut_batches(handle, options, 1))
    assert len(batches) > 10
    cut = [
        (c.record, [i.to_dict() for i in c.issues])
        for batch in batches
        for c in check_slots(0, str(path), batch.slots, check)
    ]
    assert cut == whole
