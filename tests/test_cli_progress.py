"""The progress bar: drawn on a terminal for long runs, never in pipes or with --quiet."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from pdn_tools.cli.progress import MIN_BYTES


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file over the bar's threshold that reads fast: games padded with comments."""
    path = tmp_path_factory.mktemp("progress") / "large.pdn"
    game = '[Event "x"]\n[GameType "20"]\n1. 32-28 {' + "c" * 100_000 + "} 18-23 *\n\n"
    path.write_text(game * (MIN_BYTES // 100_000 + 2), encoding="utf-8")
    return path


def _run_with_terminal_stderr(*args: str) -> tuple[int, str, bytes]:
    """Run ``pdn ARGS`` with stderr on a pseudo-terminal; (status, stdout, stderr bytes)."""
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pdn_tools", *args],
            stdout=subprocess.PIPE,
            stderr=slave,
            cwd=REPO,
            timeout=300,
            check=False,
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # EIO once the terminal is drained
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    return done.returncode, done.stdout.decode(), b"".join(chunks)


def test_bar_on_a_terminal(large: Path) -> None:
    status, stdout, stderr = _run_with_terminal_stderr(
        "validate", str(large), "--syntax-only", "-j", "1"
    )
    assert status == 0
    assert b"100%" in stderr and b" MB" in stderr
    assert b"\r\x1b[K" in stderr  # the bar wipes its line before the summary
    assert stderr.rstrip().endswith(b"0 game(s) with errors")
    assert "\x1b" not in stdout


def test_no_bar_with_quiet_or_in_pipes(large: Path) -> None:
    status, _, stderr = _run_with_terminal_stderr(
        "validate", str(large), "--syntax-only", "--quiet"
    )
    assert status == 0 and stderr == b""
    piped = subprocess.run(
        [sys.executable, "-m", "pdn_tools", "validate", str(large), "--syntax-only"],
        capture_output=True,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    assert b"%" not in piped.stderr and b"\x1b" not in piped.stderr
    assert len(piped.stderr.strip().splitlines()) == 1  # the summary only


def test_no_bar_for_short_runs(tmp_path: Path) -> None:
    small = tmp_path / "small.pdn"
    small.write_text("1. 32-28 *\n", encoding="utf-8")
    _, _, stderr = _run_with_terminal_stderr("validate", str(small))
    assert b"%" not in stderr
