"""Fault injection, for real: signals in the middle of a conversion, colliding paths,
full disks, a dead parent of worker processes, hostile file names and JSON, huge
games.  Nothing may be lost: the previous output survives byte for byte, a refused run
writes nothing, and no case ends in a traceback.

Every run is a subprocess (or, where a real process changes nothing, the click test
runner): real signals, real file descriptors, ``/dev/full`` and a tiny tmpfs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import PDN, one_clean_line
from click.testing import CliRunner
from conftest import REPO, SAMPLES

from pdn_tools.atomic import TEMP_MARK
from pdn_tools.cli import main
from pdn_tools.run.parallel import abandon_pools, default_jobs, ordered_map

sys.path.insert(0, str(REPO / "benchmarks"))
from gen_games import generate

FORMATS = {"pdn": "out.pdn", "json": "out.json", "jsonl": "out.jsonl", "parquet": "out.parquet"}
OLD = b"the previous output, which must survive\n"


def _default_signals() -> None:
    """In the child, before exec: SIGINT and SIGTERM do what they do by default (a
    test run in the background may have inherited them ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _popen(args: list[str], cwd: Path, **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [*PDN, *args],
        cwd=cwd,
        stdout=kwargs.pop("stdout", subprocess.DEVNULL),
        stderr=subprocess.PIPE,
        preexec_fn=_default_signals,
        **kwargs,
    )


def _pdn(args: list[str], cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``pdn ARGS``; standard output captured unless *stdout* is given."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [*PDN, *args], cwd=cwd, stderr=subprocess.PIPE, text=True, timeout=120, **kwargs
    )


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMP_MARK in p.name)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2,000 generated legal games (about 1.8 MB): a conversion takes seconds."""
    path = tmp_path_factory.mktemp("big") / "big.pdn"
    generate(2000, 1, path)
    return path


@pytest.fixture(scope="module")
def medium(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 generated games: outputs of a few hundred KB, converted in about a second."""
    path = tmp_path_factory.mktemp("medium") / "medium.pdn"
    generate(300, 2, path)
    return path


# --------------------------------------------------------------------- signals


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGKILL"])
def test_a_signal_mid_convert_leaves_the_previous_output(
    tmp_path: Path, big: Path, fmt: str, sig: str
) -> None:
    out = FORMATS[fmt]
    extra = ["--moves-table", "moves.parquet"] if fmt == "parquet" else []
    outputs = [out, "rejects.pdn", *(["moves.parquet"] if extra else [])]
    for name in outputs:
        (tmp_path / name).write_bytes(OLD)
    args = ["convert", str(big), "-o", out, "--rejects", "rejects.pdn", *extra]
    proc = _popen(args, tmp_path)
    deadline = time.monotonic() + 60
    while not _temporaries(tmp_path):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "no temporary output appeared"
        time.sleep(0.01)
    time.sleep(0.3)  # well inside the conversion, which takes seconds
    assert proc.poll() is None, "the conversion ended before the signal: input too small"
    proc.send_signal(getattr(signal, sig))
    _, stderr_bytes = proc.communicate(timeout=60)
    stderr = stderr_bytes.decode("utf-8", "replace")
    for name in outputs:
        assert (tmp_path / name).read_bytes() == OLD, f"{name} changed"
    left = _temporaries(tmp_path)
    if sig == "SIGKILL":
        assert proc.returncode == -signal.SIGKILL
        # At most the clearly named temporaries, never a truncated final file.
        assert all(n.startswith(tuple(f".{o}{TEMP_MARK}" for o in outputs)) for n in left)
        assert {p.name for p in tmp_path.iterdir()} - set(left) == set(outputs)
    else:
        assert left == []
        assert {p.name for p in tmp_path.iterdir()} == set(outputs)
        word, status = ("interrupted", 130) if sig == "SIGINT" else ("terminated", 143)
        assert proc.returncode == status
        assert one_clean_line(stderr) == f"pdn convert: {word}"


# ------------------------------------------------------------------ collisions


