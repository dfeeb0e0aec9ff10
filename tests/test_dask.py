"""``--dask``: checking on a Dask cluster gives exactly the report of ``--jobs 1``.

A real ``dask scheduler`` and two ``dask worker`` processes run on 127.0.0.1 (free
ports, no dashboard, every process group killed at the end, every wait bounded), and
a ``LocalCluster``; the workers read the files themselves.  Inputs: the samples in
``corpus/`` and a file of generated games and samples large enough to be cut into
several units, or into many through the API's unit size.
"""

from __future__ import annotations

import io
import logging
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Generator, Iterable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from cli_helpers import one_clean_line, run_bytes
from conftest import REPO, SAMPLES

pytest.importorskip("distributed", reason="the dask extra is not installed")

from cluster_helpers import BOUND, bounded, dask_processes
from distributed import Client, LocalCluster

from pdn_tools.analysis.annotate import AnalysisOptions
from pdn_tools.analysis.engines import EngineChoice
from pdn_tools.analysis.plausibility import PlausibilityOptions
from pdn_tools.atomic import Outputs
from pdn_tools.collection.events.results import Choose
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.diagnostics import Severity
from pdn_tools.export.sinks import ParquetSink, Renderer
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.report.base import Totals, game_report
from pdn_tools.report.formats import FORMATS, make_reporter
from pdn_tools.report.records import Checked
from pdn_tools.report.selection import Selection
from pdn_tools.run import cluster
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.cluster_convert import converted_on_cluster
from pdn_tools.run.convert import Conversion, ConvertOptions, Part, convert_inputs
from pdn_tools.run.events import EventGathering
from pdn_tools.run.parallel import IN_FLIGHT, check_inputs
from pdn_tools.run.stages import StageOptions
from pdn_tools.run.storage import expand, find
from pdn_tools.run.units import Input, input_list

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_games import generate

