"""Spans: game-aligned byte ranges read on their own give exactly the whole file's games.

The scan (:func:`cut_spans`) and the worker-side reader (:func:`span_games`) run on real
files; the reference is :func:`pdn_tools.pdn.reader.read_games` over the whole file.
"""

from __future__ import annotations

import gzip
import io
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.reader import FileReport, read_games
from pdn_tools.report.records import game_record
from pdn_tools.run.check import CheckOptions, check_file
from pdn_tools.run.spans import (
    GoOn,
    LineIndex,
    SpanChanged,
    cut_spans,
    restartable,
    scan_part,
    span_games,
)
from pdn_tools.run.units import input_list, plan, run_unit

Record = tuple[list[dict[str, Any]], list[dict[str, Any]]]


def summary(game: Game) -> dict[str, Any]:
    """What a game is: its record (findings included), where it lies, its text."""
    return {**game_record(game), "span": game.span, "text": game.to_pdn()}


def whole(path: Path, options: ReadOptions) -> Record:
    """The reader's games and the file's findings."""
    report = FileReport(str(path))
    games = [summary(g) for g in read_games(path, options, name=str(path), report=report)]
    return games, [i.to_dict() for i in report.issues]


def by_spans(path: Path, options: ReadOptions, chars: int) -> tuple[Record, int]:
    """The same, read span by span after a scan; and the number of spans."""
    spans = list(cut_spans(0, str(path), str(path), options, chars))
    report = FileReport(str(path))
    games = [summary(g) for span in spans for g in span_games(span, options, report)]
    return (games, [i.to_dict() for i in report.issues]), len(spans)


# Pieces of PDN that stress the scan's bookkeeping: every kind of text between games.
GAMES = [
    '[Event "a"]\n[Result "2-0"]\n1. 32-28 19-23 2. 28x19 14x23 2-0',
    '[Event "b"]\n1. 33-29 {a comment\nover two lines} 17-21 *',
    "1. 32-28 18-23 0-2",  # tagless
    '[Event "c"]\n1. 31-27 (1. 32-28 19-23) 16-21 1-1',
    '[Event "u"]\n1. 34-30',  # no terminator: ended by the next game's tags
    '[FEN "W:W31,32:B\n19,20"]\n1. 32-28 *',  # a tag broken over lines
    '[Event "junk"]\n1. 32-28 * trailing words',
    '[Event "note"]\n1. 32-28 2-0 {a final note}',  # taken by its game (W81)
    '[Event "note2"]\n1. 32-28 *\n{a note on the next line}',
    '[Event "nbsp\u00a0"]\n1. 32-28\u00a019-23 *',
    '[Event "lit"]\\r\\n1. 32-28 *\\r\\n',  # literal \r \n artefacts
    '[Event "caf\u00e9"]\n1. 32-28 *',
    '[\n[Event "bracket"]\n1. 32-28 *',
    '% an escape line\n[Event "esc"]\n1. 32-28 *',
    '{a comment before}\n[Event "after comment"]\n1. 32-28 *',
    '[Event "nul"]\n1. 32-28\x00 *',
    '[Event "unclosed"]\n1. 32-28 {never closed\n',
    '[Event "Турнир"]\n[White "Иванов"]\n1. 32-28 19-23 {хорошо} *',
    "Notes about this tournament, written by hand, not PDN at all.",  # text outside games
    "#!/usr/bin/env pdn\nsome more prose here",
    '\ufeff[Event "joined"]\n1. 32-28 *',  # a file that began with a BOM, joined on
]
SEPARATORS = ["\n", "\n\n", " \n", "\t\n\n", "\\r\\n\n", "", " ", "\n\n\n\n"]


@st.composite
def pdn_files(draw: st.DrawFn) -> bytes:
    parts = draw(st.lists(st.sampled_from(GAMES), min_size=0, max_size=12))
    text = ""
    for part in parts:
        text += part + draw(st.sampled_from(SEPARATORS))
    text = draw(st.sampled_from(["", "\ufeff", "{intro}\n"])) + text
    ends = draw(st.sampled_from(["\n", "\r\n", "\r", "mixed"]))
    if ends == "mixed":
        lines = text.split("\n")
        text = (
            "".join(line + draw(st.sampled_from(["\n", "\r\n", "\r"])) for line in lines[:-1])
            + lines[-1]
        )
    elif ends != "\n":
        text = text.replace("\n", ends)
    encoding = draw(st.sampled_from(["utf-8", "latin-1", "utf-16", "mixed", "cp1251"]))
    if encoding != "utf-8":
        text = text.replace("\ufeff", "")
    if encoding == "mixed":  # records of several exporters: lines in UTF-8 or CP1251
        data = b"".join(
            line.encode(draw(st.sampled_from(["utf-8", "cp1251"])), errors="replace")
            for line in text.splitlines(keepends=True)
        )
    else:
        data = text.encode(encoding, errors="replace")
    if draw(st.booleans()):
        data += b"\xff stray \xe9 bytes\n"
    if draw(st.integers(0, 9)) == 0:
        data = gzip.compress(data, mtime=0)
    return data