def _collision_cases(folder: Path) -> Iterator[tuple[str, list[str], str | None, str]]:
    """(case, convert arguments, file standard input comes from, both names said)."""
    yield "rejects-is-output", ["in.pdn", "-o", "out.pdn", "--rejects", "out.pdn"], None, "out.pdn"
    yield (
        "moves-is-output",
        ["in.pdn", "-o", "o.parquet", "--moves-table", "./o.parquet"],
        None,
        "./o.parquet",
    )
    yield "symlink", ["in.pdn", "-o", "out.pdn", "--rejects", "link.pdn"], None, "link.pdn"
    yield "hard-link", ["in.pdn", "-o", "out.pdn", "--rejects", "hard.pdn"], None, "hard.pdn"
    yield "output-is-input", ["in.pdn", "-o", "in.pdn"], None, "in.pdn"
    yield "relative-input", ["in.pdn", "-o", "sub/../in.pdn"], None, "sub/../in.pdn"
    yield "stdin-from-output", ["-", "-o", "out.pdn"], "out.pdn", "standard input"
    yield "inside-input-dir", ["sub", "-o", "sub/all.pdn"], None, "sub"
    yield "rejects-inside-input-dir", ["sub", "-o", "x.json", "--rejects", "sub/r.PDN"], None, "sub"


@pytest.mark.parametrize("case", [c[0] for c in _collision_cases(Path())])
def test_colliding_paths_are_refused_before_anything_is_written(tmp_path: Path, case: str) -> None:
    (tmp_path / "in.pdn").write_bytes((SAMPLES / "clean" / "club-evening.pdn").read_bytes())
    (tmp_path / "out.pdn").write_bytes(OLD)
    (tmp_path / "o.parquet").write_bytes(OLD)
    (tmp_path / "link.pdn").symlink_to("out.pdn")
    os.link(tmp_path / "out.pdn", tmp_path / "hard.pdn")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "g.pdn").write_bytes((tmp_path / "in.pdn").read_bytes())
    before = _snapshot(tmp_path), _snapshot(tmp_path / "sub")
    _, args, stdin, named = next(c for c in _collision_cases(tmp_path) if c[0] == case)
    if stdin is None:
        done = _pdn(["convert", *args], tmp_path)
    else:
        with open(tmp_path / stdin, "rb") as handle:
            done = _pdn(["convert", *args], tmp_path, stdin=handle)
    assert done.returncode == 2
    line = one_clean_line(done.stderr)
    assert line.startswith("pdn convert: ") and named in line
    assert (_snapshot(tmp_path), _snapshot(tmp_path / "sub")) == before


def test_stdout_appended_to_an_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in.pdn"
    source.write_bytes((SAMPLES / "clean" / "club-evening.pdn").read_bytes())
    before = source.read_bytes()
    with open(source, "ab") as stdout:
        done = _pdn(["convert", "in.pdn", "-o", "-", "--to", "pdn"], tmp_path, stdout=stdout)
    assert done.returncode == 2
    assert "standard output" in one_clean_line(done.stderr)
    assert source.read_bytes() == before


