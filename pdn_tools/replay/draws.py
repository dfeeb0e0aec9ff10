"""The draw conditions of each variant, counted exactly as rules.md §5.2 says.

Positions are numbered from the start (or set-up) position, position 0; the position
after the p-th replayed ply is position p.  :class:`DrawTracker` is told about every
replayed ply and answers which draw conditions first hold at the new position.  It is
cheap to copy, because a variation inherits the history of the line it branches from.

What is counted comes from the variant's :class:`~pdn_tools.rules.DrawRules`: the
repetition count, a run of non-capturing king moves (FMJD 25-move, Russian and Czech
15-move, English 40-move rule), material classes with a deadline (FMJD 16- and 5-move
rules, three or more kings and two kings against a lone king) and the Russian rule on
unchanged material (art. 7.2.6).
"""

from __future__ import annotations

import copy
from typing import Final, Literal, cast

from mypy_extensions import mypyc_attr

from pdn_tools.diagnostics import DrawRule
from pdn_tools.replay.options import ReplayOptions
from pdn_tools.rules import Color, DrawRules, Move, Position, Variant, generator_for

_WHITE: Final = Color.WHITE

ARTICLES: dict[DrawRule, str] = {
    "threefold": "repetition (rules.md §5.1, §6): the same position, same side to move, "
    "for the third time",
    "25-move": "FMJD draw rules (rules.md §5.1): 25 moves by each player with only "
    "non-capturing king moves",
    "16-move": "FMJD draw rules (rules.md §5.1): 16 moves each with three pieces "
    "including a king against a lone king",
    "5-move": "FMJD draw rules (rules.md §5.1, FMJD-64 art. 7.2.8 in §6.1): 5 moves each "
    "with at most two pieces including a king against a lone king",
    "15-move": "15 moves by each player without a man move or a capture (FMJD-64 "
    "art. 7.2.5, rules.md §6.1; Czech rules, §6.6)",
    "40-move": "English 40-move rule (rules.md §6.2): 40 moves each without a man "
    "advancing or a piece removed",
    "3-kings": "three or more kings against a lone king not won in time (FMJD-64 "
    "art. 7.2.4, pool 13-move rule, house rules: rules.md §4.11, §6.1, §6.7)",
    "2-kings": "two kings against a lone king (house rules, rules.md §4.11, IP-13a)",
    "balance": "both sides have kings and the material has not changed for 30 or 60 "
    "moves each, by the number of pieces (FMJD-64 art. 7.2.6, rules.md §6.1)",
    "lone-pieces": "variant draw rules (rules.md §6.4, §6.5): one piece against one "
    "(Turkish) or a lone king against a lone king (Frisian), drawn at once unless the "
    "side to move must capture",
    "two-kings-v-king": "Frisian draw rules (rules.md §6.4): two kings against a lone "
    "king, drawn after 7 moves each",
}

WHOLE_BOARD_ARTICLE = (
    "repetition of the whole board (ItsYourTurn house rule, rules.md §4.10, IP-04): the "
    "same placement of the pieces for the third time, whoever is to move"
)
"""The article of a ``threefold`` event when repetition ignores the side to move."""

MaterialClass = Literal["16", "5", "3-kings", "2-kings"] | None


def material_class(position: Position, rules: DrawRules | None = None) -> MaterialClass:
    """Which material draw rule the position falls under, if any (rules.md §5.1, §6).

    "3-kings" and "2-kings" (only when *rules* has them): three or more kings, or two
    kings, and no men against a lone king; "16": three kings, two kings and a man, or
    a king and two men against a lone king; "5": two kings, a king and a man, or a king
    against a lone king.
    """
    white_men = position.white_men
    white_kings = position.white_kings
    black_men = position.black_men
    black_kings = position.black_kings
    white = white_men | white_kings
    black = black_men | black_kings
    if white & (white - 1) and black & (black - 1):
        return None  # every class needs a side reduced to one piece
    wk = white_kings.bit_count()
    wm = white_men.bit_count()
    bk = black_kings.bit_count()
    bm = black_men.bit_count()
    for sk, sm, ok, om in ((wk, wm, bk, bm), (bk, bm, wk, wm)):
        if ok == 1 and om == 0 and sk >= 1:
            if rules is not None and sm == 0:
                if sk >= 3 and rules.three_kings_v_one_plies is not None:
                    return "3-kings"
                if sk == 2 and rules.two_kings_v_one_plies is not None:
                    return "2-kings"
            total = sk + sm
            if total == 3:
                return "16"
            if total <= 2:
                return "5"
    return None


