"""Replay a game read by the reader: legality, notation, numbers, results and draws.

The replay walks the game tree with the rules engine.  Every move token is matched to
the legal moves of its position (:func:`pdn_tools.rules.parse_move`); what does not
match is explained with a stable code and evidence, and, when one legal move lets the
rest of the record replay, the message names it as the probable repair.  Variations
replay from the position before the move they replace.  Findings go to
``game.issues``; :class:`~pdn_tools.replay.options.ReplayResult` carries the facts
exporters need (resolved moves, final position, draw events).

Look-ahead (replaying the following moves of the line with a candidate) is used only
on an ambiguity or an error, so replaying a correct game costs one move generation,
one match and one position per ply.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Final

from pdn_tools.diagnostics import DrawEvent, DrawRule, Issue, Severity
from pdn_tools.pdn.model import Game, Node, every_node
from pdn_tools.pdn.results import read_result
from pdn_tools.pdn.tags import standard_name
from pdn_tools.replay.diagnose import explain
from pdn_tools.replay.draws import DrawTracker, draw_tracker, side_name
from pdn_tools.replay.misrecord import Budget, Line, Written, search
from pdn_tools.replay.options import (
    Repair,
    ReplayedMove,
    ReplayOptions,
    ReplayResult,
    ReplayStop,
)
from pdn_tools.replay.proposals import Proposer
from pdn_tools.replay.resolve import replayed_name
from pdn_tools.replay.resolve import square_names as square_names
from pdn_tools.rules import (
    FenError,
    MatchKind,
    Move,
    Position,
    Variant,
    legal_moves,
    move_text,
    parse_fen,
    parse_move,
    path_text,
    variant_by_name,
    variants,
    write_fen,
)
from pdn_tools.rules.generators import generator_for
from pdn_tools.rules.geometry import Geometry
from pdn_tools.rules.position import apply_move
from pdn_tools.rules.raygen import KingMoveLimit

_ACCEPTED = (MatchKind.EXACT, MatchKind.ABBREVIATED, MatchKind.NONCANONICAL)
_MAX_BRANCHES = 64
"""Bound on the look-ahead branches an ambiguous move inside a look-ahead may open."""
_SQUARES: Final[dict[int, dict[tuple[str, ...], tuple[int, ...] | str]]] = {}
"""Per board (keyed by the geometry's id: one geometry per board lives for the run),
written squares already turned into numbers (or the reason they are not on the board):
real files repeat the same few hundred move tokens."""
_SQUARES_LIMIT: Final = 20_000
"""Entries kept per board in ``_SQUARES`` before it is cleared."""


def capture_separator_of(node: Node) -> str | None:
    """The separator the record joins a capture's squares with (``:`` in ``c3:e5``,
    ``x`` in ``28x19``): that of *node*'s move when it is written as a capture, else
    that of the nearest capture written before it on its line; None when no capture
    written before says (the variant's own then).  Messages list squares with it, so
    they read in the record's own notation."""
    here: Node | None = node
    while here is not None:
        move = here.move
        if move is not None and move.capture:
            raw = here.raw
            if ":" in raw:
                return ":"
            if "x" in raw or "X" in raw:
                return "x"
        here = here.parent
    return None


_SHORT_TEXTS: Final[dict[str, dict[int, str]]] = {}
"""Canonical texts of two-square moves by separator, then by ``from << 8 | to`` (at most
64 x 64 per separator): looked up on every fast-lane ply, where formatting two
numbers would cost more."""


class _State:
    """Where a line of play stands: the position (None once replay of the line has
    stopped), its legal moves, the draw counters and the expected move number."""

    position: Position | None
    legal: list[Move] | None
    tracker: DrawTracker | None
    fullmove: int | None
    drawn: DrawEvent | None
    """The first draw condition that held on this line (or the line it branched from)."""
    continued: bool
    """Whether a move was played after ``drawn`` held (W36 given)."""
    king_moves: KingMoveLimit | None
    """The Frisian run of consecutive king moves (None when the variant has no limit)."""
    shift: int
    """How far the last move number that disagreed with the replay was off (0: none
    did).  The next number decides: the replay's count again (a one-off slip) or the
    same shift (the numbers run on from the written one, which then counts)."""

    __slots__ = (
        "continued",
        "drawn",
        "fullmove",
        "king_moves",
        "legal",
        "position",
        "shift",
        "tracker",
    )

    def __init__(
        self,
        position: Position | None,
        legal: list[Move] | None,
        tracker: DrawTracker | None,
        fullmove: int | None,
        drawn: DrawEvent | None = None,
        continued: bool = False,
        king_moves: KingMoveLimit | None = None,
        shift: int = 0,
    ) -> None:
        self.position = position
        self.legal = legal
        self.tracker = tracker
        self.fullmove = fullmove
        self.drawn = drawn
        self.continued = continued
        self.king_moves = king_moves
        self.shift = shift

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _State) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.position,
            self.legal,
            self.tracker,
            self.fullmove,
            self.drawn,
            self.continued,
            self.king_moves,
            self.shift,
        ) == (
            other.position,
            other.legal,
            other.tracker,
            other.fullmove,
            other.drawn,
            other.continued,
            other.king_moves,
            other.shift,
        )

    def __repr__(self) -> str:
        return (
            f"_State(position={self.position!r}, "
            f"legal={self.legal!r}, "
            f"tracker={self.tracker!r}, "
            f"fullmove={self.fullmove!r}, "
            f"drawn={self.drawn!r}, "
            f"continued={self.continued!r}, "
            f"king_moves={self.king_moves!r}, "
            f"shift={self.shift!r})"
        )

    def __reduce__(self) -> tuple[type[_State], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            _State,
            (
                self.position,
                self.legal,
                self.tracker,
                self.fullmove,
                self.drawn,
                self.continued,
                self.king_moves,
                self.shift,
            ),
        )

    def copy(self) -> _State:
        """An independent state for a variation branching here."""
        return _State(
            self.position,
            self.legal,
            self.tracker.copy() if self.tracker is not None else None,
            self.fullmove,
            self.drawn,
            self.continued,
            self.king_moves.copy() if self.king_moves is not None else None,
            self.shift,
        )