def test_devices_are_nobodys_data(tmp_path: Path) -> None:
    done = _pdn(
        ["convert", str(SAMPLES / "clean"), "-o", "/dev/null", "--to", "jsonl",
         "--rejects", "/dev/null"],
        tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_a_failed_later_input_or_no_input_keeps_the_previous_output(tmp_path: Path) -> None:
    (tmp_path / "out.jsonl").write_bytes(OLD)
    (tmp_path / "foreign.json").write_text('{"some": "other JSON"}', encoding="utf-8")
    (tmp_path / "empty").mkdir()
    clean = str(SAMPLES / "clean" / "club-evening.pdn")
    for args in ([clean, "foreign.json"], ["empty"]):
        done = _pdn(["convert", *args, "-o", "out.jsonl"], tmp_path)
        assert done.returncode == 2
        one_clean_line(done.stderr)
        assert (tmp_path / "out.jsonl").read_bytes() == OLD
        assert _temporaries(tmp_path) == []


# --------------------------------------------------------------------- workers


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find workers")
@pytest.mark.skipif(default_jobs() < 2, reason="--jobs is capped at the usable CPUs: fewer than 2")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_workers_do_not_outlive_their_parent(tmp_path: Path, big: Path, sig: str) -> None:
    proc = _popen(["validate", str(big), "-j2", "-q"], tmp_path)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2:
        assert proc.poll() is None, "validate ended before its workers were seen"
        assert time.monotonic() < deadline, "no worker processes appeared"
        time.sleep(0.02)
        workers = _children(proc.pid)
    proc.send_signal(getattr(signal, sig))
    proc.communicate(timeout=60)
    until = time.monotonic() + 5
    while any(_alive(w) for w in workers) and time.monotonic() < until:
        time.sleep(0.05)
    assert [w for w in workers if _alive(w)] == []


def test_jobs_are_capped_at_the_usable_cpus(tmp_path: Path) -> None:
    done = _pdn(["validate", str(SAMPLES / "clean"), "--jobs", "100000"], tmp_path)
    assert done.returncode == 0
    assert f"--jobs 100000 reduced to {default_jobs()}" in done.stderr


# ------------------------------------------------------------ write failures


@pytest.mark.parametrize("fmt", ["jsonl", "sarif", "text"])
def test_validate_into_a_full_disk(tmp_path: Path, fmt: str) -> None:
    with open("/dev/full", "w") as full:
        done = _pdn(["validate", str(SAMPLES), "--format", fmt, "-q"], tmp_path, stdout=full)
    assert done.returncode == 2
    assert one_clean_line(done.stderr) == "pdn validate: <stdout>: No space left on device"


@pytest.mark.parametrize("to", ["parquet", "jsonl"])
def test_convert_into_dev_full_names_it(tmp_path: Path, medium: Path, to: str) -> None:
    done = _pdn(["convert", str(medium), "-o", "/dev/full", "--to", to], tmp_path)
    assert done.returncode == 2
    assert one_clean_line(done.stderr) == "pdn convert: /dev/full: No space left on device"
    with open("/dev/full", "w") as full:
        done = _pdn(["convert", str(medium), "-o", "-", "--to", to], tmp_path, stdout=full)
    assert done.returncode == 2
    assert one_clean_line(done.stderr) == "pdn convert: <stdout>: No space left on device"


@pytest.mark.parametrize("out", ["out.jsonl", "out.parquet"])
def test_a_full_filesystem_keeps_the_previous_output(
    tiny_disk: Path, medium: Path, out: str
) -> None:
    (tiny_disk / out).write_bytes(OLD)
    done = _pdn(["convert", str(medium), "-o", out], tiny_disk)
    assert done.returncode == 2
    assert one_clean_line(done.stderr) == f"pdn convert: {out}: No space left on device"
    assert (tiny_disk / out).read_bytes() == OLD
    assert _temporaries(tiny_disk) == []


def test_parquet_to_a_pipe_closed_early(tmp_path: Path, big: Path) -> None:
    proc = _popen(
        ["convert", str(big), "-o", "-", "--to", "parquet"], tmp_path, stdout=subprocess.PIPE
    )
    assert proc.stdout is not None
    assert proc.stdout.read(4) == b"PAR1"
    proc.stdout.close()  # as `| head -c 4` does
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 2
    assert b"Traceback" not in stderr and stderr == b""


# ------------------------------------------------------------ hostile names


@pytest.fixture
def odd_name(tmp_path: Path) -> Path:
    """A folder holding a game file whose name is not UTF-8."""
    folder = tmp_path / "odd"
    folder.mkdir()
    name = os.fsdecode(b"partie-\xe9t\xe9.pdn")
    (folder / name).write_bytes((SAMPLES / "faults" / "illegal-moves.pdn").read_bytes())
    return folder


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--format", "text"],
        ["validate", "--format", "jsonl"],
        ["validate", "--format", "json"],
        ["validate", "--format", "github"],
        ["validate", "--format", "sarif"],
        ["validate", "--format", "junit"],
        ["stats"],
        ["stats", "--format", "json"],
    ],
    ids=lambda a: "-".join(a),
)
def test_non_utf8_file_names_in_every_report(odd_name: Path, args: list[str]) -> None:
    result = CliRunner().invoke(main, [*args[:1], str(odd_name), *args[1:]])
    assert result.exit_code in (0, 1), result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    text = result.stdout_bytes.decode("utf-8")  # valid UTF-8 throughout
    fmt = args[-1]
    if fmt == "sarif":  # a URI: the bytes themselves, percent-encoded
        assert "partie-%E9t%E9.pdn" in text
    else:  # the odd bytes as \xNN (backslashes doubled in JSON strings)
        assert "partie-\\xe9t\\xe9.pdn" in text.replace("\\\\", "\\")
    if fmt in ("json", "sarif") or args == ["stats", "--format", "json"]:
        json.loads(text)
    elif fmt == "jsonl":
        for line in text.splitlines():
            json.loads(line)
    elif fmt == "junit":
        import xml.etree.ElementTree as ElementTree

        ElementTree.fromstring(text)


