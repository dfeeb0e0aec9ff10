"""``--jobs``: checking in worker processes gives exactly the report of one process."""

from __future__ import annotations

import gc
import io
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import MIXED, run, run_bytes
from conftest import SAMPLES

from pdn_tools.pdn.model import ReadOptions
from pdn_tools.report.records import Checked
from pdn_tools.run.check import CheckOptions, check_file
from pdn_tools.run.parallel import Input, check_inputs, input_list, ordered_map, plan, run_unit
from pdn_tools.run.paths import expand

#: Files that stress the bookkeeping: text before the first game and after the last,
#: decoder findings, an empty file, comments only, a game cut by the next game's tags.
EDGE_CASES = {
    "before-after.pdn": '{intro}\n[Event "a"]\n1. 32-28 *\n{between}\n\n[Event "b"]\n'
    "1. 33-29 * junk after\n{trailing comment}\n",
    "bom.pdn": '\ufeff[Event "a"]\n1. 32-28 *\n[Event "b"]\n1. 31-27 *\n',
    "joined.pdn": '\ufeff[Event "a"]\n1. 32-28 *\n\ufeff[Event "b"]\n1. 31-27 *\ufeff[Event "c"]\n'
    "1. 33-29 *\n",
    "empty.pdn": "",
    "comments-only.pdn": "{nothing but a comment}\n",
    "unterminated.pdn": '[Event "a"]\n1. 32-28\n[Event "b"]\n1. 33-29 2-0\n',
    "mixed.pdn": MIXED,
    "oversize.pdn": '[Event "big"]\n1. 32-28 {' + "x" * 3000 + '} *\n[Event "next"]\n1. 32-28 *\n',
}


def _write_edge_cases(folder: Path) -> list[str]:
    for name, text in EDGE_CASES.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "latin1.pdn").write_bytes('[Event "Café"]\n1. 32-28 *\n'.encode("latin-1"))
    (folder / "nul.pdn").write_bytes(b'[Event "a"]\n1. 32-28\x00 *\n[Event "b"]\n1. 32-28 *\n')
    return sorted(expand((str(folder),)))


def _dicts(checked: list[Checked]) -> list[tuple[int, dict[str, object], list[dict[str, object]]]]:
    return [(c.file_no, c.record, [i.to_dict() for i in c.issues]) for c in checked]


@pytest.mark.parametrize(
    "options",
    [
        CheckOptions(),
        CheckOptions(ReadOptions(strict=True, max_game_chars=1000)),
        CheckOptions(ReadOptions(variant="international"), syntax_only=True),
    ],
    ids=["default", "strict-small-limit", "syntax-only"],
)
def test_batches_of_one_game_match_the_reader(tmp_path: Path, options: CheckOptions) -> None:
    """Every file cut into one-game batches gives the reader's games, numbers and findings."""
    paths = [*_write_edge_cases(tmp_path), *sorted(expand((str(SAMPLES),)))]
    inputs = input_list(paths, None)
    reference = [
        c
        for source in inputs
        for c in check_file(source.file_no, source.path, source.name, options)
    ]
    units = list(plan(inputs, options, split_bytes=0, batch_chars=1))
    assert len(units) > len(inputs)  # files were cut into several batches
    cut = [c for unit in units for c in run_unit(unit, options)[1]]
    assert _dicts(cut) == _dicts(reference)


def test_grouped_small_files_match_the_reader(tmp_path: Path) -> None:
    paths = _write_edge_cases(tmp_path)
    inputs = input_list(paths, None)
    options = CheckOptions()
    units = list(plan(inputs, options))
    assert len(units) == 1 and len(units[0]) == len(paths)  # small files go together
    reference = [c for s in inputs for c in check_file(s.file_no, s.path, s.name, options)]
    assert _dicts(run_unit(units[0], options)[1]) == _dicts(reference)


