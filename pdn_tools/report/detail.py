"""What the HTML report shows of a game beyond its record: tags, moves and boards.

A finding such as ``E07 ply 31: the capture takes 1 piece(s) but the maximum is 3``
is read against a board.  :func:`game_detail` takes a game just replayed and, for each
of its findings about a move, the position the move was played in, the move as
recorded (red) and, for an illegal move, the repair the replay proposed or the legal
moves closest to what was written (green).  When the replay found the move behind
an illegal one mis-recorded earlier (at ply *k* before the failing ply *n*), the
finding's board is the one at ply *k*, with the move written there in red and the
move meant in green.  For each draw event, the position in which
the condition held with the move that reached it (blue).  The header finding that
compares the result with the final position (W32) gets the final position.

Every game, with findings or not, also gets what the report's game viewer needs to
step through it: the start position and, for each ply of the main line, the engine
move it stands for (:func:`engine_token`), and its variations as text.

The detail is plain data (picklable: games are checked in worker processes) and is
made only when a report asks for it (``CheckOptions.detail``), so the other report
formats pay nothing for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pdn_tools.diagnostics import DrawEvent, Issue
from pdn_tools.pdn.model import Game, Node
from pdn_tools.replay import ReplayResult
from pdn_tools.replay.diagnose import closeness
from pdn_tools.replay.options import Repair
from pdn_tools.replay.positions import main_line
from pdn_tools.replay.resolve import Resolution, game_variant, resolve
from pdn_tools.replay.slips import SLIPS
from pdn_tools.report.svg import Arrow, Coordinates
from pdn_tools.rules import (
    BoardSpec,
    Color,
    FenError,
    MatchKind,
    Move,
    Position,
    Variant,
    legal_moves,
    move_text,
    parse_fen,
    parse_move,
    write_fen,
)

TAG_CHARS = 300
"""Longest tag value kept (longer ones are cut, with an ellipsis)."""
VARIATION_CHARS = 400
"""Longest text of one variation kept for the game viewer (cut with an ellipsis)."""
VARIATIONS = 40
"""Most variations of one game kept for the game viewer."""
ALTERNATIVES = 6
"""Most legal moves drawn in green when the replay proposed no repair."""
_PIECE_CHARS = {
    (Color.WHITE, False): "w",
    (Color.WHITE, True): "W",
    (Color.BLACK, False): "b",
    (Color.BLACK, True): "B",
}


@dataclass(frozen=True, slots=True)
class BoardView:
    """One board of the report: a position and what is drawn on it.

    ``pieces`` holds one character per square 1..N (``w`` ``W`` ``b`` ``B`` or
    ``.``); ``caption`` says what the arrows are (``red: 14x25 as recorded; green:
    20x29, the legal move``).
    """

    spec: BoardSpec
    fen: str
    pieces: str
    arrows: tuple[Arrow, ...] = ()
    highlights: tuple[tuple[int, str], ...] = ()
    caption: str = ""

    @classmethod
    def of(
        cls,
        position: Position,
        arrows: Sequence[Arrow] = (),
        highlights: Sequence[tuple[int, str]] = (),
        caption: str = "",
    ) -> BoardView:
        """The view of *position* with *arrows* and *highlights*."""
        chars = []
        for square in range(1, position.geometry.size + 1):
            piece = position.piece_at(square)
            chars.append(_PIECE_CHARS[piece] if piece is not None else ".")
        return cls(
            position.geometry.spec,
            write_fen(position),
            "".join(chars),
            tuple(arrows),
            tuple(highlights),
            caption,
        )


@dataclass(slots=True)
class GameDetail:
    """The tags, the main line and the boards of one game's findings and draws.

    ``issue_boards`` is aligned with the game's findings and ``draw_boards`` with its
    draw events: each entry is an index into ``boards`` (several findings on one move
    share its board) or None when there is nothing to draw.
    """

    tags: list[tuple[str, str]] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    """The main line as written, one entry per ply (moves and placeholders)."""
    number_offset: int = 0
    """1 when the first ply is the second side's (a set-up with the other side to
    move): move numbers then start with ``1...``."""
    coordinates: Coordinates = "numbers"
    """How the game's moves name squares, and so how its boards are labelled."""
    boards: list[BoardView] = field(default_factory=list)
    issue_boards: list[int | None] = field(default_factory=list)
    draw_boards: list[int | None] = field(default_factory=list)
    spec: BoardSpec | None = None
    """The board the game is played on (None when it was not replayed)."""
    start: str = ""
    """The start position as :attr:`BoardView.pieces` (empty when not replayed)."""
    engine: list[str] = field(default_factory=list)
    """For each main-line ply that replayed, its :func:`engine_token`; shorter than
    ``moves`` when the replay stopped."""
    stop: str | None = None
    """Why the replay stopped before the end of the main line, if it did."""
    variations: list[tuple[int, str]] = field(default_factory=list)
    """(ply, text) of each variation: an alternative to main-line ply *ply*."""

    def only(self, kept: Sequence[int]) -> GameDetail:
        """The detail for the findings at indices *kept* (``--select``/``--ignore``)."""
        return replace(self, issue_boards=[self.issue_boards[i] for i in kept])


