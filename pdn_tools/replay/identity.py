"""Game identity: one stable id for one game, however its record is written.

Two records are the same game when they are played under the same variant, from the
same start position, with the same main-line moves.  Tags, comments, variations,
move numbers, capture notation, line layout and the file's encoding make no
difference: the id is a hash of the game's *identity text*, built from what the
replay established (the rule profile, the start position as canonical FEN, every
replayed move in the standard notation).  Moves the replay could not match (after an
illegal move, or in a game that was not replayed) enter as written, in normalised
spelling.

``docs/export.md`` (Game identity) gives the recipe, so that other tools can compute
the same id.  The exporters put it in the ``game_id`` column and key; duplicate
detection and joins across conversions use :func:`game_id`.
"""

from __future__ import annotations

from hashlib import blake2b

from pdn_tools.pdn.model import Game, Node
from pdn_tools.pdn.tags import standard_name
from pdn_tools.replay.options import ReplayResult

IDENTITY_VERSION = 1
"""Version of the identity text; part of the text, so a new recipe gives new ids."""
ID_BYTES = 8
"""Bytes of the BLAKE2b digest: 16 hex digits, 64 bits."""


def _start(game: Game, replay: ReplayResult) -> str:
    if replay.replayed and replay.start_fen is not None:
        return replay.start_fen
    tag = next((t for t in reversed(game.tags) if standard_name(t.name) == "FEN"), None)
    value = " ".join(tag.value.split()) if tag is not None else ""
    return "" if value in ("", "?") else value


def _moves(game: Game, replay: ReplayResult, plies: int | None = None) -> list[str]:
    """The main line: replayed moves in the standard notation, the others as written;
    with *plies*, only its first *plies* moves and placeholders (and the set-ups
    before them).

    The replay's records follow the main line in order, so the line and the records
    are walked side by side (a node is matched to the next record by identity): no
    table of nodes is built.  Nodes merged into a record (a capture written jump by
    jump) come after its node and are left out.
    """
    records = replay.moves if replay.replayed else []
    count_records = len(records)
    index = 0
    merged: list[Node] = []
    out: list[str] = []
    count = 0
    line = game.variations
    while line:
        node = line[0]
        line = node.variations
        if merged and any(other is node for other in merged):
            continue
        if node.kind != "setup":
            if plies is not None and count >= plies:
                break
            count += 1
        if index < count_records and records[index].node is node:
            record = records[index]
            index += 1
            if record.merged:
                merged.extend(record.merged)
            out.append(record.text)
        elif node.kind == "setup":
            out.append("/" + " ".join((node.fen or "").split()) + "/")
        elif node.kind == "placeholder":
            out.append("--")
        else:
            out.append(node.element_text())
    return out


def identity_text(game: Game, replay: ReplayResult | None, plies: int | None = None) -> str | None:
    """The text :func:`game_id` hashes, or None when the game has no identity.

    Three lines: ``pdn-tools game identity 1 <variant>``, the start position (its
    canonical FEN when replayed; else the FEN tag as written, whitespace collapsed,
    empty without one) and the main-line moves separated by single spaces.

    None when the game was not replayed on request (*replay* None: ``--syntax-only``,
    or a replay that failed, E13) or when the reader refused the record (E11), whose
    moves were never read.
    """
    if replay is None or any(issue.code == "E11" for issue in game.issues):
        return None
    variant = replay.variant if replay.replayed and replay.variant else game.variant
    return "\n".join(
        (
            f"pdn-tools game identity {IDENTITY_VERSION} {variant}",
            _start(game, replay),
            " ".join(_moves(game, replay, plies)),
        )
    )


def game_id(game: Game, replay: ReplayResult | None, plies: int | None = None) -> str | None:
    """The game's stable id: 16 hex digits of the BLAKE2b (8-byte) hash of its
    UTF-8 :func:`identity_text`; None when it has no identity.  With *plies*, the id
    of its first *plies* plies (:func:`identity_text`)."""
    text = identity_text(game, replay, plies)
    if text is None:
        return None
    return blake2b(text.encode("utf-8"), digest_size=ID_BYTES).hexdigest()
