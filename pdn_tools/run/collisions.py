"""Outputs that would overwrite an input or each other, refused before anything is written.

Every command that writes a file (``convert`` with its rejects, moves table, dataset
and split files; ``report -o``; ``show --svg``) asks here first, so that one rule
holds everywhere: an output never replaces an input.

Two names are the same file when they resolve to the same path (symbolic links
followed, relative paths made absolute, ``file://`` URLs taken as the paths they
name, other URLs compared in one spelling) or, for files that exist, when they have
the same device and inode (hard links, bind mounts).  Standard input and output are
compared by what they are opened on (``pdn convert - -o F < F``, also for the files
of ``--split-by``).  An output that a directory walk of an input would find (a
``*.pdn`` file inside an input directory) is refused too: the run would read its own
output back.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pdn_tools.atomic import printable
from pdn_tools.run.storage import is_url, local_path

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*)://")


class OutputCollision(Exception):
    """Two outputs, or an output and an input, are the same file (exit status 2)."""


@dataclass(frozen=True, slots=True)
class _File:
    """How a path or a standard stream is told apart from another."""

    label: str
    real: str | None
    identity: tuple[int, int] | None

    def same(self, other: _File) -> bool:
        if self.real is not None and self.real == other.real:
            return True
        return self.identity is not None and self.identity == other.identity


def _identity(st: os.stat_result) -> tuple[int, int]:
    return (st.st_dev, st.st_ino)


def _url(url: str) -> str:
    """One spelling of a URL: the scheme in lower case, the path normalised
    (``S3://b//x/./y.pdn`` and ``s3://b/x/y.pdn`` are one object)."""
    match = _SCHEME.match(url)
    if match is None:
        return url
    rest = url[match.end() :]
    path = posixpath.normpath("/" + rest).lstrip("/") if rest else rest
    return f"{match.group(1).lower()}://{path}"


def _path(path: str, label: str) -> _File:
    """A named file or URL; a device or FIFO (``/dev/null``) is nobody's data and
    collides with nothing."""
    local = local_path(path)
    if local is None and is_url(path):
        return _File(label, _url(path), None)
    real = os.path.realpath(local if local is not None else path)
    try:
        st = os.stat(real)
    except OSError:
        return _File(label, real, None)
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        return _File(label, None, None)
    return _File(label, real, _identity(st))


def _stream(fd: int | None, label: str) -> _File:
    """A standard stream: its file when it is opened on a regular file, else nothing
    to compare (a terminal or a pipe is nobody's input)."""
    if fd is None:
        return _File(label, None, None)
    try:
        st = os.fstat(fd)
    except OSError:
        return _File(label, None, None)
    if not stat.S_ISREG(st.st_mode):
        return _File(label, "<stdout>" if fd == 1 else None, None)
    return _File(label, None, _identity(st))


def reads_pdn(name: str) -> bool:
    """Whether a directory walk picks up a file of this name (``*.pdn``, any case)."""
    return name.lower().endswith(".pdn")


class Collisions:
    """The inputs of one run, against which each output is checked (:meth:`check`).

    *inputs* are the paths as given (files, directories, URLs, ``-``), *files* the
    files they expand to.
    """

    def __init__(
        self,
        inputs: Sequence[str],
        files: Sequence[str],
        *,
        stdin_fd: int | None = 0,
        stdout_fd: int | None = 1,
        read_back: Callable[[str], bool] = reads_pdn,
    ) -> None:
        self._stdout_fd = stdout_fd
        self._read_back = read_back
        self._files = [_path(path, printable(path)) for path in files if path != "-"]
        self._stdin = _stream(stdin_fd, "standard input") if "-" in inputs else None
        self._folders: list[tuple[str, str]] = []
        for given in inputs:
            folder = local_path(given) or given
            if folder != "-" and not is_url(folder) and os.path.isdir(folder):
                self._folders.append((printable(given), os.path.realpath(folder)))

    def output(self, option: str, path: str) -> _File:
        """How the output *path* of *option* is compared (``-``: standard output)."""
        if path == "-":
            return _stream(self._stdout_fd, f"{option} - (standard output)")
        return _path(path, f"{option} {printable(path)}")

    def check(self, option: str, path: str, *, folder: bool = False) -> None:
        """Raise :class:`OutputCollision` when the output *path* given by *option* is
        an input, the file standard input is redirected from, or (a ``*.pdn`` file,
        or with *folder* a directory) lies inside an input directory."""
        output = self.output(option, path)
        for source in self._files:
            if output.same(source):
                raise OutputCollision(f"{output.label} is also an input ({source.label})")
        stdin = self._stdin
        if stdin is not None and stdin.identity is not None and output.identity == stdin.identity:
            raise OutputCollision(f"{output.label} is the file standard input is redirected from")
        if path == "-" or output.real is None:
            return
        if not folder and not self._read_back(os.path.basename(path)):
            return
        for shown, root in self._folders:
            if output.real == root or output.real.startswith(root.rstrip(os.sep) + os.sep):
                raise OutputCollision(
                    f"{output.label} lies inside input directory {shown} and would be read back"
                )


def check_outputs(
    inputs: Sequence[str],
    files: Sequence[str],
    outputs: Sequence[tuple[str, str]],
    *,
    stdin_fd: int | None = 0,
    stdout_fd: int | None = 1,
    read_back: Callable[[str], bool] = reads_pdn,
    folders: Sequence[str] = (),
) -> Collisions:
    """Raise :class:`OutputCollision` when two *outputs* are the same file, or one is
    an input (:meth:`Collisions.check`); returns the checker for outputs named later
    (the files of ``--split-by``).

    *inputs* are the paths as given (files, directories, ``-``), *files* the files they
    expand to; *outputs* are (option, path) pairs, ``-`` meaning standard output;
    the options in *folders* write directories (a dataset, split files), refused
    inside an input directory whatever their names.  The message is one line naming
    both paths.
    """
    collisions = Collisions(
        inputs, files, stdin_fd=stdin_fd, stdout_fd=stdout_fd, read_back=read_back
    )
    named = [collisions.output(option, path) for option, path in outputs]
    for i, first in enumerate(named):
        for second in named[i + 1 :]:
            if first.same(second):
                raise OutputCollision(f"{first.label} and {second.label} are the same file")
    for option, path in outputs:
        collisions.check(option, path, folder=option in folders)
    return collisions


_KINDS = {
    ".pdn": "a PDN file",
    ".json": "a JSON file",
    ".jsonl": "a JSON Lines file",
    ".ndjson": "a JSON Lines file",
    ".parquet": "a Parquet file",
    ".pq": "a Parquet file",
    ".html": "an HTML page",
    ".htm": "an HTML page",
    ".svg": "an SVG picture",
    ".png": "a PNG picture",
    ".gif": "a GIF picture",
    ".gz": "a gzip-compressed file",
    ".bz2": "a bzip2-compressed file",
    ".xz": "an xz-compressed file",
    ".zip": "a zip archive",
}
"""The kinds of file an extension says, among those pdn-tools reads or writes."""


def link_target(path: str | None) -> str | None:
    """The file an output named *path* is written to when *path* is a symbolic link
    (every link followed; it need not exist yet), else None: an output that is a link
    replaces the file the link leads to (docs/cli.md).  Relative to the current
    folder when it lies below it, as messages show paths."""
    if path is None or path == "-":
        return None
    local = local_path(path) or path
    if is_url(local) or not os.path.islink(local):
        return None
    target = os.path.realpath(local)
    relative = os.path.relpath(target)
    return target if relative.startswith("..") else relative  # as messages show it


def _kind_of(path: str) -> tuple[str, str | None]:
    """The (lower-case) ending of *path* and the kind of file it says (None: none)."""
    ending = os.path.splitext(path.rstrip("/" + os.sep))[1].lower()
    return ending, _KINDS.get(ending)


def check_kinds(outputs: Sequence[tuple[str, str | None, str, tuple[str, ...]]]) -> None:
    """Refuse an output whose name says another kind of file than the one written.

    Each output is (option, path, what is written, the endings that fit it).  A slip
    such as ``pdn report round1.pdn -o round2.pdn`` would replace a game file with a
    page; an extension no kind above has (or none) says nothing and is never refused,
    nor is standard output (``-``).  An output that is a symbolic link is written to
    the file it leads to, so that file's name must fit too (``page.html ->
    round2.pdn`` is refused).  Raises :class:`OutputCollision` (exit status 2)
    before anything is written.
    """
    for option, path, written, fitting in outputs:
        if path is None or path == "-":
            continue
        ending, kind = _kind_of(path)
        if kind is not None and ending not in fitting:
            raise OutputCollision(
                f"{option} {printable(path)} names {kind}, but {written} is written there "
                f"(give it the ending {fitting[0]})"
            )
        target = link_target(path)
        if target is None:
            continue
        ending, kind = _kind_of(target)
        if kind is not None and ending not in fitting:
            raise OutputCollision(
                f"{option} {printable(path)} is a symbolic link to {printable(target)}, which "
                f"names {kind}, but {written} would be written there"
            )


__all__ = [
    "Collisions",
    "OutputCollision",
    "check_kinds",
    "check_outputs",
    "link_target",
    "reads_pdn",
]
