"""The terminal patterns matched without the parser (``pdn_tools/pdn/terminals.py``)
are the grammar's own: the module is written from ``grammar/pdn.lark`` by
``build_support/write_terminals.py`` and must not drift from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pdn_tools.pdn import grammar, terminals

MODULE = Path(terminals.__file__).with_suffix(".py")


def test_the_module_is_what_the_grammar_writes() -> None:
    if not MODULE.is_file():  # pragma: no cover - a wheel without sources
        return
    written = MODULE.read_text(encoding="utf-8")
    assert written == grammar.render_terminals(), (
        "pdn_tools/pdn/terminals.py is out of date with grammar/pdn.lark: "
        "run python build_support/write_terminals.py"
    )


def test_every_pattern_is_the_grammars() -> None:
    assert tuple(terminals.PATTERNS) == grammar.OUTSIDE_PARSER
    for name, source in terminals.PATTERNS.items():
        assert source == grammar.pattern(name), name
        assert terminals.terminal(name).pattern == source


def test_run_items_names_each_item() -> None:
    text = "12. 32-28 {a comment} 19x30 $4 ... 5."
    kinds = [m.lastgroup for m in terminals.run_items().finditer(text)]
    assert kinds == ["MOVE_NUMBER", "MOVE", "COMMENT", "MOVE", "NAG", "ELLIPSIS", "MOVE_NUMBER"]


def test_a_plain_game_is_read_without_lark(tmp_path: Path) -> None:
    """lark (and the saved parser) load only when a game needs the parser."""
    plain = tmp_path / "plain.pdn"
    plain.write_text(
        '[Event "e"]\n[Result "2-0"]\n[GameType "20"]\n1. 32-28 18-23 2. 38-32 12-18 2-0\n',
        encoding="utf-8",
    )
    varied = tmp_path / "varied.pdn"
    varied.write_text('[Event "e"]\n1. 32-28 (1. 33-28) 18-23 *\n', encoding="utf-8")
    probe = (
        "import sys; from pdn_tools import read_games\n"
        "games = list(read_games(sys.argv[1]))\n"
        "print(len(games), 'lark' in sys.modules)\n"
    )
    for path, uses_lark in ((plain, False), (varied, True)):
        done = subprocess.run(
            [sys.executable, "-c", probe, str(path)],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        assert done.stdout.split() == ["1", str(uses_lark)], done.stderr
