"""Bytes to text: find the encoding, strip a BOM, and yield lines in constant memory.

pdn-format.md §11.  Compressed input (gzip, bzip2, xz) is decompressed first
(:mod:`pdn_tools.pdn.archives`).  Then each line is decoded on its own:

* a line that is valid UTF-8 is read as UTF-8;
* any other line is read with the file's legacy code page, chosen from the lines that
  are not UTF-8 (:mod:`pdn_tools.pdn.codepages`: Windows-1252/Latin-1, Windows-1250/
  ISO-8859-2, Windows-1251, KOI8-R/KOI8-U or CP866) — or, when most of its non-ASCII
  text is valid UTF-8, as UTF-8 whose stray bytes are read with that code page;
* bytes that the encoding in use cannot decode become U+FFFD (W38).

So a file that mixes records from several exporters (CP1251 and UTF-8, say) reads
every record right, and the text handed on is always valid Unicode.  W30 names the
encoding assumed: at line 1 for a file that is not UTF-8, and where a run of lines in
the other encoding begins.  UTF-16 is recognised by its BOM or its NUL pattern,
UTF-32 by its BOM, and both are decoded whole; ``--encoding`` forces one encoding for
the whole file.  CR LF, LF and CR line ends all end a line.  NUL bytes become spaces
(W06).  Byte order marks at the start of the file are removed, and one inside it that
begins a line or stands before a ``[`` (files that each began with one, joined) is read
as a space (W31).

The bytes are read in blocks and cut at line ends, and a block that is valid UTF-8 —
nearly all of them — is decoded in one call, so the common case costs no Python work
per character.  Memory does not grow with the file: one block and one line (capped at
:data:`MAX_PIECE` characters; longer lines arrive in pieces) are held at a time.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import Any, BinaryIO, final

from pdn_tools.diagnostics import Issue, freeze
from pdn_tools.pdn.archives import MAX_EXPANSION, damage, damaged_kind, decompressed, over_limit
from pdn_tools.pdn.codepages import detect_codepage

#: Bytes looked at to choose the encoding.
SAMPLE_SIZE = 1 << 16
#: Longest piece of a line handed on at once (characters).
MAX_PIECE = 1 << 20
#: Bytes read at a time.
BLOCK_SIZE = 1 << 16

_MARK = chr(0xDFFF)
"""Stands for undecodable bytes until their line is reported; no decoder ever returns
a lone surrogate, so it cannot come from the input."""
_REPLACEMENT = "\ufffd"
_BOM = "\ufeff"
_UTF8_BOM = b"\xef\xbb\xbf"
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
_INNER_BOM = "byte order mark inside the file (where files were joined) read as a space"

#: Codecs that decode bytes to text but are no encoding a file is written in.
_NOT_FILE_ENCODINGS = frozenset(
    {"idna", "punycode", "undefined", "unicode_escape", "raw_unicode_escape", "uu_codec"}
)


class EncodingError(ValueError):
    """An encoding name that cannot decode a PDN file (unknown, or not a text encoding)."""


def check_encoding(name: str) -> str:
    """The codec name of *name*, or :class:`EncodingError` saying why it cannot be used.

    Codecs that do not turn bytes into text (``rot13``, ``base64``, ``hex``) and codecs
    meant for other things (``idna``, ``punycode``, ``unicode_escape``) are refused.
    """
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise EncodingError(f"unknown encoding {name!r}") from None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_FILE_ENCODINGS:
        raise EncodingError(f"{name!r} is not a text encoding PDN files are written in")
    probe = '[Event "x"]\n'
    try:
        if probe.encode(info.name).decode(info.name) != probe:
            raise ValueError
    except (ValueError, TypeError):
        raise EncodingError(f"{name!r} is not a text encoding PDN files are written in") from None
    return info.name


def _mark(exc: UnicodeError) -> tuple[str, int]:
    """Decoding error handler: undecodable bytes become :data:`_MARK` (reported as W38
    and shown as U+FFFD)."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return _MARK, exc.end


_MARKING = "pdn-tools-mark"
codecs.register_error(_MARKING, _mark)
_STRAY_HANDLERS: set[str] = set()


