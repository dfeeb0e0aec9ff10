"""Game-aligned byte ranges of a file: described by a cheap scan, read by any worker.

A large input is cut into *spans*: consecutive byte ranges that each begin at the
start of a line between two games.  A :class:`Span` is a small description (where the
file is, the byte offset and line it starts at, the number of the games before it,
how the file is decoded there, and the few facts the reader would carry over from
the text before it), so that a worker — another process, or another machine reading
the same storage — reads the range itself and gets exactly the games, numbers and
findings that reading the whole file gives (:func:`pdn_tools.pdn.reader.read_games`).

:func:`cut_spans` scans a file once (decode and split, no parsing) and yields its
spans; :func:`span_games` reads one.  Why a cut is safe where it is made:

* it is made only before a game whose scan began at the terminator of the game
  before (on an earlier line) and whose text up to the cut is blanks and line ends,
  so the splitter's state there is known: no comment, variation or tag is open and
  the pending text is that blank prefix, which the span carries and replays;
* it is not made before comments that the game before takes as its own (W81:
  :func:`pdn_tools.pdn.records.comment_lead`), which must be read with that game;
* the splitter's once-per-file finding (literal ``\\r``/``\\n``) is carried as a flag;
* the decoder's findings are taken from the scan (the span holds those its games
  receive), never from the worker's own decoder, whose once-per-file findings would
  repeat; the worker decodes the range as the scan did
  (:func:`pdn_tools.pdn.source.resume_pieces`): each line as UTF-8 when it is UTF-8,
  else with the code page the scan chose, or with the encoding forced;
* the chunks of a span go through the reader's own bookkeeping
  (:func:`pdn_tools.pdn.records.records`, numbered on from the games before);
* line ends are found in the raw bytes (CR LF, LF and CR, as the decoder reads
  them), so files are cut only when their encodings keep those bytes as they are:
  UTF-8 and the 8-bit code pages (not UTF-16, which is read whole), and only when
  they are not compressed (a byte of a compressed file is no place in its text).

A file that changed after its scan is noticed (its size and modification time, or
its fsspec ``ukey``; and the bytes around the cut) and raises :class:`SpanChanged`
rather than giving wrong games.
"""

from __future__ import annotations

import bisect
import codecs
import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import FrozenInstanceError
from functools import lru_cache
from itertools import chain
from typing import Any, BinaryIO, cast

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game, ReadOptions
from pdn_tools.pdn.reader import FileReport, record_game
from pdn_tools.pdn.records import Outcome, Record, comment_lead, is_game, records
from pdn_tools.pdn.source import (
    Decoding,
    Piece,
    Resume,
    read_pieces,
    resume_pieces,
    resume_state,
)
from pdn_tools.pdn.split import LITERAL_MESSAGE, Chunk, split_chunks
from pdn_tools.run import storage

#: Longest blank text between a terminator and the cut that a span replays.
MAX_PREFIX = 4096
#: Bytes around a cut that a worker compares with what the scan saw.
HEAD_BYTES = 16

_EOL = re.compile(rb"\r\n|\r|\n")
#: Blanks and line ends (and the literal ``\r``/``\n`` pairs the splitter reads as blanks).
_BLANK_LINES = re.compile(r"(?:[ \t]|\\[rn])*\n(?:(?:[ \t]|\\[rn])*\n)*")


class SpanChanged(OSError):
    """The file is not what its scan saw (it changed since): the span cannot be read."""