@settings(max_examples=150, deadline=None)
@given(data=pdn_files(), chars=st.sampled_from([0, 1, 40, 200]), strict=st.booleans())
def test_spans_read_as_the_whole_file(data: bytes, chars: int, strict: bool) -> None:
    options = ReadOptions(strict=strict, max_game_chars=1000)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.pdn"
        path.write_bytes(data)
        reference = whole(path, options)
        got, _ = by_spans(path, options, chars)
        assert got == reference


def by_parts(path: Path, options: ReadOptions, chars: int, per_part: int) -> list[list[Any]]:
    """The spans of a file scanned part by part (each part going on where the one
    before stopped), as the parts give them."""
    size = path.stat().st_size
    parts: list[list[Any]] = []
    go_on: GoOn | None = None
    while True:
        spans, go_on = scan_part(0, str(path), str(path), options, chars, size, go_on, per_part)
        parts.append(spans)
        if go_on is None:
            return parts


@settings(max_examples=200, deadline=None)
@given(
    data=pdn_files(),
    chars=st.sampled_from([0, 1, 40, 200]),
    per_part=st.integers(1, 3),
    strict=st.booleans(),
)
def test_a_scan_in_parts_gives_the_spans_of_one_scan(
    data: bytes, chars: int, per_part: int, strict: bool
) -> None:
    """Scanned in parts of a few spans, every kind of file (code pages met late,
    stray bytes, NUL bytes, literal line ends, compressed) gives exactly the spans of
    one scan, and each part but the last holds at least the spans asked for."""
    options = ReadOptions(strict=strict, max_game_chars=1000)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.pdn"
        path.write_bytes(data)
        size = path.stat().st_size
        whole_scan = list(cut_spans(0, str(path), str(path), options, chars, size))
        parts = by_parts(path, options, chars, per_part)
        assert [span for part in parts for span in part] == whole_scan
        assert all(len(part) >= per_part for part in parts[:-1])


def test_a_utf8_file_is_scanned_on_from_where_the_part_before_stopped(tmp_path: Path) -> None:
    """A UTF-8 file goes on part by part (each part reads from its cut, not from the
    beginning); a code page met late makes the part that meets it scan from the
    beginning, and the spans still come out as one scan's; a file changed between two
    parts is refused."""
    path = tmp_path / "many.pdn"
    games = [f'[Event "g{n}"]\n[Site "caf\u00e9"]\n1. 32-28 19-23 *\n\n' for n in range(40)]
    path.write_text("".join(games), encoding="utf-8")
    options = ReadOptions()
    parts = by_parts(path, options, 100, 2)
    assert len(parts) > 5
    one_scan = list(cut_spans(0, str(path), str(path), options, 100))
    assert [s for part in parts for s in part] == one_scan
    size = path.stat().st_size
    first, go_on = scan_part(0, str(path), str(path), options, 100, size, None, 2)
    assert go_on is not None and go_on.begin.start == first[-1].start + first[-1].weight
    # A line in a code page far into a file (beyond what the first parts decode): the
    # part that meets it scans again from the beginning, and the spans are one scan's.
    mixed = tmp_path / "mixed.pdn"
    half = "".join(f'[Event "g{n}"]\n1. 32-28 19-23 *\n\n' for n in range(4000))
    late = '[Event "Gen\u00e8ve"]\n1. 32-28 *\n\n'.encode("cp1252")
    mixed.write_bytes(half.encode() + late + half.encode())
    mixed_parts = by_parts(mixed, options, 20_000, 2)
    got = [s for part in mixed_parts for s in part]
    assert got == list(cut_spans(0, str(mixed), str(mixed), options, 20_000))
    assert got[-1].legacy is not None and got[0].legacy is None
    assert len(mixed_parts) >= 3 and len(mixed_parts[-1]) > 2  # went on, then scanned again
    assert mixed_parts[-1][0].legacy is None  # the last part began before the code page
    # The file changes after the first part: the next part refuses it.
    first, go_on = scan_part(0, str(path), str(path), options, 100, size, None, 2)
    assert go_on is not None
    path.write_text("\n" + path.read_text(encoding="utf-8")[:-1], encoding="utf-8")
    os.utime(path, ns=(1, 1))
    with pytest.raises(SpanChanged, match="changed while it was scanned"):
        scan_part(0, str(path), str(path), options, 100, size, go_on, 2)