def _stray_handler(codepage: str) -> str:
    """The name of an error handler that reads each stray (non-UTF-8) byte with
    *codepage*; registered once per code page."""
    name = f"pdn-tools-stray-{codepage}"
    if name not in _STRAY_HANDLERS:

        def stray(exc: UnicodeError) -> tuple[str, int]:
            if not isinstance(exc, UnicodeDecodeError):
                raise exc
            bad = exc.object[exc.start : exc.end]
            return bad.decode(codepage, errors=_MARKING), exc.end

        codecs.register_error(name, stray)
        _STRAY_HANDLERS.add(name)
    return name


@final
class Piece:
    """A line, or a piece of a very long line.

    ``line`` is the 1-based line number, ``column`` the 0-based offset of the piece
    within its line, ``ends_line`` whether a line end follows the piece.
    """

    # A plain class: compiled, its constructor is native code (one is made per line).
    __slots__ = ("column", "ends_line", "line", "text")

    def __init__(self, text: str, line: int, column: int, ends_line: bool) -> None:
        self.text = text
        self.line = line
        self.column = column
        self.ends_line = ends_line

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Piece):
            return NotImplemented
        return (self.text, self.line, self.column, self.ends_line) == (
            other.text,
            other.line,
            other.column,
            other.ends_line,
        )

    def __reduce__(self) -> tuple[type[Piece], tuple[str, int, int, bool]]:
        # Pickled by its constructor's arguments: a compiled class is otherwise
        # rebuilt by calling it without any.
        return (Piece, (self.text, self.line, self.column, self.ends_line))

    def __repr__(self) -> str:
        return (
            f"Piece(text={self.text!r}, line={self.line!r}, column={self.column!r}, "
            f"ends_line={self.ends_line!r})"
        )


class Decoding:
    """What the decoder found out about a file, filled while it streams.

    Findings about the file as a whole (encoding, BOM) are on line 1 and belong to the
    first game; findings met later (a NUL byte, a line in another encoding, bytes that
    cannot be decoded) belong to the game whose lines hold them.  :meth:`take` hands
    each finding out once.
    """

    encoding: str
    """The file's main encoding (the code page of most of it, or UTF-8)."""
    issues: list[Issue]
    taken: int
    """How many of ``issues`` have been handed out by :meth:`take`."""
    binary: bool
    """The input was not read: it looked binary (E12) or is JSON (E15)."""
    legacy: str | None
    """The code page of the lines that are not UTF-8, once one was met."""
    compression: str | None
    """``gzip``, ``bzip2`` or ``xz`` when the input was decompressed."""

    __slots__ = ("binary", "compression", "encoding", "issues", "legacy", "taken")

    def __init__(
        self,
        encoding: str = "utf-8",
        issues: list[Issue] | None = None,
        taken: int = 0,
        binary: bool = False,
        legacy: str | None = None,
        compression: str | None = None,
    ) -> None:
        self.encoding = encoding
        self.issues = [] if issues is None else issues
        self.taken = taken
        self.binary = binary
        self.legacy = legacy
        self.compression = compression

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decoding) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.encoding,
            self.issues,
            self.taken,
            self.binary,
            self.legacy,
            self.compression,
        ) == (
            other.encoding,
            other.issues,
            other.taken,
            other.binary,
            other.legacy,
            other.compression,
        )

    def __repr__(self) -> str:
        return (
            f"Decoding(encoding={self.encoding!r}, "
            f"issues={self.issues!r}, "
            f"taken={self.taken!r}, "
            f"binary={self.binary!r}, "
            f"legacy={self.legacy!r}, "
            f"compression={self.compression!r})"
        )

    def __reduce__(self) -> tuple[type[Decoding], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Decoding,
            (self.encoding, self.issues, self.taken, self.binary, self.legacy, self.compression),
        )

    def take(self, last_line: int | None = None, last_column: int = 0) -> list[Issue]:
        """The findings not handed out yet that lie on or before *last_line* (all of
        them when None), in the order they were found; with *last_column* (from 1),
        only those on *last_line* up to that column: a game that ends mid-line (at its
        terminator) leaves the rest of the line to the next one."""
        rest = self.issues[self.taken :]
        if last_line is not None:
            count = 0
            for issue in rest:
                line = issue.line
                if line > last_line or (
                    line == last_line and last_column and issue.column > last_column
                ):
                    break
                count += 1
            rest = rest[:count]
        self.taken += len(rest)
        return rest


