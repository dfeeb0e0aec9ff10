"""The board diagrams render alike outside the browser: librsvg (``rsvg-convert``, as
in GNOME, Inkscape's import and many document tools), Chromium and ImageMagick.

Each board of :data:`BOARDS` (every kind of board the engine knows, turned round,
with algebraic margins, with arrows, capture marks, highlights and kings) is written
by ``board_svg`` and rendered by each program at its default size.  The Chromium and
librsvg pictures are compared after reducing both to a quarter of their width and
height (each pixel the mean of a 4x4 block, which evens out how each program
smooths edges and draws its fonts): no pixel may differ by more than
:data:`MAX_DIFFERENCE` levels (of 255) in any channel, and the mean difference must
stay under :data:`MEAN_DIFFERENCE`.  docs/report.md states the same threshold.  The
ImageMagick picture must show the board: its colours at the centre of every square.

Each program missing is a skip with its reason (Debian packages: ``librsvg2-bin``,
``imagemagick``, ``chromium``).
"""

from __future__ import annotations

import io
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from browser import Browser
from PIL import Image, ImageChops
from svg_helpers import read_diagram

from pdn_tools import Board
from pdn_tools.report.svg import (
    BLACK_PIECE,
    DARK,
    LIGHT,
    TURKISH,
    WHITE_PIECE,
    Arrow,
    Coordinates,
    board_svg,
    layout_for,
)

MAX_DIFFERENCE = 64
MEAN_DIFFERENCE = 3.0


def international() -> tuple[Board, str]:
    board = Board.from_fen("W:W32,K46,39:B27,17,K5")
    return board, board_svg(
        board,
        arrows=[
            Arrow((32, 21, 12), "red", (17, 27)),
            Arrow((39, 43), "red"),
            Arrow((43, 39), "green"),
        ],
        highlights={32: "red", 12: "green"},
    )


def simple(
    variant: str, coordinates: Coordinates = "numbers", flipped: bool = False
) -> Callable[[], tuple[Board, str]]:
    def make() -> tuple[Board, str]:
        board = Board(variant=variant)
        return board, board_svg(board, coordinates=coordinates, flipped=flipped)

    return make


BOARDS: dict[str, Callable[[], tuple[Board, str]]] = {
    "10x10": international,
    "8x8": simple("english"),
    "italian-turned": simple("italian"),
    "turkish-orthogonal": simple("turkish"),
    "flipped": simple("russian", flipped=True),
    "algebraic": simple("russian", "algebraic"),
}


def need(program: str, package: str) -> str:
    found = shutil.which(program)
    if found is None:
        pytest.skip(f"{program} not installed (Debian: apt-get install {package})")
    return found


def on_white(png: bytes | Path) -> Image.Image:
    """The picture over a white page (as a browser shows it)."""
    image = Image.open(io.BytesIO(png) if isinstance(png, bytes) else png).convert("RGBA")
    page = Image.new("RGBA", image.size, "white")
    page.alpha_composite(image)
    return page.convert("RGB")


def written(tmp_path: Path, name: str) -> tuple[Board, str, Path]:
    board, svg = BOARDS[name]()
    target = tmp_path / f"{name}.svg"
    target.write_text(svg, encoding="utf-8")
    return board, svg, target


def rsvg(source: Path) -> Image.Image:
    program = need("rsvg-convert", "librsvg2-bin")
    target = source.with_suffix(".rsvg.png")
    subprocess.run([program, str(source), "-o", str(target)], check=True, timeout=60)
    return on_white(target)


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def near(found: tuple[int, ...], wanted: tuple[int, int, int], slack: int = 10) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(found[:3], wanted, strict=True))


@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.xdist_group("chromium")  # one browser at a time, in one test worker
def test_chromium_and_librsvg_draw_the_same_board(
    browser: Browser, tmp_path: Path, name: str
) -> None:
    _, _, source = written(tmp_path, name)
    drawn = rsvg(source)
    browser.open(source)
    shown = on_white(browser.screenshot()).crop((0, 0, *drawn.size))
    assert drawn.size[0] >= 384  # the default size reads well
    width, height = drawn.size
    small = (width // 4, height // 4)
    difference = ImageChops.difference(
        drawn.resize(small, Image.Resampling.BOX), shown.resize(small, Image.Resampling.BOX)
    )
    values = [max(p) for p in difference.get_flattened_data()]  # type: ignore[arg-type]
    channels = [c for p in difference.get_flattened_data() for c in p]  # type: ignore[union-attr]
    assert max(values) <= MAX_DIFFERENCE, name
    assert sum(channels) / len(channels) <= MEAN_DIFFERENCE, name
    assert browser.console_problems() == []


@pytest.mark.parametrize("name", list(BOARDS))
def test_imagemagick_draws_the_squares_and_pieces(tmp_path: Path, name: str) -> None:
    program = need("convert", "imagemagick")
    board, svg, source = written(tmp_path, name)
    diagram = read_diagram(svg)
    marked = set(diagram.highlights) | {s for s, _ in diagram.marks}
    marked |= {s for _, path, _ in diagram.arrows for s in path}
    target = tmp_path / f"{name}.im.png"
    subprocess.run([program, str(source), str(target)], check=True, timeout=60)
    image = on_white(target)
    spec = board.position.geometry.spec
    layout = layout_for(spec, "algebraic" if name == "algebraic" else "numbers", name == "flipped")
    scale = image.size[0] / layout.width
    playing = rgb(TURKISH if spec.all_squares else DARK)
    for square in range(1, board.position.geometry.size + 1):
        x, y = layout.centre(square)
        found = image.getpixel((round(x * scale), round(y * scale)))
        assert isinstance(found, tuple)
        piece = board.piece_at(square)
        if square in marked:
            continue  # under a highlight or an arrow
        if piece is None:
            assert near(found, playing), (name, square, found)
        elif piece[1]:
            continue  # a king: its crown is at the centre
        else:
            assert near(found, rgb(WHITE_PIECE if piece[0].value == "W" else BLACK_PIECE))
    if not spec.all_squares:  # a light square: left of square 1 on a standard board
        x, y = layout.corner(1)
        corner = (x - 25, y + 25) if x >= layout.left + 50 else (x + 75, y + 25)
        found = image.getpixel((round(corner[0] * scale), round(corner[1] * scale)))
        assert isinstance(found, tuple) and near(found, rgb(LIGHT)), (name, found)
