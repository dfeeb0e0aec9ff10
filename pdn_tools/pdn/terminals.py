"""The grammar's terminal patterns that are matched without the parser.

Written by ``build_support/write_terminals.py`` from ``grammar/pdn.lark`` (do not
edit by hand: run the script after changing the grammar; ``tests/test_terminals.py``
fails while the two disagree).  The splitter and the plain reading take their
patterns from here, so a command that reads plain games never imports lark.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

#: Terminal name -> its regular expression (Python ``re`` source).
PATTERNS: Final[dict[str, str]] = {
    'RESULT': '(?:[012](?:-| - )[012]|1\\/2-1\\/2|0\\.5-0\\.5|½-½)(?:(?![0-9xX:\\-\\/])|(?=0+1\\.))',
    'TAG': '\\[\\s*+(?:[^\\s"“”\\[\\]]++(?:[^\\S\n]++[^\\s"“”\\[\\]]++)*+)?+\\s*+(?:["“”](?:[^"“”\\\\\n]++|\\\\(?=["“”][ \t]*+\\][ \t]*+(?![^\n\\[]))|\\\\.|\n(?![ \t]*\\[)|["“”](?![ \t]*\\]))*+["“”][ \t]*+)?\\]',
    'TAG_RUN': '\\[\\s*+(?:[^\\s"“”\\[\\]]++(?:[^\\S\n]++[^\\s"“”\\[\\]]++)*+)?+\\s*+(?:["“”](?:[^"“”\\\\\n]++|\\\\(?=["“”][ \t]*+\\][ \t]*+(?![^\n\\[]))|\\\\.|\n(?![ \t]*\\[)|["“”](?![ \t]*\\]))*+["“”][ \t]*+)?\\](?:(?:\\s|\\\\[rn])*\\[\\s*+(?:[^\\s"“”\\[\\]]++(?:[^\\S\n]++[^\\s"“”\\[\\]]++)*+)?+\\s*+(?:["“”](?:[^"“”\\\\\n]++|\\\\(?=["“”][ \t]*+\\][ \t]*+(?![^\n\\[]))|\\\\.|\n(?![ \t]*\\[)|["“”](?![ \t]*\\]))*+["“”][ \t]*+)?\\])*',
    'MOVE_RUN': '(?:(?!(?:[012](?:-| - )[012]|1\\/2-1\\/2|0\\.5-0\\.5|½-½)(?:(?![0-9xX:\\-\\/])|(?=0+1\\.)))(?:0?[1-9][0-9]?[ \t]?[-xX:‐-―−][ \t]?0?[1-9][0-9]?(?:[-xX:‐-―−][ \t]?0?[1-9][0-9]?)*|[0-9]{4}(?![0-9.])|[a-hA-H][1-8][-xX:‐-―−]?[a-hA-H][1-8](?:[xX:][a-hA-H][1-8])*)(?:[!?]+|\\([!?]+\\)|\\*|[□⨀])?|(?!(?:[012](?:-| - )[012]|1\\/2-1\\/2|0\\.5-0\\.5|½-½)(?:(?![0-9xX:\\-\\/])|(?=0+1\\.)))[0-9]++\\.(?:\\.\\.?)?|\\{[^}]*+\\}|\\$[0-9]+|\\.\\.\\.|…)(?:(?:(?:\\s|\\\\[rn])++)?(?:(?!(?:[012](?:-| - )[012]|1\\/2-1\\/2|0\\.5-0\\.5|½-½)(?:(?![0-9xX:\\-\\/])|(?=0+1\\.)))(?:0?[1-9][0-9]?[ \t]?[-xX:‐-―−][ \t]?0?[1-9][0-9]?(?:[-xX:‐-―−][ \t]?0?[1-9][0-9]?)*|[0-9]{4}(?![0-9.])|[a-hA-H][1-8][-xX:‐-―−]?[a-hA-H][1-8](?:[xX:][a-hA-H][1-8])*)(?:[!?]+|\\([!?]+\\)|\\*|[□⨀])?|(?!(?:[012](?:-| - )[012]|1\\/2-1\\/2|0\\.5-0\\.5|½-½)(?:(?![0-9xX:\\-\\/])|(?=0+1\\.)))[0-9]++\\.(?:\\.\\.?)?|\\{[^}]*+\\}|\\$[0-9]+|\\.\\.\\.|…))*',
    'MOVE': '(?:0?[1-9][0-9]?[ \t]?[-xX:‐-―−][ \t]?0?[1-9][0-9]?(?:[-xX:‐-―−][ \t]?0?[1-9][0-9]?)*|[0-9]{4}(?![0-9.])|[a-hA-H][1-8][-xX:‐-―−]?[a-hA-H][1-8](?:[xX:][a-hA-H][1-8])*)(?:[!?]+|\\([!?]+\\)|\\*|[□⨀])?',
    'MOVE_NUMBER': '[0-9]++\\.(?:\\.\\.?)?',
    'ELLIPSIS': '\\.\\.\\.|…',
    'COMMENT': '\\{[^}]*+\\}',
    'NAG': '\\$[0-9]+',
}


def pattern(name: str) -> str:
    """The regular expression of terminal *name*, as Python ``re`` source."""
    return PATTERNS[name]


@cache
def terminal(name: str) -> re.Pattern[str]:
    """Terminal *name* of the grammar, compiled."""
    return re.compile(PATTERNS[name])


@cache
def run_items() -> re.Pattern[str]:
    """The items of a MOVE_RUN token: numbers, moves, ellipses, comments, NAGs."""
    names = ("MOVE_NUMBER", "MOVE", "ELLIPSIS", "COMMENT", "NAG")
    return re.compile("|".join(f"(?P<{n}>{PATTERNS[n]})" for n in names))