Event = tuple[int, int, Issue]
"""A finding of the decoder: (line within the text of a block, column, the issue with
its line still to be set)."""


_STRAY = re.compile(r"[\udc80-\udcff]")
_NON_ASCII = re.compile("[^\x00-\x7f]")


def _mostly_utf8(raw: bytes) -> bool:
    """Whether *raw* has at least as many valid UTF-8 multi-byte characters as stray
    bytes (then it is UTF-8 with a few stray bytes, not text in a code page)."""
    text = raw.decode("utf-8", errors="surrogateescape")
    stray = len(_STRAY.findall(text))
    valid = len(_NON_ASCII.findall(text)) - stray
    return valid > 0 and valid >= stray


def _not_utf8(lines: list[bytes]) -> bytes:
    """The lines of *lines* that are not UTF-8, joined (the code page detector's input)."""
    out = []
    for raw in lines:
        if raw.isascii():
            continue
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            out.append(raw)
    return b"".join(out)


class _LineDecoder:
    """UTF-8 where a line is UTF-8, the file's code page where it is not.

    ``legacy_main``: most of the file is in the code page (W30 then marks the UTF-8
    runs); otherwise it is UTF-8 and W30 marks the runs in the code page.
    """

    def __init__(self, info: Decoding, legacy_main: bool) -> None:
        self.info = info
        self.legacy_main = legacy_main
        self.last_legacy = legacy_main  # whether the last non-ASCII line was legacy

    def decode(self, data: bytes) -> tuple[str, list[Event]]:
        """The text of *data* (whole lines, but for the end of the input)."""
        if not self.legacy_main:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                if not self.last_legacy or data.isascii():
                    return text, []
                self.last_legacy = False  # a run of UTF-8 lines begins
                return text, []
        return self._by_line(data)

    def _by_line(self, data: bytes) -> tuple[str, list[Event]]:
        lines = data.splitlines(keepends=True)
        info = self.info
        if info.legacy is None:
            info.legacy = detect_codepage(_not_utf8(lines) or data)
        legacy = info.legacy
        parts: list[str] = []
        events: list[Event] = []
        for index, raw in enumerate(lines):
            if raw.isascii():
                parts.append(raw.decode("ascii"))
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                first = exc.start
                if _mostly_utf8(raw):
                    text = raw.decode("utf-8", errors=_stray_handler(legacy))
                    what = f"stray bytes that are not UTF-8 read as {legacy}"
                    column = len(raw[:first].decode("utf-8", errors="replace"))
                else:
                    text = raw.decode(legacy, errors=_MARKING)
                    what = f"text not UTF-8 from here; decoded as {legacy}"
                    column = first
                if not self.last_legacy and not self.legacy_main:
                    events.append((index, column, Issue("W30", what, 0, 0)))
                self.last_legacy = True
            else:
                if self.legacy_main and self.last_legacy:
                    message = f"UTF-8 text in a {legacy} file from here; decoded as UTF-8"
                    column = next(i for i, ch in enumerate(text) if ch >= "\x80")
                    events.append((index, column, Issue("W30", message, 0, 0)))
                self.last_legacy = False
            parts.append(text)
        return "".join(parts), events


