"""Reading the HTML report back: its data, scripts and policy; inputs with many findings."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

#: A game whose sixth ply writes a square with a leading zero (W11, once per game).
LEADING_ZERO_GAME = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 31-27 09-14 *\n\n'


def many_findings(path: Path, games: int) -> Path:
    """A file of *games* games with one warning each (W11 at ply 6)."""
    path.write_text(LEADING_ZERO_GAME * games, encoding="utf-8")
    return path


class Page(HTMLParser):
    """The elements of a report page that the tests look at."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.styles: list[str] = []
        self._open: tuple[str, dict[str, str | None]] | None = None
        self._text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.elements.append((tag, found))
        if tag in ("script", "style"):
            self._open = (tag, found)
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open is not None and tag == self._open[0]:
            text = "".join(self._text)
            if tag == "script":
                self.scripts.append((self._open[1], text))
            else:
                self.styles.append(text)
            self._open = None

    def data(self) -> dict[str, Any]:
        """The page data (the JSON of ``#pdn-data``)."""
        for attrs, text in self.scripts:
            if attrs.get("id") == "pdn-data":
                data: dict[str, Any] = json.loads(text)
                return data
        raise AssertionError("no page data")

    def games(self) -> list[dict[str, Any]]:
        """Every game of the page, from its blocks (``script.pdn-chunk``), checking
        that each block starts where the one before ended."""
        out: list[dict[str, Any]] = []
        for attrs, text in self.scripts:
            if attrs.get("class") == "pdn-chunk":
                assert int(attrs.get("data-first") or -1) == len(out)
                out.extend(json.loads(text))
        return out

    def findings(self) -> list[tuple[list[Any], dict[str, Any] | None]]:
        """Every listed finding as (finding, its game or None), in the page's data
        order (the page lists them errors first: :func:`in_list_order`)."""
        games = self.games()
        return [(f, games[f[GAME]] if f[GAME] >= 0 else None) for f in self.data()["findings"]]

    def policy(self) -> str:
        """The Content-Security-Policy of the page."""
        for tag, attrs in self.elements:
            if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy":
                return attrs.get("content") or ""
        raise AssertionError("no Content-Security-Policy")


#: Fields of a finding in the page data (pdn_tools/report/html.py, ``_finding``).
FILE, GAME, NUMBER, CODE, SEVERITY, MESSAGE, LINE, COLUMN, PLY, VARIATION, BOARD, CONTEXT = range(
    12
)
HABIT = 12


def board_of(finding: list[Any], game: dict[str, Any] | None) -> list[Any] | None:
    """The board of a finding (None when it has none)."""
    index = finding[BOARD]
    return None if index is None or game is None else game["b"][index]


def in_list_order(found: list[tuple[list[Any], Any]]) -> list[tuple[list[Any], Any]]:
    """The findings in the order the page lists them: errors, warnings, info, each in
    data order."""
    rank = {"error": 0, "warning": 1, "info": 2}
    return sorted(found, key=lambda pair: rank[pair[0][SEVERITY]])


def digest(text: str) -> str:
    """The CSP source expression of an inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def page(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


def codes(html: Page) -> list[str]:
    """The codes of the listed findings, in data order."""
    return [f[CODE] for f in html.data()["findings"]]


def words(text: str) -> str:
    """*text* with its whitespace runs made single spaces."""
    return re.sub(r"\s+", " ", text).strip()


def house_style(games: int, errors: tuple[int, ...] = ()) -> str:
    """*games* games whose writer puts 'x' in the quiet moves of plies 1 and 2 (W12
    twice a game); the games numbered in *errors* end with an illegal move (E05)."""
    out = []
    for n in range(1, games + 1):
        bad = " 3. 28-22" if n in errors else ""
        out.append(f'[Event "Club {n}"]\n[GameType "20"]\n1. 32x28 18x22 2. 37-32 12-18{bad} *\n')
    return "\n".join(out)
