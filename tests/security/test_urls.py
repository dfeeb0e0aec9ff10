"""URLs: only the data schemes are opened unless allowed, a web page is one file, and
every failure of a storage is one line (docs/security.md, "Network")."""

from __future__ import annotations

import http.server
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from security_helpers import GAME, Listener, no_traceback, one_line, pdn

pytest.importorskip("fsspec", reason="URLs are read through fsspec (the dask extra)")

REFUSED = [
    "ftp://127.0.0.1:{port}/x.pdn",
    "sftp://127.0.0.1:{port}/x.pdn",
    "hdfs://127.0.0.1:{port}/x.pdn",
    "reference://x.pdn",
    "dir://x.pdn",
    "data://x.pdn",
    "tar://x.pdn::file:///missing.tar",
    "zip://x.pdn::file:///missing.zip",
    "memory://x.pdn::ftp://127.0.0.1:{port}/y",
]


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    try:
        yield server
    finally:
        server.close()


@pytest.mark.parametrize("url", REFUSED)
def test_other_schemes_are_refused_without_a_connection(listener: Listener, url: str) -> None:
    done = pdn("validate", url.format(port=listener.port), "--isolated")
    assert done.returncode == 2
    line = one_line(done)
    assert "URLs are not read unless allowed (--allow-scheme" in line
    assert listener.connections == 0


def test_a_chain_that_does_not_start_with_a_scheme_is_a_local_path(listener: Listener) -> None:
    """fsspec would open ``simplecache::ftp://…`` through a cache and a connection;
    here it is only a file name, which does not exist."""
    done = pdn("validate", f"simplecache::ftp://127.0.0.1:{listener.port}/x.pdn", "--isolated")
    assert done.returncode == 2
    assert one_line(done).endswith("no such file or directory")
    assert listener.connections == 0


@pytest.mark.parametrize("scheme", ["ftp", "FTP://"])
def test_an_allowed_scheme_that_fails_is_one_line(listener: Listener, scheme: str) -> None:
    url = f"ftp://127.0.0.1:{listener.port}/x.pdn"
    done = pdn("validate", url, "--allow-scheme", scheme, "--isolated", timeout=120)
    assert done.returncode == 2
    assert one_line(done).startswith(f"pdn validate: {url}: cannot be read (")
    assert listener.connections >= 1


@pytest.mark.parametrize(
    "url", ["reference://x.pdn", "dir://x.pdn", "data://x.pdn", "tar://x.pdn::file:///nope.tar"]
)
def test_allowed_protocols_that_cannot_work_are_one_line(url: str) -> None:
    schemes = [s.split("://")[0] for s in url.split("::")]
    args = [arg for s in schemes for arg in ("--allow-scheme", s)]
    done = pdn("validate", url, *args, "--isolated", timeout=120)
    assert done.returncode == 2
    one_line(done)


def test_an_unknown_allow_scheme_value_is_a_usage_error() -> None:
    done = pdn("validate", "corpus/", "--allow-scheme", "not a scheme")
    assert done.returncode == 2
    assert "is not a URL scheme" in one_line(done)


class _Site(http.server.SimpleHTTPRequestHandler):
    """Serves a folder and notes every path asked for."""

    asked: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        type(self).asked.append(self.path)
        super().do_GET()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """A web server on 127.0.0.1 with a game and an index page linking to others."""
    root = tmp_path / "site"
    root.mkdir()
    (root / "game.pdn").write_text(GAME, encoding="utf-8")
    (root / "other.pdn").write_text(GAME, encoding="utf-8")
    asked: list[str] = []

    class Handler(_Site):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(root), **kwargs)  # type: ignore[arg-type]

    Handler.asked = asked
    server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", asked
    finally:
        server.shutdown()
        server.server_close()


def test_a_web_file_is_read(site: tuple[str, list[str]]) -> None:
    base, asked = site
    done = pdn("validate", f"{base}/game.pdn", "--format", "jsonl", "--isolated", timeout=120)
    no_traceback(done)
    assert done.returncode == 0
    assert '"game": 1' in done.stdout
    assert all(path == "/game.pdn" for path in asked)


def test_a_web_page_is_one_file_and_its_links_are_not_followed(
    site: tuple[str, list[str]],
) -> None:
    base, asked = site
    done = pdn("validate", f"{base}/", "--format", "jsonl", "--isolated", timeout=120)
    no_traceback(done)
    assert set(asked) <= {"/"}, asked  # the directory listing is never crawled
    assert "other.pdn" not in done.stdout


def test_a_missing_web_file_is_one_line(site: tuple[str, list[str]]) -> None:
    base, _ = site
    done = pdn("validate", f"{base}/none.pdn", "--isolated", timeout=120)
    assert done.returncode == 2
    assert one_line(done) == f"pdn validate: {base}/none.pdn: no such file or directory"


def test_file_urls_are_local_paths(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.pdn").write_text(GAME, encoding="utf-8")
    (tmp_path / "secret.env").write_text("TOKEN=1\n", encoding="utf-8")
    (folder / "env.pdn").symlink_to("../secret.env")
    done = pdn("validate", f"file://{folder}", "--format", "jsonl", "--isolated")
    no_traceback(done)
    assert "TOKEN" not in done.stdout and "W39" in done.stdout
    assert f'"file": "{folder}/a.pdn"' in done.stdout
    target = folder / "a.pdn"
    before = target.read_bytes()
    clash = pdn("convert", f"file://{target}", "-o", str(target), "--isolated")
    assert clash.returncode == 2
    assert "is also an input" in one_line(clash)
    assert target.read_bytes() == before
