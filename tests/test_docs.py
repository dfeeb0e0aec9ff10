"""Documentation that must not drift from the code."""

from __future__ import annotations

import ast
import contextlib
import doctest
import importlib
import io
import re

import pytest
from conftest import REPO

from pdn_tools.diagnostics import CATALOGUE, catalogue_markdown


def test_every_code_is_documented() -> None:
    text = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert catalogue_markdown() in text, "regenerate the table in docs/diagnostics.md"
    for code in CATALOGUE:
        assert f"| {code} |" in text


def test_readme_commands_match_ci() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    test_command = "python3 -m pip install -e '.[test]' && python3 -m pytest"
    assert test_command in readme
    assert test_command in ci
    assert "python3 -m pip install . && pdn validate corpus/" in readme


def test_cli_reference_lists_every_command_and_option() -> None:
    """docs/cli.md names every command in its table and every option of every command
    (negative forms such as --no-respect-gitignore too)."""
    import click
    from cli_helpers import all_commands

    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text.split("\n## ", 1)[0]
    for name, command in all_commands().items():
        assert f"| [`pdn {name}" in table, f"the command table lacks pdn {name}"
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in param.opts + param.secondary_opts:
                    if opt.startswith("--") and opt != "--help":
                        assert f"`{opt}" in text, (name, opt)


def test_api_page_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    failures, tried = doctest.testfile(
        str(REPO / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tried > 20 and failures == 0


@pytest.mark.parametrize("module", ["pdn_tools.rules.board", "pdn_tools.pdn.model"])
def test_docstring_examples_run(module: str) -> None:
    """The examples in the module's docstrings, read from its source (a compiled
    module carries no docstrings) and run against the module as imported."""
    imported = importlib.import_module(module)
    source = REPO.joinpath(*module.split(".")).with_suffix(".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            text = ast.get_docstring(node, clean=True)
            if text and ">>>" in text:
                name = getattr(node, "name", module)
                runner.run(parser.get_doctest(text, dict(vars(imported)), name, str(source), 0))
    failures, tried = runner.summarize(verbose=False)
    assert tried > 0 and failures == 0


def test_readme_python_snippet_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's Python section, run as written: findings with file:line:col, the
    board before each faulty move, one game as PDN and as JSON."""
    monkeypatch.chdir(REPO)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", readme, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), "README.md", "exec"), {})
    text = out.getvalue()
    assert "corpus/faults/illegal-moves.pdn:5:34: E05 " in text
    assert text.count("+---------------------+") >= 4  # boards before the faulty moves
    assert "1. 32-28 19-23 2. 28x19 14x23 *" in text
    assert '"canonical": "28x19"' in text


def test_rules_engine_page_example_runs() -> None:
    """The Python block of docs/rules-engine.md, run as written: its names are defined
    and its comments say what it gives (32-28 19-23, then White's one capture)."""
    page = (REPO / "docs" / "rules-engine.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) == 1
    names: dict[str, object] = {}
    exec(compile(blocks[0], "docs/rules-engine.md", "exec"), names)
    assert names["text"] == "28x19"
    moves = names["moves"]
    assert isinstance(moves, list) and len(moves) == 1
    assert names["key"] == names["result"].position.apply(names["match"].move).key()  # type: ignore[attr-defined]
