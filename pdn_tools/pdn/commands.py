"""Embedded commands inside comments: ``[%clock w1:29:46 B1:29:40]``, ``[%eval 0.3]``.

pdn-format.md §9: commands keep their order and the comment text around them; the
reader never rewrites a comment, so writing it back keeps every command unchanged.
"""

from __future__ import annotations

import re

_COMMAND = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_]*)\s*([^\]]*)\]")


def parse_commands(text: str) -> list[tuple[str, str]]:
    """All ``[%name value]`` commands in *text*, as (name, value) pairs in order."""
    return [(m.group(1), m.group(2).strip()) for m in _COMMAND.finditer(text)]
