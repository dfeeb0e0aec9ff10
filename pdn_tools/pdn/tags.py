"""Tag names and values: escapes, irregular names, localised aliases, dates.

pdn-format.md §5.  The model keeps every tag as written (names with entities
decoded); this module says what a name means and what is irregular about it.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from pdn_tools.diagnostics import freeze

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
    "anno": "Date",  # the year, or the whole date: read as a Date (a year alone is W29)
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
#: A whole tag: its name (words of non-space characters with blanks between them, the
#: blanks around it left out) and its value.  The name's words and blanks cannot match
#: the same character and are possessive, so a long run of blanks is passed once (a
#: lazy name between two blank repetitions was quadratic in it).
#: A value's quotes are ``"`` or curly double quotes (U+201C, U+201D), as in the
#: grammar's TAG.
_TAG = re.compile(
    r'\[\s*+((?:[^\s"\u201c\u201d\[\]]++(?:\s++[^\s"\u201c\u201d\[\]]++)*+)?)\s*+'
    r'(?:["\u201c\u201d](.*)["\u201c\u201d]\s*)?\]\s*\Z',
    re.S,
)
_ESCAPE = re.compile(r"\\([\\\"])")
_DATE = re.compile(r"(\?\?\?\?|\d{4})\.(\?\?|\d{2})\.(\?\?|\d{2})")


def split_tag(token: str) -> tuple[str, str | None, bool]:
    """Split a whole tag token ``[Name "value"]`` into its raw name and raw value, and
    say whether a curly double quote opened or closed the value (``[Event “Open”]``,
    typed in a word processor or written in Windows-1252, whose bytes 0x93 and 0x94
    are these quotes): the value is read as if in ``"``, and the writer writes ``"``."""
    if not token.startswith("["):
        token = "[" + token.lstrip()
    match = _TAG.match(token)
    if match is None:  # cannot happen for tokens of the grammar's TAG terminal
        return token.strip("[] \t"), None, False
    if match.start(2) < 0:
        return match.group(1), None, False
    quotes = token[match.start(2) - 1] + token[match.end(2)]
    return match.group(1), match.group(2), quotes != '""'


def unescape(value: str) -> str:
    """Decode ``\\"`` and ``\\\\``; any other backslash pair is kept as written."""
    return _ESCAPE.sub(r"\1", value) if "\\" in value else value


def ends_in_backslash(raw: str) -> bool:
    """Whether the raw value *raw* ends in a backslash that escapes nothing: the
    ``\\"`` after it closed the value (``[Source "C:\\games\\"]``, a Windows path
    written without escapes), which the TAG pattern reads so only at the end of the
    line or before the next tag.  An even run of backslashes is escaped ones."""
    stripped = raw.rstrip("\\")
    return (len(raw) - len(stripped)) % 2 == 1


def escape(value: str) -> str:
    """Escape a value for writing: backslashes and quotes, line breaks as spaces."""
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return value.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def normalise_name(raw: str) -> tuple[str, str | None]:
    """The name with HTML entities decoded, and why it is irregular (or None)."""
    name = raw
    if "&" in name:
        import html  # only for names with entities: the module costs 3 ms of each start

        name = html.unescape(name)
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


def other_side(name: str) -> str | None:
    """The tag that says for the other side what the tag *name* says for one: White
    and Black, and their companions (``WhiteElo`` and ``BlackElo``, ``WhiteTitle``,
    ``WhiteTeam``, ``WhiteClock`` ... and their localised aliases), as standard names;
    None for a tag about neither side.  A board whose colours are exchanged (py-draughts'
    American board, where White moves first) exchanges these tags with them, so that
    each still names the player of its pieces."""
    standard = standard_name(name)
    for side, other in (("White", "Black"), ("Black", "White")):
        rest = standard[len(side) :]
        if standard.startswith(side) and not rest[:1].islower():
            return other + rest
    return None


def date_is_standard(value: str) -> bool:
    """Whether a Date value has the standard ``YYYY.MM.DD`` form (parts may be ``??``)."""
    return value in ("", "?") or _DATE.fullmatch(value) is not None


