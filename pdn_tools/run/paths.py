"""Which files a command reads: the paths given, checked before anything is read.

Folders are walked by :mod:`pdn_tools.run.discover`, the way linters walk them;
:func:`expand` is its short form with the default settings.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from pdn_tools.run.discover import Discovery, InputError

__all__ = ["InputError", "check", "expand"]


def expand(paths: tuple[str, ...]) -> Iterator[str]:
    """Files named by *paths*, in the order given; folders walked with the default
    settings (:class:`pdn_tools.run.discover.Discovery`).

    ``-`` stands for standard input and is passed through.
    """
    for found in Discovery().files(paths):
        yield found.path


def check(paths: tuple[str, ...]) -> None:
    """Raise :class:`InputError` for the first path that does not exist or cannot be read."""
    for raw in paths:
        if raw == "-":
            continue
        path = Path(raw)
        if not path.exists():
            raise InputError(f"{raw}: no such file or directory")
        if path.is_file() and not os.access(path, os.R_OK):
            raise InputError(f"{raw}: permission denied")
        if not path.is_file() and not path.is_dir():
            raise InputError(f"{raw}: not a regular file or directory")
