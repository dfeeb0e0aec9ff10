"""Compressed files and zip archives, opened as plain streams of PDN bytes.

Collections are shared as ``games.pdn.gz``, ``.bz2``, ``.xz`` and as zip archives of
``.pdn`` files.  :func:`decompressed` recognises gzip, bzip2 and xz data by its first
bytes (whatever the file is called, standard input included) and decompresses it as
it is read, so memory stays flat.  Damaged compressed data ends the stream early
instead of raising: the reader reports it as a finding (:func:`damage`).

A zip archive needs random access, so it is read by name only: a member is named by a
path that runs through the archive as if it were a folder, ``games.zip/round1.pdn``
(:func:`open_input`; :func:`zip_members` lists the members worth reading), and shown
in reports as ``games.zip:round1.pdn``.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import zipfile
import zlib
from typing import BinaryIO

#: How compressed data begins, and the name of the format.
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"))
_ZIP_MAGIC = b"PK\x03\x04"
#: Errors a decompressor raises on damaged data.
_DAMAGE = (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile)


class Prefixed(io.RawIOBase):
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


class _Guarded(io.RawIOBase):
    """A decompressing stream whose damage ends the data instead of raising."""

    def __init__(self, inner: BinaryIO, kind: str) -> None:
        self._inner = inner
        self.kind = kind
        self.damage: str | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.damage is not None:
            return 0
        try:
            data = self._inner.read(len(buffer))
        except _DAMAGE as exc:
            self.damage = str(exc) or type(exc).__name__
            return 0
        n = len(data)
        buffer[:n] = data
        return n

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            super().close()


def _head(stream: BinaryIO, size: int) -> tuple[bytes, BinaryIO]:
    """The first *size* bytes of *stream* and a stream that still starts with them."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        try:
            return bytes(peek(size)[:size]), stream
        except (OSError, ValueError):
            pass
    head = stream.read(size)
    return head, io.BufferedReader(Prefixed(head, stream))


def compression(head: bytes) -> str | None:
    """``gzip``, ``bzip2``, ``xz`` or ``zip`` when *head* starts such data, else None."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            if kind == "bzip2" and head[3:4] not in b"123456789":
                continue
            return kind
    return "zip" if head.startswith(_ZIP_MAGIC) else None


def decompressed(stream: BinaryIO) -> tuple[BinaryIO, str | None]:
    """*stream* decompressed when it holds gzip, bzip2 or xz data, and the format.

    A zip archive is returned as it is, with the kind ``zip``: it cannot be read as
    a stream (see :func:`open_input`).
    """
    head, stream = _head(stream, 6)
    kind = compression(head)
    inner: BinaryIO
    if kind == "gzip":
        inner = gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[assignment]
    elif kind == "bzip2":
        inner = bz2.BZ2File(stream)  # type: ignore[assignment]
    elif kind == "xz":
        inner = lzma.LZMAFile(stream)  # type: ignore[assignment]  # noqa: SIM115
    else:
        return stream, kind
    # The stream is closed by whoever closes the returned reader.
    return io.BufferedReader(_Guarded(inner, kind), 1 << 16), kind


def damage(stream: BinaryIO) -> str | None:
    """Why the decompressed *stream* ended early (damaged data), or None."""
    raw = getattr(stream, "raw", None)
    return raw.damage if isinstance(raw, _Guarded) else None


def is_zip_name(path: str) -> bool:
    """Whether *path* names a zip archive by its extension."""
    return path.lower().endswith(".zip")


def zip_members(archive: str) -> list[str]:
    """The members of *archive* worth reading as PDN: ``.pdn`` files (also compressed),
    in archive order, without folders and without macOS resource forks."""
    with zipfile.ZipFile(archive) as handle:
        names = handle.namelist()
    out = []
    for name in names:
        base = name.rsplit("/", 1)[-1]
        if name.endswith("/") or name.startswith("__MACOSX/") or base.startswith("._"):
            continue
        lowered = base.lower()
        if lowered.endswith(".pdn") or lowered.endswith((".pdn.gz", ".pdn.bz2", ".pdn.xz")):
            out.append(name)
    return out


def member_path(archive: str, member: str) -> str:
    """The path that names *member* of *archive* (see :func:`open_input`)."""
    return os.path.join(archive, member)


def member_name(archive: str, member: str) -> str:
    """How a member is shown in reports: ``archive.zip:inner.pdn``."""
    return f"{archive}:{member}"


def path_of_name(name: str) -> str:
    """The path that opens what reports name *name*: ``games.zip:round1.pdn`` opens the
    member, any other name is its own path."""
    archive, sep, member = name.partition(".zip:")
    if sep and member and os.path.isfile(archive + ".zip") and not os.path.exists(name):
        return member_path(archive + ".zip", member)
    return name


def split_member(path: str) -> tuple[str, str] | None:
    """(archive, member) when *path* runs through a zip archive, else None."""
    head = path
    parts: list[str] = []
    while True:
        head, tail = os.path.split(head)
        if not tail:
            return None
        parts.append(tail)
        if is_zip_name(head) and os.path.isfile(head):
            return head, "/".join(reversed(parts))
        if not head:
            return None


class _Member(_Guarded):
    """A zip member's stream (damage ends it, as for compressed files) that also
    closes its archive."""

    def __init__(self, archive: zipfile.ZipFile, member: BinaryIO) -> None:
        super().__init__(member, "zip")
        self._archive = archive

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._archive.close()


class ArchiveError(OSError):
    """A zip member that cannot be opened (missing, encrypted, unsupported)."""


def open_input(path: str) -> BinaryIO:
    """Open *path* for reading bytes; a path through a zip archive opens that member.

    Raises :class:`OSError` (:class:`ArchiveError` for a member that cannot be read).
    """
    try:
        return open(path, "rb")
    except (NotADirectoryError, FileNotFoundError):
        member = split_member(path)
        if member is None:
            raise
    archive, inner = member
    try:
        handle = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ArchiveError(f"{archive}: not a readable zip archive ({exc})") from None
    try:
        stream = handle.open(inner)
    except (KeyError, RuntimeError, NotImplementedError, zipfile.BadZipFile) as exc:
        handle.close()
        reason = exc.args[0] if exc.args else type(exc).__name__
        raise ArchiveError(f"{inner} cannot be read from {archive}: {reason}") from None
    return io.BufferedReader(_Member(handle, stream), 1 << 16)  # type: ignore[arg-type]