def _balance_limit(position: Position, rules: DrawRules) -> int | None:
    """Plies the Russian art. 7.2.6 allows in *position* (both sides with kings and a
    piece count it lists), or None when it does not apply."""
    if not rules.balance_plies or not position.white_kings or not position.black_kings:
        return None
    pieces = (
        position.white_men | position.white_kings | position.black_men | position.black_kings
    ).bit_count()
    for low, high, plies in rules.balance_plies:
        if low <= pieces <= high:
            return plies
    return None


@mypyc_attr(serializable=True)  # copy.copy() in the compiled build too
class DrawTracker:
    """Counts for the variant's draw rules along one line of play."""

    __slots__ = (
        "_balance_deadline",
        "_class",
        "_deadline",
        "_deadline_rule",
        "_fired",
        "_king_plies",
        "_king_rule",
        "_last_reset",
        "_options",
        "_pending",
        "_plain_steps",
        "_ply",
        "_repetition_limit",
        "_rules",
        "_seen",
        "_window_plies",
        "_with_turn",
    )

    def __init__(self, start: Position, variant: Variant, options: ReplayOptions) -> None:
        self._options = options
        rules = self._rules = variant.draw_rules
        chosen = options.ip04_repetition_includes_side_to_move
        self._with_turn = rules.repetition_includes_side_to_move if chosen is None else chosen
        self._repetition_limit = rules.repetitions
        self._king_plies = rules.king_moves_plies
        self._king_rule = cast(DrawRule, rules.king_moves_rule)
        self._plain_steps = self._king_plies != 0 and (
            self._repetition_limit is None or self._repetition_limit > 1
        )
        """Whether a man's step can be counted on the short path of :meth:`play`
        (no count that a step restarts can hold at once)."""
        self._window_plies = (rules.three_v_one_plies, rules.two_v_one_plies)
        self._fired: set[DrawRule] = set()
        self.reset(start)

    def reset(self, start: Position) -> None:
        """Start counting afresh from *start* (game start or a set-up, IP-15)."""
        self._ply = 0
        self._last_reset = 0
        self._seen: dict[object, int] | None = {}
        self._pending: Position | None = None
        if self._options.ip03_setup_counts_for_repetition:
            self._seen = None
            self._pending = start
        self._class: MaterialClass = material_class(start, self._rules)
        self._deadline: int | None = None
        self._deadline_rule: DrawRule | None = None
        self._enter_class(None, self._class, promotion=False)
        self._balance_deadline: int | None = None
        self._restart_balance(start)

    def article(self, rule: DrawRule) -> str:
        """The text naming *rule* in a draw event (repetition says which kind)."""
        if rule == "threefold" and not self._with_turn:
            return WHOLE_BOARD_ARTICLE
        return ARTICLES[rule]

    def standing(self, position: Position) -> list[DrawRule]:
        """The conditions that hold at once at *position*, the position counting just
        (re)started from (the start or a set-up): a material rule whose allowance is 0
        plies (2 kings against a lone king under the house rules).  The caller fires
        them at that position's ply, as those of :meth:`play`."""
        hits: list[DrawRule] = []
        if self._deadline == self._ply and self._deadline_rule is not None:
            hits.append(self._deadline_rule)
        if self._balance_deadline == self._ply:
            hits.append("balance")
        return hits

    def _restart_balance(self, position: Position) -> None:
        """Start the art. 7.2.6 count afresh (material changed) if it applies."""
        limit = _balance_limit(position, self._rules) if self._rules.balance_plies else None
        self._balance_deadline = None if limit is None else self._ply + limit

    def copy(self) -> DrawTracker:
        """An independent copy (for a variation branching here)."""
        other = copy.copy(self)  # every field, a subclass's too; then the mutable ones
        if self._seen is not None:
            other._seen = dict(self._seen)
        other._fired = set(self._fired)
        return other

    def _key(self, position: Position) -> object:
        if self._with_turn:
            return position.key()
        return position.placement_key()

    def _enter_class(self, before: MaterialClass, after: MaterialClass, promotion: bool) -> None:
        sixteen, five = self._window_plies
        p = self._ply
        if after == before:
            if after == "16" and promotion and self._options.ip02_promotion_restarts_16:
                self._set_deadline("16-move", sixteen)
            return
        if after == "3-kings":
            self._set_deadline("3-kings", self._rules.three_kings_v_one_plies)
        elif after == "2-kings":
            self._set_deadline("2-kings", self._rules.two_kings_v_one_plies)
        elif after == "16":
            self._set_deadline("16-move", sixteen)
        elif after == "5":
            if five is None:
                self._deadline = None
                self._deadline_rule = None
                return
            fresh = p + five
            if (
                before == "16"
                and self._options.ip01_capture_in_16_window == "earlier"
                and self._deadline is not None
                and self._deadline_rule == "16-move"
                and self._deadline <= fresh
            ):
                return  # the running 16-move limit comes first and stays
            self._deadline = fresh
            self._deadline_rule = "5-move"
        else:
            self._deadline = None
            self._deadline_rule = None

    def _set_deadline(self, rule: DrawRule, plies: int | None) -> None:
        if plies is None:
            self._deadline = None
            self._deadline_rule = None
        else:
            self._deadline = self._ply + plies
            self._deadline_rule = rule

    def play(self, before: Position, move: Move, after: Position) -> list[DrawRule]:
        """Count *move* (played from *before*, giving *after*); the rules whose
        condition holds at the new position.

        The caller passes them to :meth:`fire` unless the side to move in *after* has
        no legal move: a move that wins reaches no draw (rules.md §5.2, "win beats
        draw").  Asking only then spares generating moves on most plies."""
        self._ply = p = self._ply + 1
        if self._plain_steps and not (
            move.capture_mask
            or move.promotes
            or move.from_mask & (before.white_kings | before.black_kings)
        ):
            # The usual ply, a man's step: the history restarts and only a running
            # material deadline can fall due (repetition and king-move counts cannot).
            self._last_reset = p
            self._seen = None
            self._pending = after
            hits: list[DrawRule] = []
            if p == self._deadline and self._deadline_rule:
                hits.append(self._deadline_rule)
            if p == self._balance_deadline:
                hits.append("balance")
            return hits
        if move.capture_mask or not move.from_mask & (before.white_kings | before.black_kings):
            # A capture or a man's move: no earlier position can come back.  The new
            # position starts the history; its key is made only if a king move follows.
            self._last_reset = p
            self._seen = None
            self._pending = after
            count = 1
        else:
            seen = self._seen
            if seen is None:
                pending = self._pending
                seen = self._seen = {} if pending is None else {self._key(pending): 1}
            key = after.key() if self._with_turn else after.placement_key()
            count = seen.get(key, 0) + 1
            seen[key] = count
        if move.capture_mask or move.promotes:
            # Material changes only by a capture or a promotion.
            new_class = material_class(after, self._rules)
            self._enter_class(self._class, new_class, move.promotes)
            self._class = new_class
            if self._rules.balance_plies:
                self._restart_balance(after)
        hits = []
        if self._repetition_limit is not None and count >= self._repetition_limit:
            hits.append("threefold")
        if self._king_plies is not None and p - self._last_reset == self._king_plies:
            hits.append(self._king_rule)
        if self._deadline is not None and p == self._deadline and self._deadline_rule:
            hits.append(self._deadline_rule)
        if self._balance_deadline is not None and p == self._balance_deadline:
            hits.append("balance")
        return hits

    def fire(self, hits: list[DrawRule]) -> list[DrawRule]:
        """Of conditions that hold (from :meth:`play`), those holding for the first
        time on this line; they are remembered as reported."""
        fresh = [h for h in hits if h not in self._fired]
        self._fired.update(fresh)
        return fresh