def game_detail(
    game: Game, replay: ReplayResult | None, default_variant: str | None = None
) -> GameDetail:
    """The detail of *game*, just checked: *replay* is its replay (None when only its
    syntax was checked) and *default_variant* the variant assumed for games of
    unknown variant."""
    nodes = main_line(game)
    detail = GameDetail(
        tags=[(tag.name, _cut(tag.value)) for tag in game.tags],
        moves=[node.element_text() for node in nodes],
        coordinates=coordinates_of(nodes),
        issue_boards=[None] * len(game.issues),
        draw_boards=[None] * (len(replay.draws) if replay is not None else 0),
    )
    detail.variations = variations_of(game)
    variant = game_variant(game, default_variant)
    if replay is None or not replay.replayed or variant is None:
        return detail
    _steps(game, replay, variant, detail)
    wanted = [i for i in game.issues if i.ply is not None or i.code == "W32"]
    if not wanted and not replay.draws:
        return detail
    resolution = resolve(game, replay, default_variant)
    if resolution.start is None:
        return detail
    if resolution.start.turn is not variant.first_mover:
        detail.number_offset = 1
    boards = _Boards(game, nodes, resolution, variant, replay, detail)
    for n, issue in enumerate(game.issues):
        detail.issue_boards[n] = boards.of_issue(issue)
    for n, event in enumerate(replay.draws):
        detail.draw_boards[n] = boards.of_draw(event)
    return detail


def _cut(value: str, most: int = TAG_CHARS) -> str:
    return value if len(value) <= most else value[: most - 1] + "…"


def engine_token(move: Move) -> str:
    """A replayed move as the game viewer applies it: ``32-28`` (from-to), or a
    capture's route and the squares it takes (``28x19/23``, ``47x36x27/41.31``),
    with ``K`` after a man that is crowned."""
    if move.captures:
        route = "x".join(map(str, move.paths[0]))
        text = f"{route}/" + ".".join(map(str, sorted(move.captures)))
    else:
        text = f"{move.from_sq}-{move.to_sq}"
    return text + ("K" if move.promotes else "")


def _steps(game: Game, replay: ReplayResult, variant: Variant, detail: GameDetail) -> None:
    """The start position and one :func:`engine_token` per replayed main-line ply
    (``=`` for a ply merged into the move before it, W24; ``@pieces;`` before the
    token of a ply that follows a set-up)."""
    if replay.start_fen is None:
        return
    try:
        start = parse_fen(replay.start_fen, variant).position
    except FenError:
        return
    detail.spec = start.geometry.spec
    detail.start = BoardView.of(start).pieces
    by_ply = {done.ply: done for done in replay.moves}
    merged = {id(node) for done in replay.moves for node in done.merged}
    setup: str | None = None
    ply = 0
    for node in game.mainline():
        if node.kind == "setup":
            try:
                setup = BoardView.of(parse_fen(node.fen or "", variant).position).pieces
            except FenError:
                break
            continue
        ply += 1
        done = by_ply.get(ply)
        if done is not None and done.node is node:
            token = engine_token(done.move)
        elif id(node) in merged:
            token = "="
        else:
            break
        detail.engine.append(f"@{setup};{token}" if setup is not None else token)
        setup = None
    if len(detail.engine) < len(detail.moves):
        stop = replay.stop
        reason = stop.reason if stop is not None else ""
        detail.stop = f"the replay stopped before ply {len(detail.engine) + 1}" + (
            f": {reason}" if reason else ""
        )


def variations_of(game: Game) -> list[tuple[int, str]]:
    """Each variation of the main line as text, with the ply it is an alternative to
    (at most :data:`VARIATIONS`, each cut at :data:`VARIATION_CHARS`)."""
    out: list[tuple[int, str]] = []
    node: Node = game
    ply = 0
    while node.variations and len(out) < VARIATIONS:
        following = node.variations[0]
        step = 0 if following.kind == "setup" else 1
        for alternative in node.variations[1:]:
            out.append((ply + step, _cut(_line_text(alternative), VARIATION_CHARS)))
        node = following
        ply += step
    return out[:VARIATIONS]


