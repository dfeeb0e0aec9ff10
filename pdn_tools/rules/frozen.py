"""Immutability of the engine's written-out frozen classes, in both builds.

Several record classes were frozen dataclasses and are now written out as plain
classes (``dataclasses`` writes each class's methods as source text and compiles it
at import, which was two fifths of the start-up).  Their fields are not ``Final``:
mypyc 2.4.1 lends out a ``Final`` field without a reference of its own where a
function returns it inside a tuple, which frees it while in use.  :func:`freeze`
refuses an assignment or a deletion from Python code instead, as a frozen dataclass
did.  The rules engine imports nothing of pdn-tools outside itself, so it has its own
copy of :func:`pdn_tools.diagnostics.freeze`, for its classes (and for the replay's
hot records, which need its ``stores_arguments``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partialmethod, update_wrapper
from typing import Any, TypeVar

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


def freeze(cls: type[T], *, stores_arguments: bool = False) -> type[T]:
    """Make the fields of *cls* settable once (by its constructor) and never deleted.
    A compiled constructor writes them natively, past the guard.

    A Python constructor goes through the guard once per field, which costs far more
    than the store itself (a pure build made validate twice as slow when positions
    were guarded so).  For a class built once per ply, ``stores_arguments=True``
    replaces a Python ``__init__`` that does nothing but store each of its arguments
    in the slot of the same name by one that stores them through the slots
    themselves, past the guard.  A compiled ``__init__`` is left as it is.
    """
    setattr(cls, "__setattr__", partialmethod(_set_once))  # noqa: B010 (mypy refuses a method assignment)
    setattr(cls, "__delattr__", partialmethod(_refuse_delete))  # noqa: B010
    if stores_arguments:
        _store_past_the_guard(cls)
    return cls


def _store_past_the_guard(cls: type[Any]) -> None:
    """Give *cls*, when it is pure Python, a constructor that writes its slots directly."""
    init = cls.__dict__["__init__"]
    code = getattr(init, "__code__", None)
    if code is None:
        return  # compiled: the native constructor already writes past the guard
    names: tuple[str, ...] = code.co_varnames[1 : code.co_argcount]
    if code.co_kwonlyargcount or sorted(names) != sorted(cls.__slots__):
        raise TypeError(f"{cls.__name__}.__init__ does not only store its arguments")
    setters: tuple[Callable[[object, object], None], ...] = tuple(
        cls.__dict__[name].__set__ for name in names
    )
    count = len(names)
    signature = inspect.signature(init)

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        if kwargs or len(args) != count:
            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()
            args = tuple(bound.arguments.values())[1:]
        for setter, value in zip(setters, args, strict=True):
            setter(self, value)

    update_wrapper(__init__, init)
    setattr(cls, "__init__", __init__)  # noqa: B010
