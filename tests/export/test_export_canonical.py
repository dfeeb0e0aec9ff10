"""Canonical PDN on hand-made records: notation, numbers, tags, results, options."""

from __future__ import annotations

import json

from export_helpers import converted, replay_facts

from pdn_tools import read_string
from pdn_tools.export.canonical import CanonicalOptions, write_canonical
from pdn_tools.export.from_json import game_from_dict
from pdn_tools.export.jsonfmt import game_dict
from pdn_tools.export.pdn import write_game
from pdn_tools.replay import replay_game
from pdn_tools.replay.resolve import resolve

G = '[GameType "20"]\n'


def canonical(text: str, **options: bool) -> str:
    game, _, resolution = converted(text)
    return write_canonical(game, resolution, CanonicalOptions(**options))


def test_roster_first_values_escaped_numbers_added() -> None:
    text = '[Black "B"]\n[Annotator "x"]\n[White "Say \\"hi\\""]\n[Event "E"]\n' + G
    out = canonical(text + "32-28 19-23 28x19 14x23 *")
    head, moves = out.split("\n\n")
    assert head.splitlines() == [
        '[Event "E"]',
        '[White "Say \\"hi\\""]',
        '[Black "B"]',
        '[GameType "20"]',
        '[Annotator "x"]',
    ]
    assert moves == "1. 32-28 19-23 2. 28x19 14x23 *\n"


AMBIG = '[FEN "W:WK27,48:B29,20,39,22,3"]\n' + G


def test_captures_short_when_unique_full_path_when_not() -> None:
    out = canonical('[FEN "W:W28,45:B23,14,40,1"]\n' + G + "1. 28x19x10 1-7 *")
    assert out.endswith("1. 28x10 1-7 *\n")
    # Two captures share from and to: the path resolved by look-ahead (W25) is written.
    out = canonical(AMBIG + "1. 27x43 20-25 *")
    assert "1. 27x18x34x43 20-25 *" in out
    # Look-ahead cannot decide (E08): the move stays as written, nothing is lost.
    out = canonical(AMBIG + "1. 27x43 3-8 *")
    assert "1. 27x43 3-8 *" in out


def test_second_mover_number_after_comment_and_variation() -> None:
    out = canonical(G + "1. 32-28 {c} 19-23 (1... 18-23 2. 33-29) 2. 33-29 *")
    assert out.endswith("1. 32-28 {c} 1... 19-23 (1... 18-23 2. 33-29) 2. 33-29 *\n")


def test_lines_at_most_80_columns() -> None:
    moves = " ".join(["32-28 19-23 28x19 14x23", "37-32 10-14", "41-37 5-10", "46-41 20-25"])
    out = canonical(G + moves + " {" + "word " * 30 + "} *")
    assert all(len(line) <= 80 for line in out.splitlines() if "word" not in line)


def test_results_in_the_gametype_style() -> None:
    assert canonical(G + "32-28 1-0").endswith("1. 32-28 2-0\n")
    assert canonical('[GameType "21"]\n11-15 2-0').endswith("1. 11-15 1-0\n")
    assert canonical(G + "32-28 *").endswith("*\n")


def test_normalise_results_sets_tag_and_terminator() -> None:
    out = canonical('[Result "1-0"]\n' + G + "32-28 *", normalise_results=True)
    assert '[Result "2-0"]' in out
    assert out.endswith("1. 32-28 2-0\n")
    out = canonical(G + "32-28 0-1", normalise_results=True)
    assert '[Result "0-2"]' in out


def test_strip_comments_keeps_commands() -> None:
    text = G + "32-28 {fine [%clock w1:00:00 B1:00:00] move} 19-23 {plain} $1 *"
    out = canonical(text, strip_comments=True)
    assert "plain" not in out and "fine" not in out
    assert "{[%clock w1:00:00 B1:00:00]}" in out
    assert "$1" in out


def test_strip_variations() -> None:
    out = canonical(G + "32-28 (33-28 18-23) 19-23 *", strip_variations=True)
    assert "(" not in out
    assert out.endswith("1. 32-28 19-23 *\n")


