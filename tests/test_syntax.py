"""Game text to game tree: elements, attachment, positions and syntax diagnostics."""

from __future__ import annotations

import gc

import pytest
from helpers import codes, mainline_texts, one

from pdn_tools import read_string
from pdn_tools.diagnostics import Severity
from pdn_tools.pdn.model import Node


def test_mainline_variations_comments_nags() -> None:
    game = one(
        '[Event "x"]\n[Result "*"]\n\n'
        "{intro} 1. 32-28 18-23 2. 38-32 (2. 37-32 {alt} 12-18 (2... 17-21)) "
        "12-18 {after} $4 3. 31-27 *\n"
    )
    assert mainline_texts(game) == ["32-28", "18-23", "38-32", "12-18", "31-27"]
    assert [c.text for c in game.comments] == ["intro"]
    second = game.variations[0].variations[0]  # after 18-23
    assert [v.element_text() for v in second.variations] == ["38-32", "37-32"]
    alternative = second.variations[1]
    assert [c.text for c in alternative.comments] == ["alt"]
    reply = alternative.variations[0]
    assert reply.element_text() == "12-18"
    # the nested variation replaces 12-18 inside the variation
    assert [v.element_text() for v in alternative.variations] == ["12-18", "17-21"]
    main_reply = second.variations[0].variations[0]
    assert main_reply.nags == [4]
    assert [c.text for c in main_reply.comments] == ["after"]
    assert game.terminator is not None and game.terminator.text == "*"
    assert game.plies == 5
    assert game.status == "ok"


def test_parent_links_walk_back_to_the_game() -> None:
    game = one("1. 32-28 18-23 (1... 19-23 2. 38-32 (2. 37-32)) 2. 31-27 *")
    after = game.variations[0]
    inner = after.variations[1].variations[1]  # 37-32, the alternative to 38-32
    assert inner.element_text() == "37-32"
    chain = []
    node = inner
    while node.parent is not None:
        chain.append(node.parent)
        node = node.parent
    assert chain[-1] is game
    assert [n.element_text() for n in chain[:-1]] == ["19-23", "32-28"]
    assert not inner.is_mainline() and list(game.mainline())[-1].is_mainline()


def test_variation_nested_on_the_first_move_of_a_variation_is_kept() -> None:
    """(1... 19-23 (1... 17-22) ...) offers 17-22 as a third reply to 32-28; written
    before the move it replaces, it is re-attached the same way (W20)."""
    for text, extra in (
        ("1. 32-28 18-23 (1... 19-23 (1... 17-22) 2. 38-32) 2. 31-27 *", []),
        ("1. 32-28 18-23 ((1... 17-22) 1... 19-23 2. 38-32) 2. 31-27 *", ["W20"]),
    ):
        game = one(text)
        replies = game.variations[0].variations
        assert [n.element_text() for n in replies] == ["18-23", "19-23", "17-22"]
        assert [n.element_text() for n in replies[1].mainline()] == ["38-32"]
        assert all(n.parent is game.variations[0] for n in replies)
        assert [c for c in codes(game) if c != "W27"] == extra


def _live_nodes() -> int:
    return sum(isinstance(o, Node) for o in gc.get_objects())


def test_a_closed_game_is_freed_without_the_cycle_collector() -> None:
    """Parent links are cycles; ``game.close()`` breaks them, so a streaming loop
    that closes each game frees it as soon as it is dropped, not at the next
    collector pass."""
    text = '[Event "x"]\n1. 32-28 {c} 18-23 (1... 19-23 2. 38-32 (2. 37-32)) 2. 31-27 *\n'
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = _live_nodes()
        kept = one(text)
        leaf = kept.variations[0].variations[1].variations[1]  # 37-32
        assert leaf.parent is kept.variations[0].variations[1]
        assert leaf.game() is kept
        del kept, leaf
        assert _live_nodes() > before  # left alone, the cycles wait for the collector
        game = one(text)
        game.close()
        game.close()  # closing twice does nothing
        del game
        assert _live_nodes() == before + 1 + 6  # only the first game's nodes remain
    finally:
        if enabled:
            gc.enable()
    gc.collect()


