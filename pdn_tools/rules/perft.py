"""Perft: the number of leaf positions of the move tree, moves counted by identity.

Perft is the standard correctness check of a move generator: the counts from the
international start position are published (9, 81, 658, 4265, 27117, ...).  The tree
walk stays on raw bitboards and :meth:`Generator.raw_moves` (no :class:`Move` objects,
no paths) and counts the last ply with :meth:`Generator.count_moves`, which counts
quiet moves and one-jump captures with whole-board shifts instead of listing them.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TypeVar

from pdn_tools.rules.generators import generator_for, legal_moves
from pdn_tools.rules.movegen import Generator
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import INTERNATIONAL, Color, Variant

CHECK_DEPTH = 4
"""The walk calls its *check* at each node this many plies or more above the leaves:
every few milliseconds however deep the count, never in the hot last plies."""
G = TypeVar("G", bound=Generator)
"""A move generator: the diagonal one or a ray-walking one."""
MAX_DEPTH = 64
"""Deepest perft asked for: the walk recurses once per ply, and no tree that deep could
be counted anyway (from the start position, depth 12 already takes hours)."""


def perft(
    position: Position,
    depth: int,
    variant: Variant = INTERNATIONAL,
    check: Callable[[], None] | None = None,
) -> int:
    """Number of positions reached after exactly *depth* plies (1 for depth 0).

    *depth* must lie in 0..:data:`MAX_DEPTH` (``ValueError`` otherwise).  *check*, when
    given, is called every few milliseconds (at nodes :data:`CHECK_DEPTH` or more plies
    above the leaves) and may raise to stop the count: compiled code does not see a
    signal on its own, so the command line passes a plain Python function there,
    whose call lets a pending Ctrl-C or SIGTERM act.
    """
    if depth < 0 or depth > MAX_DEPTH:
        raise ValueError(f"depth must be between 0 and {MAX_DEPTH}")
    if depth == 0:
        return 1
    gen = generator_for(variant)
    wm, wk = position.white_men, position.white_kings
    bm, bk = position.black_men, position.black_kings
    white = position.turn is Color.WHITE
    if variant.rays is not None:
        from pdn_tools.rules.raygen import RayGenerator, ray_perft, ray_walk

        assert isinstance(gen, RayGenerator)
        if check is not None and depth >= CHECK_DEPTH:
            return _walk_checked(gen, wm, wk, bm, bk, white, depth, check, ray_walk)
        return ray_perft(gen, position, depth)
    # The walk allocates millions of short-lived tuples and lists but never a reference
    # cycle, so the cyclic garbage collector has nothing to find; pausing it halves the
    # run time.  It is switched back on (if it was on) whatever happens.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        if check is not None and depth >= CHECK_DEPTH:
            return _walk_checked(gen, wm, wk, bm, bk, white, depth, check, _walk)
        return _walk(gen, wm, wk, bm, bk, white, depth)
    finally:
        if was_enabled:
            gc.enable()


def divide(
    position: Position,
    depth: int,
    variant: Variant = INTERNATIONAL,
    check: Callable[[], None] | None = None,
) -> list[tuple[str, int]]:
    """Perft of each legal move at *depth* - 1, as (canonical notation, count) pairs."""
    from pdn_tools.rules.notation import move_texts

    if depth < 1 or depth > MAX_DEPTH:
        raise ValueError(f"divide needs a depth between 1 and {MAX_DEPTH}")
    moves = legal_moves(position, variant)
    texts = move_texts(moves, variant)
    return [
        (text, perft(position.apply(m), depth - 1, variant, check))
        for text, m in zip(texts, moves, strict=True)
    ]


def _walk(gen: Generator, wm: int, wk: int, bm: int, bk: int, white: bool, depth: int) -> int:
    """Recursive perft on bitboards; *depth* >= 1."""
    if white:
        if depth == 1:
            return gen.count_moves(wm, wk, bm | bk, bk, True)
        total = 0
        for frm, to, cap, promotes in gen.raw_moves(wm, wk, bm | bk, bk, True):
            src = 1 << frm
            dst = 1 << to
            keep = ~cap
            if wm & src:
                if promotes:
                    total += _walk(gen, wm ^ src, wk | dst, bm & keep, bk & keep, False, depth - 1)
                else:
                    total += _walk(gen, wm ^ src | dst, wk, bm & keep, bk & keep, False, depth - 1)
            else:
                total += _walk(gen, wm, wk ^ src | dst, bm & keep, bk & keep, False, depth - 1)
        return total
    if depth == 1:
        return gen.count_moves(bm, bk, wm | wk, wk, False)
    total = 0
    for frm, to, cap, promotes in gen.raw_moves(bm, bk, wm | wk, wk, False):
        src = 1 << frm
        dst = 1 << to
        keep = ~cap
        if bm & src:
            if promotes:
                total += _walk(gen, wm & keep, wk & keep, bm ^ src, bk | dst, True, depth - 1)
            else:
                total += _walk(gen, wm & keep, wk & keep, bm ^ src | dst, bk, True, depth - 1)
        else:
            total += _walk(gen, wm & keep, wk & keep, bm, bk ^ src | dst, True, depth - 1)
    return total


def _children(
    gen: G, wm: int, wk: int, bm: int, bk: int, white: bool
) -> list[tuple[int, int, int, int]]:
    """The bitboards (white men, white kings, black men, black kings) after each legal
    move of the side to move (for the few nodes far from the leaves)."""
    out = []
    own_men, own_kings = (wm, wk) if white else (bm, bk)
    opp, opp_kings = (bm | bk, bk) if white else (wm | wk, wk)
    for frm, to, cap, promotes in gen.raw_moves(own_men, own_kings, opp, opp_kings, white):
        src = 1 << frm
        dst = 1 << to
        keep = ~cap
        if own_men & src:
            men = own_men ^ src if promotes else own_men ^ src | dst
            kings = own_kings | dst if promotes else own_kings
        else:
            men = own_men
            kings = own_kings ^ src | dst
        if white:
            out.append((men, kings, bm & keep, bk & keep))
        else:
            out.append((wm & keep, wk & keep, men, kings))
    return out


def _walk_checked(
    gen: G,
    wm: int,
    wk: int,
    bm: int,
    bk: int,
    white: bool,
    depth: int,
    check: Callable[[], None],
    walk: Callable[[G, int, int, int, int, bool, int], int],
) -> int:
    """The perft of a node at least :data:`CHECK_DEPTH` plies above the leaves:
    *check* first, then each child, by this walk while it is that far up and by the
    variant's plain *walk* below, which stays as fast as it was: the few nodes up here
    pay for the calls, the millions below do not."""
    check()
    total = 0
    for cwm, cwk, cbm, cbk in _children(gen, wm, wk, bm, bk, white):
        if depth - 1 >= CHECK_DEPTH:
            total += _walk_checked(gen, cwm, cwk, cbm, cbk, not white, depth - 1, check, walk)
        else:
            total += walk(gen, cwm, cwk, cbm, cbk, not white, depth - 1)
    return total
