"""Bytes to text: find the encoding, strip a BOM, and yield lines in constant memory.

pdn-format.md §11.  UTF-8 is tried first; a file that is not UTF-8 is decoded with
the legacy 8-bit encoding its bytes point to (Windows-1252/Latin-1 for Western
files, CP1251 or CP866 for Cyrillic ones) and W30 names the encoding assumed.
A UTF-8 file with a few stray bytes keeps its UTF-8 text; each stray byte is read
as Windows-1252.  CR LF, LF and CR line ends all end a line.  NUL bytes become
spaces (W06).  UTF-16 is recognised by its BOM or its NUL pattern and decoded.

The text is read in blocks through :class:`io.TextIOWrapper`, so memory does not
grow with the file: only the sample used for detection and one line (capped at
:data:`MAX_PIECE` characters; longer lines arrive in pieces) are held at a time.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from pdn_tools.diagnostics import Issue

#: Bytes looked at to choose the encoding.
SAMPLE_SIZE = 1 << 16
#: Longest piece of a line handed on at once (characters).
MAX_PIECE = 1 << 20

_SURROGATE = re.compile(r"[\udc80-\udcff]")  # stray bytes, as surrogateescape decodes them
_STRAY_FIRST, _STRAY_LAST = chr(0xDC80), chr(0xDCFF)
_CYRILLIC_1251 = set(range(0xC0, 0x100)) | {0xA8, 0xB8}
_CYRILLIC_866 = set(range(0x80, 0xB0)) | set(range(0xE0, 0xF2))


@dataclass(slots=True)
class Piece:
    """A line, or a piece of a very long line.

    ``line`` is the 1-based line number, ``column`` the 0-based offset of the piece
    within its line, ``ends_line`` whether a line end follows the piece.
    """

    text: str
    line: int
    column: int
    ends_line: bool


@dataclass(slots=True)
class Decoding:
    """What the decoder found out about a file, filled while it streams.

    Findings about the file as a whole (encoding, BOM) are on line 1 and belong to the
    first game; findings met later (a NUL byte, stray non-UTF-8 bytes) belong to the
    game whose lines hold them.  :meth:`take` hands each finding out once.
    """

    encoding: str = "utf-8"
    issues: list[Issue] = field(default_factory=list)
    fallback_bytes: int = 0
    taken: int = 0
    """How many of ``issues`` have been handed out by :meth:`take`."""
    binary: bool = False
    """The input looked binary and was not read (E12)."""

    def take(self, last_line: int | None = None) -> list[Issue]:
        """The findings not handed out yet that lie on or before *last_line* (all of
        them when None), in the order they were found."""
        rest = self.issues[self.taken :]
        if last_line is not None:
            count = 0
            for issue in rest:
                if issue.line > last_line:
                    break
                count += 1
            rest = rest[:count]
        self.taken += len(rest)
        return rest


def _legacy_encoding(sample: bytes) -> str:
    """Choose the 8-bit encoding of a non-UTF-8 *sample*.

    Cyrillic text puts its high bytes in runs (whole words); Western text has an
    accented letter here and there between ASCII letters.  Among Cyrillic code
    pages, the one whose letter ranges hold more of the high bytes wins.
    """
    high = [i for i, b in enumerate(sample) if b >= 0x80]
    if not high:
        return "cp1252"
    in_runs = sum(
        1
        for i in high
        if (i > 0 and sample[i - 1] >= 0x80) or (i + 1 < len(sample) and sample[i + 1] >= 0x80)
    )
    if in_runs / len(high) < 0.6 or len(high) < 8:
        return "cp1252"
    n1251 = sum(1 for i in high if sample[i] in _CYRILLIC_1251)
    n866 = sum(1 for i in high if sample[i] in _CYRILLIC_866)
    return "cp866" if n866 > n1251 else "cp1251"


def _mostly_utf8(sample: bytes) -> bool:
    """Whether *sample* has more valid UTF-8 multi-byte characters than stray bytes."""
    text = sample.decode("utf-8", errors="surrogateescape")
    stray = len(_SURROGATE.findall(text))
    valid = sum(1 for ch in text if "\x80" <= ch < _STRAY_FIRST or ch > _STRAY_LAST)
    return valid > 0 and valid >= stray


def _escape_or_replace(exc: UnicodeError) -> tuple[str, int]:
    """Decoding error handler: undecodable bytes become surrogates, as with
    ``surrogateescape``, so that they can be re-read one by one later (W30); a byte
    below 128 cannot be kept that way (a UTF-16 file cut in the middle of a code unit)
    and becomes U+FFFD instead of stopping the read with an exception."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    if all(b >= 128 for b in bad):
        return "".join(chr(0xDC00 + b) for b in bad), exc.end
    return "\ufffd", exc.end


_ERRORS = "pdn-tools-escape"
codecs.register_error(_ERRORS, _escape_or_replace)


def _looks_utf16(sample: bytes) -> str | None:
    """``utf-16-le``/``utf-16-be`` when *sample* has UTF-16's NUL pattern, else None."""
    if len(sample) < 4:
        return None
    even = sample[0::2]
    odd = sample[1::2]
    if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None