# One cluster at a time, in one test worker (each starts a scheduler and workers).
pytestmark = pytest.mark.xdist_group("cluster")


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with dask_processes(2, tmp_path_factory.mktemp("dask-logs")) as (address, _):
        yield address


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated legal games and every sample file, repeated past 1 MB (the size from
    which ``--dask`` cuts a file into spans)."""
    folder = tmp_path_factory.mktemp("big")
    generated = folder / "generated.pdn"
    generate(150, 7, generated)
    samples = b"".join(p.read_bytes() + b"\n" for p in sorted(SAMPLES.rglob("*.pdn")))
    block = generated.read_bytes() + samples
    path = folder / "big.pdn"
    copies = (cluster.SPLIT_BYTES + 100_000) // len(block) + 1
    path.write_bytes(block * copies)
    return path


def render(checked: Iterable[Checked], fmt: str, files: int) -> str:
    """A report as ``pdn validate --format FMT`` writes it on stdout."""
    out = io.StringIO()
    reporter = make_reporter(fmt, out)
    totals = Totals(files=files)
    for item in checked:
        game = game_report(item, Selection(), Severity.ERROR)
        totals.add(game)
        reporter.add(game)
    reporter.close(totals)
    return out.getvalue()


def inputs_of(*paths: str) -> list[Input]:
    return input_list(list(expand(paths)), None)


def reference(inputs: list[Input], options: CheckOptions) -> list[Checked]:
    return [c for _, batch in check_inputs(inputs, options, 1) for c in batch]


def test_cli_on_a_scheduler_equals_jobs_one(scheduler: str, big_file: Path) -> None:
    for paths in ((str(SAMPLES),), (str(big_file), str(SAMPLES / "clean"))):
        for fmt in ("jsonl", "sarif"):
            one = run_bytes("validate", *paths, "--format", fmt, "--jobs", "1")
            dask = run_bytes("validate", *paths, "--format", fmt, "--dask", scheduler)
            assert dask.returncode == one.returncode == 1, dask.stderr
            assert dask.stdout == one.stdout, (paths, fmt)
            assert b"Traceback" not in dask.stderr


def test_cli_on_a_local_cluster_equals_jobs_one(big_file: Path, tmp_path: Path) -> None:
    paths = (str(SAMPLES), str(big_file))
    one = run_bytes("validate", *paths, "--format", "sarif", "--jobs", "1")
    # The cluster's scratch files (Dask's lock files and working directories, in
    # dask-scratch-space under the temporary folder by default) go with it.
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    local = run_bytes("validate", *paths, "--format", "sarif", "--dask", "local:2", env=env)
    assert local.returncode == one.returncode == 1, local.stderr
    assert local.stdout == one.stdout
    assert local.stderr == one.stderr == b"", local.stderr.decode()
    assert list(temp.iterdir()) == []


def test_many_units_on_a_scheduler(scheduler: str, big_file: Path) -> None:
    """Every file cut into spans of a few games: the reports are the same, and so is
    the bag of records of the Python API."""
    inputs = inputs_of(str(SAMPLES), str(big_file))
    options = CheckOptions()
    expected = reference(inputs, options)

    def on_cluster() -> tuple[list[Checked], list[dict[str, Any]], int]:
        with Client(scheduler, timeout=BOUND) as client:
            checked: list[Checked] = []
            held = 0  # the most futures the client held at once: units and scans
            for _, batch in cluster.check_on_cluster(
                client, inputs, options, split_bytes=0, span_chars=4000
            ):
                checked.extend(batch)
                held = max(held, len(client.futures))
            threads = sum(client.nthreads().values())
            assert 0 < held <= threads * IN_FLIGHT + threads  # bounded, however many units
            bag = cluster.record_bag(
                [str(SAMPLES), str(big_file)], options, split_bytes=0, span_chars=20_000
            )
            return checked, bag.compute(), bag.npartitions

    checked, records, partitions = bounded(on_cluster)
    for fmt in ("jsonl", "sarif"):
        assert render(checked, fmt, len(inputs)) == render(expected, fmt, len(inputs)), fmt
    lines = render(expected, "jsonl", len(inputs)).splitlines()
    assert [game_report(c, Selection(), Severity.ERROR).record for c in expected] == records
    assert len(records) == len(lines)
    assert partitions > len(inputs) + 20  # the large file was cut into many units


def test_events_are_reduced_on_the_cluster(scheduler: str, big_file: Path) -> None:
    """The facts of the games stay on the cluster (the checked games come back without
    them), every part is reduced there, and the findings, summaries and crosstables
    are those of one process, in the same order, however many units."""
    inputs = inputs_of(str(SAMPLES), str(big_file))
    rules = EventRules()
    tables = Choose(players=2, games=2)
    local = EventGathering(rules, tables=tables)
    for checked in reference(inputs, CheckOptions(events=rules)):
        local.add(checked)
    expected = local.assess()
    results = expected.results
    assert sum(len(r.findings) for r in results) > 20 and any(r.table for r in results)
    assert all(r.summary is not None for r in results if r.event) and expected.events > 5

    def on_cluster() -> tuple[list[Checked], EventGathering]:
        gathering = EventGathering(rules, tables=tables)
        with Client(scheduler, timeout=BOUND) as client:
            results = cluster.check_on_cluster(
                client,
                inputs,
                CheckOptions(events=rules),
                split_bytes=0,
                span_chars=20_000,
                events=gathering,
            )
            checked = [c for _, batch in results for c in batch]
        return checked, gathering

    checked, gathering = bounded(on_cluster)
    assert all(c.facts is None for c in checked)  # the facts never left the cluster
    assert gathering.results is not None
    assert gathering.assess() == expected


def test_every_format_on_a_scheduler(scheduler: str) -> None:
    """With the HTML report's details too: every format is the same as one process's."""
    inputs = inputs_of(str(SAMPLES))
    options = CheckOptions(detail=True)
    expected = reference(inputs, options)

    def on_cluster() -> list[Checked]:
        with Client(scheduler, timeout=BOUND) as client:
            results = cluster.check_on_cluster(
                client, inputs, options, split_bytes=0, span_chars=1, group_bytes=0
            )
            return [c for _, batch in results for c in batch]

    checked = bounded(on_cluster)
    assert any(c.detail is not None for c in checked)
    for fmt in FORMATS:
        assert render(checked, fmt, len(inputs)) == render(expected, fmt, len(inputs)), fmt


def test_a_worker_killed_mid_run(scheduler: str, big_file: Path) -> None:
    """SIGKILL to a worker with units in flight: the scheduler runs them again and the
    output is complete and identical (no game lost, none doubled)."""
    inputs = inputs_of(str(big_file))
    options = CheckOptions()
    expected = reference(inputs, options)

    def run_and_kill() -> tuple[list[Checked], int]:
        with Client(scheduler, timeout=BOUND) as client:
            pids: dict[str, int] = client.run(os.getpid)
            results = cluster.check_on_cluster(
                client, inputs, options, split_bytes=0, span_chars=6000
            )
            checked: list[Checked] = []
            killed = 0
            with closing(results):
                for n, (_, batch) in enumerate(results):
                    checked.extend(batch)
                    if n >= 2 and not killed:  # the first worker seen with units in hand
                        processing = client.processing().items()
                        busy = [w for w, keys in processing if keys and w in pids]
                        if busy:
                            killed = pids[busy[0]]
                            os.kill(killed, signal.SIGKILL)
            return checked, killed

    checked, killed = bounded(run_and_kill)
    assert killed
    with pytest.raises(ProcessLookupError):
        os.kill(killed, 0)
    assert [c.game for c in checked] == list(range(1, len(expected) + 1))
    assert render(checked, "jsonl", 1) == render(expected, "jsonl", 1)


def test_a_unit_that_fails_reports_e16(scheduler: str, tmp_path: Path) -> None:
    """A file that changes between its scan and the reading of its units: the units
    report E16 (naming the games and lines), the others their games."""
    path = tmp_path / "moving.pdn"
    path.write_text("".join(f'[Event "g{n}"]\n1. 32-28 19-23 *\n\n' for n in range(60)))
    source = inputs_of(str(path))[0]
    options = CheckOptions()
    spans = cluster.scan_file(source, options.read, 200, source.size)
    assert len(spans) > 5
    path.write_text("\n" + path.read_text()[:-1])  # same size, every line a byte later

    def run() -> list[tuple[int, list[Checked]]]:
        with Client(scheduler, timeout=BOUND) as client:
            futures = client.map(cluster.run_unit_reported, [[s] for s in spans], options=options)
            return list(client.gather(futures))

    results = bounded(run)
    for span, (weight, checked) in zip(spans, results, strict=True):
        assert weight == span.weight
        [record] = checked
        [issue] = record.issues
        assert issue.code == "E16" and issue.line == span.line
        assert f"games from number {span.games_before + 1} at line {span.line}" in issue.message
        assert "changed since it was scanned" in issue.message
    assert render([c for _, b in results for c in b], "jsonl", 1).count('"E16"') == len(spans)


def test_a_large_file_is_checked_while_its_scan_goes_on(scheduler: str, big_file: Path) -> None:
    """The scan of a large file comes in parts: when its first games are checked, the
    next part of the scan is still held, and the games are those of ``--jobs 1``."""
    inputs = inputs_of(str(big_file))
    options = CheckOptions()
    expected = reference(inputs, options)

    def on_cluster() -> tuple[list[Checked], list[bool]]:
        with Client(scheduler, timeout=BOUND) as client:
            checked: list[Checked] = []
            scanning: list[bool] = []
            for _, batch in cluster.check_on_cluster(client, inputs, options, span_chars=4000):
                checked.extend(batch)
                scanning.append(any("scan_part" in str(key) for key in client.futures))
            return checked, scanning

    checked, scanning = bounded(on_cluster)
    assert render(checked, "jsonl", 1) == render(expected, "jsonl", 1)
    assert scanning[0] and not scanning[-1]  # checked while scanned; the scan ends first


def test_a_part_of_a_scan_that_fails_reports_e16_for_the_rest(tmp_path: Path) -> None:
    """A part of a scan that fails (here: the file changed after the part before it)
    reports E16 for the games from where that part began to the end of the file."""
    path = tmp_path / "growing.pdn"
    path.write_text("".join(f'[Event "g{n}"]\n1. 32-28 19-23 *\n\n' for n in range(60)))
    source = inputs_of(str(path))[0]
    options = CheckOptions()
    part = cluster.scan_part_reported(source, options.read, 200, source.size, None, 2)
    assert not isinstance(part, str)
    spans, go_on = part
    assert go_on is not None and len(spans) == 2
    path.write_text("\n" + path.read_text()[:-1])  # every line a byte later
    os.utime(path, ns=(1, 1))
    reason = cluster.scan_part_reported(source, options.read, 200, source.size, go_on, 4)
    assert isinstance(reason, str) and "changed while it was scanned" in reason
    scan = cluster._Scan(source, source.size)
    failed = cluster.ScanFailed(source, source.size, reason, cluster._rest_of(scan, go_on))
    weight, [record] = cluster._scan_failed(failed)
    [issue] = record.issues
    assert issue.code == "E16" and issue.line == go_on.begin.line
    games = go_on.begin.games_before + 1
    assert issue.message.startswith(
        f"games from number {games} at line {go_on.begin.line} to the end of the file "
        "not checked: scan failed: "
    )
    assert weight == source.size - go_on.begin.start


def test_a_wait_ended_by_ctrl_c_leaves_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """The clients the command connects hand Dask's internal end of a wait (what its
    watcher tasks raise when Ctrl-C stopped the command mid-wait and the keys were
    released) to no one, and every other report of their event loop to asyncio as
    before."""
    from distributed.client import AllExit

    def run() -> None:
        with cluster.connect("local:1") as client:
            loop = client.loop.asyncio_loop
            loop.call_exception_handler(
                {"message": "Task exception was never retrieved", "exception": AllExit()}
            )
            loop.call_exception_handler(
                {"message": "something else went wrong", "exception": ValueError("kept")}
            )

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        bounded(run)
    reports = [r for r in caplog.records if r.name == "asyncio"]
    assert [r.getMessage() for r in reports] == ["something else went wrong"]
    assert reports[0].exc_info is not None and str(reports[0].exc_info[1]) == "kept"


def test_memory_urls_through_the_api() -> None:
    """``memory://`` is one process's storage, so its workers are threads of this
    process (a LocalCluster without processes): the bag of records reads the same
    games from it as from the files, cut into spans through fsspec's file objects."""
    import fsspec

    fs = fsspec.filesystem("memory")
    sources = sorted(SAMPLES.rglob("*.pdn"))
    for path in sources:
        with fs.open(f"/pdn-test/{path.relative_to(SAMPLES).as_posix()}", "wb") as handle:
            handle.write(path.read_bytes())
    options = CheckOptions()
    try:

        def on_threads() -> list[dict[str, Any]]:
            with (
                LocalCluster(
                    n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
                ) as local,
                Client(local) as client,
            ):
                assert client.run(os.getpid) == {w: os.getpid() for w in client.nthreads()}
                bag = cluster.record_bag(
                    ["memory://pdn-test/"], options, split_bytes=0, span_chars=1
                )
                records: list[dict[str, Any]] = bag.compute()
                return records

        records = bounded(on_threads)
    finally:
        fs.rm("/pdn-test", recursive=True)
    local = reference(input_list([str(p) for p in sources], None), options)
    assert len(records) == len(local) > len(sources)
    for got, want in zip(records, local, strict=True):
        name = f"memory:///pdn-test/{Path(want.file).relative_to(SAMPLES).as_posix()}"
        expected = game_report(want, Selection(), Severity.ERROR).record
        assert got == {**expected, "file": name}


