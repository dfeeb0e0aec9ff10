"""Immutability of the engine's written-out frozen classes, in both builds.

Several record classes were frozen dataclasses and are now written out as plain
classes (``dataclasses`` writes each class's methods as source text and compiles it
at import, which was two fifths of the start-up).  Their fields are not ``Final``:
mypyc 2.4.1 lends out a ``Final`` field without a reference of its own where a
function returns it inside a tuple, which frees it while in use.  :func:`freeze`
refuses an assignment or a deletion from Python code instead, as a frozen dataclass
did.  The rules engine imports nothing of pdn-tools outside itself, so it has its own
copy of :func:`pdn_tools.diagnostics.freeze`, for its classes.
"""

from __future__ import annotations

from functools import partialmethod
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
    """Make the fields of *cls* settable once (by its constructor) and never deleted.
    A compiled constructor writes them natively, past the guard."""
    setattr(cls, "__setattr__", partialmethod(_set_once))  # noqa: B010 (mypy refuses a method assignment)
    setattr(cls, "__delattr__", partialmethod(_refuse_delete))  # noqa: B010
    return cls