class Span:
    """A game-aligned byte range of a file and what reading it needs.

    ``start`` is the byte offset of the range and ``line`` the line number there;
    ``end_line`` is the first line of the next span (0: the range runs to the end of
    the file, ``last``).  ``games_before`` counts the file's games before the range.
    ``encoding`` is the file's encoding as reading it reports it; ``legacy_main`` and
    ``legacy`` how the range is decoded (:class:`pdn_tools.pdn.source.Resume`; unused
    for the span that starts the file, which is decoded as the whole file is).
    ``prefix`` is the blank text between the terminator
    of the game before and the cut, which the next game's text begins with, from
    ``prefix_line``/``prefix_column``.  ``decoded`` holds the decoder's findings that
    the range's games receive (and, for the last span, the file's remaining ones).
    ``size``, ``version`` (:func:`pdn_tools.run.storage.version`) and ``head`` let a
    worker notice a file changed since the scan.
    ``weight`` is the range's length in bytes (for progress).
    """

    file_no: int
    path: str
    name: str
    start: int
    line: int
    end_line: int
    games_before: int
    encoding: str
    legacy_main: bool
    legacy: str | None
    prefix: str
    prefix_line: int
    prefix_column: int
    literal_reported: bool
    decoded: tuple[Issue, ...]
    last: bool
    binary: bool
    size: int
    version: str
    head: bytes
    weight: int

    __slots__ = (
        "binary",
        "decoded",
        "encoding",
        "end_line",
        "file_no",
        "games_before",
        "head",
        "last",
        "legacy",
        "legacy_main",
        "line",
        "literal_reported",
        "name",
        "path",
        "prefix",
        "prefix_column",
        "prefix_line",
        "size",
        "start",
        "version",
        "weight",
    )

    def __init__(
        self,
        file_no: int,
        path: str,
        name: str,
        start: int,
        line: int,
        end_line: int,
        games_before: int,
        encoding: str,
        legacy_main: bool,
        legacy: str | None,
        prefix: str,
        prefix_line: int,
        prefix_column: int,
        literal_reported: bool,
        decoded: tuple[Issue, ...],
        last: bool,
        binary: bool,
        size: int,
        version: str,
        head: bytes,
        weight: int,
    ) -> None:
        object.__setattr__(self, "file_no", file_no)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "end_line", end_line)
        object.__setattr__(self, "games_before", games_before)
        object.__setattr__(self, "encoding", encoding)
        object.__setattr__(self, "legacy_main", legacy_main)
        object.__setattr__(self, "legacy", legacy)
        object.__setattr__(self, "prefix", prefix)
        object.__setattr__(self, "prefix_line", prefix_line)
        object.__setattr__(self, "prefix_column", prefix_column)
        object.__setattr__(self, "literal_reported", literal_reported)
        object.__setattr__(self, "decoded", decoded)
        object.__setattr__(self, "last", last)
        object.__setattr__(self, "binary", binary)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "weight", weight)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Span) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.file_no,
            self.path,
            self.name,
            self.start,
            self.line,
            self.end_line,
            self.games_before,
            self.encoding,
            self.legacy_main,
            self.legacy,
            self.prefix,
            self.prefix_line,
            self.prefix_column,
            self.literal_reported,
            self.decoded,
            self.last,
            self.binary,
            self.size,
            self.version,
            self.head,
            self.weight,
        ) == (
            other.file_no,
            other.path,
            other.name,
            other.start,
            other.line,
            other.end_line,
            other.games_before,
            other.encoding,
            other.legacy_main,
            other.legacy,
            other.prefix,
            other.prefix_line,
            other.prefix_column,
            other.literal_reported,
            other.decoded,
            other.last,
            other.binary,
            other.size,
            other.version,
            other.head,
            other.weight,
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.file_no,
                self.path,
                self.name,
                self.start,
                self.line,
                self.end_line,
                self.games_before,
                self.encoding,
                self.legacy_main,
                self.legacy,
                self.prefix,
                self.prefix_line,
                self.prefix_column,
                self.literal_reported,
                self.decoded,
                self.last,
                self.binary,
                self.size,
                self.version,
                self.head,
                self.weight,
            )
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return (
            f"Span(file_no={self.file_no!r}, "
            f"path={self.path!r}, "
            f"name={self.name!r}, "
            f"start={self.start!r}, "
            f"line={self.line!r}, "
            f"end_line={self.end_line!r}, "
            f"games_before={self.games_before!r}, "
            f"encoding={self.encoding!r}, "
            f"legacy_main={self.legacy_main!r}, "
            f"legacy={self.legacy!r}, "
            f"prefix={self.prefix!r}, "
            f"prefix_line={self.prefix_line!r}, "
            f"prefix_column={self.prefix_column!r}, "
            f"literal_reported={self.literal_reported!r}, "
            f"decoded={self.decoded!r}, "
            f"last={self.last!r}, "
            f"binary={self.binary!r}, "
            f"size={self.size!r}, "
            f"version={self.version!r}, "
            f"head={self.head!r}, "
            f"weight={self.weight!r})"
        )

    def __reduce__(self) -> tuple[type[Span], tuple[Any, ...]]:
        # By value, through __init__ (its __setattr__ refuses to restore the fields).
        return (
            Span,
            (
                self.file_no,
                self.path,
                self.name,
                self.start,
                self.line,
                self.end_line,
                self.games_before,
                self.encoding,
                self.legacy_main,
                self.legacy,
                self.prefix,
                self.prefix_line,
                self.prefix_column,
                self.literal_reported,
                self.decoded,
                self.last,
                self.binary,
                self.size,
                self.version,
                self.head,
                self.weight,
            ),
        )


