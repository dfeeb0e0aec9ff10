"""Every ``rules.md §N`` and ``pdn-format.md §N`` cited by the code, the grammar, the
tests and the documentation names a section that exists in the project's own
docs/rules.md and docs/pdn-format.md.

A citation is a file name followed by section marks (``rules.md §5.1, §6``,
``pdn-format.md §10.3``, ``rules.md §5-§6``); a bare ``§N`` refers to the document named
last before it in the same file.  Sections are the numbered headings of the two pages
(``## 5.`` and ``### 5.1``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = {"rules.md": ROOT / "docs" / "rules.md", "pdn-format.md": ROOT / "docs" / "pdn-format.md"}
_HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)[. ]", re.MULTILINE)
_NAME = re.compile(r"(rules|pdn-format)\.md")
_MARK = re.compile(r"§\s?(\d+(?:\.\d+)*)")
SOURCES = [
    path
    for folder in ("pdn_tools", "docs", "grammar", "tests", "benchmarks", "build_support")
    for path in sorted((ROOT / folder).rglob("*"))
    if path.suffix in {".py", ".md", ".lark", ".js", ".css", ".toml", ".json"}
    # not in hidden folders: benchmarks/.venvs holds the peers' installed packages
    and not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
] + [ROOT / "README.md"]


def sections(name: str) -> set[str]:
    """The section numbers of docs/NAME."""
    return set(_HEADING.findall(DOCS[name].read_text(encoding="utf-8")))


_RUN = re.compile(r"(?:[`\s,;()\u2013-]|and\b|or\b|item \d+|§\s?\d+(?:\.\d+)*)*")


def citations(text: str, own: str | None = None) -> list[tuple[str, str, int]]:
    """(document, section, line) of every section mark in *text*.  The marks that
    follow a document's name belong to it; another mark belongs to *own* (the page
    itself, for the two pages) or else to the document named last before it."""
    runs: list[tuple[int, int, str]] = []
    for name in _NAME.finditer(text):
        run = _RUN.match(text, name.end())
        runs.append((name.start(), run.end() if run else name.end(), name.group(0)))
    found = []
    for mark in _MARK.finditer(text):
        at = mark.start()
        inside = [name for start, end, name in runs if start < at < end]
        before = [name for start, _, name in runs if start < at]
        document = inside[-1] if inside else own or (before[-1] if before else "(none)")
        found.append((document, mark.group(1), text.count("\n", 0, at) + 1))
    return found


def test_both_pages_exist_and_are_numbered() -> None:
    for name in DOCS:
        numbers = sections(name)
        assert len(numbers) >= 20, name
        assert {str(n) for n in range(1, 13)} <= numbers or name == "rules.md"
    assert {"4.1", "4.11", "5.2", "6.7", "7", "8"} <= sections("rules.md")
    assert {"3.5", "10.3", "10.4", "12.4", "12.5"} <= sections("pdn-format.md")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_citation_names_a_section(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.name == "test_citations.py":
        return  # this file's own examples
    missing = [
        f"{path.relative_to(ROOT)}:{line}: {document} §{section}"
        for document, section, line in citations(text, path.name if path in DOCS.values() else None)
        if document not in DOCS or section not in sections(document)
    ]
    assert missing == []


def test_the_resolver_finds_what_is_missing() -> None:
    """The control: a citation of a section that does not exist, and one of a document
    the project does not have, are found."""
    text = "see rules.md §4.99 and the corpus README §2.8; pdn-format.md §10.3, §77"
    found = citations(text)
    assert found == [
        ("rules.md", "4.99", 1),
        ("rules.md", "2.8", 1),
        ("pdn-format.md", "10.3", 1),
        ("pdn-format.md", "77", 1),
    ]
    bad = [(d, s) for d, s, _ in found if s not in sections(d)]
    assert bad == [("rules.md", "4.99"), ("rules.md", "2.8"), ("pdn-format.md", "77")]
