"""Replay options and results: what the caller may configure and what replay returns.

The options carry the configurable interpretation points of rules.md §7 that the
FMJD draw rules need (IP-01 to IP-04, IP-15), the look-ahead bounds used to resolve
ambiguous captures and to find repairs, and the variant to assume for games whose
variant is unknown.  The result is plain data so that exporters and reports can use
it without knowing how replay works.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, final

from pdn_tools.diagnostics import DrawEvent
from pdn_tools.pdn.model import Node, variant_text_expected
from pdn_tools.rules import Move, Position, variant_by_name
from pdn_tools.rules.frozen import freeze


@dataclass(slots=True)
class ReplayOptions:
    """How replay interprets the rules and how much searching it may do.

    Defaults follow rules.md §7.  ``variant`` is used only for games whose variant is
    ``unknown`` (no GameType tag and nothing to infer it from).
    """

    variant: str | None = None
    """Variant name for games the reader could not classify (``None``: not replayed)."""
    lookahead: bool = True
    """Resolve an ambiguous short capture when exactly one candidate lets the rest of
    the main line replay (W25); off: every ambiguity is E08 (pdn-format.md §10.4)."""
    lookahead_plies: int = 40
    """How many later plies a look-ahead replays before it counts as a success."""
    repair_hints: bool = True
    """Append a "did you mean" repair to illegal-move errors, found by look-ahead."""
    max_repair_searches: int = 50
    """Repair searches per game at most; later errors get no hint.  Bounds the work a
    hostile record full of illegal variations can cause."""
    repair_budget: int = 2000
    """Plies the searches for the mis-recorded move may replay per game, all of them
    together (:mod:`pdn_tools.replay.misrecord`); a search that reaches it reports
    what it found so far and how far back it looked."""
    merge_split_captures: bool = True
    """Merge a capture written jump by jump (``11x18 18x25``) into one move (W24)."""
    draws: bool = True
    """Detect the draw conditions of the game's variant (rules.md §5, §6)."""
    ip01_capture_in_16_window: Literal["earlier", "fresh"] = "earlier"
    """IP-01: a capture turning the 16-move class into the 5-move class: the earlier of
    the running 16-move limit and a fresh 5-move limit (A, default) or a fresh 5-move
    count only (B)."""
    ip02_promotion_restarts_16: bool = False
    """IP-02: whether a promotion inside the 16-move class restarts its count (no)."""
    ip03_setup_counts_for_repetition: bool = True
    """IP-03: whether the start or set-up position is the first occurrence (yes)."""
    ip04_repetition_includes_side_to_move: bool | None = None
    """IP-04: whether positions compare placement and side to move (FMJD: yes) or the
    placement only (ItsYourTurn's house rule).  None: as the variant's rules
    description says (:attr:`pdn_tools.rules.DrawRules.repetition_includes_side_to_move`);
    True or False overrides it."""
    ip15_setup_resets_counters: bool = True
    """IP-15: an in-game ``/FEN/`` resets all draw counters (yes)."""

    def __post_init__(self) -> None:
        # The variant by its name (an alias or GameType number given: the name it
        # stands for); an unknown one is the caller's mistake, refused here with
        # UnknownVariantError, not found in every game as a variant without rules (W28).
        # The field holds text: the compiled build refuses an int before this runs,
        # so the pure build refuses it too (the API functions name a number first).
        given: object = self.variant
        if given is not None and not isinstance(given, str):
            raise TypeError(variant_text_expected(given))
        if self.variant is not None:
            self.variant = variant_by_name(self.variant).name