class DateParts:
    """What a Date value says: year, month and day, each None when not known.

    ``date`` is the full date when all three are known and form a real day.
    """

    year: int | None
    month: int | None
    day: int | None

    __slots__ = ("day", "month", "year")

    def __init__(
        self,
        year: int | None = None,
        month: int | None = None,
        day: int | None = None,
    ) -> None:
        self.year = year
        self.month = month
        self.day = day

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DateParts) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.year, self.month, self.day) == (other.year, other.month, other.day)

    def __hash__(self) -> int:
        return hash((self.year, self.month, self.day))

    def __repr__(self) -> str:
        return f"DateParts(year={self.year!r}, month={self.month!r}, day={self.day!r})"

    def __reduce__(self) -> tuple[type[DateParts], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (DateParts, (self.year, self.month, self.day))

    @property
    def date(self) -> datetime.date | None:
        """The calendar date, or None when a part is unknown or the day does not exist."""
        if self.year is None or self.month is None or self.day is None:
            return None
        try:
            return datetime.date(self.year, self.month, self.day)
        except ValueError:
            return None

    def standard(self) -> str:
        """The parts in the standard form ``YYYY.MM.DD``, ``??`` where not known."""
        year = f"{self.year:04d}" if self.year is not None else "????"
        month = f"{self.month:02d}" if self.month is not None else "??"
        day = f"{self.day:02d}" if self.day is not None else "??"
        return f"{year}.{month}.{day}"


freeze(DateParts)


#: Month names of the languages seen in Date values (``17 april 2009``).
MONTHS: dict[str, int] = {
    name: number
    for names, number in (
        (("january", "jan", "januari", "janvier", "gennaio", "januar"), 1),
        (("february", "feb", "februari", "février", "fevrier", "febbraio", "februar"), 2),
        (("march", "mar", "maart", "mars", "marzo", "märz", "maerz"), 3),
        (("april", "apr", "avril", "aprile"), 4),
        (("may", "mei", "mai", "maggio"), 5),
        (("june", "jun", "juni", "juin", "giugno"), 6),
        (("july", "jul", "juli", "juillet", "luglio"), 7),
        (("august", "aug", "augustus", "août", "aout", "agosto"), 8),
        (("september", "sep", "sept", "septembre", "settembre"), 9),
        (("october", "oct", "oktober", "octobre", "ottobre"), 10),
        (("november", "nov", "novembre"), 11),
        (("december", "dec", "décembre", "decembre", "dicembre", "dezember"), 12),
    )
    for name in names
}
_PART = r"(\?{1,2}|\d{1,2})"
_YEAR_FIRST = re.compile(r"(\?{4}|\d{4})(?:[./-]" + _PART + r"(?:[./-]" + _PART + r")?)?\.?")
_YEAR_LAST = re.compile(r"(\d{1,2})[.-](\d{1,2})[.-](\d{4})")
_YEAR_LAST_SLASHED = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_NAMED = re.compile(r"(\d{1,2})\.?\s+([^\W\d_]+)\.?\s+(\d{4})")
_TIME = re.compile(r"[ T]\d{1,2}:\d{2}(?::\d{2})?")
_DAY = r"(\d{4})([./-])(\d{1,2})\2(\d{1,2})"
_RANGE = re.compile(_DAY + r"(?:\s+[-\u2013]\s*|\s*\u2013\s*)" + r"(\d{4})\2(\d{1,2})\2(\d{1,2})")
"""Two whole days, year first, written alike and joined by a dash with a space before
it or by an en dash (``2004.10.27 - 2004.11.01``): an event's span in one tag."""

#: One reading of a Date value as written: year, month and day, None where the value
#: gives none (``??`` or left out), before any check that they make sense.
Written = tuple[int | None, int | None, int | None]


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _checked(year: int | None, month: int | None, day: int | None) -> DateParts:
    """The parts that make sense: a year of 1000-2999, a month of 1-12, a day of 1-31."""
    if year is None or not 1000 <= year <= 2999:
        return DateParts()
    if month is None or not 1 <= month <= 12:
        return DateParts(year)
    if day is None or not 1 <= day <= 31:
        return DateParts(year, month)
    return DateParts(year, month, day)


def date_range(value: str | None) -> tuple[datetime.date, datetime.date] | None:
    """The first and last day of a Date value that is a range of days, an event's
    span in one tag (``2004.10.27 - 2004.11.01``); None for any other value.

    Only the unambiguous form is a range: two whole, real days written year first with
    the same separator, joined by a dash with a space before it or by an en dash, the
    first not after the last.  A season (``2007/2008``) or a dash without a space
    before it (``2004-10-27-2004-11-01``) is none.
    """
    if value is None:
        return None
    match = _RANGE.fullmatch(value.strip())
    if match is None:
        return None
    year, _, month, day, year2, month2, day2 = match.groups()
    try:
        first = datetime.date(int(year), int(month), int(day))
        last = datetime.date(int(year2), int(month2), int(day2))
    except ValueError:
        return None
    if first > last or not 1000 <= first.year <= last.year <= 2999:
        return None
    return first, last


def written_dates(value: str | None) -> tuple[Written, ...]:
    """Every reading of a Date value, its parts as written (unchecked): none when the
    value is no date :func:`parse_date` reads, two when it may be read two ways.

    A date with the year last and slashes (``01/06/1998``) is written day first in
    Europe and month first in America: both are readings unless a part above 12, or
    two equal parts, leave one.  With dots or dashes (``10.03.1998``) the day comes
    first, unless the second part is above 12.
    """
    if value is None:
        return ()
    text = _TIME.sub("", value.strip()).strip()
    if not text:
        return ()
    match = _YEAR_FIRST.fullmatch(text)
    if match:
        return ((_number(match.group(1)), _number(match.group(2)), _number(match.group(3))),)
    match = _YEAR_LAST.fullmatch(text)
    if match:
        first, second, year = (int(g) for g in match.groups())
        day, month = (first, second) if second <= 12 else (second, first)
        return ((year, month, day),)
    match = _YEAR_LAST_SLASHED.fullmatch(text)
    if match:
        first, second, year = (int(g) for g in match.groups())
        if first > 12 or first == second:
            return ((year, second, first),)
        if second > 12:
            return ((year, first, second),)
        return ((year, second, first), (year, first, second))
    match = _NAMED.fullmatch(text)
    if match:
        named = MONTHS.get(match.group(2).lower())
        return ((int(match.group(3)), named, int(match.group(1)) if named else None),)
    span = date_range(text)
    if span is not None:  # an event's span: its first day
        return ((span[0].year, span[0].month, span[0].day),)
    if " - " in text:
        start, _, end = text.partition(" - ")
        a, b = parse_date(start), parse_date(end)
        if a.year is not None and a.year == b.year:
            return ((a.year, None, None),)
    return ()


def date_readings(value: str | None) -> tuple[DateParts, ...]:
    """Every reading of a Date value, each with the parts that make sense (see
    :func:`parse_date`); none without a year.  Two readings differ in month and day
    (``01/06/1998``: 1 June or 6 January)."""
    out: list[DateParts] = []
    for year, month, day in written_dates(value):
        parts = _checked(year, month, day)
        if parts.year is not None and parts not in out:
            out.append(parts)
    return tuple(out)


def parse_date(value: str | None) -> DateParts:
    """The year, month and day a Date value gives, where it gives them unambiguously.

    Read: the standard ``YYYY.MM.DD`` with ``??`` for unknown parts, also with ``-`` or
    ``/`` and one-digit parts (``1970.4.2``), a year alone (``2004``, ``1950.``), a
    time after the date (``2026-04-21 17:17:18``), the European day-first forms
    ``25.11.2000`` and ``13-01-1996``, ``17 april 2009`` (month names in English,
    Dutch, French, Italian, German), and the year last with slashes, day or month
    first (``25/11/2000``, ``11/25/2000``; ``01/06/1998`` gives its year only, its
    readings disagreeing on the month), and a range of days (``2004.10.27 -
    2004.11.01``, :func:`date_range`) as its first day.  Everything else — two-digit
    years (``03.07.20``), seasons (``2007/2008``) — gives what all its readings agree
    on, which is usually nothing; another range within one year (``2004.10 -
    2004.11``) gives that year.  :func:`date_readings` gives every reading.
    """
    readings = date_readings(value)
    if not readings:
        return DateParts()
    first = readings[0]
    if all(r == first for r in readings):
        return first
    month = first.month if all(r.month == first.month for r in readings) else None
    day = first.day if month is not None and all(r.day == first.day for r in readings) else None
    return DateParts(first.year, month, day)
