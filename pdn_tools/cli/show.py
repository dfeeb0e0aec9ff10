"""``pdn show``: one game at one ply, as a board with its moves and findings."""

from __future__ import annotations

import sys

import click

from pdn_tools.atomic import OutputError, Outputs, printable, shown
from pdn_tools.cli.options import Common, configured, reading_options
from pdn_tools.cli.run import fail, os_message
from pdn_tools.pdn.archives import ArchiveError, path_of_name, split_member
from pdn_tools.pdn.model import Game
from pdn_tools.pdn.reader import read_games
from pdn_tools.replay.positions import PlyPosition, main_line, position_at, start_position
from pdn_tools.report.detail import coordinates_of
from pdn_tools.report.raster import MAX_GIF_FRAMES, MissingExtra, board_png, game_gif
from pdn_tools.report.show import ShowRequest, show_lines, show_svg
from pdn_tools.report.svg import COORDINATES, Coordinates
from pdn_tools.rules import Variant, variant_by_name
from pdn_tools.run.check import CheckOptions, replay_checked
from pdn_tools.run.collisions import OutputCollision, check_kinds, check_outputs
from pdn_tools.run.paths import InputError, check


@click.command(short_help="Show one game at one ply: board, moves and findings.")
@click.argument("path", metavar="PATH")
@click.option(
    "--game",
    "game_no",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="N",
    help="Which game of the file (1-based, as in reports).",
)
@click.option(
    "--ply",
    type=click.IntRange(min=0),
    default=None,
    metavar="P",
    help="Show the position after ply P (0: the start; default: the last ply).",
)
@click.option(
    "--around",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    metavar="K",
    help="List the findings within K plies of P.",
)
@click.option(
    "--svg",
    "svg_path",
    metavar="FILE",
    default=None,
    help="Also write the board as an SVG diagram to FILE ('-': standard output only).",
)
@click.option(
    "--png",
    "png_path",
    metavar="FILE",
    default=None,
    help="Also write the board as a PNG picture to FILE (needs pip install 'pdn-tools[png]').",
)
@click.option(
    "--gif",
    "gif_path",
    metavar="FILE",
    default=None,
    help="Write the game as an animated GIF to FILE: one frame per ply from --from-ply to "
    "--ply (default: the whole game); needs pip install 'pdn-tools[png]'.",
)
@click.option(
    "--from-ply",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="P",
    help="The first ply of the --gif.",
)
@click.option(
    "--frame-ms",
    type=click.IntRange(min=20, max=60000),
    default=1000,
    show_default=True,
    metavar="MS",
    help="How long each --gif frame shows, in milliseconds.",
)
@click.option("--flip", is_flag=True, help="In the diagrams, put Black at the bottom.")
@click.option(
    "--coordinates",
    type=click.Choice(COORDINATES),
    default=None,
    help="Square names in the diagrams (default: as the game writes its moves).",
)
@reading_options
@configured
def show(
    path: str,
    game_no: int,
    ply: int | None,
    around: int,
    svg_path: str | None,
    png_path: str | None,
    gif_path: str | None,
    from_ply: int,
    frame_ms: int,
    flip: bool,
    coordinates: Coordinates | None,
    common: Common,
) -> None:
    """Show game N of PATH (a file or - for stdin) at ply P as a text board.

    Prints the board after the ply (with square numbers), the side to move and
    the FEN, the main line with the ply in brackets, and the findings of pdn
    validate near it; --svg FILE also writes the board, with the move of the
    ply, as an SVG diagram, --png FILE as a picture; --gif FILE writes plies
    --from-ply to P as an animated picture.  A member of a zip archive is named as reports name
    it (games.zip:round1.pdn).  Exit status 0, or 2 when the file, game or ply
    does not exist.
    """
    options = common.check
    variant = common.read.variant
    name = (common.stdin_filename or "<stdin>") if path == "-" else printable(path)
    try:
        source = path_of_name(path)
        named = [("--svg", svg_path), ("--png", png_path), ("--gif", gif_path)]
        check_outputs((path,), [source], [(option, out) for option, out in named if out])
        check_kinds(
            [
                ("--svg", svg_path, "an SVG picture", (".svg",)),
                ("--png", png_path, "a PNG picture", (".png",)),
                ("--gif", gif_path, "a GIF picture", (".gif",)),
            ]
        )
    except (ArchiveError, OutputCollision) as exc:
        fail("show", str(exc))
    game = _find_game(source, name, game_no, options)
    replay = replay_checked(game, options)
    nodes = main_line(game)
    wanted = len(nodes) if ply is None else ply
    if wanted > len(nodes):
        fail("show", f"game {game_no} of {name} has {len(nodes)} plies, not {wanted}")
    at: PlyPosition | None = None
    why = _not_read(game)  # a game not read has no variant to speak of
    found = _rules(game, variant) if why is None else None
    rules = found if isinstance(found, Variant) else None
    second_first = False
    if isinstance(found, str):
        why = found
    if rules is not None:
        start = start_position(game, rules)
        # Moves are numbered from the variant's first mover (Black in English and
        # pool draughts), as the writers and the HTML report number them.
        second_first = start is not None and start.turn is not rules.first_mover
        if replay is None or not replay.replayed:
            why = replay.skipped if replay is not None else "not replayed"
            at = PlyPosition(start, 0) if wanted == 0 else None
        else:
            at = position_at(game, rules, replay, wanted)
    chosen: Coordinates = coordinates or coordinates_of(nodes)
    drawings = {name: path for name, path in (("svg", svg_path), ("png", png_path)) if path}
    if drawings or gif_path is not None:
        if at is None or at.position is None or rules is None:
            fail("show", f"no board to draw: {why or 'the position is unknown'}")
        svg = show_svg(game, at.position, at.reached, replay, coordinates=chosen, flipped=flip)
        pictures: dict[str, str | bytes] = {}
        try:
            if "svg" in drawings:
                pictures[drawings["svg"]] = svg
            if "png" in drawings:
                pictures[drawings["png"]] = board_png(svg)
            if gif_path is not None:
                if from_ply > wanted:
                    fail("show", f"--from-ply {from_ply} comes after ply {wanted}")
                if wanted - from_ply + 1 > MAX_GIF_FRAMES:
                    fail(
                        "show",
                        f"a GIF of plies {from_ply} to {wanted} would hold "
                        f"{wanted - from_ply + 1:,} frames, more than {MAX_GIF_FRAMES}: "
                        "choose a part of the game with --from-ply and --ply",
                    )
                frames = []
                for step in range(from_ply, wanted + 1):
                    seen = position_at(game, rules, replay, step) if replay else None
                    if seen is None or seen.position is None or seen.reached < step:
                        break
                    frames.append(
                        show_svg(
                            game, seen.position, step, replay, coordinates=chosen, flipped=flip
                        )
                    )
                if not frames:
                    fail("show", "no board to draw: the game was not replayed that far")
                pictures[gif_path] = game_gif(frames, frame_ms)
        except MissingExtra as exc:
            fail("show", str(exc))
        _write(pictures)
        if "-" in pictures:
            return
    request = ShowRequest(wanted, around, second_first)
    for line in show_lines(game, nodes, at, request, why):
        click.echo(shown(line))