def test_without_dask_the_option_says_how_to_install(tmp_path: Path) -> None:
    hide = (
        "import sys; sys.modules['dask'] = None; sys.modules['distributed'] = None; "
        "from pdn_tools.cli import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide, "validate", str(SAMPLES), "--dask", "local"],
        capture_output=True,
        text=True,
        timeout=BOUND,
        check=False,
    )
    assert done.returncode == 2
    line = one_clean_line(done.stderr)
    assert line == "pdn validate: --dask needs Dask: pip install 'pdn-tools[dask]'"
    assert done.stdout == ""
    without = subprocess.run(
        [sys.executable, "-c", hide, "validate", str(SAMPLES), "-q", "--format", "jsonl"],
        capture_output=True,
        timeout=BOUND,
        check=False,
    )
    assert without.returncode == 1 and without.stdout.count(b"\n") > 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-", "--dask", "local"], "standard input cannot be read by the workers"),
        (["corpus", "--dask", "local", "-j", "2"], "--jobs and --dask exclude each other"),
        (["corpus", "--dask", "nowhere"], "not a scheduler address"),
        (["s3://bucket/games.pdn", "--dask", "local"], "s3://bucket/games.pdn: "),
        (["memory://nothing/*.pdn"], "memory://nothing/*.pdn: no such file or directory"),
    ],
)
def test_cluster_usage_errors(args: list[str], message: str) -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pdn_tools", "validate", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=BOUND,
        check=False,
    )
    assert done.returncode == 2
    assert message in one_clean_line(done.stderr)
    assert time.monotonic() - started < BOUND


