"""Compressed files and zip archives, opened as plain streams of PDN bytes.

Collections are shared as ``games.pdn.gz``, ``.bz2``, ``.xz`` and as zip archives of
``.pdn`` files.  :func:`decompressed` recognises gzip, bzip2 and xz data by its first
bytes (whatever the file is called, standard input included) and decompresses it as
it is read, so memory stays flat.  Damaged compressed data ends the stream early
instead of raising, after every byte decoded before the damage: the reader reports it
as a finding (:func:`damage`).

Untrusted input is bounded here (docs/security.md):

* **Expansion.**  Every decompressing stream counts the bytes it takes in and gives
  out; once it has given out more than :data:`EXPANSION_FLOOR` bytes and more than
  *max_expansion* times what it took in, it stops, and :func:`damage` says so (the
  reader reports E11).  PDN text compresses about 4 to 10 times, so the default
  ratio (:data:`MAX_EXPANSION`) leaves real files alone and stops a "bomb" (a few
  megabytes that expand to gigabytes of zeros) after at most the floor.
* **Member names.**  A member is named by a path that runs through the archive as if
  it were a folder, ``games.zip/round1.pdn`` (:func:`open_input`), and shown in
  reports as ``games.zip:round1.pdn``.  A member whose name is absolute, climbs out
  with ``..`` or cannot be written as such a path is never opened
  (:func:`unsafe_member`): joined to the archive's path, it would name a file outside
  the archive.
* **Member count.**  :func:`zip_members` refuses an archive whose directory claims
  more members than *max_members* before the directory is read
  (:class:`TooManyMembers`), so that a crafted directory cannot take the memory.
* **Work.**  An archive is opened once per process however many of its members are
  read (:class:`_Archives`), so reading is linear in the number of members.
"""

from __future__ import annotations

import io
import os
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, cast

if TYPE_CHECKING:
    import zipfile

#: How compressed data begins, and the name of the format.
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"))
_ZIP_MAGIC = b"PK\x03\x04"


def _damage_errors() -> tuple[type[BaseException], ...]:
    """Errors a decompressor raises on damaged data.

    The compression modules are imported when a compressed input is met (and here,
    when one of them raised): a plain file needs none of them, and they cost a few
    milliseconds of every start.
    """
    import lzma
    import zipfile

    return (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile)


def _zip_errors(*more: type[BaseException]) -> tuple[type[BaseException], ...]:
    """Errors the zip module raises on a damaged or crafted archive, besides its own:
    names that are not the UTF-8 they claim, fields out of range, truncated records
    (and *more*)."""
    import zipfile

    return (
        *more,
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        ValueError,
        EOFError,
        OverflowError,
        struct.error,
        NotImplementedError,
    )


