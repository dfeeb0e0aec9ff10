"""One output file per group of games: ``pdn convert -o DIR --split-by KEY``.

A game's group is its event, the year of its date, its variant, each of its players
(a game goes to both players' files) or the input file it came from (its name as
reported, without ``.pdn`` and a compression ending: ``games/round1.pdn`` becomes
``games-round1``).  The group's value becomes a file name that is safe on every
common file system and the same on every run (:func:`file_stem`): lower case,
letters and digits of any script kept (with the marks that combine with them), every
other run of characters (dots and underscores too) one ``-``, none at either end, so
that a name is never hidden, ``.`` or ``..``, and never holds a second extension; a
missing or unknown value is ``_unknown``, which no value can give.  Values that
differ only in letter case, punctuation or spacing share a file.  A long name is cut
to 80 characters and 120 bytes and given a hash suffix of the whole name (so long
values that differ only in case or punctuation share a file too), so that one
hostile tag cannot make a name the file system refuses.

Every file is written through :meth:`pdn_tools.atomic.Outputs.file`: a temporary
beside it, renamed into place with the run's other outputs when the run completes.
However many groups there are, at most :data:`OPEN_FILES` temporaries are open at
once; the others are reopened (appending) when their next game comes.
"""

from __future__ import annotations

import io
import os
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from hashlib import blake2b
from typing import IO, TextIO, cast

from pdn_tools.atomic import OutputError, Outputs
from pdn_tools.export.sinks import Piece, Sink
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.tags import parse_date

SPLIT_KEYS = ("event", "year", "variant", "player", "file")
"""What ``--split-by`` can group games by."""
UNKNOWN = "_unknown"
"""The file stem of a group whose value is missing or unknown."""
OPEN_FILES = 32
"""Most group files open at once."""
_NAME_CHARS = 80
"""Longest file stem, in characters; a longer value is cut and given a hash suffix."""
_NAME_BYTES = 120
"""Longest file stem in bytes of UTF-8 (hash suffix included), so that every name —
with its extension, and as a temporary with its mark — stays well within the 255
bytes file systems allow, whatever script the value is written in."""
_ENDINGS = re.compile(r"(\.(pdn|json|jsonl|ndjson|txt))?(\.(gz|bz2|xz))?\Z", re.IGNORECASE)
"""The endings of an input's name left out of its group's file name."""
_DASHES = re.compile(r"-{2,}")
_RESERVED = frozenset(
    ["con", "prn", "aux", "nul", "conin", "conout"]
    + [f"{port}{n}" for port in ("com", "lpt") for n in "123456789\u00b9\u00b2\u00b3"]
)
"""Names Windows reserves for devices, whatever the extension."""


def _name_characters(text: str) -> str:
    """*text* with every character that is neither a letter, a digit nor a mark
    combined with one (the vowel signs of Indic scripts, accents left uncomposed)
    turned into ``-``."""
    out: list[str] = []
    kept = False
    for char in text:
        if char.isalnum() or (kept and unicodedata.category(char).startswith("M")):
            out.append(char)
            kept = True
        else:
            out.append("-")
            kept = False
    return "".join(out)