_CONTROL = bytes(b for b in range(1, 32) if b not in (9, 10, 11, 12, 13, 26)) + b"\x7f"
"""Bytes that text files hardly hold: control bytes other than tab, line ends, form
feed and the DOS end-of-file mark Ctrl-Z.  NUL is not among them: NUL padding occurs in
text files (a preallocated or half-written file) and is read as spaces (W06)."""


def _looks_binary(sample: bytes) -> int:
    """The number of control bytes in *sample* when they make it look binary (at least
    16 of them and more than one byte in 30), else 0."""
    if len(sample) < 16:
        return 0
    count = len(sample) - len(sample.translate(None, _CONTROL))
    return count if count >= 16 and count * 30 > len(sample) else 0


class _Prefixed(io.RawIOBase):
    """A raw stream that returns *prefix* first, then the rest of *rest*."""

    def __init__(self, prefix: bytes, rest: BinaryIO) -> None:
        self._prefix = memoryview(prefix)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._rest.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n


def _fix_surrogates(text: str, decoding: Decoding, line: int, column: int) -> str:
    """Read bytes that were not UTF-8 (kept as surrogates) as Windows-1252."""

    def one(match: re.Match[str]) -> str:
        byte = bytes([ord(match.group()) - 0xDC00])
        decoding.fallback_bytes += 1
        try:
            return byte.decode("cp1252")
        except UnicodeDecodeError:  # the five bytes Windows-1252 leaves undefined
            return byte.decode("latin-1")

    first = _SURROGATE.search(text)
    if first is not None and decoding.fallback_bytes == 0 and decoding.encoding == "utf-8":
        decoding.issues.append(
            Issue(
                "W30",
                "input is not valid UTF-8 here; stray bytes read as windows-1252",
                line,
                column + first.start() + 1,
            )
        )
    return _SURROGATE.sub(one, text)


def read_pieces(
    stream: BinaryIO, encoding: str | None = None, decoding: Decoding | None = None
) -> Iterator[Piece]:
    """Decode *stream* and yield its lines as :class:`Piece` objects.

    *encoding* forces an encoding (no detection, no W30).  Findings about the
    file as a whole go to *decoding*.
    """
    info = decoding if decoding is not None else Decoding()
    sample = stream.read(SAMPLE_SIZE)
    chosen = encoding
    skip_bom = 0
    if chosen is None:
        if sample.startswith(b"\xef\xbb\xbf"):
            skip_bom = 3
            chosen = "utf-8"
            info.issues.append(Issue("W31", "UTF-8 byte order mark removed", 1, 1))
        elif sample.startswith((b"\xff\xfe", b"\xfe\xff")):
            chosen = "utf-16"
            info.issues.append(Issue("W30", "input is UTF-16 (byte order mark); decoded", 1, 1))
        elif (utf16 := _looks_utf16(sample)) is not None:
            chosen = utf16
            info.issues.append(Issue("W30", f"input looks like {utf16} (no BOM); decoded", 1, 1))
        elif control := _looks_binary(sample):
            info.binary = True
            info.issues.append(
                Issue(
                    "E12",
                    f"input looks binary ({control} of its first {len(sample)} bytes are "
                    "control bytes); not read as PDN",
                    1,
                    1,
                )
            )
            return
        else:
            try:
                # A multi-byte sequence may be cut at the end of the sample.
                sample.decode("utf-8")
                chosen = "utf-8"
            except UnicodeDecodeError as exc:
                if exc.start >= len(sample) - 3 and exc.reason == "unexpected end of data":
                    chosen = "utf-8"
                elif _mostly_utf8(sample):
                    chosen = "utf-8"  # stray bytes are read one by one (W30 when met)
                else:
                    chosen = _legacy_encoding(sample)
                    info.issues.append(
                        Issue(
                            "W30",
                            f"input is not UTF-8 (first invalid byte at offset {exc.start}); "
                            f"decoded as {chosen}",
                            1,
                            1,
                        )
                    )
    info.encoding = chosen
    raw = _Prefixed(sample[skip_bom:], stream)
    text = io.TextIOWrapper(
        io.BufferedReader(raw, buffer_size=1 << 16),
        encoding=chosen,
        errors=_ERRORS,
        newline=None,
    )
    line = 1
    column = 0
    fix = chosen in ("utf-8", "cp1252")
    nul_reported = False
    while True:
        chunk = text.readline(MAX_PIECE)
        if not chunk:
            return
        ends = chunk.endswith("\n")
        body = chunk[:-1] if ends else chunk
        if fix and not body.isascii() and _SURROGATE.search(body):
            body = _fix_surrogates(body, info, line, column)
        if "\x00" in body:
            if not nul_reported:
                info.issues.append(
                    Issue(
                        "W06",
                        "NUL bytes in the input are read as spaces",
                        line,
                        column + body.index("\x00") + 1,
                    )
                )
                nul_reported = True
            body = body.replace("\x00", " ")
        yield Piece(body, line, column, ends)
        if ends:
            line += 1
            column = 0
        else:
            column += len(body)