def test_worker_processes_keep_input_order(tmp_path: Path) -> None:
    paths = _write_edge_cases(tmp_path)
    inputs = input_list(paths, None)
    options = CheckOptions()
    serial = [c for _, batch in check_inputs(inputs, options, 1) for c in batch]
    parallel = [
        c
        for _, batch in check_inputs(inputs, options, 2, split_bytes=0, batch_chars=1)
        for c in batch
    ]
    assert _dicts(parallel) == _dicts(serial)


def test_stdin_in_batches(tmp_path: Path) -> None:
    text = (MIXED + "\n") * 30
    options = CheckOptions()
    source = [Input(0, "-", "piped.pdn")]
    serial = [c for _, b in check_inputs(source, options, 1, io.BytesIO(text.encode())) for c in b]
    parallel = [
        c
        for _, b in check_inputs(
            source, options, 2, io.BytesIO(text.encode()), split_bytes=0, batch_chars=200
        )
        for c in b
    ]
    assert len(serial) == 60
    assert _dicts(parallel) == _dicts(serial)


def test_jobs_two_equals_jobs_one_on_the_samples() -> None:
    for fmt in ("text", "jsonl", "sarif", "junit"):
        one = run_bytes("validate", str(SAMPLES), "--format", fmt, "--jobs", "1")
        two = run_bytes("validate", str(SAMPLES), "--format", fmt, "--jobs", "2")
        assert one.returncode == two.returncode == 1
        assert one.stdout == two.stdout, fmt
        assert one.stderr == two.stderr


def test_stdin_parallel_end_to_end() -> None:
    text = ((MIXED + "\n") * 400).encode()
    one = run(
        "validate", "-", "--stdin-filename", "p.pdn", "-j", "1", "--format", "jsonl", stdin=text
    )
    two = run(
        "validate", "-", "--stdin-filename", "p.pdn", "-j", "2", "--format", "jsonl", stdin=text
    )
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert len(one.stdout.splitlines()) == 800


def test_jobs_two_is_byte_identical_on_the_shared_corpus(corpus: Path) -> None:
    """Real files, including ones large enough to be cut into batches (Robin04-GH)."""
    folders = [
        corpus / name
        for name in (
            "Robin04-GH__Checkers",
            "Yodachess__BrunoGUI_Dames",
            "wiegerw__pdn",
            "miskibin__py-draughts",
            "eygilbert__CheckerBoard",
        )
    ]
    args = ["validate", *map(str, folders), "--format", "jsonl", "--syntax-only"]
    one = run_bytes(*args, "--jobs", "1")
    two = run_bytes(*args, "--jobs", "2")
    assert one.returncode == two.returncode
    assert one.stdout == two.stdout
    assert one.stdout.count(b"\n") > 5000
    # With replay, on the 10x10 files.
    replay = ["validate", str(corpus / "Yodachess__BrunoGUI_Dames"), "--format", "text"]
    one = run_bytes(*replay, "--jobs", "1")
    two = run_bytes(*replay, "--jobs", "2")
    assert (one.stdout, one.stderr, one.returncode) == (two.stdout, two.stderr, two.returncode)


def _square_plus(n: int, offset: int) -> int:
    return n * n + offset


def test_ordered_map_keeps_order_and_raises_in_turn() -> None:
    assert list(ordered_map(_square_plus, range(50), 2, 1)) == [n * n + 1 for n in range(50)]
    assert list(ordered_map(_square_plus, [3], 2, 0)) == [9]  # one item: no processes

    def failing(count: int) -> Iterator[int]:
        yield from range(count)
        raise OSError("unreadable")

    for count in (0, 1, 2, 9):
        got: list[int] = []
        with pytest.raises(OSError, match="unreadable"):
            for value in ordered_map(_square_plus, failing(count), 2, 0):
                got.append(value)
        assert got == [n * n for n in range(count)]