def test_a_closed_game_keeps_its_moves_but_not_its_parent_links() -> None:
    game = one("1. 32-28 18-23 2. 38-32 *")
    second = game.variations[0].variations[0]
    assert second.game() is game and second.ply() == 2
    game.close()
    assert second.parent is None
    assert [n.element_text() for n in second.mainline()] == ["38-32"]
    assert [n.element_text() for n in game.mainline()] == ["32-28", "18-23", "38-32"]
    with pytest.raises(ValueError, match="closed"):
        second.game()


def test_numbers_glued_to_moves_read_as_when_spaced() -> None:
    glued = one('[Event "x"]\n1.32-28 18-23 2.38-32! 12-18 3.31x22 17x28 4.33-29 *\n')
    spaced = one('[Event "x"]\n1. 32-28 18-23 2. 38-32! 12-18 3. 31x22 17x28 4. 33-29 *\n')
    assert mainline_texts(glued) == mainline_texts(spaced)
    nodes = list(glued.mainline())
    assert [(n.number, n.number_dots) for n in nodes[::2]] == [(k, ".") for k in range(1, 5)]
    assert [(n.line, n.column) for n in nodes[:3]] == [(2, 3), (2, 9), (2, 17)]
    assert nodes[2].raw == "38-32!" and nodes[2].nags == [1]
    assert codes(glued) == codes(spaced)
    # a glued number that disagrees with the count is still reported (W16 on the first)
    assert codes(one("1. 2.32-28 *")).count("W16") == 1


def test_positions_are_file_positions() -> None:
    games = read_string('[Event "a"]\n1. 32-28 *\n[Event "b"]\n\n1. 33-29\n  18-23 *\n')
    assert [g.span.start_line for g in games] == [1, 3]
    nodes = list(games[1].mainline())
    assert (nodes[0].line, nodes[0].column) == (5, 4)
    assert (nodes[1].line, nodes[1].column) == (6, 3)
    assert (games[1].tags[0].line, games[1].tags[0].column) == (3, 1)


def test_numbers_and_second_mover_start() -> None:
    game = one('[FEN "B:W33:B4"]\n1. ... 4-10 2. 33-28 *')
    first = game.next()
    assert first is not None
    assert (first.number, first.number_dots) == (1, ". ...")
    assert game.status == "ok"  # only the info that GameType is missing


def test_results_and_result_tag() -> None:
    assert one('[Result "2-0"]\n1. 32-28 2-0').result == "2-0"
    conflict = one('[Result "0-1"]\n1. 32-28 1/2-1/2')
    assert "W02" in codes(conflict) and conflict.result == "0-1"
    style = one('[GameType "20"]\n[Result "1-0"]\n1. 32-28 *')
    assert "W03" in codes(style)
    spaced = one('[Result "1 - 1"]\n1. 32-28 *')
    assert "W04" in codes(spaced)


def test_result_shaped_moves_and_match_scores() -> None:
    game = one("1. 1-10 1-1")
    assert mainline_texts(game) == ["1-10"]
    assert game.terminator is not None and game.terminator.text == "1-1"
    score = one('[Result "4-6"]\n1. 32-28 18-23 4-6\n')
    assert mainline_texts(score) == ["32-28", "18-23"]
    assert score.terminator is not None and score.terminator.text == "4-6"
    assert "W04" in codes(score)


