"""What ``pdn`` imports to start: a command imports what it needs and nothing more.

Start-up time is spent importing, so these tests pin the modules a run imports (in a
fresh interpreter, as a user's shell starts it) rather than a time: ``pdn validate``
of one plain game needs no Arrow, no Dask, no JSON Schema validator, no worker pool,
no ``.gitignore`` matcher (no folder is walked), no TOML reader (no configuration
file) and none of the other commands; ``pdn --help`` lists every command without
importing any of them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from cli_helpers import all_commands

from pdn_tools.cli import COMMANDS, SHORT_HELP

#: Runs ``pdn ARGS`` as ``python -m pdn_tools`` does and prints, as JSON, the modules
#: imported by the end of the run (the exit status is the command's).
_PROBE = """
import atexit, json, runpy, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules))))
sys.argv = ["pdn", *sys.argv[1:]]
runpy.run_module("pdn_tools", run_name="__main__")
"""

#: Top-level modules that ``pdn validate FILE`` of a plain game must not import.
NOT_FOR_VALIDATE = (
    "pyarrow",  # the Parquet writers (pdn convert)
    "dask",  # --dask only
    "distributed",
    "fsspec",  # URLs only
    "jsonschema",
    "pathspec",  # .gitignore matching: only when a folder is walked
    "multiprocessing",  # worker processes: not for one small file
    "concurrent",
    "tomllib",  # no configuration file here
    "cairosvg",
    "PIL",
    "lark",  # the parser: only for a game the plain reading does not take
    "lark_cython",
)

#: Standard-library modules that ``pdn validate`` of a plain (uncompressed) file does
#: not import itself (the interpreter's own start may, through ``site``): the
#: decompressors and the zip reader, the HTML module (entities in names, SVG), and the
#: decimal numbers of ``[%eval]`` comments.
NOT_FOR_PLAIN_FILES = ("bz2", "gzip", "lzma", "zipfile", "html", "decimal")
#: Modules of the package that ``pdn validate`` of one game does not need.
NOT_FOR_VALIDATE_OURS = (
    "pdn_tools.run.cluster",
    "pdn_tools.run.cluster_convert",
    "pdn_tools.export",
    "pdn_tools.report.html",
    "pdn_tools.report.sarif",
    "pdn_tools.report.junit",
    "pdn_tools.report.detail",  # the boards of the HTML report (--detail)
    "pdn_tools.report.svg",
    "pdn_tools.collection.filters",  # only when a filter option is given
    "pdn_tools.collection.duplicates",  # only when copies are told (--moves-only, …)
)


def run_python(script: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -c SCRIPT ARGS`` in a fresh interpreter, the work tree kept off
    ``sys.path`` (as an installed ``pdn`` runs), its output captured as text."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONSAFEPATH": "1"},
        timeout=120,
        check=False,
    )


def imported(*args: str, cwd: Path) -> tuple[int, set[str], str]:
    """Exit status, modules imported and standard error of ``pdn ARGS`` in a fresh
    interpreter (the work tree kept off ``sys.path``, as an installed ``pdn`` runs)."""
    done = run_python(_PROBE, *args, cwd=cwd)
    last = done.stdout.strip().splitlines()[-1]
    return done.returncode, set(json.loads(last)), done.stderr


def _found(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_validate_of_one_plain_game_imports_only_what_it_needs(tmp_path: Path) -> None:
    game = tmp_path / "one.pdn"
    game.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n', encoding="utf-8")
    status, modules, err = imported("validate", str(game), "--quiet", cwd=tmp_path)
    assert status == 0, err
    # The run did validate (the reader, the rules engine and the text report ran) ...
    for needed in ("pdn_tools.pdn.reader", "pdn_tools.replay.replay", "pdn_tools.report.text"):
        assert needed in modules
    # ... without what other commands, other options or other inputs need.
    assert _found(modules, NOT_FOR_VALIDATE) == []
    assert _found(modules, NOT_FOR_VALIDATE_OURS) == []
    others = {module for name, (module, _) in COMMANDS.items() if name != "validate"}
    assert sorted(others & modules) == []


def test_a_plain_file_imports_no_decompressor(tmp_path: Path) -> None:
    """The compression and zip modules are imported when an input needs them (and the
    HTML module when a name holds an entity or a board is drawn), not to start."""
    game = tmp_path / "one.pdn"
    game.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n', encoding="utf-8")
    status, modules, err = imported("validate", str(game), "--quiet", cwd=tmp_path)
    assert status == 0, err
    status, at_start, err = imported("--version", cwd=tmp_path)
    assert status == 0, err
    assert sorted(set(NOT_FOR_PLAIN_FILES) & (modules - at_start)) == []
    # The other side: a gzip file imports its decompressor.
    import gzip

    packed = tmp_path / "one.pdn.gz"
    packed.write_bytes(gzip.compress(b"1. 32-28 19-23 *\n"))
    status, modules, err = imported("validate", str(packed), "--quiet", cwd=tmp_path)
    assert status == 0, err
    assert "gzip" in modules


#: Prints, at the very end of a ``pdn`` run, how many objects the collector holds
#: frozen (``gc.freeze``); the first argument says how ``pdn`` is entered.
_FREEZE_PROBE = """
import atexit, gc, sys
atexit.register(lambda: print("frozen", gc.get_freeze_count()))
how, *args = sys.argv[1:]
from pdn_tools.cli import main
if how == "command-line":
    sys.argv = ["pdn", *args]
    main()