@pytest.mark.parametrize("out", ["games.json", "games.jsonl", "games.pdn", "games.parquet"])
def test_non_utf8_file_names_convert(odd_name: Path, tmp_path: Path, out: str) -> None:
    target = tmp_path / out
    result = CliRunner().invoke(main, ["convert", str(odd_name), "-o", str(target)])
    assert result.exit_code in (0, 1), result.output
    assert target.stat().st_size > 0
    if out.endswith(".json"):
        games = json.loads(target.read_text(encoding="utf-8"))
        assert games[0]["file"].endswith("partie-\\xe9t\\xe9.pdn")


# -------------------------------------------------------------- hostile JSON


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[1,2]", "game 1: expected an object"),
        ('{"schema_version": 1, "tags": [], "span": 5}', "game 1.span: expected an object"),
        ('{"schema_version": 1, "tags": [{"name": 3, "value": "v"}]}', "tags[0].name"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_malformed_json_input_is_one_line(tmp_path: Path, text: str, needle: str) -> None:
    (tmp_path / "bad.json").write_text(text, encoding="utf-8")
    (tmp_path / "out.pdn").write_bytes(OLD)
    result = CliRunner().invoke(
        main, ["convert", str(tmp_path / "bad.json"), "-o", str(tmp_path / "out.pdn")]
    )
    assert result.exit_code == 2
    line = one_clean_line(result.stderr)
    assert line.startswith(f"pdn convert: {tmp_path / 'bad.json'}: not pdn-tools JSON:")
    assert needle in line
    assert (tmp_path / "out.pdn").read_bytes() == OLD


def test_deep_variations_in_json_input_are_one_line(tmp_path: Path) -> None:
    opening = '{"kind": "move", "text": "32-28", "variations": [['
    text = (
        '{"schema_version": 1, "tags": [], "moves": ['
        + opening * 2000
        + '{"kind": "move", "text": "32-28"}'
        + "]]}" * 2000
        + "]}"
    )
    (tmp_path / "deep.jsonl").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        main, ["convert", str(tmp_path / "deep.jsonl"), "-o", str(tmp_path / "o.pdn")]
    )
    assert result.exit_code == 2 and "nested too deeply" in one_clean_line(result.stderr)


def test_perft_too_deep_is_refused() -> None:
    result = CliRunner().invoke(main, ["perft", "990"])
    assert result.exit_code == 2
    assert "990 is not in the range 0<=x<=64" in one_clean_line(result.stderr)


# -------------------------------------------------------------------- memory


def _peak_rss_kb(args: list[str], cwd: Path) -> int:
    """Peak resident memory (KB) of ``pdn ARGS``, measured by a fresh parent process
    that has no other child (getrusage keeps the largest child's peak)."""
    probe = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
        "assert done.returncode in (0, 1), done.stderr.decode()\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *PDN, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return int(done.stdout.strip())


