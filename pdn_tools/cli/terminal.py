"""The terminal: the standard streams, and whether colour and a progress bar are wanted.

Colour follows the conventions most command-line tools share, strongest first:

1. ``--color always`` or ``--color never``;
2. ``NO_COLOR`` set to anything but the empty string: no colour (https://no-color.org);
3. ``FORCE_COLOR`` set to anything but the empty string: colour, even in a pipe
   (https://force-color.org);
4. ``TERM=dumb``: no colour;
5. otherwise colour when the stream is a terminal.

A progress bar moves the cursor, so it is drawn only on a terminal that can do so
(not ``TERM=dumb``); whether the bar itself is coloured follows the rules above.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import TextIO

#: The values of ``--color``.
COLOR_CHOICES = ("auto", "always", "never")


class _Closed(io.RawIOBase):
    """A standard stream the process was started without (``pdn validate - <&-``):
    every read or write fails with an :class:`OSError` that says so."""

    def __init__(self, which: str) -> None:
        super().__init__()
        self.which = which

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def _fail(self) -> OSError:
        return OSError(errno.EBADF, f"standard {self.which} is closed")

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        raise self._fail()

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        raise self._fail()


def mend_closed_streams() -> None:
    """Stand in for standard input and output when the process was started with them
    closed (Python then makes them None), so that using them is an error of one line
    (exit status 2), not a traceback."""
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_Closed("input")), encoding="utf-8")
    if sys.stdout is None:
        closed = _Closed("output")
        sys.stdout = io.TextIOWrapper(closed, encoding="utf-8", write_through=True)


def stdout() -> TextIO:
    """Standard output, as the command sees it (replaced by click's test runner)."""
    return sys.stdout


def stderr() -> TextIO:
    """Standard error, as the command sees it."""
    return sys.stderr


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def dumb_terminal() -> bool:
    """Whether ``TERM`` says the terminal cannot move the cursor or show colour."""
    return os.environ.get("TERM", "") == "dumb"


def colour_wanted(choice: str, stream: TextIO) -> bool:
    """Whether output written to *stream* is coloured (``--color`` *choice*)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("FORCE_COLOR", ""):
        return True
    if dumb_terminal():
        return False
    return _is_terminal(stream)


def can_draw(stream: TextIO) -> bool:
    """Whether a line may be redrawn in place on *stream* (a progress bar)."""
    return _is_terminal(stream) and not dumb_terminal()
