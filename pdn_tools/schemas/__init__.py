"""The published JSON Schemas (draft 2020-12) of the JSON pdn-tools writes.

``game``: the game object of ``pdn convert --to json|jsonl`` (docs/export.md).
``report``: one record of ``pdn validate --format jsonl`` (and each of the
``games`` of ``--format json``).  ``event``: one finding about an event (the lines
after the games' records of ``--format jsonl``, the ``events`` of ``--format json``).
All are built from one file of definitions, ``definitions.json`` (shipped in the
package), in which the keys the game object and the record share are defined once
(``game_head``, ``issue``, ``draw``); :func:`schema` returns one self-contained
schema: those definitions and a root ``$ref``.

Layer 0: plain data, read with the standard library only.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

DIALECT = "https://json-schema.org/draft/2020-12/schema"
NAMES = ("game", "report", "event")
"""The schemas by name (``pdn schema NAME``)."""


@cache
def _definitions() -> dict[str, Any]:
    text = resources.files(__name__).joinpath("definitions.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema called *name* (one of :data:`NAMES`), self-contained.

    A fresh dictionary on every call: callers may change it.
    """
    if name not in NAMES:
        raise KeyError(f"no schema called {name!r}; choose from {', '.join(NAMES)}")
    definitions = json.loads(json.dumps(_definitions()["$defs"]))
    return {
        "$schema": DIALECT,
        "$id": f"urn:pdn-tools:schema:{name}",
        "title": definitions[name]["title"],
        "$ref": f"#/$defs/{name}",
        "$defs": definitions,
    }
