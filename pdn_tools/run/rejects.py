"""The text of a rejected game too large to keep, copied again from its input.

``pdn convert --rejects`` writes each game with an error verbatim as read.  A game
larger than the size limit is not kept in memory by the reader (only its span is),
so its lines are read again from the input and streamed to the rejects file piece by
piece (:func:`pdn_tools.pdn.source.read_pieces`, at most ``MAX_PIECE`` characters at a
time): memory does not grow with the game.  A file is read again by path; standard
input cannot be, so while it is read every byte is also copied to an anonymous
temporary file (:class:`Spool`), which the lines are copied from.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator
from typing import BinaryIO

from pdn_tools.pdn.archives import open_input
from pdn_tools.pdn.source import Piece, read_pieces
from pdn_tools.run import storage


class Spool(io.RawIOBase):
    """A readable stream over *source* that keeps a copy of every byte read in an
    anonymous temporary file, for :class:`LineCopier` to read lines back from."""

    def __init__(self, source: BinaryIO) -> None:
        super().__init__()
        self._source = source
        self._copy = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self.size = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._source.read(len(buffer))
        if not data:
            return 0
        self._copy.write(data)
        n = len(data)
        buffer[:n] = data
        self.size += n
        return n

    def reader(self) -> BinaryIO:
        """A new stream over the bytes copied so far, from the start."""
        self._copy.flush()
        return io.BufferedReader(_PositionalReader(self._copy.fileno(), self.size), 1 << 16)

    def close(self) -> None:
        """Remove the copy."""
        if not self.closed:
            self._copy.close()
        super().close()


class _PositionalReader(io.RawIOBase):
    """Reads a file descriptor with ``pread`` up to a size, leaving its offset alone."""

    def __init__(self, fd: int, size: int) -> None:
        super().__init__()
        self._fd = fd
        self._size = size
        self._at = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        want = min(len(buffer), self._size - self._at)
        if want <= 0:
            return 0
        data = os.pread(self._fd, want, self._at)
        n = len(data)
        buffer[:n] = data
        self._at += n
        return n


class LineCopier:
    """Lines of one input, read again as the reader decoded them.

    Requests come in file order, so a file is read once from its start however many
    games are copied from it (a request for an earlier line starts over).  A spool is
    read from its start for each request: it may still grow, and a line read at its
    current end could be cut short.
    """

    def __init__(self, path: str | None = None, spool: Spool | None = None) -> None:
        if (path is None) == (spool is None):
            raise ValueError("give a path or a spool")
        self._path = path
        self._spool = spool
        self._handle: BinaryIO | None = None
        self._pieces: Iterator[Piece] | None = None
        self._held: Piece | None = None
        self._encoding: str | None = None

    def _restart(self, encoding: str | None) -> None:
        self.close()
        if self._spool is not None:
            self._handle = self._spool.reader()
        else:
            assert self._path is not None
            if storage.is_url(self._path):
                self._handle = storage.open_binary(self._path)
            else:
                self._handle = open_input(self._path)  # compressed files and zip members too
        self._pieces = read_pieces(self._handle, encoding)
        self._held = None
        self._encoding = encoding

    def lines(self, encoding: str | None, start: int, end: int, column: int = 1) -> Iterator[str]:
        """The text from line *start*, *column* to the end of line *end* (1-based,
        inclusive), in pieces, line ends as ``\\n``; *encoding* is the one the reader
        was told to use (None: it detected it, and so it is detected again)."""
        held = self._held
        resume = (
            self._spool is None
            and self._encoding == encoding
            and held is not None
            and held.line <= start
        )
        if not resume:
            self._restart(encoding)
        assert self._pieces is not None
        first = True
        while True:
            piece = self._held if self._held is not None else next(self._pieces, None)
            self._held = None
            if piece is None or piece.line > end:
                self._held = piece
                return
            if piece.line < start:
                continue
            text = piece.text
            if piece.line == start and piece.column < column - 1:
                text = text[column - 1 - piece.column :]  # the end of the game before
            if first and piece.line == 1 and piece.column == 0:
                text = text.removeprefix("\ufeff")  # a BOM read as text under a forced encoding
            first = False
            yield text + ("\n" if piece.ends_line else "")

    def close(self) -> None:
        """Close the input opened for copying."""
        if self._handle is not None:
            self._handle.close()
        self._handle = None
        self._pieces = None


__all__ = ["LineCopier", "Spool"]
