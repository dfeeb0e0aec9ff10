"""What the search for the mis-recorded move proposes, as a finding says it: the
message text, the structured ``repair`` object of the JSON outputs, and the
:class:`~pdn_tools.replay.options.Repair` the report and ``--repair`` use.

The search (:mod:`pdn_tools.replay.misrecord`) speaks of written moves by index;
here they become nodes (ply, line, column, the text as written) and the moves meant
are written in the record's own notation (numbers, or algebraic squares).
"""

from __future__ import annotations

from typing import Any

from pdn_tools.pdn.model import Node
from pdn_tools.replay.draws import side_name
from pdn_tools.replay.misrecord import Edit, Finding, Line
from pdn_tools.replay.options import Mend, Repair
from pdn_tools.replay.slips import (
    DOUBLED,
    EXTRA,
    OMITTED,
    OTHER,
    SLIPS,
)
from pdn_tools.rules import Color, Move, Position, Variant, legal_moves, move_text

SHOWN = 4
"""Tied edits named in a message at most (the repair object lists them all)."""
TO_THE_END = "to the end"


def _written_text(move: Move, position: Position, variant: Variant, names: tuple[str, ...]) -> str:
    """*move* in the record's notation: its canonical text among the legal moves of
    *position* (the full path when another move shares its ends), squares named as
    the record names them."""
    legal = legal_moves(position, variant)
    if names[1].isdigit():
        return move_text(move, legal, variant)  # the record writes square numbers
    return move_text(move, legal, variant, names)


