"""Write ``pdn_tools/pdn/terminals.py``: the grammar's terminal patterns as data.

The splitter and the plain reading match a few of the grammar's terminals with
Python's ``re``; taking them from lark at run time costs every command the import of
lark and the loading of the parser.  So they are copied out of the loaded grammar
into a module of their own by this script, run after any change to
``grammar/pdn.lark``.  ``tests/test_terminals.py`` fails while the module and the
grammar disagree, so the grammar stays the one definition of PDN's tokens.

Usage: ``python build_support/write_terminals.py`` (from the repository's root).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdn_tools.pdn.grammar import render_terminals  # noqa: E402


def main() -> None:
    """Rewrite the module from the grammar of this checkout."""
    target = ROOT / "pdn_tools" / "pdn" / "terminals.py"
    target.write_text(render_terminals(), encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
