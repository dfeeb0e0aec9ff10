"""Outputs that appear only when complete, and write errors that name the output.

Every file a command writes goes through :class:`Outputs`: the data goes to a
temporary file in the same directory as the final file, named ``.NAME.pdn-tmp-XXXXXXXX``,
and the temporaries are renamed onto their final names together when the run has
completed (:meth:`Outputs.commit`).  A run that fails, is interrupted (SIGINT) or is
terminated (SIGTERM, SIGHUP, turned into :class:`Terminated` by
:func:`handle_termination`) removes its temporaries and leaves every previous file
untouched; a run killed outright (SIGKILL) leaves at most a temporary under that
clearly marked name, never a truncated file under the final name.

Standard output (``-``) and existing files that are not regular files (``/dev/null``,
a FIFO) are written in place and stream as they are written: they cannot be renamed onto.

A write that fails raises :class:`OutputError`, whose text names the output as the
user gave it (``out.jsonl: No space left on device``), never the temporary.

This module sits at the bottom layer (it knows nothing of PDN) so that every writer,
from the exporters to the command line, can use it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import Any, BinaryIO, TextIO, cast

TEMP_MARK = ".pdn-tmp-"
"""Part of the name of every temporary output: ``.NAME.pdn-tmp-XXXXXXXX``."""
OLD_MARK = ".pdn-old-"
"""Part of the name an output directory is moved aside to while it is replaced."""
STDOUT_NAME = "<stdout>"
"""How standard output is named in messages."""
_NAME_ROOM = 180
"""Bytes of the final name kept in a temporary's name (the rest of 255 is the mark)."""
_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class OutputError(OSError):
    """Writing an output failed; ``str()`` reads ``NAME: reason``, NAME as given."""

    def __init__(self, name: str, code: int | None, reason: str) -> None:
        super().__init__(code, reason)
        self.name = name

    def __str__(self) -> str:
        return f"{self.name}: {self.strerror}"


class Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM, SIGHUP): unwinds like Ctrl-C, so that
    every ``finally`` runs and temporaries are removed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_RECEIVED: list[int] = []
"""The stopping signals this process has received (with :func:`handle_termination`).

Python raises a signal's exception wherever the main thread happens to be; when that
is a finaliser (a ``__del__``, a generator closed by the garbage collector), the
exception is printed as "ignored" and lost.  The signal is also noted here, and the
places that must not go on after it (each game of a run, :meth:`Outputs.commit`)
look here (:func:`check_stop`), so that no signal is ever swallowed."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    _RECEIVED.append(signum)
    raise Terminated(signum)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    _RECEIVED.append(signum)
    raise KeyboardInterrupt


def handle_termination() -> None:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` and note SIGINT before it
    becomes ``KeyboardInterrupt``, in this process (main thread only), unless they
    are ignored (``nohup``, a background job) or already handled."""
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
            signal.signal(signum, _terminate)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)
    sys.unraisablehook = _unraisable


def _unraisable(info: Any) -> None:
    """Python's hook for an exception it cannot raise (in a finaliser): a stopping
    signal's exception lost there is already noted in :data:`_RECEIVED` and acted on
    (:func:`check_stop`), so it is not printed; anything else is, as by default."""
    if isinstance(info.exc_value, KeyboardInterrupt) and _RECEIVED:
        return
    sys.__unraisablehook__(info)


def stop_signal() -> int | None:
    """The first stopping signal this process received, or None."""
    return _RECEIVED[0] if _RECEIVED else None


def check_stop() -> None:
    """Raise the exception of a stopping signal received earlier (``KeyboardInterrupt``
    for SIGINT, :class:`Terminated` for the others), even when the one raised at the
    time was lost in a finaliser; do nothing when none was received."""
    if _RECEIVED:
        signum = _RECEIVED[0]
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(signum)


