"""Wheel build hook: compile the hot modules with mypyc, or fall back to pure Python.

hatchling calls :class:`CompileHook` before it writes a wheel.  For a regular wheel
(``pip install .``, ``python -m build``) the hook copies the package to a temporary
directory, compiles the modules of :data:`COMPILED` there with mypyc and a C
compiler, and adds the extension modules to the wheel beside the ``.py`` files
(Python imports an extension module before a source file of the same name).  The
work tree is never written to, so no compiled file can shadow an edited source.

When compiling fails — no C compiler, a mypyc error, an unsupported interpreter —
the hook prints one warning line and the wheel is the pure-Python one, which works
the same, only slower.  Editable installs (``pip install -e .``) are always pure.

Every regular wheel, compiled or pure, also gets the parser built from the grammar
and saved (``pdn_tools/grammar/pdn.lark.tables``, :func:`pdn_tools.pdn.grammar.write_tables`),
which the installed package loads instead of building it at each start.  Without it
(lark missing from the build environment, say) the package builds the parser itself,
as a source checkout does.

Environment variables:

* ``PDN_TOOLS_PURE=1`` — build the pure-Python wheel without trying to compile;
* ``PDN_TOOLS_REQUIRE_COMPILED=1`` — a failed compile is an error (release wheels).

``pdn --version`` tells which build is installed: ``(compiled)`` or ``(pure Python)``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Modules compiled by mypyc (paths relative to the project root): the rules engine,
#: the replay with the game's identity and summary, the reader with its game-tree
#: model, tags, results, GameType and dialects, what validate makes of each game (its
#: report record and event facts, its findings and its report), the event index that
#: gathers a run's games and the event checks over them.
#: ``pdn_tools/pdn/ownership.py`` must stay Python: its class subclasses the compiled
#: ``Game`` to be weakly referenced.
COMPILED: tuple[str, ...] = (
    "pdn_tools/rules/bits.py",
    "pdn_tools/rules/board.py",
    "pdn_tools/rules/fen.py",
    "pdn_tools/rules/generators.py",
    "pdn_tools/rules/geometry.py",
    "pdn_tools/rules/move.py",
    "pdn_tools/rules/movegen.py",
    "pdn_tools/rules/movetables.py",
    "pdn_tools/rules/notation.py",
    "pdn_tools/rules/perft.py",
    "pdn_tools/rules/position.py",
    "pdn_tools/rules/raygen.py",
    "pdn_tools/rules/rayrules.py",
    "pdn_tools/rules/variant.py",
    "pdn_tools/search/evaluate.py",
    "pdn_tools/search/searcher.py",
    "pdn_tools/replay/diagnose.py",
    "pdn_tools/replay/draws.py",
    "pdn_tools/replay/identity.py",
    "pdn_tools/replay/misrecord.py",
    "pdn_tools/replay/options.py",
    "pdn_tools/replay/positions.py",
    "pdn_tools/replay/replay.py",
    "pdn_tools/replay/resolve.py",
    "pdn_tools/replay/slips.py",
    "pdn_tools/replay/summary.py",
    "pdn_tools/replay/validate.py",
    "pdn_tools/pdn/build.py",
    "pdn_tools/pdn/dialects.py",
    "pdn_tools/pdn/gametype.py",
    "pdn_tools/pdn/grammar.py",
    "pdn_tools/pdn/model.py",
    "pdn_tools/pdn/reader.py",
    "pdn_tools/pdn/records.py",
    "pdn_tools/pdn/results.py",
    "pdn_tools/pdn/source.py",
    "pdn_tools/pdn/split.py",
    "pdn_tools/pdn/tags.py",
    "pdn_tools/report/records.py",
    "pdn_tools/collection/events/facts.py",
    "pdn_tools/collection/events/checks.py",
    "pdn_tools/collection/events/event.py",
    "pdn_tools/collection/events/roster.py",
    "pdn_tools/collection/events/rounds.py",
    "pdn_tools/collection/events/standings.py",
    "pdn_tools/collection/events/index.py",
    "pdn_tools/run/events.py",
    "pdn_tools/report/base.py",
    "pdn_tools/diagnostics.py",
)

#: The shared library that holds the compiled code: ``pdn_tools__mypyc`` beside the
#: package (mypyc derives each module's ``__file__`` from where this library lies).
GROUP = "pdn_tools"

_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

modules = sys.argv[1:]
setup(
    name="pdn-tools-compiled",
    ext_modules=mypycify(["--config-file", "mypy.toml", *modules], group_name={group!r}),
    script_args=["build_ext", "--inplace"],
)
"""


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes")


