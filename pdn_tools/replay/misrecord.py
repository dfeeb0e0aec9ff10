"""Which move was mis-recorded: the backward search for the single edit that mends a
line of play.

A record stops replaying at ply *n*, but the mistake is often earlier: a move written
wrongly that is legal where it stands (``23-28`` for ``32-28``) lets the game go on
until a later move no longer fits.  :func:`search` takes the positions the replay
reached (the replay runs forward once and keeps them) and tries the edits of the
transcription-error model (:mod:`pdn_tools.replay.slips`), cheap ones first: the
slips of the failing move, then the slips of the line around it (an omitted move,
moves exchanged, a move struck out), then the slips that can leave a move legal at
plies *n* - 1, *n* - 2, … back to the start of the line, and any other legal move at
*n* last.  For each edit only the suffix is replayed, from the edited ply on, and the
replay of a suffix stops at its first illegal move or as soon as it reaches the
position the record itself reached at that ply (then it breaks where the record
broke).  An edit is kept when the whole rest of the line replays with it (or at
least ``lookahead`` plies past *n*, when none does) and ranked by (replays to the
end, fits the recorded result, prior of its kind, distance from *n*): once an edit
that replays to the end is found, only kinds of a higher prior are looked for further
back, so a search usually stops a few plies before *n*.  Edits of the same rank tie,
and so do edits that lead to the very position the best one reaches (the record
cannot tell them apart).  Every step of a suffix and every move generation counts
against a budget shared by the searches of one game (:class:`Budget`); a search whose
budget runs out says so.

The same search, with no failing ply, finds the edits after which a game whose
recorded result contradicts its final position fits it.

This module works on positions and moves only: the replay turns nodes into
:class:`Written` moves and the edits found back into findings.
"""

from __future__ import annotations

from typing import Final, final

from pdn_tools.replay.slips import (
    ANYWHERE,
    DOUBLED,
    EXCHANGED,
    EXTRA,
    MISTYPED,
    OMITTED,
    OTHER,
    SHIFTED,
    SLIPS,
    move_slip,
)
from pdn_tools.rules import Color, MatchKind, Move, Position, Variant, legal_moves, parse_move
from pdn_tools.rules.frozen import freeze
from pdn_tools.rules.generators import generator_for
from pdn_tools.rules.raygen import KingMoveLimit

HERE: Final = ANYWHERE | {MISTYPED}
"""The slips of a move looked for at the failing ply."""
AROUND: Final = frozenset({OMITTED, SHIFTED, EXCHANGED})
"""The slips of the line around the failing move (they break the replay at once)."""
STRUCK: Final = frozenset({DOUBLED, EXTRA})
"""The slips mended by striking the failing move out."""
NEAR: Final = frozenset({EXCHANGED})
"""The slips looked for at the three plies before the failing one as well."""
NOTHING: Final[frozenset[str]] = frozenset()
"""No slip."""
LAST_RESORT: Final = frozenset({OTHER})
"""Any other legal move at the failing ply: tried when nothing better mends the line."""
WHITE: Final = Color.WHITE
MAX_BRANCHES: Final = 64
"""Bound on the branches ambiguous captures may open while one suffix is replayed."""
MERGE_PARTS: Final = 20
"""Most written jumps merged into one capture written jump by jump."""


@final
class Written:
    """One move of the line as written (read only: :func:`~pdn_tools.rules.frozen.freeze`
    refuses an assignment or a deletion in both builds; the fields are not ``Final``,
    which mypyc 2.4.1 lends out without a reference of its own where a function returns
    one inside a tuple, freeing it while in use).

    A plain slotted class rather than a named tuple: the search line is made for
    every game whose replay breaks, one entry per written move, and the search reads
    its fields on every ply it replays; compiled by mypyc this is a C struct built
    and read by native code, where a named tuple stays a Python class built through
    ``tuple.__new__`` (about 4 % of the time of a game that breaks).
    """

    __slots__ = ("capture", "names", "ply", "squares", "text")

    squares: tuple[int, ...] | None
    """The squares as numbers, or None when one of them is not on the board."""
    names: tuple[str, ...]
    """The squares as written (normalised spelling: ``28``, ``c3``)."""
    capture: bool
    """Whether it was written with a capture separator."""
    text: str
    """The move as written."""
    ply: int
    """Its ply (the half-move slot of the line, as findings count them)."""

    def __init__(
        self,
        squares: tuple[int, ...] | None,
        names: tuple[str, ...],
        capture: bool,
        text: str,
        ply: int,
    ) -> None:
        self.squares = squares
        self.names = names
        self.capture = capture
        self.text = text
        self.ply = ply

    def __repr__(self) -> str:
        return (
            f"Written(squares={self.squares!r}, names={self.names!r}, "
            f"capture={self.capture!r}, text={self.text!r}, ply={self.ply!r})"
        )