def _reason(exc: BaseException) -> str:
    """An error of the zip module in words, for a finding."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


MAX_EXPANSION = 100
"""Default of ``--max-expansion``: the most bytes of output per byte of compressed
input a decompressing stream gives before it stops (after :data:`EXPANSION_FLOOR`)."""
EXPANSION_FLOOR = 16 << 20
"""Output a decompressing stream always gives, whatever its ratio (16 MiB)."""
MAX_MEMBERS = 100_000
"""Default of ``--max-members``: the most members a zip archive read may have."""


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


class _Counted(io.RawIOBase):
    """A raw stream over *inner* that counts the bytes read through it (the compressed
    input of a decompressor)."""

    def __init__(self, inner: BinaryIO) -> None:
        self._inner = inner
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.count += n
        return n


class _Guarded(io.RawIOBase):
    """A decompressing stream whose damage ends the data instead of raising, and
    which stops when its output outgrows its input by more than *max_expansion*.

    *taken* tells how many compressed bytes the decompressor has consumed so far;
    *below* is the stream the compressed data came from, looked at by :func:`damage`
    when this one ended cleanly (a damaged zip member under a gzip layer).
    """

    def __init__(
        self,
        inner: BinaryIO,
        kind: str,
        taken: _Counted | int,
        max_expansion: int,
        below: BinaryIO | None = None,
    ) -> None:
        self._inner = inner
        # read1: what one step of the decompressor gives.  A read of many steps that
        # meets the damage raises, and the data of its earlier steps, which were
        # sound, would be lost with it (a file cut short would lose its last block).
        self._read: Callable[[int], bytes] = getattr(inner, "read1", inner.read)
        self.kind = kind
        self.damage: str | None = None
        self.limited = False
        self._taken = taken
        self._max_expansion = max_expansion
        self._given = 0
        self.below = below

    def readable(self) -> bool:
        return True

    def _over_limit(self) -> bool:
        if self._given <= EXPANSION_FLOOR:
            return False
        taken = self._taken if isinstance(self._taken, int) else self._taken.count
        return self._given > self._max_expansion * max(taken, 1)

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.damage is not None:
            return 0
        try:
            data = self._read(len(buffer))
        except _damage_errors() as exc:
            self.damage = str(exc) or type(exc).__name__
            return 0
        n = len(data)
        buffer[:n] = data
        self._given += n
        if self._over_limit():
            self.limited = True
            self.damage = (
                f"it expands more than {self._max_expansion} times "
                f"(over {self._given >> 20} MiB so far; --max-expansion)"
            )
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


def decompressed(
    stream: BinaryIO, max_expansion: int = MAX_EXPANSION
) -> tuple[BinaryIO, str | None]:
    """*stream* decompressed when it holds gzip, bzip2 or xz data, and the format.

    The decompressed stream stops after giving more than *max_expansion* bytes per
    compressed byte (beyond :data:`EXPANSION_FLOOR`); :func:`damage` then says so.
    A zip archive is returned as it is, with the kind ``zip``: it cannot be read as
    a stream (see :func:`open_input`).
    """
    head, stream = _head(stream, 6)
    kind = compression(head)
    if kind not in ("gzip", "bzip2", "xz"):
        return stream, kind
    counted = _Counted(stream)
    source = io.BufferedReader(counted, 1 << 16)
    inner: BinaryIO
    if kind == "gzip":
        import gzip

        inner = gzip.GzipFile(fileobj=source, mode="rb")  # type: ignore[assignment]
    elif kind == "bzip2":
        import bz2

        inner = bz2.BZ2File(source)  # type: ignore[assignment]
    else:
        import lzma

        inner = lzma.LZMAFile(source)  # type: ignore[assignment]  # noqa: SIM115
    # The stream is closed by whoever closes the returned reader.
    guarded = _Guarded(inner, kind, counted, max_expansion, below=stream)
    return io.BufferedReader(guarded, 1 << 16), kind


def _guard(stream: BinaryIO | None) -> _Guarded | None:
    raw = getattr(stream, "raw", None)
    return raw if isinstance(raw, _Guarded) else None


def damage(stream: BinaryIO) -> str | None:
    """Why the decompressed *stream* ended early (damaged data, or more expansion
    than allowed), or None; looks through every decompressing layer."""
    guard = _guard(stream)
    while guard is not None:
        if guard.damage is not None:
            return guard.damage
        guard = _guard(guard.below)
    return None


def over_limit(stream: BinaryIO) -> bool:
    """Whether the decompressed *stream* ended because it expanded too much (E11)
    rather than because its data is damaged (E14)."""
    guard = _guard(stream)
    while guard is not None:
        if guard.damage is not None:
            return guard.limited
        guard = _guard(guard.below)
    return False


def damaged_kind(stream: BinaryIO) -> str | None:
    """The format (``gzip``, ``zip``, …) of the layer of *stream* that ended early."""
    guard = _guard(stream)
    while guard is not None:
        if guard.damage is not None:
            return guard.kind
        guard = _guard(guard.below)
    return None


def is_zip_name(path: str) -> bool:
    """Whether *path* names a zip archive by its extension."""
    return path.lower().endswith(".zip")


class TooManyMembers(ValueError):
    """A zip archive whose directory claims more members than allowed."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(
            f"the archive holds {count} members, more than the limit of {limit} "
            "(--max-members); none is read"
        )
        self.count = count
        self.limit = limit


_EOCD = b"PK\x05\x06"
_EOCD64_LOCATOR = b"PK\x06\x07"
_EOCD64 = b"PK\x06\x06"