class _Replayer:
    """Replays one game; holds the variant, the options and the findings."""

    def __init__(self, game: Game, variant: Variant, options: ReplayOptions) -> None:
        self.game = game
        self.variant = variant
        self.generator = generator_for(variant)
        self.size = variant.board.squares
        self.geometry = self.generator.geometry
        self.known_squares = _SQUARES.setdefault(id(self.geometry), {})
        self.first_mover = variant.first_mover
        self.options = options
        self.issues: list[Issue] = []
        self.result = ReplayResult(replayed=True)
        self.has_fen = False
        self.repairs = 0
        """Repair searches done so far (bounded by ``max_repair_searches``)."""
        self.budget = Budget(options.repair_budget)
        """Plies the repair searches of this game may still replay."""
        self.segment_moves = 0
        """Index in ``result.moves`` of the first move of the main line's last stretch
        without a set-up (where a search for the mis-recorded move may go back to)."""
        self.segment_start: Position | None = None
        """The position that stretch starts from."""
        self._last_known: Position | None = None
        """The main line's last position before replay stopped (for ``final_fen``)."""
        self.start: Position | None = None
        """The position the game starts from."""
        self.restart: Node | None = None
        """The last main-line move numbered ``1.`` after later moves (the numbers
        restart: two games run together?), until it is judged (:meth:`restarted`)."""

    # -- findings --------------------------------------------------------------
    def issue(
        self,
        code: str,
        message: str,
        node: Node,
        ply: int | None,
        in_variation: bool,
        repair: dict[str, Any] | None = None,
    ) -> None:
        """Record a finding located at *node*."""
        self.issues.append(
            Issue(
                code,
                message,
                node.line,
                node.column,
                ply=ply,
                move=node.raw or node.element_text(),
                in_variation=in_variation,
                repair=repair,
            )
        )

    # -- entry -------------------------------------------------------------------
    def run(self, start: Position) -> None:
        """Replay the main line (and its variations) from *start*; fill the result."""
        opts = self.options
        self.start = start
        tracker = draw_tracker(start, self.variant, opts) if opts.draws else None
        has_fen = self.has_fen = start != Position.initial(self.variant)
        self.segment_start = start
        state = _State(start, None, tracker, None if has_fen else 1)
        rays = self.variant.rays
        if rays is not None and rays.king_move_limit is not None:
            state.king_moves = KingMoveLimit(rays.king_move_limit)
        if tracker is not None and (hits := tracker.standing(start)):
            self.draws(state, hits, 0, None, False)  # drawn at once (2 kings v 1 king)
        nodes = list(self.game.mainline())
        final = self.line(nodes, state, False, 0)
        if self.restart is not None:
            # The line went on past the restart: a terminator is missing all the same
            # when the moves from it are a game of their own.
            self.restarted(nodes, self.restart)
        res = self.result
        last = final.position
        if last is None:
            last = self._last_known
        res.final_fen = write_fen(last) if last is not None else None
        if final.position is not None:
            legal = final.legal
            if legal is None:
                legal = legal_moves(final.position, self.variant)
            res.final_side_has_moves = bool(legal)
            res.completed = res.stop is None
            if res.completed:
                self.check_headers(final, legal)

    # -- lines -------------------------------------------------------------------
    def line(self, nodes: list[Node], state: _State, in_var: bool, ply: int) -> _State:
        """Replay *nodes* (one line, in order) from *state*; alternatives met on the way
        are replayed as variations.  Returns the state at the end of the line."""
        i = 0
        main = not in_var
        count = len(nodes)
        gen = self.generator  # its methods called on it (a bound method is a Python call)
        separator = self.variant.capture_separator
        quiet_texts = _SHORT_TEXTS.setdefault("-", {})
        capture_texts = _SHORT_TEXTS.setdefault(separator, {})
        squares_of = self.squares
        # nodes is one line: each node's parent is the node before it.
        first_parent = nodes[0].parent if nodes else None
        while i < count:
            node = nodes[i]
            parent = nodes[i - 1] if i else first_parent
            if (
                parent is not None
                and len(parent.variations) > 1
                and parent.variations[0] is node
                and state.position is not None
            ):
                for alt in parent.variations[1:]:
                    self.line([alt, *alt.mainline()], state.copy(), True, ply)
            if node.kind == "setup":
                self.setup(node, state, ply, in_var)
                i += 1
                continue
            ply += 1
            if node.kind == "placeholder":
                if state.position is not None and main:
                    self._last_known = state.position
                    if self.result.stop is None:
                        self.result.stop = ReplayStop(
                            ply,
                            node.line,
                            node.column,
                            "unknown move: replay of the line stops until a set-up",
                        )
                state.position = None
                state.legal = None
                i += 1
                continue
            position = state.position
            if position is None:
                i += 1
                continue
            written = node.move
            if written is not None:
                # Fast lane: a plain quiet move, or a capture ``fromxto`` that is the
                # only legal capture with its two squares, is checked without listing
                # every move (one jumps by men even without the capture search).
                squares = self.known_squares.get(written.squares)
                if squares is None:
                    squares = squares_of(node)
                if type(squares) is tuple and len(squares) == 2:
                    frm, to = squares
                    if written.capture:
                        # not where the next move starts on its landing square: perhaps
                        # the first jump of several (see move())
                        fast = (
                            None
                            if _continued(nodes, i)
                            else gen.short_capture(position, frm, to)
                            or gen.capture_between(position, frm, to)
                        )
                        texts, sep = capture_texts, separator
                    else:
                        fast = gen.quiet_move(position, frm, to)
                        texts, sep = quiet_texts, "-"
                    if fast is not None:
                        key = frm << 8 | to  # an int key: no tuple to hash
                        text = texts.get(key)
                        if text is None:
                            text = texts[key] = f"{frm}{sep}{to}"
                        if node.number is None or self.numbers(node, state, ply, in_var, squares):
                            self.play(node, (), state, fast, text, in_var, ply)
                        i += 1
                        continue
            used = self.move(nodes, i, state, in_var, ply)
            if used > 1:
                ply += used - 1
                i += used
            else:
                i += 1
        return state

    def setup(self, node: Node, state: _State, ply: int, in_var: bool) -> None:
        """A ``/FEN/`` set-up: replaces the position and resets the draw counters."""
        try:
            fen = parse_fen(node.fen or "", self.variant)
        except FenError as exc:
            self.issue("E10", f"invalid set-up FEN: {exc}", node, ply or None, in_var)
            if not in_var and state.position is not None:
                self._last_known = state.position
                self.stop(node, ply + 1, "E10", f"invalid set-up FEN: {exc}")
            state.position = None
            state.legal = None
            return
        for warning in fen.warnings:
            self.issue("W26", f"set-up FEN: {warning}", node, ply or None, in_var)
        state.position = fen.position
        state.legal = None
        state.fullmove = None
        state.shift = 0
        if not in_var:
            self.segment_moves = len(self.result.moves)
            self.segment_start = fen.position
        if state.king_moves is not None:
            state.king_moves.reset()
        if state.tracker is not None and self.options.ip15_setup_resets_counters:
            state.tracker.reset(fen.position)
            if hits := state.tracker.standing(fen.position):
                self.draws(state, hits, ply, node, in_var)  # at the set-up's ply

    def stop(self, node: Node, ply: int, code: str, reason: str) -> None:
        """Record where the main line stopped (the first stop wins)."""
        if self.result.stop is None:
            self.result.stop = ReplayStop(ply, node.line, node.column, reason, code)

    # -- moves -------------------------------------------------------------------
    def legal(self, state: _State) -> list[Move]:
        """The legal moves of the line's current position, generated once."""
        legal = state.legal
        if legal is None:
            assert state.position is not None
            legal = state.legal = legal_moves(state.position, self.variant)
        return legal

    def squares(self, node: Node) -> tuple[int, ...] | str:
        """The written squares as numbers, or the reason they are not on the board."""
        assert node.move is not None
        written = node.move.squares
        found = self.known_squares.get(written)
        if found is not None:
            return found
        out: list[int] = []
        result: tuple[int, ...] | str | None = None
        named = self.geometry.square_named
        for s in written:
            n = named(s)
            if n is None:
                result = self.off_board(s)
                break
            out.append(n)
        if result is None:
            result = tuple(out)
        known = self.known_squares
        if len(known) >= _SQUARES_LIMIT:
            known.clear()
        known[written] = result
        return result

    def off_board(self, square: str) -> str:
        """E04's reason for a written square that names no square of the board, in the
        record's terms: the numbers' range, or for an algebraic square (boards at most 8
        wide) the corners and whether only the dark squares are played."""
        spec = self.geometry.spec
        if square[:1].isalpha() and spec.width <= 8:
            corner = f"{chr(ord('a') + spec.width - 1)}{spec.height}"
            dark = "" if self.size == spec.width * spec.height else ", dark squares only"
            return f"square {square!r} is not on the board (a1-{corner}{dark})"
        shown = int(square) if square.isdigit() else repr(square)
        return f"square {shown} is not on the board (squares are numbered 1-{self.size})"

    def move(self, nodes: list[Node], i: int, state: _State, in_var: bool, ply: int) -> int:
        """Replay the move at ``nodes[i]``; returns how many nodes it used (0 or 1 on
        a stop, more when a split capture was merged)."""
        node = nodes[i]
        position = state.position
        assert node.move is not None and position is not None
        variant = self.variant
        squares = self.squares(node)
        legal = state.legal if state.legal is not None else legal_moves(position, variant)
        state.legal = legal
        if not self.numbers(node, state, ply, in_var, squares):
            return 1
        if isinstance(squares, str):
            self.fail(nodes, i, state, in_var, ply, "E04", squares, None)
            return 1
        if not legal:
            side = side_name(position.turn)
            self.fail(
                nodes, i, state, in_var, ply, "E05",
                f"the game is over: {side} has no legal move", None,
            )  # fmt: skip
            return 1
        # A capture written jump by jump whose first jump is also a whole capture (a
        # route back to where it first lands, or another route ending there): the next
        # written move starts where this one lands, which no reply can, so the jumps
        # are read together first.
        merged = None
        if self.options.merge_split_captures and legal[0].is_capture and _continued(nodes, i):
            merged = self.merge(position, legal, nodes, i)
        chosen: Move | None = None
        used = 1
        if merged is None:
            match = parse_move(squares, legal, variant, capture=node.move.capture)
            chosen = match.move
            if match.kind in _ACCEPTED and chosen is not None:
                if match.kind is MatchKind.NONCANONICAL:
                    canonical = path_text(chosen, variant, self.names_of(node))
                    self.issue(
                        "W23",
                        f"non-canonical capture path; canonical: {canonical}",
                        node, ply, in_var,
                    )  # fmt: skip
                if match.separator_mismatch:
                    kind = "capture" if chosen.is_capture else "quiet move"
                    sep = "x" if node.move.capture else "-"
                    self.issue(
                        "W12",
                        f"separator does not match the move: a {kind} written with '{sep}' "
                        f"({move_text(chosen, legal, variant, self.names_of(node))})",
                        node, ply, in_var,
                    )  # fmt: skip
            elif match.kind is MatchKind.AMBIGUOUS:
                chosen = self.ambiguous(match.candidates, nodes, i, state, in_var, ply)
                if chosen is None:
                    return 1
            else:
                if match.kind is MatchKind.NO_MATCH and self.options.merge_split_captures:
                    merged = self.merge(position, legal, nodes, i)
                if merged is None:
                    names = self.names_of(node)
                    joiner = capture_separator_of(node)
                    if match.kind is MatchKind.WRONG_PATH:
                        alts = ", ".join(
                            path_text(c, variant, names, joiner) for c in match.candidates
                        )
                        self.fail(
                            nodes, i, state, in_var, ply, "E09",
                            f"the path fits no legal capture from {names[squares[0]]} to "
                            f"{names[squares[-1]]} (legal: {alts})",
                            squares,
                        )  # fmt: skip
                    else:
                        code, reason = explain(
                            squares, position, legal, variant, node.move.capture, names, joiner
                        )
                        self.fail(nodes, i, state, in_var, ply, code, reason, squares)
                    return 1
        if merged is not None:
            chosen, used = merged
            parts = " ".join(n.raw for n in nodes[i : i + used])
            self.issue(
                "W24",
                f"capture written jump by jump ({parts}); merged into "
                f"{move_text(chosen, legal, variant, self.names_of(node))}",
                node, ply, in_var,
            )  # fmt: skip
        assert chosen is not None
        text = move_text(chosen, legal, variant)
        self.play(node, tuple(nodes[i + 1 : i + used]), state, chosen, text, in_var, ply)
        return used

    def ambiguous(
        self,
        cands: tuple[Move, ...],
        nodes: list[Node],
        i: int,
        state: _State,
        in_var: bool,
        ply: int,
    ) -> Move | None:
        """The one of the ambiguous captures *cands* that lets the rest of the line
        replay (W25), or None after reporting E08 (the line stops)."""
        variant = self.variant
        position = state.position
        assert position is not None
        names = self.names_of(nodes[i])
        texts = ", ".join(path_text(c, variant, names) for c in cands)
        ok: list[Move] = []
        rest = len(nodes) - i - 1
        if self.options.lookahead and rest > 0:
            ok = [c for c in cands if self.follows(position.apply(c), nodes, i + 1)]
        if len(ok) == 1:
            self.issue(
                "W25",
                f"ambiguous capture ({texts}); only {path_text(ok[0], variant, names)} lets "
                f"the rest of the line replay",
                nodes[i], ply, in_var,
            )  # fmt: skip
            return ok[0]
        why = ""
        if self.options.lookahead and rest > 0:
            why = (
                "; none of them lets the rest of the line replay"
                if not ok
                else "; look-ahead cannot decide between "
                + ", ".join(path_text(c, variant, names) for c in ok)
            )
        self.fail(
            nodes, i, state, in_var, ply, "E08",
            f"ambiguous capture: candidates {texts}{why}", None, hint=False,
        )  # fmt: skip
        return None

    def play(
        self,
        node: Node,
        merged: tuple[Node, ...],
        state: _State,
        move: Move,
        text: str,
        in_var: bool,
        ply: int,
    ) -> None:
        """Apply a resolved move to the line's state; main line: record it (with *text*,
        its canonical notation) and count the draw rules."""
        before = state.position
        assert before is not None
        if state.king_moves is not None:
            if state.king_moves.refuses(before, move):
                self.refuse_king_move(node, state, move, in_var, ply)
                return
            state.king_moves.play(before, move)
        state.position = after = apply_move(before, move)
        state.legal = None
        if state.fullmove is not None and before.turn is not self.first_mover:
            state.fullmove += 1
        res = self.result
        if not in_var:
            res.plies += 1
            res.merged += len(merged)
            res.moves.append(ReplayedMove(ply, node, move, text, merged))
        drawn = state.drawn
        if drawn is not None and not state.continued:
            state.continued = True
            if not in_var:
                res.continued_after_draw = ply
            self.issue(
                "W36",
                f"play continues after a draw condition ({drawn['rule']} rule held at "
                f"ply {drawn['ply']})",
                node, ply, in_var,
            )  # fmt: skip
        tracker = state.tracker
        if tracker is not None:
            hits = tracker.play(before, move, after)
            if hits:
                self.draws(state, hits, ply, node, in_var)

    def draws(
        self, state: _State, hits: list[DrawRule], ply: int, node: Node | None, in_var: bool
    ) -> None:
        """Report the draw conditions *hits* that hold at the line's position (after
        ply *ply*), each the first time it holds on the line.  Win beats draw: none
        counts where the side to move has no legal move."""
        tracker = state.tracker
        assert tracker is not None
        if not self.legal(state):
            return
        for rule in tracker.fire(hits):
            event: DrawEvent = {"rule": rule, "ply": ply, "article": tracker.article(rule)}
            if in_var and node is not None:
                event["in_variation"] = True
                event["line"] = node.line
                event["column"] = node.column
            self.result.draws.append(event)
            if state.drawn is None:
                state.drawn = event

    def refuse_king_move(
        self, node: Node, state: _State, move: Move, in_var: bool, ply: int
    ) -> None:
        """Report a king move beyond the Frisian limit (E05) and stop the line."""
        assert state.position is not None and state.king_moves is not None
        limit = state.king_moves.limit
        names = self.names_of(node)
        reason = (
            f"illegal move {names[move.from_sq]}-{names[move.to_sq]}: the same king may not "
            f"make more than {limit} non-capturing moves in a row while its side has men (Frisian, "
            "rules.md §4.6)"
        )
        later = "replay of this variation stops here" if in_var else "replay stops here"
        self.issue("E05", f"{reason}; {later}", node, ply, in_var)
        if not in_var:
            self._last_known = state.position
            self.stop(node, ply, "E05", reason)
        state.position = None
        state.legal = None

    def merge(
        self, position: Position, legal: list[Move], nodes: list[Node], i: int
    ) -> tuple[Move, int] | None:
        """A capture written jump by jump from ``nodes[i]`` on, merged into one legal
        move: (move, nodes used), or None."""
        first = nodes[i].move
        if first is None or not legal or not legal[0].is_capture:
            return None
        path = list(first.squares)
        j = i + 1
        while j < len(nodes) and j - i < 20:
            nxt = nodes[j]
            if nxt.kind != "move" or nxt.move is None or nxt.move.squares[0] != path[-1]:
                return None
            if nxt.variations[1:] or (nxt.parent is not None and nxt.parent.variations[1:]):
                return None
            path.extend(nxt.move.squares[1:])
            numbers = _numbers(path, self.geometry)
            if numbers is None:
                return None
            match = parse_move(numbers, legal, self.variant, capture=True)
            if match.move is not None:
                return match.move, j - i + 1
            j += 1
        return None

    def follows(self, position: Position, nodes: list[Node], j: int, budget: int = -1) -> bool:
        """Whether the moves ``nodes[j:]`` replay legally from *position* for the
        look-ahead length (a set-up, a placeholder or the end of the line ends the
        check successfully)."""
        if budget < 0:
            budget = self.options.lookahead_plies
        branches = [_MAX_BRANCHES]
        return self._follows(position, nodes, j, budget, branches)

    def _follows(
        self, position: Position, nodes: list[Node], j: int, budget: int, branches: list[int]
    ) -> bool:
        """:meth:`follows` with a shared branch budget (ambiguous moves branch)."""
        variant = self.variant
        while budget > 0 and j < len(nodes):
            node = nodes[j]
            if node.kind != "move" or node.move is None:
                return True
            numbers = _numbers(node.move.squares, self.geometry)
            if numbers is None:
                return False
            squares = numbers
            legal = legal_moves(position, variant)
            if not legal:
                return False
            if self.options.merge_split_captures and legal[0].is_capture and _continued(nodes, j):
                joined = self.merge(position, legal, nodes, j)
                if joined is not None:
                    position = position.apply(joined[0])
                    j += joined[1]
                    budget -= 1
                    continue
            match = parse_move(squares, legal, variant, capture=node.move.capture)
            if match.move is not None:
                position = position.apply(match.move)
                j += 1
                budget -= 1
                continue
            if match.kind is MatchKind.AMBIGUOUS:
                for cand in match.candidates:
                    branches[0] -= 1
                    if branches[0] < 0:
                        return False
                    if self._follows(position.apply(cand), nodes, j + 1, budget - 1, branches):
                        return True
                return False
            merged = (
                self.merge(position, legal, nodes, j) if match.kind is MatchKind.NO_MATCH else None
            )
            if merged is None:
                return False
            position = position.apply(merged[0])
            j += merged[1]
            budget -= 1
        return True

    def fail(
        self,
        nodes: list[Node],
        i: int,
        state: _State,
        in_var: bool,
        ply: int,
        code: str,
        reason: str,
        squares: tuple[int, ...] | None,
        *,
        hint: bool = True,
    ) -> None:
        """Report an illegal move and stop replay of the line."""
        node = nodes[i]
        position = state.position
        assert position is not None
        message = reason
        if (
            not in_var
            and ply == 1
            and node.number is not None
            and node.number > 1
            and not self.has_fen
        ):
            message += (
                f"; the record starts at move {node.number} without a FEN tag, so it is "
                "probably a fragment replayed from the initial position"
            )
        data: dict[str, Any] | None = None
        restart = self.restart
        if not in_var and restart is not None and self.restarted(nodes, restart):
            # The moves from the restart are a game of their own: a missing terminator
            # explains the error, which no edit of the first game's moves should mend.
            number = f"{restart.number}{restart.number_dots or ''}"
            message += (
                f"; the move numbers restart at '{number}' on line {restart.line} and the "
                f"moves from there replay from the start: a terminator is probably "
                f"missing before it (W80)"
            )
            hint = False
        if hint and self.options.repair_hints and self.repairs < self.options.max_repair_searches:
            self.repairs += 1
            text, data, repair = self.mend(nodes, i, state, in_var, ply)
            if text:
                message += "; " + text
            if repair is not None:
                self.result.repairs[(node.line, node.column)] = repair
        later = sum(1 for n in nodes[i + 1 :] if n.kind in ("move", "placeholder"))
        message += f"; replay {'of this variation ' if in_var else ''}stops here"
        message += f"; {later} later plies not checked" if later else ""
        self.issue(code, message, node, ply, in_var, data)
        if not in_var:
            self._last_known = position
            self.stop(node, ply, code, reason)
        state.position = None
        state.legal = None

    def restarted(self, nodes: list[Node], node: Node) -> bool:
        """Whether the main line's moves from *node* (numbered ``1.`` after later
        moves) replay from the game's start position, or from the variant's initial
        one, for the look-ahead length: then a terminator is probably missing before
        it and W80 says so (once).  The restart is judged once either way."""
        self.restart = None
        start = self.start
        at = -1
        for j, candidate in enumerate(nodes):
            if candidate is node:
                at = j
                break
        if start is None or at < 0:
            return False
        initial = Position.initial(self.variant)
        starts = [start] if start == initial else [start, initial]
        budget = self.options.lookahead_plies
        if not any(self.follows(position, nodes, at, budget) for position in starts):
            return False
        number = f"{node.number}{node.number_dots or ''}"
        ply = sum(1 for n in nodes[:at] if n.kind in ("move", "placeholder")) + 1
        self.issue(
            "W80",
            f"the move numbers restart at '{number}' and the moves from here replay from "
            "the start position: a terminator (a result or '*') is probably missing "
            "before it, and two games run together",
            node, ply, False,
        )  # fmt: skip
        return True

    # -- the mis-recorded move --------------------------------------------------------
    def written(self, node: Node, merged: tuple[Node, ...] | list[Node], ply: int) -> Written:
        """A written move (with the jumps merged into it) for the repair search."""
        assert node.move is not None
        found = self.squares(node)
        squares = found if type(found) is tuple else None
        names = node.move.squares
        capture = node.move.capture
        text = node.raw or node.element_text()
        for part in merged:
            if part.move is None:
                continue
            names = names + part.move.squares[1:]
            more = self.squares(part)
            squares = squares + more[1:] if squares is not None and type(more) is tuple else None
            text += " " + (part.raw or part.element_text())
            capture = True
        return Written(squares, names, capture, text, ply)

    def search_line(
        self, nodes: list[Node], i: int, state: _State, in_var: bool, ply: int
    ) -> tuple[Line, list[Node], int]:
        """The line a repair search works on: for the main line, its moves since the
        last set-up with the positions the replay reached (replayed again from the
        stretch's start: the replay keeps its moves), then ``nodes[i:]`` up to a
        set-up or placeholder; for a variation ``nodes[i:]`` only.  Returns the line,
        the node of each of its written moves, and the plies before it."""
        position = state.position
        assert position is not None
        rays = self.variant.rays
        king_limit = rays.king_move_limit if rays is not None else None
        has_limit = king_limit is not None
        written: list[Written] = []
        where: list[Node] = []
        positions: list[Position] = []
        played: list[Move] = []
        limits: list[KingMoveLimit] | None = [] if has_limit else None
        offset = 0
        if not in_var and self.segment_start is not None:
            offset = self.segment_moves
            here = self.segment_start
            limit = KingMoveLimit(king_limit) if king_limit is not None else None
            for record in self.result.moves[self.segment_moves :]:
                positions.append(here)
                if limits is not None and limit is not None:
                    limits.append(limit.copy())
                    limit.play(here, record.move)
                played.append(record.move)
                written.append(self.written(record.node, record.merged, record.ply))
                where.append(record.node)
                here = here.apply(record.move)
            if here != position:  # not reached: the replay played these moves
                positions, played, written, where, offset = [], [], [], [], 0
                if limits is not None:
                    limits = []
        positions.append(position)
        if limits is not None:
            king_moves = state.king_moves
            limits.append(king_moves.copy() if king_moves is not None else KingMoveLimit(0))
        open_end = in_var
        for j in range(i, len(nodes)):
            node = nodes[j]
            if node.kind != "move" or node.move is None:
                open_end = True
                break
            written.append(self.written(node, (), ply + j - i))
            where.append(node)
        recorded = tuple(read_result(value).outcome for value, _ in self._result_sources())
        previous: tuple[tuple[str, ...], ...] = ()
        if in_var:
            previous = tuple(
                before.move.squares
                for before in nodes[max(0, i - 2) : i][::-1]
                if before.move is not None
            )
        line = Line(written, positions, played, limits, recorded, open_end, previous)
        return line, where, offset

    def names_of(self, node: Node) -> tuple[str, ...]:
        """How the record names squares, judged by *node*'s move."""
        algebraic = False
        if node.move is not None and node.move.squares:
            algebraic = node.move.squares[0][:1].isalpha()
        if self.geometry.spec.width > 8:
            algebraic = False
        return square_names(self.geometry, algebraic)

    def mend(
        self, nodes: list[Node], i: int, state: _State, in_var: bool, ply: int
    ) -> tuple[str, dict[str, Any] | None, Repair | None]:
        """Search for the mis-recorded move behind the illegal ``nodes[i]``: the hint
        for the message, the ``repair`` object and the edits (None when there is no
        hint to give)."""
        line, where, offset = self.search_line(nodes, i, state, in_var, ply)
        names = self.names_of(nodes[i])
        opts = self.options
        before = self.budget.left
        finding = search(
            line,
            self.variant,
            names,
            self.budget,
            lookahead=opts.lookahead_plies,
            merge_split=opts.merge_split_captures,
        )
        self.result.searched += before - self.budget.left
        proposer = Proposer(
            line, where, self.variant, names, offset, in_var, capture_separator_of(nodes[i])
        )
        repair = proposer.repair(finding)
        text = proposer.message(finding, repair, self.legal(state))
        if repair is None or not text:
            return text, None, None
        return text, proposer.data(repair), repair

    def mend_result(self, final: _State) -> tuple[str, dict[str, Any] | None, Repair | None]:
        """Search for the single edit of the main line after which its final position
        is what the recorded result says: the hint, the ``repair`` object and the
        edits (None when there is none)."""
        last = self.result.moves[-1]
        line, where, offset = self.search_line([], 0, final, False, last.ply + 1)
        names = self.names_of(last.node)
        before = self.budget.left
        finding = search(
            line,
            self.variant,
            names,
            self.budget,
            lookahead=self.options.lookahead_plies,
            merge_split=self.options.merge_split_captures,
            result_only=True,
        )
        self.result.searched += before - self.budget.left
        proposer = Proposer(line, where, self.variant, names, offset, False)
        repair = proposer.repair(finding)
        if repair is None:
            return "", None, None
        return proposer.result_message(repair), proposer.data(repair), repair

    # -- move numbers --------------------------------------------------------------
    def numbers(
        self,
        node: Node,
        state: _State,
        ply: int,
        in_var: bool,
        squares: tuple[int, ...] | str,
    ) -> bool:
        """W33 for a number that disagrees with the replay; W34 for ``N. ...`` while the
        first mover is to move (a missing move: replay of the line stops).  Returns
        whether the line goes on (False once it has stopped here)."""
        number, dots = node.number, node.number_dots
        position = state.position
        if position is None:
            return False
        if number is None:
            return True
        first_to_move = position.turn is self.first_mover
        second_dots = dots is not None and "..." in dots
        expected = state.fullmove
        if expected is not None and second_dots != first_to_move:
            if number == expected:
                state.shift = 0
                return True  # the usual case: the number and dots fit
            if state.shift and number == expected + state.shift:
                # The numbers run on from the one that disagreed: they count from here.
                state.fullmove = number
                state.shift = 0
                return True
        if dots == ". ..." and first_to_move:
            fits = (
                not isinstance(squares, str)
                and parse_move(squares, self.legal(state), self.variant).accepted
            )
            if not fits:
                self.issue(
                    "W34",
                    f"'{number}. ...' stands for a missing move of "
                    f"{side_name(position.turn)}; replay of this line stops",
                    node, ply, in_var,
                )  # fmt: skip
                if not in_var:
                    self._last_known = position
                    self.stop(node, ply, "W34", "a move is missing ('N. ...')")
                state.position = None
                state.legal = None
                return False
        side = side_name(position.turn)
        if expected is None:
            state.fullmove = number
            if second_dots == first_to_move:
                self.issue(
                    "W33",
                    f"'{number}{dots}' but {side} is to move",
                    node, ply, in_var,
                )  # fmt: skip
            return True
        if number != expected or second_dots == first_to_move:
            if number == 1 and dots == "." and not in_var and (expected > 1 or not first_to_move):
                self.restart = node  # "1." after a whole move: the numbers restart
            self.issue(
                "W33",
                f"'{number}{dots}' written, but move {expected} of {side} is played here",
                node, ply, in_var,
            )  # fmt: skip
            state.shift = number - expected
        return True

    # -- headers -------------------------------------------------------------------
    def check_headers(self, final: _State, legal: list[Move]) -> None:
        """W32: the Result (tag or terminator) against a lost final position (with the
        edit of the record, if any, after which they agree), and the PlyCount tag
        against the replayed plies."""
        game = self.game
        res = self.result
        position = final.position
        assert position is not None
        if not legal:
            loser = position.turn
            winner = loser.opponent
            expected = "first-wins" if winner is self.variant.first_mover else "second-wins"
            for value, where in self._result_sources():
                outcome = read_result(value).outcome
                if outcome in ("unknown", expected):
                    continue
                said = {
                    "draw": "a draw",
                    "first-wins": f"a win for {side_name(self.variant.first_mover)}",
                    "second-wins": f"a win for {side_name(self.variant.first_mover.opponent)}",
                    "both-lost": "both sides lost",
                }[outcome]
                message = (
                    f"result {value!r} says {said}, but {side_name(loser)} is to move "
                    f"with no legal move after ply {res.moves[-1].ply if res.moves else 0} "
                    f"and has lost (final position {write_fen(position)})"
                )
                data: dict[str, Any] | None = None
                if (
                    outcome != "both-lost"
                    and self.options.repair_hints
                    and self.repairs < self.options.max_repair_searches
                    and res.moves
                ):
                    self.repairs += 1
                    text, data, repair = self.mend_result(final)
                    if repair is not None:
                        message += "; " + text
                        res.repairs[where] = repair
                self.issues.append(Issue("W32", message, where[0], where[1], repair=data))
                break
        else:
            self.check_drawn_result()
        tag = next((t for t in reversed(game.tags) if t.name.lower() == "plycount"), None)
        if tag is not None and tag.value.strip().isdigit():
            count = int(tag.value.strip())
            if count != res.plies:
                self.issues.append(
                    Issue(
                        "W32",
                        f"PlyCount {count} but {res.plies} plies were replayed",
                        tag.line,
                        tag.column,
                    )
                )

    def check_drawn_result(self) -> None:
        """W82: the result names a winner although a draw condition held when the last
        main-line move was played (the side to move has a move: a win there is W32's).
        One finding, at the first result source that names a winner."""
        res = self.result
        held = [
            event
            for event in res.draws
            if not event.get("in_variation") and event["ply"] == res.plies
        ]
        if not held:
            return
        first = self.variant.first_mover
        winners = {"first-wins": first, "second-wins": first.opponent}
        for value, where in self._result_sources():
            winner = winners.get(read_result(value).outcome)
            if winner is None:
                continue
            rules = " and ".join(_draw_name(event["rule"]) for event in held)
            message = (
                f"result {value!r} says {side_name(winner)} won, but {rules} held when the "
                f"last move was played (ply {res.plies}): by the rules the game was a draw"
            )
            self.issues.append(Issue("W82", message, where[0], where[1]))
            return

    def _result_sources(self) -> list[tuple[str, tuple[int, int]]]:
        """The Result tag and the terminator, with where they are written."""
        game = self.game
        out: list[tuple[str, tuple[int, int]]] = []
        tag = next((t for t in reversed(game.tags) if standard_name(t.name) == "Result"), None)
        if tag is not None:
            out.append((tag.value, (tag.line, tag.column)))
        term = game.terminator
        if term is not None:
            out.append((term.text, (term.line, term.column)))
        return out