def test_a_scheduler_without_workers_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the wait for workers cut short; reaching the scheduler keeps its own wait
    monkeypatch.setattr(cluster, "WORKERS_TIMEOUT", 2)
    with dask_processes(0, tmp_path) as (address, _):

        def connect() -> None:
            with cluster.connect(address):
                pytest.fail("connected to a cluster without workers")

        words = r"no worker joined the Dask scheduler .* within 2 s"
        with pytest.raises(cluster.ClusterError, match=words):
            bounded(connect)


# ``pdn convert --dask``: the workers write the parts of a dataset.


def dataset_rows(root: Path) -> list[dict[str, Any]]:
    """Every row of a (Hive-partitioned) Parquet dataset, ``record_id`` left out (each
    run, and on a cluster each unit, numbers its own): games in input order (file,
    game), plies in a fixed order (as a multiset: the moves table names no file)."""
    import pyarrow.dataset as ds

    table = ds.dataset(root, format="parquet", partitioning="hive").to_table()
    rows = [{k: v for k, v in row.items() if k != "record_id"} for row in table.to_pylist()]
    if rows and "file" in rows[0]:
        return sorted(rows, key=lambda r: (r["file"], r["game"]))
    return sorted(rows, key=repr)


def record_ids(games: Path, moves: Path) -> None:
    """``record_id`` is unique in the games table and every move's is a game's."""
    import pyarrow.dataset as ds

    ids = ds.dataset(games, partitioning="hive").to_table(columns=["record_id"])
    known = ids.column("record_id").to_pylist()
    assert len(set(known)) == len(known)
    plies = ds.dataset(moves, partitioning="hive").to_table(columns=["record_id"])
    assert set(plies.column("record_id").to_pylist()) <= set(known)