@final
class ReplayedMove:
    """One replayed main-line move: where it was written and what it is.

    A plain slotted class rather than a named tuple: one is made per replayed ply, and
    compiled by mypyc its constructor and field reads are native code (a named tuple
    stays a Python class there).  Records compare equal when their fields do; one
    unpacks into its five fields (``ply, node, move, text, merged = record``), but it
    is not a tuple (not indexed or ordered, and never equal to one).  Immutable:
    :func:`~pdn_tools.rules.frozen.freeze` refuses an assignment or a deletion in both
    builds.  The fields are not ``Final``: mypyc 2.4.1 lends out a ``Final`` field
    without a reference of its own where a function returns it inside a tuple (as
    ``__iter__``, ``__hash__`` and ``__reduce__`` do), which frees it while in use.
    """

    __slots__ = ("merged", "move", "node", "ply", "text")

    ply: int
    """1-based ply slot of the main line (as :attr:`pdn_tools.pdn.model.Game.ply_slots`
    counts them: moves and placeholders)."""
    node: Node
    move: Move
    """The engine move: ``from_sq``, ``to_sq``, ``captures``, every route in ``paths``."""
    text: str
    """Canonical notation of the move in its position (short form when unambiguous)."""
    merged: tuple[Node, ...]
    """Further nodes merged into this move (a capture written jump by jump, W24)."""

    def __init__(
        self, ply: int, node: Node, move: Move, text: str, merged: tuple[Node, ...] = ()
    ) -> None:
        self.ply = ply
        self.node = node
        self.move = move
        self.text = text
        self.merged = merged

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReplayedMove):
            return NotImplemented
        return (
            self.ply == other.ply
            and self.node == other.node
            and self.move == other.move
            and self.text == other.text
            and self.merged == other.merged
        )

    def __hash__(self) -> int:
        return hash((self.ply, self.node, self.move, self.text, self.merged))

    def __iter__(self) -> Iterator[int | Node | Move | str | tuple[Node, ...]]:
        # Unpacking, as when records were named tuples.
        return iter((self.ply, self.node, self.move, self.text, self.merged))

    def __repr__(self) -> str:
        return (
            f"ReplayedMove(ply={self.ply!r}, node={self.node!r}, move={self.move!r}, "
            f"text={self.text!r}, merged={self.merged!r})"
        )

    def __reduce__(self) -> tuple[type[ReplayedMove], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (ReplayedMove, (self.ply, self.node, self.move, self.text, self.merged))


freeze(ReplayedMove, stores_arguments=True)


class Mend:
    """One edit of the record, on its nodes: at ``node`` (the move edited, or the one
    an omitted move goes before), ``move`` was meant (None: the node is deleted), to
    be written ``text`` in the record's notation; ``written`` is what the record has
    there (None for an omitted move).  ``position`` is where ``move`` is played (for
    a deleted move: where the node was).  An exchange of two moves carries the second
    node's edit in ``second``."""

    kind: str
    """The slip (:data:`pdn_tools.replay.slips.SLIPS`)."""
    ply: int
    node: Node
    written: str | None
    move: Move | None
    text: str | None
    position: Position
    second: Mend | None

    __slots__ = ("kind", "move", "node", "ply", "position", "second", "text", "written")

    def __init__(
        self,
        kind: str,
        ply: int,
        node: Node,
        written: str | None,
        move: Move | None,
        text: str | None,
        position: Position,
        second: Mend | None = None,
    ) -> None:
        self.kind = kind
        self.ply = ply
        self.node = node
        self.written = written
        self.move = move
        self.text = text
        self.position = position
        self.second = second

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mend) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.kind,
            self.ply,
            self.node,
            self.written,
            self.move,
            self.text,
            self.position,
            self.second,
        ) == (
            other.kind,
            other.ply,
            other.node,
            other.written,
            other.move,
            other.text,
            other.position,
            other.second,
        )

    def __repr__(self) -> str:
        return (
            f"Mend(kind={self.kind!r}, "
            f"ply={self.ply!r}, "
            f"node={self.node!r}, "
            f"written={self.written!r}, "
            f"move={self.move!r}, "
            f"text={self.text!r}, "
            f"position={self.position!r}, "
            f"second={self.second!r})"
        )

    def __reduce__(self) -> tuple[type[Mend], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            Mend,
            (
                self.kind,
                self.ply,
                self.node,
                self.written,
                self.move,
                self.text,
                self.position,
                self.second,
            ),
        )


