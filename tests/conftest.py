"""Shared fixtures: where the real-file corpus is, and small helpers."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "corpus"


def shared_corpus() -> Path | None:
    """The read-only real-file corpus: $PDN_SHARED_CORPUS or ../shared/corpus."""
    env = os.environ.get("PDN_SHARED_CORPUS")
    path = Path(env) if env else REPO.parent / "shared" / "corpus"
    return path if path.is_dir() else None


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus folder; tests that need it skip when it is absent."""
    path = shared_corpus()
    if path is None:
        pytest.skip(
            "shared corpus not found at ../shared/corpus (read-only real-file test data, "
            "not part of the repository; set PDN_SHARED_CORPUS to point elsewhere)"
        )
    return path


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KB tmpfs, for full disks (needs root and a mount the sandbox allows)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)