def _draw_name(rule: str) -> str:
    """A draw condition's name in a sentence: "threefold repetition", "the 25-move rule"."""
    return "threefold repetition" if rule == "threefold" else f"the {rule} rule"


def _continued(nodes: list[Node], i: int) -> bool:
    """Whether the written move after ``nodes[i]`` starts where ``nodes[i]`` ends: the
    next jump of a capture written jump by jump (no reply ever starts on the square the
    mover has just reached)."""
    if i + 1 >= len(nodes):
        return False
    here, nxt = nodes[i].move, nodes[i + 1].move
    return here is not None and nxt is not None and nxt.squares[0] == here.squares[-1]


def _numbers(written: tuple[str, ...] | list[str], geometry: Geometry) -> tuple[int, ...] | None:
    """Written squares (numeric, or algebraic on 8x8) as numbers; None if one is off
    the board."""
    out = []
    for text in written:
        number = geometry.square_named(text)
        if number is None:
            return None
        out.append(number)
    return tuple(out)


def _start_position(
    game: Game, variant: Variant, issues: list[Issue]
) -> tuple[Position | None, str | None]:
    """The start position: the FEN tag (``?`` or empty ignored) or the variant's
    initial position.  An invalid FEN is E10 at the tag: (None, reason)."""
    tag = next((t for t in reversed(game.tags) if standard_name(t.name) == "FEN"), None)
    if tag is None or tag.value.strip() in ("", "?"):
        return Position.initial(variant), None
    try:
        fen = parse_fen(tag.value, variant)
    except FenError as exc:
        issues.append(Issue("E10", f"invalid FEN tag: {exc}; not replayed", tag.line, tag.column))
        return None, f"invalid FEN: {exc}"
    for warning in fen.warnings:
        issues.append(Issue("W26", f"FEN tag: {warning}", tag.line, tag.column))
    return fen.position, None