def default_termination() -> None:
    """Give SIGTERM and SIGHUP back their default action (in a worker process), forget
    the signals the parent had received before the worker was forked, and let through
    those it held back while it forked (:func:`signals_held`)."""
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is _terminate:
            signal.signal(signum, signal.SIG_DFL)
    _RECEIVED.clear()
    if hasattr(signal, "pthread_sigmask"):  # forked while the parent held them back
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back while a step that must not be cut in two
    runs (temporaries renamed or removed; a pool of workers started), so that a signal
    cannot leave the job half done; they arrive afterwards.  Threads and processes
    started meanwhile inherit the held mask (a worker lets them through again:
    :func:`default_termination`)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    except (OSError, ValueError):  # not the main thread of a process that allows it
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class _Guarded(io.RawIOBase):
    """The raw writer under every output stream: writes to a file descriptor or to a
    binary stream, turns errors into :class:`OutputError` naming the output, and can
    be dropped (later writes are discarded silently, so that a failed run's buffers
    never fail again when they are garbage-collected)."""

    def __init__(self, name: str, fd: int | None = None, stream: BinaryIO | None = None) -> None:
        super().__init__()
        self.name = name
        self.fd = fd
        self.stream = stream
        self.dropped = False
        self.position = 0
        self.failure: OutputError | None = None

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        """Whether the output is a terminal (colour and progress depend on it)."""
        try:
            if self.fd is not None:
                return os.isatty(self.fd)
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def tell(self) -> int:
        return self.position

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        if self.dropped:
            return len(data)
        try:
            if self.fd is not None:
                written = os.write(self.fd, data)
            else:
                assert self.stream is not None
                self.stream.write(data)
                self.stream.flush()
                written = len(data)
        except OSError as exc:
            self.failure = self.failure or _error(self.name, exc)
            raise self.failure from None
        except ValueError as exc:  # the stream under us was closed
            self.failure = self.failure or OutputError(self.name, None, str(exc))
            raise self.failure from None
        self.position += written
        return written


def printable(path: str) -> str:
    """*path* as text that every output can hold and a terminal shows as it is: bytes
    of a file name that are not UTF-8 (kept by Python as lone surrogates) are shown
    as ``\\xNN``, and control characters are escaped (:func:`shown`)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        path = os.fsencode(path).decode("utf-8", "backslashreplace")
    return shown(path)


_UNSAFE = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
    "\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""Characters of the input that are never written raw to a human format: C0 and C1
controls but the tab (ESC starts a terminal's escape sequences: colours, the window
title, the clipboard), line and paragraph separators, and the marks that reorder
bidirectional text (which can make a line read differently from what it holds)."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    """*text* from the input, safe to show on a terminal: every character of
    :data:`_UNSAFE` (newlines too) written as ``\\xNN`` or ``\\uNNNN``, the rest as
    it is.  Every human format passes what it quotes of the input through this."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def shown_context(context: str) -> str:
    """A finding's context — the source line, then a caret under a column — with
    the source escaped as :func:`shown` does and the caret moved to stay under the
    same character."""
    source, newline, caret = context.partition("\n")
    if not newline or caret.strip() != "^":
        return "\n".join(shown(part) for part in context.split("\n"))
    column = len(caret) - 1
    return f"{shown(source)}\n{' ' * len(shown(source[:column]))}^"


@dataclass(slots=True)
class _Pending:
    """One output of a run: where it goes and how far it got."""

    name: str
    """The name as given, for messages."""
    target: str | None
    """The final path (links followed); None for standard output."""
    temp: str | None
    """The temporary (file or directory) renamed onto *target*; None: written in place."""
    raw: _Guarded | None = None
    streams: list[io.IOBase] = field(default_factory=list)
    directory: bool = False


def _buffered(raw: _Guarded) -> BinaryIO:
    """A buffered binary writer over *raw*."""
    return cast(BinaryIO, io.BufferedWriter(cast(Any, raw), buffer_size=1 << 16))


def _text(buffer: BinaryIO) -> TextIO:
    """UTF-8 text over *buffer*, ``\\n`` line ends; what UTF-8 cannot hold (a lone
    surrogate) is written as a backslash escape instead of failing."""
    return io.TextIOWrapper(
        buffer,
        encoding="utf-8",
        errors="backslashreplace",
        newline="\n",
        write_through=False,
    )


