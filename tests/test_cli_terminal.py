"""The command line as users of linters expect it: help, colour and progress on a
terminal (a real pseudo-terminal), the one --variant of every command, completion."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import click
import pytest
from cli_helpers import run
from click.testing import CliRunner
from conftest import REPO

from pdn_tools.cli import main
from pdn_tools.cli.options import VariantType
from pdn_tools.cli.progress import MIN_BYTES

BAD = '[Event "x"]\n[GameType "20"]\n1. 32-28 32-28 *\n'


def on_terminal(*args: str, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """``pdn ARGS`` with stdout and stderr on pseudo-terminals; (status, stdout, stderr)."""
    out_master, out_slave = pty.openpty()
    err_master, err_slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pdn_tools", *args],
            stdout=out_slave,
            stderr=err_slave,
            cwd=REPO,
            env={**os.environ, **env},
            timeout=300,
            check=False,
        )
        os.close(out_slave)
        os.close(err_slave)
        return done.returncode, _drain(out_master), _drain(err_master)
    finally:
        os.close(out_master)
        os.close(err_master)


def _drain(fd: int) -> bytes:
    chunks = []
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:  # EIO once the terminal is drained
            break
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks)


def _clean_env() -> dict[str, str]:
    return {"NO_COLOR": "", "FORCE_COLOR": "", "TERM": "xterm-256color"}


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file over the progress bar's threshold that reads fast, with one error."""
    path = tmp_path_factory.mktemp("terminal") / "large.pdn"
    game = '[Event "x"]\n[GameType "20"]\n1. 32-28 {' + "c" * 100_000 + "} 18-23 *\n\n"
    path.write_text(BAD + game * (MIN_BYTES // 100_000 + 2), encoding="utf-8")
    return path


def test_colour_on_a_terminal_and_no_color(large: Path) -> None:
    args = ("validate", str(large), "--syntax-only", "-j", "1", "--isolated")
    status, out, err = on_terminal(*args, "--select", "E", env=_clean_env())
    assert status == 0  # --syntax-only: the illegal move is not seen
    assert b"\x1b[2m" in err and b"100%" in err  # a dimmed bar
    status, out, err = on_terminal(*args, env={**_clean_env(), "NO_COLOR": "1"})
    assert b"100%" in err and b"\x1b[2m" not in err and b"\x1b[1m" not in err
    assert b"\x1b[" not in out
    replayed = ("validate", str(large), "-j", "1", "--isolated")
    status, out, err = on_terminal(*replayed, env=_clean_env())
    assert status == 1 and b"\x1b[1;31merror\x1b[0m E05" in out
    status, out, err = on_terminal(*replayed, env={**_clean_env(), "NO_COLOR": "1"})
    assert b"error E05" in out and b"\x1b" not in out


def test_dumb_terminal_draws_no_bar(large: Path) -> None:
    status, out, err = on_terminal(
        "validate", str(large), "--syntax-only", "-j", "1", "--isolated",
        env={**_clean_env(), "TERM": "dumb"},
    )  # fmt: skip
    assert status == 0
    assert b"%" not in err and b"\x1b" not in err + out
    assert err.strip().endswith(b"0 game(s) with errors")


def test_color_option_and_force_color(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdn"
    bad.write_text(BAD, encoding="utf-8")
    piped = run("validate", str(bad), "--isolated")
    assert "\x1b" not in piped.stdout
    forced = subprocess.run(
        [sys.executable, "-m", "pdn_tools", "validate", str(bad), "--isolated"],
        capture_output=True,
        text=True,
        env={**os.environ, "FORCE_COLOR": "1", "NO_COLOR": ""},
        timeout=120,
    )
    assert "\x1b[1;31merror\x1b[0m" in forced.stdout
    always = run("validate", str(bad), "--isolated", "--color", "always")
    assert "\x1b[1;31merror\x1b[0m" in always.stdout
    status, out, _ = on_terminal(
        "validate", str(bad), "--isolated", "--color", "never", env=_clean_env()
    )
    assert status == 1 and b"error E05" in out and b"\x1b" not in out
    status, out, _ = on_terminal(
        "validate", str(bad), "--isolated", "--format", "jsonl", env=_clean_env()
    )
    assert b"\x1b" not in out  # machine formats are never coloured


def test_bare_pdn_prints_the_help() -> None:
    done = run()
    assert done.returncode == 2
    assert done.stdout.startswith("Usage: pdn [OPTIONS] COMMAND [ARGS]...")
    assert done.stdout == run("--help").stdout
    assert done.stderr == ""


def test_help_texts_are_whole_sentences_that_fit() -> None:
    listing = CliRunner().invoke(main, ["--help"], prog_name="pdn", terminal_width=80)
    commands = listing.output.split("Commands:", 1)[1]
    assert "..." not in commands and "…" not in commands
    for name, command in main.commands.items():
        assert command.short_help and command.short_help.endswith("."), name
        assert command.short_help in listing.output, name
        for param in command.params:
            if isinstance(param, click.Option) and param.help:
                text = param.help
                assert text[0].isupper() and text.rstrip().endswith("."), (name, param.name)


@pytest.mark.parametrize("spelling", ["english", "English", "ENGLISH", "checkers", "21"])
def test_one_variant_type_for_every_command(tmp_path: Path, spelling: str) -> None:
    game = tmp_path / "tinsley.pdn"
    game.write_text('[Event "x"]\n1. 11-15 23-19 2. 8-11 22-17 *\n', encoding="utf-8")
    runner = CliRunner()
    for args in (
        ["validate", str(game), "-j", "1", "--isolated"],
        ["stats", str(game), "-j", "1", "--isolated"],
        ["show", str(game), "--isolated"],
        ["convert", str(game), "-o", "-", "--to", "jsonl", "--isolated"],
        ["moves", "B:W21-32:B1-12"],
        ["perft", "1"],
    ):
        done = runner.invoke(main, [*args, "--variant", spelling], prog_name="pdn")
        assert done.exit_code == 0, (args, done.output)
    perft = runner.invoke(main, ["perft", "3", "--variant", spelling], prog_name="pdn")
    assert perft.stdout.strip() == "302"  # English draughts, not international
    unknown = runner.invoke(main, ["validate", str(game), "--variant", "klingon"])
    assert unknown.exit_code == 2 and "known: international (20), english (21)" in unknown.stderr


def test_variant_help_lists_the_names_once() -> None:
    for name in ("validate", "moves"):
        text = CliRunner().invoke(main, [name, "--help"]).output
        text = " ".join(text.split()).replace("- ", "-")  # as wrapped lines read
        assert text.count("short-landing") == 1, name
        assert "[international|" not in text


def test_shell_completion() -> None:
    runner = CliRunner()
    env = {"_PDN_COMPLETE": "bash_complete", "COMP_WORDS": "pdn validate --vari", "COMP_CWORD": "2"}
    done = runner.invoke(main, [], prog_name="pdn", env=env)
    assert "plain,--variant" in done.output
    env = {"_PDN_COMPLETE": "bash_complete", "COMP_WORDS": "pdn perft 3 --variant ru"}
    done = runner.invoke(main, [], prog_name="pdn", env={**env, "COMP_CWORD": "4"})
    assert "plain,russian" in done.output
    script = runner.invoke(main, [], prog_name="pdn", env={"_PDN_COMPLETE": "bash_source"})
    assert "_PDN_COMPLETE=bash_complete" in script.output
    assert isinstance(main.commands["perft"].params[2].type, VariantType)
