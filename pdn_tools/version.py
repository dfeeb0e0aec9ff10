"""The package version, in one place (``pyproject.toml`` reads it from here), and which
build of the package is running."""

from __future__ import annotations

__version__ = "0.1.0"


def build() -> str:
    """``compiled`` when the engine, the replay and the reader run as the extension
    modules of the compiled wheel, ``pure Python`` otherwise.

    The compiled wheel installs each compiled module beside its source, and Python
    imports an extension module before a source file of the same name, so the build
    is told by looking for one (the move generator's) without importing anything.
    """
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    rules = Path(__file__).resolve().parent / "rules"
    if any((rules / f"movegen{suffix}").is_file() for suffix in EXTENSION_SUFFIXES):
        return "compiled"
    return "pure Python"


def version_line() -> str:
    """What ``pdn --version`` prints: ``pdn-tools 0.1.0 (compiled)``."""
    return f"pdn-tools {__version__} ({build()})"
