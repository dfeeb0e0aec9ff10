"""Bytes to text (encodings, line ends) and text to game chunks (boundaries)."""

from __future__ import annotations

import io

from helpers import codes, mainline_texts
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools import read_games, read_string
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.pdn.reader import FileReport
from pdn_tools.pdn.source import Decoding, read_pieces
from pdn_tools.pdn.split import _SPECIAL, _Specials, split_chunks
from pdn_tools.run.check import CheckOptions, check_slots
from pdn_tools.run.slots import cut_batches


def games_of(data: bytes, **kwargs: object) -> list:  # type: ignore[type-arg]
    return list(read_games(io.BytesIO(data), **kwargs))  # type: ignore[arg-type]


def test_bom_is_removed_with_info() -> None:
    games = games_of('\ufeff[White "Renée"]\n1. 32-28 *'.encode())
    assert games[0].tag("White") == "Renée"
    assert "W31" in codes(games[0])


def test_latin1_is_detected_and_named() -> None:
    games = games_of('[White "Gérard"]\n1. 32-28 *'.encode("latin-1"))
    assert games[0].tag("White") == "Gérard"
    w30 = next(i for i in games[0].issues if i.code == "W30")
    assert "cp1252" in w30.message


def test_cyrillic_codepages_are_told_apart() -> None:
    text = '[Event "Чемпионат СССР"]\n[White "Иванов"]\n[Black "Петров"]\n1. c3-d4 *'
    for encoding in ("cp1251", "cp866"):
        game = games_of(text.encode(encoding))[0]
        assert game.tag("White") == "Иванов", encoding
        assert encoding in next(i.message for i in game.issues if i.code == "W30")


def test_forced_encoding_overrides_detection() -> None:
    from pdn_tools import ReadOptions

    data = '[White "Иванов"]\n1. c3-d4 *'.encode("cp866")
    game = games_of(data, options=ReadOptions(encoding="cp866"))[0]
    assert game.tag("White") == "Иванов"
    assert "W30" not in codes(game)


def test_stray_bytes_in_utf8_keep_the_utf8_text() -> None:
    data = '[White "Renée"]\n[Black "'.encode() + b"G\xe9rard" + b'"]\n1. 32-28 *'
    game = games_of(data)[0]
    assert game.tag("White") == "Renée"
    assert game.tag("Black") == "Gérard"
    assert "W30" in codes(game)


def test_utf16_is_decoded() -> None:
    game = games_of('[Event "x"]\n1. 32-28 *'.encode("utf-16"))[0]
    assert mainline_texts(game) == ["32-28"]
    assert "W30" in codes(game)


def test_nul_bytes_become_spaces() -> None:
    game = games_of(b'[Event "x"]\n1. 32-28\x0018-23 *')[0]
    assert mainline_texts(game) == ["32-28", "18-23"]
    assert "W06" in codes(game)


def test_line_ends_all_count() -> None:
    pieces = list(read_pieces(io.BytesIO(b"a\r\nb\rc\nd")))
    assert [(p.text, p.line) for p in pieces] == [("a", 1), ("b", 2), ("c", 3), ("d", 4)]


def test_long_lines_arrive_in_pieces() -> None:
    from pdn_tools.pdn import source

    data = b"x" * (source.MAX_PIECE + 10) + b"\ny"
    pieces = list(read_pieces(io.BytesIO(data), decoding=Decoding()))
    assert [p.line for p in pieces] == [1, 1, 2]
    assert pieces[1].column == source.MAX_PIECE


def test_terminator_and_tag_boundaries() -> None:
    text = (
        '[Event "a"]\n1. 32-28 18-23 *\n'  # terminated
        "1. 33-29 2-0\n"  # header-less game
        '[Event "c"]\n1. 31-27\n'  # not terminated: W01
        '[Event "d"]\n{ comment with\n\nblank lines 1-0 [x] }\n1. 34-30 1-1\n'
    )
    games = read_string(text)
    assert [g.tag("Event") for g in games] == ["a", None, "c", "d"]
    assert "W01" in codes(games[2])
    assert games[3].terminator is not None and games[3].terminator.text == "1-1"


def test_junk_after_terminator_is_skipped() -> None:
    games = read_string('[Result "0-2"]\n1. 32-28 0-2t\n[Event "next"]\n1. 33-29 *')
    assert len(games) == 2
    assert "W06" in codes(games[1])


def test_header_only_records_followed_by_headers() -> None:
    games = read_string('[Event "a"]\n[Result ""]\n[Event "b"]\n[Result ""]\n\n1. 21-17 *')
    assert [g.tag("Event") for g in games] == ["a", "b"]
    assert games[1].plies == 1


def test_two_event_tags_in_one_header_stay_one_game() -> None:
    games = read_string('[Event "a"]\n[Black "x"]\n[Event "b"]\n[Result "*"]\n1. 9-14 *')
    assert len(games) == 1


def test_fen_value_broken_over_lines() -> None:
    game = read_string('[FEN "W:W31,32:\nB1,2"]\n 1.32-28 \n0-0')[0]
    assert game.tag("FEN") == "W:W31,32:B1,2"
    assert "W08" in codes(game)


def test_tag_split_after_its_bracket_and_missing_bracket() -> None:
    games = read_string(
        '[\nEvent "split"]\n[Result "*"]\n1. 32-28 *\nEvent "lost"]\n[Result "*"]\n1. 33-29 *'
    )
    assert [g.tag("Event") for g in games] == ["split", "lost"]
    assert "W09" in codes(games[1])


def test_results_glued_to_next_move_number() -> None:
    games = read_string("01.32-28 18-23 0-201.33-29 19-23 1-101.31-27 *")
    assert [g.terminator.text for g in games if g.terminator] == ["0-2", "1-1", "*"]
    assert "W05" in codes(games[0])