def test_a_clean_file_is_cut_before_every_game(tmp_path: Path) -> None:
    games = [f'[Event "g{n}"]\r\n1. 32-28 19-23 *\r\n\r\n' for n in range(40)]
    path = tmp_path / "clean.pdn"
    path.write_bytes("".join(games).encode())
    options = ReadOptions()
    got, spans = by_spans(path, options, 0)
    assert spans == 40
    assert got == whole(path, options)
    assert [g["game"] for g in got[0]] == list(range(1, 41))


def test_spans_of_the_samples_and_edge_files(tmp_path: Path) -> None:
    (tmp_path / "empty.pdn").write_bytes(b"")
    (tmp_path / "binary.pdn").write_bytes(bytes(range(32)) * 64)
    (tmp_path / "utf16.pdn").write_bytes(('[Event "a"]\n1. 32-28 *\n' * 30).encode("utf-16"))
    paths = sorted(SAMPLES.rglob("*.pdn")) + sorted(tmp_path.glob("*.pdn"))
    cut = 0
    for path in paths:
        for options in (ReadOptions(), ReadOptions(strict=True, encoding="cp1252")):
            got, spans = by_spans(path, options, 0)
            assert got == whole(path, options), path
            cut += spans - 1
    assert cut > 20  # the samples were cut, not read whole


def test_units_of_one_span_each_match_the_reader(tmp_path: Path) -> None:
    """``plan`` with every file cut into spans: run_unit gives check_file's games."""
    paths = sorted(str(p) for p in SAMPLES.rglob("*.pdn"))
    inputs = input_list(paths, None)
    options = CheckOptions()
    units = list(plan(inputs, options, split_bytes=0, batch_chars=0))
    assert len(units) > len(inputs)
    got = [c for unit in units for c in run_unit(unit, options)[1]]
    reference = [c for s in inputs for c in check_file(s.file_no, s.path, s.name, options)]
    assert [(c.record, [i.to_dict() for i in c.issues]) for c in got] == [
        (c.record, [i.to_dict() for i in c.issues]) for c in reference
    ]


@settings(max_examples=100, deadline=None)
@given(
    data=st.lists(st.sampled_from([b"a", b"bc", b"\r", b"\n", b"\r\n", b"\xe9"]), max_size=200),
    block=st.integers(min_value=1, max_value=9),
)
def test_line_index_finds_every_line_start(data: list[bytes], block: int) -> None:
    raw = b"".join(data)
    starts = [0] + [m.end() for m in __import__("re").finditer(rb"\r\n|\r|\n", raw)]

    class Blocks(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            return super().read(min(block, size if size is not None and size >= 0 else block))

    index = LineIndex(Blocks(raw), lambda: io.BytesIO(raw))
    while index.read(7):
        pass
    for line, offset in enumerate(starts, start=1):
        if offset < len(raw) or line == 1:
            assert index.offset_of(line) == offset, (line, raw)


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [
        ("utf-8", True),
        ("cp1252", True),
        ("cp1251", True),
        ("cp866", True),
        ("latin-1", True),
        ("utf-16", False),
        ("utf-8-sig", False),
        ("cp037", False),  # EBCDIC: LF is another byte
        ("shift_jis", False),
        ("utf-7", False),
    ],
)
def test_restartable_encodings(encoding: str, expected: bool) -> None:
    assert restartable(encoding) is expected


def test_a_file_changed_after_its_scan_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "moving.pdn"
    path.write_text("".join(f'[Event "g{n}"]\n1. 32-28 *\n\n' for n in range(10)))
    spans = list(cut_spans(0, str(path), "moving.pdn", ReadOptions(), 0))
    assert len(spans) == 10
    path.write_text("\n" + path.read_text()[:-1])  # same size, lines moved by one byte
    assert os.path.getsize(path) == spans[-1].size
    with pytest.raises(SpanChanged, match="changed since it was scanned"):
        list(span_games(spans[3], ReadOptions()))
    path.write_text(path.read_text() + "more")
    with pytest.raises(SpanChanged, match="changed since it was scanned"):
        list(span_games(spans[3], ReadOptions()))


def test_a_file_rewritten_in_place_after_its_scan_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "edited.pdn"
    path.write_text("".join(f'[Event "g{n}"]\n1. 32-28 *\n\n' for n in range(10)))
    spans = list(cut_spans(0, str(path), "edited.pdn", ReadOptions(), 0))
    assert [g.index for g in span_games(spans[0], ReadOptions())] == [1]
    before = path.stat()
    path.write_text(path.read_text().replace("32-28", "31-27"))  # same size, same lines
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    for span in (spans[0], spans[5]):
        with pytest.raises(SpanChanged, match="changed since it was scanned"):
            list(span_games(span, ReadOptions()))
