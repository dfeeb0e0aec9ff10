"""The record classes written out by hand (once dataclasses) keep a dataclass's
behaviour, in the pure build and in the compiled one alike: equality by their fields
and never with another type, the hash of the frozen ones, the ``Name(field=value,
...)`` repr, fresh mutable defaults, pickling by value, and frozen ones refusing an
assignment or a deletion."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdn_tools.collection.events.event import Guess
from pdn_tools.collection.events.facts import GameFacts
from pdn_tools.collection.events.index import SelfPaired
from pdn_tools.collection.events.results import Choose
from pdn_tools.diagnostics import CATALOGUE, Code, EventFinding, GameRef, Issue, Severity
from pdn_tools.pdn.gametype import GameTypeReading
from pdn_tools.pdn.model import Comment, MoveText
from pdn_tools.pdn.reader import read_string
from pdn_tools.pdn.records import Outcome
from pdn_tools.pdn.split import Chunk
from pdn_tools.pdn.tags import DateParts
from pdn_tools.replay import ReplayOptions, replay_game
from pdn_tools.replay.options import ReplayResult, ReplayStop
from pdn_tools.replay.positions import PlyPosition
from pdn_tools.report.base import Totals
from pdn_tools.report.records import Checked
from pdn_tools.rules import INTERNATIONAL, Position
from pdn_tools.run.spans import SpanStart
from pdn_tools.run.units import Input, WholeFile

REF = GameRef(2, "round 3.pdn", 14, 301)

# (a record, its repr as a dataclass writes it, a field and another value for it)
CASES: list[tuple[object, str, str, object]] = [
    (
        GameRef(2, "a.pdn", 3, 40),
        "GameRef(file_no=2, file='a.pdn', game=3, line=40)",
        "line",
        41,
    ),
    (
        Code("W01", Severity.WARNING, "t", "d"),
        "Code(code='W01', severity=<Severity.WARNING: 'warning'>, title='t', description='d')",
        "title",
        "u",
    ),
    (
        MoveText(("32", "28"), False),
        "MoveText(squares=('32', '28'), capture=False, mark=None)",
        "mark",
        "!?",
    ),
    (
        DateParts(2024, None, 7),
        "DateParts(year=2024, month=None, day=7)",
        "month",
        3,
    ),
    (
        GameTypeReading(20, "international", None),
        "GameTypeReading(number=20, variant='international', irregular=None)",
        "irregular",
        "20,W",
    ),
    (
        Guess("swiss", "few pairs meet twice"),
        "Guess(kind='swiss', reason='few pairs meet twice', cycles=1)",
        "cycles",
        2,
    ),
    (
        SelfPaired(REF, "Smit", "Smit"),
        "SelfPaired(ref=GameRef(file_no=2, file='round 3.pdn', game=14, line=301), "
        "white='Smit', black='Smit')",
        "black",
        "Jansen",
    ),
    (
        Comment("a remark", "brace", 3, 9),
        "Comment(text='a remark', kind='brace', line=3, column=9)",
        "column",
        10,
    ),
    (
        ReplayStop(7, 2, 11, "illegal move", "E05"),
        "ReplayStop(ply=7, line=2, column=11, reason='illegal move', code='E05')",
        "reason",
        "placeholder",
    ),
    (
        Input(1, "games/a.pdn", "a.pdn"),
        "Input(file_no=1, path='games/a.pdn', name='a.pdn')",
        "name",
        "b.pdn",
    ),
    (
        WholeFile(Input(0, "-", "<stdin>"), 12),
        "WholeFile(source=Input(file_no=0, path='-', name='<stdin>'), weight=12)",
        "weight",
        13,
    ),
    (
        Choose(("nk*",), 4),
        "Choose(names=('nk*',), players=4, games=0)",
        "games",
        9,
    ),
    (
        SpanStart(120, 7),
        "SpanStart(start=120, line=7, games_before=0, legacy_main=False, prefix='', "
        "prefix_line=1, prefix_column=0, literal_reported=False, head=b'')",
        "head",
        b"[Ev",
    ),
    (
        Outcome(2, []),
        "Outcome(games=2, issues=[])",
        "games",
        3,
    ),
]

FROZEN = (
    GameRef,
    Code,
    MoveText,
    DateParts,
    GameTypeReading,
    Guess,
    SelfPaired,
    Input,
    WholeFile,
    Choose,
    SpanStart,
)


def _with(record: object, name: str, value: object) -> object:
    """A copy of *record* with one field changed, built through its constructor."""
    cls, args = _reduced(record)
    names = _fields(record)
    changed = list(args)
    changed[names.index(name)] = value
    return cls(*changed)


def _reduced(record: object) -> tuple[Callable[..., object], tuple[object, ...]]:
    """What the record pickles as: its class and its constructor's arguments."""
    reduced = record.__reduce__()
    assert isinstance(reduced, tuple) and len(reduced) == 2
    return reduced[0], tuple(reduced[1])


def _fields(record: object) -> list[str]:
    """The field names in constructor order, read from the repr."""
    text = repr(record)
    inner = text[text.index("(") + 1 : -1]
    names: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(inner):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0 and inner[start:i].isidentifier():
            names.append(inner[start:i])
        elif ch == "," and depth == 0:
            start = i + 2
    return names


@pytest.mark.parametrize("case", CASES, ids=lambda c: type(c[0]).__name__)
def test_repr_equality_and_pickling_are_a_dataclasss(case: tuple[object, str, str, object]) -> None:
    record, text, name, other = case
    assert repr(record) == text
    same = _with(record, name, getattr(record, name))
    changed = _with(record, name, other)
    assert same == record and (same != record) is False
    assert changed != record and getattr(changed, name) == other
    assert record != _reduced(record)[1]
    assert record != object()
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(record, protocol))
        assert type(back) is type(record) and back == record and repr(back) == text
    assert copy.copy(record) == record and copy.deepcopy(record) == record
    if isinstance(record, FROZEN):
        assert hash(same) == hash(record)
        assert len({record, same, changed}) == 2


