"""Reading pdn-tools JSON back: streamed in bounded pieces, and malformed input refused
with a message naming the game and the key (never AttributeError or RecursionError)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import read_string
from pdn_tools.cli import main
from pdn_tools.export.from_json import JsonInputError, game_from_dict, read_json
from pdn_tools.export.jsonfmt import game_dict
from pdn_tools.replay import replay_game

GAMES = (
    '[Event "a"]\n[GameType "20"]\n1. 32-28 {a "quoted" comment} 18-23 (1... 19-23) *\n\n'
    '[Event "b, with \\\\ and ]"]\n1. 33-28 19-23 2. 28x19 14x23 $1 2-0\n\n'
    '[Event "c"]\n[FEN "W:W31,32:B10"]\n1. 31-27 /FEN "B:W27:B10"/ 10-14 *\n'
)


def _objects() -> list[dict[str, Any]]:
    out = []
    for game in read_string(GAMES):
        out.append(game_dict(game, replay_game(game)))
    return out


class _Trickle(io.TextIOBase):
    """A text stream handing out at most a few characters per read."""

    def __init__(self, text: str, sizes: list[int]) -> None:
        self.text = text
        self.at = 0
        self.sizes = sizes or [1]
        self.calls = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        step = self.sizes[self.calls % len(self.sizes)]
        self.calls += 1
        want = step if size is None or size < 0 else min(size, step)
        chunk = self.text[self.at : self.at + want]
        self.at += len(chunk)
        return chunk


def _signature(text: str, sizes: list[int]) -> list[dict[str, Any]]:
    return [game_dict(g) for g in read_json(_Trickle(text, sizes))]


@pytest.mark.parametrize("layout", ["lines", "array-lines", "one-line", "pretty"])
@given(sizes=st.lists(st.integers(min_value=1, max_value=300), min_size=1, max_size=5))
@settings(max_examples=20, deadline=None)
def test_every_layout_and_every_cut_reads_the_same_games(layout: str, sizes: list[int]) -> None:
    objects = _objects()
    if layout == "lines":
        text = "".join(json.dumps(o) + "\n" for o in objects)
    elif layout == "array-lines":
        text = "[\n" + ",\n".join(json.dumps(o) for o in objects) + "\n]\n"
    elif layout == "one-line":
        text = json.dumps(objects)
    else:
        text = json.dumps(objects, indent=2)
    expected = [game_dict(game_from_dict(o)) for o in objects]
    assert _signature(text, sizes) == expected


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[1,2]", "game 1: expected an object, found the number 1"),
        ('{"schema_version": 1, "tags": [], "span": 5}', "game 1.span: expected an object"),
        (
            '{"schema_version": 1, "tags": [{"name": 7, "value": "x"}]}',
            "game 1.tags[0].name: expected a string, found the number 7",
        ),
        ('{"schema_version": 1}', "game 1: 'tags' is missing"),
        ('{"schema_version": 1, "tags": [], "moves": [{"kind": "jump"}]}', "unknown node kind"),
        (
            '{"schema_version": 1, "tags": [], "issues": [{"code": "Z99", "message": "m", '
            '"line": 1, "column": 1}]}',
            "unknown diagnostic code 'Z99'",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('[{"schema_version": 1, "tags": []} {"x": 1}]', "expected ',' or ']'"),
        ('[{"schema_version": 1, "tags": []}', "expected ',' or ']', found 'the end"),
        ('{"schema_version": 1, "tags": [}', "line 1"),
        ('[{"schema_version": 1, "tags": []}] junk', "text after the closing ']'"),
        ('{"schema_version": 99, "tags": []}', "schema version"),
        ('{"schema_version": 1, "tags": [], "game": 4294967296}', "game 1.game: the integer"),
        (
            '{"schema_version": 1, "tags": [], "moves": [{"kind": "move", "text": "32-28", '
            '"nags": [-1]}]}',
            "a NAG is never negative",
        ),
        (
            '{"schema_version": 1, "tags": [], "moves": [{"kind": "move", "text": "32-28", '
            '"nags": [9223372036854775808]}]}',
            "the NAG 9223372036854775808 is out of range",
        ),
    ],
)
def test_malformed_input_is_refused_with_a_message(text: str, needle: str) -> None:
    with pytest.raises(JsonInputError) as caught:
        list(read_json(io.StringIO(text)))
    assert needle in str(caught.value)


def _nested_variations(depth: int) -> dict[str, Any]:
    """A game object whose variations nest *depth* levels deep."""
    line: list[dict[str, Any]] = [{"kind": "move", "text": "32-28"}]
    for _ in range(depth):
        line = [{"kind": "move", "text": "32-28", "variations": [line]}]
    return {"schema_version": 1, "tags": [], "moves": [{"kind": "move", "text": "33-28"}, *line]}


def test_variations_nested_deeper_than_the_limit_are_refused() -> None:
    fine = _nested_variations(50)
    assert len(list(read_json(io.StringIO(json.dumps(fine))))) == 1
    with pytest.raises(JsonInputError, match="nested deeper than 100"):
        list(read_json(io.StringIO(json.dumps(_nested_variations(150)))))
    with pytest.raises(JsonInputError, match="nested deeper than 10 "):
        list(read_json(io.StringIO(json.dumps(fine)), max_depth=10))
    # 2,000 levels (too deep for json.dumps to write, so spelt out): refused by the
    # decoder's own depth guard, as a message.
    opening = '{"kind": "move", "text": "32-28", "variations": [['
    text = (
        '{"schema_version": 1, "tags": [], "moves": ['
        + opening * 2000
        + '{"kind": "move", "text": "32-28"}'
        + "]]}" * 2000
        + "]}"
    )
    with pytest.raises(JsonInputError, match="nested too deeply"):
        list(read_json(io.StringIO(text)))


def test_an_object_larger_than_the_limit_is_refused_not_buffered_forever() -> None:
    big = json.dumps({"schema_version": 1, "tags": [], "comments": [{"text": "x" * 300_000}]})
    assert len(list(read_json(io.StringIO(big)))) == 1
    with pytest.raises(JsonInputError, match="longer than 100000 characters"):
        list(read_json(io.StringIO("[" + big + "]"), max_chars=100_000))


def test_a_lone_surrogate_escaped_in_json_is_written_as_its_escape_by_every_output(
    tmp_path: Path,
) -> None:
    # JSON can escape a lone surrogate, which is no character: UTF-8 cannot hold it, so
    # each output writes the backslash escape instead of failing (Parquet once raised).
    game = _objects()[0]
    game["tags"][0]["value"] = "Cup \ud800 final"
    source = tmp_path / "games.jsonl"
    source.write_text(json.dumps(game) + "\n", encoding="ascii")
    written: dict[str, str] = {}
    for suffix in ("pdn", "jsonl", "parquet"):
        target = tmp_path / f"out.{suffix}"
        done = CliRunner().invoke(main, ["convert", str(source), "-o", str(target), "-j", "1"])
        assert done.exit_code == 0, done.output
        assert "Traceback" not in done.output
        if suffix == "parquet":
            written[suffix] = pq.read_table(target).column("event").to_pylist()[0]
        elif suffix == "jsonl":
            written[suffix] = json.loads(target.read_text(encoding="utf-8"))["tags"][0]["value"]
        else:
            written[suffix] = read_string(target.read_text(encoding="utf-8"))[0].tag("Event")
    # JSON keeps JSON's own escape (read back, the same string); PDN and Parquet, whose
    # text is UTF-8, write the backslash escape.
    assert written == {
        "jsonl": "Cup \ud800 final",
        "pdn": "Cup \\ud800 final",
        "parquet": "Cup \\ud800 final",
    }


def test_a_move_number_of_any_size_comes_back_as_written() -> None:
    # A move number is kept as the PDN text wrote it: JSON gives it back, however
    # large, where lines and columns are refused beyond 32 bits.
    game = read_string('[GameType "20"]\n99999999999. 32-28 19-23 *\n')[0]
    text = json.dumps(game_dict(game, replay_game(game)))
    (back,) = list(read_json(io.StringIO(text)))
    assert next(iter(back.mainline())).number == 99999999999


def _layouts(objects: list[dict[str, Any]]) -> dict[str, tuple[str, list[int]]]:
    """The text of *objects* in each layout pdn-tools reads, and where each starts."""
    parts = [json.dumps(o, ensure_ascii=False) for o in objects]
    out: dict[str, tuple[str, list[int]]] = {}
    for name, head, sep in (("jsonl", "", "\n"), ("array", "[\n", ",\n"), ("line", "[", ", ")):
        text, starts = head, []
        for i, part in enumerate(parts):
            text += sep if i else ""
            starts.append(len(text))
            text += part
        out[name] = (text, starts)
    return out


def _place(text: str, at: int) -> tuple[int, int]:
    """Line and column (from 1) of ``text[at]``."""
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


@pytest.mark.parametrize("layout", ["jsonl", "array", "line"])
@pytest.mark.parametrize("tail", ["", "\n", "\n\n  \n"])
def test_a_truncated_file_is_reported_where_the_cut_value_starts(layout: str, tail: str) -> None:
    """A file cut short inside its last game is reported at the line and column where
    that game starts and where the text breaks off, not at the end of the file or at
    a neighbour."""
    text, starts = _layouts(_objects())[layout]
    start = starts[-1]
    cut = text[: start + 40] + tail  # inside the last object's first key or value
    with pytest.raises(JsonInputError) as caught:
        list(read_json(io.StringIO(cut)))
    line, column = _place(cut, start)
    last_line, last_column = _place(cut, start + 39)
    assert str(caught.value) == (
        f"line {line}, column {column}: the file ends inside this JSON value: it breaks "
        f"off after line {last_line}, column {last_column} (a file cut short?)"
    )


@pytest.mark.parametrize("layout", ["jsonl", "array"])
def test_a_byte_order_mark_is_no_column_of_the_first_line(layout: str, tmp_path: Path) -> None:
    """A file that opens with a byte order mark (as Windows editors save UTF-8) names
    the same columns as without it: the mark is no character of line 1."""
    text, starts = _layouts(_objects())[layout]
    cut = text[: starts[0] + 40]
    messages = []
    for mark in ("", "\ufeff"):
        path = tmp_path / f"cut{len(mark)}.json"
        path.write_text(mark + cut, encoding="utf-8")
        with pytest.raises(JsonInputError) as caught:
            list(read_json(path))
        messages.append(str(caught.value))
    line, column = _place(cut, starts[0])
    assert messages[0] == messages[1]
    assert messages[1].startswith(f"line {line}, column {column}: ")


def test_the_cli_names_the_line_of_a_truncated_json_lines_game(tmp_path: Path) -> None:
    first, second = (json.dumps(o) for o in _objects()[:2])
    path = tmp_path / "t.jsonl"
    cut = second[:30].rstrip()
    path.write_text(first + "\n" + cut + "\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["convert", str(path), "-o", str(tmp_path / "o.pdn")])
    assert done.exit_code == 2
    assert (
        f"{path}: not pdn-tools JSON: line 2, column 1: the file ends inside this JSON "
        f"value: it breaks off after line 2, column {len(cut)}"
    ) in done.stderr
    assert not (tmp_path / "o.pdn").exists()


def test_a_line_cut_short_inside_json_lines_is_named_by_its_own_line() -> None:
    """A JSON Lines line cut short is found by the decoder only at the next line: the
    message names the line where the broken value starts, then where it broke."""
    one = json.dumps(_objects()[0])
    text = one + "\n" + one[:20] + "\n" + one + "\n"  # {"schema_version": 1
    with pytest.raises(JsonInputError) as caught:
        list(read_json(io.StringIO(text)))
    assert str(caught.value).startswith(
        "line 2, column 1: the JSON value that starts here is broken at line 3, column 1: "
    )
    # The decoder's messages that end "at" (the position it would append) read whole.
    with pytest.raises(JsonInputError, match=r"^line 2, column 9: Invalid control character$"):
        list(read_json(io.StringIO(one + '\n{"a": "b\x01"}\n')))


def test_errors_inside_a_file_name_their_line_and_column() -> None:
    one = json.dumps(_objects()[0])
    with pytest.raises(JsonInputError, match=r"^line 2, column 14: Expecting value$"):
        list(read_json(io.StringIO(one + '\n{"tags": [1, , 2]}\n' + one)))
    # A game object of the wrong shape: the line and column where it starts.
    bad = one + ', {"schema_version": 1, "tags": [{"name": 3}]}]'
    with pytest.raises(JsonInputError) as caught:
        list(read_json(io.StringIO("[" + bad)))
    assert str(caught.value).startswith(f"line 1, column {len(one) + 4}: game 2.tags[0].name:")


@settings(max_examples=60, deadline=None)
@given(
    layout=st.sampled_from(["jsonl", "array", "line"]),
    fraction=st.floats(min_value=0.0, max_value=1.0),
    sizes=st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=5),
)
def test_a_cut_anywhere_in_the_last_game_names_its_line(
    layout: str, fraction: float, sizes: list[int]
) -> None:
    """Wherever the last game is cut, and however the text arrives in pieces, the
    message names the line the cut is on (each game is on one line), and the column
    where the game starts when it says the file ends inside it."""
    text, starts = _layouts(_objects())[layout]
    start = starts[-1]
    end = len(text) if layout == "jsonl" else len(text) - (1 if layout == "line" else 0)
    if layout == "array":
        end = text.rindex("}") + 1
    cut = start + 1 + int(fraction * (end - start - 2))
    piece = text[:cut]
    with pytest.raises(JsonInputError) as caught:
        list(read_json(_Trickle(piece, sizes)))
    message = str(caught.value)
    line, column = _place(piece, start)
    assert message.startswith(f"line {line}, column "), message
    if "the file ends inside" in message:
        assert message.startswith(f"line {line}, column {column}: "), message
