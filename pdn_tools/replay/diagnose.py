"""Why a written move is not legal, and which legal move the writer probably meant.

:func:`explain` turns a move that matches no legal move into a stable code with
evidence (pdn-format.md §12.4: E05, E06, E07, E09).  :func:`closeness` ranks legal
moves by how near their notation is to what was written, for repair hints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pdn_tools.rules import (
    CaptureChoice,
    Color,
    MatchKind,
    Move,
    Position,
    Variant,
    generator_for,
    legal_moves,
    move_text,
    parse_move,
    path_text,
)
from pdn_tools.rules.geometry import Geometry

_FREE: dict[int, tuple[Variant, Variant]] = {}


def free_choice(variant: Variant) -> Variant:
    """*variant* with free capture choice (one object per variant: the generator
    cache is keyed by identity)."""
    entry = _FREE.get(id(variant))
    if entry is None or entry[0] is not variant:
        entry = (variant, replace(variant, capture_choice=CaptureChoice.FREE))
        _FREE[id(variant)] = entry
    return entry[1]


def describe_piece(piece: tuple[Color, bool] | None) -> str:
    """``a white man``, ``a black king`` or ``empty``."""
    if piece is None:
        return "empty"
    colour = "white" if piece[0] is Color.WHITE else "black"
    return f"a {colour} {'king' if piece[1] else 'man'}"


def _diagonal(geo: Geometry, a: int, b: int) -> tuple[int, int, int] | None:
    """(row step, column step, distance) when *b* lies on a diagonal from *a*."""
    ra, ca = geo.coords[a]
    rb, cb = geo.coords[b]
    dr, dc = rb - ra, cb - ca
    if dr == 0 or abs(dr) != abs(dc):
        return None
    return (1 if dr > 0 else -1, 1 if dc > 0 else -1, abs(dr))


def _between(geo: Geometry, a: int, b: int, d: tuple[int, int, int]) -> list[int]:
    """The squares strictly between *a* and *b* along diagonal *d*."""
    ra, ca = geo.coords[a]
    return [geo.square_at[(ra + d[0] * k, ca + d[1] * k)] for k in range(1, d[2])]


def explain(
    squares: tuple[int, ...],
    position: Position,
    legal: Sequence[Move],
    variant: Variant,
    capture: bool = False,
    names: Sequence[str] | None = None,
    separator: str | None = None,
) -> tuple[str, str]:
    """Code and reason for written *squares* that match no legal move (NO_MATCH).

    Checks, in order: the from-square (E05), a capture sequence that stopped while it
    can continue or took fewer pieces than the maximum (E07), a quiet move while a
    capture is compulsory (E06), a path that is no capture (E09), and why a quiet move
    is impossible (occupied, backward, not reachable: E05).

    *names* (indexed by square number) spells squares and moves as the record does,
    algebraic ``g7`` for a record written ``h6-g7``; by default their numbers.
    *separator* joins the squares of the captures named (the written move's and the
    legal ones) as the record writes captures (``c3:e5``); by default the variant's.
    """
    if names is None:
        names = _numbers(position.geometry.size)
    geo = position.geometry
    first, last = squares[0], squares[-1]
    turn = position.turn
    side = "White" if turn is Color.WHITE else "Black"
    piece = position.piece_at(first)
    if len(squares) > 2 and legal and legal[0].is_capture:
        # The squares of a legal capture written in another order or with captured
        # squares mixed in (Hub/DXP style, or scrambled engine logs).
        written_set = set(squares)
        fits = [
            m
            for m in legal
            if m.from_sq in written_set
            and m.to_sq in written_set
            and any(set(p) <= written_set for p in m.paths)
        ]
        if len(fits) == 1 and (
            piece is None or piece[0] is not turn or squares[-1] != fits[0].to_sq
        ):
            return "E09", (
                f"the squares written are those of the legal capture "
                f"{path_text(fits[0], variant, names, separator)} in another order or with "
                "other squares mixed in (a path lists the from-square, the landing squares, "
                "the to-square)"
            )
    if piece is None or piece[0] is not turn:
        where = describe_piece(piece)
        at = names[first]
        return "E05", f"no {side.lower()} piece on {at} ({at} is {where}; {side} to move)"
    must_capture = bool(legal) and legal[0].is_capture
    if must_capture:
        # A sequence written up to a square where it must continue.
        for m in legal:
            if m.from_sq == first and any(last in p[1:-1] for p in m.paths):
                return "E07", (
                    f"the capture cannot stop on {names[last]}: it must continue, "
                    f"e.g. {path_text(m, variant, names, separator)}"
                )
        free = legal_moves(position, free_choice(variant))
        fm = parse_move(squares, free, variant)
        if fm.kind is not MatchKind.NO_MATCH and fm.kind is not MatchKind.WRONG_PATH:
            taken = fm.move or (fm.candidates[0] if fm.candidates else None)
            best = max(legal, key=lambda m: len(m.captures))
            if taken is not None:
                return "E07", (
                    f"the capture takes {len(taken.captures)} piece(s) but the maximum is "
                    f"{len(best.captures)}: e.g. {path_text(best, variant, names, separator)}"
                )
    written = ((separator or "x") if capture else "-").join(names[s] for s in squares)
    if len(squares) > 2:
        if not must_capture:
            return "E09", f"{written} is no capture: no capture is possible here"
        return "E09", f"{written} describes no legal capture; legal: " + _listing(
            legal, variant, names, separator
        )
    occupant = position.piece_at(last)
    if occupant is not None and last != first:
        return "E05", f"{names[last]} is occupied by {describe_piece(occupant)}"
    if variant.rays is not None:
        return _explain_quiet_rays(position, first, last, piece[1], legal, variant, written, names)
    frm, to = names[first], names[last]
    diag = _diagonal(geo, first, last)
    if diag is None:
        return "E05", f"{to} is not on a diagonal from {frm}"
    is_king = piece[1]
    forward = -1 if turn is Color.WHITE else 1
    path = _between(geo, first, last, diag)
    pieces = [(s, position.piece_at(s)) for s in path]
    blockers = [(s, p) for s, p in pieces if p is not None]
    jumps = [s for s, p in blockers if p[0] is not turn]
    if jumps and (is_king or len(path) == 1):
        why = (
            "no capture is possible here"
            if not must_capture
            else "legal: " + _listing(legal, variant, names, separator)
        )
        jumped = names[jumps[0]]
        return "E09", f"{written} jumps over {jumped} but is not a legal capture ({why})"
    if blockers:
        return "E05", f"{to} is not reachable from {frm}: {names[blockers[0][0]]} is in the way"
    if not is_king and diag[0] != forward:
        return "E05", f"the man on {frm} cannot move backward to {to}"
    if not is_king and diag[2] > 1:
        return "E05", f"a man moves one square; {to} is {diag[2]} squares from {frm}"
    if must_capture:
        example = move_text(legal[0], legal, variant, names, separator)
        return "E06", f"a capture is compulsory, e.g. {example}"
    return "E05", f"{written} is not a legal move"


def _explain_quiet_rays(
    position: Position,
    first: int,
    last: int,
    is_king: bool,
    legal: Sequence[Move],
    variant: Variant,
    written: str,
    names: Sequence[str],
) -> tuple[str, str]:
    """:func:`explain` for a two-square move in a variant with orthogonal directions
    (Frisian, Turkish), whose geometry the diagonal reasons above do not describe:
    E06 when it would be a legal quiet move but a capture is due, else E05."""
    gen = generator_for(variant)
    geo = position.geometry
    white = position.turn is Color.WHITE
    if white:
        own_men, own_kings = position.white_men, position.white_kings
        opp = position.black_men | position.black_kings
    else:
        own_men, own_kings = position.black_men, position.black_kings
        opp = position.white_men | position.white_kings
    wanted = (geo.bit_of[first], geo.bit_of[last])
    quiet = gen.quiet(own_men, own_kings, opp, white)
    if any((frm, to) == wanted for frm, to, _, _ in quiet):
        example = move_text(legal[0], legal, variant, names)
        return "E06", f"a capture is compulsory, e.g. {example}"
    mover = "king" if is_king else "man"
    if legal and legal[0].is_capture:
        # The quiet moves are not legal either: name the capture that is due instead.
        why = f"a capture is compulsory, e.g. {move_text(legal[0], legal, variant, names)}"
    else:
        reach = {geo.square_of[to] for frm, to, _, _ in quiet if frm == wanted[0]}
        why = "its quiet moves here: " + (", ".join(names[s] for s in sorted(reach)) or "none")
    return "E05", (
        f"{written} is not a legal move of the {mover} on {names[first]} in {variant.name} "
        f"draughts ({why})"
    )


_NUMBERS: dict[int, tuple[str, ...]] = {}


def _numbers(size: int) -> tuple[str, ...]:
    """Square names by number for a board of *size* squares: ``("", "1", "2", …)``."""
    names = _NUMBERS.get(size)
    if names is None:
        names = _NUMBERS[size] = tuple(str(s) if s else "" for s in range(size + 1))
    return names


def _listing(
    legal: Sequence[Move], variant: Variant, names: Sequence[str], separator: str | None
) -> str:
    """Up to four legal moves in canonical notation, squares spelt by *names*, those of
    a capture joined by *separator* (the variant's when None)."""
    shown = ", ".join(move_text(m, legal, variant, names, separator) for m in legal[:4])
    return shown + (" …" if len(legal) > 4 else "")


def _digit_distance(a: int, b: int) -> int:
    """Edit distance of two square numbers as written (a mistyped digit is 1)."""
    sa, sb = str(a), str(b)
    if sa == sb:
        return 0
    if len(sa) == len(sb):
        diff = sum(x != y for x, y in zip(sa, sb, strict=True))
        if diff == 2 and sa == sb[::-1]:
            return 1  # swapped digits
        return diff
    short, long_ = (sa, sb) if len(sa) < len(sb) else (sb, sa)
    if len(long_) - len(short) == 1 and any(
        long_[:i] + long_[i + 1 :] == short for i in range(len(long_))
    ):
        return 1
    return max(len(sa), len(sb))


def closeness(squares: tuple[int, ...], move: Move) -> tuple[int, str]:
    """Rank of *move* as a repair of the written *squares* (lower is closer) and a
    short description of the difference."""
    first, last = squares[0], squares[-1]
    if move.from_sq == last and move.to_sq == first:
        return 1, "from and to swapped"
    written = set(squares)
    if len(squares) > 2 and move.from_sq in written and move.to_sq in written:
        return 1, "the written squares in another order"
    df = _digit_distance(first, move.from_sq)
    dt = _digit_distance(last, move.to_sq)
    if df + dt == 0:
        return 0, "another path with the same ends"
    if df + dt == 1:
        which = "from" if df else "to"
        return 1, f"one mistyped digit in the {which}-square"
    if df == 0 or dt == 0:
        return 2, "same " + ("from" if df == 0 else "to") + "-square"
    return 3 + min(df + dt, 4), "another move"