def _uncertain_inference(game: Game) -> bool:
    """Whether the reader guessed the variant (no GameType tag, W27) for a game that
    starts from a FEN and whose squares all fit an 8x8 board.

    The guess looks at the first moves only, which says little when the game starts
    from a set-up position: 8x8 problem collections without GameType were taken for
    10x10 (``wiegerw__pdn/succeed/Tricks traps and shots.pdn``).  Such a game is
    replayed, but if it does not replay without errors its findings are dropped and
    it counts as not replayed: errors under a guessed variant would be false errors.
    The same holds for any game guessed to be Russian from its algebraic squares.
    """
    if not _inferred(game):
        return False
    if game.variant == "russian":
        # Guessed from algebraic squares, which Brazilian, Czech and some English
        # writers use as well (the latter even from the first mover's side).
        return True
    fen = game.tag("FEN")
    if fen is None or fen.strip() in ("", "?"):
        return False
    numbers = [int(n) for n in re.findall(r"\d+", fen)]
    for node in every_node(game):
        if node.move is not None:
            numbers.extend(int(s) for s in node.move.squares if s.isdigit())
    return max(numbers, default=0) <= 32


def replay_game(game: Game, options: ReplayOptions | None = None) -> ReplayResult:
    """Replay *game* and append the findings to ``game.issues``.

    Variant: the game's variant, or ``options.variant`` when it is ``unknown``; a
    variant without a rule profile gets W28 (unless the reader gave it) and is not
    replayed.  The main line stops at the first illegal move (the rest is kept and
    not checked); variations replay from their branch position and stop on their own.
    """
    opts = options or ReplayOptions()
    # A site's rule profile has no GameType: its records carry their base variant's
    # (rules.md §2), so the profile replaces that variant.
    name = replayed_name(game.variant, opts.variant)
    if name is None:
        if _has_moves(game):
            game.issues.append(
                _not_replayed(
                    game,
                    "its variant is unknown (no GameType tag, and neither its set-up nor "
                    "its moves tell it)",
                )
            )
        return ReplayResult(skipped="variant unknown (no GameType tag); not replayed")
    try:
        variant = variant_by_name(name)
    except KeyError:
        if not any(i.code == "W28" for i in game.issues):
            game.issues.append(
                Issue(
                    "W28",
                    f"no rule profile yet for variant {name!r}; read but not replayed",
                    game.span.start_line,
                    game.span.start_column,
                )
            )
        return ReplayResult(skipped=f"no rule profile for {name!r}")
    guessed = _uncertain_inference(game)
    issues: list[Issue] = []
    start, problem = _start_position(game, variant, issues)
    if start is None:
        # A FEN that fits another board than the guessed variant's speaks against the
        # guess, not against the record: no E10 under a guess, unless no variant at all
        # reads the FEN (a man on its own promotion row, say): the record is at fault.
        # A position alone in a record as CheckerBoard writes them (its tags, Black
        # before White), read as English (W64), is on the 8x8 board, the only one
        # CheckerBoard plays: no variant on that board is enough.
        elsewhere = _fen_fits_elsewhere(game, variant) if _inferred(game) else None
        decided = (
            game.producer == "checkerboard"
            and game.tag("Black") is not None
            and any(i.code == "W64" for i in game.issues)
        )
        if (guessed or elsewhere is not None) and _fen_fits_some(game, variant, decided):
            if _has_moves(game):
                note = f"; it fits the board of {elsewhere.name} draughts" if elsewhere else ""
                game.issues.append(
                    _not_replayed(
                        game,
                        f"its variant was guessed as {variant.name} (no GameType tag), "
                        f"and its FEN does not fit it ({problem}){note}",
                    )
                )
            return ReplayResult(skipped=f"{_GUESSED}; {problem}", refuted=True)
        game.issues.extend(issues)
        return ReplayResult(skipped=problem)
    replayer = _Replayer(game, variant, opts)
    replayer.issues = issues
    replayer.result.variant = variant.name
    replayer.result.start_fen = write_fen(start)
    replayer.run(start)
    fits: list[Variant] = []
    failed = any(i.level is Severity.ERROR for i in replayer.issues)
    if failed and _inferred(game):
        fits = _clean_variants(game, variant, opts)
        if len(fits) == 1:
            # The tags are silent and the moves fit one variant only: it decides (W64).
            return _decided(game, variant, fits[0], replayer, opts)
    if guessed and failed:
        # The guess is the likelier culprit than the record: its errors would be false
        # errors, so they are dropped, and W40 says the game was not checked.
        fitting = " or ".join(f"{v.name} (GameType {v.gametype})" for v in fits)
        also = f"; it replays without error as {fitting}" if fitting else ""
        game.issues.append(
            _not_replayed(
                game,
                f"its variant was guessed as {variant.name} (no GameType tag), and its "
                f"moves do not replay under it{also}",
            )
        )
        return ReplayResult(
            skipped=f"{_GUESSED}, and the record does not replay under it", refuted=True
        )
    found = sorted(replayer.issues, key=lambda i: (i.line, i.column))
    if replayer.result.stop is not None and fits:
        first = next(i for i in found if i.level is Severity.ERROR)
        found.insert(found.index(first) + 1, _fits_other(first, fits[0]))
    game.issues.extend(found)
    game.draws = replayer.result.draws
    return replayer.result