def file_stem(value: str | None) -> str:
    """The file name (without extension) of a group whose value is *value*."""
    if value is None:
        return UNKNOWN
    text = unicodedata.normalize("NFC", value).casefold()
    stem = _DASHES.sub("-", _name_characters(text)).strip("-")
    if not stem:
        return UNKNOWN
    if len(stem) > _NAME_CHARS or len(stem.encode("utf-8", "surrogatepass")) > _NAME_BYTES:
        # The hash of the whole name, not of the value, so that long values that
        # differ only in letter case or punctuation share a file as short ones do.
        digest = blake2b(stem.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
        stem = _cut(stem[:_NAME_CHARS], _NAME_BYTES - 1 - len(digest)).rstrip("-")
        stem = stem + "-" + digest
    if stem in _RESERVED:
        stem += "_"
    return stem


def _cut(text: str, budget: int) -> str:
    """The longest start of *text* whose UTF-8 takes at most *budget* bytes (never a
    part of a character)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= budget:
        return text
    return data[:budget].decode("utf-8", "ignore")


def group_stems(game: Game, by: str) -> tuple[str, ...]:
    """The file stems of *game*'s groups, each once, in order."""
    return tuple(dict.fromkeys(file_stem(v) for v in group_values(game, by)))


def group_values(game: Game, by: str) -> list[str | None]:
    """The values of *game* that *by* groups by (two for ``player``)."""
    if by == "event":
        return [game.tag("Event")]
    if by == "year":
        year = parse_date(game.tag("Date")).year
        return [str(year) if year is not None else None]
    if by == "variant":
        return [game.variant]
    if by == "player":
        return [game.tag("White"), game.tag("Black")]
    if by == "file":
        return [_ENDINGS.sub("", game.file) or game.file]
    raise ValueError(f"cannot split by {by!r}; choose from {', '.join(SPLIT_KEYS)}")


class _OpenFiles:
    """The group files open at the moment, least recently written first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: OrderedDict[str, TextIO] = OrderedDict()

    def get(self, path: str) -> TextIO:
        stream = self.open.pop(path, None)
        if stream is None:
            if len(self.open) >= self.limit:
                _, oldest = self.open.popitem(last=False)
                oldest.close()
            # Held open across calls and closed by close() or close_all(): no `with`.
            stream = open(  # noqa: SIM115
                path, "a", encoding="utf-8", errors="backslashreplace", newline="\n"
            )
        self.open[path] = stream
        return stream

    def close(self, path: str) -> None:
        stream = self.open.pop(path, None)
        if stream is not None:
            stream.close()

    def close_all(self, *, quietly: bool = False) -> None:
        while self.open:
            _, stream = self.open.popitem(last=False)
            try:
                stream.close()
            except OSError:
                if not quietly:
                    raise


class _GroupStream(io.TextIOBase):
    """A group file's text stream for its sink: opened (appending) when written to."""

    def __init__(self, files: _OpenFiles, temp: str, name: str) -> None:
        super().__init__()
        self.files = files
        self.temp = temp
        self.name_shown = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        try:
            return self.files.get(self.temp).write(text)
        except OutputError:
            raise
        except OSError as exc:
            raise OutputError(self.name_shown, exc.errno, exc.strerror or str(exc)) from None


class SplitSink:
    """Routes each game to the sinks of its groups' files (:func:`group_stems`, found
    where the game was read), each made when the group's first game comes (by *make*,
    from the file's stream)."""

    def __init__(
        self,
        folder: str,
        extension: str,
        outputs: Outputs,
        make: Callable[[IO[str]], Sink],
        *,
        check: Callable[[str], None] | None = None,
        open_files: int = OPEN_FILES,
    ) -> None:
        self.folder = folder
        self.extension = extension
        self.outputs = outputs
        self.make = make
        self.check = check
        """Called with each new file's path before it is opened (may refuse it)."""
        self.files = _OpenFiles(open_files)
        self.groups: dict[str, tuple[Sink, str]] = {}

    def _sink(self, stem: str) -> Sink:
        known = self.groups.get(stem)
        if known is not None:
            return known[0]
        path = os.path.join(self.folder, stem + self.extension)
        if self.check is not None:
            self.check(path)
        temp = self.outputs.file(path)
        sink = self.make(cast(IO[str], _GroupStream(self.files, temp, path)))
        self.groups[stem] = (sink, temp)
        return sink

    def put_in(self, piece: Piece, stems: tuple[str, ...]) -> None:
        """Write one game's rendered piece to the files of *stems*
        (:func:`group_stems`, found where the game was read)."""
        for stem in stems:
            self._sink(stem).put(piece)

    def close(self) -> None:
        """Finish every group's file (closing brackets) and close them all."""
        for sink, temp in self.groups.values():
            sink.close()
            self.files.close(temp)
        self.files.close_all()

    def abort(self) -> None:
        """Close the open files after a failure (the run's outputs are discarded)."""
        self.files.close_all(quietly=True)

    @property
    def written(self) -> int:
        """The files written (or being written)."""
        return len(self.groups)


__all__ = [
    "OPEN_FILES",
    "SPLIT_KEYS",
    "UNKNOWN",
    "SplitSink",
    "file_stem",
    "group_stems",
    "group_values",
]
