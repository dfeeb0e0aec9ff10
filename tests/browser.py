"""Headless Chromium driven over the DevTools protocol, for the tests of the HTML report.

No dependency: Chromium is started with ``--remote-debugging-pipe`` and speaks the
protocol as NUL-terminated JSON messages on file descriptors 3 (commands in) and 4
(responses and events out).  One page is opened in a fresh profile; the helpers
navigate it, evaluate JavaScript, take screenshots and keep every event (network
requests, console messages) for the tests to inspect.

:func:`chromium` finds the browser (``chromium`` or ``chromium-browser`` on PATH,
or ``$PDN_CHROMIUM``); tests skip with a reason when there is none.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import io
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--hide-scrollbars",
    "--force-color-profile=srgb",
    "--remote-debugging-pipe",
)
TIMEOUT = 60.0


def chromium() -> str | None:
    """The Chromium executable, or None when none is installed."""
    wanted = os.environ.get("PDN_CHROMIUM")
    if wanted:
        return wanted if Path(wanted).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


#: The marks of a module of browser tests: skipped, with the reason, where no Chromium
#: is installed; run in one test worker, one browser at a time.
BROWSER_TESTS = [
    pytest.mark.skipif(
        chromium() is None,
        reason="no Chromium installed (Debian: apt-get install chromium; or set PDN_CHROMIUM); "
        "the browser tests of the HTML report need one",
    ),
    pytest.mark.xdist_group("chromium"),
]


class BrowserError(RuntimeError):
    """The browser answered a command with an error, died or did not answer."""


class Browser:
    """One headless Chromium with one page (a tab), driven over the pipe."""

    def __init__(self, executable: str, width: int = 1200, height: int = 900) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="pdn-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire() -> None:  # in the child: the pipe ends become fds 3 and 4
            high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)  # dup2 makes them inheritable
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            close_fds=False,  # keep 3 and 4; Python's own descriptors are close-on-exec
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        """Every event the browser sent, in order."""
        self.opened = 0
        """Index in :attr:`events` where the page last opened began."""
        target = self.command("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.command("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    # -- the protocol ---------------------------------------------------------------
    def _write(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self._to_child, data)
            data = data[written:]

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("the browser did not answer in time")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 20)
                if not chunk:
                    raise BrowserError("the browser closed the pipe")
                self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def command(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send a command (to the page's session when *session*) and return its result."""
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self._write(message)
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read(deadline)
            if reply.get("id") == ident:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            if "method" in reply:
                self.events.append(reply)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """A command to the page."""
        return self.command(method, session=True, **params)

    def wait_event(self, method: str, since: int = 0) -> dict[str, Any]:
        """The first event *method* at or after index *since* of :attr:`events`."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            for event in self.events[since:]:
                if event["method"] == method:
                    return event
            reply = self._read(deadline)
            if "method" in reply:
                self.events.append(reply)

    # -- what tests do ----------------------------------------------------------------
    def open(self, path: Path) -> None:
        """Load a local file and wait until it has loaded and its scripts ran."""
        since = self.opened = len(self.events)
        self.send("Page.navigate", url=path.resolve().as_uri())
        self.wait_event("Page.loadEventFired", since)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, key: str) -> None:
        """Press and release a printable key (as a person typing it)."""
        for kind in ("keyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                text=key if kind == "keyDown" else "",
                code=f"Key{key.upper()}" if key.isalpha() else "",
            )

    def screenshot(self, full_page: bool = False) -> bytes:
        """A PNG of the viewport (or of the whole page)."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = self.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
            )
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        return base64.b64decode(self.send("Page.captureScreenshot", **params)["data"])

    def requests(self) -> list[str]:
        """The URL of every request made since the page was opened."""
        return [
            e["params"]["request"]["url"]
            for e in self.events[self.opened :]
            if e["method"] == "Network.requestWillBeSent"
        ]

    def console_problems(self) -> list[str]:
        """Errors and warnings logged since the page was opened (script errors,
        content the Content-Security-Policy blocked)."""
        self.evaluate("0")  # collect what has been sent so far
        out = []
        for event in self.events[self.opened :]:
            if event["method"] == "Log.entryAdded":
                entry = event["params"]["entry"]
                if entry["level"] in ("error", "warning"):
                    out.append(entry["text"])
            elif event["method"] == "Runtime.exceptionThrown":
                out.append(str(event["params"]["exceptionDetails"]))
            elif event["method"] == "Runtime.consoleAPICalled" and event["params"]["type"] in (
                "error",
                "warning",
            ):
                out.append(str(event["params"]["args"]))
        return out

    def close(self) -> None:
        """End the browser and remove its profile."""
        with contextlib.suppress(BrowserError, OSError):
            self.command("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_child)
        os.close(self._from_child)
        self.profile.cleanup()


def pixels(png: bytes) -> Any:
    """The screenshot as a Pillow RGB image."""
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB")