class VariantDrawTracker(DrawTracker):
    """:class:`DrawTracker` plus the material draws of Frisian and Turkish
    (rules.md §6.4, §6.5), read from the variant's :class:`RayRules`.

    A subclass, so that international replay pays nothing for them: one piece against
    one (Turkish) or a lone king against a lone king (Frisian) is drawn at once unless
    the side to move must capture; two kings against a lone king (Frisian) are drawn
    after the variant's number of plies from when that material arose.
    """

    __slots__ = (
        "_generator",
        "_lone",
        "_lone_kings_only",
        "_lone_plies",
        "_lone_since",
        "_two_kings",
        "_two_kings_plies",
    )

    def __init__(self, start: Position, variant: Variant, options: ReplayOptions) -> None:
        rays = variant.rays
        if rays is None:
            raise ValueError(f"variant {variant.name!r} has no ray rules")
        self._lone = rays.lone_piece_draw or rays.king_v_king_draw
        self._lone_kings_only = not rays.lone_piece_draw
        self._lone_plies = rays.lone_draw_plies
        self._lone_since: int | None = None
        """The ply at which the one-against-one material arose."""
        self._two_kings_plies = rays.two_kings_v_king_plies
        self._generator = generator_for(variant)
        self._two_kings: int | None = None
        """The ply at which two kings against a lone king become a draw."""
        super().__init__(start, variant, options)

    def reset(self, start: Position) -> None:
        """Start counting afresh from *start* (game start or a set-up, IP-15)."""
        super().reset(start)
        self._two_kings = None
        if self._two_kings_plies is not None and _two_kings_v_king(start):
            self._two_kings = self._two_kings_plies
        self._lone_since = 0 if self._lone and _one_v_one(start, self._lone_kings_only) else None

    def standing(self, position: Position) -> list[DrawRule]:
        """As :meth:`DrawTracker.standing`, with the variant's material draws."""
        hits = super().standing(position)
        if self._two_kings is not None and self._ply == self._two_kings:
            hits.append("two-kings-v-king")
        if self._lone_since is not None and self._lone_holds(position):
            hits.append("lone-pieces")
        return hits

    def _lone_holds(self, position: Position) -> bool:
        """Whether one-against-one material, standing since ``_lone_since``, is a draw at
        *position*: long enough, and the side to move need not capture."""
        assert self._lone_since is not None
        if self._ply - self._lone_since < self._lone_plies:
            return False
        if position.turn is _WHITE:
            own_men, own_kings = position.white_men, position.white_kings
            opp, opp_kings = position.black_men | position.black_kings, position.black_kings
            white = True
        else:
            own_men, own_kings = position.black_men, position.black_kings
            opp, opp_kings = position.white_men | position.white_kings, position.white_kings
            white = False
        return not self._generator.has_capture(own_men, own_kings, opp, opp_kings, white)

    def play(self, before: Position, move: Move, after: Position) -> list[DrawRule]:
        """As :meth:`DrawTracker.play`, with the variant's material draws."""
        hits = super().play(before, move, after)
        plies = self._two_kings_plies
        if plies is not None and (move.capture_mask or move.promotes):
            if not _two_kings_v_king(after):
                self._two_kings = None
            elif self._two_kings is None:
                self._two_kings = self._ply + plies
        if self._two_kings is not None and self._ply == self._two_kings:
            hits.append("two-kings-v-king")
        if not self._lone:
            return hits
        if not _one_v_one(after, self._lone_kings_only):
            self._lone_since = None
            return hits
        if self._lone_since is None:
            self._lone_since = self._ply
        if self._lone_holds(after):
            hits.append("lone-pieces")
        return hits


def draw_tracker(start: Position, variant: Variant, options: ReplayOptions) -> DrawTracker:
    """The draw tracker for *variant*: with its material draws when it has any."""
    if variant.rays is not None:
        return VariantDrawTracker(start, variant, options)
    return DrawTracker(start, variant, options)


def _one_v_one(position: Position, kings_only: bool) -> bool:
    """One piece each (with *kings_only*: one king each, no men)."""
    if kings_only:
        return (
            not position.white_men
            and not position.black_men
            and position.white_kings.bit_count() == 1
            and position.black_kings.bit_count() == 1
        )
    return position.piece_count(Color.WHITE) == 1 and position.piece_count(Color.BLACK) == 1


def _two_kings_v_king(position: Position) -> bool:
    """Two kings against a lone king, no men (Frisian's 7-move rule)."""
    if position.white_men or position.black_men:
        return False
    counts = {position.white_kings.bit_count(), position.black_kings.bit_count()}
    return counts == {1, 2}


def side_name(color: Color) -> str:
    """``White`` or ``Black``."""
    return "White" if color is Color.WHITE else "Black"