def member_count(handle: BinaryIO) -> int | None:
    """How many members the zip archive open in *handle* claims in its end of central
    directory record (zip64 too), read without reading the directory; None when the
    record cannot be found (the zip module then says what is wrong)."""
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    start = max(0, size - (1 << 16) - 22)
    handle.seek(start)
    tail = handle.read()
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) < at + 22:
        return None
    count = int(struct.unpack_from("<H", tail, at + 10)[0])
    locator = at - 20
    if locator >= 0 and tail[locator : locator + 4] == _EOCD64_LOCATOR:
        (offset,) = struct.unpack_from("<Q", tail, locator + 8)
        if 0 <= offset < size:
            handle.seek(offset)
            record = handle.read(56)
            if len(record) == 56 and record[:4] == _EOCD64:
                count = max(count, int(struct.unpack_from("<Q", record, 32)[0]))
    return count


def unsafe_member(name: str) -> str | None:
    """Why the member *name* is never opened, or None when it can be.

    Joined to the archive's path, an absolute name (``/etc/x.pdn``) or one that
    climbs out with ``..`` would name a file outside the archive; a name that does
    not come back whole from its path (empty parts, ``a//b.pdn``) could be confused
    with another.
    """
    if "\x00" in name:
        return "its name holds a NUL byte"
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "its name is absolute"
    parts = name.replace("\\", "/").split("/")
    if ".." in parts:
        return "its name climbs out of the archive ('..')"
    if any(part == "" for part in parts):
        return "its name has an empty part"
    return None


def zip_members(archive: str, max_members: int = MAX_MEMBERS) -> list[tuple[str, str | None]]:
    """The members of *archive* worth reading as PDN — ``.pdn`` files (also
    compressed), in archive order, without folders and macOS resource forks — each
    with the reason it is never opened (:func:`unsafe_member`), None for the others.

    Raises :class:`TooManyMembers` before reading a directory of more than
    *max_members* entries, and ``zipfile.BadZipFile`` or :class:`OSError` for a file
    that is not a readable archive.
    """
    import zipfile

    with open(archive, "rb") as raw:
        count = member_count(raw)
        if count is not None and count > max_members:
            raise TooManyMembers(count, max_members)
        raw.seek(0)
        try:
            with zipfile.ZipFile(raw) as handle:
                names = handle.namelist()
        except _zip_errors() as exc:
            raise zipfile.BadZipFile(_reason(exc)) from None
    if len(names) > max_members:  # a directory whose record understated it
        raise TooManyMembers(len(names), max_members)
    out: list[tuple[str, str | None]] = []
    for name in names:
        base = name.rsplit("/", 1)[-1]
        if name.endswith("/") or name.startswith("__MACOSX/") or base.startswith("._"):
            continue
        lowered = base.lower()
        if not lowered.endswith((".pdn", ".pdn.gz", ".pdn.bz2", ".pdn.xz")):
            continue
        out.append((name, unsafe_member(name)))
    return out


def member_path(archive: str, member: str) -> str:
    """The path that names *member* of *archive* (see :func:`open_input`).

    Raises :class:`ArchiveError` for a member that is never opened
    (:func:`unsafe_member`).
    """
    reason = unsafe_member(member)
    if reason is not None:
        raise ArchiveError(
            f"{member_name(archive, member)}: a zip member that is never opened: {reason}"
        )
    return os.path.join(archive, member)


def member_problem(archive: str, member: str) -> str | None:
    """Why *member* of *archive* cannot be read (not a readable archive, no such
    member, an unsafe name), or None when it can be opened."""
    reason = unsafe_member(member)
    if reason is not None:
        return f"a zip member that is never opened: {reason}"
    import zipfile

    try:
        with zipfile.ZipFile(archive) as handle:
            handle.getinfo(member)
    except KeyError:
        return f"no member {member!r} in the zip archive"
    except OSError as exc:
        return f"not a readable zip archive ({exc})"
    except _zip_errors() as exc:
        return f"not a readable zip archive ({_reason(exc)})"
    return None


def member_name(archive: str, member: str) -> str:
    """How a member is shown in reports: ``archive.zip:inner.pdn``."""
    return f"{archive}:{member}"


