"""Immutability of the written-out frozen classes in the pure-Python build.

Several record classes were frozen dataclasses and are now written out as plain
classes (``dataclasses`` writes each class's methods as source text and compiles it
at import, which was two fifths of the start-up).  Their fields are ``Final``: mypy
refuses an assignment, and compiled by mypyc a ``Final`` field has no setter, so
assigning or deleting one raises :class:`AttributeError`.  A plain Python class has
no such guard; :func:`freeze` gives it one, so that the pure build refuses what the
compiled one refuses.  The rules engine imports nothing of pdn-tools outside itself,
so it has its own copy of :func:`pdn_tools.diagnostics.freeze`, for its classes.
"""

from __future__ import annotations

from types import FunctionType
from typing import TypeVar

T = TypeVar("T")


def _set_once(self: object, name: str, value: object) -> None:
    # A field may be set while it has no value (the constructor), never again.
    try:
        object.__getattribute__(self, name)
    except AttributeError:
        object.__setattr__(self, name, value)
        return
    raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _refuse_delete(self: object, name: str) -> None:
    raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def freeze(cls: type[T]) -> type[T]:
    """Make the fields of *cls* settable once (by its constructor) and never deleted,
    when *cls* is a Python class; a compiled class (its ``__init__`` native code) is
    returned unchanged, its ``Final`` fields being read-only already."""
    if isinstance(cls.__dict__.get("__init__"), FunctionType):
        setattr(cls, "__setattr__", _set_once)  # noqa: B010 (mypy refuses a method assignment)
        setattr(cls, "__delattr__", _refuse_delete)  # noqa: B010
    return cls
