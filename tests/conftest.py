"""Shared fixtures: where the real-file corpus is, and small helpers.

The suite runs in parallel worker processes (pytest-xdist, ``-n auto`` in
pyproject.toml), so every test must stand alone: files only under ``tmp_path`` or
``tmp_path_factory``, servers on 127.0.0.1 port 0 (tests/cluster_helpers.py), no
reliance on the order of tests, no state left behind.  Fixtures that are costly to
make are ``scope="module"`` or ``"session"``: made once per worker that needs them.
The tests that start a Dask cluster or Chromium are grouped
(``pytest.mark.xdist_group``): one worker runs them one after another, while the
other workers go on with the rest.  A test that reads the whole shared corpus is
marked ``corpus_wide`` (see pyproject.toml).
"""

from __future__ import annotations

import compileall
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from browser import Browser

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "corpus"


def pytest_configure(config: pytest.Config) -> None:
    """Before any worker starts: compile the package's bytecode (as installing it
    does), so that the many ``pdn`` subprocesses of the tests do not each compile every
    module again where bytecode is not written (``PYTHONDONTWRITEBYTECODE``, a
    read-only install).  Quietly does nothing where the folder is not writable."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        import pdn_tools

        package = Path(pdn_tools.__file__).parent
        compileall.compile_dir(package, quiet=2, workers=1)


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


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """A headless Chromium for one test module's tests, closed after the last of them.

    The window is 1200x900 unless the module sets ``BROWSER_SIZE = (width, height)``.
    Skips, with the way to install one, where no Chromium is installed (modules whose
    every test needs the browser are marked with ``browser.BROWSER_TESTS`` as well).
    """
    from browser import Browser, chromium  # tests/browser.py: only browser tests need it

    executable = chromium()
    if executable is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium; or set PDN_CHROMIUM)")
    width, height = getattr(request.module, "BROWSER_SIZE", (1200, 900))
    opened = Browser(executable, width=width, height=height)
    yield opened
    opened.close()
