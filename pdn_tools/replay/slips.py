"""The transcription-error model: the slips people make when they copy the moves of a
game, and how likely each one is.

A record that stops replaying at ply *n* was usually mis-written earlier: a move that
is legal where it stands, but not the move that was played, leaves the game going
until a later move no longer fits (docs/replay.md, "Which move was mis-recorded").
Each :class:`Slip` is one kind of mistake, with a prior (how often transcribers make
it, relative to the others) that ranks the edits :mod:`pdn_tools.replay.misrecord`
finds, and a *reach*: whether the slip can leave the written move legal, so that the
search looks for it at every ply before the break, or always breaks the replay at the
slip itself, so that it is looked for at the failing ply only.

:func:`move_slip` tells which single-move slip turns a legal move into what was
written.  Square names are compared as written: PDN numbers (``23``) or algebraic
squares (``c3``).
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Slip(NamedTuple):
    """One kind of transcription error."""

    name: str
    """The kind as JSON gives it (``digit-transposition``)."""
    prior: float
    """Relative likelihood among the kinds (they need not add up to 1)."""
    label: str
    """The kind in a message (``digit transposition``)."""
    anywhere: bool
    """Whether the slip can leave the written move legal (searched at every ply
    before the break) or always breaks the replay where it is made (searched at the
    failing ply, or the three before it for an exchange of moves)."""


OFF_BY_ONE: Final = "off-by-one"
TRANSPOSITION: Final = "digit-transposition"
SWAPPED: Final = "from-to-swapped"
CAPTURE_ROUTE: Final = "capture-route"
ALGEBRAIC: Final = "algebraic-slip"
EXCHANGED: Final = "exchanged-moves"
SHIFTED: Final = "shifted-pair"
OMITTED: Final = "omitted-ply"
DOUBLED: Final = "doubled-ply"
MISTYPED: Final = "mistyped-digit"
EXTRA: Final = "extra-ply"
OTHER: Final = "other-move"

SLIPS: Final[dict[str, Slip]] = {
    s.name: s
    for s in (
        Slip(OFF_BY_ONE, 0.30, "a square off by one", True),
        Slip(ALGEBRAIC, 0.30, "a letter or digit of a square off", True),
        Slip(TRANSPOSITION, 0.15, "digit transposition", True),
        Slip(SWAPPED, 0.10, "from and to swapped", True),
        Slip(CAPTURE_ROUTE, 0.10, "capture with the wrong landing square or route", True),
        Slip(OMITTED, 0.10, "omitted ply", False),
        Slip(EXCHANGED, 0.05, "moves of consecutive move numbers exchanged", False),
        Slip(DOUBLED, 0.05, "ply written twice", False),
        Slip(MISTYPED, 0.05, "one mistyped digit", False),
        Slip(SHIFTED, 0.03, "White's and Black's moves of one number exchanged", False),
        Slip(EXTRA, 0.02, "superfluous ply", False),
        Slip(OTHER, 0.01, "another legal move", False),
    )
}
"""Every kind, commonest first (docs/replay.md gives the evidence for each prior)."""

ANYWHERE: Final[frozenset[str]] = frozenset(s.name for s in SLIPS.values() if s.anywhere)
"""The kinds searched at every ply before the break."""


def square_slip(written: str, meant: str, row: int) -> str | None:
    """The slip that turns square *meant* into *written* (both spelled as written),
    or None when they are the same square or no slip of the model relates them.

    *row* is how far apart two squares one row apart are in the board's numbering
    (5 on 10x10, 4 on 8x8).  Numbers: off by one (27 or 29 for 28) or by a row (23 or
    33 for 28), two digits transposed (23 for 32), one digit mistyped, added or
    dropped (38 or 3 for 28).  Algebraic squares: one letter or digit changed (d3 for
    c3, c5 for c3).
    """
    if written == meant:
        return None
    if written.isdigit() and meant.isdigit():
        gap = abs(int(written) - int(meant))
        if gap == 1 or gap == row:
            return OFF_BY_ONE
        if len(written) == 2 and written == meant[::-1]:
            return TRANSPOSITION
        if _one_digit(written, meant):
            return MISTYPED
        return None
    if len(written) == len(meant) and sum(a != b for a, b in zip(written, meant, strict=True)) == 1:
        return ALGEBRAIC
    return None


def _one_digit(a: str, b: str) -> bool:
    """Whether *a* and *b* differ by one digit changed, added or dropped."""
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    if len(long_) - len(short) != 1:
        return False
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def move_slip(
    written: tuple[str, ...],
    written_capture: bool,
    frm: str,
    to: str,
    capture: bool,
    row: int,
) -> str | None:
    """The single-move slip that turns the legal move *frm*-*to* (square names;
    *capture*: whether it captures) into the *written* squares, or None.

    From and to swapped; a capture from the same square written with another landing
    square or route (also a capture path whose ends are those of the move); one
    square changed by a :func:`square_slip`, the other one right.  The written move
    itself (same ends, not a capture) is no slip.

    A capture written ``fromxto`` whose landing square is a slip of the move's that is
    likelier than a wrong landing square or route (``22x16`` or ``22x11`` for
    ``22x15``: off by one) is that slip: it ranks the edit by the likelier
    explanation, where a tie with another capture from the same square would
    otherwise be said.  A written path of more squares keeps the route: its other
    squares may be wrong too.
    """
    first, last = written[0], written[-1]
    if first == frm and last == to:
        return CAPTURE_ROUTE if capture else None
    if first == to and last == frm:
        return SWAPPED
    if capture and first == frm and (written_capture or len(written) > 2):
        if len(written) == 2:
            slip = square_slip(last, to, row)
            if slip is not None and SLIPS[slip].prior > SLIPS[CAPTURE_ROUTE].prior:
                return slip
        return CAPTURE_ROUTE
    if first == frm:
        return square_slip(last, to, row)
    if last == to:
        return square_slip(first, frm, row)
    return None


__all__ = [
    "ALGEBRAIC",
    "ANYWHERE",
    "CAPTURE_ROUTE",
    "DOUBLED",
    "EXCHANGED",
    "EXTRA",
    "MISTYPED",
    "OFF_BY_ONE",
    "OMITTED",
    "OTHER",
    "SHIFTED",
    "SLIPS",
    "SWAPPED",
    "TRANSPOSITION",
    "Slip",
    "move_slip",
    "square_slip",
]
