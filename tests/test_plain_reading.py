"""Plain games are read without the parser; both readings must give the same game.

The tree builder finds the tokens of a plain game (tags, one move run, a terminator)
itself and goes to the Lark parser for anything else (:meth:`GameBuilder._plain_tokens`).
These tests build every game both ways and compare everything the game holds: nodes
with their positions, comments, NAGs, tags, the terminator, the findings, the span.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.pdn.build import GameBuilder
from pdn_tools.pdn.model import Comment, Game, Node, ReadOptions
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import Chunk, split_chunks

TESTS = Path(__file__).resolve().parent


def _comments(comments: list[Comment]) -> list[tuple[Any, ...]]:
    return [(c.text, c.kind, c.line, c.column) for c in comments]


def _nodes(game: Game) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    stack: list[Node] = [game]
    while stack:
        node = stack.pop()
        out.append(
            (
                node.kind,
                node.move,
                node.placeholder,
                node.fen,
                node.raw,
                node.line,
                node.column,
                node.number,
                node.number_dots,
                list(node.nags),
                _comments(node.comments),
                _comments(node.starting_comments),
                list(node.starting_nags),
                len(node.variations),
            )
        )
        stack.extend(reversed(node.variations))
    return out


def everything(game: Game) -> tuple[Any, ...]:
    """All that reading put on *game*."""
    return (
        _nodes(game),
        [(t.name, t.value, t.line, t.column) for t in game.tags],
        game.terminator,
        [
            (
                i.code,
                i.message,
                i.line,
                i.column,
                i.severity,
                i.ply,
                i.move,
                i.in_variation,
                i.context,
            )
            for i in game.issues
        ],
        _comments(game.preamble),
        game.span,
        game.variant,
    )


def chunks_of(data: bytes) -> Iterator[Chunk]:
    return split_chunks(read_pieces(io.BytesIO(data), None, Decoding()))


def disagreements(data: bytes, options: ReadOptions) -> tuple[int, int, list[str]]:
    """(chunks, chunks read without the parser, texts of the chunks read differently)."""
    chunks = direct = 0
    differ: list[str] = []
    for chunk in chunks_of(data):
        chunks += 1
        builder = GameBuilder(chunk, options)
        plain = builder.build()
        direct += builder.direct
        parsed = GameBuilder(chunk, options, direct=False).build()
        if everything(plain) != everything(parsed):
            differ.append((chunk.text or "")[:200])
        plain.close()
        parsed.close()
    return chunks, direct, differ


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_samples_and_test_data_read_alike() -> None:
    chunks = direct = 0
    for path in _files(SAMPLES) + _files(TESTS):
        for options in (ReadOptions(), ReadOptions(strict=True)):
            n, d, differ = disagreements(path.read_bytes(), options)
            assert differ == [], path
            chunks, direct = chunks + n, direct + d
    assert direct > 50  # the direct reading is taken, not only the parser's
    assert chunks > direct


@pytest.mark.corpus_wide
def test_shared_corpus_reads_alike(corpus: Path) -> None:
    chunks = direct = 0
    for path in _files(corpus):
        n, d, differ = disagreements(path.read_bytes(), ReadOptions())
        assert differ == [], path
        chunks, direct = chunks + n, direct + d
    assert chunks > 20_000
    assert direct > chunks // 2


_WORDS = [
    "1-0",
    "0-1",
    "2-0",
    "0-2",
    "1-1",
    "2-1",
    "1-2",
    "0-0",
    "1/2-1/2",
    "0.5-0.5",
    "\u00bd-\u00bd",
    "1 - 0",
    "*",
    "(",
    ")",
    "{c}",
    "{",
    "}",
    '[Event "x"]',
    '[Result "1-1"]',
    "32-28",
    "28x19",
    "19-23",
    "12-34x23",
    "3228",
    "c3-d4",
    "C3-D4",
    "1.",
    "2.",
    "1...",
    "...",
    "12.",
    "\u0663.",
    "$3",
    "$\u0663",
    "32-28!",
    "32-28*",
    "1.32-28",
    "01.32-28",
    "01.",
    "3- 8",
    "32 -28",
    "24x 4",
    "1.3- 8",
    "1.2-1",
    "%x\n",
    ";c\n",
    '/FEN "W:W1"/',
    "\\r",
    "x",
    "10-15",
    "20-1",
    "5-10",
    "\u00a0",
    "\x1c",
    "1..",
    "--",
    "-",
    ".",
    'Aa "b"]',
    "[[",
    "1-234",
]
_GAPS = [" ", " ", "", "\n", "\t"]


@pytest.mark.parametrize(
    ("movetext", "plies"),
    [
        ("01.32-28 19-23 02.37-32 14-19", 4),  # zero-padded move numbers glued to moves
        ("1. 32-28 19-23 2. 37-32 3- 8", 4),  # a space inside a move (W10)
        ("1. 32-28 19- 23 2.37-32 14 -19 3.31-27 {c} 10-14", 6),
        ("1.32-28 19-23 2.33-29 $1 17-21", 4),
    ],
)
def test_real_world_details_are_read_without_the_parser(movetext: str, plies: int) -> None:
    # The move run is the lexer's token, so the run's items are read with the
    # grammar's patterns where a word is not plain, and the parser is never called.
    text = f'[Event "e"]\n[Result "2-0"]\n{movetext} 2-0\n'
    (chunk,) = list(chunks_of(text.encode("utf-8")))
    builder = GameBuilder(chunk, ReadOptions())
    plain = builder.build()
    assert builder.direct
    parsed = GameBuilder(chunk, ReadOptions(), direct=False).build()
    assert everything(plain) == everything(parsed)
    assert plain.plies == plies


def test_a_number_glued_to_a_result_still_goes_to_the_parser() -> None:
    # "1.2-1" is a move number and a result to the lexer: not one move run.
    (chunk,) = list(chunks_of(b'[Result "2-0"]\n1.32-28 19-23 2.2-1 2-0\n'))
    builder = GameBuilder(chunk, ReadOptions())
    plain = builder.build()
    assert not builder.direct
    assert everything(plain) == everything(GameBuilder(chunk, ReadOptions(), direct=False).build())


@given(
    st.booleans(),
    st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_GAPS)), max_size=25),
)
@settings(max_examples=300, deadline=None)
def test_generated_texts_read_alike(tags: bool, words: list[tuple[str, str]]) -> None:
    text = ('[Event "e"]\n[Result "1-0"]\n' if tags else "") + "".join(a + b for a, b in words)
    _, _, differ = disagreements(text.encode("utf-8"), ReadOptions())
    assert differ == []


@pytest.mark.parametrize(
    ("text", "direct"),
    [
        ('[Event "e"]\n1. 32-28 19-23 2. 28x19 14x23 1-0', True),
        ("1. 32-28 {a comment} 19-23 $3 2-0", True),
        ('[Event "e"]\n\t\t1. 32-28 19-23\n\t\t1-1', True),  # a terminator after a tab
        ("1. 32-28 (1. 33-28) 19-23 *", False),  # a variation needs the parser
        ("1. 32-28 19-23 {c}2-1", False),  # a result glued to a comment
        ("1.2-1 *", False),  # a result glued to a move number
    ],
)
def test_which_games_are_plain(text: str, direct: bool) -> None:
    chunk = next(chunks_of(text.encode()))
    builder = GameBuilder(chunk, ReadOptions())
    game = builder.build()
    assert builder.direct is direct
    assert everything(game) == everything(GameBuilder(chunk, ReadOptions(), direct=False).build())


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="0123456789-xX:*!? \u0663\u2013ab", max_size=7)
    | st.tuples(st.integers(0, 120), st.sampled_from("-x"), st.integers(0, 120)).map(
        lambda t: f"{t[0]}{t[1]}{t[2]}"
    )
)
def test_the_two_square_shortcut_reads_as_the_lexer_and_the_move_parser(word: str) -> None:
    """Where the shortcut for ``32-28`` and ``23x32`` answers, the lexer's MOVE pattern
    takes the whole word and the move parser gives the same squares and kind with no
    mark and no finding; words the shortcut leaves alone still reach them."""
    from pdn_tools.pdn import build

    fast = build._two_squares(word)
    if fast is None:
        return
    whole = build._WHOLE_MOVE.match(word)
    assert whole is not None and whole.end() == len(word)
    assert build._parse_move(word) == (fast, None, ())


def test_the_two_square_shortcut_leaves_the_unusual_words_to_the_parser() -> None:
    from pdn_tools.pdn import build

    assert build._two_squares("32-28") == build._parse_move("32-28")[0]
    assert build._two_squares("9x18") == build._parse_move("9x18")[0]
    for word in ("07-12", "32-08", "3228", "32:28", "32X28", "32-28!", "1-2-3", "123-4", "-12"):
        assert build._two_squares(word) is None
