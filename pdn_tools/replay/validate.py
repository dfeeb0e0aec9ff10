"""Games read and replayed in one go: the library's ``validate`` and the board at a node.

:func:`check_game` is the one way a game is replayed for a verdict — by ``pdn
validate`` (through :mod:`pdn_tools.run.check`) and by :func:`validate` alike — so the
command line and the library report the same findings in the same order.
:func:`validate` keeps what the replay established on each game (:class:`GameReplay`),
which is what ``node.board()``, ``game.draws`` and the canonical writers read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pdn_tools.diagnostics import Issue, escalate
from pdn_tools.pdn.model import EXTENSIONS, Game, Node, ReadOptions
from pdn_tools.pdn.reader import Source, read_games, read_string
from pdn_tools.replay.options import Mend, ReplayOptions, ReplayResult
from pdn_tools.replay.replay import replay_game
from pdn_tools.replay.resolve import Resolution, resolve
from pdn_tools.rules import Board, FenError, Move, Position, parse_fen, variant_by_name


class GameReplay:
    """What replaying one game established, kept on it as ``game.replay_state``.

    ``result`` is the replay's :class:`ReplayResult` (None when the replay itself
    failed, E13); the resolution of every written move (variations too) is computed
    on first use, so a caller that only reads the findings does not pay for it.
    """

    result: ReplayResult | None
    default_variant: str | None
    """The variant assumed for a game of unknown variant (``ReplayOptions.variant``)."""
    _resolution: Resolution | None

    __slots__ = ("_resolution", "default_variant", "result")

    def __init__(
        self,
        result: ReplayResult | None,
        default_variant: str | None = None,
        _resolution: Resolution | None = None,
    ) -> None:
        self.result = result
        self.default_variant = default_variant
        self._resolution = _resolution

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameReplay) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.result, self.default_variant, self._resolution) == (
            other.result,
            other.default_variant,
            other._resolution,
        )

    def __repr__(self) -> str:
        return f"GameReplay(result={self.result!r}, default_variant={self.default_variant!r})"

    def __reduce__(self) -> tuple[type[GameReplay], tuple[Any, ...]]:
        # By value, through __init__ (a compiled class has no default pickling).
        return (GameReplay, (self.result, self.default_variant, self._resolution))

    def resolution(self, game: Game) -> Resolution:
        """The engine move and position behind each node of *game* (cached)."""
        if self._resolution is None:
            self._resolution = resolve(game, self.result, self.default_variant)
        return self._resolution

    def held_nodes(self) -> list[Node]:
        """Every reference to a node of the game this state holds, once per
        reference (a game the reader made counts them before it frees its tree:
        :mod:`pdn_tools.pdn.ownership`)."""
        held: list[Node] = []
        result = self.result
        if result is not None:
            for record in result.moves:
                held.append(record.node)
                held.extend(record.merged)
            for repair in result.repairs.values():
                for edit in repair.edits:
                    mend: Mend | None = edit
                    while mend is not None:
                        held.append(mend.node)
                        mend = mend.second
        if self._resolution is not None:
            held.extend(self._resolution.merged.values())
        return held


def check_game(game: Game, options: ReplayOptions, *, strict: bool = False) -> ReplayResult | None:
    """Replay *game* for a verdict; findings go to ``game.issues``.

    With *strict*, the replay's deviations become errors, like the reader's.  A
    failure of the replay itself costs this game (E13), never the run: the result is
    then None.
    """
    known = len(game.issues)
    result = None
    try:
        result = replay_game(game, options)
    except Exception as exc:  # a bug must cost one game, never the run
        game.add_issue(
            Issue(
                "E13",
                f"internal error while replaying: {exc!r}",
                game.span.start_line,
                game.span.start_column,
            )
        )
    if strict:
        escalate(game.issues[known:])
    return result


def _options(
    variant: str | int | None,
    strict: bool,
    encoding: str | None,
    rule_options: dict[str, Any],
    dialect: str | None = None,
) -> tuple[ReadOptions, ReplayOptions]:
    # The variant by its name: a GameType number is a name too (variant_by_name), and
    # the options hold the name, in both builds (the compiled ReplayOptions takes text).
    if variant is not None:
        variant = variant_by_name(variant).name
    replay_options = ReplayOptions(variant=variant, **rule_options)
    read = ReadOptions(strict=strict, variant=variant, encoding=encoding, dialect=dialect)
    return read, replay_options


def validate(
    source: Source,
    *,
    variant: str | int | None = None,
    strict: bool = False,
    encoding: str | None = None,
    name: str | None = None,
    dialect: str | None = None,
    **rule_options: Any,
) -> Iterator[Game]:
    """Read the games of *source* and replay each one, streaming, as ``pdn validate``.

    *source* is a path or a binary or text handle (as for
    :func:`~pdn_tools.pdn.reader.read_games`).  *variant* names the rules for games
    without a GameType tag, by name, alias or GameType number (and a site profile
    for those that say 20); *strict* makes every deviation from PDN 3.0 an error;
    *rule_options* are fields of :class:`~pdn_tools.replay.options.ReplayOptions`
    (``draws=False``,
    ``ip04_repetition_includes_side_to_move=False``, …); *dialect* reads every game in
    that producer's dialect (``"none"``: in none; default: recognised per game,
    docs/dialects.md).  Each game's ``issues`` hold
    the reading and replay findings in the order ``pdn validate`` reports them, its
    ``draws`` the draw events; ``node.board()`` gives the position after any node.

    The options are checked when it is called, before any game is read: an unknown
    *variant* raises :class:`~pdn_tools.rules.UnknownVariantError` (a ``KeyError`` and
    a ``ValueError``), an unknown rule option ``TypeError``.
    """
    read_options, replay_options = _options(variant, strict, encoding, rule_options, dialect)
    return _validated(read_games(source, read_options, name=name), replay_options, strict)


def _validated(games: Iterator[Game], options: ReplayOptions, strict: bool) -> Iterator[Game]:
    """Each game of *games* replayed, as it is read."""
    for game in games:
        yield _replayed(game, options, strict)


def validate_string(
    text: str,
    *,
    variant: str | int | None = None,
    strict: bool = False,
    name: str = "<string>",
    dialect: str | None = None,
    **rule_options: Any,
) -> list[Game]:
    """All games of a PDN string, read and replayed (see :func:`validate`)."""
    read_options, replay_options = _options(variant, strict, None, rule_options, dialect)
    return [_replayed(g, replay_options, strict) for g in read_string(text, read_options, name)]


def _replayed(game: Game, options: ReplayOptions, strict: bool) -> Game:
    result = check_game(game, options, strict=strict)
    game.replay_state = GameReplay(result, options.variant)
    return game


def board_after(node: Node) -> Board:
    """The board after *node* (the start position for the game itself).

    Raises ``ValueError`` saying why when the game was not replayed or the position
    after *node* is unknown (an illegal move, or one after it).
    """
    game = node.game()
    state = game.replay_state
    if not isinstance(state, GameReplay):
        raise ValueError("the game was not replayed: read it with pdn_tools.validate()")
    resolution = state.resolution(game)
    variant, start = resolution.variant, resolution.start
    if variant is None or start is None:
        why = state.result.skipped if state.result is not None else None
        raise ValueError(f"the game was not replayed ({why or 'internal error'})")
    chain: list[Node] = []
    walk: Node | None = node
    while walk is not None and walk is not game:
        chain.append(walk)
        walk = walk.parent
    position: Position = start
    stack: list[tuple[Move, Position]] = []
    for step in reversed(chain):
        resolved = resolution.get(step)
        if step.kind == "setup":
            try:
                position = parse_fen(step.fen or "", variant).position
            except FenError as exc:
                raise ValueError(f"the set-up at {step.line}:{step.column}: {exc}") from None
            stack.clear()
        elif resolved is not None:
            stack.append((resolved.move, position))
            position = resolved.after
        elif id(step) not in resolution.merged:
            raise ValueError(
                f"no position after {step.element_text() or step.kind!r} at "
                f"{step.line}:{step.column}: replay stopped at or before it"
            )
    board = Board(variant, position)
    board.move_stack = stack
    return board


__all__ = ["GameReplay", "board_after", "check_game", "validate", "validate_string"]


def variant_name(name: str) -> str:
    """The name of the variant *name* gives (a name, alias or GameType number);
    :class:`~pdn_tools.rules.UnknownVariantError` when there is none."""
    return variant_by_name(name).name


def merged_moves(game: Game) -> int:
    """How many written main-line moves the replay of *game* merged into the move
    before them (the later jumps of captures written jump by jump, W24): what
    :attr:`Game.plies` subtracts from the ply slots."""
    state = game.replay_state
    if not isinstance(state, GameReplay) or state.result is None:
        return 0
    return state.result.merged


# node.board(), Game.plies and ReadOptions reach this module through the tree's registry (the tree
# cannot import it).
EXTENSIONS.board = board_after
EXTENSIONS.variant_name = variant_name
EXTENSIONS.merged = merged_moves
