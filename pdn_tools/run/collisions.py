"""Outputs that would overwrite an input or each other, refused before anything is written.

Two names are the same file when they resolve to the same path (symbolic links
followed, relative paths made absolute) or, for files that exist, when they have the
same device and inode (hard links, bind mounts).  Standard input and output are
compared by what they are opened on (``pdn convert - -o F < F``).  An output that a
directory walk of an input would find (a ``*.pdn`` file inside an input directory)
is refused too: the run would read its own output back.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pdn_tools.atomic import printable


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


def _path(path: str, label: str) -> _File:
    """A named file; a device or FIFO (``/dev/null``) is nobody's data and collides
    with nothing."""
    real = os.path.realpath(path)
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


def check_outputs(
    inputs: Sequence[str],
    files: Sequence[str],
    outputs: Sequence[tuple[str, str]],
    *,
    stdin_fd: int | None = 0,
    stdout_fd: int | None = 1,
    read_back: Callable[[str], bool] = reads_pdn,
) -> None:
    """Raise :class:`OutputCollision` when two *outputs* are the same file, or one is
    an input.

    *inputs* are the paths as given (files, directories, ``-``), *files* the files they
    expand to; *outputs* are (option, path) pairs, ``-`` meaning standard output.
    The message is one line naming both paths.
    """
    named: list[_File] = []
    for option, path in outputs:
        if path == "-":
            named.append(_stream(stdout_fd, f"{option} - (standard output)"))
        else:
            named.append(_path(path, f"{option} {printable(path)}"))
    for i, first in enumerate(named):
        for second in named[i + 1 :]:
            if first.same(second):
                raise OutputCollision(f"{first.label} and {second.label} are the same file")
    for path in files:
        if path == "-":
            continue
        source = _path(path, printable(path))
        for output in named:
            if output.same(source):
                raise OutputCollision(f"{output.label} is also an input ({source.label})")
    if "-" in inputs:
        stdin = _stream(stdin_fd, "standard input")
        if stdin.identity is not None:
            for output in named:
                if output.identity == stdin.identity:
                    raise OutputCollision(
                        f"{output.label} is the file standard input is redirected from"
                    )
    for folder in inputs:
        if folder == "-" or not os.path.isdir(folder):
            continue
        root = os.path.realpath(folder)
        for (_option, path), output in zip(outputs, named, strict=True):
            if path == "-" or output.real is None or not read_back(os.path.basename(path)):
                continue
            if output.real.startswith(root.rstrip(os.sep) + os.sep):
                raise OutputCollision(
                    f"{output.label} lies inside input directory {printable(folder)} "
                    "and would be read back"
                )


__all__ = ["OutputCollision", "check_outputs", "reads_pdn"]
