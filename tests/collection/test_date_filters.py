"""The date filters read a Date tag as the reader does (one reading, in
pdn_tools/pdn/tags.py), dates written two ways included, and refuse bounds that name
no real day (docs/collections.md, "Filters")."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from cli_helpers import all_commands, one_clean_line
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools import read_string
from pdn_tools.cli import main
from pdn_tools.collection.filters import DateBound, FilterError, GameFilter, parse_date_bound
from pdn_tools.pdn.tags import DateParts, date_readings, parse_date


def game_dated(date: str) -> str:
    return (
        f'[Event "E"]\n[Date "{date}"]\n[White "X"]\n[Black "Y"]\n[Result "2-0"]\n'
        '[GameType "20"]\n\n1. 32-28 19-23 2-0\n'
    )


def kept(date: str, start: str | None, end: str | None) -> bool:
    """Whether a game dated *date* passes ``--date-from START --date-to END``."""
    (game,) = read_string(game_dated(date))
    test = GameFilter(
        date_from=parse_date_bound(start, end=False) if start is not None else None,
        date_to=parse_date_bound(end, end=True) if end is not None else None,
    )
    return test.matches(game, None, ())


@pytest.mark.parametrize(
    ("text", "readings", "agreed"),
    [
        # day first where the first part is above 12, month first where the second is
        ("25/11/2000", [(2000, 11, 25)], (2000, 11, 25)),
        ("11/25/2000", [(2000, 11, 25)], (2000, 11, 25)),
        ("05/05/1998", [(1998, 5, 5)], (1998, 5, 5)),
        # both ways possible: the year is what they agree on
        ("01/06/1998", [(1998, 6, 1), (1998, 1, 6)], (1998, None, None)),
        ("1/6/1998 10:30", [(1998, 6, 1), (1998, 1, 6)], (1998, None, None)),
        # dots and dashes stay day first
        ("10.03.1998", [(1998, 3, 10)], (1998, 3, 10)),
        ("1998/06/01", [(1998, 6, 1)], (1998, 6, 1)),
        ("2007/2008", [], (None, None, None)),
    ],
)
def test_dates_with_the_year_last_and_slashes(
    text: str, readings: list[tuple[int, ...]], agreed: tuple[int | None, ...]
) -> None:
    assert date_readings(text) == tuple(DateParts(*r) for r in readings)
    assert parse_date(text) == DateParts(*agreed)


def test_the_repro_dates_pass_their_year() -> None:
    for date in ("10.03.1998", "01/06/1998", "1998/06/01", "1998-06-01"):
        assert kept(date, "1998", "1998"), date
        assert not kept(date, "1999", None) and not kept(date, None, "1997"), date


def test_a_range_of_days_passes_when_any_of_its_days_may() -> None:
    """An event's span in one tag: a filter keeps the game when the span meets the
    range (the game may have been played on any of its days), drops it otherwise."""
    span = "2004.10.27 - 2004.11.01"
    assert kept(span, "2004.10.30", "2004.10.31")  # inside, after the first day
    assert kept(span, "2004.11.01", None) and kept(span, None, "2004.10.27")  # the ends
    assert not kept(span, "2004.11.02", None) and not kept(span, None, "2004.10.26")


def test_a_date_read_two_ways_passes_when_either_reading_may() -> None:
    # 01/06/1998: 1 June or 6 January
    assert kept("01/06/1998", "1998.01", "1998.06")  # both readings in the range
    assert not kept("01/06/1998", "1998.03", "1998.04")  # neither
    assert kept("01/06/1998", "1998.05", "1998.12")  # 1 June only: kept
    assert kept("01/06/1998", "1998.01.01", "1998.01.31")  # 6 January only: kept
    assert not kept("01/06/1998", "1998.01.07", "1998.05.31")  # between the two


def test_validate_says_how_a_date_written_two_ways_reads() -> None:
    (game,) = read_string(game_dated("01/06/1998"))
    (w29,) = [i.message for i in game.issues if i.code == "W29"]
    assert w29 == (
        "Date '01/06/1998' is not in the form YYYY.MM.DD; its day and month may be read "
        "either way (1998.06.01 or 1998.01.06)"
    )
    (plain,) = read_string(game_dated("10.03.1998"))
    assert [i.message for i in plain.issues if i.code == "W29"] == [
        "Date '10.03.1998' is not in the form YYYY.MM.DD"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1998.13.01", "'1998.13.01': there is no month 13"),
        ("1998.00", "'1998.00': there is no month 0"),
        ("1998.02.30", "'1998.02.30': 1998.02 has no day 30"),
        ("1999.02.29", "'1999.02.29': 1999.02 has no day 29"),
        ("1998.04.31", "'1998.04.31': 1998.04 has no day 31"),
        ("1998.06.00", "'1998.06.00': 1998.06 has no day 0"),
        ("31.04.1998", "'31.04.1998': 1998.04 has no day 31"),
        ("1998.??.05", "'1998.??.05': a day without its month"),
        ("0999", "'0999': year 999 is out of range (1000-2999)"),
        ("01/06/1998", "'01/06/1998': its day and month may be read either way"),
        ("soon", "'soon': expected a date"),
    ],
)
def test_impossible_bounds_are_refused(text: str, message: str) -> None:
    for end in (False, True):
        with pytest.raises(FilterError) as caught:
            parse_date_bound(text, end=end)
        assert str(caught.value).startswith(message)


def test_real_bounds_are_read() -> None:
    assert parse_date_bound("2000.02.29", end=False) == parse_date_bound("2000-2-29", end=True)
    assert parse_date_bound("1998.02", end=True) == DateBound(1998, 2, 31)
    assert parse_date_bound("1998", end=False) == DateBound(1998, 1, 1)
    assert parse_date_bound("25/11/2000", end=False).day == 25


def _commands_with_date_options() -> list[str]:
    names = []
    for name, command in all_commands().items():
        if any(o == "--date-from" for p in command.params for o in getattr(p, "opts", ())):
            names.append(name)
    return sorted(names)


def test_every_command_with_the_date_options_refuses_impossible_bounds(tmp_path: Path) -> None:
    commands = _commands_with_date_options()
    assert {"validate", "convert", "stats", "duplicates", "report"} <= set(commands)
    source = tmp_path / "d.pdn"
    source.write_text(game_dated("1998.06.01"), encoding="utf-8")
    for name in commands:
        args = [name, str(source)]
        if name == "convert":
            args += ["-o", str(tmp_path / "out.pdn")]
        if name == "report":
            args += ["-o", str(tmp_path / "out.html")]
        for option, value in (("--date-from", "1998.13.01"), ("--date-to", "1998.02.30")):
            done = CliRunner().invoke(main, [*args, option, value])
            assert done.exit_code == 2, (name, done.output)
            line = one_clean_line(done.stderr)
            assert value in line and option in line, (name, line)
    assert not (tmp_path / "out.pdn").exists() and not (tmp_path / "out.html").exists()


def _written(day: datetime.date) -> list[str]:
    """*day* in every form a Date tag is read in: one reading, or two with the year
    last and slashes where both the day and the month are 12 or less."""
    return [
        f"{day.year:04d}.{day.month:02d}.{day.day:02d}",
        day.isoformat(),
        f"{day.year}/{day.month}/{day.day}",
        f"{day.day:02d}.{day.month:02d}.{day.year:04d}",
        f"{day.day}-{day.month}-{day.year}",
        f"{day.year}.{day.month:02d}.{day.day:02d} 10:30",
        f"{day.day:02d}/{day.month:02d}/{day.year:04d}",
        f"{day.month:02d}/{day.day:02d}/{day.year:04d}",
    ]


def _day(parts: DateParts) -> datetime.date:
    assert parts.date is not None
    return parts.date


_DAYS = st.dates(datetime.date(1000, 1, 1), datetime.date(2999, 12, 31))


@given(_DAYS, st.integers(0, 400), st.integers(0, 400), st.integers(1, 400))
def test_a_date_is_kept_by_a_range_that_holds_it_and_dropped_by_one_that_does_not(
    day: datetime.date, before: int, after: int, gap: int
) -> None:
    def bound(d: datetime.date) -> str:
        return f"{d.year:04d}.{d.month:02d}.{d.day:02d}"

    lowest, highest = datetime.date(1000, 1, 1), datetime.date(2999, 12, 31)
    start = max(lowest, day - datetime.timedelta(days=before))
    end = min(highest, day + datetime.timedelta(days=after))
    for text in _written(day):
        readings = date_readings(text)
        assert DateParts(day.year, day.month, day.day) in readings, text
        assert kept(text, bound(start), bound(end)), text
        assert kept(text, bound(start), None) and kept(text, None, bound(end)), text
        # a range wholly after (or before) every reading drops it
        later = max(_day(r) for r in readings) + datetime.timedelta(days=gap)
        if later <= highest:
            assert not kept(text, bound(later), None), text
        earlier = min(_day(r) for r in readings) - datetime.timedelta(days=gap)
        if earlier >= lowest:
            assert not kept(text, None, bound(earlier)), text
