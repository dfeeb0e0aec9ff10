"""A real Dask cluster for the tests: a ``dask scheduler`` and workers on 127.0.0.1
(free ports, no dashboard, each process group killed at the end, every wait bounded),
started with the Python that runs the tests, so that they run its pdn-tools."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

import pytest
from distributed import Client

#: Seconds any one wait of these tests may take (start-up, a run).
BOUND = 180
T = TypeVar("T")


def bounded(func: Callable[[], T], seconds: float = BOUND) -> T:
    """``func()`` in a thread, failing the test if it takes longer than *seconds*."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = func()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"still running after {seconds} s")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


@contextmanager
def dask_processes(workers: int, logs: Path) -> Iterator[tuple[str, list[int]]]:
    """A ``dask scheduler`` and *workers* ``dask worker`` processes: their address and
    their process ids (the scheduler's first), once the workers have joined.

    The scheduler takes a free port itself (``--port 0``) and writes its address to a
    scheduler file that the workers read: no port is chosen here that another process
    (another test worker, another cluster) could take first."""
    procs: list[subprocess.Popen[bytes]] = []
    scheduler_file = logs / "scheduler.json"
    # their scratch files (which the SIGKILL at the end leaves behind) beside the logs,
    # not in the temporary folder that every Dask process on the machine shares
    env = {**os.environ, "DASK_TEMPORARY_DIRECTORY": str(logs)}

    def start(name: str, *args: str) -> None:
        log = (logs / f"{name}.log").open("wb")
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", *args],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # its own process group: killed whole at the end
            )
        )

    def scheduler_address() -> str:
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline:
            with suppress(OSError, ValueError, KeyError):
                return str(json.loads(scheduler_file.read_text(encoding="utf-8"))["address"])
            if procs[0].poll() is not None:
                break
            time.sleep(0.05)
        log = (logs / "scheduler.log").read_text(encoding="utf-8", errors="replace")
        pytest.fail(f"the scheduler wrote no address within {BOUND} s:\n{log[-2000:]}")

    try:
        start(
            "scheduler",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--scheduler-file",
            str(scheduler_file),
            "--no-dashboard",
            "--dashboard-address",
            "127.0.0.1:0",
        )
        address = scheduler_address()
        for n in range(workers):
            start(
                f"worker{n}",
                "distributed.cli.dask_worker",
                "--scheduler-file",
                str(scheduler_file),
                "--host",
                "127.0.0.1",
                "--nthreads",
                "1",
                "--no-dashboard",
                "--name",
                f"w{n}",
                "--death-timeout",
                "60",
            )

        def ready() -> None:
            with Client(address, timeout=BOUND) as client:
                if workers:
                    client.wait_for_workers(workers, timeout=BOUND)

        bounded(ready)
        yield address, [proc.pid for proc in procs]
    finally:
        for proc in procs:
            with suppress(ProcessLookupError):  # already gone
                os.killpg(proc.pid, signal.SIGKILL)
        for proc in procs:
            proc.wait(timeout=30)