else:  # a caller handing the arguments over, as click's test runner does
    from click.testing import CliRunner
    result = CliRunner().invoke(main, args)
    sys.exit(result.exit_code)
"""


@pytest.mark.parametrize("how", ["command-line", "given-arguments"])
def test_the_objects_of_the_start_are_left_to_the_exit(tmp_path: Path, how: str) -> None:
    """A run from the process's own command line freezes what exists when it ends, so
    that Python's shutdown does not walk every object the imports made; a caller that
    passes its arguments (and goes on running) keeps its collector as it was."""
    game = tmp_path / "one.pdn"
    game.write_text('[GameType "20"]\n1. 32-28 19-23 *\n', encoding="utf-8")
    done = run_python(_FREEZE_PROBE, how, "validate", str(game), "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    frozen = int(done.stdout.split("frozen")[-1])
    if how == "command-line":
        assert frozen > 10_000  # the modules, classes and functions of the start
    else:
        assert frozen == 0


def test_a_folder_and_a_configuration_file_import_their_readers(tmp_path: Path) -> None:
    """The other side of the test above: what is left out is imported when needed."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "one.pdn").write_text("1. 32-28 19-23 *\n", encoding="utf-8")
    (tmp_path / "pdn.toml").write_text('variant = "international"\n', encoding="utf-8")
    status, modules, err = imported("validate", "games", "--quiet", cwd=tmp_path)
    assert status == 0, err
    assert "pathspec" in modules and "tomllib" in modules


def test_help_lists_every_command_without_importing_one(tmp_path: Path) -> None:
    status, modules, err = imported("--help", cwd=tmp_path)
    assert status == 0, err
    loaded = sorted({module for module, _ in COMMANDS.values()} & modules)
    assert loaded == []


def test_the_one_line_helps_are_the_commands_own() -> None:
    """:data:`pdn_tools.cli.SHORT_HELP` (what ``pdn --help`` shows without importing
    the commands) says what each command's own help says."""
    commands = all_commands()
    assert set(SHORT_HELP) == set(COMMANDS) == set(commands)
    for name, command in commands.items():
        assert SHORT_HELP[name] == command.get_short_help_str(limit=1000), name


@pytest.mark.parametrize("width", [50, 80, 200])
def test_help_reads_as_when_every_command_is_imported(width: int) -> None:
    """The list of ``pdn --help`` is the one click would make from the commands."""
    from pdn_tools.cli import main

    commands = all_commands()
    fresh = type(main)(name="pdn")  # no command imported yet: the list is SHORT_HELP's
    with click.Context(fresh, terminal_width=width, max_content_width=width) as ctx:
        formatter = ctx.make_formatter()
        fresh.format_commands(ctx, formatter)
        assert fresh.commands == {}
        ours = formatter.getvalue()
        formatter = ctx.make_formatter()
        click.Group(commands=commands).format_commands(ctx, formatter)
        theirs = formatter.getvalue()
    assert ours == theirs
    assert all(name in ours for name in COMMANDS)


#: Starts ``pdn`` with Ctrl-C landing while a module it imports makes a class: Python
#: then reports the KeyboardInterrupt as the RuntimeError it caused (``Error calling
#: __set_name__``).  The interrupt is raised by a real ``__set_name__`` in a module
#: put in front of click's.
_INTERRUPTED_START = """
import runpy, sys

class Interrupting:
    def __set_name__(self, owner, name):
        raise KeyboardInterrupt

class Finder:
    def find_spec(self, name, path=None, target=None):
        if name == "click":
            sys.meta_path.remove(self)
            class Made:  # noqa: F841
                attribute = Interrupting()
        return None

sys.meta_path.insert(0, Finder())
sys.argv = ["pdn", "validate", "x.pdn"]
runpy.run_module("pdn_tools", run_name="__main__")
"""


@pytest.mark.parametrize("entry", ["pdn_tools.cli", "pdn_tools"])
def test_ctrl_c_while_a_class_is_made_at_start_is_one_line(tmp_path: Path, entry: str) -> None:
    script = _INTERRUPTED_START
    if entry == "pdn_tools.cli":  # the console script's way in: pdn_tools.cli.main
        script = script.replace(
            'runpy.run_module("pdn_tools", run_name="__main__")',
            "from pdn_tools.cli import main\nmain()",
        )
    done = run_python(script, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (130, "pdn: interrupted\n")
