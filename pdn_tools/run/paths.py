"""Which files a command reads: files as given, directories walked for ``*.pdn``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


class InputError(Exception):
    """A path that cannot be read; the CLI turns it into exit status 2."""


def expand(paths: tuple[str, ...]) -> Iterator[str]:
    """Files named by *paths*, in the order given; directories sorted and recursive.

    ``-`` stands for standard input and is passed through.  A directory yields the
    files whose name ends in ``.pdn`` in any letter case.
    """
    for raw in paths:
        if raw == "-":
            yield raw
            continue
        path = Path(raw)
        if path.is_dir():
            found = []
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(".pdn"):
                        found.append(os.path.join(root, name))
            yield from found
        elif path.is_file():
            yield raw
        elif path.exists():
            raise InputError(f"{raw}: not a regular file or directory")
        else:
            raise InputError(f"{raw}: no such file or directory")


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
