"""How events are formed and checked, by readable names (``--rule NAME=VALUE``).

The event checks have their own settings beside the replay's interpretation points
(:mod:`pdn_tools.replay.rule_options`): the same ``--rule`` option and ``rules``
table of ``[tool.pdn]`` set both, each name belonging to one table.  This table maps
the names to :class:`EventRules`, checks the values and documents them
(``docs/cli.md`` holds :func:`rules_markdown`, kept in sync by a test).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

KEY_PARTS = ("event", "site", "year", "file")
"""What an event key may be made of: the Event and Site tags, the year of the Date,
the input file."""
FORMATS = ("auto", "round-robin", "swiss")

_TRUE = frozenset({"yes", "true", "on", "1"})
_FALSE = frozenset({"no", "false", "off", "0"})


class EventRuleError(ValueError):
    """An unknown event rule or a value it does not take."""


@dataclass(frozen=True, slots=True)
class EventRules:
    """The settings of the event checks (see :data:`EVENT_RULES` for each)."""

    enabled: bool = True
    key: tuple[str, ...] = ("event", "site", "year")
    format: str = "auto"
    date_gap: int = 45
    misdated_share: int = 25
    colour_run: int = 3
    initials: bool = True
    variants: bool = True
    max_games: int = 50_000


def _yes_no(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise EventRuleError(f"rule {name!r} takes yes or no, not {value!r}")


def _count(low: int, high: int) -> Callable[[str, object], int]:
    def parse(name: str, value: object) -> int:
        text = str(value).strip()
        if isinstance(value, bool) or not text.isdigit() or not low <= int(text) <= high:
            raise EventRuleError(
                f"rule {name!r} takes a whole number from {low} to {high}, not {value!r}"
            )
        return int(text)

    return parse


def _key(name: str, value: object) -> tuple[str, ...]:
    parts = value if isinstance(value, list) else str(value).split(",")
    key = tuple(str(part).strip().lower() for part in parts if str(part).strip())
    if not key or any(part not in KEY_PARTS for part in key) or len(set(key)) != len(key):
        raise EventRuleError(
            f"rule {name!r} takes a comma-separated list of {', '.join(KEY_PARTS)} "
            f"(each once), not {value!r}"
        )
    if "event" not in key:
        raise EventRuleError(f"rule {name!r} must hold event (games without one are no event)")
    return key


def _format(name: str, value: object) -> str:
    word = str(value).strip().lower()
    if word not in FORMATS:
        raise EventRuleError(f"rule {name!r} takes {' or '.join(FORMATS)}, not {value!r}")
    return word


@dataclass(frozen=True, slots=True)
class EventRule:
    """One setting: its name, the :class:`EventRules` field, its values and default
    as documented, what it means, and how a value is read."""

    name: str
    field: str
    values: str
    default: str
    meaning: str
    parse: Callable[[str, object], Any]


EVENT_RULES: dict[str, EventRule] = {
    rule.name: rule
    for rule in (
        EventRule(
            "events", "enabled", "yes|no", "yes",
            "Group the games into events and check each event as a whole (W50-W58, "
            "E50-E52); no: only the games are checked.",
            _yes_no,
        ),
        EventRule(
            "event-key", "key", "event,site,year,file", "event,site,year",
            "What makes games one event: their Event tag and any of the Site tag, the "
            "year of the Date and the input file (comma-separated).",
            _key,
        ),
        EventRule(
            "event-format", "format", "auto|round-robin|swiss", "auto",
            "How the events were paired: guessed from the games (auto), or every event "
            "a round robin, or none (swiss: the round-robin checks W50, W52, W57 are off).",
            _format,
        ),
        EventRule(
            "event-date-gap", "date_gap", "1-3660", "45",
            "Days without a game after which an event's dates part (W53: a game in a "
            "smaller part is dated outside the event).",
            _count(1, 3660),
        ),
        EventRule(
            "misdated-share", "misdated_share", "0-100", "25",
            "Games of an event dated in another year (W54) or apart from its other days "
            "(W53) are taken for mis-dated when they are at most this share (percent) "
            "of the games of the year or days that hold most; more make an event (a "
            "year) of their own, or are left alone.",
            _count(0, 100),
        ),
        EventRule(
            "colour-run", "colour_run", "2-99", "3",
            "Same colour in this many rounds in a row makes W57 (round robins).",
            _count(2, 99),
        ),
        EventRule(
            "event-max-games", "max_games", "100-10000000", "50000",
            "An event of more games is not checked as a whole (W58, info): online "
            "archives file whole seasons under one Event, and putting an event together "
            "takes memory by its games.",
            _count(100, 10_000_000),
        ),
        EventRule(
            "player-initials", "initials", "yes|no", "yes",
            "Take a spelling with initials (T. Sijbrands) for the one player of the event "
            "whose name fits it (Ton Sijbrands); no: a spelling with initials joins nobody.",
            _yes_no,
        ),
        EventRule(
            "player-variants", "variants", "yes|no", "yes",
            "Take a spelling of one or two games that mis-writes a player's name (other "
            "initials, a surname one letter off or with two letters swapped) for that "
            "player when the rounds agree: its games fall in rounds where the player has "
            "none, fill the player's rounds, and repeat no pairing; no: never.",
            _yes_no,
        ),
    )
}  # fmt: skip


def is_event_rule(name: str) -> bool:
    """Whether *name* (any case, ``_`` for ``-``) is one of :data:`EVENT_RULES`."""
    return name.strip().lower().replace("_", "-") in EVENT_RULES


def event_rules(pairs: Iterable[tuple[str, object]], base: EventRules | None = None) -> EventRules:
    """*base* (the defaults) with the (name, value) *pairs* applied; later pairs win.

    Raises :class:`EventRuleError` for an unknown name or a value it does not take.
    """
    values: dict[str, Any] = {}
    for name, value in pairs:
        key = name.strip().lower().replace("_", "-")
        rule = EVENT_RULES.get(key)
        if rule is None:
            raise EventRuleError(f"unknown event rule {name!r} (known: {', '.join(EVENT_RULES)})")
        values[rule.field] = rule.parse(rule.name, value)
    return replace(base or EventRules(), **values)


def rules_markdown() -> str:
    """The table of event rules in ``docs/cli.md`` (a test keeps the two in sync)."""
    lines = ["| Rule | Values | Default | Meaning |", "|---|---|---|---|"]
    for rule in EVENT_RULES.values():
        values = rule.values.replace("|", "\\|")
        lines.append(f"| `{rule.name}` | `{values}` | `{rule.default}` | {rule.meaning} |")
    return "\n".join(lines) + "\n"


__all__ = [
    "EVENT_RULES",
    "FORMATS",
    "KEY_PARTS",
    "EventRule",
    "EventRuleError",
    "EventRules",
    "event_rules",
    "is_event_rule",
    "rules_markdown",
]