def test_empty_and_blank_inputs() -> None:
    for data in (b"", b"\n\n  \n", b"\xef\xbb\xbf"):
        report = FileReport("x")
        assert games_of(data, report=report) == []
        assert any(i.code == "W35" for i in report.issues)


def test_chunks_carry_their_positions() -> None:
    chunks = list(split_chunks(read_pieces(io.BytesIO(b'[A "1"]\n1. 32-28 * 1. 33-29 *'))))
    assert [(c.line, c.column, c.terminated) for c in chunks] == [(1, 0, True), (2, 10, True)]


def test_glued_result_on_a_line_with_comments() -> None:
    games = read_string("01.32-28 {0} 18-23 {0} 0-201.33-29 {0} 19-23 {1} 1-1\n")
    assert [g.terminator.text for g in games if g.terminator] == ["0-2", "1-1"]
    assert [g.plies for g in games] == [2, 2]


def test_decoder_findings_go_to_the_game_that_holds_them() -> None:
    """A NUL byte or a stray byte in a later game is reported on that game (and only
    once), and the --jobs batching (pdn_tools.run.slots) agrees with the reader."""
    data = (
        '[Event "Ren\u00e9e \u00e9t\u00e9 \u00e0 \u00e7a"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n'
    ).encode() + (
        b'[Event "two \xe9"]\n[GameType "20"]\n1. 32-28\x00 19-23 *\n\n'
        b'[Event "three"]\n[GameType "20"]\n1. 31-27 *\n'
    )
    games = list(read_games(io.BytesIO(data)))
    assert [codes(g) for g in games] == [[], ["W30", "W06"], []]
    w30, w06 = games[1].issues[:2]
    assert (w30.line, w06.line) == (5, 7)
    checked = [
        c
        for batch in cut_batches(io.BytesIO(data), ReadOptions(), 10)
        for c in check_slots(0, "-", batch.slots, CheckOptions(ReadOptions(), syntax_only=True))
    ]
    assert [[i.code for i in c.issues] for c in checked] == [[], ["W30", "W06"], []]


def test_binary_input_gets_one_error_and_no_games() -> None:
    data = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)) * 8
    report = FileReport("archive.pdn")
    games = list(read_games(io.BytesIO(data), report=report))
    assert games == []
    assert [i.code for i in report.issues] == ["E12"]
    assert "binary" in report.issues[0].message
    # A text file with a few NUL bytes is still read.
    text = b'[GameType "20"]\n1. 32-28\x00 19-23\x00 2. 37-32\x00 *\n' * 3
    assert len(list(read_games(io.BytesIO(text)))) == 3


# The splitter's search for what can end or start a game skips plain text; it must
# find exactly what a search of the whole alternation from the same position finds.
_ATOMS = [
    "1-0",
    "0-1",
    "2-0",
    "0-2",
    "1/2-1/2",
    "0.5-0.5",
    "\u00bd-\u00bd",
    "1 - 0",
    "1- 0",
    "1 -0",
    "*",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    '"',
    "/",
    "\\r",
    "\\n",
    ";",
    "%",
    " ",
    "\t",
    "12-34",
    "31x22",
    "1.",
    "2...",
    "0",
    "1",
    "2",
    "-",
    "x",
    "a",
    "Event",
    '[Event "x"]',
    '[Result "1-0"]',
    '/FEN "W:W1"/',
    "x*",
    "!?",
    "$3",
    "[[",
    "0.5",
    "01.",
    "9-1",
    "10-15",
    "20-1",
]


@given(st.lists(st.sampled_from(_ATOMS), max_size=30).map("".join), st.data())
@settings(max_examples=400, deadline=None)
def test_special_search_skips_only_plain_text(line: str, data: st.DataObject) -> None:
    specials = _Specials(line)
    pos = 0
    while pos <= len(line):
        found = specials.search(pos)
        expected = _SPECIAL.search(line, pos)
        assert (found and (found.start(), found.end(), found.lastgroup)) == (
            expected and (expected.start(), expected.end(), expected.lastgroup)
        )
        pos += data.draw(st.integers(1, 6))


def test_headers_and_moves_on_one_line_split_per_game() -> None:
    header = '[Event "E"] [White "W{n}"] [Black "B"] [Result "1-0"] '
    moves = " ".join(f"{n}. 32-28 {{clock}} 19-23" for n in range(1, 40))
    text = "\n".join(header.replace("{n}", str(n)) + moves + " 1-0" for n in range(5))
    games = read_string(text)
    assert [g.tag("White") for g in games] == [f"W{n}" for n in range(5)]
    assert all(len(list(g.mainline())) == 78 for g in games)
    assert [(g.span.start_line, g.span.end_line) for g in games] == [(n, n) for n in range(1, 6)]


def test_a_loose_tag_name_is_not_a_repeat_of_its_first_word() -> None:
    # After Result, a repeated tag begins the next header-only record; a loose name
    # ('Black Elo', 'GameType 5', W07) is its own name, as the reader takes it, not a
    # second Black or GameType.  Canonical PDN puts such a tag after the roster.
    one = '[Event "a"]\n[Black "b"]\n[Result "*"]\n[GameType "20"]\n[Black Elo "2000"]\n'
    one += '[GameType 5 "40"]\n\n1. 32-28 *\n'
    games = read_string(one)
    assert len(games) == 1
    assert [t.name for t in games[0].tags][-2:] == ["Black Elo", "GameType 5"]
    two = '[Event "a"]\n[Result "*"]\n[Event "b"]\n\n1. 32-28 *\n'
    assert [g.tag("Event") for g in read_string(two)] == ["a", "b"]
