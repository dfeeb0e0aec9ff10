"""Where a finding lies in the files of a repository, for the formats read by
code-scanning tools (SARIF, GitHub annotations).

Reports name a zip member ``archive.zip:inner.pdn``; no such file is in the
repository, so those formats place the finding on the archive and name the member
(and the line and column in it) in the message instead.  A SARIF fix edits the text
of a file by line and column; :func:`editable_text` tells the files where such an
edit means what it says.
"""

from __future__ import annotations

import codecs
import os
import re
import stat

from pdn_tools.pdn.archives import compression

_CHUNK = 1 << 20
_ESCAPED = re.compile(r"\\(?:x([0-9a-f]{2})|u([0-9a-f]{4}))")
"""A character of a file name as reports show it (:func:`pdn_tools.atomic.printable`):
a control character or an odd byte as ``\\xNN``, a format character as ``\\uNNNN``."""


def disk_name(name: str) -> str:
    """The name on disk of the file reports show as *name*: *name* itself when a file
    of that name is there (a backslash may be part of a name), else with the escapes
    of :func:`pdn_tools.atomic.printable` undone: ``\\x01`` the control character,
    ``\\xe9`` the byte (a name that is not UTF-8, as Python keeps it).  ``\\x80`` to
    ``\\x9f`` show C1 controls as well as such bytes: the characters when a file so
    named is there, else the bytes."""
    if "\\" not in name or os.path.lexists(name):
        return name

    def undone(as_bytes: bool) -> str:
        def one(match: re.Match[str]) -> str:
            if match.group(2) is not None:
                return chr(int(match.group(2), 16))
            code = int(match.group(1), 16)
            return chr(0xDC00 + code) if as_bytes and code >= 0x80 else chr(code)

        return _ESCAPED.sub(one, name)

    characters = undone(False)
    return characters if os.path.lexists(characters) else undone(True)


def zip_member(name: str) -> tuple[str, str] | None:
    """(archive, member) when the report name *name* names a member of a zip archive
    (``games.zip:round1.pdn``, as discovery shows it), else None: a file that really
    is named so, or a name whose archive is not there, is a file of its own."""
    archive, sep, member = name.partition(".zip:")
    if not sep or not member:
        return None
    archive += ".zip"
    if os.path.lexists(disk_name(name)) or not os.path.isfile(disk_name(archive)):
        return None
    return archive, member


def member_place(member: str, line: int, column: int | None = None) -> str:
    """``inner.pdn:3:7``: a place inside a member, as messages name it."""
    place = f"{member}:{max(1, line)}"
    return place if column is None else f"{place}:{max(1, column)}"


def editable_text(name: str) -> bool:
    """Whether the file reports name *name* is a local regular file of UTF-8 text as
    it lies on disk, so that an edit of its text by line and column (a SARIF fix)
    can be applied to it: not a zip member, not compressed (gzip, bzip2, xz, zip),
    not text in another encoding (cp1252, UTF-16, …), and not a name that is no file
    here (standard input, a URL).  Reads the file once, a chunk at a time."""
    if zip_member(name) is not None:
        return False
    try:
        with open(disk_name(name), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return False
            chunk = handle.read(_CHUNK)
            if compression(chunk[:6]) is not None:
                return False
            decoder = codecs.getincrementaldecoder("utf-8")("strict")
            while chunk:
                decoder.decode(chunk)
                chunk = handle.read(_CHUNK)
            decoder.decode(b"", final=True)
    except (OSError, UnicodeDecodeError):
        return False
    return True


__all__ = ["disk_name", "editable_text", "member_place", "zip_member"]
