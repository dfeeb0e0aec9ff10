"""Where inputs are stored: local paths, globs, and fsspec URLs.

A path with a protocol (``s3://…``, ``gs://…``, ``memory://…``) is read through
`fsspec <https://filesystem-spec.readthedocs.io>`_, which comes with the ``dask``
extra (``pip install 'pdn-tools[dask]'``); a protocol whose package is not installed
(s3fs, gcsfs) is reported in one line, like a missing file.  Only the data schemes of
:data:`DATA_SCHEMES` are opened unless more are allowed (``--allow-scheme``): fsspec
also knows protocols that reach other hosts or other files on their own (``ftp``,
``hdfs``, ``reference``, chained ``zip://…::…``), which a URL on the command line must
not open by surprise (docs/security.md).  A ``file://`` URL is the local path it
names, found as a path is.  Local paths are found by :mod:`pdn_tools.run.discover`
as always (folders walked with the exclusions, zip archives opened, entries that are
not read kept with the reason).  A local path or URL holding ``*``, ``?`` or ``[``
that names no file itself is a glob: it stands for the paths it matches, sorted, each
found as if named (links out of the pattern's folder are not followed).  A URL prefix
that is a directory stands for its ``*.pdn`` files, sorted and recursive; an
``http(s)`` URL is always one file (a web page's links are never followed).

Every failure of a storage (a refused connection, a missing bucket, a protocol that
cannot list) is an :class:`InputError` of one line, never a traceback.  Workers of a
cluster open the same names (:func:`open_binary`), so a URL must mean the same
storage on every machine.
"""

from __future__ import annotations

import errno
import glob
import io
import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from pdn_tools.atomic import printable
from pdn_tools.pdn.archives import compression
from pdn_tools.run.discover import Discovery, Found, InputError

if TYPE_CHECKING:
    from fsspec import AbstractFileSystem

INSTALL = "pip install 'pdn-tools[dask]'"
"""How to install the optional packages for clusters and URLs."""

_PROTOCOL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*)://")
_MAGIC = re.compile(r"[*?\[]")

