"""The game tree's small records cross process boundaries (``--jobs`` workers send
merged tags and findings back): each pickles by its constructor's arguments, in the
pure build and in the compiled one, where a native class would otherwise be rebuilt
by calling it without any."""

from __future__ import annotations

import pickle

from pdn_tools.collection.events.index import SelfPaired
from pdn_tools.diagnostics import CATALOGUE, EventFinding, GameRef, Issue
from pdn_tools.pdn.model import Span, Tag, Terminator
from pdn_tools.pdn.reader import read_string
from pdn_tools.pdn.source import Piece

TEXT = '[Event "Open"]\n[Result "2-0"]\n\n1. 32-28 18-23 {a comment} 2-0\n'


def test_a_read_games_records_survive_pickling() -> None:
    (game,) = read_string(TEXT)
    records: list[object] = [*game.tags, game.terminator, game.span]
    assert all(r is not None for r in records)
    for record in records:
        back = pickle.loads(pickle.dumps(record))
        assert type(back) is type(record) and back == record and repr(back) == repr(record)


def test_every_field_is_kept() -> None:
    for record in (
        Tag("Event", 'a "b"', 7, 3),
        Terminator("1/2-1/2", 9, 12),
        Span(4, 2, 11),
        Piece("1. 32-28", 5, 40, False),
    ):
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(record, protocol))
            assert back == record and repr(back) == repr(record)


def test_findings_and_event_records_survive_pickling() -> None:
    """What workers send back beside the games: findings with their catalogue entry,
    event findings with the games they name, and the index's self-paired games (frozen
    classes, which the compiled build cannot restore field by field)."""
    ref = GameRef(3, "round 1.pdn", 12, 240)
    records: list[object] = [
        CATALOGUE["E05"],
        ref,
        SelfPaired(ref, "Smit, J.", "Smit, J."),
        EventFinding("W50", "round 2 missing", "Open", "Here", 2024, "2", (ref, ref)),
        Issue("E05", "no white piece on 39", 5, 34, ply=5, move="39-33", repair={"a": 1}),
    ]
    for record in records:
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(record, protocol))
            assert type(back) is type(record) and back == record and repr(back) == repr(record)
