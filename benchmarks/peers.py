"""Create one virtual environment per peer library, so that peers that share an
import name (py-draughts and pydraughts both import as ``draughts``) never meet.

Usage: ``python3 benchmarks/peers.py`` (idempotent).  Environments live in
``benchmarks/.venvs/<name>``; :func:`python_of` gives a peer's interpreter.
"""

from __future__ import annotations

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
