"""Tag names and values: escapes, irregular names, localised aliases, dates.

pdn-format.md §5.  The model keeps every tag as written (names with entities
decoded); this module says what a name means and what is irregular about it.
"""

from __future__ import annotations

import html
import re

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

#: Localised or foreign tag names and the standard tag they stand for (§5.5).
ALIASES: dict[str, str] = {
    "bianco": "White",
    "nero": "Black",
    "risultato": "Result",
    "esito": "Result",
    "dati": "Event",
    "turno": "Round",
    "localita": "Site",
    "blanc": "White",
    "noir": "Black",
    "résultat": "Result",
    "resultat": "Result",
    "événement": "Event",
    "evenement": "Event",
    "type de jeu": "GameType",
    "manche": "Round",
    "heure blanche": "WhiteTime",
    "heure noire": "BlackTime",
    "titre blanc": "WhiteTitle",
    "titre noir": "BlackTitle",
    "setup": "SetUp",
}

_STRICT_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")
_TAG = re.compile(r'\[\s*([^"\[\]]*?)\s*(?:"(.*)"\s*)?\]\s*\Z', re.S)
_ESCAPE = re.compile(r"\\([\\\"])")
_DATE = re.compile(r"(\?\?\?\?|\d{4})\.(\?\?|\d{2})\.(\?\?|\d{2})")


def split_tag(token: str) -> tuple[str, str | None]:
    """Split a whole tag token ``[Name "value"]`` into its raw name and raw value."""
    if not token.startswith("["):
        token = "[" + token.lstrip()
    match = _TAG.match(token)
    if match is None:  # cannot happen for tokens of the grammar's TAG terminal
        return token.strip("[] \t"), None
    return match.group(1), match.group(2)


def unescape(value: str) -> str:
    """Decode ``\\"`` and ``\\\\``; any other backslash pair is kept as written."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


def escape(value: str) -> str:
    """Escape a value for writing: backslashes and quotes, line breaks as spaces."""
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return value.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def normalise_name(raw: str) -> tuple[str, str | None]:
    """The name with HTML entities decoded, and why it is irregular (or None)."""
    name = html.unescape(raw) if "&" in raw else raw
    name = " ".join(name.split())
    if _STRICT_NAME.fullmatch(name):
        alias = ALIASES.get(name.lower())
        if alias and alias != name:
            return name, f"tag name {name!r} read as {alias}"
        return name, None
    alias = ALIASES.get(name.lower())
    why = f"irregular tag name {raw!r}"
    if alias:
        why += f", read as {alias}"
    return name, why


def standard_name(name: str) -> str:
    """The standard tag a (possibly localised) name stands for."""
    return ALIASES.get(name.lower(), name)


def date_is_standard(value: str) -> bool:
    """Whether a Date value has the standard ``YYYY.MM.DD`` form (parts may be ``??``)."""
    return value in ("", "?") or _DATE.fullmatch(value) is not None
