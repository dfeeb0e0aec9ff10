"""Round numbers: what a Round tag value says about where a game was played.

Read (docs/collections.md, Events): a number (``3``, ``003``), a number with a
second one after a dot or a dash (``3.1``, ``3.2``, ``1-1``: a board, or a game of a
sub-round; which of the two is decided per event by
:func:`pdn_tools.collection.events.checks`), and the words of the archives around
a number (``round 3``, ``Rd. 3``, ``ronde2``, ``Runde 4``, ``3e ronde``, ``1° turno``,
``tour 5``, ``тур 3``).  ``?``, ``-``, an empty value, ``0``, and anything else
(``Enter Round Number``, ``A43``) are an unknown round.
"""

from __future__ import annotations

import re

_WORDS = r"(?:ronde|round|runde|rodada|ronda|raund|turno|tour|kolo|тур|rd|r)"
_NUMBER = re.compile(r"0*(\d{1,4})(?:\s*[.\-/]\s*0*(\d{1,4}))?(?:\.\d+)*\.?")
_FORMS = (
    re.compile(rf"{_WORDS}\.?\s*(?P<n>.+)", re.IGNORECASE),
    re.compile(rf"(?P<n>\d{{1,4}})\s*(?:e|de|ème|eme|st|nd|rd|th|°|º|-?я|-?й)?\.?\s*{_WORDS}\.?",
               re.IGNORECASE),
)  # fmt: skip


def parse_round(text: str | None) -> tuple[int, int] | None:
    """(round, second number) of a Round value, the second 0 when none was written;
    None when the round is unknown."""
    if text is None:
        return None
    value = " ".join(text.split())
    found = _NUMBER.fullmatch(value)
    if found is None:
        for form in _FORMS:
            match = form.fullmatch(value)
            if match is not None:
                found = _NUMBER.fullmatch(match.group("n").strip())
                if found is not None:
                    break
    if found is None:
        return None
    number = int(found.group(1))
    if number == 0:
        return None
    sub = int(found.group(2)) if found.group(2) else 0
    return number, sub


def round_text(number: int, sub: int = 0) -> str:
    """A round as reports write it: ``3``, ``3.2``."""
    return f"{number}.{sub}" if sub else str(number)


__all__ = ["parse_round", "round_text"]
