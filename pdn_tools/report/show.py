"""The text of ``pdn show``: one game at one ply, for a person looking into a finding.

The board after the ply, the side to move and the FEN; the main line with the ply
marked; and the findings on the plies around it (findings without a ply, such as
header findings, are listed when the start of the game is shown).  With ``--svg`` the
board is also written as an SVG diagram (:func:`show_svg`).
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn_tools.diagnostics import Issue
from pdn_tools.pdn.model import Game, Node
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.positions import PlyPosition
from pdn_tools.report.svg import Arrow, Coordinates, board_svg
from pdn_tools.report.text import issue_lines
from pdn_tools.rules import Color, Position, write_fen
from pdn_tools.rules.board import diagram

_WRAP = 78


@dataclass(frozen=True, slots=True)
class ShowRequest:
    """What to show: the ply asked for, how many plies around it count as near, and
    whether the side to move at the start is the variant's second mover (a set-up with
    it to move: the first move is then numbered ``1...``)."""

    ply: int
    around: int
    second_first: bool = False


def move_list(nodes: list[Node], ply: int, second_first: bool) -> list[str]:
    """The main line as numbered moves, ply *ply* in brackets, wrapped; a move number
    before each move of the variant's first mover (*second_first*: the other side
    makes the first move, numbered ``1...``)."""
    words: list[str] = []
    for n, node in enumerate(nodes, start=1):
        slot = n + (1 if second_first else 0)
        number = (slot + 1) // 2
        text = node.element_text()
        text = f"[{text}]" if n == ply else text
        if slot % 2 == 1:
            text = f"{number}. {text}"
        elif n == 1:
            text = f"{number}... {text}"
        words.append(text)
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > _WRAP:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines or ["(no moves)"]


def nearby(issues: list[Issue], nodes: list[Node], ply: int, around: int) -> list[Issue]:
    """Findings on plies within *around* of *ply*.

    A finding without a ply counts when it lies on the lines of those plies, or
    before the first move when the plies shown include the start.
    """
    window = nodes[max(0, ply - around - 1) : ply + around]
    first = min((node.line for node in window), default=0)
    last = max((node.line for node in window), default=0)
    if ply <= around:
        first = 0
    out = []
    for issue in issues:
        if issue.ply is None:
            if first <= issue.line <= last or (ply <= around and not nodes):
                out.append(issue)
        elif abs(issue.ply - ply) <= around:
            out.append(issue)
    return out


def show_lines(
    game: Game,
    nodes: list[Node],
    at: PlyPosition | None,
    request: ShowRequest,
    why_no_board: str | None = None,
) -> list[str]:
    """Every line of the report for *game* at ``request.ply``."""
    white = game.tag("White") or "?"
    black = game.tag("Black") or "?"
    lines = [
        f"{game.file}: game {game.index} (line {game.span.start_line}), {white} - {black}, "
        f"{game.variant}, result {game.result or '?'}",
        f"ply {request.ply} of {len(nodes)}",
        "",
    ]
    position = at.position if at is not None else None
    if at is not None and at.reached < request.ply:
        lines.append(f"replay stopped before ply {at.reached + 1}: position after ply {at.reached}")
    if position is None:
        lines.append(f"no board: {why_no_board or 'the position is unknown'}")
    else:
        lines.extend(diagram(position))
        side = "White" if position.turn is Color.WHITE else "Black"
        lines.append(f"{side} to move")
        lines.append(f"FEN {write_fen(position)}")
    lines.append("")
    lines.extend(move_list(nodes, request.ply, request.second_first))
    near = nearby(game.issues, nodes, request.ply, request.around)
    lines.append("")
    if near:
        lines.append(f"findings within {request.around} plies:")
        lines.extend(issue_lines(game.file, game.index, near, show_info=True))
    else:
        lines.append(f"no findings within {request.around} plies")
    others = len(game.issues) - len(near)
    if others:
        lines.append(f"({others} more finding(s) elsewhere in this game: pdn validate lists them)")
    return lines


def show_svg(
    game: Game,
    position: Position,
    reached: int,
    replay: ReplayResult | None,
    *,
    coordinates: Coordinates = "numbers",
    flipped: bool = False,
) -> str:
    """The board after ply *reached* of *game* as an SVG diagram, with the move of that
    ply (when replayed) drawn in blue; its ``<title>`` is the FEN."""
    arrows: list[Arrow] = []
    highlights: dict[int, str] = {}
    move = ""
    if replay is not None and reached > 0:
        for done in replay.moves:
            if done.ply == reached:
                arrows.append(Arrow.of_move(done.move, "blue"))
                highlights = {done.move.from_sq: "blue", done.move.to_sq: "blue"}
                move = f", after {done.text}"
                break
    return board_svg(
        position,
        arrows=arrows,
        highlights=highlights,
        coordinates=coordinates,
        flipped=flipped,
        description=f"{game.file}: game {game.index}, the position after ply {reached}{move}",
    )