def test_unreplayed_game_written_as_read() -> None:
    out = canonical('[GameType "99"]\n1. 01-5 6-9 {kept} (7-11) 2-0')
    game = read_string(out)[0]
    assert [n.element_text() for n in game.mainline()] == ["1-5", "6-9"]
    assert out.endswith("1. 1-5 6-9 {kept} (1... 7-11) 2-0\n")


def test_illegal_move_rest_written_as_read() -> None:
    out = canonical(G + "32-28 19-23 28x17 14x23 34-29 *")
    assert "28x17 14x23 3. 34-29" in out


def test_split_capture_is_merged_and_annotations_kept() -> None:
    fen = '[FEN "W:W28,45:B23,14,40,1"]\n'
    game, _, resolution = converted(G + fen + "1. 28x19 {a} 19x10 $1 {b} 1-7 *")
    assert resolution.merged
    out = write_canonical(game, resolution)
    assert out.endswith("1. 28x10 {a} $1 {b} 1... 1-7 *\n")


def test_setup_and_placeholder_kept() -> None:
    out = canonical(G + '32-28 -- /FEN "W:W33:B12"/ 33-28 *')
    game = read_string(out)[0]
    assert [n.kind for n in game.mainline()] == ["move", "placeholder", "setup", "move"]


def test_round_trip_writer_keeps_alternatives_to_the_first_move_once() -> None:
    game = read_string(G + "1. 31-26 (1. 32-28) *")[0]
    assert write_game(game).count("32-28") == 1
    assert canonical(G + "1. 31-26 (1. 32-28) *").count("32-28") == 1


def test_move_that_reads_like_a_result_is_padded() -> None:
    # A move written as read (Spanish has no rule profile: not replayed) on squares 1
    # and 2: written "1-2" it would read back as a result ending the game, so the
    # canonical form pads it and it stays one move.
    text = canonical('[GameType "24"]\n\n1. 01-02 *\n')
    assert "1. 01-02 *" in text
    (again,) = read_string(text)
    (node,) = list(again.mainline())
    assert node.move is not None and node.move.squares == ("1", "2")
    assert again.result == "*"
    # a8-b8 is the Turkish king move 1-2: written in Turkish's algebraic squares, it
    # cannot be taken for a result.
    text = canonical('[GameType "30"]\n[FEN "W:WK1:B40"]\n\n1. a8-b8 *\n')
    assert text.endswith('[FEN "W:WKa8:Bh4"]\n\n1. a8-b8 *\n')
    (again,) = read_string(text)
    assert len(list(again.mainline())) == 1 and again.result == "*"


def test_duplicate_tags_stay_in_one_header() -> None:
    # Repeated names (two Events, two Results, a repeated extra tag) are kept, and the
    # canonical order must not let a reader take them for the next game's header.
    source = (
        '[Annotator "x"]\n[Annotator "y"]\n[Event "A"]\n[Event "B"]\n[Result "2-0"]\n'
        '[Result "0-2"]\n' + G + "\n1. 32-28 *\n"
    )
    (game,) = read_string(source)
    text = canonical(source)
    again = read_string(text)
    assert len(again) == 1
    assert sorted((t.name, t.value) for t in again[0].tags) == sorted(
        (t.name, t.value) for t in game.tags
    )
    head = text.split("\n\n", 1)[0].splitlines()
    first_result = next(i for i, line in enumerate(head) if line.startswith("[Result"))
    assert all(not line.startswith(("[Event", "[Annotator")) for line in head[first_result + 1 :])


def test_an_inferred_variant_is_written_as_a_gametype() -> None:
    # No GameType, algebraic squares: the reader infers Russian (W27, info), a guess
    # it does not trust (Brazilian and Czech are written alike): the variant goes into
    # a GameType tag, and the moves are written in its algebraic squares.
    text = "1. c3-b4 b6-a5 2. b4-c5 d6:b4 3. a3:c5 f6-g5 *\n"
    game, replay, _ = converted(text)
    assert game.variant == "russian" and replay.completed
    out = canonical(text)
    assert out == '[GameType "25"]\n\n' + text
    back, again, _ = converted(out)
    assert back.variant == "russian" and again.completed
    assert [m.move for m in again.moves] == [m.move for m in replay.moves]
    # International, the reader's assumption, needs no tag; a GameType written stays.
    assert canonical("1. 32-28 19-23 *").startswith("1. 32-28")
    assert canonical('[GameType "25"]\n' + text).count("GameType") == 1
    # A guess the replay refutes is not asserted: the moves stay as read.
    fragment = "1. g3-f4 g5xe3xg1 2. a3-b4 c5xa3 *\n"
    game, replay, _ = converted(fragment)
    assert not replay.replayed
    assert canonical(fragment) == fragment