@lru_cache(maxsize=64)
def restartable(encoding: str) -> bool:
    """Whether a file in *encoding* can be read from the start of any line.

    True for UTF-8 and for the single-byte code pages (byte-to-character tables) in
    which the bytes CR and LF, and no other byte, are the characters CR and LF: there,
    every line starts a fresh decoder and the lines of the bytes are those of the text.
    """
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        return False
    if info.name in ("utf-8", "ascii", "iso8859-1"):
        return True
    module = sys.modules.get(getattr(info.incrementaldecoder, "__module__", ""))
    if getattr(module, "decoding_table", None) is None:
        return False  # not a byte-to-character table (multi-byte or stateful codecs)
    text = bytes(range(256)).decode(info.name, errors="replace")
    return len(text) == 256 and [i for i, ch in enumerate(text) if ch in "\r\n"] == [10, 13]


class LineIndex(io.RawIOBase):
    """A binary stream that notes, as it is read, how many lines end before each block.

    :meth:`offset_of` gives the byte offset at which a line starts; it reads the one
    block that holds it again through *reopen*, so memory stays small however far
    back the line is.
    """

    def __init__(
        self, stream: BinaryIO, reopen: Callable[[], BinaryIO], start: int = 0, line: int = 1
    ) -> None:
        """*stream* is positioned at byte *start*, the beginning of line *line*."""
        super().__init__()
        self._stream = stream
        self._reopen = reopen
        self._again: BinaryIO | None = None
        self._starts: list[int] = []  # byte offset of each block
        self._ends: list[int] = []  # line ends completed before each block
        self._skip: list[bool] = []  # the block begins with the LF of a CR LF
        self._pos = start
        self._count = line - 1
        self._cr = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._stream.read(len(buffer))
        n = len(data)
        if n:
            buffer[:n] = data
            skip = self._cr and data[0] == 0x0A
            self._starts.append(self._pos)
            self._ends.append(self._count)
            self._skip.append(skip)
            body = data[1:] if skip else data
            self._count += body.count(b"\n") + body.count(b"\r") - body.count(b"\r\n")
            self._cr = data[-1] == 0x0D
            self._pos += n
        return n

    def offset_of(self, line: int) -> int:
        """The byte offset of the start of *line* (1-based), which must have been read."""
        if line <= 1:
            return 0
        target = line - 1  # line ends before it
        block = bisect.bisect_left(self._ends, target) - 1
        if block < 0:
            raise SpanChanged(f"line {line} lies before the lines kept")
        begin = self._starts[block]
        stop = self._starts[block + 1] if block + 1 < len(self._starts) else self._pos
        data = self.reread(begin, stop - begin + 1)  # one more: a CR LF across blocks
        count = self._ends[block]
        for match in _EOL.finditer(data, 1 if self._skip[block] else 0):
            if match.start() >= stop - begin:
                break
            count += 1
            if count == target:
                # Blocks before this one are not asked for again: cuts move forward.
                del self._starts[:block], self._ends[:block], self._skip[:block]
                return begin + match.end()
        raise SpanChanged(f"line {line} not found where it was counted (the file changed)")

    def reread(self, offset: int, count: int) -> bytes:
        """*count* bytes of the file from *offset*, read again."""
        if self._again is None:
            self._again = self._reopen()
        self._again.seek(offset)
        return self._again.read(count)

    def close(self) -> None:
        if self._again is not None:
            self._again.close()
        super().close()


