"""Running ``pdn`` in a subprocess, as users and pipelines do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
from conftest import REPO

from pdn_tools.cli import main

PDN = [sys.executable, "-m", "pdn_tools"]


def run(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``pdn ARGS`` with captured text output."""
    return subprocess.run(
        [*PDN, *args],
        input=stdin.decode("utf-8") if stdin is not None else None,
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        timeout=timeout,
    )


def run_bytes(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``pdn ARGS`` with the raw bytes of its output (for byte-for-byte comparisons),
    in the environment *env* when given."""
    return subprocess.run(
        [*PDN, *args], capture_output=True, cwd=cwd or REPO, env=env, timeout=600, check=False
    )


def one_clean_line(stderr: str) -> str:
    """The single line of an exit-2 message; fails on tracebacks and extra lines."""
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


#: Two games: the first with a warning (W10) on ply 1, the second with an illegal move.
MIXED = (
    '[Event "Club, round 1"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n1. 32- 28 18-23 *\n\n'
    '[Event "b"]\n[GameType "20"]\n1. 32-28 18-23 2. 28-23 *\n'
)


def all_commands() -> dict[str, click.Command]:
    """Every sub-command of ``pdn`` by name (the group imports them when asked for)."""
    with click.Context(main) as ctx:
        found = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    return {name: command for name, command in found.items() if command is not None}
