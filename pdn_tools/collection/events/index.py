"""The facts of a run's games, kept in flat arrays and grouped by event.

:class:`EventIndex` is told the packed facts of every game of a run
(:func:`pdn_tools.collection.events.facts.game_facts`) in input order and keeps, per
game, a few integers in :mod:`array` columns — where it is (input, game, line), its
event group, round, players, variant, year, day, result, whether moves are written,
game id, length and the next
game of its group — 66 bytes a game; per event group, an 8-byte key (a digest of its
folded name), its name as written and the place of its first game.  Spellings, round
values, variants and file names are kept once each.  The move digests, needed only
to tell live-feed snapshots, go to a temporary file (in memory up to 4 MB) and are
read back for the few games that share their players and round with another: memory
grows with the number of games by the arrays alone, never by their moves.

An index can be pickled (a cluster worker builds one per unit of work) and
:meth:`EventIndex.merge` adds another index's games after its own, so that the
indexes of many workers reduce to one.  Games are grouped by the event key of the
rules (:class:`~pdn_tools.collection.events.rules.EventRules`) without the year:
:mod:`pdn_tools.collection.events.event` splits a group into events by year.
"""

from __future__ import annotations

import tempfile
import unicodedata
from array import array
from collections.abc import Iterator
from hashlib import blake2b
from typing import IO, Any

from pdn_tools.collection.events.facts import GameFacts, unpack
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.diagnostics import GameRef, freeze

SPILL_BYTES = 1 << 22
"""Move digests kept in memory before they go to a temporary file."""
_COLUMNS = (
    ("file_no", "i"),
    ("game", "i"),
    ("line", "i"),
    ("group", "i"),
    ("round", "i"),
    ("white", "i"),
    ("black", "i"),
    ("variant", "i"),
    ("year", "i"),
    ("day", "i"),
    ("flags", "B"),
    ("game_id", "Q"),
    ("plies", "i"),
    ("digest", "q"),
    ("next", "i"),
)


def _spool() -> IO[bytes]:
    """A binary buffer kept in memory up to :data:`SPILL_BYTES`, then on disk; closed
    by :meth:`EventIndex.close` (or freed with the index)."""
    return tempfile.SpooledTemporaryFile(max_size=SPILL_BYTES)


def fold(text: str | None) -> str:
    """An Event or Site value as groups compare it: NFKC, any case, spaces collapsed."""
    if text is None:
        return ""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class SelfPaired:
    """A game of no event whose White and Black name one player (E51)."""

    ref: GameRef
    white: str
    black: str

    __slots__ = ("black", "ref", "white")

    def __init__(
        self,
        ref: GameRef,
        white: str,
        black: str,
    ) -> None:
        self.ref = ref
        self.white = white
        self.black = black

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SelfPaired) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.ref, self.white, self.black) == (other.ref, other.white, other.black)

    def __hash__(self) -> int:
        return hash((self.ref, self.white, self.black))

    def __repr__(self) -> str:
        return f"SelfPaired(ref={self.ref!r}, white={self.white!r}, black={self.black!r})"

    def __reduce__(self) -> tuple[type[SelfPaired], tuple[GameRef, str, str]]:
        # By value, through __init__: a compiled frozen class cannot be restored field
        # by field, and an index made on a worker comes back to the command.
        return (SelfPaired, (self.ref, self.white, self.black))


freeze(SelfPaired)


