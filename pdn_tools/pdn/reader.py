"""The reading pipeline: bytes → text → game chunks → game trees, lazily.

:func:`read_games` is the streaming entry point: it yields one
:class:`~pdn_tools.pdn.model.Game` at a time and holds only the game being read, so
memory stays flat however large the file.  Findings about the file as a whole
(encoding, BOM, NUL bytes) are recorded on its first game; text after the last game
on its last game; a file with no game at all yields nothing, and its findings go to
the :class:`FileReport` passed in.  Which chunks are games and where findings go is
decided by :mod:`pdn_tools.pdn.records`.  Compressed data (gzip, bzip2, xz) is
decompressed as it is read, and a path that runs through a zip archive
(``games.zip/round1.pdn``) reads that member (:mod:`pdn_tools.pdn.archives`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import IO, Any, BinaryIO

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.archives import open_input, path_of_name
from pdn_tools.pdn.build import build_game
from pdn_tools.pdn.dialects import read_dialect
from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.records import Outcome, Record, records
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import Chunk, split_chunks

Source = str | os.PathLike[str] | IO[bytes] | IO[str]


class FileReport:
    """What reading one file gave: file-level findings and the number of games."""

    name: str
    games: int
    issues: list[Issue]
    encoding: str

    def __init__(
        self,
        name: str,
        games: int = 0,
        issues: list[Issue] | None = None,
        encoding: str = "utf-8",
    ) -> None:
        self.name = name
        self.games = games
        self.issues = [] if issues is None else issues
        self.encoding = encoding

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FileReport) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.games, self.issues, self.encoding) == (
            other.name,
            other.games,
            other.issues,
            other.encoding,
        )

    def __repr__(self) -> str:
        return (
            f"FileReport(name={self.name!r}, "
            f"games={self.games!r}, "
            f"issues={self.issues!r}, "
            f"encoding={self.encoding!r})"
        )

    def __reduce__(self) -> tuple[type[FileReport], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (FileReport, (self.name, self.games, self.issues, self.encoding))

    @property
    def without_games(self) -> bool:
        """Whether the file (or the part of it read) held no game and has findings to
        report instead (a file without games always has one: W35, E15 or E12)."""
        return self.games == 0 and bool(self.issues)


def _binary(handle: IO[bytes] | IO[str]) -> BinaryIO:
    """A binary view of *handle* (text handles are re-encoded as UTF-8)."""
    if isinstance(handle, io.TextIOBase):
        buffer = getattr(handle, "buffer", None)
        if buffer is not None:
            return buffer  # type: ignore[no-any-return]
        return io.BytesIO(handle.read().encode("utf-8"))
    return handle  # type: ignore[return-value]


def read_games(
    source: Source,
    options: ReadOptions | None = None,
    *,
    name: str | None = None,
    report: FileReport | None = None,
) -> Iterator[Game]:
    """Yield the games of *source* (a path, or a binary or text handle) one by one.

    ``options`` sets strictness, encoding and limits; ``name`` is the file name put
    on games and diagnostics (the path by default).  If *report* is given, it
    receives the file-level findings and the game count.
    """
    opts = options or ReadOptions()
    if isinstance(source, (str, os.PathLike)):
        path = path_of_name(os.fspath(source))  # games.zip:round1.pdn, as reports name it
        with open_input(path, opts.max_expansion) as handle:
            yield from _read(handle, opts, name or str(source), report)
    else:
        label = name or str(getattr(source, "name", "<stream>"))
        yield from _read(_binary(source), opts, label, report)


def _read(
    stream: BinaryIO, opts: ReadOptions, name: str, report: FileReport | None
) -> Iterator[Game]:
    decoding = Decoding()
    pieces = read_pieces(stream, opts.encoding, decoding, opts.max_expansion)
    chunks = split_chunks(pieces, opts.max_game_chars, opts.max_depth)
    yield from build_games(chunks, decoding, opts, name, report)


def build_games(
    chunks: Iterable[Chunk],
    decoding: Decoding,
    opts: ReadOptions,
    name: str,
    report: FileReport | None = None,
    *,
    first_index: int = 0,
    last: bool = True,
) -> Iterator[Game]:
    """Build the games of *chunks* with the reader's bookkeeping
    (:func:`pdn_tools.pdn.records.records`).

    Games are numbered on from *first_index*; *decoding* hands each game the decoder's
    findings on its lines.  With *last* false the chunks are a game-aligned part of a
    file that goes on after them (:mod:`pdn_tools.run.spans`), so what belongs to the
    file's end (the decoder's remaining findings, those of a file without games) is
    left out.  *report* receives the encoding, the number of games and the findings
    of a file without games.
    """
    file_report = report if report is not None else FileReport(name)
    outcome = Outcome()
    for record in records(chunks, decoding, outcome, first_index=first_index, last=last):
        yield record_game(record, opts, name)
    file_report.encoding = decoding.encoding
    file_report.games = outcome.games
    file_report.issues.extend(outcome.issues)


def record_game(record: Record, opts: ReadOptions, name: str) -> Game:
    """The game of *record*, built, numbered and given its findings; a failure to
    build it costs this game only (E13)."""
    chunk = record.chunk
    try:
        game = build_game(chunk, opts)
        read_dialect(game, opts)  # the producer's meaning (docs/dialects.md)
    except Exception as exc:  # a bug must cost one game, never the file
        game = Game()
        game.add_issue(
            Issue(
                "E13",
                f"internal error while reading this game: {exc!r}",
                chunk.first_line,
                chunk.first_column + 1,
            )
        )
    game.file = name
    game.index = record.index
    if opts.keep_source:
        game.source = chunk.text
    game.issues[:0] = record.before
    game.issues.extend(record.after)
    return game


def read_game(handle: IO[bytes] | IO[str], options: ReadOptions | None = None) -> Game | None:
    """The first game of *handle*, or None; for quick use in scripts and tests."""
    return next(read_games(handle, options), None)


def read_string(
    text: str, options: ReadOptions | None = None, name: str = "<string>"
) -> list[Game]:
    """All games of a PDN string (convenience for tests and interactive use).

    The text is already decoded, so no encoding is detected and it is never taken
    for binary input (E12), whatever control characters it holds.
    """
    opts = replace(options or ReadOptions(), encoding="utf-8")
    data = text.encode("utf-8", errors="surrogatepass")
    return list(read_games(io.BytesIO(data), opts, name=name))