@pytest.mark.parametrize("record", [c[0] for c in CASES if isinstance(c[0], FROZEN)])
def test_frozen_records_refuse_assignment_and_deletion(record: object) -> None:
    name = _fields(record)[0]
    before = getattr(record, name)
    with pytest.raises(AttributeError):
        setattr(record, name, before)
    with pytest.raises(AttributeError):
        delattr(record, name)
    assert getattr(record, name) == before


def test_frozen_records_built_with_positions_refuse_assignment() -> None:
    position = Position.initial(INTERNATIONAL)
    reached = PlyPosition(position, 0)
    assert reached == PlyPosition(position, 0) and hash(reached) == hash(PlyPosition(position, 0))
    assert repr(reached) == f"PlyPosition(position={position!r}, reached=0)"
    with pytest.raises(AttributeError):
        reached.reached = 1


@pytest.mark.parametrize(
    "make",
    [
        lambda: Chunk(1, 1).issues,
        lambda: Outcome().issues,
        lambda: ReplayResult().moves,
        lambda: ReplayResult().repairs,
        lambda: Totals().counts,
        lambda: Totals().codes,
    ],
)
def test_mutable_defaults_are_fresh(make: Callable[[], Any]) -> None:
    first, second = make(), make()
    assert first == second and first is not second


def test_totals_start_at_zero() -> None:
    totals = Totals()
    assert totals.counts == {"error": 0, "warning": 0, "info": 0}
    assert {k: dict(v) for k, v in totals.codes.items()} == {"error": {}, "warning": {}, "info": {}}
    assert totals.filtered is None and totals.events is None


def test_findings_check_their_code_and_take_its_severity() -> None:
    issue = Issue("E05", "no piece", 3, 4)
    assert issue.severity is CATALOGUE["E05"].severity
    assert Issue("E05", "no piece", 3, 4, severity=Severity.INFO).level is Severity.INFO
    with pytest.raises(ValueError):
        Issue("X99", "no such code", 1, 1)
    finding = EventFinding("W50", "round 2 missing", "Open")
    assert finding.severity is CATALOGUE["W50"].severity and finding.games == ()
    with pytest.raises(ValueError):
        EventFinding("X99", "no such code", None)
    issue.ply = 5  # findings are mutable records
    assert issue.ply == 5 and issue != Issue("E05", "no piece", 3, 4)


def test_a_checked_game_lets_go_of_its_facts() -> None:
    checked = Checked(0, {"line": 1}, [], facts=b"\x01")
    bare = checked.without_facts()
    assert bare.facts is None and checked.facts == b"\x01"
    assert bare.record is checked.record and bare == Checked(0, {"line": 1}, [])


def test_move_text_on_other_squares() -> None:
    move = MoveText(("32", "28"), True, "!?")
    turned = move.with_squares(("1", "5"))
    assert turned == MoveText(("1", "5"), True, "!?") and move.squares == ("32", "28")


_text = st.text(max_size=12)
_maybe_int = st.none() | st.integers(-(2**40), 2**40)


@given(
    code=st.sampled_from(sorted(CATALOGUE)),
    message=_text,
    line=st.integers(1, 10**6),
    column=st.integers(1, 10**4),
    ply=_maybe_int,
    move=st.none() | _text,
    in_variation=st.booleans(),
    context=st.none() | _text,
)
def test_findings_round_trip(
    code: str,
    message: str,
    line: int,
    column: int,
    ply: int | None,
    move: str | None,
    in_variation: bool,
    context: str | None,
) -> None:
    issue = Issue(code, message, line, column, None, ply, move, in_variation, context)
    back = pickle.loads(pickle.dumps(issue))
    assert back == issue and repr(back) == repr(issue)
    assert repr(issue) == (
        f"Issue(code={code!r}, message={message!r}, line={line!r}, column={column!r}, "
        f"severity={issue.severity!r}, ply={ply!r}, move={move!r}, "
        f"in_variation={in_variation!r}, context={context!r}, repair=None)"
    )


@given(
    event=st.none() | _text,
    year=st.integers(0, 3000),
    day=st.integers(0, 10**6),
    variant=_text,
    outcome=st.integers(0, 3),
    game_id=st.integers(0, 2**63),
    complete=st.booleans(),
    moves=st.binary(max_size=20),
)
def test_game_facts_round_trip(
    event: str | None,
    year: int,
    day: int,
    variant: str,
    outcome: int,
    game_id: int,
    complete: bool,
    moves: bytes,
) -> None:
    facts = GameFacts(
        event, None, year, day, "1", "a", "b", variant, outcome, 0, game_id, complete, moves
    )
    back = pickle.loads(pickle.dumps(facts))
    assert back == facts and hash(back) == hash(facts) and repr(back) == repr(facts)
    other = GameFacts(
        event, None, year, day, "1", "a", "b", variant, outcome, 0, game_id, not complete, moves
    )
    assert other != facts


def test_a_game_from_a_set_up_position_replays() -> None:
    """The start position read from the FEN tag outlives the FEN's record (the
    compiled build once freed it: a ``Final`` field returned in a tuple)."""
    text = '[GameType "20"]\n[FEN "W:W31,32:B19,20"]\n1. 32-28 20-25 *\n'
    (game,) = read_string(text)
    result = replay_game(game, ReplayOptions())
    assert result.replayed and result.start_fen == "W:W31,32:B19,20"
    assert result.final_fen == "W:W28,31:B19,25" and result.plies == 2
