"""What the fuzzers feed with arbitrary bytes: the reader (and the writers after it),
the FEN parser, the configuration loader, the archive layer and the reader of JSON
games.

Each target takes one input and returns normally for every input the product handles
as promised: a finding, a clean error of the documented kind, an exit status 0, 1 or
2.  Anything else it lets through — an exception that would reach the user as a
traceback — is a failure the fuzzer reports with the input (docs/security.md).
``tests/fuzz/fuzz.py`` drives them with atheris (coverage-guided) or, without it,
with random mutations of the stored inputs; ``test_fuzz_corpus.py`` runs every stored
input through them in the ordinary test suite.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import json
import lzma
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from pdn_tools.cli import main as command_line
from pdn_tools.export.canonical import write_canonical
from pdn_tools.export.jsonfmt import game_dict
from pdn_tools.export.parquet import ParquetWriter
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.pdn.reader import FileReport, read_games
from pdn_tools.replay import check_game, replay_game
from pdn_tools.replay.options import ReplayOptions
from pdn_tools.replay.resolve import resolve
from pdn_tools.rules import FenError, parse_fen, variant_by_name
from pdn_tools.run.discover import Discovery, InputError

#: Small limits, so that one input cannot take the fuzzer's time (the limits are
#: part of what is tested: a game over them must be a finding, not a failure).
_READ = ReadOptions(max_game_chars=20_000, max_depth=20)
_VARIANTS = [variant_by_name(name) for name in ("international", "english", "russian", "turkish")]


def reader(data: bytes) -> None:
    """Read and replay every game of *data* as a file, and write each as the outputs
    do (canonical PDN, the JSON object, the Parquet games and moves tables with the
    record): findings only, never an exception."""
    report = FileReport("fuzz.pdn")
    tables = ParquetWriter(io.BytesIO(), io.BytesIO(), with_record=True)
    for game in read_games(io.BytesIO(data), _READ, name="fuzz.pdn", report=report):
        check_game(game, ReplayOptions())
        replay = replay_game(game)
        resolution = resolve(game, replay)
        write_canonical(game, resolution)
        record = game_dict(game, replay, resolution)
        json.dumps(record)
        tables.write(game, replay, resolution, record)
    tables.close()


def fen(data: bytes) -> None:
    """Parse *data* as a FEN in several variants: a position or a :class:`FenError`."""
    text = data.decode("utf-8", "replace")
    for variant in _VARIANTS:
        with contextlib.suppress(FenError):
            parse_fen(text, variant)


def _run_command(args: list[str]) -> None:
    """Run the command line in this process; exit status 0, 1 or 2 and nothing else."""
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            command_line.main(args, prog_name="pdn")
    except SystemExit as exc:
        if exc.code not in (0, 1, 2):
            raise AssertionError(f"exit status {exc.code!r}: {sink.getvalue()[-500:]}") from None
        if "Traceback" in sink.getvalue():
            raise AssertionError(sink.getvalue()[-2000:]) from None
        if exc.code == 2 and "--help')" in sink.getvalue():
            # A usage error: the target's own arguments were refused, so the input
            # was never tried (what it can cause is a finding or a clean refusal).
            raise AssertionError(f"usage error: {sink.getvalue()[-500:]}") from None
        return
    raise AssertionError("the command returned without an exit status")


def config(data: bytes) -> None:
    """Take *data* as the ``pdn.toml`` of a folder and validate the folder: the
    settings apply, or the run ends with one line and exit status 2."""
    with tempfile.TemporaryDirectory(prefix="pdn-fuzz-") as folder:
        base = Path(folder)
        (base / "pdn.toml").write_bytes(data)
        (base / "game.pdn").write_text('[Event "x"]\n1. 32-28 19-23 *\n', encoding="utf-8")
        _run_command(["validate", "--quiet", "--jobs", "1", str(base)])


def _wrapped(data: bytes) -> list[tuple[str, bytes]]:
    """*data* as the contents of each kind of archive file the reader opens."""
    out = [("fuzz.zip", data)]
    if data[:2] == b"PK":  # a zip already: also read as a member list as it is
        return out
    out.append(("fuzz.pdn.gz", gzip.compress(data, 1)))
    out.append(("fuzz.pdn.bz2", bz2.compress(data, 1)))
    out.append(("fuzz.pdn.xz", lzma.compress(data, preset=0)))
    out.append(("raw.pdn.gz", data))  # damaged compressed data
    return out


def archive(data: bytes) -> None:
    """Take *data* as a zip archive (and as compressed files) inside a folder and
    read everything found there: findings (E14, E11, E12) or an input error, never
    an exception."""
    with tempfile.TemporaryDirectory(prefix="pdn-fuzz-") as folder:
        for name, content in _wrapped(data):
            path = os.path.join(folder, name)
            with open(path, "wb") as handle:
                handle.write(content)
        finder = Discovery()
        try:
            found = list(finder.files((folder,)))
        except InputError:
            return
        for entry in found:
            if entry.problem is not None:
                continue
            try:
                for game in read_games(entry.path, _READ, name=entry.name):
                    check_game(game, ReplayOptions())
            except OSError:
                continue  # a member that cannot be extracted: reported as E14 by the runs


def json_input(data: bytes) -> None:
    """Take *data* as a JSON Lines file and as a JSON file of games and convert each to
    PDN and to Parquet: the games written, or the file refused in one line (exit
    status 2), never an exception."""
    with tempfile.TemporaryDirectory(prefix="pdn-fuzz-") as folder:
        base = Path(folder)
        for name in ("games.jsonl", "games.json"):
            source = base / name
            source.write_bytes(data)
            for output in ("out.pdn", "out.parquet"):
                target = base / f"{name}-{output}"
                _run_command(["convert", "--jobs", "1", str(source), "-o", str(target)])


TARGETS: dict[str, Callable[[bytes], None]] = {
    "reader": reader,
    "fen": fen,
    "config": config,
    "archive": archive,
    "json": json_input,
}
"""The fuzz targets by name (also the names of their folders under ``corpus/``)."""

CORPUS = Path(__file__).resolve().parent / "corpus"
"""The inputs kept: seeds written by hand and inputs the fuzzers found."""
