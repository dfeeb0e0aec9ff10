"""What the tests of docs/security.md share: the command in a subprocess, checks on
what it printed, and a listener on the loopback interface."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import REPO

PDN = [sys.executable, "-m", "pdn_tools"]
GAME = '[Event "x"]\n[White "A"]\n[Black "B"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
SECRET = "DB_PASSWORD=hunter2"

_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def pdn(
    *args: str,
    cwd: Path | None = None,
    stdin: bytes | int | None = None,
    timeout: float = 180,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``pdn ARGS`` in a subprocess; stdout and stderr as text (invalid bytes escaped)."""
    done = subprocess.run(
        [*PDN, *args],
        input=stdin if isinstance(stdin, bytes) else None,
        stdin=stdin if isinstance(stdin, int) else None,
        capture_output=True,
        cwd=cwd or REPO,
        timeout=timeout,
        env=env,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "backslashreplace"),
        done.stderr.decode("utf-8", "backslashreplace"),
    )


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    """Fail when the run printed a traceback or an ignored exception."""
    both = done.stdout + done.stderr
    assert "Traceback" not in both, both[-3000:]
    assert "Exception ignored" not in both, both[-3000:]


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The single line an exit-2 run prints on standard error."""
    no_traceback(done)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def no_raw_controls(text: str) -> None:
    """Fail when *text* holds a control character other than tab and newline, a C1
    control or a bidirectional override: what a terminal would act on."""
    found = _RAW_CONTROL.search(text)
    assert found is None, f"raw {found.group()!r} in {text[max(0, found.start() - 60) :][:160]!r}"


def popen(*args: str, cwd: Path, **kwargs: object) -> subprocess.Popen[bytes]:
    """``pdn ARGS`` started in a session of its own (a process group to signal)."""
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [*PDN, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        **kwargs,
    )


def wait_for_handlers(proc: subprocess.Popen[bytes]) -> None:
    """Return once the command in *proc* handles the stop signals itself: it has a
    handler for SIGTERM (``SigCgt`` in ``/proc/PID/status``), which it sets with its
    Ctrl-C handler (:func:`pdn_tools.atomic.handle_termination`); fail the test if the
    command ends first or takes over a minute.

    A signal sent a fixed time after the start may, on a loaded host, land before the
    command has even started (and end it by the signal's default action): what such a
    test means to send is a signal to a running command.  Without ``/proc`` there is
    nothing to look at and this returns at once."""
    if not Path("/proc/self/status").exists():
        return
    status = Path(f"/proc/{proc.pid}/status")
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, f"ended (status {proc.returncode}) before its handlers"
        with contextlib.suppress(OSError, ValueError, StopIteration):
            line = next(x for x in status.read_text().splitlines() if x.startswith("SigCgt:"))
            if int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1:
                return
        assert time.monotonic() < deadline, "no handler for SIGTERM after 60 s"
        time.sleep(0.01)


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill what is left of a process group started by :func:`popen`."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


class Listener:
    """A TCP listener on 127.0.0.1 that counts the connections it is offered and
    closes each at once (a server that is there but speaks nothing)."""

    def __init__(self) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(8)
        self.socket.settimeout(0.2)
        self.port = int(self.socket.getsockname()[1])
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.socket.close()
