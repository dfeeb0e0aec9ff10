"""Duplicate games: what copies of one game share, the groups of copies in a run, and
the tags copies may lend the copy that is kept.

Two records are copies when they have the same *key* (:class:`Comparison`):

* by default, the same game identity (:func:`pdn_tools.replay.identity.game_id`:
  variant, start position, main-line moves) **and** the same outcome by colour and
  the same players (names compared in any letter case, punctuation and spacing
  aside): a re-tagged, re-encoded or reformatted copy of a game is a copy, two games
  that share their moves but not their players or result are not;
* with ``moves_only``, the game identity alone;
* with ``prefix`` N, the identity of the first N plies alone (games that agree on
  their opening).

A key is 8 bytes: the game id itself (moves only), the id of the first N plies
(prefix), or the 64-bit BLAKE2b digest of the id, the outcome and the normalised
names (default).  A run remembers one key per distinct game and a few integers per
copy (:class:`CopyIndex`), never game text, so memory grows with the number of
distinct games only.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from hashlib import blake2b

from pdn_tools.pdn.model import Game, Tag
from pdn_tools.pdn.results import colour_outcome
from pdn_tools.pdn.tags import standard_name
from pdn_tools.replay.identity import ID_BYTES, game_id
from pdn_tools.replay.options import ReplayResult

_WORD = re.compile(r"\w+")


def name_key(value: str | None) -> str:
    """A player's name as copies are compared: its words (letters and digits) in
    lower case and in alphabetical order (``Jansen, Anna`` and ``Anna Jansen`` are one
    name: archives write either), joined by single spaces; empty for ``?``, ``-`` or no
    name."""
    if value is None:
        return ""
    return " ".join(sorted(_WORD.findall(unicodedata.normalize("NFKC", value).casefold())))


@dataclass(frozen=True, slots=True)
class Comparison:
    """How copies are told: the same game, its moves only, or its first plies."""

    moves_only: bool = False
    prefix: int | None = None
    """Compare the first *prefix* plies only (and the variant and start position)."""

    def describe(self) -> str:
        """What two copies share, in words."""
        if self.prefix is not None:
            return f"the same variant, start position and first {self.prefix} plies"
        if self.moves_only:
            return "the same variant, start position and main-line moves"
        return "the same variant, start position, main-line moves, outcome and players"

    def key(
        self, game: Game, replay: ReplayResult | None, identity: str | None = None
    ) -> bytes | None:
        """The 8-byte key of *game*; None when it has no identity (not replayed).

        *identity* is the game's :func:`~pdn_tools.replay.identity.game_id` when the
        caller has it already.
        """
        if self.prefix is not None:
            opening = game_id(game, replay, plies=self.prefix)
            return bytes.fromhex(opening) if opening is not None else None
        ident = identity if identity is not None else game_id(game, replay)
        if ident is None:
            return None
        if self.moves_only:
            return bytes.fromhex(ident)
        text = "\n".join(
            (
                ident,
                colour_outcome(game.result, game.variant) or "",
                name_key(game.tag("White")),
                name_key(game.tag("Black")),
            )
        )
        return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=ID_BYTES).digest()


@dataclass(frozen=True, slots=True)
class Copy:
    """Where one copy is: the input's position among the inputs, its first line, and
    the game's 1-based index in its file."""

    file_no: int
    line: int
    game: int


@dataclass(frozen=True, slots=True)
class Group:
    """The copies of one game, in input order (two or more)."""

    key: bytes
    game_id: str
    """The game id of the first copy."""
    copies: list[Copy]