def _rules(game: Game, variant: str | None) -> Variant | str:
    """The rules *game* is shown by (its variant's, or --variant *variant*'s for a game
    of unknown variant), or why there are none."""
    try:
        return variant_by_name(variant if game.variant == "unknown" and variant else game.variant)
    except KeyError:
        if game.variant == "unknown":
            written = game.tag("GameType")
            said = (
                "no GameType tag, and the game does not tell it"
                if written is None
                else f"GameType {written!r} names none"
            )
            return f"the variant is unknown ({said}); --variant NAME gives it"
        return f"no rule profile for variant {game.variant!r}"


def _not_read(game: Game) -> str | None:
    """Why *game* has no board because nothing of it was read (E11: larger than the
    size limit, or variations nested deeper than the depth limit; the finding names
    the option that raises it), or None.  Such a game holds no tags and no moves, so
    its variant is no reason to give: another --variant would not read it."""
    if game.tags or game.variations:
        return None
    for issue in game.issues:
        if issue.code == "E11":
            return f"the game was not read (E11: {issue.message})"
    return None


def _write(pictures: dict[str, str | bytes]) -> None:
    """Write each picture to its file ('-': standard output), all or none."""
    if len(pictures) > 1 and "-" in pictures:
        fail("show", "only one picture can go to standard output ('-')")
    try:
        with Outputs() as outputs:
            for path, picture in pictures.items():
                if isinstance(picture, str):
                    outputs.text(path).write(picture)
                else:
                    outputs.binary(path).write(picture)
    except OSError as exc:
        name = exc.name if isinstance(exc, OutputError) else exc.filename or ", ".join(pictures)
        fail("show", f"cannot write {name}: {exc.strerror or exc}")


def _find_game(path: str, name: str, number: int, options: CheckOptions) -> Game:
    """Game *number* of *path*, or exit status 2 saying why not."""
    try:
        if split_member(path) is None:
            check((path,))
        source = sys.stdin.buffer if path == "-" else path
        count = 0
        for game in read_games(source, options.read, name=name):
            count = game.index
            if game.index == number:
                return game
    except InputError as exc:
        fail("show", str(exc))
    except IsADirectoryError:
        fail("show", f"{name}: is a directory; show reads one file")
    except OSError as exc:
        fail("show", os_message(exc))
    fail("show", f"{name} holds {count} game(s); there is no game {number}")
