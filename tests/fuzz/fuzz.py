"""Fuzz the reader, the FEN parser, the configuration loader and the archive layer
for a bounded time each, and say how many inputs were tried.

    python tests/fuzz/fuzz.py [--seconds N] [--keep] [TARGET ...]

With atheris installed (``pip install atheris``) each target runs coverage-guided in
a process of its own, under a memory limit (``-rss_limit_mb``) and a time limit per
input; the inputs that reach new code are written to a temporary folder, and with
``--keep`` the smallest of them are added to ``tests/fuzz/corpus/TARGET/``.  Without
atheris, the stored inputs are mutated at random (bytes flipped, inserted, removed,
runs repeated, inputs spliced) for the same time.

Exit status 0 when no input made a target fail, 1 otherwise (the failing input is
written to ``tests/fuzz/failures/`` and its traceback printed).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MEMORY_MB = 1024
"""The most memory one fuzzing process may take (its inputs are small)."""
INPUT_SECONDS = 20
"""The most time one input may take (the reader's limits keep real ones far below)."""
MAX_LEN = 4096
"""The longest input tried."""


def _seeds(target: str) -> list[bytes]:
    from fuzz_targets import CORPUS

    folder = CORPUS / target
    return [p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()] or [b""]


def _mutate(rng: random.Random, data: bytes, others: list[bytes]) -> bytes:
    """One random change of *data*: the kinds of damage real files and attackers make."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(6)
        at = rng.randrange(len(buf) + 1)
        if choice == 0 and buf:
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif choice == 1:
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif choice == 2 and buf:
            del buf[at : at + rng.randint(1, 16)]
        elif choice == 3 and buf:
            piece = buf[at : at + rng.randint(1, 32)]
            buf[at:at] = piece * rng.randint(2, 64)
        elif choice == 4:
            other = rng.choice(others)
            cut = rng.randrange(len(other) + 1)
            buf[at:] = other[cut:]
        else:
            buf[at:at] = rng.choice([b"{", b"(", b"[", b'"', b"\\", b"\x00", b"\r", b"x", b"-"])
    return bytes(buf[:MAX_LEN])


def _random_run(target: str, seconds: float) -> tuple[int, bytes | None, str]:
    """Mutate the stored inputs of *target* for *seconds*: (inputs tried, the input
    that failed or None, its traceback)."""
    from fuzz_targets import TARGETS

    func = TARGETS[target]
    seeds = _seeds(target)
    rng = random.Random(int.from_bytes(os.urandom(8), "big"))
    tried = 0
    deadline = time.monotonic() + seconds
    for data in seeds:  # the stored inputs first, as they are
        tried += 1
        try:
            func(data)
        except Exception:
            return tried, data, traceback.format_exc()
    while time.monotonic() < deadline:
        data = _mutate(rng, rng.choice(seeds), seeds)
        tried += 1
        try:
            func(data)
        except Exception:
            return tried, data, traceback.format_exc()
    return tried, None, ""


def _atheris_child(target: str, args: list[str]) -> None:
    """Run inside the fuzzing process: atheris over *target*."""
    import atheris

    with atheris.instrument_imports(include=["pdn_tools", "fuzz_targets"]):
        from fuzz_targets import TARGETS
    func = TARGETS[target]
    atheris.Setup([sys.argv[0], *args], func)
    atheris.Fuzz()


KEEP = 40
"""The most new inputs one ``--keep`` run adds to a target's stored inputs."""


def _keep(found: Path, corpus: Path) -> None:
    """Add the smallest of the inputs atheris wrote to *found* (each reached code
    that no earlier input of the run had reached) to *corpus*, under their digests."""
    have = {p.name for p in corpus.iterdir()}
    new = sorted((p for p in found.iterdir() if p.name not in have), key=lambda p: p.stat().st_size)
    for path in new[:KEEP]:
        shutil.copyfile(path, corpus / f"found-{path.name[:16]}")


def _atheris_run(target: str, seconds: int, keep: bool) -> tuple[int, bool, str]:
    """Fuzz *target* with atheris in a process of its own: (inputs tried, whether it
    failed, what it printed at the end)."""
    from fuzz_targets import CORPUS

    failures = HERE / "failures"
    failures.mkdir(exist_ok=True)
    found = Path(tempfile.mkdtemp(prefix=f"pdn-fuzz-{target}-"))
    try:
        command = [
            sys.executable,
            __file__,
            "--child",
            target,
            f"-max_total_time={seconds}",
            f"-rss_limit_mb={MEMORY_MB}",
            f"-timeout={INPUT_SECONDS}",
            f"-max_len={MAX_LEN}",
            f"-artifact_prefix={failures}/{target}-",
            "-print_final_stats=1",
            str(found),
            str(CORPUS / target),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 300)
        output = done.stderr + done.stdout
        runs = 0
        for line in output.splitlines():
            if line.startswith("stat::number_of_executed_units:"):
                runs = int(line.split(":")[-1])
        if keep and done.returncode == 0:
            _keep(found, CORPUS / target)
        return runs, done.returncode != 0, output[-4000:]
    finally:
        shutil.rmtree(found, ignore_errors=True)


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_MB * 4 << 20, MEMORY_MB * 4 << 20))
        _atheris_child(sys.argv[2], sys.argv[3:])
        return 0
    from fuzz_targets import TARGETS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", default=list(TARGETS), metavar="TARGET")
    parser.add_argument("--seconds", type=int, default=30, help="per target (default 30)")
    parser.add_argument("--keep", action="store_true", help="add new inputs to the corpus")
    parser.add_argument("--random", action="store_true", help="random mutations, no atheris")
    options = parser.parse_args()
    try:
        import atheris  # noqa: F401

        engine = "random" if options.random else "atheris"
    except ImportError:
        engine = "random"
    failed = False
    total = 0
    for target in options.targets:
        started = time.monotonic()
        if engine == "atheris":
            tried, bad, output = _atheris_run(target, options.seconds, options.keep)
            if bad:
                print(output, file=sys.stderr)
        else:
            tried, data, trace = _random_run(target, options.seconds)
            bad = data is not None
            if bad:
                failures = HERE / "failures"
                failures.mkdir(exist_ok=True)
                path = failures / f"{target}-{int(time.time())}"
                path.write_bytes(data or b"")
                print(f"{target}: failed on {path}:\n{trace}", file=sys.stderr)
        total += tried
        failed = failed or bad
        spent = time.monotonic() - started
        print(
            f"fuzz {target}: {tried} inputs in {spent:.0f} s ({engine}), "
            f"{'FAILED' if bad else 'no failure'}",
            flush=True,
        )
    print(f"fuzz: {total} inputs tried over {len(options.targets)} targets", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