freeze(Written, stores_arguments=True)


class Budget:
    """Plies a game's searches may still replay (shared by all of them)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


class Edit:
    """One single edit of the record after which (part of) the line replays.

    ``index`` is the written move edited (for an inserted move: the one it goes
    before); ``move`` the move meant there, played in ``position`` (None: the written
    move is deleted).  An exchange changes a second move: ``second`` (its index,
    -1 if none), ``second_move`` and ``second_position``.
    """

    __slots__ = (
        "confirmed",
        "distance",
        "fits",
        "index",
        "kind",
        "move",
        "position",
        "prior",
        "replayed",
        "second",
        "second_move",
        "second_position",
        "to_end",
    )

    def __init__(
        self,
        kind: str,
        index: int,
        move: Move | None,
        position: Position,
        distance: int,
    ) -> None:
        self.kind = kind
        self.index = index
        self.move = move
        self.position = position
        self.distance = distance
        self.prior = SLIPS[kind].prior
        self.second = -1
        self.second_move: Move | None = None
        self.second_position: Position | None = None
        self.replayed = 0
        """Plies of the line replayed with the edit (from the line's first move)."""
        self.to_end = False
        """Whether the whole line replays with it."""
        self.fits = False
        """Whether the recorded result fits the line's final position with it."""
        self.confirmed = True
        """Whether written moves after the edit replay with it (not so for an edit of
        the line's last move, which any legal move would make "replay")."""

    def rank(self) -> tuple[bool, bool, bool, int, float, int]:
        """Sort key, best last: replays to the end, fits the result, confirmed by the
        moves after it, plies replayed (when it does not reach the end), prior,
        nearness to the failing ply."""
        return (
            self.to_end,
            self.fits,
            self.confirmed,
            0 if self.to_end else self.replayed,
            self.prior,
            -self.distance,
        )

    def __repr__(self) -> str:
        return (
            f"Edit({self.kind} at {self.index}: {self.move!r}, replayed={self.replayed}, "
            f"to_end={self.to_end}, fits={self.fits})"
        )


class Finding:
    """What a search found: the best edits (several when they tie), how many edits
    it kept, and how far back it looked."""

    __slots__ = ("best", "exhausted", "kept", "reached")

    def __init__(self) -> None:
        self.best: list[Edit] = []
        """The edits of the best rank, in search order (nearest the break first)."""
        self.kept = 0
        """Edits kept in all (each lets the line replay to its end, or far enough)."""
        self.reached = 0
        """The lowest index the search tried an edit at."""
        self.exhausted = False
        """Whether the budget ran out before the search was done."""


class _Stop(Exception):
    """The budget ran out in the middle of a suffix."""


class Line:
    """A line of play as the replay left it: the written moves, the positions before
    each one up to the failing move, and what ends it.

    ``written[:fail]`` were played (``played``), each from ``positions[i]``;
    ``positions[fail]`` is where ``written[fail]`` matched no legal move (``fail ==
    len(written)``: the whole line replayed).  ``limits`` holds the Frisian run of
    king moves before each of them (None for the other variants).  ``recorded`` holds
    the outcomes the result tag and terminator say (``first-wins``, ``draw``, …) and
    ``open_end`` whether the line stops at a set-up or placeholder, where no result
    can be compared.  ``previous`` names the squares of up to two moves written before
    ``written[0]``, nearest first (a variation's moves before its failing one), to
    tell a move written twice.
    """

    __slots__ = (
        "fail",
        "limits",
        "open_end",
        "played",
        "positions",
        "previous",
        "recorded",
        "written",
    )

    def __init__(
        self,
        written: list[Written],
        positions: list[Position],
        played: list[Move],
        limits: list[KingMoveLimit] | None,
        recorded: tuple[str, ...],
        open_end: bool,
        previous: tuple[tuple[str, ...], ...] = (),
    ) -> None:
        self.written = written
        self.previous = previous
        self.positions = positions
        self.played = played
        self.fail = len(played)
        self.limits = limits
        self.recorded = recorded
        self.open_end = open_end


class _Search:
    """One backward search over a :class:`Line`."""

    def __init__(
        self,
        line: Line,
        variant: Variant,
        names: tuple[str, ...],
        budget: Budget,
        lookahead: int,
        merge_split: bool,
        result_only: bool,
    ) -> None:
        self.line = line
        self.written = line.written
        self.positions = line.positions
        self.count = len(line.written)
        self.variant = variant
        gen = generator_for(variant)
        self.quiet_move = gen.quiet_move
        self.short_capture = gen.short_capture
        self.capture_between = gen.capture_between
        self.names = names
        self.row = gen.geometry.row_masks[0].bit_count()
        """Squares per row: how far apart a square and the one a row above it are."""
        self.budget = budget
        self.lookahead = lookahead
        self.merge_split = merge_split
        self.result_only = result_only
        self.first_mover = variant.first_mover
        self.branches = 0
        self.until = self.count
        self.kept: list[Edit] = []

    # -- replaying a suffix ----------------------------------------------------------
    def options(self, position: Position, index: int) -> list[tuple[Move, int]]:
        """The moves ``written[index]`` may stand for at *position*, each with the
        written moves it uses (more than one for a capture written jump by jump);
        empty when it is not legal there."""
        entry = self.written[index]
        squares = entry.squares
        if squares is None:
            return []
        white_men, white_kings, black_men, black_kings, turn, geometry = position.fields()
        frm, to = squares[0], squares[-1]
        occupied = white_men | white_kings | black_men | black_kings
        own = white_men | white_kings if turn is WHITE else black_men | black_kings
        if not (own >> geometry.bit_of[frm]) & 1:
            return []  # no piece of the side to move where the move starts
        if to != frm and (occupied >> geometry.bit_of[to]) & 1:
            return []  # a move never ends on an occupied square (but its own start)
        if self.merge_split and index + 1 < self.count:
            nxt = self.written[index + 1].squares
            if nxt is not None and nxt[0] == to:
                # the next jump of a capture written jump by jump (no reply starts where
                # the mover has just landed), read together first as the replay does
                legal = legal_moves(position, self.variant)
                if legal and legal[0].is_capture:
                    merged = self.merge(legal, index)
                    if merged is not None:
                        return [merged]
        if len(squares) == 2:
            if entry.capture:
                fast = self.short_capture(position, frm, to) or self.capture_between(
                    position, frm, to
                )
            else:
                fast = self.quiet_move(position, frm, to)
            if fast is not None:
                return [(fast, 1)]
        legal = legal_moves(position, self.variant)
        if not legal:
            return []
        match = parse_move(squares, legal, self.variant, capture=entry.capture)
        if match.move is not None:
            return [(match.move, 1)]
        if match.kind is MatchKind.AMBIGUOUS:
            return [(c, 1) for c in match.candidates]
        if match.kind is MatchKind.NO_MATCH and self.merge_split and legal[0].is_capture:
            merged = self.merge(legal, index)
            if merged is not None:
                return [merged]
        return []

    def merge(self, legal: list[Move], index: int) -> tuple[Move, int] | None:
        """A capture written jump by jump from ``written[index]`` on, as one move."""
        first = self.written[index].squares
        if first is None:
            return None
        path = list(first)
        j = index + 1
        while j < self.count and j - index < MERGE_PARTS:
            nxt = self.written[j].squares
            if nxt is None or nxt[0] != path[-1]:
                return None
            path.extend(nxt[1:])
            match = parse_move(tuple(path), legal, self.variant, capture=True)
            if match.move is not None:
                return match.move, j - index + 1
            j += 1
        return None

    def rest(
        self, position: Position, index: int, limit: KingMoveLimit | None, until: int = -1
    ) -> tuple[int, Position | None]:
        """Replay ``written[index:until]`` (*until* -1: to the end) from *position*: the
        plies that replay and the final position (None unless the moves replay to
        *until*).  Stops early, as a failure, where the position is the one the record
        reached at the same move before its break (the record's own failure follows)."""
        self.branches = MAX_BRANCHES
        self.until = self.count if until < 0 else until
        return self._rest(position, index, limit)

    def _rest(
        self, position: Position, index: int, limit: KingMoveLimit | None
    ) -> tuple[int, Position | None]:
        count = self.until
        fail = self.line.fail
        positions = self.positions
        budget = self.budget
        plies = 0
        while index < count:
            if index < fail and position == positions[index]:
                return plies, None
            if budget.left <= 0:
                raise _Stop
            budget.left -= 1
            found = self.options(position, index)
            if len(found) == 1:
                move, used = found[0]
                if limit is not None:
                    if limit.refuses(position, move):
                        return plies, None
                    limit.play(position, move)
                position = position.apply(move)
                index += used
                plies += 1
                continue
            if not found:
                return plies, None
            best: tuple[int, Position | None] = (0, None)
            for move, used in found:
                self.branches -= 1
                if self.branches < 0:
                    break
                branch = limit.copy() if limit is not None else None
                if branch is not None:
                    if branch.refuses(position, move):
                        continue
                    branch.play(position, move)
                got = self._rest(position.apply(move), index + used, branch)
                if got[1] is not None:
                    return plies + 1 + got[0], got[1]
                if got[0] + 1 > best[0]:
                    best = (got[0] + 1, None)
            return plies + best[0], None
        return plies, position

    # -- the recorded result ---------------------------------------------------------
    def fits(self, final: Position | None) -> bool:
        """Whether the recorded result fits *final*, the line's last position: when
        the side to move there has no legal move (it has lost), every recorded result
        says so; a side that can still move may have resigned, lost on time or agreed
        a draw, so any result fits.  With ``result_only`` a decisive result must be
        shown by the position (the loser to move without a legal move)."""
        if final is None:
            return False
        if self.line.open_end:
            return True
        lost = not legal_moves(final, self.variant)
        expected = "draw"
        if lost:
            winner = final.turn.opponent
            expected = "first-wins" if winner is self.first_mover else "second-wins"
        for outcome in self.line.recorded:
            if outcome == "unknown" or outcome == expected:
                continue
            if lost or (self.result_only and outcome != "draw"):
                return False
        return True

    # -- one edit --------------------------------------------------------------------
    def limit_at(self, index: int) -> KingMoveLimit | None:
        """A copy of the Frisian run of king moves before ``written[index]``."""
        limits = self.line.limits
        return limits[index].copy() if limits is not None else None

    def play(
        self, position: Position, moves: list[Move], limit: KingMoveLimit | None
    ) -> Position | None:
        """*position* after *moves* (None when the run of king moves refuses one)."""
        for move in moves:
            if limit is not None:
                if limit.refuses(position, move):
                    return None
                limit.play(position, move)
            position = position.apply(move)
        return position

    def judge(
        self,
        edit: Edit,
        start: Position,
        index: int,
        before: int,
        limit: KingMoveLimit | None,
    ) -> None:
        """Replay the rest of the line after *edit* (from *start*, ``written[index]``
        on; *before* plies of the line precede it) and keep the edit if it mends the
        line."""
        plies, final = self.rest(start, index, limit)
        edit.confirmed = index < self.count or edit.kind in (OMITTED, EXCHANGED, SHIFTED)
        edit.replayed = before + plies
        edit.to_end = final is not None
        edit.fits = self.fits(final)
        fail = self.line.fail
        if self.result_only:
            if edit.to_end and edit.fits:
                self.kept.append(edit)
            return
        if edit.to_end or edit.replayed - fail >= self.lookahead:
            self.kept.append(edit)

    # -- the kinds -------------------------------------------------------------------
    def substitutions(self, index: int, kinds: frozenset[str]) -> list[Move]:
        """Each legal move at ``written[index]`` that a slip of *kinds* turns into what
        was written there; returns the legal moves that no slip relates to it."""
        line = self.line
        position = self.positions[index]
        entry = self.written[index]
        played = line.played[index] if index < line.fail else None
        names = self.names
        distance = line.fail - index
        self.spend()
        unrelated: list[Move] = []
        for move in legal_moves(position, self.variant):
            if played is not None and move == played:
                continue
            kind = move_slip(
                entry.names,
                entry.capture,
                names[move.from_sq],
                names[move.to_sq],
                move.is_capture,
                self.row,
            )
            if kind is None:
                unrelated.append(move)
            elif kind in kinds:
                self.substitute(index, move, kind, distance)
        return unrelated

    def substitute(self, index: int, move: Move, kind: str, distance: int) -> None:
        """Judge *move* written as ``written[index]`` by the slip *kind*."""
        position = self.positions[index]
        edit = Edit(kind, index, move, position, distance)
        limit = self.limit_at(index)
        after = self.play(position, [move], limit)
        if after is not None:
            self.judge(edit, after, index + 1, index + 1, limit)

    def omitted(self, index: int) -> None:
        """A move of the side to move missing before ``written[index]``."""
        position = self.positions[index]
        for move in legal_moves(position, self.variant):
            limit = self.limit_at(index)
            after = self.play(position, [move], limit)
            if after is None:
                continue
            if not self.options(after, index):
                continue  # the written move does not follow it
            edit = Edit(OMITTED, index, move, position, 0)
            self.judge(edit, after, index, index + 1, limit)

    def deleted(self, index: int, kinds: frozenset[str]) -> None:
        """``written[index]`` written twice (the same text as one of the two moves
        before it) or superfluous, if that kind is among *kinds*."""
        entry = self.written[index]
        kind = EXTRA
        earlier = [self.written[j].names for j in (index - 1, index - 2) if j >= 0]
        earlier += self.line.previous
        if entry.names in earlier[:2]:
            kind = DOUBLED
        if kind not in kinds:
            return
        edit = Edit(kind, index, None, self.positions[index], 0)
        self.judge(edit, self.positions[index], index + 1, index, self.limit_at(index))

    def exchanged(self, index: int, gap: int) -> None:
        """``written[index]`` and ``written[index + gap]`` exchanged (gap 2: two moves
        of one side; gap 1: the two moves of one move number)."""
        if index + gap >= self.count:
            return
        kind = EXCHANGED if gap == 2 else SHIFTED
        order = [index + gap, *range(index + 1, index + gap), index]
        position = self.positions[index]
        limit = self.limit_at(index)
        moves: list[Move] = []
        starts: list[Position] = []
        here: Position | None = position
        for source in order:
            if here is None:
                return
            found = self.options(here, source)
            if len(found) != 1 or found[0][1] != 1:
                return
            starts.append(here)
            moves.append(found[0][0])
            here = self.play(here, [found[0][0]], limit)
        if here is None:
            return
        # an exchange that spans the failing ply is as near to it as an edit can be
        distance = max(0, self.line.fail - (index + gap))
        edit = Edit(kind, index, moves[0], position, distance)
        edit.second = index + gap
        edit.second_move = moves[-1]
        edit.second_position = starts[-1]
        self.judge(edit, here, index + gap + 1, index + gap + 1, limit)

    def twins(self, lead: Edit) -> list[Edit]:
        """The edits of earlier moves, of the same prior as *lead* (an edit of one
        move), after which the line reaches the very position *lead* reaches after its
        move: the record cannot tell them apart (two pieces that swap roles, such as
        14-20 … 10-15 written for 15-20 … 10-14).  Only the moves that moved a piece
        *lead* changes are tried, so the scan costs little."""
        move = lead.move
        if move is None or lead.second >= 0 or lead.kind not in ANYWHERE or lead.index == 0:
            return []
        line = self.line
        geometry = lead.position.geometry
        squares = set(self.written[lead.index].squares or ())
        squares.update((move.from_sq, move.to_sq), move.captures)
        mask = geometry.mask_of(squares)
        target = lead.position.apply(move)
        kinds = frozenset(k for k in ANYWHERE if SLIPS[k].prior == lead.prior)
        found: list[Edit] = []
        names = self.names
        for index in range(min(lead.index, line.fail) - 1, -1, -1):
            played = line.played[index]
            if not (played.from_mask | played.to_mask | played.capture_mask) & mask:
                continue
            position = self.positions[index]
            entry = self.written[index]
            self.spend()
            for other in legal_moves(position, self.variant):
                if other == played:
                    continue
                kind = move_slip(
                    entry.names,
                    entry.capture,
                    names[other.from_sq],
                    names[other.to_sq],
                    other.is_capture,
                    self.row,
                )
                if kind is None or kind not in kinds:
                    continue
                limit = self.limit_at(index)
                after = self.play(position, [other], limit)
                if after is None:
                    continue
                _, reached = self.rest(after, index + 1, limit, lead.index + 1)
                if reached is None or reached != target:
                    continue
                twin = Edit(kind, index, other, position, line.fail - index)
                twin.replayed, twin.to_end, twin.fits = lead.replayed, lead.to_end, lead.fits
                twin.confirmed = lead.confirmed
                twin.distance = lead.distance  # tied: the record cannot tell them apart
                found.append(twin)
        return found

    # -- the search ------------------------------------------------------------------
    def best(self) -> list[Edit]:
        """The kept edits of the best rank, nearest the break first."""
        if not self.kept:
            return []
        top = max(edit.rank() for edit in self.kept)
        return [edit for edit in self.kept if edit.rank() == top]

    def spend(self) -> None:
        """Count one unit of work (a move generation) against the budget."""
        if self.budget.left <= 0:
            raise _Stop
        self.budget.left -= 1

    def wanted(self, kinds: frozenset[str], here: bool) -> frozenset[str]:
        """The kinds of *kinds* whose edits could still beat or tie the best edit kept
        so far: all of them until an edit that replays to the end and fits is kept,
        then those of a higher prior, or of the same prior *here* (at the failing
        ply, at the same distance: a tie; further back an edit of the same prior
        ranks lower).  A search for the edit that makes the result fit wants every
        kind to the start: only a single edit there is an answer."""
        if self.result_only:
            return kinds
        lead = -1.0
        for edit in self.kept:
            if edit.to_end and edit.fits and edit.confirmed and edit.prior > lead:
                lead = edit.prior
        return frozenset(
            kind
            for kind in kinds
            if SLIPS[kind].prior > lead or (here and SLIPS[kind].prior == lead)
        )

    def run(self) -> Finding:
        """Search from the failing move back to the start of the line."""
        line = self.line
        fail = line.fail
        finding = Finding()
        finding.reached = fail
        try:
            unrelated: list[Move] = []
            if fail < self.count:
                # the failing ply: the slips of a move first, then those of the line
                unrelated = self.substitutions(fail, HERE)
                around = self.wanted(AROUND, True)
                for kind in (OMITTED, EXCHANGED, SHIFTED):
                    if kind not in around:
                        continue
                    if kind == OMITTED:
                        self.omitted(fail)
                    elif kind == SHIFTED:
                        self.exchanged(fail, 1)
                    elif kind == EXCHANGED:
                        self.exchanged(fail, 2)
                self.deleted(fail, self.wanted(STRUCK, True))
            for index in range(fail - 1, -1, -1):
                # an exchange breaks at one of the plies it spans or at the reply
                # after it (the move between them read otherwise: 38-33 48x25 49-43
                # for 49-43 48x25 38-33 captures another man, and the reply fails)
                near = not self.result_only and fail - index <= 3
                wanted = self.wanted(ANYWHERE, False)
                spanning = self.wanted(NEAR, True) if near else NOTHING
                if not wanted and not spanning:
                    break
                finding.reached = index
                if EXCHANGED in spanning:
                    self.exchanged(index, 2)
                if wanted:
                    self.substitutions(index, wanted)
            if unrelated and self.wanted(LAST_RESORT, True):
                # any other legal move, when no edit of the model mends the line
                for move in unrelated:
                    self.substitute(fail, move, OTHER, 0)
        except _Stop:
            finding.exhausted = True
        if self.result_only:
            # every edit that fits is as good as any other: one is an answer, several
            # are listed, and none is claimed when the search could not finish
            self.kept.sort(key=lambda edit: edit.distance)
            finding.best = [] if finding.exhausted else self.kept
            finding.kept = len(self.kept)
            return finding
        best = self.best()
        finding.kept = len(self.kept)
        if best and best[0].to_end and not finding.exhausted:
            try:
                for lead in list(best):
                    twins = self.twins(lead)
                    best.extend(twins)
                    finding.kept += len(twins)
            except _Stop:
                finding.exhausted = True
        finding.best = best
        return finding


def search(
    line: Line,
    variant: Variant,
    names: tuple[str, ...],
    budget: Budget,
    *,
    lookahead: int = 40,
    merge_split: bool = True,
    result_only: bool = False,
) -> Finding:
    """The single edits of the transcription-error model that mend *line* (see the
    module's description), searched back from its failing move.

    *names* spells each square as the record writes them (index: square number).
    With *result_only* the line replayed to its end but its final position
    contradicts the recorded result: an edit must keep the whole line legal and make
    the result fit.
    """
    return _Search(line, variant, names, budget, lookahead, merge_split, result_only).run()


__all__ = ["Budget", "Edit", "Finding", "Line", "Written", "search"]