def leftovers(*roots: Path) -> list[Path]:
    """Hidden temporary parts left in the output directories."""
    return [p for root in roots if root.exists() for p in root.rglob(".part-*")]


def local_dataset(tmp_path: Path, *paths: str) -> tuple[Path, Path, bytes, bytes]:
    """``pdn convert --jobs 1`` into a dataset partitioned by variant, with the moves
    table and rejects: the two roots, the rejects file and the counts line."""
    games, moves, rejects = tmp_path / "g1", tmp_path / "m1", tmp_path / "r1.pdn"
    done = run_bytes(
        "convert", *paths, "-o", f"{games}/", "--moves-table", f"{moves}/",
        "--partition-by", "variant", "--rejects", str(rejects), "--jobs", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return games, moves, rejects.read_bytes(), done.stderr


def test_convert_on_a_scheduler_gives_the_rows_of_a_local_run(
    scheduler: str, big_file: Path, tmp_path: Path
) -> None:
    """The same rows in both tables, the same rejects file, the same counts."""
    paths = (str(SAMPLES), str(big_file))
    games, moves, rejects, counts = local_dataset(tmp_path, *paths)
    out, table, cluster_rejects = tmp_path / "g2", tmp_path / "m2", tmp_path / "r2.pdn"
    done = run_bytes(
        "convert", *paths, "-o", f"{out}/", "--moves-table", f"{table}/",
        "--partition-by", "variant", "--rejects", str(cluster_rejects), "--dask", scheduler,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == counts
    assert cluster_rejects.read_bytes() == rejects
    assert dataset_rows(out) == dataset_rows(games)
    assert dataset_rows(table) == dataset_rows(moves)
    record_ids(out, table)
    assert {p.parent.name for p in out.rglob("*.parquet")} == {
        p.parent.name for p in games.rglob("*.parquet")
    }
    assert len(list(out.rglob("*.parquet"))) > len(list(games.rglob("*.parquet")))  # by units
    assert leftovers(out, table) == []


def test_convert_to_jsonl_parts_on_a_local_cluster(big_file: Path, tmp_path: Path) -> None:
    """JSON Lines parts, named in input order: together they are ``--jobs 1``'s file."""
    one = run_bytes("convert", str(SAMPLES), str(big_file), "-o", str(tmp_path / "one.jsonl"))
    out = tmp_path / "parts"
    local = run_bytes(
        "convert", str(SAMPLES), str(big_file), "-o", str(out), "--to", "jsonl",
        "--dask", "local:2",
    )  # fmt: skip
    assert local.returncode == one.returncode == 1, local.stderr
    assert local.stderr == one.stderr
    parts = sorted(out.glob("part-*.jsonl"))
    assert len(parts) > 2
    assert b"".join(p.read_bytes() for p in parts) == (tmp_path / "one.jsonl").read_bytes()


def test_convert_on_a_cluster_into_a_directory_with_files_needs_append(
    scheduler: str, tmp_path: Path
) -> None:
    """Parts directories follow the rule of datasets: a directory that holds files
    already is refused before the cluster is asked for anything (exit 2, one line
    naming --append, nothing written), and added to with --append, which says so."""
    from pdn_tools.run.cluster_convert import ConvertError, prepare_target

    out = tmp_path / "parts"
    clean = str(SAMPLES / "clean")
    first = run_bytes("convert", clean, "-o", str(out), "--to", "jsonl", "--dask", scheduler)
    assert first.returncode == 0, first.stderr
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    again = run_bytes("convert", clean, "-o", str(out), "--to", "jsonl", "--dask", scheduler)
    assert again.returncode == 2
    line = one_clean_line(again.stderr.decode())
    assert (
        line.startswith(f"pdn convert: {out}: holds {len(before)} file(s)") and "--append" in line
    )
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    added = run_bytes(
        "convert", clean, "-o", str(out), "--to", "jsonl", "--dask", scheduler, "--append"
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert added.stderr.decode().splitlines()[0] == (
        f"pdn convert: appending to {out} ({len(before)} existing file(s))"
    )
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert len(after) == 2 * len(before) and all(after[n] == d for n, d in before.items())
    # The Python API refuses it too, unless told to append.
    with pytest.raises(ConvertError, match="--append"):
        prepare_target(str(out), "jsonl")
    assert prepare_target(str(out), "jsonl", append=True).root == str(out)
    assert {p.name for p in out.iterdir()} == set(after)


def test_convert_with_many_units_and_a_worker_killed(
    scheduler: str, big_file: Path, tmp_path: Path
) -> None:
    """Every file cut into spans of a few games, through the Python API, and a worker
    killed with SIGKILL while parts are being written: the scheduler runs its units
    again, and the dataset holds every game once; no temporary part is left."""
    from pdn_tools.run.cluster_convert import convert_dataset

    games, moves, rejects, _ = local_dataset(tmp_path, str(big_file))
    out, table = tmp_path / "g2", tmp_path / "m2"
    killed: list[int] = []

    def kill_when_busy(client: Client, pids: dict[str, int]) -> None:
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline and not killed:
            busy = [w for w, keys in client.processing().items() if keys and w in pids]
            if busy and len(leftovers(out)) >= 2:
                killed.append(pids[busy[0]])
                os.kill(killed[0], signal.SIGKILL)
            time.sleep(0.02)

    def run() -> Any:
        with Client(scheduler, timeout=BOUND) as client:
            pids: dict[str, int] = client.run(os.getpid)
            watcher = threading.Thread(target=kill_when_busy, args=(client, pids), daemon=True)
            watcher.start()
            counts = convert_dataset(
                [str(big_file)], str(out), moves=str(table), partition_by=["variant"],
                rejects=str(tmp_path / "r2.pdn"), client=client, split_bytes=0,
                span_chars=3000,
            )  # fmt: skip
            watcher.join(BOUND)
            return counts

    counts = bounded(run)
    assert killed, "no worker was killed while parts were written"
    assert counts.read == counts.written + counts.rejected > 500
    assert (tmp_path / "r2.pdn").read_bytes() == rejects
    assert dataset_rows(out) == dataset_rows(games)
    assert dataset_rows(table) == dataset_rows(moves)
    record_ids(out, table)
    assert leftovers(out, table) == []


def test_a_failed_conversion_leaves_no_part(scheduler: str, big_file: Path, tmp_path: Path) -> None:
    """A JSON input that is no pdn-tools JSON, after a large file whose units have
    written their parts: exit 2, one line, and the output directory as it was (its
    file kept by ``--append``, which ``--quiet`` leaves unannounced)."""
    bad = tmp_path / "z.jsonl"
    bad.write_text('{"not": "a game"}\n')
    out = tmp_path / "dataset"
    out.mkdir()
    (out / "kept.txt").write_text("untouched")
    done = run_bytes(
        "convert", str(big_file), str(bad), "-o", f"{out}/", "--dask", scheduler, "--append", "-q"
    )
    assert done.returncode == 2
    assert "z.jsonl: not pdn-tools JSON" in one_clean_line(done.stderr.decode())
    assert sorted(p.name for p in out.rglob("*")) == ["kept.txt"]


def test_memory_urls_converted_through_the_api(tmp_path: Path) -> None:
    """``memory://`` inputs on threads of this process: the rows of the files' local run."""
    import fsspec

    from pdn_tools.run.cluster_convert import convert_dataset

    fs = fsspec.filesystem("memory")
    sources = sorted((SAMPLES / "clean").rglob("*.pdn"))
    for path in sources:
        with fs.open(f"/pdn-convert/{path.name}", "wb") as handle:
            handle.write(path.read_bytes())
    try:

        def on_threads() -> Any:
            with (
                LocalCluster(
                    n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
                ) as local,
                Client(local) as client,
            ):
                return convert_dataset(
                    ["memory://pdn-convert/"], str(tmp_path / "mem"), client=client,
                    split_bytes=0, span_chars=1,
                )  # fmt: skip

        counts = bounded(on_threads)
    finally:
        fs.rm("/pdn-convert", recursive=True)
    done = run_bytes("convert", *map(str, sources), "-o", f"{tmp_path / 'files'}/")
    assert done.returncode == 0, done.stderr
    assert counts.read == counts.written == len(dataset_rows(tmp_path / "files")) > 5
    got = dataset_rows(tmp_path / "mem")
    want = dataset_rows(tmp_path / "files")
    for row in want:
        row["file"] = f"memory:///pdn-convert/{Path(row['file']).name}"
    assert sorted(got, key=lambda r: (r["file"], r["game"])) == sorted(
        want, key=lambda r: (r["file"], r["game"])
    )


def test_repair_and_filters_run_in_the_workers(scheduler: str, tmp_path: Path) -> None:
    """``--repair`` and the filter options work game by game in the workers: the JSON
    Lines parts are ``--jobs 1``'s file and the counts the same."""
    typos = REPO / "tests" / "collection" / "data" / "typos.pdn"
    args = [str(SAMPLES), str(typos), "--repair", "--min-plies", "4", "--to", "jsonl"]
    one = run_bytes("convert", *args, "-o", str(tmp_path / "one.jsonl"))
    out = tmp_path / "parts"
    cluster = run_bytes("convert", *args, "-o", str(out), "--dask", scheduler)
    assert cluster.returncode == one.returncode, cluster.stderr
    assert cluster.stderr == one.stderr
    assert b"repaired)" in one.stderr and b"filtered out" in one.stderr
    parts = sorted(out.glob("part-*.jsonl"))
    assert b"".join(p.read_bytes() for p in parts) == (tmp_path / "one.jsonl").read_bytes()


@pytest.mark.parametrize("option", [["--dedupe"], ["--split-by", "event"]])
def test_ordered_stages_are_refused_on_a_cluster(option: list[str], tmp_path: Path) -> None:
    done = run_bytes(
        "convert", str(SAMPLES), "-o", str(tmp_path / "out"), "--to", "jsonl",
        "--dask", "local", *option,
    )  # fmt: skip
    assert done.returncode == 2
    assert b"does not go with --dask (use --jobs)" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("out", "options", "message"),
    [
        ("parts.parquet", ["--to", "jsonl"], b"names a Parquet file, not JSON Lines (--to jsonl)"),
        ("parts.jsonl", ["--partition-by", "year"], b"names a JSON Lines file, but a dataset"),
        ("parts", ["--moves-table", "m.pdn"], b"--moves-table m.pdn names a PDN file"),
    ],
)
def test_an_output_name_that_says_another_format_is_refused_on_a_cluster(
    tmp_path: Path, out: str, options: list[str], message: bytes
) -> None:
    """Refused in one line before a cluster is started or anything is written."""
    done = run_bytes("convert", str(SAMPLES), "-o", out, "--dask", "local", *options, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and done.stderr.count(b"\n") == 1
    assert list(tmp_path.iterdir()) == []


def analyse_both(tmp_path: Path, where: list[str], *args: str) -> tuple[Any, Any]:
    """``pdn analyse ARGS`` with ``--jobs 1`` into ``one/`` and with *where* into
    ``dask/``; both runs."""
    runs = []
    for name, how in (("one", ["--jobs", "1"]), ("dask", where)):
        (tmp_path / name).mkdir()
        named = [a.replace("{}", str(tmp_path / name)) for a in args]
        runs.append(run_bytes("analyse", *named, *how))
    return runs[0], runs[1]


def test_analyse_on_a_local_cluster_writes_the_file_of_jobs_one(tmp_path: Path) -> None:
    """The analysis options reach the workers (node budget, blunder threshold,
    plausibility): the annotated PDN is byte for byte ``--jobs 1``'s, and so is the
    summary line."""
    one, dask = analyse_both(
        tmp_path, ["--dask", "local:2"],
        str(SAMPLES / "clean"), "-o", "{}/out.pdn", "--nodes", "300", "--blunder", "120",
    )  # fmt: skip
    assert dask.returncode == one.returncode == 0, dask.stderr.decode()
    assert dask.stderr == one.stderr
    assert b"ply(ies) annotated" in one.stderr and b"possibly mis-recorded" in one.stderr
    text = (tmp_path / "one" / "out.pdn").read_bytes()
    assert text.count(b"[%eval") > 20
    assert (tmp_path / "dask" / "out.pdn").read_bytes() == text


def test_analyse_on_a_scheduler_writes_the_tables_of_jobs_one(
    scheduler: str, tmp_path: Path
) -> None:
    """Parquet games and moves tables (eval_cp, best_move) from the workers of a
    scheduler, at a fixed depth, without plausibility: ``--jobs 1``'s bytes."""
    one, dask = analyse_both(
        tmp_path, ["--dask", scheduler],
        str(SAMPLES / "clean"), "-o", "{}/games.parquet", "--moves-table", "{}/moves.parquet",
        "--depth", "2", "--no-plausibility",
    )  # fmt: skip
    assert dask.returncode == one.returncode == 0, dask.stderr.decode()
    assert dask.stderr == one.stderr
    assert b"possibly mis-recorded" not in one.stderr
    for name in ("games.parquet", "moves.parquet"):
        assert without_conversion(tmp_path / "dask" / name) == without_conversion(
            tmp_path / "one" / name
        )
    moves = pq.read_table(tmp_path / "one" / "moves.parquet")
    assert moves.column("eval_cp").null_count < moves.num_rows


def without_conversion(path: Path) -> tuple[Any, list[int]]:
    """A Parquet file's table with the conversion id (each run draws its own) taken
    out of its metadata and of ``record_id``, and its row groups' sizes."""
    parquet = pq.ParquetFile(path)
    table = parquet.read()
    metadata = dict(table.schema.metadata)
    conversion = metadata.pop(b"pdn_tools.conversion").decode()
    ids = [value.removeprefix(conversion) for value in table.column("record_id").to_pylist()]
    index = table.schema.get_field_index("record_id")
    table = table.set_column(index, "record_id", [ids]).replace_schema_metadata(metadata)
    groups = [parquet.metadata.row_group(n).num_rows for n in range(parquet.num_row_groups)]
    return table, groups


def annotated_parquet(folder: Path, client: Client | None) -> tuple[bytes, bytes]:
    """The samples analysed into Parquet files with one conversion id: in this
    process, or on *client*'s cluster with one unit per file."""
    read = ReadOptions()
    choice = EngineChoice(nodes=250)
    stages = StageOptions(
        annotate=AnalysisOptions(choice, 150, None, PlausibilityOptions(choice, 150, None))
    )
    options = ConvertOptions(read, {}, Renderer("parquet", moves=True), stages=stages)
    elsewhere = None
    if client is not None:

        def elsewhere(inputs: list[Input], job: ConvertOptions) -> Generator[Part, None, None]:
            return converted_on_cluster(client, inputs, job, group_bytes=1)

    games, moves = folder / "games.parquet", folder / "moves.parquet"
    with Outputs() as outputs:
        sink = ParquetSink(outputs.binary(str(games)), outputs.binary(str(moves)), conversion="c")
        conversion = Conversion(sink, None, read)
        convert_inputs(list(find((str(SAMPLES),))), options, conversion, elsewhere=elsewhere)
        sink.close()
    assert conversion.counts().stages.annotated > 20
    return games.read_bytes(), moves.read_bytes()


def test_analysed_parquet_from_the_workers_is_byte_for_byte(scheduler: str, tmp_path: Path) -> None:
    """With the same conversion id, the games and moves tables written from many units
    annotated on the cluster are the bytes of the same run in this process."""
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    here = annotated_parquet(tmp_path / "here", None)
    with Client(scheduler, timeout=BOUND) as client:
        there = annotated_parquet(tmp_path / "there", client)
    assert there == here


def test_analyse_with_a_hub_engine_on_the_workers(scheduler: str, tmp_path: Path) -> None:
    """Each worker starts the Hub engine command: ``pdn engine --hub`` gives the
    built-in searcher's file; a command the workers cannot start ends the run with
    one line, status 2, and nothing written."""
    engine = shlex.join([sys.executable, "-m", "pdn_tools", "engine", "--hub"])
    source = str(SAMPLES / "clean" / "club-evening.pdn")
    hub = run_bytes(
        "analyse", source, "-o", str(tmp_path / "hub.pdn"), "--nodes", "300",
        "--engine", engine, "--dask", scheduler,
    )  # fmt: skip
    assert hub.returncode == 0, hub.stderr.decode()
    own = run_bytes("analyse", source, "-o", str(tmp_path / "own.pdn"), "--nodes", "300")
    assert own.returncode == 0
    assert (tmp_path / "hub.pdn").read_bytes() == (tmp_path / "own.pdn").read_bytes()
    missing = run_bytes(
        "analyse", source, "-o", str(tmp_path / "x.pdn"), "--engine", "/nonexistent/engine",
        "--dask", scheduler,
    )  # fmt: skip
    assert missing.returncode == 2
    line = one_clean_line(missing.stderr.decode())
    assert line.startswith("pdn analyse: ") and "cannot start engine" in line, line
    assert not (tmp_path / "x.pdn").exists()


def test_analyse_refuses_standard_input_on_a_cluster(tmp_path: Path) -> None:
    done = run_bytes("analyse", "-", "-o", str(tmp_path / "x.pdn"), "--dask", "local:1")
    assert done.returncode == 2
    line = one_clean_line(done.stderr.decode())
    assert "standard input cannot be read by the workers" in line
    assert not (tmp_path / "x.pdn").exists()