class _Lines:
    """Text blocks to :class:`Piece` objects: line ends, NUL bytes, marks, long lines."""

    def __init__(self, info: Decoding, bom_removed: bool = False) -> None:
        self.info = info
        self.line = 1
        self.column = 0
        self.pending = ""
        self.nul_reported = False
        #: no text has come yet: byte order marks there are the file's own
        self.at_start = True
        #: one was removed before decoding (a UTF-8 BOM, or the one UTF-16 begins with)
        self.bom_removed = bom_removed

    def feed(self, text: str, events: list[Event], final: bool) -> Iterator[Piece]:
        """Pieces of the complete lines of *text*; at the end of the input (*final*)
        also of the last line, which has no line end."""
        shift = len(self.pending)  # line 0 of the block continues the pending text
        found = [(i, c + shift if i == 0 else c, issue) for i, c, issue in events]
        text = self.pending + text if self.pending else text
        if self.at_start and text:
            self.at_start = False
            if text.startswith(_BOM):
                text = self._file_boms(text, found)
        hold = ""
        if "\r" in text:
            if not final and text.endswith("\r"):
                text, hold = text[:-1], "\r"  # it may be the CR of a CR LF
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if _BOM in text:
            text = self._inner_boms(text, found, final)
        if _MARK in text:
            found.extend(self._marks(text))
            text = text.replace(_MARK, _REPLACEMENT)
        if "\x00" in text:
            if not self.nul_reported:
                self.nul_reported = True
                found.append(self._nul(text))
            text = text.replace("\x00", " ")
        lines = text.split("\n")
        last = lines.pop()  # the text after the last line end
        self.pending = "" if final else last + hold
        if found:
            self._report(found)
        line = self.line
        column = self.column
        for body in lines:  # the common case inline: one Piece per line
            if len(body) > MAX_PIECE:
                self.line, self.column = line, column
                yield from self._pieces(body, True)
                line, column = self.line, 0
                continue
            yield Piece(body, line, column, True)
            line += 1
            column = 0
        self.line, self.column = line, column
        if final and last:
            yield from self._pieces(last, False)
        while len(self.pending) > MAX_PIECE:
            yield Piece(self.pending[:MAX_PIECE], self.line, self.column, False)
            self.column += MAX_PIECE
            self.pending = self.pending[MAX_PIECE:]

    def _pieces(self, body: str, ends_line: bool) -> Iterator[Piece]:
        """*body* as one piece, or several when it is longer than :data:`MAX_PIECE`."""
        while len(body) > MAX_PIECE:
            yield Piece(body[:MAX_PIECE], self.line, self.column, False)
            self.column += MAX_PIECE
            body = body[MAX_PIECE:]
        yield Piece(body, self.line, self.column, ends_line)
        if ends_line:
            self.line += 1
            self.column = 0
        else:
            self.column += len(body)

    def _file_boms(self, text: str, found: list[Event]) -> str:
        """*text*, the first of the file, without the byte order marks it begins with
        (W31); the columns of the decoder's findings on its first line follow."""
        count = len(text) - len(text.lstrip(_BOM))
        for n, (index, column, issue) in enumerate(found):
            if index == 0:
                found[n] = (index, max(0, column - count), issue)
        if self.bom_removed:
            what = "repeated at the start of the file removed"
        else:
            what = "at the start of the file removed"
        times = "" if count == 1 else f" ({count} of them)"
        found.append((0, 0, Issue("W31", f"byte order mark {what}{times}", 0, 0)))
        return text[count:]

    def _inner_boms(self, text: str, found: list[Event], final: bool) -> str:
        """*text* with the byte order marks inside the file read as spaces (W31): those
        that begin a line and those just before a '[' — where a file that began with
        one was joined to another (``cat a.pdn b.pdn``), so that the next record is
        read as it was in its own file.  The other U+FEFF characters (a zero-width
        no-break space inside a name or comment) are left as they are.  A space keeps
        the columns of the text after it."""
        parts: list[str] = []
        done = 0  # text before this is in parts
        index = 0  # line of the text at `counted`
        counted = 0
        line_begin = 0  # where line `index` begins
        reported = -1
        at = text.find(_BOM)
        while at >= 0:
            end = at + 1
            while end < len(text) and text[end] == _BOM:
                end += 1
            begins_line = text[at - 1] == "\n" if at else self.column == 0
            if end == len(text) and not final and not begins_line:
                break  # what follows it comes with the next block
            if begins_line or text.startswith("[", end):
                newlines = text.count("\n", counted, at)
                if newlines:
                    index += newlines
                    line_begin = text.rfind("\n", counted, at) + 1
                counted = at
                parts.append(text[done:at])
                parts.append(" " * (end - at))
                done = end
                if index != reported:  # one finding per line
                    reported = index
                    issue = Issue("W31", _INNER_BOM, 0, 0)
                    found.append((index, at - line_begin, issue))
            at = text.find(_BOM, end)
        if not parts:
            return text
        parts.append(text[done:])
        return "".join(parts)

    def _marks(self, text: str) -> list[Event]:
        out: list[Event] = []
        last_line = -1
        at = text.find(_MARK)
        while at >= 0:
            index = text.count("\n", 0, at)
            if index != last_line:
                last_line = index
                column = at - (text.rfind("\n", 0, at) + 1)
                out.append(
                    (
                        index,
                        column,
                        Issue(
                            "W38",
                            f"bytes that {self.info.legacy or self.info.encoding} cannot "
                            "decode replaced by U+FFFD",
                            0,
                            0,
                        ),
                    )
                )
            at = text.find(_MARK, at + 1)
        return out

    def _nul(self, text: str) -> Event:
        at = text.index("\x00")
        index = text.count("\n", 0, at)
        column = at - (text.rfind("\n", 0, at) + 1)
        return (index, column, Issue("W06", "NUL bytes in the input are read as spaces", 0, 0))

    def _report(self, events: list[Event]) -> None:
        for index, column, issue in sorted(events, key=lambda e: (e[0], e[1])):
            issue.line = self.line + index
            issue.column = (self.column + column if index == 0 else column) + 1
            self.info.issues.append(issue)

    def finish(self) -> Iterator[Piece]:
        """The last line, when the input does not end with a line end."""
        if self.pending:
            yield from self.feed("", [], True)


