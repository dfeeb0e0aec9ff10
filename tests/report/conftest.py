"""Fixtures shared by the report tests: one headless Chromium per test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser import Browser, chromium


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """A headless Chromium for the module's tests, closed after the last of them.

    The window is 1200x900 unless the module sets ``BROWSER_SIZE = (width, height)``.
    Skips, with the way to install one, where no Chromium is installed (modules whose
    every test needs the browser are marked with ``browser.BROWSER_TESTS`` as well).
    """
    executable = chromium()
    if executable is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium; or set PDN_CHROMIUM)")
    width, height = getattr(request.module, "BROWSER_SIZE", (1200, 900))
    opened = Browser(executable, width=width, height=height)
    yield opened
    opened.close()
