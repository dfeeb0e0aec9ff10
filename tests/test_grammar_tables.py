"""The saved parser (``pdn_tools/grammar/pdn.lark.tables``): the wheel build saves the
parser built from the grammar, and the installed package loads it instead of building
it at each start.  It must read every text exactly as the parser built from the grammar
reads it, and must never be used when it was made from another grammar or lark."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from pdn_tools.pdn import grammar
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import split_chunks

REPO = Path(__file__).resolve().parent.parent


def _saved(text: str) -> bytes:
    handle = io.BytesIO()
    grammar.write_tables(text, handle)
    return handle.getvalue()


def _dump(node: Tree[Token] | Token) -> object:
    """A tree as plain values: rule names, and every token's type, text and place
    (the builder reads these; a rule name is a plain string in a loaded parser and a
    token in a built one, which the builder never looks at)."""
    if isinstance(node, Tree):
        return (str(node.data), [_dump(child) for child in node.children])
    return (node.type, str(node), node.line, node.column, node.start_pos, node.end_pos)


def _outcome(parser: Lark, text: str) -> object:
    """What *parser* makes of *text*: its tree, or where and why it stops."""
    try:
        return _dump(parser.parse(text))
    except UnexpectedInput as exc:
        return f"{type(exc).__name__} at {exc.line}:{exc.column}"


def _chunks() -> list[str]:
    """The game chunks of the sample corpus and of hand-written odd texts."""
    texts = [
        '[Event "x"]\n1. 32-28 {c} 19-23 (1... 18-23 2. 33-29) 2. 38-32 $1 *',
        "1. 32-28 19-23 2. 33x22 17x28 1-0",
        '[Event "broken" 1. 32-28 ((( }',
        '/FEN "W:W31:B20"/ 1. 31-26 *',
        "",
    ]
    for path in sorted((REPO / "corpus").rglob("*.pdn")):
        with path.open("rb") as handle:
            for chunk in split_chunks(read_pieces(handle, None, Decoding()), 1 << 20, 64):
                if chunk.text is not None:
                    texts.append(chunk.text)
    return texts


def test_the_saved_parser_reads_as_the_built_one() -> None:
    text = grammar.grammar_text()
    loaded = grammar.load_tables(text, _saved(text))
    assert loaded is not None
    built = grammar.build_parser(text)
    assert type(loaded.parser.parser) is type(built.parser.parser)  # lark-cython's, or lark's
    chunks = _chunks()
    assert len(chunks) > 30
    for chunk in chunks:
        assert _outcome(loaded, chunk) == _outcome(built, chunk), chunk[:200]
    names = sorted(t.name for t in built.terminals)
    assert sorted(t.name for t in loaded.terminals) == names
    for name in names:  # what the splitter and the builder take from the grammar
        mine, theirs = loaded.get_terminal(name).pattern, built.get_terminal(name).pattern
        assert (mine.to_regexp(), sorted(mine.flags)) == (theirs.to_regexp(), sorted(theirs.flags))


def test_a_parser_saved_from_another_grammar_is_not_used() -> None:
    text = grammar.grammar_text()
    saved = _saved(text)
    assert grammar.load_tables(text + "\n// changed\n", saved) is None
    key = saved.partition(b"\n")[0]
    assert grammar.load_tables(text, key + b"\nnot lark's serialisation") is None
    assert grammar.load_tables(text, b"") is None


def test_an_installed_wheel_loads_its_saved_parser() -> None:
    shipped = resources.files("pdn_tools").joinpath(grammar.TABLES)
    if not shipped.is_file():
        pytest.skip("a source checkout has no saved parser: the wheel build makes it")
    data = shipped.read_bytes()
    assert grammar.load_tables(grammar.grammar_text(), data) is not None, (
        "the wheel's saved parser does not match its grammar and lark"
    )
