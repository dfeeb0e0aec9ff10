"""Where a finding lies in the files of a repository, for the formats read by
code-scanning tools (SARIF, GitHub annotations).

Reports name a zip member ``archive.zip:inner.pdn``; no such file is in the
repository, so those formats place the finding on the archive and name the member
(and the line and column in it) in the message instead.
"""

from __future__ import annotations

import os


def zip_member(name: str) -> tuple[str, str] | None:
    """(archive, member) when the report name *name* names a member of a zip archive
    (``games.zip:round1.pdn``, as discovery shows it), else None: a file that really
    is named so, or a name whose archive is not there, is a file of its own."""
    archive, sep, member = name.partition(".zip:")
    if not sep or not member:
        return None
    archive += ".zip"
    if os.path.lexists(name) or not os.path.isfile(archive):
        return None
    return archive, member


def member_place(member: str, line: int, column: int | None = None) -> str:
    """``inner.pdn:3:7``: a place inside a member, as messages name it."""
    place = f"{member}:{max(1, line)}"
    return place if column is None else f"{place}:{max(1, column)}"


__all__ = ["member_place", "zip_member"]
