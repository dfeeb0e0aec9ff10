"""Cut one input into game slots without parsing, for checking in worker processes.

Scanning a file for game boundaries (:func:`pdn_tools.pdn.split.split_chunks`) costs a few
per cent of reading and replaying it, so the parent process scans a large file and
hands batches of chunks to workers, which build and replay the games
(:func:`pdn_tools.run.check.check_slots`).  This module keeps the reader's bookkeeping
(:func:`pdn_tools.pdn.reader.read_games`) so that every game gets the same number and the
same findings as when the file is read in one piece: games are numbered from 1, the
decoder's findings and text before the first game go to the first game, text after a
game goes to that game, and a file without games gets a file record (W35).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import split_chunks
from pdn_tools.run.check import Slot


@dataclass(slots=True)
class SlotBatch:
    """Consecutive games of one file; ``weight`` is their share of the file, in bytes.

    ``empty_file`` holds the findings of a file without any game (then ``slots`` is
    empty and the batch is the file's last).
    """

    slots: list[Slot] = field(default_factory=list)
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
    pending: list[Issue] = []  # findings before the first game
    held: Slot | None = None  # a game waits for the text after it, like the reader's
    batch = SlotBatch()
    chars = 0
    index = 0
    spent = 0
    for chunk in split_chunks(
        read_pieces(stream, options.encoding, decoding), options.max_game_chars, options.max_depth
    ):
        if not chunk.has_tags and not chunk.has_movetext and not chunk.oversize:
            leftovers = list(chunk.issues)
            if chunk.text and chunk.text.strip():
                leftovers.append(
                    Issue(
                        "W06", "comment or text after the last game", chunk.line, chunk.column + 1
                    )
                )
            if held is not None:
                held.after.extend(leftovers)
            else:
                pending.extend(leftovers)
            continue
        index += 1
        slot = Slot(index, chunk)
        found = decoding.take(max(chunk.end_line, chunk.line))
        if index == 1:
            slot.before = found + pending
            pending = []
        elif found:
            slot.before = found
        if held is not None:
            batch.slots.append(held)
            chars += len(held.chunk.text or "")
            if chars >= batch_chars:
                batch.weight = min(chars, max(0, size - spent))
                spent += batch.weight
                yield batch
                batch, chars = SlotBatch(), 0
        held = slot
    if held is not None:
        held.after.extend(decoding.take())
        batch.slots.append(held)
    else:
        empty = [] if decoding.binary else [Issue("W35", "file holds no game", 1, 1)]
        batch.empty_file = [*decoding.take(), *pending, *empty]
    batch.weight = max(0, size - spent)
    yield batch
