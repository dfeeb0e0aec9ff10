"""Date values read as dates where they are unambiguous; results read as a colour by
the variant's start colour."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools import read_string
from pdn_tools.pdn.results import colour_outcome, first_mover
from pdn_tools.pdn.tags import DateParts, date_range, parse_date


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # The forms pdn-format.md §5.2 lists from real files.
        ("2024.03.09", (2024, 3, 9)),
        ("2004.??.??", (2004, None, None)),
        ("????.??.??", (None, None, None)),
        ("1841-??-??", (1841, None, None)),
        ("2004", (2004, None, None)),
        ("1950.", (1950, None, None)),
        ("1970.4.2", (1970, 4, 2)),
        ("2026-04-21 17:17:18", (2026, 4, 21)),
        ("25.11.2000", (2000, 11, 25)),
        ("13-01-1996", (1996, 1, 13)),
        ("17 april 2009", (2009, 4, 17)),
        ("3 Nov 2010", (2010, 11, 3)),
        # An event's span in one tag: its first day (pdn-format.md §5.2).
        ("2004.10.27 - 2004.11.01", (2004, 10, 27)),
        ("2004.12.27 - 2005.01.01", (2004, 12, 27)),
        ("2004-10-27 \u2013 2004-11-01", (2004, 10, 27)),
        ("2004.10.27\u20132004.11.01", (2004, 10, 27)),
        # Not a span of two whole days: the year they share at most.
        ("2004.11.01 - 2004.10.27", (2004, None, None)),
        ("2004.10.27 - 2004-11-01", (2004, None, None)),
        ("2004.10 - 2004.11", (2004, None, None)),
        ("2004.02.30 - 2004.03.01", (2004, None, None)),
        ("2004-10-27-2004-11-01", (None, None, None)),
        ("2007/2008", (None, None, None)),
        ("03.07.20", (None, None, None)),
        ("2005.13.01", (2005, None, None)),
        ("", (None, None, None)),
        ("?", (None, None, None)),
    ],
)
def test_date_forms(text: str, parts: tuple[int | None, ...]) -> None:
    assert parse_date(text) == DateParts(*parts)


def test_only_real_days_are_dates() -> None:
    assert parse_date("2005.02.30").date is None  # parts kept, but no such day
    assert parse_date("2005.02.28").date == datetime.date(2005, 2, 28)
    assert parse_date("2004").date is None and parse_date(None) == DateParts()


@given(st.dates(datetime.date(1000, 1, 1), datetime.date(2999, 12, 31)))
def test_written_dates_read_back(day: datetime.date) -> None:
    for text in (
        f"{day.year:04d}.{day.month:02d}.{day.day:02d}",
        day.isoformat(),
        f"{day.day:02d}.{day.month:02d}.{day.year:04d}",
        f"{day.year}.{day.month}.{day.day} 10:30",
    ):
        assert parse_date(text).date == day, text


@pytest.mark.parametrize(
    ("result", "variant", "colour"),
    [
        ("2-0", "international", "white"),
        ("0-2", "international", "black"),
        ("1-1", "international", "draw"),
        ("1-0", "italian", "white"),
        ("1/2-1/2", "russian", "draw"),
        # English and pool: Black moves first, so the left score is Black's.
        ("1-0", "english", "black"),
        ("0-1", "pool", "white"),
        # The other style, irregular spellings: as the digits say.
        ("1-0", "international", "white"),
        ("0-2t", "italian", "black"),
        (" 0-1", "frisian", "black"),
        ("½-½", "international", "draw"),
        # Unknown, unfinished, lost by both: no outcome.
        ("*", "international", None),
        ("-", "international", None),
        ("0-0", "international", None),
        ("4-6", "international", None),
        (None, "international", None),
        ("2-0", "unknown", "white"),
    ],
)
def test_outcome_by_colour(result: str | None, variant: str, colour: str | None) -> None:
    assert colour_outcome(result, variant) == colour


def test_first_mover_of_every_variant() -> None:
    assert first_mover("english") == first_mover("pool") == first_mover("thai") == "B"
    assert first_mover("international") == first_mover("gametype-97") == "W"


def test_a_range_of_days_is_read_as_its_first_day_and_said_so() -> None:
    """The game is dated by the span's first day; the tag keeps the whole text and
    the info finding (W29) names both days."""
    game = read_string(
        '[Event "x"]\n[Date "2004.10.27 - 2004.11.01"]\n[GameType "20"]\n1. 32-28 *\n'
    )[0]
    assert game.tag("Date") == "2004.10.27 - 2004.11.01"
    assert parse_date(game.tag("Date")).date == datetime.date(2004, 10, 27)
    found = [i for i in game.issues if i.code == "W29"]
    assert len(found) == 1 and found[0].severity == "info"
    assert (found[0].line, found[0].column) == (2, 1)
    assert "read as its first day, 2004.10.27" in found[0].message
    assert "2004.11.01" in found[0].message


@given(
    st.dates(datetime.date(1000, 1, 1), datetime.date(2999, 12, 31)),
    st.integers(0, 400),
    st.sampled_from([" - ", " -", " \u2013 ", "\u2013"]),
    st.sampled_from([".", "-", "/"]),
)
def test_a_span_of_days_reads_as_its_first_day(
    first: datetime.date, length: int, dash: str, sep: str
) -> None:
    last = first + datetime.timedelta(days=length)
    if last.year > 2999:
        last = first
    text = f"{first:%Y{sep}%m{sep}%d}{dash}{last:%Y{sep}%m{sep}%d}"
    assert date_range(text) == (first, last)
    assert parse_date(text).date == first
