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

from pdn_tools.rules.generators import generator_for, legal_moves
from pdn_tools.rules.movegen import Generator
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import INTERNATIONAL, Color, Variant

CHECK_DEPTH = 4
"""The walk calls its *check* at each node this many plies or more above the leaves:
every few milliseconds however deep the count, never in the hot last plies."""
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
    if variant.rays is not None:
        from pdn_tools.rules.raygen import RayGenerator, ray_perft

        assert isinstance(gen, RayGenerator)
        return ray_perft(gen, position, depth, check)
    # The walk allocates millions of short-lived tuples and lists but never a reference
    # cycle, so the cyclic garbage collector has nothing to find; pausing it halves the
    # run time.  It is switched back on (if it was on) whatever happens.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _walk(
            gen,
            position.white_men,
            position.white_kings,
            position.black_men,
            position.black_kings,
            position.turn is Color.WHITE,
            depth,
            check,
        )
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


def _walk(
    gen: Generator,
    wm: int,
    wk: int,
    bm: int,
    bk: int,
    white: bool,
    depth: int,
    check: Callable[[], None] | None,
) -> int:
    """Recursive perft on bitboards; *depth* >= 1."""
    if check is not None and depth >= CHECK_DEPTH:
        check()
    if white:
        if depth == 1:
            return gen.count_moves(wm, wk, bm | bk, bk, True)
        total = 0
        for frm, to, cap, promotes in gen.raw_moves(wm, wk, bm | bk, bk, True):
            src = 1 << frm
            dst = 1 << to
            keep = ~cap
            if wm & src:
                men = wm ^ src if promotes else wm ^ src | dst
                kings = wk | dst if promotes else wk
            else:
                men = wm
                kings = wk ^ src | dst
            total += _walk(gen, men, kings, bm & keep, bk & keep, False, depth - 1, check)
        return total
    if depth == 1:
        return gen.count_moves(bm, bk, wm | wk, wk, False)
    total = 0
    for frm, to, cap, promotes in gen.raw_moves(bm, bk, wm | wk, wk, False):
        src = 1 << frm
        dst = 1 << to
        keep = ~cap
        if bm & src:
            men = bm ^ src if promotes else bm ^ src | dst
            kings = bk | dst if promotes else bk
        else:
            men = bm
            kings = bk ^ src | dst
        total += _walk(gen, wm & keep, wk & keep, men, kings, True, depth - 1, check)
    return total
