"""Create one virtual environment per peer library, so that peers that share an
import name (py-draughts and pydraughts both import as ``draughts``) never meet.

Usage: ``python3 benchmarks/peers.py`` (idempotent).  Environments live in
``benchmarks/.venvs/<name>``; :func:`python_of` gives a peer's interpreter.  Our own
compiled build gets one too (:func:`ensure_compiled`), so that the benchmarks can run
it beside the checkout's pure-Python code and the peers in one run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

VENVS = Path(__file__).resolve().parent / ".venvs"

#: peer name -> PyPI requirement
PEERS: dict[str, str] = {
    "py-draughts": "py-draughts",
    "pydraughts": "pydraughts",
    "dame-rs": "dame-rs",
}


def python_of(name: str) -> Path:
    """Interpreter of the peer's environment (may not exist yet)."""
    return VENVS / name / "bin" / "python"


def ensure(name: str) -> Path | None:
    """Create the environment for *name* if needed; None when the install fails."""
    py = python_of(name)
    if py.exists():
        return py
    venv.EnvBuilder(with_pip=True, clear=True).create(VENVS / name)
    done = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", PEERS[name]],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.stderr.write(f"peers: could not install {PEERS[name]}: {done.stderr.strip()[-400:]}\n")
        return None
    return py


OURS_COMPILED = "ours-compiled"
"""Our compiled build: the checkout installed by ``pip install .`` into its own venv."""
ROOT = Path(__file__).resolve().parent.parent


def _revision() -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def ensure_compiled(reinstall: bool = False) -> Path | None:
    """The interpreter of ``benchmarks/.venvs/ours-compiled``, where the checkout is
    installed as the compiled wheel (``pip install .`` with a failed compile an
    error); installed when missing, reinstalled when *reinstall*.  None when the
    build fails.  The wheel is a snapshot: a checkout that has moved on since the
    install is reported on stderr (``--install`` rebuilds it)."""
    env_dir = VENVS / OURS_COMPILED
    py = env_dir / "bin" / "python"
    marker = env_dir / "REVISION"
    if not py.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
        reinstall = True
    if reinstall:
        done = subprocess.run(
            [str(py), "-m", "pip", "install", "-q", "--force-reinstall", str(ROOT)],
            capture_output=True,
            text=True,
            env={**os.environ, "PDN_TOOLS_REQUIRE_COMPILED": "1"},
        )
        if done.returncode != 0:
            sys.stderr.write(f"peers: compiled build failed: {done.stderr.strip()[-400:]}\n")
            return None
        marker.write_text(_revision() + "\n")
    installed = marker.read_text().strip() if marker.exists() else "unknown"
    if installed != _revision():
        sys.stderr.write(
            f"peers: {OURS_COMPILED} holds commit {installed}, the checkout is at "
            f"{_revision()} (pass --install to rebuild it)\n"
        )
    return py


def main() -> int:
    """Create every peer environment and say which are usable."""
    failures = 0
    for name in PEERS:
        py = ensure(name)
        status = "ready" if py else "unavailable"
        failures += py is None
        sys.stderr.write(f"peers: {name}: {status}\n")
    return 1 if failures == len(PEERS) else 0


if __name__ == "__main__":
    raise SystemExit(main())
