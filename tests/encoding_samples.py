"""PDN records written with real names in the legacy code pages, for encoding tests.

The names are ours (``corpus/names/*.txt``: common surnames, given names and places
of each language); a sample is a few games whose White and Black are drawn from them,
encoded in one code page.
"""

from __future__ import annotations

import random
from pathlib import Path

from conftest import SAMPLES

NAMES = SAMPLES / "names"

#: The languages whose names each code page is used for.
CODE_PAGES: dict[str, tuple[str, ...]] = {
    "cp1252": ("western",),
    "cp1250": ("polish", "czech"),
    "iso-8859-2": ("polish", "czech"),
    "cp1251": ("russian", "ukrainian"),
    "koi8-r": ("russian",),
    "koi8-u": ("ukrainian", "russian"),
    "cp866": ("russian",),
}


def names(language: str) -> list[str]:
    """The names of *language* (one per line, comments skipped)."""
    path: Path = NAMES / f"{language}.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def names_for(codepage: str) -> list[str]:
    """The names a file in *codepage* may hold (those the code page can write)."""
    out = []
    for language in CODE_PAGES[codepage]:
        for name in names(language):
            try:
                name.encode(codepage)
            except UnicodeEncodeError:
                continue
            out.append(name)
    return out


def record(white: str, black: str, number: int = 1) -> str:
    """One short game between *white* and *black*."""
    return (
        f'[Event "Toernooi {number}"]\n[White "{white}"]\n[Black "{black}"]\n'
        '[GameType "20"]\n[Result "2-0"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n'
    )


def sample(codepage: str, games: int, seed: int) -> tuple[str, list[str]]:
    """The text of *games* games with names of *codepage*'s languages, and the names
    in order (White, Black, White, …)."""
    rng = random.Random(seed)
    pool = [n for n in names_for(codepage) if not n.isascii()]
    chosen = [rng.choice(pool) for _ in range(2 * games)]
    text = "".join(record(chosen[2 * i], chosen[2 * i + 1], i + 1) for i in range(games))
    return text, chosen