def test_a_decimal_draw_after_moves_is_a_terminator() -> None:
    """``0.5-0.5`` after moves (or a comment) ends the game as a draw written
    irregularly (W04), as it does standing alone: its ``0.`` is no move number."""
    for moves in ("1. 32-28 19-23 0.5-0.5", "1. 32-28 19-23 {c} 0.5-0.5", "0.5-0.5"):
        game = one('[GameType "20"]\n[Result "1-1"]\n\n' + moves + "\n")
        assert game.terminator is not None and game.terminator.text == "0.5-0.5", moves
        found = codes(game)
        assert "W04" in found and not {"W16", "E03"} & set(found), moves
        assert len(mainline_texts(game)) == (0 if moves == "0.5-0.5" else 2)
        assert not game.unread
    # a move number 0. still reads as one before a move
    game = one('[GameType "20"]\n\n0. 32-28 *\n')
    assert mainline_texts(game) == ["32-28"] and next(iter(game.mainline())).number == 0


def test_move_spelling_findings() -> None:
    game = one("1. 05-10 1- 6 2. 3228 24x 4 27-20* 19-23(!?!!!) A3-B4 *")
    found = codes(game)
    for code in ("W11", "W10", "W13", "W15", "W14"):
        assert code in found, code
    texts = mainline_texts(game)
    assert texts[:4] == ["5-10", "1-6", "32-28", "24x4"]
    nodes = list(game.mainline())
    assert nodes[4].nags == [7]
    assert nodes[5].move is not None and nodes[5].move.mark == "(!?!!!)"
    assert texts[6] == "a3-b4"


def test_placeholders_and_dots() -> None:
    game = one('[Result "*"]\n41. - - 42. 32-28 . 43. *')
    found = codes(game)
    assert found.count("W17") == 2
    assert "W18" in found
    assert "W16" in found  # 43. with no move


def test_empty_game_forms() -> None:
    assert "W19" in codes(one('[Event "x"]\n1. 0-2'))
    position_only = one('[FEN "W:W31-50:B1-20"] *')
    assert "W19" not in codes(position_only) and position_only.plies == 0


NAG_STARTS = "1. 32-28 18-23 ( $3 1... 19-23 ) ( {c} 1... $4 17-21 ) 2. 28-22 *"


@pytest.mark.parametrize("text", [NAG_STARTS, NAG_STARTS.replace("( ", "(").replace(" )", ")")])
def test_a_nag_before_the_first_move_of_a_variation_is_its_starting_nag(text: str) -> None:
    """As a NAG before the first move of a game is the game's own, one before the
    first move of a variation belongs to the variation's first node, not to the
    move before it nor to nothing (it was lost once)."""
    game = one('[Event "n"]\n\n' + text)
    first = game.variations[0]
    alternatives = first.variations[1:]
    assert [v.element_text() for v in first.variations] == ["18-23", "19-23", "17-21"]
    assert [v.starting_nags for v in alternatives] == [[3], [4]]
    assert [c.text for c in alternatives[1].starting_comments] == ["c"]
    assert [n.nags for n in [first, *first.variations]] == [[], [], [], []]
    assert game.nags == []
    assert codes(game) == ["W27"]  # no GameType: only that


def test_a_nag_before_a_nested_variation_and_a_detached_mark_start_it() -> None:
    game = one("1. 32-28 18-23 ( $3 1... 19-23 ( {x} $4 1... 17-21 ) ) ( !? 1... 16-21 ) *")
    first = game.variations[0]
    # the nested variation replaces 19-23, the first move of its line: it hangs beside it
    line, nested, detached = first.variations[1:]
    assert [line.element_text(), line.starting_nags] == ["19-23", [3]]
    assert [nested.element_text(), nested.starting_nags] == ["17-21", [4]]
    assert [c.text for c in nested.starting_comments] == ["x"]
    assert [detached.element_text(), detached.starting_nags] == ["16-21", [5]]
    assert [n.nags for n in first.variations] == [[], [], [], []]


