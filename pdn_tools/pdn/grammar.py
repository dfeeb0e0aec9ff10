"""Load ``pdn.lark`` once and expose the parser and the terminal patterns.

The grammar ships inside the installed package (``pdn_tools/grammar/pdn.lark``);
in a source checkout it is read from ``grammar/pdn.lark``.  The splitter and the
tree builder take the patterns they need (results, tags, moves) from the loaded
grammar, so the grammar file stays the one definition of PDN's tokens.
lark-cython is used when it is installed (the ``fast`` extra).

Building the parser from the grammar is a large part of every command's start (lark
first builds its own parser of grammar files); so the wheel build saves the built
parser beside the grammar (``pdn_tools/grammar/pdn.lark.tables``, lark's
``Lark.save``: :func:`write_tables`), and :func:`parser` loads it when it was made
from the same grammar text, lark version and options (:func:`tables_key`), else
builds the parser from the grammar as a source checkout always does.
"""

from __future__ import annotations

import hashlib
import io
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

import lark
from lark import Lark

try:  # pragma: no cover - depends on the environment
    import lark_cython

    _PLUGINS: dict[str, Any] | None = lark_cython.plugins
except ImportError:  # pragma: no cover
    _PLUGINS = None


def grammar_text() -> str:
    """The text of ``pdn.lark``, from the installed package or the source tree."""
    packaged = resources.files("pdn_tools").joinpath("grammar/pdn.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "grammar" / "pdn.lark"
    return source.read_text(encoding="utf-8")


#: How the parser is built from the grammar.
OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "basic", "maybe_placeholders": False}
#: The saved parser, inside the installed package (made by the wheel build).
TABLES = "grammar/pdn.lark.tables"


@cache
def parser() -> Lark:
    """The LALR parser for one game chunk (loaded or built once per process)."""
    text = grammar_text()
    shipped = resources.files("pdn_tools").joinpath(TABLES)
    if shipped.is_file():
        loaded = load_tables(text, shipped.read_bytes())
        if loaded is not None:
            return loaded
    return build_parser(text)


def _plugins() -> dict[str, Any]:
    """lark-cython's classes as lark takes them, when it is installed."""
    return {} if _PLUGINS is None else {"_plugins": _PLUGINS}


def build_parser(text: str) -> Lark:
    """The parser of grammar *text*, built (with lark-cython's classes when installed)."""
    return Lark(text, **OPTIONS, **_plugins())


def tables_key(text: str) -> bytes:
    """What a saved parser was made from: the grammar *text*, lark's version and
    :data:`OPTIONS` (a digest, the first line of the tables file)."""
    made_from = repr((text, lark.__version__, sorted(OPTIONS.items())))
    return hashlib.sha256(made_from.encode("utf-8")).hexdigest().encode("ascii")


def write_tables(text: str, handle: BinaryIO) -> None:
    """Save the parser of grammar *text* to *handle* for :func:`load_tables`: the key
    (:func:`tables_key`) on the first line, then lark's own serialisation."""
    handle.write(tables_key(text) + b"\n")
    # Saved without lark-cython: its classes are put in when the tables are loaded.
    Lark(text, **OPTIONS).save(handle)


def load_tables(text: str, data: bytes) -> Lark | None:
    """The parser saved in *data* (see :func:`write_tables`), or None when it was not
    made from grammar *text* with this lark and these options, or cannot be read.

    The file is part of the installed package, as trusted as its code (lark's
    serialisation is a pickle).  lark-cython's classes are put in when it is
    installed, as when the parser is built.
    """
    key, _, saved = data.partition(b"\n")
    if key != tables_key(text):
        return None
    try:
        # Lark.load(f) is this call without options; only _load takes the plugins.
        return Lark.__new__(Lark)._load(io.BytesIO(saved), **_plugins())
    except Exception:  # a damaged file: build the parser instead
        return None


def uses_cython() -> bool:
    """Whether the parser runs on lark-cython."""
    return _PLUGINS is not None


@cache
def pattern(name: str) -> str:
    """The regular expression of terminal *name*, as Python ``re`` source."""
    return str(parser().get_terminal(name).pattern.to_regexp())


#: The terminals matched outside the parser (:mod:`pdn_tools.pdn.terminals`).
OUTSIDE_PARSER = (
    "RESULT",
    "TAG",
    "TAG_RUN",
    "MOVE_RUN",
    "MOVE",
    "MOVE_NUMBER",
    "ELLIPSIS",
    "COMMENT",
    "NAG",
)


def render_terminals() -> str:
    """The source of :mod:`pdn_tools.pdn.terminals`: the patterns of the terminals in
    :data:`OUTSIDE_PARSER`, as this grammar defines them (``build_support/write_terminals.py``
    writes it; a test compares it with the grammar)."""
    lines = [
        '"""The grammar\'s terminal patterns that are matched without the parser.',
        "",
        "Written by ``build_support/write_terminals.py`` from ``grammar/pdn.lark`` (do not",
        "edit by hand: run the script after changing the grammar; ``tests/test_terminals.py``",
        "fails while the two disagree).  The splitter and the plain reading take their",
        "patterns from here, so a command that reads plain games never imports lark.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "import re",
        "from functools import cache",
        "from typing import Final",
        "",
        "#: Terminal name -> its regular expression (Python ``re`` source).",
        "PATTERNS: Final[dict[str, str]] = {",
    ]
    lines += [f"    {name!r}: {pattern(name)!r}," for name in OUTSIDE_PARSER]
    lines += [
        "}",
        "",
        "",
        "def pattern(name: str) -> str:",
        '    """The regular expression of terminal *name*, as Python ``re`` source."""',
        "    return PATTERNS[name]",
        "",
        "",
        "@cache",
        "def terminal(name: str) -> re.Pattern[str]:",
        '    """Terminal *name* of the grammar, compiled."""',
        "    return re.compile(PATTERNS[name])",
        "",
        "",
        "@cache",
        "def run_items() -> re.Pattern[str]:",
        '    """The items of a MOVE_RUN token: numbers, moves, ellipses, comments, NAGs."""',
        '    names = ("MOVE_NUMBER", "MOVE", "ELLIPSIS", "COMMENT", "NAG")',
        '    return re.compile("|".join(f"(?P<{n}>{PATTERNS[n]})" for n in names))',
        "",
    ]
    return "\n".join(lines)
