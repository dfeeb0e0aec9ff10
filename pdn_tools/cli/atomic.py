"""Writing an output file whole or not at all.

An output appears only when it is complete: it is written to a temporary file in the
same directory (so that the final rename stays on one file system) and renamed over
the target when writing succeeded.  When anything fails on the way — an input error
that ends the run with status 2, Ctrl-C, a full disk — the temporary file is removed
and an earlier file of that name is left as it was.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TextIO


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_output(path: str, *, encoding: str = "utf-8") -> Iterator[TextIO]:
    """A text handle whose content becomes *path* when the ``with`` block ends
    normally; ``-`` is standard output (written as it goes).

    Raises ``OSError`` on entry when the temporary file cannot be made (a missing
    directory, no permission), before any work is done.
    """
    if path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    target = os.path.abspath(path)
    folder, name = os.path.split(target)
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding=encoding, newline="") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private
        os.replace(temporary, target)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
