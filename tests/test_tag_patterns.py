"""The tag patterns rewritten to run in linear time accept what they accepted before.

The grammar's TAG terminal, the tag reader's pattern (``pdn_tools/pdn/tags.py``) and
the splitter's tag opening had repetitions that could match the same blanks, which
backtracked for cubic or quadratic time on a '[' followed by many blanks
(docs/security.md, ``tests/security/test_tags.py``).  The patterns they were are
kept here and compared with the new ones on generated tag-like text: the same
matches, the same ends, the same groups.  The rules added to the tag patterns since
are added to these in their plain form too (a value's '\\"' followed by ']' at the end
of its line ends it; curly double quotes are quotes), so that the comparison goes on
checking the linear rewrite."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from pdn_tools.pdn import split, tags, terminals

#: A quote of a tag value: ``"`` or a curly double quote.
Q = '"\u201c\u201d'
OLD_TAG = re.compile(
    rf"\[\s*[^{Q}\[\]\n]*?\s*(?:[{Q}](?:[^{Q}\\\n]++|\\(?=[{Q}][ \t]*\][ \t]*(?:\n|\[|\Z))|\\."
    rf"|\n(?![ \t]*\[)|[{Q}](?![ \t]*\]))*[{Q}][ \t]*)?\]"
)
OLD_TAG_READER = re.compile(rf"\[\s*([^{Q}\[\]]*?)\s*(?:[{Q}](.*)[{Q}]\s*)?\]\s*\Z", re.S)
OLD_TAG_OPENING = re.compile(rf"\[(?=[ \t]*[^{Q}\[\]\n]*(?:[{Q}]|\]|$))")

#: What tags are made of and what breaks them: brackets, quotes, backslashes, line
#: ends, blanks of several kinds (a tab, a no-break and an ideographic space, a CR),
#: words, curly double quotes, and a few pieces that end or continue a value.
ALPHABET = [
    "[",
    "]",
    '"',
    "\\",
    "\n",
    " ",
    "\t",
    "a",
    "b",
    "\xa0",
    "\u3000",
    "\r",
    "\u201c",
    "\u201d",
]
PIECES = [
    "ab",
    "  ",
    '"]',
    '" ]',
    "\n ",
    "\n[",
    '\\"',
    '"x"',
    '\\"]',
    '\\" ]\n',
    "\u201d]",
    "\\\u201d]",
]
TEXT = st.lists(st.sampled_from(ALPHABET + PIECES), max_size=16).map("".join)


def _span(found: re.Match[str] | None) -> tuple[int, int] | None:
    return None if found is None else found.span()


@settings(max_examples=1000, deadline=None)
@given(TEXT, st.integers(0, 3))
@example("a\nb]", 0)
@example(' \n a  b \n "x"]', 0)
@example('a "x\n[b"]', 0)
@example('a "x\\"]"]', 0)
@example('a "C:\\x\\"]', 0)
@example('a "C:\\x\\" ] \n[b "y"]', 0)
@example('a "x\\"] [b "y"]', 0)
@example('a "x\\"] b', 0)
@example("a \u201cx\u201d]", 0)
@example('a "x\u201d"]', 0)
def test_the_tag_terminal_matches_as_before(text: str, at: int) -> None:
    line = "[" + text
    at = min(at, len(line))
    new = terminals.terminal("TAG")
    assert _span(new.match(line, at)) == _span(OLD_TAG.match(line, at))


@settings(max_examples=1000, deadline=None)
@given(TEXT)
def test_the_tag_reader_splits_as_before(text: str) -> None:
    line = "[" + text
    new, old = tags._TAG.match(line), OLD_TAG_READER.match(line)
    assert (new is None) == (old is None)
    if new is not None and old is not None:
        assert new.groups() == old.groups()
        assert new.span() == old.span()


@settings(max_examples=1000, deadline=None)
@given(TEXT)
def test_the_tag_opening_is_found_as_before(text: str) -> None:
    assert [m.span() for m in split._TAG_OPENING.finditer(text)] == [
        m.span() for m in OLD_TAG_OPENING.finditer(text)
    ]


def test_the_splitter_finds_tag_openings_with_the_same_pattern() -> None:
    assert split._TAG_OPENING.pattern[2:] in split._SPECIAL.pattern


def test_real_tags_are_matched_whole() -> None:
    lines = [
        '[Event "x"]',
        '[ Black  Elo "2100" ]',
        '[FEN "W:W31,32\n:B1,2"]',
        '[Event "a "quoted" word"]',
        '[Event "back\\"slash"]',
        '[Source "C:\\games\\"]',
        "[Event \u201cOpen 2024\u201d]",
        '[Event "the \u201cOpen\u201d"]',
        "[Round]",
        "[   ]",
    ]
    for line in lines:
        found = terminals.terminal("TAG").match(line)
        assert found is not None and found.end() == len(line), line
        assert _span(found) == _span(OLD_TAG.match(line))