def _line_text(node: Node, depth: int = 0) -> str:
    """The moves of the line that starts at *node*, nested variations in brackets."""
    words: list[str] = []
    current: Node | None = node
    pending: list[Node] = []
    total = 0
    while current is not None and total < VARIATION_CHARS:
        words.append(current.element_text())
        total += len(words[-1]) + 1
        # Alternatives to this node hang on the node before it.
        words.extend(f"({_line_text(other, depth + 1)})" for other in pending)
        pending = current.variations[1:] if depth < 3 else []
        current = current.next()
    return " ".join(word for word in words if word)


def coordinates_of(nodes: list[Node]) -> Coordinates:
    """``algebraic`` when the game writes its squares as letters and digits."""
    for node in nodes:
        if node.move is not None and node.move.squares:
            return "algebraic" if node.move.squares[0][:1].isalpha() else "numbers"
    return "numbers"


class _Boards:
    """Finds the node of each finding and builds (once per node) its board."""

    def __init__(
        self,
        game: Game,
        nodes: list[Node],
        resolution: Resolution,
        variant: Variant,
        replay: ReplayResult,
        detail: GameDetail,
    ) -> None:
        self.game = game
        self.nodes = nodes
        self.resolution = resolution
        self.variant = variant
        self.replay = replay
        self.detail = detail
        self.made: dict[tuple[str, int], int | None] = {}
        self.algebraic = detail.coordinates == "algebraic"
        self._by_place: dict[tuple[int, int], Node] | None = None

    # -- where ---------------------------------------------------------------------
    def node_at(self, line: int, column: int) -> Node | None:
        """The node written at (line, column), anywhere in the tree."""
        if self._by_place is None:
            found: dict[tuple[int, int], Node] = {}
            stack = list(self.game.variations)
            while stack:
                node = stack.pop()
                found.setdefault((node.line, node.column), node)
                stack.extend(node.variations)
            self._by_place = found
        return self._by_place.get((line, column))

    def node_of(self, issue: Issue) -> Node | None:
        """The move node a finding is about."""
        if issue.in_variation:
            return self.node_at(issue.line, issue.column)
        if issue.ply is None or not 1 <= issue.ply <= len(self.nodes):
            return None
        return self.nodes[issue.ply - 1]

    def after(self, node: Node) -> Position | None:
        """The position after *node* (the start position for the game itself)."""
        if node is self.game:
            return self.resolution.start
        if node.kind == "setup":
            try:
                return parse_fen(node.fen or "", self.variant).position
            except FenError:
                return None
        resolved = self.resolution.get(node)
        if resolved is None:
            carrier = self.resolution.merged.get(id(node))
            resolved = self.resolution.get(carrier) if carrier is not None else None
        return resolved.after if resolved is not None else None

    def before(self, node: Node) -> Position | None:
        """The position *node* was played in."""
        parent = node.parent
        return self.after(parent) if parent is not None else None

    def named(self, text: str, position: Position) -> str:
        """Move *text* (square numbers) in the game's own notation: algebraic squares
        (``c3-d4``) when the game writes them so."""
        if not self.algebraic:
            return text
        geo = position.geometry
        height = geo.spec.height

        def name(match: re.Match[str]) -> str:
            square = int(match.group())
            if not geo.on_board(square):
                return match.group()
            row, col = geo.coords[square]
            return f"{chr(ord('a') + col)}{height - row}"

        return re.sub(r"\d+", name, text)

    # -- boards ----------------------------------------------------------------------
    def add(self, key: tuple[str, int], view: BoardView | None) -> int | None:
        """Store *view* under *key* (once) and return its index."""
        if key not in self.made:
            index = None
            if view is not None:
                index = len(self.detail.boards)
                self.detail.boards.append(view)
            self.made[key] = index
        return self.made[key]

    def of_issue(self, issue: Issue) -> int | None:
        """The board of a finding, or None when it has none."""
        repair = self.replay.repairs.get((issue.line, issue.column))
        if repair is not None and repair.edits:
            lead = repair.edits[0]
            if issue.code == "W32" or issue.ply != lead.ply:
                return self.add(("mend", id(lead.node)), self.mend_board(repair, issue))
        if issue.code == "W32":
            return self.add(("final", 0), self.final())
        node = self.node_of(issue)
        if node is None or node.kind == "setup":
            return None
        key = ("before", id(node))
        if key not in self.made:
            self.add(key, self.move_board(node))
        return self.made[key]

    def of_draw(self, event: DrawEvent) -> int | None:
        """The board on which a draw condition held, with the move that reached it."""
        if event.get("in_variation"):
            node = self.node_at(event.get("line", 0), event.get("column", 0))
        else:
            ply = event["ply"]
            node = self.nodes[ply - 1] if 1 <= ply <= len(self.nodes) else None
        if node is None:
            return None
        position = self.after(node)
        if position is None:
            return None
        resolved = self.resolution.get(node)
        if resolved is None:
            return self.add(("after", id(node)), BoardView.of(position))
        arrows = [Arrow.of_move(resolved.move, "blue")]
        caption = f"blue: {self.named(resolved.text, position)}, the move that reached it"
        return self.add(("after", id(node)), BoardView.of(position, arrows, (), caption))

    def final(self) -> BoardView | None:
        """The final position of the main line, when the whole line replayed."""
        if not self.replay.completed or self.replay.final_fen is None:
            return None
        try:
            position = parse_fen(self.replay.final_fen, self.variant).position
        except FenError:
            return None
        return BoardView.of(position, caption="the final position")

    def mend_board(self, repair: Repair, issue: Issue) -> BoardView:
        """The position at ply *k* where the replay found the mis-recorded move behind
        *issue*: the move written there in red, the move meant in green."""
        lead = repair.edits[0]
        position = lead.position
        arrows: list[Arrow] = []
        highlights: list[tuple[int, str]] = []
        resolved = self.resolution.get(lead.node)
        if resolved is not None:
            arrows.append(Arrow.of_move(resolved.move, "red"))
            highlights += [(resolved.move.from_sq, "red"), (resolved.move.to_sq, "red")]
        if lead.move is not None:
            arrows.append(Arrow.of_move(lead.move, "green"))
        label = SLIPS[lead.kind].label
        if lead.written is None:
            caption = f"ply {lead.ply}: green: {lead.text}, missing from the record ({label})"
        elif lead.text is None:
            caption = f"ply {lead.ply}: red: {lead.written}, to be struck out ({label})"
        else:
            caption = (
                f"ply {lead.ply}: red: {lead.written} as recorded; green: {lead.text}, "
                f"probably meant ({label})"
            )
        if lead.second is not None:
            caption += f"; then ply {lead.second.ply}: {lead.second.text} for {lead.second.written}"
        if issue.code == "W32":
            caption += "; with it the final position fits the result"
        elif issue.ply is not None:
            caption += f"; the replay broke at ply {issue.ply}"
        if len(repair.edits) > 1:
            caption += f" (one of {len(repair.edits)} edits that fit equally well)"
        return BoardView.of(position, arrows, highlights, caption)

    def move_board(self, node: Node) -> BoardView | None:
        """The position before *node* with the recorded move in red and, for an
        illegal move, the repair or the closest legal moves in green."""
        position = self.before(node)
        if position is None:
            return None
        resolved = self.resolution.get(node)
        if resolved is not None:
            move = resolved.move
            return BoardView.of(
                position,
                [Arrow.of_move(move, "red")],
                [(move.from_sq, "red"), (move.to_sq, "red")],
                f"red: {self.named(resolved.text, position)} as played",
            )
        if node.kind != "move" or node.move is None or id(node) in self.resolution.merged:
            return BoardView.of(position)
        geo = position.geometry
        named = [geo.square_named(s) for s in node.move.squares]
        written = tuple(s for s in named if s is not None)
        arrows: list[Arrow] = []
        highlights: list[tuple[int, str]] = []
        if written:
            highlights.append((written[0], "red"))
            if written[-1] != written[0]:
                highlights.append((written[-1], "red"))
        if len(written) >= 2 and written[0] != written[-1]:
            arrows.append(Arrow(written, "red"))
        caption = f"red: {node.element_text()} as recorded"
        legal = legal_moves(position, self.variant)
        green, what = self.alternatives(node, legal, written)
        if green:
            arrows.extend(Arrow.of_move(move, "green") for move in green)
            names = ", ".join(
                self.named(move_text(move, legal, self.variant), position) for move in green
            )
            caption += f"; green: {names}, {what}"
        return BoardView.of(position, arrows, highlights, caption)

    def alternatives(
        self, node: Node, legal: list[Move], written: tuple[int, ...]
    ) -> tuple[list[Move], str]:
        """The green moves of an illegal move and what they are."""
        repair = self.replay.repairs.get((node.line, node.column))
        if repair is not None:
            meant = [m.move for m in repair.edits if m.move is not None and m.node is node]
            if meant:
                return meant, "the repair the replay proposes"
        if not legal:
            return [], ""
        if len(written) >= 2:
            capture = node.move.capture if node.move is not None else False
            match = parse_move(written, legal, self.variant, capture=capture)
            if match.kind is MatchKind.AMBIGUOUS and match.candidates:
                return list(match.candidates), "the legal captures it may stand for"
            ranked = sorted(legal, key=lambda m: closeness(written, m)[0])
        else:
            ranked = list(legal)
        shown = ranked[:ALTERNATIVES]
        if len(shown) == len(legal):
            return shown, "the legal move" + ("s" if len(shown) > 1 else "")
        return shown, f"the {len(shown)} legal moves closest to it (of {len(legal)})"