class Repair:
    """The best edits the search found for one finding (several when they tie)."""

    edits: list[Mend]
    replays: int | None
    """Plies of the line that replay with the edit, None when it replays to the end."""
    fits: bool
    """Whether the recorded result fits the final position with it."""
    confirmed: bool
    """Whether later moves confirm it (False for an edit of the line's last move,
    which any legal move would "mend")."""

    __slots__ = ("confirmed", "edits", "fits", "replays")

    def __init__(
        self,
        edits: list[Mend],
        replays: int | None,
        fits: bool,
        confirmed: bool,
    ) -> None:
        self.edits = edits
        self.replays = replays
        self.fits = fits
        self.confirmed = confirmed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Repair) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.edits, self.replays, self.fits, self.confirmed) == (
            other.edits,
            other.replays,
            other.fits,
            other.confirmed,
        )

    def __repr__(self) -> str:
        return (
            f"Repair(edits={self.edits!r}, "
            f"replays={self.replays!r}, "
            f"fits={self.fits!r}, "
            f"confirmed={self.confirmed!r})"
        )

    def __reduce__(self) -> tuple[type[Repair], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (Repair, (self.edits, self.replays, self.fits, self.confirmed))


class ReplayStop:
    """Where and why replay of the main line stopped before its end."""

    ply: int
    line: int
    column: int
    reason: str
    code: str | None
    """The diagnostic code of the finding that stopped replay (None for a placeholder)."""

    __slots__ = ("code", "column", "line", "ply", "reason")

    def __init__(
        self,
        ply: int,
        line: int,
        column: int,
        reason: str,
        code: str | None = None,
    ) -> None:
        self.ply = ply
        self.line = line
        self.column = column
        self.reason = reason
        self.code = code

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReplayStop) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.ply, self.line, self.column, self.reason, self.code) == (
            other.ply,
            other.line,
            other.column,
            other.reason,
            other.code,
        )

    def __repr__(self) -> str:
        return (
            f"ReplayStop(ply={self.ply!r}, "
            f"line={self.line!r}, "
            f"column={self.column!r}, "
            f"reason={self.reason!r}, "
            f"code={self.code!r})"
        )

    def __reduce__(self) -> tuple[type[ReplayStop], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (ReplayStop, (self.ply, self.line, self.column, self.reason, self.code))


class ReplayResult:
    """What replaying one game established.

    ``replayed`` is False when the game was not replayed at all (variant without rule
    profile, unknown variant, invalid FEN tag); ``skipped`` then says why.
    """

    replayed: bool
    skipped: str | None
    plies: int
    """Main-line plies replayed (a merged split capture counts once)."""
    merged: int
    """Main-line ply slots of the later jumps of the captures written jump by jump
    that the replay merged into one move (W24): what :attr:`Game.plies` takes off
    the slots, counted as the replay goes rather than walked for afterwards."""
    completed: bool
    """Whether the whole main line replayed (no illegal move, no placeholder)."""
    stop: ReplayStop | None
    final_fen: str | None
    """FEN of the position after the last replayed main-line ply."""
    final_side_has_moves: bool | None
    """Whether the side to move in the final position has a legal move."""
    draws: list[DrawEvent]
    continued_after_draw: int | None
    """Ply of the first main-line move played after a draw condition held."""
    moves: list[ReplayedMove]
    repairs: dict[tuple[int, int], Repair]
    """The edits the search for the mis-recorded move proposes, by the (line, column)
    of the finding they mend (an illegal move, main line or variation; the result
    that contradicts the final position)."""
    searched: int
    """Plies the searches for mis-recorded moves replayed (against the game's
    ``repair_budget``)."""
    variant: str | None
    """Name of the rule profile the game was replayed under (None: not replayed)."""
    refuted: bool
    """The reader's guess of the variant (no GameType tag) was found wrong and the game
    not replayed (W40, or a FEN that does not fit the guess): a writer must not state
    that variant as the game's."""
    start_fen: str | None
    """Canonical FEN of the start position (the FEN tag's, else the variant's initial)."""

    __slots__ = (
        "completed",
        "continued_after_draw",
        "draws",
        "final_fen",
        "final_side_has_moves",
        "merged",
        "moves",
        "plies",
        "refuted",
        "repairs",
        "replayed",
        "searched",
        "skipped",
        "start_fen",
        "stop",
        "variant",
    )

    def __init__(
        self,
        replayed: bool = False,
        skipped: str | None = None,
        plies: int = 0,
        merged: int = 0,
        completed: bool = False,
        stop: ReplayStop | None = None,
        final_fen: str | None = None,
        final_side_has_moves: bool | None = None,
        draws: list[DrawEvent] | None = None,
        continued_after_draw: int | None = None,
        moves: list[ReplayedMove] | None = None,
        repairs: dict[tuple[int, int], Repair] | None = None,
        searched: int = 0,
        variant: str | None = None,
        refuted: bool = False,
        start_fen: str | None = None,
    ) -> None:
        self.replayed = replayed
        self.skipped = skipped
        self.plies = plies
        self.merged = merged
        self.completed = completed
        self.stop = stop
        self.final_fen = final_fen
        self.final_side_has_moves = final_side_has_moves
        self.draws = [] if draws is None else draws
        self.continued_after_draw = continued_after_draw
        self.moves = [] if moves is None else moves
        self.repairs = {} if repairs is None else repairs
        self.searched = searched
        self.variant = variant
        self.refuted = refuted
        self.start_fen = start_fen

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReplayResult) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.replayed,
            self.skipped,
            self.plies,
            self.merged,
            self.completed,
            self.stop,
            self.final_fen,
            self.final_side_has_moves,
            self.draws,
            self.continued_after_draw,
            self.moves,
            self.repairs,
            self.searched,
            self.variant,
            self.refuted,
            self.start_fen,
        ) == (
            other.replayed,
            other.skipped,
            other.plies,
            other.merged,
            other.completed,
            other.stop,
            other.final_fen,
            other.final_side_has_moves,
            other.draws,
            other.continued_after_draw,
            other.moves,
            other.repairs,
            other.searched,
            other.variant,
            other.refuted,
            other.start_fen,
        )

    def __repr__(self) -> str:
        return (
            f"ReplayResult(replayed={self.replayed!r}, "
            f"skipped={self.skipped!r}, "
            f"plies={self.plies!r}, "
            f"merged={self.merged!r}, "
            f"completed={self.completed!r}, "
            f"stop={self.stop!r}, "
            f"final_fen={self.final_fen!r}, "
            f"final_side_has_moves={self.final_side_has_moves!r}, "
            f"draws={self.draws!r}, "
            f"continued_after_draw={self.continued_after_draw!r}, "
            f"moves={self.moves!r}, "
            f"repairs={self.repairs!r}, "
            f"searched={self.searched!r}, "
            f"variant={self.variant!r}, "
            f"refuted={self.refuted!r}, "
            f"start_fen={self.start_fen!r})"
        )

    def __reduce__(self) -> tuple[type[ReplayResult], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (
            ReplayResult,
            (
                self.replayed,
                self.skipped,
                self.plies,
                self.merged,
                self.completed,
                self.stop,
                self.final_fen,
                self.final_side_has_moves,
                self.draws,
                self.continued_after_draw,
                self.moves,
                self.repairs,
                self.searched,
                self.variant,
                self.refuted,
                self.start_fen,
            ),
        )
