"""Reading an SVG board diagram back: where its squares, pieces, marks and arrows are.

Shared by the tests of the standalone diagrams (``board_svg``) and of the boards the
HTML report draws in the browser, so that both are read the same way.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

SVG = "{http://www.w3.org/2000/svg}"


@dataclass
class Diagram:
    """What a board diagram shows."""

    view_box: tuple[int, ...]
    title: str
    squares: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Top-left corner of every playing square."""
    pieces: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    """Square -> (piece letter, x, y) of every piece."""
    highlights: dict[int, str] = field(default_factory=dict)
    marks: list[tuple[int, str]] = field(default_factory=list)
    """(square, colour) of every capture mark."""
    arrows: list[tuple[str, tuple[int, ...], list[tuple[int, int]]]] = field(default_factory=list)
    """(colour, squares, points) of every arrow."""
    width: str | None = None
    height: str | None = None
    texts: list[str] = field(default_factory=list)


def _classes(node: ET.Element) -> list[str]:
    return (node.get("class") or "").split()


def inherited(root: ET.Element, node: ET.Element, name: str) -> str | None:
    """The presentation attribute *name* of *node*: its own or its nearest group's."""
    parents = {child: parent for parent in root.iter() for child in parent}
    current: ET.Element | None = node
    while current is not None:
        value = current.get(name)
        if value is not None:
            return value
        current = parents.get(current)
    return None


def read_diagram(text: str) -> Diagram:
    """Parse a diagram (an ``<svg>`` element as text)."""
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    title = root.find(f"{SVG}title")
    diagram = Diagram(
        view_box=tuple(int(float(v)) for v in (root.get("viewBox") or "").split()),
        title=title.text or "" if title is not None else "",
        width=root.get("width"),
        height=root.get("height"),
    )
    for node in root.iter():
        tag = node.tag.removeprefix(SVG)
        classes = _classes(node)
        square = int(node.get("data-sq", "0"))
        if tag == "rect" and square and "hl" not in classes:
            diagram.squares[square] = (int(node.get("x", "")), int(node.get("y", "")))
        elif tag == "rect" and "hl" in classes:
            diagram.highlights[square] = classes[1]
        elif tag == "path" and "x" in classes:
            diagram.marks.append((square, classes[1]))
        elif tag == "g" and node.get("data-piece"):
            disc = node.find(f"{SVG}circle")
            assert disc is not None
            diagram.pieces[square] = (
                node.get("data-piece", ""),
                int(disc.get("cx", "")),
                int(disc.get("cy", "")),
            )
        elif tag == "g" and "arrow" in classes:
            points = [
                (int(x), int(y))
                for x, y in (p.split(",") for p in (node.get("data-points") or "").split())
            ]
            path = tuple(int(s) for s in (node.get("data-path") or "").split("-"))
            diagram.arrows.append((classes[1], path, points))
        elif tag == "text" and node.text and inherited(root, node, "fill") != "none":
            diagram.texts.append(node.text)
    return diagram