class Proposer:
    """Turns the findings of the searches of one line into messages and objects.

    ``nodes[i]`` is the node of ``line.written[i]`` (the first node of a capture
    written jump by jump); ``offset`` the plies of the line replayed before the
    line's first written move (those before a set-up); ``in_variation`` whether the
    line is a variation; ``separator`` joins the squares of the captures a message
    lists as the record writes captures (the variant's when None).
    """

    def __init__(
        self,
        line: Line,
        nodes: list[Node],
        variant: Variant,
        names: tuple[str, ...],
        offset: int,
        in_variation: bool,
        separator: str | None = None,
    ) -> None:
        self.line = line
        self.nodes = nodes
        self.variant = variant
        self.names = names
        self.separator = separator
        self.offset = offset
        self.in_variation = in_variation

    # -- edits on nodes ----------------------------------------------------------------
    def mend(self, edit: Edit) -> Mend:
        """The edit on the record's nodes."""
        entry = self.line.written[edit.index]
        node = self.nodes[edit.index]
        text = None
        if edit.move is not None:
            text = _written_text(edit.move, edit.position, self.variant, self.names)
        written: str | None = entry.text
        if edit.kind == OMITTED:
            written = None
        mend = Mend(edit.kind, entry.ply, node, written, edit.move, text, edit.position)
        if edit.second >= 0 and edit.second_position is not None:
            other = self.line.written[edit.second]
            assert edit.second_move is not None
            second_text = _written_text(
                edit.second_move, edit.second_position, self.variant, self.names
            )
            mend.second = Mend(
                edit.kind,
                other.ply,
                self.nodes[edit.second],
                other.text,
                edit.second_move,
                second_text,
                edit.second_position,
            )
        return mend

    def repair(self, finding: Finding) -> Repair | None:
        """The best edits of *finding* on the record's nodes (None: none found)."""
        if not finding.best:
            return None
        lead = finding.best[0]
        confirmed = lead.confirmed
        return Repair(
            [self.mend(edit) for edit in finding.best],
            None if lead.to_end else self.offset + lead.replayed,
            lead.fits,
            confirmed,
        )

    # -- the repair object -----------------------------------------------------------
    def _numbered_for(self, node: Node, turn: Color) -> bool:
        """Whether the move number written before *node* is the one of a move of
        *turn*: ``N.`` before a move of the first mover, ``N...`` before one of the
        other side (the value aside: consecutive plies share it or follow on)."""
        second = node.number_dots is not None and "..." in node.number_dots
        return second != (turn is self.variant.first_mover)

    def _struck_with_its_number(self, mend: Mend) -> bool:
        """Whether a move struck out takes the move number written before it along:
        the move after it has its own number, or there is none, or the number is not
        one of the move that takes the struck move's ply (``6. 35x24 6. 35x24 14-20``
        loses the second ``6.``, which would else stand before Black's move).  Not when
        something is written between the number and the move (a comment, or the
        ``...`` of ``N. ...``), which the edit would take along."""
        node = mend.node
        if node.number is None or node.number_line <= 0 or node.number_dots == ". ...":
            return False
        following = node.variations[0] if node.variations else None
        unnumbered = following is not None and following.number is None
        if unnumbered and self._numbered_for(node, mend.position.turn):
            return False  # the number is right for the move that moves up
        start, end = (node.number_line, node.number_column), (node.line, node.column)
        parent = node.parent
        between = [*(parent.comments if parent is not None else []), *node.starting_comments]
        return not any(start < (c.line, c.column) < end for c in between)

    def _place(self, mend: Mend) -> dict[str, Any]:
        """Where one edit goes in the text: the move edited, for an omitted move the
        place it is to be written (before the move number of the move written there,
        unless that number is the omitted move's own), and for a move struck out with
        its move number where that number begins (``strike_from``)."""
        node = mend.node
        line, column = node.line, node.column
        if (
            mend.written is None
            and node.number is not None
            and node.number_line > 0
            and not self._numbered_for(node, mend.position.turn)
        ):
            line, column = node.number_line, node.number_column
        data: dict[str, Any] = {
            "ply": mend.ply,
            "line": line,
            "column": column,
            "written": mend.written,
            "move": mend.text,
        }
        if mend.written is not None and mend.text is None and self._struck_with_its_number(mend):
            data["strike_from"] = {"line": node.number_line, "column": node.number_column}
        return data

    def data(self, repair: Repair) -> dict[str, Any]:
        """The ``repair`` object of the finding's JSON (docs/diagnostics.md)."""
        lead = repair.edits[0]
        out = self._place(lead)
        out["kind"] = lead.kind
        out["candidates"] = len(repair.edits)
        out["replays"] = TO_THE_END if repair.replays is None else repair.replays
        out["fits_result"] = repair.fits
        out["confirmed"] = repair.confirmed
        if lead.second is not None:
            out["also"] = self._place(lead.second)
        if len(repair.edits) > 1:
            tied = []
            for mend in repair.edits[1:]:
                item = self._place(mend)
                item["kind"] = mend.kind
                if mend.second is not None:
                    item["also"] = self._place(mend.second)
                tied.append(item)
            out["tied"] = tied
        return out

    # -- the message -------------------------------------------------------------------
    def short(self, mend: Mend) -> str:
        """One edit in a few words: ``ply 41: written 23-28, meant 32-28 (digit
        transposition)``."""
        label = SLIPS[mend.kind].label
        if mend.kind == OMITTED:
            return f"ply {mend.ply}: {mend.text} missing before {mend.node.raw} ({label})"
        if mend.kind in (DOUBLED, EXTRA):
            return f"ply {mend.ply}: {mend.written} to be struck out ({label})"
        if mend.second is not None:
            return (
                f"plies {mend.ply} and {mend.second.ply}: {mend.written} and "
                f"{mend.second.written} exchanged ({label})"
            )
        return f"ply {mend.ply}: written {mend.written}, meant {mend.text} ({label})"

    def outcome(self, lead: Edit, many: bool) -> str:
        """What the edit *lead* (the first of the best) achieves: ``with it all 87
        plies replay``."""
        it = "any of them" if many else "it"
        if not lead.to_end:
            more = lead.replayed - self.line.fail
            return f"with {it} the next {max(more, 0)} plies replay"
        if self.in_variation:
            return f"with {it} the rest of the variation replays"
        if self.line.open_end:
            return f"with {it} the line replays up to ply {self.line.written[-1].ply}"
        return f"with {it} all {self.offset + lead.replayed} plies replay"

    def message(self, finding: Finding, repair: Repair | None, legal: list[Move]) -> str:
        """The hint the failing move's finding gains (empty: none to give)."""
        if repair is None:
            return self.nothing(finding, legal)
        best = finding.best[0]
        edits = repair.edits
        lead = edits[0]
        if not repair.confirmed:
            # nothing after the edit confirms it: only the one slip of the model that
            # turns a legal move into what was written is worth a question
            if lead.kind == OTHER or len(edits) > 1 or lead.move is None or lead.second:
                return ""
            return (
                f"did you mean {lead.text} ({SLIPS[lead.kind].label})? the record ends "
                "here, so no later move confirms it"
            )
        if len(edits) > 1:
            more = " …" if len(edits) > SHOWN else ""
            if all(m.kind == OMITTED and m.node is lead.node for m in edits):
                side = side_name(lead.position.turn)
                names = ", ".join(str(m.text) for m in edits[:SHOWN])
                return (
                    f"a move of {side} seems to be missing before it (any of {names}{more}); "
                    + self.outcome(best, True)
                )
            names = "; ".join(self.short(m) for m in edits[:SHOWN])
            return f"{len(edits)} single edits fit equally well: {names}{more}; " + self.outcome(
                best, True
            )
        done = self.outcome(best, False)
        here = best.index == self.line.fail
        if here and lead.second is None and lead.kind not in (OMITTED, DOUBLED, EXTRA):
            return f"did you mean {lead.text} ({SLIPS[lead.kind].label})? {done}"
        if here and lead.kind == OMITTED:
            side = side_name(lead.position.turn)
            return f"a move of {side} seems to be missing before it: {lead.text}; {done}"
        if here and lead.kind in (DOUBLED, EXTRA):
            what = "written twice" if lead.kind == DOUBLED else "superfluous"
            without = done.replace("with it", "without it", 1)
            return f"the move looks {what}: {without}"
        return f"probably mis-recorded at {self.short(lead)}; {done}"

    def nothing(self, finding: Finding, legal: list[Move]) -> str:
        """The message when no single edit mends the line."""
        text = "no single edit of the record lets the rest of the line replay"
        if finding.exhausted and finding.reached > 0:
            first = self.line.written[finding.reached].ply
            text += f" (searched back to ply {first}, where the search's budget ran out)"
        if 0 < len(legal) <= 6:
            shown = (move_text(m, legal, self.variant, self.names, self.separator) for m in legal)
            text += "; legal here: " + ", ".join(shown)
        return text

    def result_message(self, repair: Repair) -> str:
        """The hint of a result that contradicts the final position."""
        edits = repair.edits
        if len(edits) > 1:
            names = "; ".join(self.short(m) for m in edits[:SHOWN])
            more = " …" if len(edits) > SHOWN else ""
            return f"{len(edits)} single edits make the game end as its result says: {names}{more}"
        return (
            f"probably mis-recorded at {self.short(edits[0])}; with it the final position "
            "fits the result"
        )


__all__ = ["TO_THE_END", "Proposer"]