def _cut(before: Chunk | None, chunk: Chunk) -> tuple[int, str] | None:
    """Where a span may begin inside *chunk*: (the line, the blank prefix before it).

    Only when *before* (the chunk just before) ended at a terminator on the line
    where *chunk* began, and *chunk* starts with blanks and at least one line end, and
    not with comments that the game before takes (W81: they are read with it).
    """
    if before is None or not before.terminated or before.next_game:
        return None
    if chunk.text is None or chunk.line != before.end_line:
        return None
    if comment_lead(chunk.text):
        return None  # comments the game before may take (W81): read with it
    blank = _BLANK_LINES.match(chunk.text)
    if blank is None or blank.end() > MAX_PREFIX:
        return None
    prefix = blank.group()
    line = chunk.line + prefix.count("\n")
    if any(issue.line < line for issue in chunk.issues):
        return None
    return line, prefix


def _cuttable(decoding: Decoding, options: ReadOptions) -> bool:
    """Whether the file read so far may be cut at a line start: neither compressed nor
    binary, and decoded in encodings whose line ends are their bytes'."""
    if decoding.compression is not None or decoding.binary:
        return False
    if options.encoding is not None:
        return restartable(decoding.encoding)
    return restartable(decoding.encoding) and (
        decoding.legacy is None or restartable(decoding.legacy)
    )


def _head(stream: BinaryIO | LineIndex, start: int) -> bytes:
    """The bytes around *start* that identify a cut: the line end before it and the
    beginning of the line after it."""
    if isinstance(stream, LineIndex):
        return stream.reread(start - 1, HEAD_BYTES + 1)
    stream.seek(start - 1)
    return stream.read(HEAD_BYTES + 1)


def cut_spans(
    file_no: int, path: str, name: str, options: ReadOptions, span_chars: int, size: int = 0
) -> Iterator[Span]:
    """The spans of one file, in order, each of about *span_chars* characters of games.

    A file that cannot be cut (one game, no safe place, an encoding whose lines are
    not its bytes' lines, binary input) is one span.  *size* is the file's size in
    bytes (0: asked from the storage).
    """
    if size <= 0:
        size = storage.size(path)
    version = storage.version(path)
    with storage.open_binary(path) as handle:
        index = LineIndex(handle, lambda: storage.open_binary(path))
        try:
            for item in _scan(file_no, path, name, options, span_chars, size, version, index):
                assert isinstance(item, Span)  # a scan without a stop runs to the end
                yield item
        finally:
            index.close()


class GoOn:
    """Where a scan that stopped at a cut goes on (:func:`scan_part`): the beginning
    of the next span, and the version of the file the scan read (a file changed since
    is not scanned on)."""

    begin: SpanStart
    version: str

    __slots__ = ("begin", "version")

    def __init__(
        self,
        begin: SpanStart,
        version: str,
    ) -> None:
        object.__setattr__(self, "begin", begin)
        object.__setattr__(self, "version", version)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GoOn) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.begin, self.version) == (other.begin, other.version)

    def __hash__(self) -> int:
        return hash((self.begin, self.version))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return f"GoOn(begin={self.begin!r}, version={self.version!r})"

    def __reduce__(self) -> tuple[type[GoOn], tuple[Any, ...]]:
        # By value, through __init__ (its __setattr__ refuses to restore the fields).
        return (GoOn, (self.begin, self.version))