DATA_SCHEMES = ("s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "http", "https", "memory")
"""The URL schemes read without ``--allow-scheme``: object stores, the web, memory
(``file`` URLs are local paths).  Other fsspec protocols reach other hosts or
files on their own (``ftp``, ``sftp``, ``hdfs``, ``reference``, ``zip``, ``tar``,
``dir``, ``data``, caches) and are refused unless allowed."""
_NOT_LISTED = ("http", "https")
"""Schemes whose URLs are always one file: a web page's links are never followed."""


def is_url(path: str) -> bool:
    """Whether *path* names a protocol (``scheme://…``) and is read through fsspec."""
    return _PROTOCOL.match(path) is not None


def local_path(path: str) -> str | None:
    """The local path a ``file://`` URL names (``file:///x/y.pdn`` → ``/x/y.pdn``,
    ``file://localhost/x`` too), or None when *path* is not such a URL."""
    lowered = path[:17].lower()
    if not lowered.startswith("file://"):
        return None
    rest = path[len("file://") :]
    if "::" in rest:
        return None
    if rest.lower().startswith("localhost/"):
        rest = rest[len("localhost") :]
    if not rest.startswith("/"):
        return None
    from urllib.parse import unquote

    return unquote(rest)


def schemes_of(url: str) -> list[str]:
    """The schemes a URL would open, in lower case: one, or several for a chained
    fsspec URL (``zip://a.pdn::s3://bucket/x.zip`` → ``zip``, ``s3``)."""
    out = []
    for part in url.split("::"):
        match = _SCHEME.match(part)
        out.append(match.group(1).lower() if match else "file")
    return out


def refused_scheme(url: str, allowed: tuple[str, ...]) -> str | None:
    """Why *url* is not opened (a scheme not among *allowed* nor
    :data:`DATA_SCHEMES`), or None when it may be."""
    for scheme in schemes_of(url):
        if scheme in allowed or scheme in DATA_SCHEMES or scheme == "file":
            continue
        return (
            f"{scheme}:// URLs are not read unless allowed (--allow-scheme {scheme}); "
            f"read by default: {', '.join(DATA_SCHEMES)}"
        )
    return None


def _storage_error(url: str, exc: BaseException) -> InputError:
    """One line for any failure of a storage: fsspec's own, or the protocol's."""
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{printable(url)}: no such file or directory")
    if isinstance(exc, OSError) and exc.strerror:
        reason = exc.strerror
    else:
        reason = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    return InputError(f"{printable(url)}: cannot be read ({printable(reason)[:300]})")


def _filesystem(url: str) -> tuple[AbstractFileSystem, str]:
    """The fsspec filesystem of *url* and the path within it."""
    try:
        from fsspec.core import url_to_fs
    except ImportError:
        raise InputError(f"{printable(url)}: reading URLs needs fsspec: {INSTALL}") from None
    try:
        fs, path = url_to_fs(url)
    except ImportError as exc:  # the protocol's package is missing (s3fs, gcsfs, …)
        raise InputError(f"{printable(url)}: {exc}") from None
    except ValueError as exc:  # an unknown protocol
        raise InputError(f"{printable(url)}: {exc}") from None
    except Exception as exc:  # any failure of the protocol while it starts
        raise _storage_error(url, exc) from None
    return fs, str(path)


def open_binary(path: str) -> BinaryIO:
    """Open *path* (a local path or a URL) for reading bytes; seekable."""
    local = local_path(path)
    if local is not None:
        return open(local, "rb")
    if not is_url(path):
        return open(path, "rb")
    fs, inner = _filesystem(path)
    try:
        handle = fs.open(inner, "rb")
    except Exception as exc:
        raise _storage_error(path, exc) from None
    return cast(BinaryIO, io.BufferedReader(_Remote(handle, path), 1 << 16))


class _Remote(io.RawIOBase):
    """A file of a storage read through fsspec whose failures, whatever the protocol
    raises (a dropped connection, a timeout), are :class:`OSError` naming the URL."""

    def __init__(self, handle: Any, url: str) -> None:
        super().__init__()
        self._handle = handle
        self._url = url

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def _fail(self, exc: Exception) -> OSError:
        reason = _storage_error(self._url, exc)
        return OSError(errno.EIO, str(reason))

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            data = self._handle.read(len(buffer))
        except Exception as exc:
            raise self._fail(exc) from None
        n = len(data)
        buffer[:n] = data
        return n

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        try:
            return int(self._handle.seek(offset, whence))
        except Exception as exc:
            raise self._fail(exc) from None

    def tell(self) -> int:
        return int(self._handle.tell())

    def close(self) -> None:
        try:
            self._handle.close()
        except Exception:  # closing a failed connection: nothing left to save
            pass
        finally:
            super().close()


def size(path: str) -> int:
    """The size of *path* in bytes (0 when it cannot be known)."""
    try:
        if not is_url(path):
            return os.stat(path).st_size
        fs, inner = _filesystem(path)
        return int(fs.size(inner) or 0)
    except (OSError, InputError):
        return 0


def version(path: str) -> str:
    """A token that changes when the file at *path* does ("" when it cannot be known):
    its size and modification time, or for a URL fsspec's ``ukey`` (an ETag on object
    stores)."""
    try:
        if not is_url(path):
            stat = os.stat(path)
            return f"{stat.st_size}:{stat.st_mtime_ns}"
        fs, inner = _filesystem(path)
        return str(fs.ukey(inner))
    except (OSError, InputError, NotImplementedError):
        return ""


def compressed(path: str) -> bool:
    """Whether the file at *path* holds compressed data (gzip, bzip2, xz or a zip
    archive), by its first bytes; False when it cannot be read."""
    try:
        with open_binary(path) as handle:
            return compression(handle.read(6)) is not None
    except (OSError, InputError):
        return False


def find(paths: tuple[str, ...], discovery: Discovery | None = None) -> Iterator[Found]:
    """The files named by *paths* in order (``-`` passed through): local paths found
    by *discovery* (:class:`pdn_tools.run.discover.Discovery`, default settings when
    None), globs and URLs expanded here; :class:`InputError` for a name that matches
    nothing or cannot be read, or a URL whose scheme is not allowed."""
    finder = discovery if discovery is not None else Discovery()
    for given in paths:
        raw = local_path(given) or given
        if raw != "-" and is_url(raw):
            refused = refused_scheme(raw, finder.options.schemes)
            if refused is not None:
                raise InputError(f"{printable(raw)}: {refused}")
            for url in _expand_url(raw):
                yield Found(url, printable(url))
        elif raw != "-" and _MAGIC.search(raw) and not os.path.lexists(raw):
            matches = sorted(glob.glob(raw, recursive=True))
            if not matches:
                raise InputError(f"{printable(raw)}: no such file or directory")
            base = os.path.realpath(_glob_base(raw))
            for match in matches:
                # What a pattern matches is not named: links out of its folder are
                # not followed, as in a folder walked.
                outside = None if finder.options.follow_links else finder.link_outside(match, base)
                if outside is not None:
                    yield outside
                else:
                    yield from finder.files((match,))
        else:
            yield from finder.files((raw,))


def _glob_base(pattern: str) -> str:
    """The folder a local glob pattern matches below: its part before the first
    wildcard, up to the last separator (``games/20*/x.pdn`` → ``games``)."""
    match = _MAGIC.search(pattern)
    prefix = pattern[: match.start()] if match is not None else pattern
    return os.path.dirname(prefix) or os.curdir


def expand(paths: tuple[str, ...]) -> Iterator[str]:
    """The paths of the readable files :func:`find` finds with the default settings."""
    for found in find(paths):
        if found.problem is None:
            yield found.path


def _expand_url(url: str) -> Iterator[str]:
    """The URLs of the files *url* stands for: itself, a directory's ``.pdn`` files
    or a glob's matches; always itself for the web."""
    fs, inner = _filesystem(url)
    if schemes_of(url)[0] in _NOT_LISTED:
        try:
            there = fs.exists(inner)
        except Exception as exc:
            raise _storage_error(url, exc) from None
        if not there:
            raise InputError(f"{printable(url)}: no such file or directory")
        yield url
        return
    try:
        if fs.isfile(inner):
            yield url
            return
        is_dir = fs.isdir(inner)
        if is_dir:
            found = sorted(str(p) for p in fs.find(inner) if str(p).lower().endswith(".pdn"))
        elif _MAGIC.search(inner):
            found = sorted(str(p) for p in fs.glob(inner) if fs.isfile(p))
        else:
            found = []
        urls = [str(fs.unstrip_protocol(path)) for path in found]
    except Exception as exc:
        raise _storage_error(url, exc) from None
    if not found and not is_dir:
        raise InputError(f"{printable(url)}: no such file or directory")
    yield from urls
