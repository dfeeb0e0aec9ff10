"""The built-in searcher as a Hub engine: ``pdn engine --hub``.

The server reads protocol lines from its input and answers on its output, one line at
a time, flushed.  It declares one parameter, ``variant`` (every variant of the rules
engine; ``normal`` is accepted for international, as Scan names it), and a ``nodes``
level besides the protocol's ``depth``, ``move-time``, ``time`` and ``infinite``.  A
search runs in a thread so that ``stop``, ``ping`` and ``quit`` are heard while it
runs; it reports ``info`` after each completed iteration (``score`` in men for the side
to move, as Scan does, and ``win`` — plies to a forced end, signed — when there is
one) and ends with ``done move=… ponder=…``.  ``go ponder`` searches as ``go think``
does, to the level's budget, so ``ponder-hit`` (the move pondered on was played) has
nothing to change and is accepted silently.  A ``pos`` it cannot read is an
``error`` and leaves no position: a ``go`` then answers ``error`` and a bare ``done``,
never a move of the position before.  An input that ends stops the server (the
protocol's rule: the GUI is gone).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import IO

from pdn_tools.rules.generators import legal_moves
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import INTERNATIONAL, Variant, variant_by_name, variants
from pdn_tools.search.analysis import Analysis, analyse
from pdn_tools.search.hub import (
    HubError,
    format_line,
    move_text,
    parse_line,
    parse_move,
    parse_position,
)
from pdn_tools.search.searcher import Searcher

NAME = "pdn-tools"
MAX_LINE = 1 << 16
"""The longest command line read whole, in characters (a Hub line is a few hundred)."""
DEFAULT_DEPTH = 8
"""The level of a search when none was set."""


Budget = tuple[int | None, int | None, float | None]
"""A search's depth, nodes and seconds (None: no limit of that kind)."""


def _number(
    args: dict[str, str], name: str, kind: type[int] | type[float], zero: bool = False
) -> float | None:
    """The value of *name* in *args* as a finite number above zero (or zero too, with
    *zero*); None when absent."""
    if name not in args:
        return None
    text = args[name]
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"level {name}={text}: not a number") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        wanted = "zero or more" if zero else "above zero"
        raise ValueError(f"level {name}={text}: not a finite number {wanted}")
    return value


def level_budget(args: dict[str, str]) -> Budget:
    """The (depth, nodes, seconds) a ``level`` line asks for: ``depth`` (plies),
    ``nodes`` (ours), ``move-time`` (seconds a move), or ``time`` (seconds left) with
    ``moves`` (moves still to play; 0 or absent: 30) and ``inc`` (seconds added per
    move), whose share per move is the time; ``infinite`` sets none; nothing: depth
    :data:`DEFAULT_DEPTH`.  Raises :class:`ValueError` naming a value that is not a
    number, or not one the budget can take (negative, zero, infinite, NaN)."""
    if "infinite" in args:
        return None, None, None
    depth = _number(args, "depth", int)
    nodes = _number(args, "nodes", int)
    seconds = _number(args, "move-time", float)
    if seconds is None and "time" in args:
        left = _number(args, "time", float, zero=True) or 0.0
        moves = _number(args, "moves", int, zero=True) or 30
        increment = _number(args, "inc", float, zero=True) or 0.0
        seconds = left / moves + increment
        if seconds <= 0:
            raise ValueError(f"level time={args['time']}: no time to search")
    if depth is None and nodes is None and seconds is None:
        return DEFAULT_DEPTH, None, None
    return (
        None if depth is None else int(depth),
        None if nodes is None else int(nodes),
        seconds,
    )


def men(score: int) -> str:
    """A score in centi-men as the protocol's men (``0.35``)."""
    return f"{score / 100:.2f}"