def test_a_variation_without_a_move_is_reported_and_what_it_holds_is_kept() -> None:
    """``( {a comment} )``, ``( )`` and ``( $5 )`` hold no move: the tree has no line
    for them, so the parentheses go, with a finding (W83) at the '(' (once both went
    without a word); the comments and NAGs stay where the variation stood."""
    text = "1. 32-28 ( {only a comment} ) 18-23 ( ) 2. 28-22 ( $5 ) *"
    game = one('[Event "e"]\n\n' + text)
    first = game.variations[0]
    assert [c.text for c in first.comments] == ["only a comment"]
    assert first.next() is not None and first.next().next() is not None  # type: ignore[union-attr]
    assert first.next().next().nags == [5]  # type: ignore[union-attr]
    assert all(len(n.variations) <= 1 for n in game.mainline())
    found = [(i.code, i.line, i.column, i.in_variation) for i in game.issues if i.code == "W83"]
    assert found == [("W83", 3, 10, True), ("W83", 3, 37, True), ("W83", 3, 50, True)]
    messages = [i.message for i in game.issues if i.code == "W83"]
    assert "comment kept" in messages[0] and "dropped" in messages[1] and "$5" in messages[2]
    # Before any move of its line: the game's own, or the starting ones of a variation.
    game = one("( {c} $3 ) 1. 32-28 ( ( {x} ) 1. 33-28 ) *")
    assert [c.text for c in game.comments] == ["c"] and game.nags == [3]
    assert [v.element_text() for v in game.variations] == ["32-28", "33-28"]
    assert [c.text for c in game.variations[1].starting_comments] == ["x"]
    # A warning under --strict too: PDN 3.0 allows an empty variation.
    strict = one("1. 32-28 () 18-23 *", strict=True)
    assert [i.severity for i in strict.issues if i.code == "W83"] == [Severity.WARNING]
    # One never closed is E01, not W83 (its '(' is kept as text).
    assert "W83" not in codes(one("1. 32-28 ( $3 {c}"))


def test_setup_command_in_movetext() -> None:
    game = one('1. 32-28 /FEN "W:W31:B1"/ 31-27 *')
    kinds = [n.kind for n in game.mainline()]
    assert kinds == ["move", "setup", "move"]
    setup = list(game.mainline())[1]
    assert setup.fen == "W:W31:B1"


def test_variation_before_the_move_it_replaces_is_reattached() -> None:
    game = one("1. 34-30 {x} (1... 5-10) 1... 20-25 2. 30x19 *")
    first = game.next()
    assert first is not None
    assert [v.element_text() for v in first.variations] == ["20-25", "5-10"]
    assert "W20" in codes(game)


def test_tags_escapes_aliases_and_damage() -> None:
    game = one(
        '[Event "say \\"hi\\" C:\\\\dir"]\n[Bianco "Rossi"]\n[Empty]\n'
        '[Round "1 turno""]\n[Event "again"]\n1. 21-17 *'
    )
    assert game.tags[0].value == 'say "hi" C:\\dir'
    assert game.tag("White") == "Rossi"
    found = codes(game)
    assert "W07" in found and "W08" in found and found.count("W09") == 2
    assert game.tags[3].value == '1 turno"'


@pytest.mark.parametrize(
    ("header", "written"),
    [
        # the second tag is irregular: read by the general tag reading
        ('[Risultato "1-0"]\n[R&#x00e9;sultat "1-0"]', "'Risultato', then 'Résultat'"),
        # the second tag is plain: read in the run of plain tags
        ('[R&#x00e9;sultat "1-0"]\n[Risultato "1-0"]', "'Résultat', then 'Risultato'"),
        ('[Risultato "1-0"]\n[Risultato "1-0"]', "'Risultato'"),
        ('[Result "1-0"]\n[result "1-0"]', "'Result', then 'result'"),
    ],
)
def test_a_repeated_tag_is_named_by_the_standard_tag_it_was_read_as(
    header: str, written: str
) -> None:
    """W09 of a tag given twice under other names names the standard tag both were
    read as, and the names as written."""
    game = one(f'[Round "1"]\n[Round "2"]\n{header}\n\n1. 21-17 *\n')
    assert game.tag("Result") == "1-0"
    assert [i.message for i in game.issues if i.code == "W09"] == [
        "tag 'Round' appears more than once; the last value wins",
        f"tag 'Result' appears more than once (written {written}); the last value wins",
    ]


