"""What one game tells about its event, gathered where the game is replayed.

:func:`game_facts` reads a checked game's tags and replay into a few dozen bytes: the
Event, Site and Round tags, the players as written, the date, the result and how it
was written, the game id, and a 16-bit digest of each replayed main-line move (to
tell a live-feed snapshot from the game it grew into; the first two bytes digest
the variant and start position) and whether moves are written at all (a game that
was not replayed has no digest, but is no record without moves when it has moves).
The bytes travel from worker processes and cluster workers to where the events are
put together (:class:`pdn_tools.collection.events.index.EventIndex`), which keeps
them in flat arrays; :func:`unpack` reads them back.  A game that belongs to no
event (no Event tag) gives no facts, unless it pairs a player against themselves
(E51).
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

from pdn_tools.diagnostics import freeze
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.players import player_key
from pdn_tools.pdn.results import colour_outcome, read_result
from pdn_tools.pdn.tags import parse_date
from pdn_tools.replay.identity import game_id
from pdn_tools.replay.options import ReplayResult

UNKNOWN_TAG = frozenset({"", "?", "??", "-", "--"})
"""Tag values that say nothing (the Event, Site and Round of no event)."""
OUTCOMES = (None, "white", "black", "draw")
"""Outcome codes: 0 unknown, 1 White won, 2 Black won, 3 drawn."""
STYLES = ("none", "international", "default")
"""How the result was written: 1 as 2-0 / 1-1 / 0-2, 2 as 1-0 / 1/2-1/2 / 0-1."""

_HEAD = struct.Struct("<QiiBBBB")
_NONE = 0xFFFF


class GameFacts:
    """The facts of one game (see the module documentation).

    ``day`` is the date's proleptic ordinal (0: no whole date), ``year`` 0 when
    unknown, ``game_id`` 0 when the game has no identity, ``complete`` whether the
    replay went to the end without stopping, ``moves`` two bytes for the variant and
    start position, then two per replayed main-line ply (empty when not replayed),
    ``written`` whether the main line has any move or unknown-move placeholder as
    written, replayed or not (False: a record without moves, such as a header written
    before the game).
    """

    event: str | None
    site: str | None
    year: int
    day: int
    round: str | None
    white: str | None
    black: str | None
    variant: str
    outcome: int
    style: int
    game_id: int
    complete: bool
    moves: bytes
    written: bool

    __slots__ = (
        "black",
        "complete",
        "day",
        "event",
        "game_id",
        "moves",
        "outcome",
        "round",
        "site",
        "style",
        "variant",
        "white",
        "written",
        "year",
    )

    def __init__(
        self,
        event: str | None,
        site: str | None,
        year: int,
        day: int,
        round: str | None,
        white: str | None,
        black: str | None,
        variant: str,
        outcome: int,
        style: int,
        game_id: int,
        complete: bool,
        moves: bytes,
        written: bool = False,
    ) -> None:
        self.event = event
        self.site = site
        self.year = year
        self.day = day
        self.round = round
        self.white = white
        self.black = black
        self.variant = variant
        self.outcome = outcome
        self.style = style
        self.game_id = game_id
        self.complete = complete
        self.moves = moves
        self.written = written

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameFacts) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.event,
            self.site,
            self.year,
            self.day,
            self.round,
            self.white,
            self.black,
            self.variant,
            self.outcome,
            self.style,
            self.game_id,
            self.complete,
            self.moves,
            self.written,
        ) == (
            other.event,
            other.site,
            other.year,
            other.day,
            other.round,
            other.white,
            other.black,
            other.variant,
            other.outcome,
            other.style,
            other.game_id,
            other.complete,
            other.moves,
            other.written,
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.event,
                self.site,
                self.year,
                self.day,
                self.round,
                self.white,
                self.black,
                self.variant,
                self.outcome,
                self.style,
                self.game_id,
                self.complete,
                self.moves,
            )
        )

    def __repr__(self) -> str:
        return (
            f"GameFacts(event={self.event!r}, "
            f"site={self.site!r}, "
            f"year={self.year!r}, "
            f"day={self.day!r}, "
            f"round={self.round!r}, "
            f"white={self.white!r}, "
            f"black={self.black!r}, "
            f"variant={self.variant!r}, "
            f"outcome={self.outcome!r}, "
            f"style={self.style!r}, "
            f"game_id={self.game_id!r}, "
            f"complete={self.complete!r}, "
            f"moves={self.moves!r}, "
            f"written={self.written!r})"
        )

    def __reduce__(self) -> tuple[type[GameFacts], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            GameFacts,
            (
                self.event,
                self.site,
                self.year,
                self.day,
                self.round,
                self.white,
                self.black,
                self.variant,
                self.outcome,
                self.style,
                self.game_id,
                self.complete,
                self.moves,
                self.written,
            ),
        )

    @property
    def plies(self) -> int:
        """Replayed main-line plies (those the digest covers)."""
        return max(0, len(self.moves) // 2 - 1)


freeze(GameFacts)


def known(value: str | None) -> str | None:
    """A tag value with its spaces collapsed; None when it says nothing."""
    if value is None:
        return None
    text = " ".join(value.split())
    return None if text in UNKNOWN_TAG else text


#: Each move's two bytes, by its text (the same few hundred moves make most games);
#: emptied when it grows past :data:`_DIGEST_CACHE_SIZE`.
_DIGESTS: dict[str, bytes] = {}
_DIGEST_CACHE_SIZE = 20_000


def _move_bytes(text: str) -> bytes:
    """The two bytes of one move (see :func:`move_digest`), computed and cached."""
    if len(_DIGESTS) >= _DIGEST_CACHE_SIZE:
        _DIGESTS.clear()
    value = (zlib.crc32(text.encode("utf-8", "surrogatepass")) & 0xFFFF).to_bytes(2, "little")
    _DIGESTS[text] = value
    return value


def move_digest(texts: list[str]) -> bytes:
    """Two bytes per move: the low 16 bits of the CRC-32 of its standard notation."""
    cache = _DIGESTS
    return b"".join([cache.get(text) or _move_bytes(text) for text in texts])


def game_facts(game: Game, replay: ReplayResult | None, identity: str | None) -> bytes | None:
    """The packed facts of a checked *game* (*identity*: its game id), or None when it
    belongs to no event and pairs no player against themselves.

    A game not replayed on request (*replay* None: ``--syntax-only``) has no game id;
    its facts take the id its written moves give (as for a game whose rules are not
    known), so that the copies of one game, written alike, are still told apart from
    the other games of its players."""
    event = known(game.tag("Event"))
    white, black = game.tag("White"), game.tag("Black")
    if event is None:
        key = player_key(white)
        if key is None or key != player_key(black):
            return None
    if replay is None and identity is None:
        identity = game_id(game, ReplayResult())
    date_text = game.tag("Date")
    if known(date_text) is None:
        date_text = game.tag("Anno")  # Italian exporters: the date as "Anno"
    date = parse_date(date_text)
    day = date.date
    result = game.result
    style = STYLES.index(read_result(result).style) if result is not None else 0
    outcome = OUTCOMES.index(colour_outcome(result, game.variant))
    moves = b""
    complete = False
    if replay is not None and replay.replayed:
        start = f"{replay.variant} {replay.start_fen}"
        moves = move_digest([start] + [move.text for move in replay.moves])
        complete = replay.completed and replay.stop is None
    head = _HEAD.pack(
        int(identity, 16) if identity else 0,
        date.year or 0,
        day.toordinal() if day is not None else 0,
        outcome,
        style,
        int(complete),
        int(game.ply_slots > 0),
    )
    strings = (event, known(game.tag("Site")), known(game.tag("Round")), white, black, game.variant)
    return head + b"".join(_text(value) for value in strings) + moves


def _text(value: str | None) -> bytes:
    if value is None:
        return _NONE.to_bytes(2, "little")
    data = value.encode("utf-8", "surrogatepass")[: _NONE - 1]
    return len(data).to_bytes(2, "little") + data


def unpack(data: bytes) -> GameFacts:
    """The :class:`GameFacts` of bytes made by :func:`game_facts`."""
    game_id, year, day, outcome, style, complete, written = _HEAD.unpack_from(data)
    at = _HEAD.size
    strings: list[str | None] = []
    for _n in range(6):
        size = int.from_bytes(data[at : at + 2], "little")
        at += 2
        if size == _NONE:
            strings.append(None)
            continue
        strings.append(data[at : at + size].decode("utf-8", "surrogatepass"))
        at += size
    event, site, round_, white, black, variant = strings
    return GameFacts(
        event, site, year, day, round_, white, black, variant or "unknown",
        outcome, style, game_id, bool(complete), bytes(data[at:]), bool(written),
    )  # fmt: skip


__all__ = ["OUTCOMES", "STYLES", "GameFacts", "game_facts", "known", "move_digest", "unpack"]