def _mode_for(target: str) -> int:
    """Permissions of a new output: those of the file it replaces, else the default
    for a new file (0666 less the umask)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _check_name(name: str, target: str) -> None:
    """Refuse, before anything is written, a final name longer than its file system
    allows (it would only fail when the run is over, at the rename)."""
    folder, base = os.path.split(target)
    try:
        limit = os.pathconf(folder or ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(os.fsencode(base)) > limit:
        raise OutputError(name, errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))


def _temp_prefix(target: str) -> tuple[str, str]:
    """The directory of *target* and the prefix of its temporaries."""
    folder, base = os.path.split(target)
    raw = os.fsencode(base)[:_NAME_ROOM]
    return folder or ".", "." + os.fsdecode(raw) + TEMP_MARK


def _in_place(target: str) -> bool:
    """Whether *target* exists and is not a regular file or directory (a device, a
    FIFO, a socket): such an output is written directly."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _error(name: str, exc: OSError) -> OutputError:
    if isinstance(exc, OutputError):
        return exc
    return OutputError(name, exc.errno, exc.strerror or str(exc))


class Outputs:
    """The outputs of one run, each written to a temporary and renamed into place
    together by :meth:`commit`.

    Used as a context manager, the outputs are committed when the block ends normally
    and discarded (temporaries removed, previous files untouched) when it ends with an
    exception, Ctrl-C and :class:`Terminated` included::

        with Outputs() as outputs:
            out = outputs.text("games.pdn")
            ...                          # write; an error leaves games.pdn as it was
        # games.pdn is complete here

    ``-`` names standard output, which streams and is only flushed at the end.
    """

    def __init__(self) -> None:
        self._pending: list[_Pending] = []
        self._finished = False

    def __enter__(self) -> Outputs:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    # -- opening -------------------------------------------------------------------
    def binary(self, path: str) -> BinaryIO:
        """A buffered binary stream whose content becomes *path* at commit."""
        pending = self._open(path)
        assert pending.raw is not None
        stream = _buffered(pending.raw)
        pending.streams.append(stream)  # type: ignore[arg-type]
        return stream

    def text(self, path: str) -> TextIO:
        """A UTF-8 text stream (``\\n`` line ends) whose content becomes *path* at commit."""
        buffer = self.binary(path)
        stream = _text(buffer)
        self._pending[-1].streams.append(stream)  # type: ignore[arg-type]
        return stream

    def directory(self, path: str) -> str:
        """A new empty directory, to be filled by the caller, that replaces *path* (a
        directory or nothing) at commit.  Returns the directory to write into.

        The old directory is moved aside (``.NAME.pdn-old-XXXXXXXX``) for the instant
        between the two renames, then removed.
        """
        if self._finished:
            raise ValueError("outputs already committed or discarded")
        target = os.path.realpath(path)
        name = printable(path)
        if os.path.lexists(target) and not os.path.isdir(target):
            raise OutputError(name, errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        _check_name(name, target)
        folder, prefix = _temp_prefix(target)
        try:
            temp = tempfile.mkdtemp(prefix=prefix, dir=folder)
        except OSError as exc:
            raise _error(name, exc) from None
        self._pending.append(_Pending(name, target, temp, directory=True))
        return temp

    def file(self, path: str) -> str:
        """A new empty temporary file beside *path*, for the caller to open, write and
        close as often as it likes (appending), renamed onto *path* at commit.

        For outputs written a piece at a time among many others (one file per group
        of games), so that no more files need be open at once than the caller wants.
        Standard output and devices are refused (ValueError): they cannot be renamed onto.
        """
        if self._finished:
            raise ValueError("outputs already committed or discarded")
        target = os.path.realpath(path)
        name = printable(path)
        if path == "-" or _in_place(target):
            raise ValueError(f"{name} cannot be written through a temporary file")
        if os.path.isdir(target):
            raise OutputError(name, errno.EISDIR, os.strerror(errno.EISDIR))
        _check_name(name, target)
        folder, prefix = _temp_prefix(target)
        try:
            fd, temp = tempfile.mkstemp(prefix=prefix, dir=folder)
        except OSError as exc:
            raise _error(name, exc) from None
        try:
            with contextlib.suppress(OSError):
                os.fchmod(fd, _mode_for(target))
        finally:
            os.close(fd)
        self._pending.append(_Pending(name, target, temp))
        return temp

    def _open(self, path: str) -> _Pending:
        if self._finished:
            raise ValueError("outputs already committed or discarded")
        if path == "-":
            stdout = _stdout_buffer()
            pending = _Pending(STDOUT_NAME, None, None, _Guarded(STDOUT_NAME, stream=stdout))
        else:
            target = os.path.realpath(path)
            name = printable(path)
            if os.path.isdir(target):
                raise OutputError(name, errno.EISDIR, os.strerror(errno.EISDIR))
            if _in_place(target):
                try:
                    fd = os.open(target, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0))
                except OSError as exc:
                    raise _error(name, exc) from None
                pending = _Pending(name, None, None, _Guarded(name, fd=fd))
            else:
                _check_name(name, target)
                folder, prefix = _temp_prefix(target)
                try:
                    fd, temp = tempfile.mkstemp(prefix=prefix, dir=folder)
                except OSError as exc:
                    raise _error(name, exc) from None
                pending = _Pending(name, target, temp, _Guarded(name, fd=fd))
                with contextlib.suppress(OSError):  # a courtesy: the content is what matters
                    os.fchmod(fd, _mode_for(target))
        self._pending.append(pending)
        return pending

    # -- finishing -----------------------------------------------------------------
    def commit(self) -> None:
        """Flush every output and rename each temporary onto its final name.

        Everything is flushed (and synced to disk) before the first rename, so a full
        disk leaves every previous file in place: it raises :class:`OutputError` after
        removing the temporaries.  Signals wait until the renames are done.
        """
        if self._finished:
            return
        try:
            check_stop()  # a run told to stop never puts its outputs in place
        except BaseException:
            self.discard()
            raise
        with signals_held():
            placed: list[tuple[_Pending, str | None, bool]] = []
            try:
                for pending in self._pending:
                    self._flush(pending)
                for pending in self._pending:
                    target = pending.target
                    existed = target is not None and os.path.lexists(target)
                    kept = self._keep_previous(pending) if existed else None
                    placed.append((pending, kept, existed))
                    self._rename(pending)
            except BaseException:
                _put_back(placed)
                self.discard()
                raise
            self._finished = True
            for _pending, kept, _existed in placed:
                if kept is not None:
                    _remove(kept)

    def discard(self) -> None:
        """Drop every output not yet in place: temporaries removed, nothing renamed."""
        if self._finished:
            return
        self._finished = True
        with signals_held():
            for pending in self._pending:
                raw = pending.raw
                if raw is not None:
                    raw.dropped = True
                    for stream in reversed(pending.streams):
                        with contextlib.suppress(Exception):
                            stream.flush()  # into the void: the raw writer drops it
                    if raw.fd is not None:
                        with contextlib.suppress(OSError):
                            os.close(raw.fd)
                        raw.fd = None
                if pending.temp is not None:
                    with contextlib.suppress(OSError):
                        if pending.directory:
                            shutil.rmtree(pending.temp)
                        else:
                            os.unlink(pending.temp)
                    pending.temp = None

    def _flush(self, pending: _Pending) -> None:
        raw = pending.raw
        if raw is None:
            if pending.temp is not None and not pending.directory:
                _sync_file(pending.name, pending.temp)  # written by the caller (file())
            return
        try:
            for stream in reversed(pending.streams):
                if not stream.closed:
                    stream.flush()
            if raw.fd is not None and pending.temp is not None:
                os.fsync(raw.fd)
        except OSError as exc:
            raise _error(pending.name, exc) from None

    @staticmethod
    def _keep_previous(pending: _Pending) -> str | None:
        """Keep the file or directory an output replaces under a marked name until
        every output is in place (a hard link to a file, a directory moved aside), so
        that a commit failing half-way can put back what it had replaced; None when it
        cannot be kept (the file system has no hard links)."""
        target = pending.target
        if target is None or pending.temp is None:
            return None
        folder, base = os.path.split(target)
        prefix = "." + os.fsdecode(os.fsencode(base)[:_NAME_ROOM]) + OLD_MARK
        try:
            aside = tempfile.mkdtemp(prefix=prefix, dir=folder or ".")
            os.rmdir(aside)
            if pending.directory:
                os.rename(target, aside)
            else:
                os.link(target, aside)
        except OSError:
            return None
        return aside

    def _rename(self, pending: _Pending) -> None:
        raw = pending.raw
        if raw is not None:
            raw.dropped = True  # everything is flushed; late flushes change nothing
            if pending.target is None:  # standard output or a device: leave it open
                for stream in reversed(pending.streams):
                    if isinstance(stream, (io.TextIOWrapper, io.BufferedWriter)):
                        with contextlib.suppress(ValueError):
                            stream.detach()
            if raw.fd is not None:
                fd, raw.fd = raw.fd, None
                try:
                    os.close(fd)
                except OSError as exc:
                    raise _error(pending.name, exc) from None
        if pending.temp is None or pending.target is None:
            return
        try:
            if pending.directory:
                _replace_directory(pending.temp, pending.target)
            else:
                os.replace(pending.temp, pending.target)
        except OSError as exc:
            raise _error(pending.name, exc) from None
        pending.temp = None
        _sync_directory(os.path.dirname(pending.target) or ".")