def path_of_name(name: str) -> str:
    """The path that opens what reports name *name*: ``games.zip:round1.pdn`` opens the
    member, any other name is its own path.

    Raises :class:`ArchiveError` when *name* names a member that is never opened.
    """
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


class ArchiveError(OSError):
    """A zip member that cannot be opened (missing, encrypted, unsupported, unsafe)."""


class _Shared:
    """One open zip archive and the member streams still reading from it."""

    def __init__(self, handle: zipfile.ZipFile) -> None:
        self.handle = handle
        self.readers = 0
        self.evicted = False

    def release(self) -> None:
        """A member stream is done; close the archive when it was the last one and
        the archive has left the cache."""
        with _LOCK:
            self.readers -= 1
            last = self.readers == 0 and self.evicted
        if last:
            self.handle.close()


_LOCK = threading.Lock()


class _Archives:
    """The zip archives open in this process (a few, most recently used kept), so
    that reading the members of one archive one after another parses its directory
    once: linear in the number of members, not quadratic.

    An archive is known by its path and its identity on disk (device, inode, size,
    modification time), so a file replaced under the same name is opened again.
    """

    KEEP = 4

    def __init__(self) -> None:
        self._open: OrderedDict[tuple[str, int, int, int, int], _Shared] = OrderedDict()

    def open(self, archive: str, inner: str) -> tuple[_Shared, BinaryIO, int]:
        """The shared archive of *archive*, its member *inner* opened, and the
        member's compressed size."""
        info = os.stat(archive)
        key = (archive, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        with _LOCK:
            shared = self._open.get(key)
            if shared is not None:
                self._open.move_to_end(key)
                shared.readers += 1
        if shared is None:
            import zipfile

            shared = _Shared(zipfile.ZipFile(archive))
            shared.readers = 1
            with _LOCK:
                self._open[key] = shared
                stale = []
                while len(self._open) > self.KEEP:
                    stale.append(self._open.popitem(last=False)[1])
            for old in stale:
                self._evict(old)
        try:
            size = shared.handle.getinfo(inner).compress_size
            return shared, cast(BinaryIO, shared.handle.open(inner)), size
        except BaseException:
            shared.release()
            raise

    @staticmethod
    def _evict(shared: _Shared) -> None:
        with _LOCK:
            shared.evicted = True
            idle = shared.readers == 0
        if idle:
            shared.handle.close()

    def forget(self) -> None:
        """Drop every archive (in a forked child: the parent's file offsets must not
        be shared)."""
        with _LOCK:
            stale = list(self._open.values())
            self._open.clear()
        for shared in stale:
            self._evict(shared)


_ARCHIVES = _Archives()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_ARCHIVES.forget)


class _Member(_Guarded):
    """A zip member's stream (damage and expansion end it, as for compressed files)
    that lets go of its archive when closed."""

    def __init__(
        self, shared: _Shared, member: BinaryIO, compressed_size: int, max_expansion: int
    ) -> None:
        super().__init__(member, "zip", compressed_size, max_expansion)
        self._shared: _Shared | None = shared

    def close(self) -> None:
        try:
            super().close()
        finally:
            shared, self._shared = self._shared, None
            if shared is not None:
                shared.release()


def open_input(path: str, max_expansion: int = MAX_EXPANSION) -> BinaryIO:
    """Open *path* for reading bytes; a path through a zip archive opens that member.

    Raises :class:`OSError` (:class:`ArchiveError` for a member that cannot be read
    or is never opened, :func:`unsafe_member`).
    """
    try:
        return open(path, "rb")
    except (NotADirectoryError, FileNotFoundError):
        member = split_member(path)
        if member is None:
            raise
    archive, inner = member
    reason = unsafe_member(inner)
    if reason is not None:
        raise ArchiveError(
            f"{member_name(archive, inner)}: a zip member that is never opened: {reason}"
        )
    try:
        shared, stream, compressed_size = _ARCHIVES.open(archive, inner)
    except OSError:
        raise
    except _zip_errors(KeyError, RuntimeError) as exc:
        reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else _reason(exc)
        raise ArchiveError(f"{inner} cannot be read from {archive}: {reason}") from None
    raw = _Member(shared, stream, compressed_size, max_expansion)
    return cast(BinaryIO, io.BufferedReader(raw, 1 << 16))