class CompileHook(BuildHookInterface):
    """Adds the mypyc-compiled extension modules to a regular wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._tables = Path(tempfile.mkdtemp(prefix="pdn-tools-tables-"))
        self._add_tables(self._tables, build_data)
        if _flag("PDN_TOOLS_PURE"):
            return
        work = Path(tempfile.mkdtemp(prefix="pdn-tools-mypyc-"))
        self._work = work
        try:
            built = self._compile(work)
        except Exception as exc:  # any failure means the pure wheel
            shutil.rmtree(work, ignore_errors=True)
            if _flag("PDN_TOOLS_REQUIRE_COMPILED"):
                raise RuntimeError(f"pdn-tools: compiling failed: {exc}") from exc
            print(
                f"WARNING: pdn-tools: compiling failed ({exc}); "
                "building the pure-Python wheel (same results, slower)",
                file=sys.stderr,
                flush=True,
            )
            return
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(work).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        for attribute in ("_work", "_tables"):
            work = getattr(self, attribute, None)
            if work is not None:
                shutil.rmtree(work, ignore_errors=True)

    def _add_tables(self, work: Path, build_data: dict[str, Any]) -> None:
        """Save the parser built from the grammar into the wheel (see the module's
        docstring); on failure, one warning line and a wheel without it."""
        root = Path(self.root)
        try:
            # The grammar module alone (it imports nothing else of the package).
            spec = importlib.util.spec_from_file_location(
                "_pdn_tools_grammar", root / "pdn_tools" / "pdn" / "grammar.py"
            )
            if spec is None or spec.loader is None:
                raise RuntimeError("pdn_tools/pdn/grammar.py cannot be loaded")
            grammar = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(grammar)
            tables = work / "pdn.lark.tables"
            with tables.open("wb") as handle:
                grammar.write_tables((root / "grammar" / "pdn.lark").read_text("utf-8"), handle)
        except Exception as exc:
            print(
                f"WARNING: pdn-tools: the parser could not be saved ({exc}); "
                "the package will build it at each start (same results, slower start)",
                file=sys.stderr,
                flush=True,
            )
            return
        build_data["force_include"][str(tables)] = "pdn_tools/grammar/pdn.lark.tables"

    def _compile(self, work: Path) -> list[Path]:
        """Compile :data:`COMPILED` in *work*; the extension modules made there."""
        root = Path(self.root)
        shutil.copytree(
            root / "pdn_tools", work / "pdn_tools", ignore=shutil.ignore_patterns("__pycache__")
        )
        # mypy reads its settings from here; setuptools must not see a pyproject.toml.
        shutil.copy(root / "pyproject.toml", work / "mypy.toml")
        done = subprocess.run(
            [sys.executable, "-c", _SETUP.format(group=GROUP), *COMPILED],
            cwd=work,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            lines = (done.stdout + done.stderr).strip().splitlines()
            errors = [line for line in lines if "error" in line.lower()]
            raise RuntimeError((errors or lines or ["no output"])[-1].strip())
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        built = sorted([*work.glob(f"*{suffix}"), *(work / "pdn_tools").rglob(f"*{suffix}")])
        if len(built) != len(COMPILED) + 1:  # one per module and the shared library
            wanted = len(COMPILED) + 1
            raise RuntimeError(f"mypyc made {len(built)} extension modules, not {wanted}")
        return built