def scan_part(
    file_no: int,
    path: str,
    name: str,
    options: ReadOptions,
    span_chars: int,
    size: int,
    go_on: GoOn | None,
    spans: int,
) -> tuple[list[Span], GoOn | None]:
    """The spans of one file from *go_on* (None: from its beginning), as
    :func:`cut_spans` gives them: at least *spans* of them, then the scan stops at the
    next cut from which another scan can go on, and says where (None: these spans run
    to the end of the file).  Chained, the parts are exactly the spans of
    :func:`cut_spans`, so that the games of a large file can be checked while the
    rest of it is still being scanned.

    A scan goes on from a cut only where the decoder holds nothing a fresh decoder
    would not: the file read line by line without a code page chosen yet (all UTF-8 so
    far), no NUL byte reported (a finding made once per file), no finding of the blank
    lines before the cut left.  A part that meets a line in another encoding cannot
    know the code page a scan from the beginning chose (it is chosen from the lines
    read with that one), so it scans the file again from its beginning and keeps the
    spans from its own start.  Raises :class:`SpanChanged` when the file is not the
    one the part before read.
    """
    if go_on is None:
        version = storage.version(path)
        with storage.open_binary(path) as handle:
            index = LineIndex(handle, lambda: storage.open_binary(path))
            try:
                return _collect(
                    _scan(
                        file_no, path, name, options, span_chars, size, version, index, None, spans
                    )
                )
            finally:
                index.close()
    begin = go_on.begin
    if storage.version(path) != go_on.version:
        raise SpanChanged(f"{name}: the file changed while it was scanned")
    with storage.open_binary(path) as handle:
        if _head(handle, begin.start) != begin.head:
            raise SpanChanged(
                f"{name}: the file changed while it was scanned (line {begin.line} is no "
                f"longer at byte {begin.start})"
            )
        handle.seek(begin.start)
        index = LineIndex(handle, lambda: storage.open_binary(path), begin.start, begin.line)
        try:
            return _collect(
                _scan(
                    file_no, path, name, options, span_chars, size, go_on.version, index,
                    begin, spans,
                )
            )  # fmt: skip
        except _CodePageMet:
            pass
        finally:
            index.close()
    rest = cut_spans(file_no, path, name, options, span_chars, size)
    return [span for span in rest if span.start >= begin.start], None


def _collect(items: Iterator[Span | GoOn]) -> tuple[list[Span], GoOn | None]:
    out: list[Span] = []
    for item in items:
        if isinstance(item, GoOn):
            return out, item
        out.append(item)
    return out, None


class _CodePageMet(Exception):
    """A scan going on from a cut met a line that needs the file's code page."""


def _can_go_on(decoding: Decoding, options: ReadOptions, line: int) -> bool:
    """Whether a fresh decoder started at *line* would read on as *decoding* does
    (see :func:`scan_part`)."""
    return (
        options.encoding is None
        and decoding.legacy is None
        and decoding.encoding == "utf-8"
        and not any(issue.code == "W06" for issue in decoding.issues)
        and all(issue.line >= line for issue in decoding.issues[decoding.taken :])
    )


def _scan(
    file_no: int,
    path: str,
    name: str,
    options: ReadOptions,
    span_chars: int,
    size: int,
    version: str,
    index: LineIndex,
    start: SpanStart | None = None,
    stop: int = 0,
) -> Iterator[Span | GoOn]:
    """The spans of the file *index* reads, from its beginning or from *start* (the
    stream then positioned there); with *stop*, after that many spans, where a scan
    can go on (:class:`GoOn`, the last item) when it can."""
    decoding = Decoding()
    pieces: Iterable[Piece]
    if start is None:
        pieces = read_pieces(
            cast(BinaryIO, index), options.encoding, decoding, options.max_expansion
        )
        begin = SpanStart()
    else:
        resume = Resume(start.line, False, None)  # see _can_go_on
        pieces = chain(
            _prefix_pieces(start.prefix, start.prefix_line, start.prefix_column),
            resume_pieces(cast(BinaryIO, index), None, resume, decoding),
        )
        begin = start
    literal = begin.literal_reported  # the splitter's literal \r / \n finding was made
    chunks = split_chunks(
        pieces, options.max_game_chars, options.max_depth, literal_reported=literal
    )
    games = begin.games_before
    chars = 0
    made = 0
    before: Chunk | None = None  # the chunk just before, when it is a game's
    decoded: list[Issue] = []  # the decoder's findings the current span's games receive
    for chunk in chunks:
        if start is not None and decoding.legacy is not None:
            raise _CodePageMet
        if not is_game(chunk):
            literal = literal or _literal(chunk)
            before = None
            continue
        games += 1
        cut = None
        if chars >= span_chars and _cuttable(decoding, options):
            cut = _cut(before, chunk)
        if cut is not None:
            cut_line, blank = cut
            offset = index.offset_of(cut_line)
            yield begin.span(
                file_no, path, name, decoding, decoded, size, version, (offset, cut_line)
            )
            made += 1
            resume_at = resume_state(decoding, cut_line)
            begin = SpanStart(
                offset,
                cut_line,
                games - 1,
                resume_at.legacy_main,
                blank,
                chunk.line,
                chunk.column,
                literal,
                _head(index, offset),
            )
            if stop and made >= stop and _can_go_on(decoding, options, cut_line):
                yield GoOn(begin, version)
                return
            decoded = []
            chars = 0
        decoded.extend(decoding.take(max(chunk.end_line, chunk.line)))
        chars += len(chunk.text) if chunk.text is not None else options.max_game_chars
        literal = literal or _literal(chunk)
        before = chunk
    if start is not None and decoding.legacy is not None:
        raise _CodePageMet
    decoded.extend(decoding.take())
    yield begin.span(file_no, path, name, decoding, decoded, size, version, None)


