"""Result strings: what ``2-0``, ``1/2-1/2``, ``" 0-1"`` or ``"-"`` mean.

pdn-format.md §5.3.  Every result is normalised to an outcome from the first
mover's point of view, and to a colour by the variant's start colour
(:func:`colour_outcome`); the raw string is always kept by the model.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pdn_tools.diagnostics import freeze
from pdn_tools.pdn.gametype import BY_NAME

Outcome = Literal["first-wins", "second-wins", "draw", "both-lost", "unknown"]
Style = Literal["international", "default", "none"]

_STANDARD: dict[str, tuple[Outcome, Style]] = {
    "2-0": ("first-wins", "international"),
    "0-2": ("second-wins", "international"),
    "1-1": ("draw", "international"),
    "1-0": ("first-wins", "default"),
    "0-1": ("second-wins", "default"),
    "1/2-1/2": ("draw", "default"),
    "0-0": ("both-lost", "none"),
    "*": ("unknown", "none"),
}
_SPACED = re.compile(r"^([012])\s*-\s*([012])$")


class ResultReading:
    """The meaning of one result string and whether it was written irregularly."""

    raw: str
    outcome: Outcome
    style: Style
    irregular: str | None

    __slots__ = ("irregular", "outcome", "raw", "style")

    def __init__(
        self,
        raw: str,
        outcome: Outcome,
        style: Style,
        irregular: str | None = None,
    ) -> None:
        self.raw = raw
        self.outcome = outcome
        self.style = style
        self.irregular = irregular

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResultReading) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.raw, self.outcome, self.style, self.irregular) == (
            other.raw,
            other.outcome,
            other.style,
            other.irregular,
        )

    def __hash__(self) -> int:
        return hash((self.raw, self.outcome, self.style, self.irregular))

    def __repr__(self) -> str:
        return (
            f"ResultReading(raw={self.raw!r}, "
            f"outcome={self.outcome!r}, "
            f"style={self.style!r}, "
            f"irregular={self.irregular!r})"
        )

    def __reduce__(self) -> tuple[type[ResultReading], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (ResultReading, (self.raw, self.outcome, self.style, self.irregular))


freeze(ResultReading)


def read_result(raw: str) -> ResultReading:
    """Interpret *raw* (a Result tag value or a terminator)."""
    if raw in _STANDARD:
        outcome, style = _STANDARD[raw]
        return ResultReading(raw, outcome, style)
    text = raw.strip()
    if text in _STANDARD:
        outcome, style = _STANDARD[text]
        return ResultReading(raw, outcome, style, f"result {raw!r} has surrounding spaces")
    if text in ("\u00bd-\u00bd", "0.5-0.5"):
        return ResultReading(raw, "draw", "default", f"result {raw!r} is not a PDN result")
    spaced = _SPACED.match(text)
    if spaced:
        compact = f"{spaced.group(1)}-{spaced.group(2)}"
        if compact in _STANDARD:
            outcome, style = _STANDARD[compact]
            return ResultReading(raw, outcome, style, f"result {raw!r} written with spaces")
    if text.endswith("t") and text[:-1] in _STANDARD:
        outcome, style = _STANDARD[text[:-1]]
        return ResultReading(raw, outcome, style, f"result {raw!r} has a trailing character")
    if text in ("", "-", "?"):
        return ResultReading(raw, "unknown", "none", f"result {raw!r} means unknown")
    return ResultReading(raw, "unknown", "none", f"result {raw!r} is not a PDN result")


Colour = Literal["white", "black", "draw"]

#: The outcome words a result can be named by (``--result white``): the colours
#: :func:`colour_outcome` gives, and ``unknown`` for a result that names no winner.
OUTCOMES = ("white", "black", "draw", "unknown")


def first_mover(variant: str) -> Literal["W", "B"]:
    """The colour that moves first in *variant* (the GameType table's start colour;
    White for a variant the table does not hold)."""
    entry = BY_NAME.get(variant)
    return "B" if entry is not None and entry.full.split(",")[1] == "B" else "W"


def colour_outcome(raw: str | None, variant: str) -> Colour | None:
    """Who won, by colour: *raw* read as a score with the first mover's on the left
    (pdn-format.md §5.3), so ``1-0`` is a win for Black in English draughts.

    None when the result is unknown or unfinished, and for ``0-0`` (lost for both).
    """
    if raw is None:
        return None
    outcome = read_result(raw).outcome
    if outcome == "draw":
        return "draw"
    if outcome not in ("first-wins", "second-wins"):
        return None
    first_is_white = first_mover(variant) == "W"
    return "white" if (outcome == "first-wins") == first_is_white else "black"
