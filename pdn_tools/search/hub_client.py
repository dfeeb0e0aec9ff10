"""Driving a Hub engine: any program that speaks the protocol on its standard streams.

:class:`HubEngine` starts the engine's command (``scan hub``, ``pdn engine --hub``),
says ``hub`` and reads its ``id`` and ``param`` lines up to ``wait``, sets the
parameters asked for, says ``init`` and waits for ``ready`` (an ``error`` the engine
answers meanwhile, when parameters were set, is a refused parameter: a HubError that
names it and gives the engine's message).  :meth:`HubEngine.analyse`
sends ``pos``, ``level`` and ``go analyze`` and reads ``info`` lines up to ``done``.
It knows nothing of the engine beyond the protocol: moves and positions are the
protocol's text, read back into the rules engine's moves (a move the engine names that
is not legal is an error, never trusted).

Every wait for an answer is bounded (*timeout* seconds; HubError after it), and so is
what the client holds of the engine's output: a line of at most :data:`MAX_LINE`
characters, at most :data:`MAX_LINES` lines for one answer, at most
:data:`MAX_LINES` lines waiting to be read (the engine then waits on its full pipe).
The engine is ended when the client closes (``quit``, then terminated, then killed,
each after a bounded wait), and an engine that dies, floods or writes nonsense is an
error that says so.
"""

from __future__ import annotations

import contextlib
import math
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO

from pdn_tools.rules.move import Move
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import Variant
from pdn_tools.search.hub import (
    HubError,
    format_line,
    parse_line,
    parse_move,
    position_text,
)

MAX_LINE = 1 << 16
"""The longest line read from an engine, in characters (a Hub line is a few hundred);
a longer one is an error, never held whole."""
MAX_LINES = 100_000
"""The most lines one answer may take, and the most held unread (a search writes one
``info`` line per depth)."""

WIN_SCORE = 80.0
"""Scores (in men) beyond which an engine that gives no ``win`` field is read as
announcing a forced end, never as material (Scan's decisive scores: 99.xx, the end of
the game; 89.xx, a won endgame reached; no count of material comes near)."""
END_SCORE = 99.0
"""Scores (in men) beyond which a decisive score gives its distance: Scan writes a
forced end of the game as 100 men less one hundredth per ply to it (99.95: the end in
5 plies).  Below it (Scan's 89.xx, a won endgame ahead) the distance to the end is not
known."""


class HubResult:
    """What a Hub engine said about a position.

    ``score`` is in centi-men for the side to move (None when the engine gave none, or
    a decisive one); ``win_in`` plies to a forced end when the engine says so (our
    ``win`` field, or a decisive score that gives its distance: :data:`END_SCORE`);
    ``won`` 1 (the side to move wins) or -1 (it loses) for a decisive score that does
    not give its distance, else 0;
    ``pv`` the principal variation as legal moves (as far as they are legal);
    ``best_move`` the move of ``done``.
    """

    __slots__ = ("best_move", "depth", "info", "nodes", "pv", "score", "win_in", "won")

    def __init__(self) -> None:
        self.best_move: Move | None = None
        self.score: int | None = None
        self.win_in: int | None = None
        self.won = 0
        self.depth: int | None = None
        self.nodes: int | None = None
        self.pv: list[Move] = []
        self.info: list[dict[str, str]] = []
        """Every ``info`` line's arguments, in order."""


def _finite(text: str | None) -> float | None:
    """*text* as a finite number (None: absent, not a number, infinite or NaN)."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _integer(text: str | None) -> int | None:
    """*text* as an integer (None: absent or not one)."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return None


