"""The text of the Hub protocol, the line protocol of draughts engines (Scan's).

Every line is a command followed by ``name=value`` arguments; a value holding a space,
an ``=`` or a quote, or an empty one, is written in double quotes; an argument without
``=`` is a flag (its value is the empty string).  Unknown commands and arguments are
ignored by both sides, which is how the protocol grows.

Positions travel as one character for the side to move (``W`` or ``B``) and one per
square in PDN order: ``w``/``b`` a man, ``W``/``B`` a king, ``e`` empty — 51
characters on the international board (any board here: one per playing square).
Moves travel as ``32-28`` when quiet and as ``from x to x captured x …`` when they
capture (``28x19x23``: every captured square, no intermediate landing), which names a
move unambiguously even where two captures share their ends.
"""

from __future__ import annotations

import re

from pdn_tools.rules.generators import legal_moves
from pdn_tools.rules.move import Move
from pdn_tools.rules.position import Position
from pdn_tools.rules.variant import Color, Variant

_TOKEN = re.compile(r'\s*([^\s=]+)(?:=("(?:[^"\\]|\\.)*"|[^\s"]*))?')
_PIECES = {"w": (True, False), "b": (False, False), "W": (True, True), "B": (False, True)}


class HubError(ValueError):
    """A protocol line, position or move that cannot be understood."""


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """The command of a protocol line and its arguments (flags map to ``""``)."""
    text = line.strip()
    if not text:
        return "", {}
    head, _, rest = text.partition(" ")
    args: dict[str, str] = {}
    position = 0
    rest = rest.strip()
    while position < len(rest):
        match = _TOKEN.match(rest, position)
        if match is None or match.end() == position:
            break
        name, value = match.group(1), match.group(2)
        if value is None:
            value = ""
        elif value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        args[name] = value
        position = match.end()
    return head, args


def quoted(value: str) -> str:
    """*value* as an argument value: quoted when it must be."""
    if value and not re.search(r'[\s="\\]', value):
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def format_line(command: str, *flags: str, **args: str | int | float) -> str:
    """A protocol line: the command, flags, then ``name=value`` arguments in order
    (an underscore in a Python name is written as a hyphen: ``move_time`` →
    ``move-time``)."""
    parts = [command, *flags]
    for name, value in args.items():
        parts.append(f"{name.replace('_', '-')}={quoted(str(value))}")
    return " ".join(parts)


def position_text(position: Position) -> str:
    """The Hub string of *position* (side to move, then one character per square)."""
    chars = ["W" if position.turn is Color.WHITE else "B"]
    for square in range(1, position.geometry.size + 1):
        piece = position.piece_at(square)
        if piece is None:
            chars.append("e")
        else:
            color, king = piece
            letter = "w" if color is Color.WHITE else "b"
            chars.append(letter.upper() if king else letter)
    return "".join(chars)


def parse_position(text: str, variant: Variant) -> Position:
    """The position of a Hub string for *variant*'s board (HubError when it does not
    fit the board or holds another character)."""
    start = Position.initial(variant)
    size = start.geometry.size
    if len(text) != size + 1 or text[0] not in "WB":
        raise HubError(f"a position of {variant.name} is W or B and {size} squares: {text!r}")
    squares: dict[tuple[bool, bool], list[int]] = {key: [] for key in _PIECES.values()}
    for square, char in enumerate(text[1:], start=1):
        if char == "e":
            continue
        if char not in _PIECES:
            raise HubError(f"unknown square content {char!r} in {text!r}")
        squares[_PIECES[char]].append(square)
    return Position.from_squares(
        variant,
        white_men=squares[(True, False)],
        white_kings=squares[(True, True)],
        black_men=squares[(False, False)],
        black_kings=squares[(False, True)],
        turn=Color.WHITE if text[0] == "W" else Color.BLACK,
    )


def move_text(move: Move) -> str:
    """A move as Hub writes it: ``32-28``, or ``28x19x23`` with every captured square."""
    if not move.captures:
        return f"{move.from_sq}-{move.to_sq}"
    return "x".join(str(s) for s in (move.from_sq, move.to_sq, *sorted(move.captures)))


def parse_move(text: str, position: Position, variant: Variant) -> Move:
    """The legal move of *position* a Hub move names (HubError: none, or several).

    Accepts the protocol's form and the plain one (``28x19`` when only one capture
    goes from 28 to 19).
    """
    parts = re.split(r"[-x:]", text.strip())
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        raise HubError(f"not a move: {text!r}")
    numbers = [int(p) for p in parts]
    frm, to, captured = numbers[0], numbers[1], set(numbers[2:])
    found = [
        m
        for m in legal_moves(position, variant)
        if m.from_sq == frm and m.to_sq == to and (not captured or set(m.captures) == captured)
    ]
    if len(found) != 1:
        why = "no legal move" if not found else "several legal moves"
        raise HubError(f"{text!r} names {why} here")
    return found[0]