class EventIndex:
    """The facts of a run's games (see the module documentation)."""

    def __init__(self, rules: EventRules | None = None) -> None:
        self.rules = rules or EventRules()
        self._groups: dict[int, int] = {}
        """Each group's number by its key: the 64-bit BLAKE2b digest of its folded
        parts (Event, and Site and file when the event key holds them)."""
        self._names: list[str] = []
        """Per group: its Event and Site as first written (by input order), joined by
        U+001F (no Site: nothing after it)."""
        self._firsts = array("i")
        """Per group: the input number and game index of its first game."""
        self._links = array("i")
        """Per group: its first and its last game added (the ``next`` column links
        each game to the next of its group), so that no list of members is kept."""
        self._strings: dict[str, int] = {}
        self.strings: list[str] = []
        """Spellings, round values and variant names, each once (ids index it)."""
        self.files: dict[int, str] = {}
        self.columns: dict[str, array[Any]] = {name: array(code) for name, code in _COLUMNS}
        self._spill = _spool()
        self._spilled = 0
        self.self_paired: list[SelfPaired] = []

    def __len__(self) -> int:
        return len(self.columns["game"])

    # -- adding games -----------------------------------------------------------------
    def _string(self, text: str | None) -> int:
        if text is None:
            return -1
        known = self._strings.get(text)
        if known is None:
            known = self._strings[text] = len(self.strings)
            self.strings.append(text)
        return known

    def _group(self, facts: GameFacts, file: str, position: tuple[int, int]) -> int:
        key = self.rules.key
        parts = [fold(facts.event)]
        if "site" in key:
            parts.append(fold(facts.site))
        if "file" in key:
            parts.append(file)
        text = "\x1f".join(parts).encode("utf-8", "surrogatepass")
        group_key = int.from_bytes(blake2b(text, digest_size=8).digest(), "little")
        known = self._groups.get(group_key)
        name = (facts.event or "") + ("" if facts.site is None else "\x1f" + facts.site)
        if known is None:
            known = self._groups[group_key] = len(self._names)
            self._names.append(name)
            self._firsts.extend(position)
            self._links.extend((-1, -1))
        elif position < self.group_first(known):
            self._names[known] = name
            self._firsts[2 * known : 2 * known + 2] = array("i", position)
        return known

    def group_name(self, group: int) -> tuple[str, str | None]:
        """The Event and Site of *group* as first written (by input order)."""
        event, tab, site = self._names[group].partition("\x1f")
        return event, site if tab else None

    def group_first(self, group: int) -> tuple[int, int]:
        """The input number and game index of the first game of *group*."""
        file_no, game = self._firsts[2 * group : 2 * group + 2]
        return file_no, game

    def add(self, facts: bytes, file_no: int, file: str, game: int, line: int) -> None:
        """Add one game: its packed facts, where it is (input number and name, its
        1-based index in the input, its first line)."""
        self.add_facts(unpack(facts), file_no, file, game, line)

    def add_facts(self, facts: GameFacts, file_no: int, file: str, game: int, line: int) -> None:
        """:meth:`add` with the facts unpacked."""
        self.files.setdefault(file_no, file)
        if facts.event is None:
            ref = GameRef(file_no, file, game, line)
            self.self_paired.append(SelfPaired(ref, facts.white or "", facts.black or ""))
            return
        digest = -1
        if facts.moves:
            digest = self._spilled
            self._spill.write(facts.moves)
            self._spilled += len(facts.moves)
        flags = facts.outcome | facts.style << 2 | int(facts.complete) << 4
        flags |= int(facts.written) << 5
        group = self._group(facts, file, (file_no, game))
        number = len(self)
        first, last = self._links[2 * group : 2 * group + 2]
        if first < 0:
            self._links[2 * group] = number
        else:
            self.columns["next"][last] = number
        self._links[2 * group + 1] = number
        values = (
            file_no,
            game,
            line,
            group,
            self._string(facts.round),
            self._string(facts.white),
            self._string(facts.black),
            self._string(facts.variant),
            facts.year,
            facts.day,
            flags,
            facts.game_id,
            facts.plies,
            digest,
            -1,
        )
        for (name, _code), value in zip(_COLUMNS, values, strict=True):
            self.columns[name].append(value)

    def merge(self, other: EventIndex) -> None:
        """Add every game of *other* after those of this index, in its order."""
        for n in range(len(other)):
            self.add_facts(other.facts(n), *other.place(n))
        self.self_paired.extend(other.self_paired)
        for file_no, name in other.files.items():
            self.files.setdefault(file_no, name)

    # -- reading games ----------------------------------------------------------------
    def place(self, n: int) -> tuple[int, str, int, int]:
        """Input number, input name, game index and first line of game *n*."""
        cols = self.columns
        file_no = cols["file_no"][n]
        return file_no, self.files[file_no], cols["game"][n], cols["line"][n]

    def ref(self, n: int) -> GameRef:
        """Where game *n* is."""
        return GameRef(*self.place(n))

    def string(self, number: int) -> str | None:
        """The string with id *number* (None for -1)."""
        return None if number < 0 else self.strings[number]

    def digest(self, n: int) -> bytes:
        """The move digest of game *n* (empty when it was not replayed)."""
        at = self.columns["digest"][n]
        if at < 0:
            return b""
        size = 2 * (self.columns["plies"][n] + 1)
        self._spill.seek(at)
        data = self._spill.read(size)
        self._spill.seek(0, 2)
        return data

    def facts(self, n: int) -> GameFacts:
        """The facts of game *n*, as they were added."""
        cols = self.columns
        flags = cols["flags"][n]
        event, site = self.group_name(cols["group"][n])
        return GameFacts(
            event=event,
            site=site,
            year=cols["year"][n],
            day=cols["day"][n],
            round=self.string(cols["round"][n]),
            white=self.string(cols["white"][n]),
            black=self.string(cols["black"][n]),
            variant=self.string(cols["variant"][n]) or "unknown",
            outcome=flags & 3,
            style=flags >> 2 & 3,
            game_id=cols["game_id"][n],
            complete=bool(flags >> 4 & 1),
            moves=self.digest(n),
            written=bool(flags >> 5 & 1),
        )

    def groups(self) -> Iterator[tuple[int, list[int]]]:
        """Every group and its games (in input order), the groups in the order of
        their first game."""
        cols = self.columns
        following = cols["next"]
        for group in sorted(range(len(self._links) // 2), key=self.group_first):
            games: list[int] = []
            n = self._links[2 * group]
            while n >= 0:
                games.append(n)
                n = following[n]
            games.sort(key=lambda n: (cols["file_no"][n], cols["game"][n]))
            yield group, games

    def split(self, parts: int) -> list[EventIndex]:
        """This index's games in *parts* indexes, each group wholly in one (by a hash of
        its key), the games of no event in the first: the events of the parts are
        those of the whole."""
        out = [EventIndex(self.rules) for _ in range(parts)]
        homes = {number: key % parts for key, number in self._groups.items()}
        group = self.columns["group"]
        for n in range(len(self)):
            out[homes[group[n]]].add_facts(self.facts(n), *self.place(n))
        out[0].self_paired.extend(self.self_paired)
        for part in out:
            part.files.update(self.files)
        return out

    # -- pickling (cluster workers send their index) ------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        self._spill.seek(0)
        digests = self._spill.read()
        self._spill.seek(0, 2)
        return {
            "rules": self.rules,
            "groups": self._groups,
            "names": self._names,
            "firsts": self._firsts,
            "links": self._links,
            "strings": self.strings,
            "files": self.files,
            "columns": self.columns,
            "digests": digests,
            "self_paired": self.self_paired,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.rules = state["rules"]
        self._groups = state["groups"]
        self._names = state["names"]
        self._firsts = state["firsts"]
        self._links = state["links"]
        self.strings = state["strings"]
        self._strings = {text: n for n, text in enumerate(self.strings)}
        self.files = state["files"]
        self.columns = state["columns"]
        self._spill = _spool()
        self._spill.write(state["digests"])
        self._spilled = len(state["digests"])
        self.self_paired = state["self_paired"]

    def close(self) -> None:
        """Free the temporary file of the move digests."""
        self._spill.close()


__all__ = ["SPILL_BYTES", "EventIndex", "SelfPaired", "fold"]
