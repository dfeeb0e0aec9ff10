"""Cut one input into game slots without parsing, for checking in worker processes.

Scanning a file for game boundaries (:func:`pdn_tools.pdn.split.split_chunks`) costs a few
per cent of reading and replaying it, so the parent process scans a large file and
hands batches of chunks to workers, which build and replay the games
(:func:`pdn_tools.run.check.check_slots`).  This module keeps the reader's bookkeeping
(:func:`pdn_tools.pdn.reader.read_games`) so that every game gets the same number and the
same findings as when the file is read in one piece: both take their games from
:func:`pdn_tools.pdn.records.records`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.pdn.records import Outcome, Record, records
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import split_chunks


@dataclass(slots=True)
class SlotBatch:
    """Consecutive games of one file; ``weight`` is their share of the file, in bytes.

    ``empty_file`` holds the findings of a file without any game (then ``slots`` is
    empty and the batch is the file's last).
    """

    slots: list[Record] = field(default_factory=list)
    weight: int = 0
    empty_file: list[Issue] | None = None


def cut_batches(
    stream: BinaryIO, options: ReadOptions, batch_chars: int, size: int = 0
) -> Iterator[SlotBatch]:
    """The games of *stream* in batches of about *batch_chars* characters, in order.

    *size* (the file's size in bytes, 0 when unknown) is spread over the batches'
    weights so that progress can be shown in bytes.
    """
    decoding = Decoding()
    outcome = Outcome()
    chunks = split_chunks(
        read_pieces(stream, options.encoding, decoding, options.max_expansion),
        options.max_game_chars,
        options.max_depth,
    )
    batch = SlotBatch()
    chars = 0
    spent = 0
    for slot in records(chunks, decoding, outcome):
        batch.slots.append(slot)
        chars += len(slot.chunk.text or "")
        if chars >= batch_chars:
            batch.weight = min(chars, max(0, size - spent))
            spent += batch.weight
            yield batch
            batch, chars = SlotBatch(), 0
    if outcome.games == 0:
        batch.empty_file = outcome.issues
    batch.weight = max(0, size - spent)
    yield batch
