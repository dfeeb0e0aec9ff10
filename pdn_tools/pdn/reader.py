"""The reading pipeline: bytes → text → game chunks → game trees, lazily.

:func:`read_games` is the streaming entry point: it yields one
:class:`~pdn_tools.pdn.model.Game` at a time and holds only the game being read, so
memory stays flat however large the file.  Findings about the file as a whole
(encoding, BOM, NUL bytes) are recorded on its first game; text after the last
game on its last game; a file with no game at all yields nothing but can be
asked about with :func:`read_file`.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, BinaryIO

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.build import build_game
from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import Chunk, split_chunks

Source = str | os.PathLike[str] | IO[bytes] | IO[str]


@dataclass
class FileReport:
    """What reading one file gave: file-level findings and the number of games."""

    name: str
    games: int = 0
    issues: list[Issue] = field(default_factory=list)
    encoding: str = "utf-8"


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
        path = Path(source)
        with path.open("rb") as handle:
            yield from _read(handle, opts, name or str(source), report)
    else:
        label = name or str(getattr(source, "name", "<stream>"))
        yield from _read(_binary(source), opts, label, report)


def _read(
    stream: BinaryIO, opts: ReadOptions, name: str, report: FileReport | None
) -> Iterator[Game]:
    decoding = Decoding()
    pieces = read_pieces(stream, opts.encoding, decoding)
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
    """Build the games of *chunks* with the reader's bookkeeping.

    Games are numbered on from *first_index*; *decoding* hands each game the decoder's
    findings on its lines (and the first game those about the whole file); text
    between games goes to the game before it.  With *last* false the chunks are a
    game-aligned part of a file that goes on after them (:mod:`pdn_tools.run.spans`),
    so what belongs to the file's end (the decoder's remaining findings, W35 for a
    file without games) is left out.
    """
    file_report = report if report is not None else FileReport(name)
    index = first_index
    held: Game | None = None  # yielded one game late, so trailing text can join it
    for chunk in chunks:
        if not chunk.has_tags and not chunk.has_movetext and not chunk.oversize:
            # Comments or skipped text with no game after them.
            leftovers = list(chunk.issues)
            if chunk.text and chunk.text.strip():
                leftovers.append(
                    Issue(
                        "W06", "comment or text after the last game", chunk.line, chunk.column + 1
                    )
                )
            if held is not None:
                held.issues.extend(leftovers)
            else:
                file_report.issues.extend(leftovers)
            continue
        index += 1
        try:
            game = build_game(chunk, opts)
        except Exception as exc:  # a bug must cost one game, never the file
            game = Game()
            game.add_issue(
                Issue(
                    "E13",
                    f"internal error while reading this game: {exc!r}",
                    chunk.line,
                    chunk.column + 1,
                )
            )
        game.file = name
        game.index = index
        if opts.keep_source:
            game.source = chunk.text
        found = decoding.take(max(chunk.end_line, chunk.line))
        if index == 1:
            game.issues[:0] = found + file_report.issues
            file_report.issues = []
        elif found:
            game.issues[:0] = found
        if held is not None:
            yield held
        held = game
    file_report.encoding = decoding.encoding
    file_report.games = index
    if not last:
        if held is not None:
            yield held
        return
    if index == 0:
        file_report.issues[:0] = decoding.take()
        if not decoding.binary:
            file_report.issues.append(Issue("W35", "file holds no game", 1, 1))
    if held is not None:
        held.issues.extend(decoding.take())
        yield held


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