def _fen_fits_elsewhere(game: Game, tried: Variant) -> Variant | None:
    """The first variant with a GameType on another board than *tried*'s whose board
    the game's FEN fits (read without error), or None."""
    tag = next((t for t in reversed(game.tags) if standard_name(t.name) == "FEN"), None)
    if tag is None or tag.value.strip() in ("", "?"):
        return None
    for other in variants():
        if other.gametype is None or other.board == tried.board:
            continue
        try:
            parse_fen(tag.value, other)
        except FenError:
            continue
        return other
    return None


def _fen_fits_some(game: Game, tried: Variant, same_board: bool) -> bool:
    """Whether some variant with a GameType (on *tried*'s board when *same_board*)
    reads the game's FEN tag without error.

    A FEN no variant reads (a man on its own promotion row, which is that row in every
    variant) is wrong whatever the variant: its E10 stands under a guessed variant too.
    A position of squares up to 32 fits the 10x10 board as well, which says nothing
    when the producer plays one board only (CheckerBoard's set-ups, W64): *same_board*
    then.
    """
    tag = next((t for t in reversed(game.tags) if standard_name(t.name) == "FEN"), None)
    if tag is None:
        return True
    for other in variants():
        if other.gametype is None or (same_board and other.board != tried.board):
            continue
        try:
            parse_fen(tag.value, other)
        except FenError:
            continue
        return True
    return False