class SpanStart:
    """Where a span begins: the byte offset and line, the games before, whether the
    file is mostly in its code page, the blank prefix replayed (its text, line and
    column), the literal finding's flag and the bytes at the cut.  Also where a scan
    that stopped there goes on (:class:`GoOn`)."""

    start: int
    line: int
    games_before: int
    legacy_main: bool
    prefix: str
    prefix_line: int
    prefix_column: int
    literal_reported: bool
    head: bytes

    __slots__ = (
        "games_before",
        "head",
        "legacy_main",
        "line",
        "literal_reported",
        "prefix",
        "prefix_column",
        "prefix_line",
        "start",
    )

    def __init__(
        self,
        start: int = 0,
        line: int = 1,
        games_before: int = 0,
        legacy_main: bool = False,
        prefix: str = "",
        prefix_line: int = 1,
        prefix_column: int = 0,
        literal_reported: bool = False,
        head: bytes = b"",
    ) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "games_before", games_before)
        object.__setattr__(self, "legacy_main", legacy_main)
        object.__setattr__(self, "prefix", prefix)
        object.__setattr__(self, "prefix_line", prefix_line)
        object.__setattr__(self, "prefix_column", prefix_column)
        object.__setattr__(self, "literal_reported", literal_reported)
        object.__setattr__(self, "head", head)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SpanStart) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.start,
            self.line,
            self.games_before,
            self.legacy_main,
            self.prefix,
            self.prefix_line,
            self.prefix_column,
            self.literal_reported,
            self.head,
        ) == (
            other.start,
            other.line,
            other.games_before,
            other.legacy_main,
            other.prefix,
            other.prefix_line,
            other.prefix_column,
            other.literal_reported,
            other.head,
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.start,
                self.line,
                self.games_before,
                self.legacy_main,
                self.prefix,
                self.prefix_line,
                self.prefix_column,
                self.literal_reported,
                self.head,
            )
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return (
            f"SpanStart(start={self.start!r}, "
            f"line={self.line!r}, "
            f"games_before={self.games_before!r}, "
            f"legacy_main={self.legacy_main!r}, "
            f"prefix={self.prefix!r}, "
            f"prefix_line={self.prefix_line!r}, "
            f"prefix_column={self.prefix_column!r}, "
            f"literal_reported={self.literal_reported!r}, "
            f"head={self.head!r})"
        )

    def __reduce__(self) -> tuple[type[SpanStart], tuple[Any, ...]]:
        # By value, through __init__ (its __setattr__ refuses to restore the fields).
        return (
            SpanStart,
            (
                self.start,
                self.line,
                self.games_before,
                self.legacy_main,
                self.prefix,
                self.prefix_line,
                self.prefix_column,
                self.literal_reported,
                self.head,
            ),
        )

    def span(
        self,
        file_no: int,
        path: str,
        name: str,
        decoding: Decoding,
        decoded: list[Issue],
        size: int,
        version: str,
        end: tuple[int, int] | None,
    ) -> Span:
        """The span from here to *end* (the byte offset and line of the next span;
        None: the end of the file), as
        the scan knows it there: every line of the span has been decoded by then, so
        ``decoding.legacy`` is the code page any of them was read with."""
        return Span(
            file_no,
            path,
            name,
            self.start,
            self.line,
            0 if end is None else end[1],
            self.games_before,
            decoding.encoding,
            self.legacy_main,
            decoding.legacy,
            self.prefix,
            self.prefix_line,
            self.prefix_column,
            self.literal_reported,
            tuple(decoded),
            last=end is None,
            binary=decoding.binary,
            size=size,
            version=version,
            head=self.head,
            weight=max(0, size - self.start) if end is None else end[0] - self.start,
        )