def _cut(data: bytes, final: bool) -> int:
    """Where the complete lines of *data* end (0: none); at the end of input, all."""
    if final:
        return len(data)
    end = max(data.rfind(b"\n"), data.rfind(b"\r"))
    if end == len(data) - 1 and data[end] == 0x0D:
        end = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end))
    return end + 1


def _utf8_cut(data: bytes) -> int:
    """How much of *data* (a long run without line end) decodes without cutting a
    UTF-8 character: all but an incomplete sequence at its end."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return len(data)
        if byte >= 0xC0:  # a lead byte: is its sequence complete?
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return len(data) if back >= need else len(data) - back
    return len(data)


def _by_lines(
    stream: BinaryIO, sample: bytes, decoder: _LineDecoder, lines: _Lines
) -> Iterator[Piece]:
    """Pieces of a file decoded line by line (UTF-8 or its code page)."""
    carry = sample
    final = False
    while True:
        if not final:
            block = stream.read(BLOCK_SIZE)
            final = not block
            data = carry + block if carry else block
        else:
            data = carry
        cut = _cut(data, final)
        if cut == 0 and len(data) >= MAX_PIECE:
            cut = _utf8_cut(data)  # a very long line: decode what is complete
        carry = data[cut:]
        if cut:
            text, events = decoder.decode(data[:cut])
            yield from lines.feed(text, events, final)
        if final:
            yield from lines.finish()
            return


def _whole(stream: BinaryIO, sample: bytes, encoding: str, lines: _Lines) -> Iterator[Piece]:
    """Pieces of a file decoded with one encoding (forced, or UTF-16)."""
    decoder = codecs.getincrementaldecoder(encoding)(errors=_MARKING)
    data = sample
    while True:
        final = not data
        try:
            text = decoder.decode(data, final=final)
        except UnicodeError as exc:  # a codec that gives up instead of asking _mark
            lines.info.issues.append(
                Issue(
                    "E12",
                    f"input cannot be decoded as {encoding} ({exc}); the rest is not read",
                    lines.line,
                    1,
                )
            )
            yield from lines.finish()
            return
        yield from lines.feed(text, [], final)
        if final:
            return
        data = stream.read(BLOCK_SIZE)


def _forced(encoding: str, sample: bytes) -> str:
    """The codec for a forced *encoding*: UTF-16 and UTF-32 without a byte order mark
    are read in the byte order their NUL bytes show (little-endian when unclear)."""
    if encoding == "utf-16" and not sample.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _looks_utf16(sample) or "utf-16-le"
    if encoding == "utf-32" and not sample.startswith(_UTF32_BOMS):
        return "utf-32-be" if sample[:1] == b"\x00" else "utf-32-le"
    return encoding


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


PARQUET_MAGIC = b"PAR1"
"""The first bytes of a Parquet file (and its last)."""
PARQUET_MESSAGE = (
    "input is a Parquet file: pdn-tools writes Parquet (pdn convert -o FILE.parquet) but "
    "does not read it; PDN is read, and pdn convert also reads the JSON and JSON Lines "
    "it writes (-o FILE.json, FILE.jsonl)"
)
"""What E12 says of a Parquet file given as input."""


_JSON_START = re.compile(
    rb"(?:\xef\xbb\xbf)*[ \t\r\n]*"
    rb"(?:\[[ \t\r\n]*\{"
    rb'|\{[ \t\r\n]*"[^"\r\n]{0,200}"[ \t\r\n]*:[ \t\r\n]*(?:["{\[\-0-9]|true|false|null))'
)
"""How a JSON file of records begins (a byte order mark or white space before it): an
array of objects (``[`` then ``{``), or an object (``{``, a key, ``:`` and the start of
a value).  A PDN file begins with a tag pair (``[Event``, also ``[ "x"]`` with its name
missing), a comment, or moves: none of these."""
JSON_MESSAGE = (
    "input is JSON, not PDN: pdn convert reads the JSON and JSON Lines pdn-tools writes "
    "(pdn convert FILE.json -o FILE.pdn); PDN held in the strings of other JSON is not read"
)
"""What E15 says of a JSON file given as PDN."""


def _looks_binary(sample: bytes) -> int:
    """The number of control bytes in *sample* when they make it look binary (at least
    16 of them and more than one byte in 30), else 0."""
    if len(sample) < 16:
        return 0
    count = len(sample) - len(sample.translate(None, _CONTROL))
    return count if count >= 16 and count * 30 > len(sample) else 0


def _utf8_sample(sample: bytes) -> bool | None:
    """True: *sample* is UTF-8 (a character may be cut at its end); False: mostly
    UTF-8 with stray bytes; None: not UTF-8."""
    try:
        sample.decode("utf-8")
        return True
    except UnicodeDecodeError as exc:
        if exc.start >= len(sample) - 3 and exc.reason == "unexpected end of data":
            return True
    return False if _mostly_utf8(sample) else None


def read_pieces(
    stream: BinaryIO,
    encoding: str | None = None,
    decoding: Decoding | None = None,
    max_expansion: int = MAX_EXPANSION,
) -> Iterator[Piece]:
    """Decode *stream* and yield its lines as :class:`Piece` objects.

    *encoding* forces an encoding (no detection, no W30; :func:`check_encoding`
    raises :class:`EncodingError` for a name that cannot be used).  Findings about
    the file go to *decoding*.  Compressed data stops being read when it expands
    more than *max_expansion* times (E11, :func:`pdn_tools.pdn.archives.decompressed`).
    """
    info = decoding if decoding is not None else Decoding()
    forced = check_encoding(encoding) if encoding is not None else None
    stream, kind = decompressed(stream, max_expansion)
    if kind == "zip":
        info.binary = True
        info.issues.append(
            Issue(
                "E12",
                "input is binary: a zip archive, whose PDN files are read when it is named "
                "as a file ending in .zip",
                1,
                1,
            )
        )
        return
    info.compression = kind
    lines = _Lines(info)
    sample = stream.read(SAMPLE_SIZE)
    if _JSON_START.match(sample):
        info.binary = True
        info.issues.append(Issue("E15", JSON_MESSAGE, 1, 1))
        return
    if forced is not None:
        info.encoding = forced
        codec = _forced(forced, sample)
        # These codecs remove the byte order mark the data begins with.
        lines.bom_removed = codec in ("utf-16", "utf-32", "utf-8-sig") and sample.startswith(
            (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", *_UTF32_BOMS)
        )
        yield from _whole(stream, sample, codec, lines)
    elif sample.startswith(_UTF8_BOM):
        count = 1
        while sample.startswith(_UTF8_BOM, 3 * count):
            count += 1  # a file that was given a BOM again
        repeated = f" ({count} of them)" if count > 1 else ""
        info.issues.append(Issue("W31", f"UTF-8 byte order mark removed{repeated}", 1, 1))
        lines.bom_removed = True
        yield from _by_lines(stream, sample[3 * count :], _LineDecoder(info, False), lines)
    elif sample.startswith(_UTF32_BOMS):  # before UTF-16's, which begins UTF-32-LE's
        info.encoding = "utf-32"
        info.issues.append(Issue("W30", "input is UTF-32 (byte order mark); decoded", 1, 1))
        lines.bom_removed = True
        yield from _whole(stream, sample, "utf-32", lines)
    elif sample.startswith((b"\xff\xfe", b"\xfe\xff")):
        info.encoding = "utf-16"
        info.issues.append(Issue("W30", "input is UTF-16 (byte order mark); decoded", 1, 1))
        lines.bom_removed = True
        yield from _whole(stream, sample, "utf-16", lines)
    elif (utf16 := _looks_utf16(sample)) is not None:
        info.encoding = utf16
        info.issues.append(Issue("W30", f"input looks like {utf16} (no BOM); decoded", 1, 1))
        yield from _whole(stream, sample, utf16, lines)
    elif sample.startswith(PARQUET_MAGIC):
        info.binary = True
        info.issues.append(Issue("E12", PARQUET_MESSAGE, 1, 1))
        return
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
        utf8 = _utf8_sample(sample)
        if utf8 is None:
            sample_lines = sample.splitlines(keepends=True)
            info.legacy = info.encoding = detect_codepage(_not_utf8(sample_lines))
            first = len(sample) - len(sample.lstrip(bytes(range(128))))
            info.issues.append(
                Issue(
                    "W30",
                    f"input is not UTF-8 (first non-ASCII byte at offset {first}); "
                    f"decoded as {info.legacy}",
                    1,
                    1,
                )
            )
        elif utf8 is False:
            info.legacy = detect_codepage(_not_utf8(sample.splitlines(keepends=True)))
        yield from _by_lines(stream, sample, _LineDecoder(info, utf8 is None), lines)
    problem = damage(stream)
    if problem is not None:
        layer = damaged_kind(stream)
        if over_limit(stream):
            message = f"the {layer} data is not read on: {problem}"
            code = "E11"
        else:
            message = f"the {layer} data is damaged ({problem})"
            code = "E14"
        info.issues.append(
            Issue(code, f"{message}; the rest of the file is not read", lines.line, 1)
        )


class Resume:
    """How to go on decoding a file from the start of one of its lines, as reading it
    from its beginning would (a game-aligned part of a file read on its own:
    :mod:`pdn_tools.run.spans`).

    ``line`` is the number of that line; ``legacy_main`` whether most of the file is
    in its code page (:attr:`Decoding.encoding` is then the code page); ``legacy`` the
    code page of its lines that are not UTF-8, as reading the whole file chose it
    (None: the part holds none).  Only what decides the text is carried: the findings
    of a part's decoder are not those of the whole file and are left unused.
    """

    line: int
    legacy_main: bool
    legacy: str | None

    __slots__ = ("legacy", "legacy_main", "line")

    def __init__(
        self,
        line: int,
        legacy_main: bool,
        legacy: str | None,
    ) -> None:
        self.line = line
        self.legacy_main = legacy_main
        self.legacy = legacy

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Resume) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.line, self.legacy_main, self.legacy) == (
            other.line,
            other.legacy_main,
            other.legacy,
        )

    def __hash__(self) -> int:
        return hash((self.line, self.legacy_main, self.legacy))

    def __repr__(self) -> str:
        return (
            f"Resume(line={self.line!r}, legacy_main={self.legacy_main!r}, legacy={self.legacy!r})"
        )

    def __reduce__(self) -> tuple[type[Resume], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Resume, (self.line, self.legacy_main, self.legacy))


freeze(Resume)


def resume_state(decoding: Decoding, line: int) -> Resume:
    """The :class:`Resume` of *line* of a file whose reading so far filled *decoding*
    (its code page is the one chosen by then)."""
    legacy_main = decoding.legacy is not None and decoding.encoding == decoding.legacy
    return Resume(line, legacy_main, decoding.legacy)


def resume_pieces(
    stream: BinaryIO, encoding: str | None, resume: Resume, decoding: Decoding
) -> Iterator[Piece]:
    """The pieces of *stream*, positioned at the start of line ``resume.line`` of a file
    that is neither compressed nor UTF-16, as :func:`read_pieces` gives them there.

    *encoding* is the forced encoding (``--encoding``), or None for a file read line
    by line as UTF-8 or its code page.
    """
    lines = _Lines(decoding)
    lines.line = resume.line
    lines.at_start = False  # a byte order mark there is inside the file
    if encoding is not None:
        decoding.encoding = check_encoding(encoding)
        yield from _whole(stream, stream.read(SAMPLE_SIZE), decoding.encoding, lines)
        return
    decoding.legacy = resume.legacy
    if resume.legacy_main and resume.legacy is not None:
        decoding.encoding = resume.legacy
    yield from _by_lines(stream, b"", _LineDecoder(decoding, resume.legacy_main), lines)
