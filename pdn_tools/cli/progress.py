"""A progress bar on stderr for long runs, drawn only when stderr is a terminal.

Reports may go to the same terminal (stdout), so the bar is a single line that is
wiped before report lines are written and drawn again after them; it is redrawn at
most ten times a second.  In pipes, in CI logs, on a ``TERM=dumb`` terminal and with
``--quiet`` nothing is drawn; the bar is dimmed only when colour is wanted
(:mod:`pdn_tools.cli.terminal`).
"""

from __future__ import annotations

import time
from typing import TextIO

import click

from pdn_tools.cli.terminal import can_draw

#: Runs over less input than this (bytes) finish too soon to need a bar.
MIN_BYTES = 1 << 20
_WIDTH = 30
_INTERVAL = 0.1


def wanted(stream: TextIO, total: int, quiet: bool) -> bool:
    """Whether a run over *total* bytes shows a bar on *stream*."""
    return not quiet and total >= MIN_BYTES and can_draw(stream)


class Progress:
    """Bytes done out of a known total, as a bar; inactive ones do nothing."""

    def __init__(self, stream: TextIO, total: int, active: bool, colour: bool = False) -> None:
        self.stream = stream
        self.colour = colour
        self.total = max(1, total)
        self.active = active
        self.done = 0
        self.start = time.monotonic()
        self.drawn_at = 0.0
        self.shown = False

    def clear(self) -> None:
        """Wipe the bar's line before other output is written."""
        if self.active and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

    def advance(self, amount: int) -> None:
        """Count *amount* more bytes done and redraw (at most every 0.1 s)."""
        if not self.active:
            return
        self.done = min(self.total, self.done + amount)
        now = time.monotonic()
        if self.shown and now - self.drawn_at < _INTERVAL and self.done < self.total:
            return
        self.drawn_at = now
        share = self.done / self.total
        filled = int(share * _WIDTH)
        rate = self.done / max(now - self.start, 1e-9) / 1e6
        line = (
            f"[{'#' * filled}{'-' * (_WIDTH - filled)}] {share:4.0%} "
            f"{self.done / 1e6:.1f}/{self.total / 1e6:.1f} MB {rate:.1f} MB/s"
        )
        shown = click.style(line, dim=True) if self.colour else line
        self.stream.write("\r" + shown + "\x1b[K")
        self.stream.flush()
        self.shown = True

    def finish(self) -> None:
        """Remove the bar for good."""
        self.clear()
        self.active = False
