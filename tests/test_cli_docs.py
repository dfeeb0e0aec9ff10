"""docs/cli.md against ``pdn --help``, and the pre-commit hooks against the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from cli_helpers import all_commands, run
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.run.discover import PDN_ENDINGS, read_in_folders

COMMANDS_LOADED = all_commands()

DOC = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")


def sections() -> dict[str, str]:
    """The text of each ``## `pdn NAME …``` section, by command name (up to the next
    second-level heading)."""
    parts = re.split(r"^## `pdn (\S+)[^`]*`$", DOC, flags=re.MULTILINE)
    return {
        parts[i]: re.split(r"^## ", parts[i + 1], flags=re.M)[0] for i in range(1, len(parts), 2)
    }


def test_every_command_has_a_section() -> None:
    assert set(COMMANDS_LOADED) <= set(sections()), set(COMMANDS_LOADED) - set(sections())


@pytest.mark.parametrize("name", sorted(COMMANDS_LOADED))
def test_section_lists_exactly_the_options_of_help(name: str) -> None:
    """Every option of ``pdn NAME --help`` is documented in its section, and the
    section's option tables name no option the command does not have."""
    command = COMMANDS_LOADED[name]
    section = sections()[name]
    declared = {
        opt
        for param in command.params
        if isinstance(param, click.Option)
        for opt in param.opts + param.secondary_opts
        if opt.startswith("--") and opt != "--help"
    }
    table = "\n".join(line for line in section.splitlines() if line.startswith("| `-"))
    documented = set(re.findall(r"`(--[a-z][a-z0-9-]*)", table))
    assert declared - documented == set(), f"undocumented options of pdn {name}"
    assert documented - declared == set(), f"documented options pdn {name} lacks"
    help_text = run(name, "--help").stdout
    for opt in declared:
        assert opt in help_text


def test_format_choices_are_documented() -> None:
    validate = COMMANDS_LOADED["validate"]
    fmt = next(p for p in validate.params if p.name == "fmt")
    assert isinstance(fmt.type, click.Choice)
    row = next(line for line in sections()["validate"].splitlines() if "`--format" in line)
    assert "`--format " + "\\|".join(fmt.type.choices) + "`" in row
    for choice in fmt.type.choices:
        assert f"**`{choice}`**" in sections()["validate"]


def test_pre_commit_hooks(tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {hook["id"] for hook in hooks} == {"pdn-validate", "pdn-validate-syntax"}
    good = tmp_path / "good.pdn"
    good.write_text('[Event "x"]\n[GameType "20"]\n1. 32-28 *\n', encoding="utf-8")
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n[GameType "20"]\n1. 32-28 32-28 *\n', encoding="utf-8")
    for hook in hooks:
        assert hook["language"] == "python"
        assert re.search(hook["files"], "games/Round1.PDN")
        assert not re.search(hook["files"], "notes.txt")
        # One run over every staged file: the event checks see all of its games.
        assert hook["require_serial"] is True
        program, *args = hook["entry"].split()
        assert program == "pdn" and args[0] == "validate"
        # pre-commit appends the staged file names to the entry.
        assert run(*args, str(good)).returncode == 0
        bad_run = run(*args, str(good), str(bad))
        assert bad_run.returncode == (0 if "--syntax-only" in args else 1)
        assert bad_run.stderr == ""  # --quiet: findings only


@settings(max_examples=200, deadline=None)
@given(
    stem=st.sampled_from(["games/a", "B", "x.y", ".pdn", "dir.pdn/r"]),
    parts=st.lists(
        st.sampled_from([*PDN_ENDINGS, ".zip", ".gz", ".bz2", ".xz", ".zst", ".txt", ".pdnx"]),
        min_size=1,
        max_size=3,
    ),
    upper=st.booleans(),
)
def test_pre_commit_hooks_take_the_files_a_folder_walk_reads(
    stem: str, parts: list[str], upper: bool
) -> None:
    """The hooks' ``files`` pattern picks the names discovery reads in a folder, no
    more and no less (so the two cannot drift: a new compressed ending is in both)."""
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    name = stem + "".join(parts)
    name = name.upper() if upper else name
    for hook in hooks:
        picked = re.search(hook["files"], name) is not None
        assert picked == read_in_folders(name.rsplit("/", 1)[-1]), (hook["id"], name)


def test_pre_commit_hooks_name_every_ending_discovery_reads() -> None:
    """Each ending of :data:`PDN_ENDINGS`, and ``.zip``, is picked by every hook."""
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    for hook in hooks:
        for ending in (*PDN_ENDINGS, ".zip"):
            assert re.search(hook["files"], f"games/round{ending.upper()}"), (hook["id"], ending)
            assert re.search(hook["files"], f"games/round{ending}"), (hook["id"], ending)


def test_show_example_is_real_output() -> None:
    section = sections()["show"]
    command = "$ pdn show corpus/clean/club-evening.pdn --ply 5\n"
    example = section.split(command, 1)[1].split("\n$ ", 1)[0]
    done = run("show", "corpus/clean/club-evening.pdn", "--ply", "5")
    assert done.stdout.rstrip("\n") == example.rstrip("\n")


def test_stats_example_is_real_output() -> None:
    section = sections()["stats"]
    example = section.split("$ pdn stats corpus/ --total-only\n", 1)[1].split("\n$ ", 1)[0]
    done = run("stats", "corpus/", "--total-only")
    for expected, actual in zip(example.splitlines(), done.stdout.splitlines(), strict=True):
        assert actual.startswith(expected.removesuffix("…"))


def test_rule_options_table_is_generated() -> None:
    from pdn_tools.replay.rule_options import rules_markdown

    assert rules_markdown() in DOC, "regenerate the table in docs/cli.md with rules_markdown()"


def test_event_rules_table_is_generated() -> None:
    from pdn_tools.collection.events.rules import rules_markdown

    assert rules_markdown() in DOC, "regenerate the event rules table in docs/cli.md"


def test_configuration_example_is_a_valid_configuration(tmp_path: Path) -> None:
    """The [tool.pdn] example of docs/cli.md is read without complaint."""
    example = DOC.split("## Configuration", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "pyproject.toml").write_text(example, encoding="utf-8")
    (tmp_path / "g.pdn").write_text('[Event "x"]\n1. c3-d4 *\n', encoding="utf-8")
    done = run("validate", "g.pdn", "--format", "jsonl", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    assert '"variant": "russian"' in done.stdout
