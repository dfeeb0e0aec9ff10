"""The 8x8 variants and the two international profiles: perft and the rules that tell
them apart, each shown on a small position whose legal moves differ between variants.

Squares are PDN numbers of each variant's board (rules.md §1.3, §1.4).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import random_placement
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import (
    Color,
    Position,
    Variant,
    legal_moves,
    parse_fen,
    path_text,
    perft,
    variant_by_name,
    variants,
)
from pdn_tools.rules.variant import (
    BRAZILIAN,
    CZECH,
    ENGLISH,
    IMMEDIATE_REMOVAL,
    INTERNATIONAL,
    ITALIAN,
    POOL,
    RUSSIAN,
    SHORT_LANDING,
    UNIFIED_POOL,
)

PERFT = {
    "english": [7, 49, 302, 1469, 7361],
    "italian": [7, 49, 302, 1469, 7361],
    "russian": [7, 49, 302, 1469, 7482],
    "brazilian": [7, 49, 302, 1469, 7473],
}
"""Independent counts from the start position (issue 7)."""


@pytest.mark.parametrize("name", sorted(PERFT))
def test_perft_from_the_start_position(name: str) -> None:
    variant = variant_by_name(name)
    start = Position.initial(variant)
    assert [perft(start, d, variant) for d in range(1, 6)] == PERFT[name]


def moves(fen: str, variant: Variant) -> list[tuple[str, bool]]:
    """(canonical full path, promotes) of every legal move, in engine order."""
    position = parse_fen(fen, variant).position
    return [(path_text(m, variant), m.promotes) for m in legal_moves(position, variant)]


def test_names_gametypes_and_profiles() -> None:
    names = [v.name for v in variants()]
    assert names == [
        "international",
        "english",
        "italian",
        "pool",
        "unified-pool",
        "russian",
        "brazilian",
        "czech",
        "immediate-removal",
        "short-landing",
        "itsyourturn",
        "itsyourturn-italian",
        "itsyourturn-polish",
        "itsyourturn-russian",
        "frisian",
        "turkish",
    ]
    assert variant_by_name("40").name == "frisian" and variant_by_name("30").name == "turkish"
    for number, variant in ((21, ENGLISH), (22, ITALIAN), (23, POOL), (25, RUSSIAN)):
        assert variant_by_name(str(number)) is variant
    assert variant_by_name("26") is BRAZILIAN and variant_by_name("29") is CZECH
    assert IMMEDIATE_REMOVAL.gametype is None and SHORT_LANDING.gametype is None


@pytest.mark.parametrize(
    ("profile", "base"),
    [
        ("itsyourturn", INTERNATIONAL),
        ("itsyourturn-italian", ITALIAN),
        ("itsyourturn-polish", IMMEDIATE_REMOVAL),
        ("itsyourturn-russian", RUSSIAN),
    ],
)
def test_itsyourturn_profiles_are_their_base_with_whole_board_repetition(
    profile: str, base: Variant
) -> None:
    """ItsYourTurn applies its repetition rule "in all games" and changes nothing else."""
    variant = variant_by_name(profile)
    assert variant.gametype is None
    assert base.draw_rules.repetition_includes_side_to_move
    assert not variant.draw_rules.repetition_includes_side_to_move
    same = replace(
        variant,
        name=base.name,
        gametype=base.gametype,
        aliases=base.aliases,
        draw_rules=replace(variant.draw_rules, repetition_includes_side_to_move=True),
    )
    assert same == base


def test_first_mover_and_start_position() -> None:
    for variant in (ENGLISH, POOL):
        assert Position.initial(variant).turn is Color.BLACK
    for variant in (ITALIAN, RUSSIAN, BRAZILIAN, CZECH):
        start = Position.initial(variant)
        assert start.turn is Color.WHITE
        assert start.men(Color.WHITE) == list(range(21, 33))
        assert start.men(Color.BLACK) == list(range(1, 13))


def test_unified_pool_is_pool_with_white_first() -> None:
    """The GameType table's unified pool row (23,W,8,8,A0,0) changes the first mover
    and nothing else; the number 23 alone stays American pool."""
    assert variant_by_name("23") is POOL and variant_by_name("unified-pool") is UNIFIED_POOL
    assert UNIFIED_POOL.gametype is None
    start = Position.initial(UNIFIED_POOL)
    assert start.turn is Color.WHITE
    assert start.men(Color.WHITE) == list(range(21, 33))
    assert start.men(Color.BLACK) == list(range(1, 13))
    same = replace(
        UNIFIED_POOL, name="pool", gametype=23, first_mover=Color.BLACK, aliases=POOL.aliases
    )
    assert same == POOL


def test_men_capture_backward_only_in_some_variants() -> None:
    # White man d4 (18), Black man c3 (22) behind it, b2 (25) empty.
    for variant in (RUSSIAN, BRAZILIAN, POOL):
        assert [m for m, _ in moves("W:W18:B22", variant)] == [f"18{variant.capture_separator}25"]
    for variant in (ENGLISH, CZECH):
        assert moves("W:W18:B22", variant) == [("18-14", False), ("18-15", False)]


def test_flying_against_short_kings() -> None:
    # A king on a1 (29) and a Black man on e5 (15), three squares away.
    assert moves("W:WK29:B15", RUSSIAN) == [("29:4", False), ("29:8", False), ("29:11", False)]
    assert moves("W:WK29:B15", CZECH) == [("29x4", False), ("29x8", False), ("29x11", False)]
    assert moves("W:WK29:B15", ENGLISH) == [("29-25", False)]


def test_italian_men_cannot_capture_kings() -> None:
    # Italian numbering: the man on d3 (22) faces c4 (18) with b5 (13) empty behind.
    assert moves("W:W22:B18", ITALIAN) == [("22x13", False)]
    assert moves("W:W22:BK18", ITALIAN) == [("22-19", False)]
    # The fast paths agree: no capture is compulsory, and the quiet move is legal.
    position = parse_fen("W:W22:BK18", ITALIAN).position
    assert perft(position, 1, ITALIAN) == 1


def test_italian_precedence() -> None:
    loose = replace(ITALIAN, capture_precedence=False)
    # (2) a capture by a king rather than by a man
    assert moves("W:W22,K27:B18,23", loose) == [("22x13", False), ("27x20", False)]
    assert moves("W:W22,K27:B18,23", ITALIAN) == [("27x20", False)]
    # (3) the sequence that takes a king
    assert moves("W:WK27:B23,K22", loose) == [("27x18", False), ("27x20", False)]
    assert moves("W:WK27:B23,K22", ITALIAN) == [("27x18", False)]
    # (4) two pieces and one king either way: the king met first
    fen = "W:WK30:BK26,18,27,K20"
    assert moves(fen, loose) == [("30x21x14", False), ("30x23x16", False)]
    assert moves(fen, ITALIAN) == [("30x21x14", False)]
    # (1) quantity still comes first
    assert perft(parse_fen(fen, ITALIAN).position, 1, ITALIAN) == 1


def test_czech_king_priority() -> None:
    # The king on a1 (29) can take b2 (25); the man on g3 (24) can take f4 (19).
    fen = "W:WK29,24:B25,19"
    czech = [m for m, _ in moves(fen, CZECH)]
    assert czech == ["29x4", "29x8", "29x11", "29x15", "29x18", "29x22"]
    russian = [m for m, _ in moves(fen, RUSSIAN)]
    assert russian == ["24:15", *(m.replace("x", ":") for m in czech)]
    assert perft(parse_fen(fen, CZECH).position, 1, CZECH) == 6
    # Without a king able to capture, the choice is free among the men.
    assert moves("W:W24:B19", CZECH) == [("24x15", False)]


def test_promotion_during_a_capture() -> None:
    # The man on f6 (11) takes e7 (7) and reaches d8 (2); c7 (6) is next to it.
    fen = "W:W11:B7,6"
    # Russian: crowned at once, continues as a flying king.
    assert moves(fen, RUSSIAN) == [("11:2:9", True), ("11:2:13", True)]
    # Brazilian and pool: continues as a man, not crowned.
    assert moves(fen, BRAZILIAN) == [("11x2x9", False)]
    assert moves(fen, POOL) == [("11x2x9", False)]
    # English: crowned, the move ends.
    assert moves(fen, ENGLISH) == [("11x2", True)]


def test_immediate_removal_lets_the_king_cross_again() -> None:
    fen = "W:WK11:B17,34,43"
    assert moves(fen, INTERNATIONAL) == [
        ("11x39x25", False),
        ("11x39x30", False),
        ("11x39x48", False),
    ]
    # With 34 gone at once, the king may pass its square again and take a third piece.
    assert sorted(m for m, _ in moves(fen, IMMEDIATE_REMOVAL)) == [
        "11x39x25x48",
        "11x39x48x25",
        "11x39x48x30",
    ]


def test_short_landing_profile() -> None:
    # The king stops directly behind the piece it captured.
    assert moves("W:WK25:B14,44", INTERNATIONAL) == [("25x3", False), ("25x9", False)]
    assert moves("W:WK25:B14,44", SHORT_LANDING) == [("25x9", False)]
    # A man crowned during a capture ends the move there (majority counts up to it).
    assert moves("W:W13:B8,7", INTERNATIONAL) == [("13x2x11", False)]
    assert moves("W:W13:B8,7", SHORT_LANDING) == [("13x2", True)]


def test_algebraic_fen_squares() -> None:
    assert parse_fen("W:Wc3:Bd4", RUSSIAN).position == parse_fen("W:W22:B18", RUSSIAN).position
    assert moves("W:Wc3:Bd4", RUSSIAN) == [("22:15", False)]


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.name)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_fast_paths_agree_with_full_generation(variant: Variant, seed: int) -> None:
    """Perft's bulk counting and raw move lists (whole-board shifts, one-jump tables)
    agree with the full generator on random positions with kings, in every variant."""
    rng = random.Random(seed)
    for _ in range(8):
        position = random_placement(rng, variant, 14, ("wm", "wk", "bm", "bk", "wm", "bm"))
        legal = legal_moves(position, variant)
        assert perft(position, 1, variant) == len(legal)
        slow = sum(len(legal_moves(position.apply(m), variant)) for m in legal)
        assert perft(position, 2, variant) == slow
        if any(m.captures for m in legal):
            assert all(m.captures for m in legal)