# --- tags in their normal form ---------------------------------------------------
def read_back(text: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    """Canonical PDN of the one game of *text*, the codes of that PDN read back and
    replayed, and its tags (name, value).  Writing it again must change nothing."""
    out = canonical(text)
    again, _, resolution = converted(out)
    assert write_canonical(again, resolution) == out
    return out, [i.code for i in again.issues], [(t.name, t.value) for t in again.tags]


def test_localised_tag_names_are_written_as_the_standard_names() -> None:
    source = (
        '[Dati "Campionato"]\n[Localita "Roma"]\n[Turno "3"]\n[Bianco "Rossi"]\n'
        '[Nero "Bianchi"]\n[Esito "1-0"]\n[GameType "22"]\n[Anno "2005"]\n\n1. 21-17 *\n'
    )
    (game,) = read_string(source)
    assert [i.code for i in game.issues].count("W07") == 7
    _, codes, tags = read_back(source)
    assert "W07" not in codes
    assert tags == [
        ("Event", "Campionato"),
        ("Site", "Roma"),
        ("Date", "2005"),  # a year alone stays so (W29, info)
        ("Round", "3"),
        ("White", "Rossi"),
        ("Black", "Bianchi"),
        ("Result", "1-0"),
        ("GameType", "22"),
    ]
    # The round-trip writer keeps the names as read.
    assert '[Bianco "Rossi"]' in write_game(game)


def test_french_and_setup_names_are_written_as_the_standard_names() -> None:
    source = (
        '[Événement "Coupe"]\n[Manche "2"]\n[Blanc "Dupont"]\n[Noir "Durand"]\n'
        '[Résultat "2-0"]\n[Type de jeu "20"]\n[Heure blanche "1:00"]\n'
        '[Titre noir "GMI"]\n[Setup "1"]\n[FEN "W:W31-50:B1-20"]\n\n1. 32-28 *\n'
    )
    _, codes, tags = read_back(source)
    assert "W07" not in codes
    assert [name for name, _ in tags] == [
        "Event",
        "Round",
        "White",
        "Black",
        "Result",
        "GameType",
        "SetUp",
        "FEN",
        "WhiteTime",
        "BlackTitle",
    ]
    assert dict(tags)["White"] == "Dupont" and dict(tags)["WhiteTime"] == "1:00"


def test_names_in_another_case_are_written_as_the_standard_names() -> None:
    source = '[event "E"]\n[WHITE "W"]\n[gametype "20"]\n[fen "W:W31-50:B1-20"]\n\n32-28 *\n'
    (game,) = read_string(source)
    assert "W07" in [i.code for i in game.issues]
    _, codes, tags = read_back(source)
    assert "W07" not in codes
    assert tags == [
        ("Event", "E"),
        ("White", "W"),
        ("GameType", "20"),
        ("FEN", "W:W31-50:B1-20"),
    ]


def test_a_name_with_html_entities_is_decoded_and_standard() -> None:
    source = '[R&eacute;sultat "0-2"]\n[Type&#32;de&#32;jeu "20"]\n\n1. 32-28 0-2\n'
    (game,) = read_string(source)
    assert game.tag("Result") == "0-2" and game.tag("GameType") == "20"
    _, codes, tags = read_back(source)
    assert "W07" not in codes and "W31" not in codes
    assert tags == [("Result", "0-2"), ("GameType", "20")]


def test_names_that_are_no_known_alias_are_kept() -> None:
    source = '[Évaluation blanche "+1"]\n[whiteelo "2300"]\n[Annotator "me"]\n\n32-28 *\n'
    _, codes, tags = read_back(source)
    assert tags == [("Évaluation blanche", "+1"), ("whiteelo", "2300"), ("Annotator", "me")]
    assert codes.count("W07") == 2  # irregular, and not read as any standard tag


def test_irregular_results_are_written_in_the_normal_form() -> None:
    cases = {
        " 2-0": "2-0",
        "0 - 2": "0-2",
        "1 -1": "1-1",
        "0-2t": "0-2",
        "\u00bd-\u00bd": "1-1",
        "0.5-0.5": "1-1",
        "1-0": "2-0",  # the other style (W03)
        "1/2-1/2": "1-1",
        "": "*",
        "-": "*",
        "?": "*",
        "0-0": "0-0",
    }
    for raw, normal in cases.items():
        source = f'[Result "{raw}"]\n' + G + "\n1. 32-28 *\n"
        (game,) = read_string(source)
        assert {"W03", "W04"} & {i.code for i in game.issues} or raw == normal, raw
        _, codes, tags = read_back(source)
        assert tags[0] == ("Result", normal), raw
        assert "W04" not in codes and "W03" not in codes, (raw, codes)
    # The style is the GameType's: English draughts writes 1-0 / 0-1 / 1/2-1/2.
    _, codes, tags = read_back('[Risultato " 1-1"]\n[GameType "21"]\n\n1. 11-15 *\n')
    assert tags[0] == ("Result", "1/2-1/2") and not {"W03", "W04", "W07"} & set(codes)


def test_a_result_no_reading_maps_is_kept_as_written() -> None:
    # 4-6 (a match score?) is not a result the reader can map: kept, and found again.
    source = '[Result "4-6"]\n' + G + "\n1. 32-28 4-6\n"
    out, codes, tags = read_back(source)
    assert tags[0] == ("Result", "4-6")
    assert codes.count("W04") == 1
    assert out.endswith("1. 32-28 *\n")


def test_normalised_results_use_the_standard_result_tag() -> None:
    source = '[Risultato "1 - 0"]\n' + G + "\n1. 32-28 *\n"
    out = canonical(source, normalise_results=True)
    assert out.startswith('[Result "2-0"]\n[GameType "20"]\n')
    assert out.endswith("1. 32-28 2-0\n")


def test_irregular_values_are_written_regularly() -> None:
    source = '[Event "Long\nname"]\n[Site "The "Hall""]\n' + G + "\n32-28 *\n"
    (game,) = read_string(source)
    assert [i.code for i in game.issues].count("W08") == 2
    out, codes, tags = read_back(source)
    assert "W08" not in codes
    assert '[Site "The \\"Hall\\""]' in out
    assert tags[:2] == [("Event", "Long name"), ("Site", 'The "Hall"')]


def test_fen_is_written_without_what_the_reader_ignores() -> None:
    source = '[FEN "W:W31-50:\n B1-20."]\n' + G + "\n32-28 *\n"
    game, replay, _ = converted(source)
    assert {"W08", "W26"} <= {i.code for i in game.issues}
    out, codes, tags = read_back(source)
    assert ("FEN", "W:W31-50:B1-20") in tags
    assert not {"W08", "W26"} & set(codes)
    again, replay2, _ = converted(out)
    assert replay_facts(again, replay2) == replay_facts(game, replay)
    # Two dots make the FEN invalid (E10): it stays invalid, not repaired into a position.
    out, codes, tags = read_back('[FEN "W:W31-50:B1-20.."]\n' + G + "\n32-28 *\n")
    assert ("FEN", "W:W31-50:B1-20..") in tags and "E10" in codes
    # No position: kept as written.
    _, _, tags = read_back('[FEN "?"]\n' + G + "\n32-28 *\n")
    assert ("FEN", "?") in tags


def test_a_setup_fen_in_the_moves_is_written_without_a_trailing_dot() -> None:
    """The reader ignores one trailing '.' after an in-game set-up's FEN as after the
    FEN tag's (W26); canonical PDN leaves it out there too, so W26 is not found again."""
    setup = '[SetUp "1"]\n[FEN "W:W31-50:B1-20."]\n' + G
    source = setup + '\n1. 32-28 /FEN "B:W28,31,33-50:B1-20."/ 1... 18-23 *\n'
    game, replay, _ = converted(source)
    assert [i.code for i in game.issues].count("W26") == 2
    out, codes, _ = read_back(source)
    assert '/FEN "B:W28,31,33-50:B1-20"/ 1... 18-23 *' in out
    assert "W26" not in codes
    again, replay2, _ = converted(out)
    assert replay_facts(again, replay2) == replay_facts(game, replay)
    # Two dots make it invalid: written as read, not repaired into a position.
    out, _, _ = read_back(G + '\n1. 32-28 /FEN "B:W28,31,33-50:B1-20.."/ 1... 18-23 *\n')
    assert '/FEN "B:W28,31,33-50:B1-20.."/' in out


NAG_STARTS = '[Event "n"]\n\n1. 32-28 18-23 ( $3 1... 19-23 ) ( {c} 1... $4 17-21 ) 2. 28-22 *\n'


def test_a_nag_before_the_first_move_of_a_variation_is_written_back() -> None:
    """Every writer keeps a NAG written before a variation's first move where it was
    written (it was dropped once): canonical PDN, round-trip PDN, JSON
    (``starting_nags``) and JSON read back."""
    out, _, _ = read_back(NAG_STARTS)
    assert out.endswith("1. 32-28 18-23 ($3 1... 19-23) ({c} $4 1... 17-21) 2. 28-22 *\n")
    game, replay, resolution = converted(NAG_STARTS)
    assert "( $3 1... 19-23 ) ( {c} $4 1... 17-21 )" in write_game(game)
    data = game_dict(game, replay, resolution)
    alternatives = data["moves"][1]["variations"]
    assert [line[0].get("starting_nags") for line in alternatives] == [[3], [4]]
    assert "starting_nags" not in data["moves"][0] and "nags" not in data
    back = game_from_dict(json.loads(json.dumps(data)))
    assert write_game(back) == write_game(game)
    replay2 = replay_game(back)
    assert write_canonical(back, resolve(back, replay2)) == out


def test_a_variation_without_a_move_is_written_without_its_parentheses() -> None:
    """What a variation without a move holds stays where it stood (W83 says the
    parentheses went); the output reads back without W83."""
    source = '[Event "e"]\n\n1. 32-28 ( {only a comment} ) 18-23 ( ) 2. 28-22 ( $5 ) *\n'
    game, _, _ = converted(source)
    assert [i.code for i in game.issues].count("W83") == 3
    out, codes, _ = read_back(source)
    assert out.endswith("1. 32-28 {only a comment} 1... 18-23 2. 28-22 $5 *\n")
    assert "W83" not in codes


def test_a_standard_name_and_its_alias_are_both_kept() -> None:
    # The alias first: both written as White, the value every reader takes stays last.
    source = '[Bianco "A"]\n[White "B"]\n' + G + "\n32-28 *\n"
    (game,) = read_string(source)
    _, codes, tags = read_back(source)
    assert tags[:2] == [("White", "A"), ("White", "B")]
    (again,) = read_string(canonical(source))
    assert again.tag("White") == game.tag("White") == "B"
    assert "W07" not in codes and "W09" in codes  # a tag given twice stays so
    # The alias last: the reader's checks take the alias's value and a lookup by name
    # the standard one; one name for both would change what is read, so the alias stays.
    source = '[Result "2-0"]\n[Esito "0-2"]\n' + G + "\n32-28 *\n"
    (game,) = read_string(source)
    _, codes, tags = read_back(source)
    assert tags[:2] == [("Result", "2-0"), ("Esito", "0-2")]
    (again,) = read_string(canonical(source))
    assert again.tag("Result") == game.tag("Result") == "2-0"


def _canonical_and_codes(record: str) -> tuple[str, list[str]]:
    """The canonical PDN of the single game of *record* and the codes its replay finds."""
    game, replay, resolution = converted(record)
    del replay  # its findings are on the game
    codes = sorted(i.code for i in game.issues)
    return write_canonical(game, resolution), codes


def test_a_move_to_square_zero_keeps_its_four_digit_spelling_and_verdict() -> None:
    """``2000`` is the only spelling the reader reads as squares 20 and 0 (W13, W11,
    then E04 under rules): written ``20-0`` it read back as unrecognised text (E03),
    another verdict; canonical PDN keeps the four digits."""
    for record, written in (
        ('[GameType "20"]\n1. 2000 *\n', "1. 2000 *"),
        ("1. 2000 *\n", "1. 2000 *"),
        ('[GameType "20"]\n1. 0020 *\n', "1. 0020 *"),
    ):
        text, codes = _canonical_and_codes(record)
        assert written in text
        again, codes_again = _canonical_and_codes(text)
        assert again == text
        assert codes_again == codes
        assert "E03" not in codes_again


#: A CheckerBoard position without GameType (Black before White, no moves): English by
#: the reading of its producer's dialect (W64), which the roster order does not keep.
CHECKERBOARD = (
    '[Event "Problem"]\n[Black "Red"]\n[White "White"]\n[Result "0-1"]\n'
    '[Setup "1"]\n[FEN "{fen}"]\n0-1\n'
)


def _facts(text: str) -> tuple[str, list[str], str | None]:
    """The variant, the error codes and the outcome of the one game of *text*."""
    game, _, _ = converted(text)
    errors = [i.code for i in game.issues if i.level.value == "error"]
    return game.variant, errors, game_dict(game)["outcome"]


def test_a_variant_read_from_the_dialect_is_kept_as_its_gametype() -> None:
    for fen, errors in (
        ("W:W18,K15,5:BK30,K26,2.", []),
        # Square 1 is the white man's own promotion row in every variant: E10 under
        # the reading as English, as under GameType 21 (no variant reads the FEN).
        ("W:W18,K15,1:BK30,K26,2.", ["E10"]),
        # Square 32 is the black man's on every 8x8 board, the board decided: E10 too
        # (the position fits the 10x10 board, which the record does not speak of).
        ("B:WK31,27,23,K20:B32,30,K22,K7.", ["E10"]),
    ):
        text = CHECKERBOARD.format(fen=fen)
        game, replay, resolution = converted(text)
        assert "W64" in [i.code for i in game.issues] and not replay.refuted
        out = write_canonical(game, resolution)
        assert '[GameType "21"]' in out
        assert _facts(text) == ("english", errors, "white") == _facts(out)
        exported = game_dict(game, replay, resolution)
        assert (exported["variant"], exported["gametype"]) == ("english", 21)
        assert write_canonical(*converted(out)[::2]) == out


def test_a_missing_move_written_n_dot_ellipsis_is_kept() -> None:
    """``N. ...`` while the first mover is to move stands for its missing move (W34):
    canonical PDN keeps it, so that the record replays the same when read back (as
    ``N...`` it read as the second mover's move, W33 and E05)."""
    for moves, written in (
        ("1. ... 19-23 2. 32-28 *", "1. ... 19-23 2. 32-28 *"),
        ("1. 32-28 19-23 2. ... 14-19 *", "1. 32-28 19-23 2. ... 14-19 *"),
        ("1. 32-28 19-23 2. 33-29 (2. ... 14-19) 14-19 *", "(2. ... 14-19)"),
    ):
        record = G + '[Result "*"]\n\n' + moves + "\n"
        game, replay, _ = converted(record)
        text, codes = _canonical_and_codes(record)
        assert written in text
        assert "W34" in codes
        again, replay_again, _ = converted(text)
        assert replay_facts(again, replay_again) == replay_facts(game, replay)
        assert [(i.code, i.ply) for i in again.issues] == [(i.code, i.ply) for i in game.issues]
        assert _canonical_and_codes(text) == (text, codes)


def test_n_dot_ellipsis_before_a_move_of_the_first_mover_is_renumbered() -> None:
    """``N. ...`` before a move the first mover can play is that move (the replay goes
    on): it gets the usual ``N.``."""
    assert canonical(G + "1. ... 32-28 19-23 *").endswith("1. 32-28 19-23 *\n")


def test_a_malformed_square_is_written_back_and_found_again() -> None:
    """A move with a malformed square (E04, kept as read) is written where it stood and
    read back gives the same findings."""
    for record in (G + "1. 0-5 *\n", G + "1. 32-28 19-23 2. 328 *\n"):
        text, codes = _canonical_and_codes(record)
        assert "E04" in codes and "W19" not in codes
        again, codes_again = _canonical_and_codes(text)
        assert (again, codes_again) == (text, codes)
