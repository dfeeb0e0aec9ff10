"""Round-trip properties: PDN → JSON → PDN and PDN → canonical PDN keep the game tree
and the validation results; Parquet read back gives the same games and moves."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pyarrow.parquet as pq
from conftest import SAMPLES
from export_helpers import converted, issue_facts, legal_games, replay_facts, semantic_tree
from helpers import signature
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_roundtrip import games

from pdn_tools import Game, read_games, read_string
from pdn_tools.export.canonical import write_canonical
from pdn_tools.export.from_json import game_from_dict, read_json
from pdn_tools.export.jsonfmt import JsonArrayWriter, game_dict
from pdn_tools.export.parquet import Limits, ParquetWriter
from pdn_tools.export.pdn import write_game
from pdn_tools.pdn.results import read_result
from pdn_tools.pdn.tags import ALIASES, ROSTER
from pdn_tools.replay import ReplayOptions, replay_game
from pdn_tools.replay.resolve import resolve
from pdn_tools.rules import variants

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_any_tree_survives_json(tree: Game) -> None:
    """Arbitrary trees (illegal moves, placeholders, set-ups, marks): PDN → JSON →
    PDN reads back as the same tree with the same findings."""
    text = write_game(tree, tag_order="input")
    game, replay, resolution = converted(text)
    data = json.loads(json.dumps(game_dict(game, replay, resolution)))
    back = game_from_dict(data)
    assert signature(back) == signature(game)
    assert issue_facts(back) == issue_facts(game)
    again, _, _ = converted(write_game(back, tag_order="input"))
    assert signature(again) == signature(game)
    assert issue_facts(again) == issue_facts(game)


@SETTINGS
@given(legal_games())
def test_canonical_keeps_tree_and_validation(tree: Game) -> None:
    """Legal games with comments, NAGs, variations, short or full capture paths:
    canonical PDN reads back as the same moves and annotations, replays to the same
    result, and writing it again changes nothing."""
    game, replay, resolution = converted(write_game(tree))
    canonical = write_canonical(game, resolution)
    assert all(len(line) <= 80 for line in canonical.splitlines() if not line.startswith("{"))
    again, replay2, resolution2 = converted(canonical)
    assert semantic_tree(again, resolution2) == semantic_tree(game, resolution, written=True)
    assert replay_facts(again, replay2) == replay_facts(game, replay)
    assert write_canonical(again, resolution2) == canonical


@SETTINGS
@given(games())
# A game without tags whose squares make it English: canonical PDN names the variant.
@example(read_string("1. 9-10 *\n")[0])
def test_canonical_keeps_any_tree(tree: Game) -> None:
    """Arbitrary trees (illegal moves, placeholders, set-ups, every comment kind,
    marks): canonical PDN reads back as one game with the same elements and
    annotations, without a syntax error, and is stable."""
    game, _, resolution = converted(write_game(tree, tag_order="input"))
    canonical = write_canonical(game, resolution)
    again, _, resolution2 = converted(canonical)
    expected = semantic_tree(game, resolution, written=True)
    assert semantic_tree(again, resolution2) == expected, canonical
    syntax = {"E01", "E02", "E03", "E12"}
    assert not [i for i in again.issues if i.code in syntax], canonical
    assert write_canonical(again, resolution2) == canonical


@SETTINGS
@given(legal_games())
def test_json_then_canonical_equals_canonical(tree: Game) -> None:
    """PDN → JSON → PDN gives the PDN written directly, and the same validation."""
    game, replay, resolution = converted(write_game(tree))
    back = game_from_dict(json.loads(json.dumps(game_dict(game, replay, resolution))))
    assert issue_facts(back) == issue_facts(game)
    back.issues = []
    replay2 = replay_game(back)
    resolution2 = resolve(back, replay2)
    assert replay_facts(back, replay2) == replay_facts(game, replay)
    assert write_canonical(back, resolution2) == write_canonical(game, resolution)
    assert write_game(back) == write_game(game)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games(), legal_games(), games())
def test_parquet_gives_back_games_and_moves(a: Game, b: Game, c: Game) -> None:
    """Several games through one Parquet file (row groups of 2): each row's moves are
    the canonical main line, each record the game, and the moves table one row per ply."""
    items = [converted(write_game(t, tag_order="input")) for t in (a, b, c)]
    sink, moves = io.BytesIO(), io.BytesIO()
    writer = ParquetWriter(sink, moves, with_record=True, games_limits=Limits(2, 2, 1 << 30))
    for game, replay, resolution in items:
        writer.write(game, replay, resolution)
    writer.close()
    assert pq.ParquetFile(io.BytesIO(sink.getvalue())).num_row_groups == 2  # streamed
    table = pq.read_table(io.BytesIO(sink.getvalue())).to_pylist()
    plies = pq.read_table(io.BytesIO(moves.getvalue())).to_pylist()
    assert len(table) == 3
    for row, (game, replay, _) in zip(table, items, strict=True):
        back = game_from_dict(json.loads(row["record"]))
        assert signature(back) == signature(game)
        assert issue_facts(back) == issue_facts(game)
        expected = [m.text for m in replay.moves]
        assert row["moves"][: len(expected)] == expected
        assert row["plies"] == (replay.plies if replay.replayed else game.plies)
        rows = [p for p in plies if p["record_id"] == row["record_id"]]
        assert [p["move"] for p in rows] == row["moves"]
        assert [p["ply"] for p in rows if p["from_square"] is not None] == [
            m.ply for m in replay.moves
        ]


def test_json_array_reads_back() -> None:
    text = '[Event "a"]\n1. 32-28 {x} 19-23 *\n\n[Event "b"]\n1. 33-29 (1. 34-30) 2-0\n'
    stream = io.StringIO()
    writer = JsonArrayWriter(stream)
    originals = read_string(text)
    for game in originals:
        writer.write(game_dict(game))
    writer.close()
    assert json.loads(stream.getvalue())[1]["game"] == 2
    back = list(read_json(io.StringIO(stream.getvalue())))
    assert [signature(g) for g in back] == [signature(g) for g in originals]
    # Any JSON array layout is accepted, not just one object per line.
    compact = json.dumps(json.loads(stream.getvalue()))
    assert [signature(g) for g in read_json(io.StringIO(compact))] == [
        signature(g) for g in originals
    ]


_EDIT_BYTES = b'0123456789-x:.*/(){}[]" \nabcdefghKWB$!?%;'


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(p for p in SAMPLES.rglob("*.pdn") if p.stat().st_size)),
    st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 6), st.binary(max_size=4)),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from([None, *(v.name for v in variants())]),
)
# A first line cut down to '000;ti ["Campionato"]' gives a tag without a name, written
# back as '[ "Campionato"]', which once read back as text outside the games.
@example(SAMPLES / "oddities" / "localised-tags.pdn", [(0.0, 3, b"\x00\x00\x00z")], None)
def test_edited_real_records_survive_canonical_and_json(
    sample: Path, edits: list[tuple[float, int, bytes]], variant: str | None
) -> None:
    """Sample records damaged by random edits (bytes replaced, deleted, inserted),
    replayed under any variant: every game read is written as canonical PDN that reads
    back as exactly one game, and going through JSON first gives the same text."""
    data = bytearray(sample.read_bytes())
    for where, delete, insert in edits:
        at = int(where * len(data))
        data[at : at + delete] = bytes(_EDIT_BYTES[b % len(_EDIT_BYTES)] for b in insert)
    options = ReplayOptions(variant=variant) if variant else None
    for game in read_games(io.BytesIO(bytes(data))):
        replay = replay_game(game, options)
        resolution = resolve(game, replay, variant)
        text = write_canonical(game, resolution)
        assert len(read_string(text)) == 1, text
        back = game_from_dict(json.loads(json.dumps(game_dict(game, replay, resolution))))
        again = replay_game(back, options)
        assert write_canonical(back, resolve(back, again, variant)) == text


#: Tokens real files and hostile ones hold, inserted whole (byte edits rarely make
#: them): numbers beyond 32 bits, commands, loose and nameless tags, algebraic moves
#: without a GameType, a set-up, results, bytes that are not UTF-8.
_TOKENS = (
    b"$99999999999",
    b"{[%clk 99999999:00:00]}",
    b"{[%eval #-99999999999]}",
    b'[GameType "99999999999"]\n',
    b'[GameType "25"]\n',
    b'[GameType 5 "40"]\n',
    b'[ "x"]\n',
    b'[Black Elo "2000"]\n',
    b'/FEN "W:W31:B1"/',
    b"1-0",
    b"*",
    b"99999999999. ",
    b"c3-d4 ",
    b"d6:b4 ",
    b"\xed\xa0\x80",
    b"\x00",
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(p for p in SAMPLES.rglob("*.pdn") if p.stat().st_size)),
    st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 6), st.sampled_from(_TOKENS)),
        min_size=1,
        max_size=5,
    ),
)
# A NAG inside the first tag: the tag becomes unread text after the game's NAG, written
# as one comment, which reads back as a comment of the game, written before its NAGs.
@example(SAMPLES / "clean" / "problem-setup.pdn", [(0.024, 1, b"$99999999999")])
# Unread text inside a variation after the first move: as one comment after the
# variation it read back as the move's comment, which is written before variations.
@example(
    SAMPLES / "oddities" / "frisian-without-gametype.pdn",
    [
        (0.9373831493063662, 4, b'/FEN "W:W31:B1"/'),
        (0.18380874638147326, 2, b"\x00"),
        (0.6808042240625032, 6, b'[GameType "25"]\n'),
        (0.3714239739973585, 6, b"{[%eval #-99999999999]}"),
        (0.4405842235918709, 4, b"c3-d4 "),
    ],
)
# A NUL inside a FEN range ('B1-\x0020'): read as a space, it hid the range from the
# variant's reading; written without it, the record read back as English (W64).
@example(
    SAMPLES / "oddities" / "fen-only.pdn",
    [
        (0.8635500519752544, 5, b"\x00"),
        (0.8679209053361194, 6, b'[GameType 5 "40"]\n'),
        (0.11321674363096135, 4, b"*"),
        (0.6485277393035088, 2, b'/FEN "W:W31:B1"/'),
        (0.20787537158685332, 0, b"\x00"),
    ],
)
def test_records_with_odd_tokens_reach_a_canonical_fixed_point(
    sample: Path, edits: list[tuple[float, int, bytes]]
) -> None:
    """Sample records with odd tokens put in: every game read is written as canonical
    PDN that reads back as one game whose canonical text is the same (nothing of the
    reading lost: its variant, its tags, its moves), through JSON too."""
    data = bytearray(sample.read_bytes())
    for where, delete, insert in edits:
        at = int(where * len(data))
        data[at : at + delete] = insert
    for game in read_games(io.BytesIO(bytes(data))):
        replay = replay_game(game)
        text = write_canonical(game, resolve(game, replay))
        back = read_string(text)
        assert len(back) == 1, text
        assert write_canonical(back[0], resolve(back[0], replay_game(back[0]))) == text
        copy = game_from_dict(json.loads(json.dumps(game_dict(game, replay))))
        assert write_canonical(copy, resolve(copy, replay_game(copy))) == text


#: Standard tags and the names the reader reads as them (pdn_tools/pdn/tags.py).
_SPELLINGS = {
    name: [name, *(alias for alias, standard in ALIASES.items() if standard == name)]
    for name in ("Event", "Site", "Round", "White", "Black", "Result", "WhiteTime", "BlackTitle")
}
_MAPPED_RESULTS = [" 2-0", "0 - 2", "1 -1", "0-2t", "\u00bd-\u00bd", "0.5-0.5", "1-0", "0-1"]
_MAPPED_RESULTS += ["1/2-1/2", "2-0", "0-0", "", "-", "?", "*"]
_WORDS = st.text("abcXYZ019 .,'()", min_size=1, max_size=8)


@st.composite
def irregular_header(draw: st.DrawFn) -> list[tuple[str, str, str]]:
    """Tags of an international game as (standard name, name written, value written):
    each name standard, localised, in another case or with an HTML entity, each value
    regular, broken over lines or holding an unescaped quote, the result in any
    spelling the reader maps."""
    chosen = draw(st.lists(st.sampled_from(sorted(_SPELLINGS)), min_size=1, unique=True))
    header = []
    for standard in chosen:
        name = draw(st.sampled_from(_SPELLINGS[standard]))
        name = draw(st.sampled_from([name, name.lower(), name.upper(), name.title()]))
        if draw(st.booleans()):
            at = draw(st.integers(0, len(name) - 1))
            if name[at] != " ":
                name = f"{name[:at]}&#{ord(name[at])};{name[at + 1 :]}"
        if standard == "Result":
            value = draw(st.sampled_from(_MAPPED_RESULTS))
        else:
            joint = draw(st.sampled_from([" ", "\n", '"', " \n  "]))
            value = draw(_WORDS) + joint + draw(_WORDS)
        header.append((standard, name, value))
    return header


@SETTINGS
@given(irregular_header())
def test_canonical_writes_irregular_tags_in_their_normal_form(
    header: list[tuple[str, str, str]],
) -> None:
    """Tags under any name and in any spelling the reader maps: canonical PDN writes
    the standard names and regular values, reads back without W03, W04, W07 or W08,
    with the same meaning for every tag, and writing it again changes nothing."""
    text = "".join(f'[{name} "{value}"]\n' for _, name, value in header)
    game, _, resolution = converted(text + '[GameType "20"]\n\n1. 32-28 *\n')
    canonical = write_canonical(game, resolution)
    again, _, resolution2 = converted(canonical)
    assert not {"W03", "W04", "W07", "W08"} & {i.code for i in again.issues}, canonical
    assert [t.name for t in again.tags] == [
        *(n for n in (*ROSTER, "GameType") if n in {s for s, _, _ in header} | {"GameType"}),
        *(s for s, _, _ in header if s in ("WhiteTime", "BlackTitle")),
    ]
    for standard, _, _ in header:
        before, after = game.tag(standard), again.tag(standard)
        assert before is not None and after is not None
        if standard == "Result":
            assert read_result(after).outcome == read_result(before).outcome
        else:
            assert after == before.replace("\n", " ")
    assert write_canonical(again, resolution2) == canonical
