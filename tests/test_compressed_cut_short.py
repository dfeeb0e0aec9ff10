"""Compressed files cut short (a download or a copy that stopped): every byte the
decompressor gives before the damage is read — its games as usual, the last one as a
game cut short — and E14 says the rest is missing."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import ReadOptions, read_games
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.reader import FileReport
from pdn_tools.report.records import game_record
from pdn_tools.run.check import CheckOptions, check_file, check_slots
from pdn_tools.run.slots import cut_batches

_REPLIES = ["10-14", "9-14", "20-24", "20-25", "17-21"]


def collection(games: int) -> bytes:
    """*games* games, about 170 bytes each."""
    text = "".join(
        f'[Event "Round {n}"]\n[White "Player {n % 17}"]\n[Black "Player {n % 13}"]\n'
        f'[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 {_REPLIES[n % 5]} *\n\n'
        for n in range(games)
    )
    return text.encode()


COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda data: gzip.compress(data, mtime=0),
    "xz": lzma.compress,
    "bzip2": lambda data: bz2.compress(data, 1),  # blocks of 100 kB
}


def recovered(kind: str, prefix: bytes) -> bytes:
    """What a streaming decompressor gives of *prefix* before its data runs out."""
    decompressor: Any
    if kind == "gzip":
        decompressor = zlib.decompressobj(31)
    elif kind == "xz":
        decompressor = lzma.LZMADecompressor()
    else:
        decompressor = bz2.BZ2Decompressor()
    return bytes(decompressor.decompress(prefix))


def read(data: bytes) -> tuple[list[Game], FileReport]:
    report = FileReport("cut.pdn.gz")
    games = list(read_games(io.BytesIO(data), name="cut.pdn.gz", report=report))
    return games, report


def summary(games: list[Game]) -> list[tuple[Any, ...]]:
    """The games without the finding about the damage."""
    out = []
    for game in games:
        record = game_record(game)
        record["issues"] = [i for i in record["issues"] if i["code"] != "E14"]
        record["status"] = None  # the game that carries E14 has errors
        out.append((record, game.span, game.to_pdn()))
    return out


def check_cut(kind: str, data: bytes, size: int) -> tuple[list[Game], FileReport]:
    """Read *data* (compressed by *kind*) cut to *size* bytes, and check that its games
    are those of the text its decompressor gives, with one E14 and no W35."""
    prefix = data[:size]
    text = recovered(kind, prefix)
    games, report = read(prefix)
    reference, _ = read(text)
    assert summary(games) == summary(reference)
    assert report.games == len(reference)
    findings = [i for g in games for i in g.issues] + report.issues
    damaged = [i for i in findings if i.code == "E14"]
    assert len(damaged) == 1 and f"the {kind} data is damaged" in damaged[0].message
    assert "W35" not in {i.code for i in findings}
    if games:
        assert damaged[0] in games[-1].issues  # on the game cut short
    return games, report


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(["gzip", "xz"]), share=st.floats(0.02, 0.98))
def test_the_games_before_the_damage_are_read(kind: str, share: float) -> None:
    data = COMPRESS[kind](collection(400))
    games, _ = check_cut(kind, data, int(len(data) * share))
    if share > 0.2:  # every block decoded before the cut: no block held back
        assert len(games) > 400 * (share - 0.15)


def test_a_small_piece_of_a_gzip_file_gives_its_first_games() -> None:
    data = COMPRESS["gzip"](collection(400))
    games, report = check_cut("gzip", data, 2000)
    assert len(games) >= 5 and report.games == len(games)
    assert [g.tag("Event") for g in games[:5]] == [f"Round {n}" for n in range(5)]
    assert all(g.status == "ok" for g in games[:-1]) and games[-1].status == "error"


def test_a_bzip2_file_cut_after_its_first_blocks_gives_their_games() -> None:
    """bzip2 gives a block only when it is whole: a file cut within its first block
    gives no game (and no claim that it holds none), one cut later the games of the
    blocks before."""
    data = COMPRESS["bzip2"](collection(2000))
    games, report = check_cut("bzip2", data, len(data) // 4)
    assert games == [] and [i.code for i in report.issues] == ["E14"]
    games, _ = check_cut("bzip2", data, len(data) * 3 // 4)
    assert len(games) > 400


def test_parallel_batches_of_a_cut_file_match_the_reader(tmp_path: Any) -> None:
    """--jobs reads a compressed file cut short as one process does."""
    data = COMPRESS["xz"](collection(400))
    path = tmp_path / "cut.pdn.xz"
    path.write_bytes(data[: len(data) // 2])
    options = CheckOptions(ReadOptions())
    whole = [
        (c.record, [i.to_dict() for i in c.issues])
        for c in check_file(0, str(path), str(path), options)
    ]
    with open(path, "rb") as handle:
        batches = list(cut_batches(handle, options.read, 500))
    cut = [
        (c.record, [i.to_dict() for i in c.issues])
        for batch in batches
        for c in check_slots(0, str(path), batch.slots, options)
    ]
    assert len(batches) > 3 and cut == whole
    assert len(whole) > 100 and "E14" in {i["code"] for i in whole[-1][1]}