class HubServer:
    """One engine session over a pair of text streams."""

    def __init__(self, source: IO[str], sink: IO[str], version: str = "") -> None:
        self.source = source
        self.sink = sink
        self.version = version
        self.lock = threading.Lock()
        self.variant: Variant = INTERNATIONAL
        self.searcher = Searcher(INTERNATIONAL)
        self.position: Position | None = Position.initial(INTERNATIONAL)
        self.level: Budget = (DEFAULT_DEPTH, None, None)
        self.thread: threading.Thread | None = None
        self.stopping = threading.Event()

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        """Write one line and flush it (from the reader or the search thread)."""
        with self.lock:
            self.sink.write(line + "\n")
            self.sink.flush()

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        """Answer commands until ``quit`` or the end of the input.  A line longer than
        :data:`MAX_LINE` characters is read in pieces and never held whole: it gets an
        error and is skipped; when it is a ``pos`` (or its first piece names no
        command) it leaves no position, as a ``pos`` refused otherwise does."""
        try:
            while line := self.source.readline(MAX_LINE + 1):
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    while (rest := self.source.readline(MAX_LINE)) and not rest.endswith("\n"):
                        pass
                    self.send(
                        format_line("error", message=f"a line longer than {MAX_LINE:,} characters")
                    )
                    if parse_line(line)[0] in ("pos", ""):
                        # A refused position (or a line whose command is not even in
                        # its first piece) leaves none: a go must not search the one
                        # before it.
                        self.wait_search(stop=True)
                        self.position = None
                    continue
                command, args = parse_line(line)
                if command == "quit":
                    break
                self.handle(command, args)
        finally:
            self.wait_search(stop=True)

    def handle(self, command: str, args: dict[str, str]) -> None:
        """One command; an unknown one gets an ``error`` naming it (the command line
        says so), and changes nothing."""
        if command == "hub":
            self.send(format_line("id", name=NAME, version=self.version or "0"))
            names = " ".join(v.name for v in variants())
            self.send(
                format_line(
                    "param", name="variant", value=self.variant.name, type="enum", values=names
                )
            )
            self.send("wait")
        elif command == "set-param":
            self.set_param(args.get("name", ""), args.get("value", ""))
        elif command == "init":
            self.send("ready")
        elif command == "ping":
            self.send("pong")
        elif command == "new-game":
            self.wait_search(stop=True)
            self.searcher.clear()
        elif command == "stop":
            self.wait_search(stop=True)
        elif command == "pos":
            self.wait_search(stop=True)
            self.set_position(args)
        elif command == "level":
            self.set_level(args)
        elif command == "go":
            self.wait_search(stop=True)
            self.start_search()
        elif command == "ponder-hit":
            # The opponent played the move pondered on: the search goes on as a normal
            # one.  A ``go ponder`` here is already one (it searches to the level's
            # budget, as ``go think`` does), so nothing changes; with no search running
            # there is nothing to turn.
            pass
        elif command:
            self.send(format_line("error", message=f"unknown command {command[:40]}"))

    def set_param(self, name: str, value: str) -> None:
        if name != "variant":
            return
        try:
            chosen = INTERNATIONAL if value == "normal" else variant_by_name(value)
        except KeyError:
            self.send(format_line("error", message=f"unknown variant {value}"))
            return
        self.variant = chosen
        self.searcher = Searcher(chosen)
        self.position = Position.initial(chosen)

    def set_position(self, args: dict[str, str]) -> None:
        """``pos [pos=…] [moves="…"]``; no position is the start position."""
        try:
            text = args.get("pos") or args.get("start")
            position = (
                parse_position(text, self.variant) if text else Position.initial(self.variant)
            )
            for move in args.get("moves", "").split():
                position = position.apply(parse_move(move, position, self.variant))
        except HubError as exc:
            self.send(format_line("error", message=str(exc)))
            self.position = None  # never search the position before the refused one
            return
        self.position = position

    # ------------------------------------------------------------------ search
    def set_level(self, args: dict[str, str]) -> None:
        """``level …``: the budget of the next searches.  A value that is not a
        number, or not a positive finite one (``depth=abc``, ``nodes=-5``,
        ``move-time=nan``), is an error that names it, and the level stays as it
        was: a search never runs on a budget nobody asked for."""
        try:
            budget = level_budget(args)
        except ValueError as exc:
            self.send(format_line("error", message=str(exc)))
            return
        self.level = budget

    def budget(self) -> tuple[int | None, int | None, float | None]:
        """(depth, nodes, seconds) of the current level; none set: depth
        :data:`DEFAULT_DEPTH`; ``infinite``: none of the three (until ``stop``)."""
        return self.level

    def start_search(self) -> None:
        position, variant = self.position, self.variant
        if position is None:
            self.send(format_line("error", message="no position: the last pos was refused"))
            self.send("done")
            return
        if not legal_moves(position, variant):
            self.send(format_line("error", message="no legal move in this position"))
            self.send("done")
            return
        depth, nodes, seconds = self.budget()
        # Each search starts from an empty table: a node budget then gives the same
        # answer whatever was searched before (the same as pdn analyse's own).
        self.searcher.clear()
        self.stopping.clear()
        stopping = self.stopping
        self.thread = threading.Thread(
            target=self.search,
            args=(position, variant, depth, nodes, seconds, stopping.is_set),
            daemon=True,
        )
        self.thread.start()

    def search(
        self,
        position: Position,
        variant: Variant,
        depth: int | None,
        nodes: int | None,
        seconds: float | None,
        stopped: Callable[[], bool],
    ) -> None:
        def report(result: Analysis) -> None:
            args: dict[str, str | int | float] = {
                "depth": result.depth,
                "score": men(result.score),
                "nodes": result.nodes,
                "time": f"{result.seconds:.3f}",
            }
            if result.win_in is not None:
                args["win"] = result.win_in
            args["pv"] = " ".join(hub_line(result))
            self.send(format_line("info", **args))

        try:
            result = analyse(
                position,
                variant,
                depth=depth,
                nodes=nodes,
                seconds=seconds,
                searcher=self.searcher,
                check=stopped,
                report=report,
            )
        except Exception as exc:  # the engine must answer whatever happened
            self.send(format_line("error", message=f"search failed: {exc}"))
            self.send("done")
            return
        line = hub_line(result)
        if len(line) > 1:
            self.send(format_line("done", move=line[0], ponder=line[1]))
        elif line:
            self.send(format_line("done", move=line[0]))
        else:
            self.send("done")

    def wait_search(self, stop: bool) -> None:
        """Wait for the running search, stopping it first when *stop*."""
        thread = self.thread
        if thread is None:
            return
        if stop:
            self.stopping.set()
        thread.join()
        self.thread = None


def hub_line(result: Analysis) -> list[str]:
    """The principal variation as Hub moves."""
    return [move_text(move) for move in result.pv]


def serve(source: IO[str], sink: IO[str], version: str = "") -> None:
    """Run a Hub engine session on *source* and *sink* until ``quit`` or end of input."""
    HubServer(source, sink, version).run()