def _one_line_game(path: Path, megabytes: int) -> None:
    """Three games; the second is one line of more than *megabytes* MB."""
    with path.open("w", encoding="utf-8") as out:
        out.write('[Event "before"]\n[GameType "20"]\n1. 32-28 18-23 *\n\n')
        out.write('[Event "huge"]\n[GameType "20"]\n1. 32-28 {')
        chunk = "a long comment on one line " * 1000
        for _ in range(megabytes * (1 << 20) // len(chunk) + 1):
            out.write(chunk)
        out.write('} 18-23 *\n\n[Event "after"]\n1. 33-28 *\n')


def test_rejecting_a_huge_game_does_not_hold_it(tmp_path: Path) -> None:
    sizes = {4: tmp_path / "g4.pdn", 16: tmp_path / "g16.pdn"}
    peaks = {}
    for megabytes, path in sizes.items():
        _one_line_game(path, megabytes)
        rejects = tmp_path / f"rejects-{megabytes}.pdn"
        args = ["convert", str(path), "-o", "/dev/null", "--to", "jsonl",
                "--rejects", str(rejects), "--max-game-size", "1000"]  # fmt: skip
        peaks[megabytes] = _peak_rss_kb(args, tmp_path)
        text = rejects.read_text(encoding="utf-8")
        assert text.startswith('[Event "huge"]') and text.endswith("18-23 *\n")
        assert len(text) > megabytes << 20
    # 12 MB more game text costs (nearly) no more memory: far less than the game.
    assert peaks[16] - peaks[4] < 6 * 1024, peaks


def test_rejecting_a_huge_game_read_from_stdin_keeps_its_text(tmp_path: Path) -> None:
    _one_line_game(tmp_path / "g.pdn", 1)
    with open(tmp_path / "g.pdn", "rb") as stdin:
        done = _pdn(
            ["convert", "-", "-o", "out.pdn", "--rejects", "rej.pdn", "--max-game-size", "1000"],
            tmp_path,
            stdin=stdin,
        )
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "rej.pdn").read_text(encoding="utf-8")
    assert text.startswith('[Event "huge"]') and len(text) > 1 << 20 and text != "*\n"


def test_a_one_line_json_array_is_streamed(tmp_path: Path) -> None:
    game = {
        "schema_version": 1,
        "tags": [{"name": "Event", "value": "x"}],
        "comments": [{"text": "y" * 500_000}],
        "moves": [{"kind": "move", "text": "32-28"}],
    }
    peaks = {}
    for count in (20, 80):
        path = tmp_path / f"a{count}.json"
        path.write_text(json.dumps([game] * count), encoding="utf-8")  # one line
        peaks[count] = _peak_rss_kb(
            ["convert", str(path), "-o", "/dev/null", "--to", "jsonl"], tmp_path
        )
    # 30 MB more JSON on the one line: memory stays where it was.
    assert peaks[80] - peaks[20] < 10 * 1024, peaks


def _slow(item: int, seconds: float) -> int:
    time.sleep(seconds)
    return item


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find workers")
@pytest.mark.skipif(default_jobs() < 2, reason="--jobs is capped at the usable CPUs: fewer than 2")
def test_a_pool_left_suspended_is_stopped_at_once_when_the_run_is() -> None:
    """A signal that stops the run while the pool's consumer, not the pool's generator,
    runs leaves that generator suspended; its pool would then check every queued unit
    before the interpreter could exit.  The command's stop abandons it at once."""
    before = set(_children(os.getpid()))
    results = ordered_map(_slow, range(100), 2, 0.5)
    assert next(results) == 0
    workers = set(_children(os.getpid())) - before
    assert len(workers) >= 2
    started = time.monotonic()
    abandon_pools()
    while set(_children(os.getpid())) & workers and time.monotonic() - started < 30:
        time.sleep(0.05)
    assert not set(_children(os.getpid())) & workers
    assert time.monotonic() - started < 5
    results.close()
