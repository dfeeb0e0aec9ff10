"""Which diagnostic codes a report shows: ``--select`` and ``--ignore``, ruff style.

Both take codes and code prefixes (``W``, ``E0``, ``W12``, ``E05``).  A code is
reported when it matches a selected prefix (every code when nothing is selected)
and no ignored one; when both match, the longer (more specific) prefix decides, so
``--ignore W --select W10`` keeps W10 alone of the warnings.  Findings that are not
reported do not count towards a game's status or the exit status either.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pdn_tools.diagnostics import CATALOGUE, Issue


class SelectionError(ValueError):
    """A prefix that matches no diagnostic code."""


def parse_prefixes(values: Iterable[str]) -> tuple[str, ...]:
    """Codes and prefixes from repeated and comma-separated option values, upper-cased.

    Raises :class:`SelectionError` for a prefix no code starts with.
    """
    out: list[str] = []
    for value in values:
        for part in value.split(","):
            prefix = part.strip().upper()
            if not prefix:
                continue
            if not any(code.startswith(prefix) for code in CATALOGUE):
                raise SelectionError(f"{part.strip()!r} is no diagnostic code or code prefix")
            out.append(prefix)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Selection:
    """The selected and ignored prefixes; the default keeps every code."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def keeps(self, code: str) -> bool:
        """Whether findings with *code* are reported."""
        chosen = max((len(p) for p in self.select if code.startswith(p)), default=-1)
        if not self.select:
            chosen = 0
        dropped = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return chosen >= 0 and chosen > dropped

    def filter(self, issues: Iterable[Issue]) -> list[Issue]:
        """The reported findings of *issues*, in order."""
        if not self.select and not self.ignore:
            return list(issues)
        return [issue for issue in issues if self.keeps(issue.code)]