def test_localised_entities_in_tag_names() -> None:
    game = one('[R&#x00e9;sultat "1-1"]\n[Type de jeu "20"]\n1. 32-28 *')
    assert game.tags[0].name == "Résultat"
    assert game.tag("Result") == "1-1"
    assert game.variant == "international"
    # The finding quotes the name as written, entities and all, so that it can be
    # found in the file.
    (irregular,) = [issue for issue in game.issues if issue.code == "W07"][:1]
    assert "'R&#x00e9;sultat', read as Result" in irregular.message


def test_errors_have_positions_and_games_continue() -> None:
    games = read_string(
        '[Event "a"]\n1. 33-29 { nested { comment } } *\n'
        '[Event "b"]\n1. 32-28 ) 18-23 *\n'
        '[Event "c"]\n1. 32-28 8-11Redover. *\n'
        '[Event "d"]\n1. 31-27 *\n'
    )
    assert len(games) == 4
    e02 = next(i for i in games[0].issues if i.code == "E02")
    assert (e02.line, e02.column) == (2, 19)
    e01 = next(i for i in games[1].issues if i.code == "E01")
    assert (e01.line, e01.column) == (4, 10)
    e03 = next(i for i in games[2].issues if i.code == "E03")
    assert (e03.line, e03.column) == (6, 14) and "Redover." in e03.message
    assert [g.status for g in games] == ["error", "error", "error", "ok"]
    assert mainline_texts(games[1]) == ["32-28", "18-23"]


def test_unclosed_variation_is_reported_and_kept() -> None:
    game = one("1. 32-28 (1. 33-28 18-23 (1... 17-21 *")
    found = [i for i in game.issues if i.code == "E01"]
    assert found and found[0].column == 10
    assert mainline_texts(game) == ["32-28"]


def test_strict_mode_turns_deviations_into_errors() -> None:
    lenient = one("1. 1- 6 *")
    strict = one("1. 1- 6 *", strict=True)
    assert lenient.status == "warning"
    assert strict.status == "error"
    assert next(i for i in strict.issues if i.code == "W10").level is Severity.ERROR


def test_line_and_semicolon_comments() -> None:
    game = one('%preamble line\n[Event "x"]\n1. 32-28 ; rest of line\n18-23 *')
    assert [c.text for c in game.preamble] == ["preamble line"]
    first = game.next()
    assert first is not None and first.comments[0].kind == "semicolon"
    assert "W21" in codes(game)
    assert mainline_texts(game) == ["32-28", "18-23"]


def test_clock_commands_are_kept() -> None:
    game = one("1. 34-30 {[%clock w1:29:46 B1:29:40] note} 20-25 *")
    first = game.next()
    assert first is not None
    assert first.comments[0].commands() == [("clock", "w1:29:46 B1:29:40")]


def test_variant_inference() -> None:
    assert one("1. 32-28 18-23 *").variant == "international"
    assert one("1. 9-14 22-17 *").variant == "english"
    assert one("1. 22-18 10-14 *").variant == "italian"
    assert one("1. c3-d4 f6-g5 *").variant == "russian"
    assert one('[GameType "25"]\n1. c3-d4 *').variant == "russian"
    assert "W28" in codes(one('[GameType "97"]\n1. 32-28 *'))
    assert "W27" in codes(one('[GameType "20,W,10,10,N1,0"]\n1. 32-28 *'))


def test_positions_after_comments_spanning_lines() -> None:
    game = one("1. 32-28 {a\nb c} 18-23 $2 {d}\n  2. 38-32 *")
    first, second, third = list(game.mainline())
    assert (first.comments[0].line, first.comments[0].column) == (1, 10)
    assert first.comments[0].text == "a\nb c"
    assert (second.line, second.column, second.nags) == (2, 6, [2])
    assert [c.text for c in second.comments] == ["d"]
    assert (third.line, third.column, third.number) == (3, 6, 2)