def _literal(chunk: Chunk) -> bool:
    return any(issue.code == "W06" and issue.message == LITERAL_MESSAGE for issue in chunk.issues)


def span_games(
    span: Span, options: ReadOptions, report: FileReport | None = None
) -> Iterator[Game]:
    """The games of *span*, exactly as reading its whole file gives them.

    *report* receives the file-level findings of a file without games (the span is
    then the whole file).  Raises :class:`SpanChanged` when the file is not what the
    scan saw, and :class:`OSError` when it cannot be read.
    """
    outcome = Outcome()
    for record in span_records(span, options, outcome):
        yield record_game(record, options, span.name)
    if report is not None:
        report.encoding = span.encoding
        report.games = outcome.games
        report.issues.extend(outcome.issues)


def span_records(span: Span, options: ReadOptions, outcome: Outcome) -> Iterator[Record]:
    """The game chunks of *span* with the findings the reader gives them
    (:func:`pdn_tools.pdn.records.records`), numbered as in the whole file; *outcome*
    receives what :func:`~pdn_tools.pdn.records.records` leaves there."""
    with storage.open_binary(span.path) as handle:
        _check_unchanged(handle, span)
        if span.start:
            handle.seek(span.start)
        # The worker's decoder: its findings are the scan's to give, and its code page
        # for lines that are not UTF-8 the one the scan chose.
        own = Decoding(legacy=span.legacy)
        pieces: Iterable[Piece]
        if span.start:
            resume = Resume(span.line, span.legacy_main, span.legacy)
            pieces = resume_pieces(handle, options.encoding, resume, own)
        else:
            pieces = read_pieces(handle, options.encoding, own, options.max_expansion)
        if span.end_line:
            pieces = _until(pieces, span.end_line)
        if span.prefix:
            pieces = chain(
                _prefix_pieces(span.prefix, span.prefix_line, span.prefix_column), pieces
            )
        chunks = split_chunks(
            pieces,
            options.max_game_chars,
            options.max_depth,
            literal_reported=span.literal_reported,
        )
        given = Decoding(encoding=span.encoding, issues=list(span.decoded))
        given.binary = span.binary
        yield from records(chunks, given, outcome, first_index=span.games_before, last=span.last)


def _check_unchanged(handle: BinaryIO, span: Span) -> None:
    if span.version and storage.version(span.path) != span.version:
        raise SpanChanged(f"{span.name}: the file changed since it was scanned")
    if span.start and _head(handle, span.start) != span.head:
        raise SpanChanged(
            f"{span.name}: the file changed since it was scanned (line {span.line} "
            f"is no longer at byte {span.start})"
        )


def _until(pieces: Iterable[Piece], end_line: int) -> Iterator[Piece]:
    for piece in pieces:
        if piece.line >= end_line:
            return
        yield piece


def _prefix_pieces(prefix: str, line: int, column: int) -> Iterator[Piece]:
    """The blank lines before a cut, as the splitter saw them after the terminator
    (*prefix* from *line* and *column*)."""
    parts = prefix.split("\n")[:-1]
    for n, text in enumerate(parts):
        yield Piece(text, line + n, column if n == 0 else 0, True)