def _has_moves(game: Game) -> bool:
    """Whether the record holds a move (main line or variation): what a replay would
    have checked."""
    return any(node.move is not None for node in every_node(game))


def _not_replayed(game: Game, why: str) -> Issue:
    """W40 at the game's start: the game holds moves that nothing checked, and why."""
    return Issue(
        "W40",
        f"not replayed: {why}; --variant NAME or a GameType tag gives its rules",
        game.span.start_line,
        game.span.start_column,
    )


def _inferred(game: Game) -> bool:
    """Whether the game's variant was inferred by the reader (no GameType tag: W27, or
    W64 for a record decided from its FEN alone)."""
    return any(
        (i.code == "W27" and "inferred" in i.message) or i.code == "W64" for i in game.issues
    ) and not any(standard_name(t.name) == "GameType" for t in game.tags)


def _clean_variants(game: Game, tried: Variant, options: ReplayOptions) -> list[Variant]:
    """The other variants with a GameType on *tried*'s board under which the main line
    replays to its end without an error: none, one, or the first two (enough to know
    that no single one decides).

    Only asked for games whose inferred variant found an error: the reader guesses from
    the first moves, and a record of, say, Frisian draughts without its GameType tag
    looks international until its first orthogonal capture.
    """
    quiet = replace(options, draws=False, lookahead=False, repair_hints=False)
    out: list[Variant] = []
    for other in variants():
        if other is tried or other.gametype is None or other.board != tried.board:
            continue
        start = _start_position(game, other, [])[0]
        if start is None:
            continue
        trial = _Replayer(game, other, quiet)
        trial.run(start)
        if trial.result.stop is None and not any(i.level is Severity.ERROR for i in trial.issues):
            out.append(other)
            if len(out) == 2:
                break
    return out