class HubEngine:
    """A running Hub engine (use as a context manager, or call :meth:`close`)."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = 30.0,
        params: dict[str, str] | None = None,
    ) -> None:
        try:
            argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as exc:  # an unclosed quotation, a lone escape
            raise HubError(f"cannot read the engine command {command!r}: {exc}") from None
        if not argv:
            raise HubError("no engine command given")
        if not (isinstance(timeout, (int, float)) and 0 < timeout <= threading.TIMEOUT_MAX):
            # Every wait is bounded: nan would make it endless, inf and 1e300 overflow
            # the clock the wait is counted on.
            raise ValueError(
                f"an engine's timeout is a positive number of seconds, not {timeout!r}"
            )
        self.argv = argv
        self.timeout = timeout
        self.id: dict[str, str] = {}
        self.params: dict[str, dict[str, str]] = {}
        self.variant: str | None = None
        """The engine's ``variant`` parameter as last set or declared (None: it has
        none)."""
        self.lines: queue.Queue[str | HubError | None] = queue.Queue(maxsize=MAX_LINES)
        self.closed = threading.Event()
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise HubError(f"cannot start engine {argv[0]!r}: {exc.strerror or exc}") from None
        assert self.process.stdout is not None
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self.reader.start()
        try:
            self.send("hub")
            for command, args in self.until("wait"):
                if command == "id":
                    self.id = args
                elif command == "param" and "name" in args:
                    self.params[args["name"]] = args
            if "variant" in self.params:
                self.variant = self.params["variant"].get("value")
            for name, value in (params or {}).items():
                self.send(format_line("set-param", name=name, value=value))
                if name == "variant":
                    self.variant = value
            self.send("init")
            refused = [args for command, args in self.until("ready") if command == "error"]
            if params and refused:
                raise HubError(self._refusal(params, refused[0].get("message", "")))
        except BaseException:
            self.close()
            raise

    def _refusal(self, params: dict[str, str], message: str) -> str:
        """What to say of an ``error`` the engine answered to the parameters *params*
        (the protocol does not say which one it refused: the one its message names,
        else the only one set, else all of them)."""
        named = [n for n, v in params.items() if n in message or (v and v in message)]
        chosen = named[:1] or list(params)
        which = ", ".join(f"{name}={params[name]}" for name in chosen)
        noun = "parameter" if len(chosen) == 1 else "parameters"
        said = message or "no reason given"
        return f"engine {self.argv[0]!r} refused the {noun} {which}: {said}"

    # ------------------------------------------------------------------ streams
    def _read(self, stream: IO[str]) -> None:
        """Hand the engine's lines on, up to its end or an overlong line (then an
        error is handed on and the rest is not read)."""
        with contextlib.suppress(OSError, ValueError):
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    self._hand_on(
                        HubError(
                            f"engine {self.argv[0]!r} wrote a line longer than "
                            f"{MAX_LINE:,} characters"
                        )
                    )
                    return
                if not self._hand_on(line):
                    return
        self._hand_on(None)

    def _hand_on(self, item: str | HubError | None) -> bool:
        """Queue *item* for the reader of the answers, waiting while the queue is
        full; False when the client closed meanwhile."""
        while not self.closed.is_set():
            try:
                self.lines.put(item, timeout=0.1)
            except queue.Full:
                continue
            return True
        return False

    def send(self, line: str) -> None:
        """Write one line to the engine."""
        stdin = self.process.stdin
        try:
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise HubError(f"engine {self.argv[0]!r} is not listening (it ended?)") from None

    def until(self, last: str) -> list[tuple[str, dict[str, str]]]:
        """The lines the engine writes up to and including the command *last*, each
        within the timeout (HubError when the engine ends or is silent too long)."""
        seen: list[tuple[str, dict[str, str]]] = []
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                raise HubError(
                    f"engine {self.argv[0]!r} did not answer {last!r} within {self.timeout:g} s"
                ) from None
            if line is None:
                raise HubError(f"engine {self.argv[0]!r} ended before {last!r}")
            if isinstance(line, HubError):
                raise line
            command, args = parse_line(line)
            if not command:
                continue
            if len(seen) >= MAX_LINES:
                raise HubError(
                    f"engine {self.argv[0]!r} wrote more than {MAX_LINES:,} lines without {last!r}"
                )
            seen.append((command, args))
            if command == last:
                return seen

    # ------------------------------------------------------------------ analysis
    def analyse(
        self,
        position: Position,
        variant: Variant,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> HubResult:
        """Ask the engine about *position*: ``pos``, ``level``, ``go analyze``; the
        ``info`` lines and the ``done`` move read back.  HubError: an illegal move, or
        an ``error`` the engine answered (a position or level it refused).

        An engine that declares a ``variant`` parameter is set to *variant* first
        when it names it among its values (``normal`` stands for international, as
        Scan names it), so one engine analyses a collection of several variants."""
        self.choose_variant(variant)
        self.send(format_line("pos", pos=position_text(position)))
        if depth is not None:
            self.send(format_line("level", depth=depth))
        elif nodes is not None:
            self.send(format_line("level", nodes=nodes))
        else:
            self.send(format_line("level", move_time=seconds if seconds is not None else 1.0))
        self.send("go analyze")
        result = HubResult()
        for command, args in self.until("done"):
            if command == "error":
                said = args.get("message") or "no reason given"
                raise HubError(
                    f"engine {self.argv[0]!r} refused the {variant.name} position "
                    f"{position_text(position)}: {said}"
                )
            if command == "info":
                result.info.append(args)
                self._read_info(result, args, position, variant)
            elif command == "done" and args.get("move"):
                result.best_move = parse_move(args["move"], position, variant)
        if result.best_move is None and result.pv:
            result.best_move = result.pv[0]
        return result

    def choose_variant(self, variant: Variant) -> None:
        """Set the engine's ``variant`` parameter to *variant* when the engine has
        one, names *variant* among its values and is not set to it already (an engine
        without the parameter, or that names the variant otherwise, is left as it
        is: its own error then says what it makes of the position)."""
        declared = self.params.get("variant")
        if declared is None:
            return
        values = declared.get("values", "").split()
        names = [variant.name, "normal"] if variant.name == "international" else [variant.name]
        for name in names:
            if name in values:
                if self.variant != name:
                    self.send(format_line("set-param", name="variant", value=name))
                    self.variant = name
                return

    @staticmethod
    def _read_info(
        result: HubResult, args: dict[str, str], position: Position, variant: Variant
    ) -> None:
        depth, nodes = _integer(args.get("depth")), _integer(args.get("nodes"))
        if depth is not None:
            result.depth = depth
        if nodes is not None:
            result.nodes = nodes
        men = _finite(args.get("score"))
        if men is not None and not math.isfinite(men * 100):
            men = None  # 1e308 men: no count of centi-men either
        if men is not None:  # a score that is no finite number is no score
            result.score, result.win_in, result.won = round(men * 100), None, 0
            win = _integer(args.get("win"))
            if win is not None:
                result.win_in = win
            elif abs(men) > WIN_SCORE:
                # A decisive score is a forced end, never a count of material.
                result.score = None
                sign = 1 if men > 0 else -1
                if abs(men) > END_SCORE:
                    result.win_in = sign * max(1, round((100 - abs(men)) * 100))
                else:
                    result.won = sign
        if "pv" in args:
            line: list[Move] = []
            for text in args["pv"].split():
                try:
                    move = parse_move(text, position, variant)
                except HubError:
                    break
                line.append(move)
                position = position.apply(move)
            result.pv = line

    # ------------------------------------------------------------------ the end
    def close(self) -> None:
        """End the engine: ``quit``, then terminate, then kill (bounded waits)."""
        self.closed.set()
        process = self.process
        if process.poll() is None:
            with contextlib.suppress(HubError):
                self.send("quit")
            try:
                process.wait(timeout=min(self.timeout, 5.0))
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(timeout=5.0)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
