"""The package's layers, as docs/architecture.md names them: imports run down, no circle.

The layer table is read from docs/architecture.md itself, so the map and the code
cannot drift apart.  Imports are found with ``ast`` in every module (function-level
ones included); an import under ``if TYPE_CHECKING:`` names a type only and is left
out of the run-time graph, but must still point down.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "pdn_tools"
ARCHITECTURE = REPO / "docs" / "architecture.md"


def _layers() -> dict[str, int]:
    """Package prefix -> layer number, from the table of docs/architecture.md."""
    layers: dict[str, int] = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*(\d+)\s*\|([^|]+)\|", line)
        if match:
            for name in re.findall(r"`([\w.]+)`", match.group(2)):
                layers[name] = int(match.group(1))
    return layers


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(imported pdn_tools module, typing only) for every import in *path*."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for inner in node.body:
                typing_only.update(id(n) for n in ast.walk(inner))
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            # ``from pdn_tools import export`` imports the submodule.
            names += [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if name.split(".")[0] == "pdn_tools":
                found.append((name, id(node) in typing_only))
    return found


def _known(name: str, modules: set[str]) -> str | None:
    """The module *name* refers to (a submodule name, else the nearest package)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _covers(prefix: str, module: str) -> bool:
    """Whether the layer entry *prefix* holds *module* (the package root only itself)."""
    return module == prefix or ("." in prefix and module.startswith(prefix + "."))


def _layer_of(module: str, layers: dict[str, int]) -> tuple[int, str]:
    best = max((p for p in layers if _covers(p, module)), key=len)
    return layers[best], best


def _graph() -> tuple[dict[str, list[tuple[str, bool]]], set[str]]:
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(f) for f in files}
    graph: dict[str, list[tuple[str, bool]]] = {}
    for path in files:
        source = _module_name(path)
        edges = []
        for name, typing in _imports(path):
            target = _known(name, modules)
            if target is not None and target != source:
                edges.append((target, typing))
        graph[source] = edges
    return graph, modules


def test_the_architecture_names_every_module() -> None:
    layers = _layers()
    assert layers, "docs/architecture.md has no layer table"
    _, modules = _graph()
    for module in modules:
        assert any(_covers(p, module) for p in layers), module
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if path.name != "__init__.py":
            assert f"`{relative}`" in text, f"docs/architecture.md does not map {relative}"


def test_imports_only_run_down_the_layers() -> None:
    layers = _layers()
    graph, _ = _graph()
    wrong = []
    for source, edges in graph.items():
        level, home = _layer_of(source, layers)
        for target, _typing in edges:
            their, package = _layer_of(target, layers)
            if their > level or (their == level and package != home):
                wrong.append(f"{source} -> {target} (layer {level} -> {their})")
    assert wrong == []


def test_the_two_walls() -> None:
    graph, _ = _graph()
    for source, edges in graph.items():
        for target, typing in edges:
            if source.startswith("pdn_tools.rules"):
                assert target.startswith("pdn_tools.rules"), f"the engine imports {target}"
            if source.startswith("pdn_tools.search"):
                assert target.startswith(("pdn_tools.search", "pdn_tools.rules")), (
                    f"the searcher imports {target}"
                )
            if source.startswith("pdn_tools.pdn") and target.startswith("pdn_tools.rules"):
                assert typing, f"the format layer imports the engine: {source} -> {target}"


def test_no_import_circle() -> None:
    graph, _ = _graph()
    runtime = {s: [t for t, typing in edges if not typing] for s, edges in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in runtime.get(node, []):
            if state.get(target) == 1:
                circle = [*stack[stack.index(target) :], target]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for module in sorted(runtime):
        if module not in state:
            visit(module)