def _decided(
    game: Game, guessed: Variant, other: Variant, failed: _Replayer, options: ReplayOptions
) -> ReplayResult:
    """Replay *game* as *other*, the one variant its moves fit, and say so (W64): its
    tags are silent, the reader's guess *guessed* found an error (*failed*)."""
    issues: list[Issue] = []
    start, _ = _start_position(game, other, issues)
    assert start is not None  # _clean_variants replayed it from there
    replayer = _Replayer(game, other, options)
    replayer.issues = issues
    replayer.result.variant = other.name
    replayer.result.start_fen = write_fen(start)
    replayer.run(start)
    first = min(
        (i for i in failed.issues if i.level is Severity.ERROR), key=lambda i: (i.line, i.column)
    )
    where = f"at ply {first.ply}" if first.ply is not None else f"at {first.line}:{first.column}"
    game.issues.append(
        Issue(
            "W64",
            f"no GameType tag; the moves do not replay as {guessed.name} draughts, the "
            f"guess from the first moves ({first.code} {where}), and replay without error "
            f"as {other.name} draughts (GameType {other.gametype}) alone of the variants "
            f"on that board: read as {other.name}",
            game.span.start_line,
            game.span.start_column,
        )
    )
    game.variant = other.name
    for issue in game.issues:
        if issue.code == "W27" and "inferred" in issue.message:
            # the reader's guess, now refuted: W27 names the variant the game is read as
            issue.message = (
                f"no GameType tag; variant inferred as {other.name} from the moves (W64), "
                f"not {guessed.name}"
            )
    game.issues.extend(sorted(replayer.issues, key=lambda i: (i.line, i.column)))
    game.draws = replayer.result.draws
    return replayer.result


def _fits_other(error: Issue, other: Variant) -> Issue:
    """W37 beside the first error of a game whose moves fit *other*."""
    return Issue(
        "W37",
        f"the main line replays without error as {other.name} draughts (GameType "
        f"{other.gametype}): the GameType tag is probably missing",
        error.line,
        error.column,
        ply=error.ply,
        move=error.move,
    )


_GUESSED = "variant guessed by the reader from squares that fit another board or variant as well"


__all__ = ["replay_game"]