class CopyIndex:
    """The games of a run by key: the first copy of each distinct game and every later
    copy, in flat integer arrays (four to five integers per game, no text)."""

    def __init__(self) -> None:
        self._index: dict[bytes, int] = {}
        self._first = array("q")  # file_no, line, game per distinct game
        self._ids = array("Q")  # the game id of its first copy
        self._last = array("q")  # its latest later copy (index into _later), or -1
        self._later = array("q")  # file_no, line, game, previous later copy of the game
        self.copies = 0
        """Games that are copies of an earlier one."""

    @property
    def distinct(self) -> int:
        """Distinct games seen."""
        return len(self._index)

    @property
    def groups_found(self) -> int:
        """Distinct games with at least one later copy."""
        return sum(1 for last in self._last if last >= 0)

    def add(self, key: bytes, identity: str, where: Copy) -> bool:
        """Count one game; True when it is a copy of an earlier one."""
        known = self._index.get(key)
        if known is None:
            self._index[key] = len(self._ids)
            self._first.extend((where.file_no, where.line, where.game))
            self._ids.append(int(identity, 16))
            self._last.append(-1)
            return False
        self._later.extend((where.file_no, where.line, where.game, self._last[known]))
        self._last[known] = len(self._later) // 4 - 1
        self.copies += 1
        return True

    def groups(self) -> Iterator[Group]:
        """Every game with copies, in the order of its first copy; its copies in input
        order."""
        keys = iter(self._index)
        for number, key in enumerate(keys):
            last = self._last[number]
            if last < 0:
                continue
            later: list[Copy] = []
            while last >= 0:
                at = 4 * last
                file_no, line, game, last = self._later[at : at + 4]
                later.append(Copy(file_no, line, game))
            first = self._first[3 * number : 3 * number + 3]
            copies = [Copy(*first), *reversed(later)]
            yield Group(key, f"{self._ids[number]:016x}", copies)


#: Tags that say what the game is, never lent by one copy to another.
FIXED_TAGS = frozenset({"result", "gametype", "fen", "setup"})
_EMPTY = re.compile(r"[\s?.\-*]*\Z")


def says_nothing(value: str | None) -> bool:
    """Whether a tag value is missing or unknown (empty, ``?``, ``-``, ``????.??.??``)."""
    return value is None or _EMPTY.match(value) is not None


_CONTRADICTED = None


class TagLending:
    """``--merge-tags``: the tags later copies lend the copy that is kept.

    The rule: the kept (first) copy gains a tag when it has no value for it (the tag
    is missing, empty or unknown such as ``?``) and every later copy that has a value
    for it gives the same value.  The tags that say what the game is (Result,
    GameType, FEN, SetUp) are never lent; names are compared as their standard names
    (``Bianco`` is ``White``) in any letter case, values with surrounding spaces
    ignored.

    It takes two passes over the games: :meth:`observe` sees every kept game and
    every copy (first pass), :meth:`lend` gives a kept game what its copies lend
    (second pass).  Memory: one key per distinct game, and the tags of later copies.
    """

    def __init__(self) -> None:
        self._seen: set[bytes] = set()
        self._lent: dict[bytes, dict[str, tuple[str, str] | None]] = {}

    def observe(self, key: bytes, tags: Iterable[Tag]) -> None:
        """First pass: note the *tags* of a game, when it is a later copy."""
        if key not in self._seen:
            self._seen.add(key)
            return
        values: dict[str, tuple[str, str]] = {}
        for tag in tags:
            name = standard_name(tag.name)
            folded = name.casefold()
            if folded in FIXED_TAGS or says_nothing(tag.value):
                continue
            values[folded] = (name, tag.value.strip())
        lent = self._lent.setdefault(key, {})
        for folded, (name, value) in values.items():
            if folded not in lent:
                lent[folded] = (name, value)
            else:
                known = lent[folded]
                if known is not _CONTRADICTED and known[1] != value:
                    lent[folded] = _CONTRADICTED

    def lend(self, key: bytes, game: Game) -> int:
        """Second pass: give the kept copy *game* the tags its copies lend; returns
        how many it gained.  Any copy may be lent them (the table is not changed),
        which lets the copies be lent in worker processes; the first one is kept."""
        lent = self._lent.get(key)
        if not lent:
            return 0
        gained = 0
        for folded, offer in lent.items():
            if offer is _CONTRADICTED:
                continue
            name, value = offer
            own = [t for t in game.tags if standard_name(t.name).casefold() == folded]
            if own and not says_nothing(own[-1].value):
                continue
            if own:
                own[-1].value = value
            else:
                game.tags.append(Tag(name, value))
            gained += 1
        return gained


__all__ = [
    "FIXED_TAGS",
    "Comparison",
    "Copy",
    "CopyIndex",
    "Group",
    "TagLending",
    "name_key",
    "says_nothing",
]
