"""Load ``pdn.lark`` once and expose the parser and the terminal patterns.

The grammar ships inside the installed package (``pdn_tools/grammar/pdn.lark``);
in a source checkout it is read from ``grammar/pdn.lark``.  The splitter and the
tree builder take the patterns they need (results, tags, moves) from the loaded
grammar, so the grammar file stays the one definition of PDN's tokens.
lark-cython is used when it is installed (the ``fast`` extra).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

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


@cache
def parser() -> Lark:
    """The LALR parser for one game chunk (built once per process)."""
    options: dict[str, Any] = {"parser": "lalr", "lexer": "basic", "maybe_placeholders": False}
    if _PLUGINS is not None:
        options["_plugins"] = _PLUGINS
    return Lark(grammar_text(), **options)


def uses_cython() -> bool:
    """Whether the parser runs on lark-cython."""
    return _PLUGINS is not None


@cache
def pattern(name: str) -> str:
    """The regular expression of terminal *name*, as Python ``re`` source."""
    return str(parser().get_terminal(name).pattern.to_regexp())


@cache
def run_items() -> re.Pattern[str]:
    """Splits a MOVE_RUN token into its items (numbers, moves, '...', comments, NAGs)."""
    names = ("MOVE_NUMBER", "MOVE", "ELLIPSIS", "COMMENT", "NAG")
    return re.compile("|".join(f"(?P<{n}>{pattern(n)})" for n in names))


@cache
def terminal(name: str) -> re.Pattern[str]:
    """Terminal *name* of the grammar, compiled."""
    return re.compile(pattern(name))


def tag_pattern() -> re.Pattern[str]:
    """One tag, for splitting a TAG_RUN token."""
    return terminal("TAG")