def test_nags_and_fallbacks_inside_runs_attach_to_the_right_move() -> None:
    game = one("1. 32-28 $1 18-23 2. 38-32 $2 $3 12-18 3. 1- 6 $4 7-12 ( 3... 17-21 $5 ) *")
    nodes = list(game.mainline())
    assert [n.nags for n in nodes] == [[1], [], [2, 3], [], [4], []]
    assert game.plies == 6
    alternative = nodes[4].variations[1]
    assert alternative.element_text() == "17-21" and alternative.nags == [5]
    assert [i.ply for i in game.issues if i.code == "W10"] == [5]


def test_italian_anno_is_read_as_the_date() -> None:
    """Italian exporters write the date as ``Anno``, often the year alone."""
    game = one('[Anno "2005"]\n[GameType "22"]\n1. 21-17 *')
    assert game.tag("Date") == "2005"
    assert [(i.code, i.message) for i in game.issues] == [
        ("W07", "tag name 'Anno' read as Date"),
        ("W29", "Anno (Date) '2005' is not in the form YYYY.MM.DD"),
    ]
    assert [i.message for i in one('[Date "2005"]\n1. 32-28 *').issues if i.code == "W29"] == [
        "Date '2005' is not in the form YYYY.MM.DD"
    ]
    game = one('[Anno "2010.11.10"]\n[GameType "22"]\n1. 21-17 *')
    assert game.tag("Date") == "2010.11.10" and codes(game) == ["W07"]
    # Beside a Date, the Date tag is the date a lookup gives; both are kept.
    game = one('[Date "2010.11.10"]\n[Anno "2010"]\n[GameType "22"]\n1. 21-17 *')
    assert game.tag("Date") == "2010.11.10" and len(game.tags) == 3


def test_e01_covers_what_the_reader_reports_under_it() -> None:
    """The catalogue's E01 text names the constructs E01 is given for: a comment,
    a variation never closed and a ')' without '('; a tag whose '"' is never
    closed is not among them (its text is unrecognised, E03)."""
    from pdn_tools.diagnostics import CATALOGUE

    unclosed_quote = read_string('[Event "x]\n[GameType "20"]\n1. 32-28 19-23 *\n')
    found = {i.code for g in unclosed_quote for i in g.issues}
    assert "E03" in found and "E01" not in found
    text = CATALOGUE["E01"].description
    assert '"' not in text
    for construct in ("'{'", "'('", "')'"):
        assert construct in text
    for source in (
        "1. 32-28 {never closed 19-23 *",
        "1. 32-28 (1. 33-28 18-23 *",
        "1. 32-28 ) 18-23 *",
    ):
        assert "E01" in codes(one(source))


def test_a_malformed_square_is_e04_and_no_empty_game() -> None:
    """``0-5``, ``100-5`` and ``328`` are moves with a malformed square (E04), not
    unrecognised text, and the number before one is not an empty game's (W19) nor
    dangling (W16); its text is kept.  ``3228`` stays a move without separator."""
    for word in ("0-5", "00-05", "100-5", "328", "0x5x10"):
        game = one('[GameType "20"]\n[Result "*"]\n\n1. ' + word + " *\n")
        assert codes(game) == ["E04"], word
        (error,) = game.issues
        assert (error.line, error.column) == (4, 4) and error.context is not None
        assert [u.text for u in game.unread] == [word]
    game = one('[GameType "20"]\n\n1. 32-28 19-23 2. 0-5 *\n')
    assert codes(game) == ["E04"] and mainline_texts(game) == ["32-28", "19-23"]
    game = one('[GameType "20"]\n\n1. 3228 *\n')
    assert codes(game) == ["W13"] and mainline_texts(game) == ["32-28"]
    # An empty game is still one, and unrecognised text after a number no empty game.
    assert "W19" in codes(one('[GameType "20"]\n\n1. *\n'))
    assert codes(one('[GameType "20"]\n\n1. foo *\n')) == ["E03", "W16"]
