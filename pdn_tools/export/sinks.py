"""Where converted games go: one sink per output format, and the rejects file.

A sink takes a game with what replay established (:class:`Exported`) and writes it
in its format.  Sinks never drop a game: they are handed every game the converter
decides to write.

The work is split in two so that it can be shared between processes: a
:class:`Renderer` turns a game into its :data:`Piece` for the output (canonical PDN
text, the JSON object's text, or the table rows) wherever the game was read, and a
sink's ``put`` writes pieces in input order (``write`` does both at once).  The
output is the same whoever made the pieces: a parallel conversion writes the bytes
a sequential one writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from pdn_tools.export.canonical import (
    CanonicalOptions,
    OpenEnded,
    target_form,
    write_canonical,
)
from pdn_tools.export.dataset import DatasetWriter
from pdn_tools.export.jsonfmt import JsonArrayWriter, JsonlWriter, dumps, game_dict
from pdn_tools.export.parquet import ParquetWriter, table_rows
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.split import ends_comment
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.resolve import Resolution

FORMATS = ("pdn", "json", "jsonl", "parquet")
_HELD_MAX = 1 << 20
"""Most white space a rejects writer holds back to see whether it ends the game."""
#: File name endings and the format they mean.
EXTENSIONS = {
    ".pdn": "pdn",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}


def format_of(path: str) -> str | None:
    """The output format a file name's ending names, or None."""
    lowered = path.lower()
    for ending, fmt in EXTENSIONS.items():
        if lowered.endswith(ending):
            return fmt
    return None


@dataclass(slots=True)
class Exported:
    """A game ready to be written: the tree, its replay and its resolved moves."""

    game: Game
    replay: ReplayResult | None
    resolution: Resolution


Rows = tuple[dict[str, Any], list[dict[str, Any]]]
"""A game's row of the games table and its rows of the moves table, ``record_id``
not yet given (the writer numbers games in input order)."""
Piece = str | Rows
"""A game ready for its output: text (PDN, JSON, JSON Lines) or table rows (Parquet)."""


@dataclass(frozen=True, slots=True)
class Renderer:
    """What one output needs of each game, made where the game is read: a small
    picklable description of the output (its format and options)."""

    target: str
    """``pdn``, ``json``, ``jsonl`` or ``parquet``."""
    canonical: CanonicalOptions = field(default_factory=CanonicalOptions)
    moves: bool = False
    """Parquet: the moves table is written too."""
    with_record: bool = False
    """Parquet: the record column is filled."""

    def foreign(self, item: Exported) -> bool:
        """Whether *item* is PDN written for a program (``--for``) that does not play
        its variant, and so written as canonical PDN."""
        name = self.canonical.target
        if self.target != "pdn" or name is None:
            return False
        return target_form(item.game, item.resolution, name) is None

    def render(self, item: Exported) -> Piece:
        """The piece of *item* for this output."""
        if self.target == "pdn":
            return write_canonical(item.game, item.resolution, self.canonical)
        if self.target in ("json", "jsonl"):
            return dumps(game_dict(item.game, item.replay, item.resolution))
        return table_rows(
            item.game,
            item.replay,
            item.resolution,
            moves=self.moves,
            with_record=self.with_record,
        )


class Sink(Protocol):
    """A writer of one output format."""

    def put(self, piece: Piece) -> None:
        """Write one game rendered by this output's :class:`Renderer`."""

    def close(self) -> None:
        """Finish the output (closing brackets, footers); the stream stays open."""


