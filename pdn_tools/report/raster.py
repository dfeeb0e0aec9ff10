"""Board diagrams as pictures: PNG of one board, animated GIF of a game.

For people who paste a diagram into a document or a message, where SVG is not
welcome.  The SVG of :mod:`pdn_tools.report.svg` is drawn by cairosvg (Cairo, the
library behind many desktop programs) and, for a GIF, the frames are put together by
Pillow.  Both come with the optional extra: ``pip install 'pdn-tools[png]'``; without
it, :class:`MissingExtra` says so.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

EXTRA = "pip install 'pdn-tools[png]'"

MAX_GIF_FRAMES = 500
"""The most frames one GIF holds: Pillow keeps every frame until the file is written
(about half a megabyte each, drawn in about 0.1 s), and the number of plies comes
from the file, so a hostile game of a hundred thousand plies would take hours and
gigabytes; a range of plies (``--from-ply``, ``--ply``) draws any part of a longer
game."""


class MissingExtra(RuntimeError):
    """A picture was asked for and the libraries that draw it are not installed."""


def _cairosvg() -> Any:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the Cairo library itself is missing
        message = f"PNG and GIF pictures need cairosvg and Cairo: {EXTRA} ({exc})"
        raise MissingExtra(message) from exc
    return cairosvg


def board_png(svg: str, scale: float = 1.0) -> bytes:
    """The PNG of the SVG diagram *svg* (at its own size times *scale*)."""
    data: bytes = _cairosvg().svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return data


def game_gif(frames: Sequence[str], milliseconds: int = 1000, scale: float = 1.0) -> bytes:
    """An animated GIF showing the SVG diagrams *frames* in turn, each for
    *milliseconds* (the last twice as long), looping."""
    if not frames:
        raise ValueError("a GIF needs at least one frame")
    if len(frames) > MAX_GIF_FRAMES:
        raise ValueError(f"a GIF holds at most {MAX_GIF_FRAMES} frames, not {len(frames)}")
    try:
        from PIL import Image
    except ImportError as exc:
        raise MissingExtra(f"GIF pictures need Pillow: {EXTRA}") from exc
    pictures = [
        Image.open(io.BytesIO(board_png(svg, scale)))
        .convert("RGB")
        .convert("P", palette=Image.Palette.ADAPTIVE, colors=128)
        for svg in frames
    ]
    durations = [milliseconds] * len(pictures)
    durations[-1] = 2 * milliseconds
    out = io.BytesIO()
    pictures[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=pictures[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return out.getvalue()
