"""The replay's interpretation points by readable names, as ``--rule NAME=VALUE`` sets them.

:class:`~pdn_tools.replay.options.ReplayOptions` names its fields after the points of
rules.md §7 (``ip04_repetition_includes_side_to_move``); users name them in words
(``repetition-side-to-move=no``).  This table is the one place that maps the two,
checks the values and documents them (``docs/cli.md`` holds :func:`rules_markdown`,
kept in sync by a test), so the command line and the configuration file accept the
same names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

_TRUE = frozenset({"yes", "true", "on", "1"})
_FALSE = frozenset({"no", "false", "off", "0"})


class RuleOptionError(ValueError):
    """An unknown rule option or a value it does not take."""


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One interpretation point: its name, the ReplayOptions field, and its values.

    ``choices`` is empty for a yes/no option; otherwise the words it accepts.
    """

    name: str
    field: str
    default: str
    meaning: str
    choices: tuple[str, ...] = ()

    def parse(self, value: object) -> Any:
        """The field value for *value* (a word, or a TOML boolean for yes/no options)."""
        if not self.choices:
            if isinstance(value, bool):
                return value
            word = str(value).strip().lower()
            if word == "variant" and self.default == "variant":
                return None  # the rules description of the game's variant decides
            if word in _TRUE:
                return True
            if word in _FALSE:
                return False
            also = " or variant" if self.default == "variant" else ""
            raise RuleOptionError(f"rule {self.name!r} takes yes{also} or no, not {value!r}")
        word = str(value).strip().lower()
        if word not in self.choices:
            raise RuleOptionError(
                f"rule {self.name!r} takes {' or '.join(self.choices)}, not {value!r}"
            )
        return word


RULE_OPTIONS: dict[str, RuleOption] = {
    option.name: option
    for option in (
        RuleOption(
            "repetition-side-to-move",
            "ip04_repetition_includes_side_to_move",
            "variant",
            "Positions compared for repetition include the side to move (yes: FMJD, IP-04) "
            "or not (no: the placement alone counts, as ItsYourTurn rules); variant: as "
            "the variant or profile says.",
        ),
        RuleOption(
            "setup-counts-for-repetition",
            "ip03_setup_counts_for_repetition",
            "yes",
            "The start or set-up position counts as the first occurrence for repetition (IP-03).",
        ),
        RuleOption(
            "setup-resets-counters",
            "ip15_setup_resets_counters",
            "yes",
            "An in-game set-up (/FEN/) resets every draw counter (IP-15).",
        ),
        RuleOption(
            "promotion-restarts-16-move",
            "ip02_promotion_restarts_16",
            "no",
            "A promotion inside the 16-move class restarts its count (IP-02).",
        ),
        RuleOption(
            "capture-in-16-move-class",
            "ip01_capture_in_16_window",
            "earlier",
            "A capture that turns the 16-move class into the 5-move class keeps the "
            "earlier of the running 16-move limit and a fresh 5-move limit (earlier), or "
            "starts a fresh 5-move count (fresh) (IP-01).",
            ("earlier", "fresh"),
        ),
        RuleOption(
            "draws",
            "draws",
            "yes",
            "Detect the draw conditions of the game's variant at all.",
        ),
        RuleOption(
            "lookahead",
            "lookahead",
            "yes",
            "Resolve an ambiguous short capture when exactly one candidate lets the rest "
            "of the game replay (W25); no: every ambiguity is an error (E08).",
        ),
        RuleOption(
            "repair-hints",
            "repair_hints",
            "yes",
            "Search the mis-recorded move behind an illegal move (and the edit that makes "
            "a contradicted result fit) and add it to the finding.",
        ),
    )
}


def rule_values(pairs: Iterable[tuple[str, object]]) -> dict[str, Any]:
    """ReplayOptions keyword arguments for (name, value) pairs; later pairs win.

    Names are case-insensitive and may use ``_`` for ``-``; an unknown name or value
    raises :class:`RuleOptionError` naming the known ones.
    """
    out: dict[str, Any] = {}
    for name, value in pairs:
        key = name.strip().lower().replace("_", "-")
        option = RULE_OPTIONS.get(key)
        if option is None:
            known = ", ".join(RULE_OPTIONS)
            raise RuleOptionError(f"unknown rule {name!r} (known: {known})")
        out[option.field] = option.parse(value)
    return out


def parse_assignment(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` as (name, value); raises :class:`RuleOptionError` without ``=``."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise RuleOptionError(f"{text!r} is not NAME=VALUE")
    return name.strip(), value.strip()


def rules_markdown() -> str:
    """The table of rule options in ``docs/cli.md`` (a test keeps the two in sync)."""
    lines = ["| Rule | Values | Default | Meaning |", "|---|---|---|---|"]
    for option in RULE_OPTIONS.values():
        values = "\\|".join(option.choices) if option.choices else "yes\\|no"
        if option.default == "variant":
            values += "\\|variant"
        lines.append(f"| `{option.name}` | `{values}` | `{option.default}` | {option.meaning} |")
    return "\n".join(lines) + "\n"