def _put_back(placed: list[tuple[_Pending, str | None, bool]]) -> None:
    """Undo the renames of a commit that failed half-way: each output already in
    place gives way to what it replaced (or disappears when it replaced nothing)."""
    for pending, kept, existed in reversed(placed):
        target = pending.target
        if target is None:
            continue
        with contextlib.suppress(OSError):
            if kept is not None:
                if pending.directory:
                    if os.path.lexists(target) and pending.temp is None:
                        shutil.rmtree(target)
                    os.rename(kept, target)
                else:
                    os.replace(kept, target)
            elif not existed and pending.temp is None:
                if pending.directory:
                    shutil.rmtree(target)
                else:
                    os.unlink(target)


def _remove(path: str) -> None:
    """Remove a kept previous output (a file or a directory), quietly."""
    with contextlib.suppress(OSError):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)


def _sync_file(name: str, path: str) -> None:
    """Make the content of the closed file *path* durable; errors name *name*."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _error(name, exc) from None
    try:
        os.fsync(fd)
    except OSError as exc:
        raise _error(name, exc) from None
    finally:
        os.close(fd)


def _replace_directory(temp: str, target: str) -> None:
    """Put directory *temp* in the place of *target* (a directory or nothing): the old
    one is moved aside under a marked name, the new one renamed in, the old removed."""
    if not os.path.lexists(target):
        os.rename(temp, target)
        return
    folder, base = os.path.split(target)
    aside = tempfile.mkdtemp(prefix="." + base[:_NAME_ROOM] + OLD_MARK, dir=folder or ".")
    os.rmdir(aside)
    os.rename(target, aside)
    try:
        os.rename(temp, target)
    except OSError:
        os.rename(aside, target)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def _sync_directory(folder: str) -> None:
    """Make a rename in *folder* durable (where directories can be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _stdout_buffer() -> BinaryIO:
    """The binary stream under ``sys.stdout`` (after flushing its text layer)."""
    out = sys.stdout
    out.flush()
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        raise OutputError(STDOUT_NAME, None, "standard output takes no bytes")
    return buffer  # type: ignore[no-any-return]


class GuardedStdout:
    """Standard output as a text stream whose write errors are :class:`OutputError`
    naming ``<stdout>`` (UTF-8, ``\\n`` line ends, lone surrogates escaped).

    The first error is also kept in :attr:`failure`, so that a caller which saw it
    swallowed on the way (a library catching ``OSError``) still learns of it.
    """

    def __init__(self) -> None:
        line_buffering = bool(getattr(sys.stdout, "line_buffering", False))  # a terminal
        self._raw = _Guarded(STDOUT_NAME, stream=_stdout_buffer())
        self.text = _text(_buffered(self._raw))
        self.text.reconfigure(line_buffering=line_buffering)  # type: ignore[attr-defined]

    @property
    def failure(self) -> OutputError | None:
        """The first write error met, if any."""
        return self._raw.failure

    def finish(self) -> None:
        """Flush; raise the first write error met, if any, and drop what is left."""
        with contextlib.suppress(OutputError):
            self.text.flush()
        failure = self._raw.failure
        if failure is not None:
            self.drop()
            raise failure

    def drop(self) -> None:
        """Discard anything still buffered (the output failed or the run was cut)."""
        self._raw.dropped = True
        with contextlib.suppress(Exception):
            self.text.flush()


__all__ = [
    "OLD_MARK",
    "STDOUT_NAME",
    "TEMP_MARK",
    "GuardedStdout",
    "OutputError",
    "Outputs",
    "Terminated",
    "check_stop",
    "default_termination",
    "handle_termination",
    "printable",
    "signals_held",
    "stop_signal",
]
