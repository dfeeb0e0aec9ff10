"""Documentation that must not drift from the code."""

from __future__ import annotations

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


def test_cli_reference_lists_every_option() -> None:
    import click

    from pdn_tools.cli import main

    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    for name, command in main.commands.items():
        assert f"`pdn {name}" in text, name
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in param.opts:
                    if opt.startswith("--") and opt != "--help":
                        assert f"`{opt}" in text, (name, opt)
