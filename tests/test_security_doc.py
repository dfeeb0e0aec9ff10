"""docs/security.md names the test that keeps each promise: every test it names
exists, and every test of tests/security/ is named there."""

from __future__ import annotations

import ast
import re

from conftest import REPO

DOC = (REPO / "docs" / "security.md").read_text(encoding="utf-8")


def _tests(path: str) -> set[str]:
    tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
    return {
        n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")
    }


def test_every_test_named_exists() -> None:
    named = re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)`", DOC)
    assert len(named) > 40
    for path, name in named:
        assert name in _tests(path), f"docs/security.md names {path}::{name}, which does not exist"


def test_every_security_test_is_named() -> None:
    for path in sorted((REPO / "tests" / "security").glob("test_*.py")):
        relative = path.relative_to(REPO).as_posix()
        for name in _tests(relative):
            assert f"`{relative}::{name}`" in DOC, f"docs/security.md does not name {name}"