class PdnSink:
    """Canonical PDN (rendered with the :class:`Renderer`'s options), games separated
    by a blank line.

    A game that ends inside a comment or a variation never closed (E01,
    :class:`~pdn_tools.export.canonical.OpenEnded`) is held until the next game
    comes: when that one does not begin with a tag line, which would end it, the held
    game is written in its closed form, so that the next game is not read as more of
    it (its text is kept, its E01 not).
    """

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.first = True
        self.held: OpenEnded | None = None

    def put(self, piece: Piece) -> None:
        """Write one game's canonical text."""
        assert isinstance(piece, str)
        held = self.held
        if held is not None:
            self.held = None
            self._write(held if ends_comment(piece.split("\n", 1)[0]) else held.closed)
        if isinstance(piece, OpenEnded):
            self.held = piece
        else:
            self._write(piece)

    def _write(self, text: str) -> None:
        if not self.first:
            self.stream.write("\n")
        self.first = False
        self.stream.write(text)

    def close(self) -> None:
        """Write the game held, if any."""
        if self.held is not None:
            held, self.held = self.held, None
            self._write(held)


class JsonSink:
    """A JSON array (``array=True``) or JSON Lines."""

    def __init__(self, stream: IO[str], array: bool) -> None:
        self.writer: JsonArrayWriter | JsonlWriter = (
            JsonArrayWriter(stream) if array else JsonlWriter(stream)
        )

    def put(self, piece: Piece) -> None:
        """Write one game object's text."""
        assert isinstance(piece, str)
        self.writer.write_text(piece)

    def close(self) -> None:
        """Close the array (JSON)."""
        self.writer.close()


class ParquetSink:
    """The games table, and the moves table when a path is given for it."""

    def __init__(
        self,
        target: str | IO[bytes],
        moves: str | IO[bytes] | None,
        *,
        with_record: bool = False,
        conversion: str | None = None,
    ) -> None:
        self.writer = ParquetWriter(target, moves, with_record=with_record, conversion=conversion)

    def put(self, piece: Piece) -> None:
        """Add one game's rows to the tables."""
        assert not isinstance(piece, str)
        self.writer.put(*piece)

    def close(self) -> None:
        """Flush the last row group and write the footers."""
        self.writer.close()


class DatasetSink:
    """A Hive-partitioned games dataset (and moves dataset), complete or not at all."""

    def __init__(
        self,
        root: str,
        partition_by: tuple[str, ...],
        moves: str | None,
        *,
        with_record: bool = False,
        conversion: str | None = None,
    ) -> None:
        self.writer = DatasetWriter(
            root, partition_by, moves, with_record=with_record, conversion=conversion
        )

    def put(self, piece: Piece) -> None:
        """Add one game's rows to the parts of its partition."""
        assert not isinstance(piece, str)
        self.writer.put(*piece)

    def close(self) -> None:
        """Finish the parts and rename them into place."""
        self.writer.close()

    def abort(self) -> None:
        """Remove the parts of this conversion (after a failure)."""
        self.writer.abort()


class RejectsSink:
    """Games with errors, verbatim as read (their source text), one after another.

    A game whose text was not kept (larger than the size limit) is written from its
    tree, which for such a game holds only what the reader could keep.
    """

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.first = True

    def write_text(self, text: str) -> None:
        """Write one game's text, separated from the previous one by a blank line."""
        self.write_pieces((text,))

    def write_pieces(self, pieces: Iterable[str]) -> None:
        """Write one game's text given in pieces, as :meth:`write_text` would write
        their concatenation (line ends before it and white space after it dropped),
        holding no more than a piece at a time."""
        started = False
        held = ""  # white space not yet known to be trailing
        for piece in pieces:
            if not started:
                piece = piece.lstrip("\r\n")
                if not piece:
                    continue
                if not self.first:
                    self.stream.write("\n")
                self.first = False
                started = True
            body = piece.rstrip()
            if body:
                self.stream.write(held + body)
                held = piece[len(body) :]
            else:
                held += piece
                if len(held) > _HELD_MAX:  # a run of blanks that long is kept as is
                    self.stream.write(held)
                    held = ""
        if not started:
            if not self.first:
                self.stream.write("\n")
            self.first = False
        self.stream.write("\n")

    def close(self) -> None:
        """Nothing to finish."""
