"""Where inputs are stored: local paths, globs, and fsspec URLs.

A path with a protocol (``memory://…``, ``file://…``, ``s3://…``, ``gs://…``) is read
through `fsspec <https://filesystem-spec.readthedocs.io>`_, which comes with the
``dask`` extra (``pip install 'pdn-tools[dask]'``); a protocol whose package is not
installed (s3fs, gcsfs) is reported in one line, like a missing file.  Local paths are
found by :mod:`pdn_tools.run.discover` as always (folders walked with the exclusions,
zip archives opened, unreadable entries kept with the reason).  A local path or URL
holding ``*``, ``?`` or ``[`` that names no file itself is a glob: it stands for the
paths it matches, sorted, each found as if named.  A URL prefix that is a directory
stands for its ``*.pdn`` files, sorted and recursive.

Workers of a cluster open the same names (:func:`open_binary`), so a URL must mean
the same storage on every machine.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, cast

from pdn_tools.pdn.archives import compression
from pdn_tools.run.discover import Discovery, Found, InputError

if TYPE_CHECKING:
    from fsspec import AbstractFileSystem

INSTALL = "pip install 'pdn-tools[dask]'"
"""How to install the optional packages for clusters and URLs."""

_PROTOCOL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_MAGIC = re.compile(r"[*?\[]")


def is_url(path: str) -> bool:
    """Whether *path* names a protocol (``scheme://…``) and is read through fsspec."""
    return _PROTOCOL.match(path) is not None


def _filesystem(url: str) -> tuple[AbstractFileSystem, str]:
    """The fsspec filesystem of *url* and the path within it."""
    try:
        from fsspec.core import url_to_fs
    except ImportError:
        raise InputError(f"{url}: reading URLs needs fsspec: {INSTALL}") from None
    try:
        fs, path = url_to_fs(url)
    except ImportError as exc:  # the protocol's package is missing (s3fs, gcsfs, …)
        raise InputError(f"{url}: {exc}") from None
    except ValueError as exc:  # an unknown protocol
        raise InputError(f"{url}: {exc}") from None
    return fs, str(path)


def open_binary(path: str) -> BinaryIO:
    """Open *path* (a local path or a URL) for reading bytes; seekable."""
    if not is_url(path):
        return open(path, "rb")
    fs, inner = _filesystem(path)
    try:
        return cast(BinaryIO, fs.open(inner, "rb"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file or directory") from None


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
    nothing or cannot be read."""
    finder = discovery if discovery is not None else Discovery()
    for raw in paths:
        if raw != "-" and is_url(raw):
            for url in _expand_url(raw):
                yield Found(url, url)
        elif raw != "-" and _MAGIC.search(raw) and not os.path.lexists(raw):
            matches = sorted(glob.glob(raw, recursive=True))
            if not matches:
                raise InputError(f"{raw}: no such file or directory")
            yield from finder.files(matches)
        else:
            yield from finder.files((raw,))


def expand(paths: tuple[str, ...]) -> Iterator[str]:
    """The paths of the readable files :func:`find` finds with the default settings."""
    for found in find(paths):
        if found.problem is None:
            yield found.path


def _expand_url(url: str) -> Iterator[str]:
    fs, inner = _filesystem(url)
    try:
        if fs.isfile(inner):
            yield url
            return
        if fs.isdir(inner):
            found = sorted(str(p) for p in fs.find(inner) if str(p).lower().endswith(".pdn"))
        elif _MAGIC.search(inner):
            found = sorted(str(p) for p in fs.glob(inner) if fs.isfile(p))
        else:
            found = []
    except OSError as exc:
        raise InputError(f"{url}: {exc.strerror or exc}") from None
    if not found and not fs.isdir(inner):
        raise InputError(f"{url}: no such file or directory")
    for path in found:
        yield str(fs.unstrip_protocol(path))
