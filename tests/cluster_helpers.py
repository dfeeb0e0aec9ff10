"""A real Dask cluster for the tests: a ``dask scheduler`` and workers on 127.0.0.1
(free ports, no dashboard, each process group killed at the end, every wait bounded),
started with the Python that runs the tests, so that they run its pdn-tools."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def dask_processes(workers: int, logs: Path) -> Iterator[tuple[str, list[int]]]:
    """A ``dask scheduler`` and *workers* ``dask worker`` processes: their address and
    their process ids (the scheduler's first), once the workers have joined."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str) -> None:
        log = (logs / f"{name}.log").open("wb")
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", *args],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killed whole at the end
            )
        )

    try:
        start(
            "scheduler",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-dashboard",
            "--dashboard-address",
            "127.0.0.1:0",
        )
        for n in range(workers):
            start(
                f"worker{n}",
                "distributed.cli.dask_worker",
                address,
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