def test_ordered_map_leaves_the_garbage_collector_as_it_found_it() -> None:
    """The objects frozen while the workers run (shared with them page by page) are
    unfrozen when the pool is done: after all results, after an early stop of the
    consumer, and after an error."""
    assert gc.get_freeze_count() == 0
    assert list(ordered_map(_square_plus, range(20), 2, 0)) == [n * n for n in range(20)]
    assert gc.get_freeze_count() == 0
    results = ordered_map(_square_plus, range(20), 2, 0)
    assert next(results) == 0
    assert gc.get_freeze_count() > 0  # while the workers run
    results.close()
    assert gc.get_freeze_count() == 0

    def failing() -> Iterator[int]:
        yield from range(5)
        raise OSError("unreadable")

    with pytest.raises(OSError):
        list(ordered_map(_square_plus, failing(), 2, 0))
    assert gc.get_freeze_count() == 0


def _blocked_stop_signals(item: int, context: int) -> tuple[int, list[str]]:
    """The stop signals this process holds back (in a worker: none may be)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    return item, [name for name in names if getattr(signal, name) in held]


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_the_pool_starts_with_the_stop_signals_held_and_its_workers_let_them_through() -> None:
    """The first unit starts the workers and the thread that feeds and ends them with
    SIGINT, SIGTERM and SIGHUP held back, so that a signal cannot come between the two
    (workers no thread would end, joined for ever at exit); the workers, forked
    meanwhile, let the signals through again (SIGTERM must end them), and so does this
    process once the pool has started."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    results = ordered_map(_blocked_stop_signals, range(8), 2, 0)
    seen = list(results)
    assert [item for item, _ in seen] == list(range(8))
    assert all(held == [] for _, held in seen), seen
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before


_STUCK_WORKERS = """
import signal, sys, time
from pdn_tools.run import parallel

def slow(item, context):
    if context and item:  # a worker that outlives SIGTERM, as one still holding it would
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(item)
    return item

parallel.EXIT_GRACE = 0.5
results = parallel.ordered_map(slow, [0, 0, 60, 60, 60, 60], 2, int(sys.argv[1]))
assert [next(results), next(results)] == [0, 0]
workers = list(parallel._WORKERS)
assert len(workers) == 2 and all(w.is_alive() for w in workers)
started = time.monotonic()
parallel._end_workers_at_exit()
print(len(workers), sum(w.is_alive() for w in workers), round(time.monotonic() - started))
sys.stdout.flush()
"""


@pytest.mark.parametrize("deaf", [False, True], ids=["terminated", "killed"])
def test_workers_still_alive_at_the_exit_are_ended_after_a_grace(deaf: bool) -> None:
    """The exit's own handler ends the workers a stopped pool left running (here: two
    units of a minute in flight) after :data:`EXIT_GRACE`, instead of joining them for
    ever, and kills (and reaps) those that outlive the SIGTERM; the process then exits
    at once: a few seconds for all the workers together, not for each in turn."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _STUCK_WORKERS, str(int(deaf))],
        capture_output=True,
        text=True,
        timeout=40,
        check=False,
    )
    workers, alive, seconds = (int(n) for n in done.stdout.split())
    assert (workers, alive) == (2, 0), done.stdout + done.stderr
    assert seconds < 5  # the grace and the terminate, not the minute the units take
    assert done.returncode == 0, done.stderr


def test_one_process_hands_a_large_file_on_in_pieces(tmp_path: Path) -> None:
    """--jobs 1 yields a file's games a few hundred at a time (memory stays flat), the
    file's bytes counted with its last piece, and the same records as check_file."""
    from pdn_tools.run.parallel import STREAM_GAMES

    path = tmp_path / "many.pdn"
    path.write_text('[Event "a"]\n1. 32-28 *\n\n' * (2 * STREAM_GAMES + 5), encoding="utf-8")
    source = Input(0, str(path), "many.pdn")
    pieces = list(check_inputs([source], CheckOptions(), 1))
    assert [len(games) for _, games in pieces] == [STREAM_GAMES, STREAM_GAMES, 5]
    assert [weight for weight, _ in pieces] == [0, 0, source.size]
    streamed = [c.record for _, games in pieces for c in games]
    assert streamed == [c.record for c in check_file(0, str(path), "many.pdn", CheckOptions())]
