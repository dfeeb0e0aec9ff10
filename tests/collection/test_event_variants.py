"""Names mis-written in a game or two, joined to their player by the rounds.

A spelling of one or two games whose name differs from a player's by other initials,
a surname one letter off or two letters swapped is taken for that player only when
the rounds agree (``collection/events/roster.py``): its games fall in whole rounds
where the player has none, the player then misses a round at most, and no pairing
repeats.  The events here are built as round robins (a Berger table by the circle
method) and read by the real roster, event index, checks and crosstable; the command
line is run on a file of random legal games; the 2003 world championship of the
shared corpus is read where it lies.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run
from helpers import random_game_pdn
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.collection.events.facts import GameFacts
from pdn_tools.collection.events.index import EventIndex
from pdn_tools.collection.events.results import Choose, assess
from pdn_tools.collection.events.roster import Roster, variant_of
from pdn_tools.collection.events.rules import EventRules
from pdn_tools.pdn.players import parse_name
from pdn_tools.rules import variant_by_name

WK2003 = "rhalbersma__horizon/BoomstraDam/pdn files/oud/wk2003.pdn"

#: Eight players as the archives write them; the first four are the names the 2003
#: world championship mis-wrote once each.
EIGHT = (
    "Milshin,V",
    "Andall,A.K.",
    "Buzhinski,E.",
    "Erdenebileg,D.",
    "Francki, Jean",
    "Sijbrands,T.",
    "Georgiev,A.",
    "Schwarzman,A.",
)
#: (player, the spelling of one of its games, how the name differs)
KINDS = (
    ("Milshin,V", "Milshin,A", "other initials"),
    ("Andall,A.K.", "Andall,K.", "other initials"),
    ("Buzhinski,E.", "Buzhinksi,E.", "surname with two letters swapped"),
    ("Erdenebileg,D.", "Erdenebileg,A.", "other initials"),
    ("Francki, Jean", "Franchi, Jean", "surname one letter off"),
)

Pairing = tuple[int | None, str, str]
"""(round, White, Black)."""


def berger(players: list[str]) -> list[Pairing]:
    """A single round robin of *players* (circle method; a bye for an odd number),
    colours alternating: (round, White, Black) in round order."""
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    out: list[Pairing] = []
    for number in range(1, n):
        for board in range(n // 2):
            one, other = seats[board], seats[n - 1 - board]
            if one is None or other is None:
                continue
            white, black = (one, other) if (number + board) % 2 else (other, one)
            out.append((number, white, black))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return out


def misspelled(games: list[Pairing], player: str, spelling: str, round_: int) -> list[Pairing]:
    """*games* with *player* written *spelling* in its game of round *round_*."""
    out = []
    done = False
    for number, white, black in games:
        if number == round_ and player in (white, black):
            white = spelling if white == player else white
            black = spelling if black == player else black
            done = True
        out.append((number, white, black))
    assert done, (player, round_)
    return out


def roster(games: list[Pairing], rounds: bool = True) -> Roster:
    return Roster(
        [(white, black) for _number, white, black in games],
        rounds=[number for number, _white, _black in games] if rounds else None,
    )


def same(roster_: Roster, one: str, other: str) -> bool:
    return roster_.player(one) == roster_.player(other) != -1


# -- the name ------------------------------------------------------------------------


@pytest.mark.parametrize(("player", "spelling", "how"), KINDS)
def test_how_each_kind_of_name_differs(player: str, spelling: str, how: str) -> None:
    short, full = parse_name(spelling), parse_name(player)
    assert short is not None and full is not None
    assert short.key != full.key
    assert variant_of(short, full) == how


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Estebe, Gabriel", "Estebe, Rene"),  # full given names: never
        ("Kopp, Patrick", "Kopp, Vincent"),
        ("Buzhinksi,A.", "Buzhinski,E."),  # two differences
        ("Ba,B.", "Bo,B."),  # a short surname one letter off
        ("T. Sijbrands", "Ton Sijbrands"),  # the initials rule's business
        ("Milshin", "Milshin,V"),  # no initials: the initials rule's too
        ("Gerrit Jansen", "Gerard Jansen"),  # not known to be the surname
        ("Buzhinski,E.", "Buzhinski,E."),
    ],
)
def test_names_that_are_no_variant(one: str, other: str) -> None:
    short, full = parse_name(one), parse_name(other)
    assert short is not None and full is not None
    assert variant_of(short, full) is None and variant_of(full, short) is None


# -- the rounds ----------------------------------------------------------------------


def test_the_four_kinds_of_the_world_championship_join_their_player() -> None:
    games = berger(list(EIGHT))
    for n, (player, spelling, _how) in enumerate(KINDS):
        games = misspelled(games, player, spelling, n + 2)
    joined = roster(games)
    assert len(joined.players) == 8
    for player, spelling, how in KINDS:
        assert same(joined, spelling, player), spelling
        owner = joined.players[joined.player(player)]
        assert owner.joined == {spelling: how}
        assert owner.name == player  # a joined spelling is never the name shown
    apart = roster(games, rounds=False)
    assert len(apart.players) == 8 + len(KINDS)


def test_a_spelling_of_two_games_joins_and_of_three_does_not() -> None:
    games = misspelled(berger(list(EIGHT)), "Milshin,V", "Milshin,A", 2)
    games = misspelled(games, "Milshin,V", "Milshin,A", 5)
    assert same(roster(games), "Milshin,A", "Milshin,V")
    games = misspelled(games, "Milshin,V", "Milshin,A", 6)
    assert not same(roster(games), "Milshin,A", "Milshin,V")


def test_relatives_who_play_in_the_same_rounds_stay_apart() -> None:
    players = ["Andall,A.", "Andall,K.", *EIGHT[2:]]
    games = berger(players)
    both = roster(games)
    assert len(both.players) == 8 and not same(both, "Andall,A.", "Andall,K.")
    # a one-game spelling of the surname joins the one of them absent from its round
    games = misspelled(games, "Andall,K.", "Andall,B.", 4)
    one = roster(games)
    assert same(one, "Andall,B.", "Andall,K.") and not same(one, "Andall,A.", "Andall,K.")


def test_a_spelling_whose_round_the_player_plays_in_stays_apart() -> None:
    """A substitute with a near name who plays for someone else in a round where the
    player has a game of their own is another person."""
    games = berger(list(EIGHT))
    games = misspelled(games, "Georgiev,A.", "Milshin,A", 3)  # Milshin,V plays round 3
    found = roster(games)
    assert not same(found, "Milshin,A", "Milshin,V")
    assert len(found.players) == 9


def test_a_spelling_that_met_the_player_or_repeats_a_pairing_stays_apart() -> None:
    games = berger(list(EIGHT))
    # the substitute plays Milshin,V himself in round 4 (Milshin,V's opponent gone)
    (opponent,) = [
        w if b == "Milshin,V" else b
        for number, w, b in games
        if number == 4 and "Milshin,V" in (w, b)
    ]
    games = misspelled(games, opponent, "Milshin,A", 4)
    assert not same(roster(games), "Milshin,A", "Milshin,V")
    # a spelling in a round of its own, against a player Milshin,V met elsewhere
    games = berger(list(EIGHT))
    games = misspelled(games, "Milshin,V", "Milshin,A", 2)
    met = next(
        w if b == "Milshin,V" else b for n, w, b in games if n == 5 and "Milshin,V" in (w, b)
    )
    moved = [(n, w, b) for n, w, b in games if not (n == 2 and "Milshin,A" in (w, b))]
    moved.append((2, "Milshin,A", met))
    assert not same(roster(moved), "Milshin,A", "Milshin,V")


def test_no_rounds_no_join_by_a_different_initial() -> None:
    games = misspelled(berger(list(EIGHT)), "Milshin,V", "Milshin,A", 2)
    assert not same(roster(games, rounds=False), "Milshin,A", "Milshin,V")
    unknown = [(None if n == 2 else n, w, b) for n, w, b in games]
    assert not same(roster(unknown), "Milshin,A", "Milshin,V")
    assert not same(
        Roster([(w, b) for _n, w, b in games], rounds=[n for n, _w, _b in games], variants=False),
        "Milshin,A",
        "Milshin,V",
    )


def test_a_player_absent_from_many_rounds_is_no_evidence() -> None:
    """The spelling must fill the player's gap, not be one of several absences."""
    games = misspelled(berger(list(EIGHT)), "Milshin,V", "Milshin,A", 2)
    dropped = [g for g in games if not (g[0] in (5, 6) and "Milshin,V" in g[1:])]
    assert not same(roster(dropped), "Milshin,A", "Milshin,V")
    one_gap = [g for g in games if not (g[0] == 5 and "Milshin,V" in g[1:])]
    assert same(roster(one_gap), "Milshin,A", "Milshin,V")


def test_a_sparse_archive_is_no_evidence() -> None:
    """An archive of a few games a round: a player without a game in a round says
    nothing about who played in it."""
    games = misspelled(berger(list(EIGHT)), "Milshin,V", "Milshin,A", 2)
    kept = [
        g for g in games if "Milshin,V" in g[1:] or "Milshin,A" in g[1:] or "Sijbrands,T." in g[1:]
    ]
    assert not same(roster(kept), "Milshin,A", "Milshin,V")


def test_a_spelling_that_fits_two_players_joins_neither() -> None:
    players = ["Andall,A.", "Andall,K.", *EIGHT[2:]]
    games = berger(players)
    # the relatives' game with each other is lost; in its round a one-game Andall,B.
    # plays a newcomer: both relatives are absent from that round and met neither
    (number,) = [n for n, w, b in games if {w, b} == {"Andall,A.", "Andall,K."}]
    lost = [g for g in games if {g[1], g[2]} != {"Andall,A.", "Andall,K."}]
    lost.append((number, "Andall,B.", "Nieuwkomer,N."))
    found = roster(lost)
    assert found.player("Andall,B.") not in (found.player("Andall,A."), found.player("Andall,K."))


def test_a_match_joins_across_its_repeated_pairing() -> None:
    games: list[Pairing] = [
        (n, *(("Milshin,V", "Sijbrands,T.") if n % 2 else ("Sijbrands,T.", "Milshin,V")))
        for n in range(1, 11)
    ]
    games = misspelled(games, "Milshin,V", "Milshin,A", 7)
    assert same(roster(games), "Milshin,A", "Milshin,V")


# -- the event: verdicts, crosstable and W56 -----------------------------------------


def event_index(
    games: list[Pairing], results: list[int], rules: EventRules | None = None
) -> EventIndex:
    index = EventIndex(rules)
    for n, ((number, white, black), outcome) in enumerate(zip(games, results, strict=True)):
        facts = GameFacts(
            "Kampioenschap", "Utrecht", 2024, 0, None if number is None else str(number),
            white, black, "international", outcome, 1, 0, True, b"",
        )  # fmt: skip
        index.add_facts(facts, 0, "event.pdn", n + 1, 10 * n + 1)
    return index


def assessed(games: list[Pairing], results: list[int]) -> tuple[dict[str, Any], list[Any]]:
    """The crosstable of the one event of *games* and its findings."""
    index = event_index(games, results)
    (result,) = assess(index, tables=Choose()).results
    assert result.table is not None
    return result.table, result.findings


def standings(table: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings without the spellings (which name the joined ones)."""
    return [{k: v for k, v in line.items() if k != "spellings"} for line in table["standings"]]


def test_the_event_becomes_the_complete_round_robin() -> None:
    games = berger(list(EIGHT))
    results = [random.Random(n).choice((1, 2, 3)) for n in range(len(games))]
    clean, clean_findings = assessed(games, results)
    for n, (player, spelling, _how) in enumerate(KINDS):
        games = misspelled(games, player, spelling, n + 2)
    table, findings = assessed(games, results)
    assert clean["format"]["guess"] == table["format"]["guess"] == "round robin"
    assert table["players"] == 8 and table["completeness"] == 1.0
    assert standings(table) == standings(clean)
    assert clean_findings == [f for f in findings if f.code != "W56"]
    told = {f.message.split(" is spelled")[0]: f for f in findings if f.code == "W56"}
    assert set(told) == {repr(player) for player, _s, _h in KINDS}
    milshin = told["'Milshin,V'"]
    (game,) = [n + 1 for n, (_r, w, b) in enumerate(games) if "Milshin,A" in (w, b)]
    assert (
        f"'Milshin,A' (1, joined by the rounds: other initials; game {game} in round 2, "
        "where the player has no other game)" in milshin.message
    )
    assert [g.game for g in milshin.games] == [game]


# -- properties ----------------------------------------------------------------------

#: Surnames of letters no transliteration folds, pairwise three edits apart at least.
SURNAMES = (
    "Bardelin", "Fimbergal", "Gledarin", "Malbride", "Nerfidal", "Ribelmang", "Deglinar",
    "Lambrige", "Fendrabal", "Milvandre", "Bragmine", "Delfinger",
)  # fmt: skip
LETTERS = "bdfglmnrae"


def _distance(one: str, other: str) -> int:
    """Edit distance with neighbouring letters swapped as one edit (the test's own)."""
    rows = [list(range(len(other) + 1))]
    for i, a in enumerate(one, 1):
        row = [i]
        for j, b in enumerate(other, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


def test_the_generated_surnames_are_far_apart() -> None:
    for n, one in enumerate(SURNAMES):
        for other in SURNAMES[n + 1 :]:
            assert _distance(one.lower(), other.lower()) >= 3, (one, other)


@st.composite
def mistake(draw: st.DrawFn, surname: str, initial: str) -> str:
    """*surname*, *initial* mis-written one way: another initial, a letter replaced,
    added or left out, or two neighbouring letters swapped (no letter doubled, so that
    the folded names stay one edit apart)."""
    kind = draw(st.sampled_from(["initial", "replace", "add", "drop", "swap"]))
    word = surname.lower()
    if kind == "initial":
        other = draw(st.sampled_from([c for c in LETTERS if c != initial.lower()]))
        return f"{surname},{other.upper()}."

    def fine(text: str) -> bool:
        return all(a != b for a, b in itertools.pairwise(text))

    if kind == "swap":
        at = draw(st.sampled_from([n for n in range(len(word) - 1) if word[n] != word[n + 1]]))
        changed = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    elif kind == "drop":
        at = draw(st.integers(0, len(word) - 1))
        changed = word[:at] + word[at + 1 :]
    else:
        at = draw(st.integers(0, len(word) - (1 if kind == "replace" else 0)))
        letter = draw(st.sampled_from(LETTERS))
        rest = word[at + 1 :] if kind == "replace" else word[at:]
        changed = word[:at] + letter + rest
    if not fine(changed) or changed == word:
        changed = word[:-1] + ("b" if word[-1] != "b" and word[-2] != "b" else "d")
    return f"{changed.capitalize()},{initial}."


@settings(max_examples=60, deadline=None)
@given(data=st.data(), size=st.integers(4, 10))
def test_one_game_mistakes_join_back_to_the_same_crosstable(data: st.DataObject, size: int) -> None:
    players = [f"{s},{LETTERS[n].upper()}." for n, s in enumerate(SURNAMES[:size])]
    games = berger(players)
    results = data.draw(
        st.lists(st.sampled_from((1, 2, 3)), min_size=len(games), max_size=len(games))
    )
    clean, _ = assessed(games, results)
    chosen = data.draw(st.lists(st.integers(0, size - 1), unique=True, min_size=1, max_size=size))
    wrong = list(games)
    spellings: dict[str, str] = {}
    for n in chosen:
        rounds = sorted({r for r, w, b in wrong if players[n] in (w, b)})
        number = data.draw(st.sampled_from(rounds))
        spelling = data.draw(mistake(SURNAMES[n], LETTERS[n].upper()))
        wrong = misspelled(wrong, players[n], spelling, number)
        spellings[spelling] = players[n]
    found = roster(wrong)
    for spelling, player in spellings.items():
        assert same(found, spelling, player), (spelling, player, wrong)
    table, _ = assessed(wrong, results)
    assert standings(table) == standings(clean)
    assert table["players"] == size and table["completeness"] == clean["completeness"]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), size=st.integers(4, 10))
def test_a_distinct_player_with_a_near_name_is_never_joined(data: st.DataObject, size: int) -> None:
    """A substitute whose name is one mistake away from a player's, who plays one or
    two games for others in rounds where that player plays too, stays a player of
    its own; the player's own one-game mistake in another round still joins."""
    players = [f"{s},{LETTERS[n].upper()}." for n, s in enumerate(SURNAMES[:size])]
    games = berger(players)
    near = data.draw(st.integers(0, size - 1))
    substitute = data.draw(mistake(SURNAMES[near], LETTERS[near].upper()))
    played = sorted({r for r, w, b in games if players[near] in (w, b)})
    rounds = data.draw(st.lists(st.sampled_from(played), unique=True, min_size=1, max_size=2))
    wrong = list(games)
    for number in rounds:
        absent = data.draw(
            st.sampled_from(
                [
                    p
                    for p in players
                    if p != players[near] and any(r == number and p in (w, b) for r, w, b in wrong)
                ]
            )
        )
        wrong = misspelled(wrong, absent, substitute, number)
    own = [r for r in played if r not in rounds]
    mistaken = None
    if own and len(rounds) == 1 and data.draw(st.booleans()):
        # (a substitute of two games beside a player of two: either may be the one)
        mistaken = data.draw(mistake(SURNAMES[near], LETTERS[near].upper()))
        if mistaken != substitute:
            wrong = misspelled(wrong, players[near], mistaken, data.draw(st.sampled_from(own)))
        else:
            mistaken = None
    found = roster(wrong)
    assert not same(found, substitute, players[near]), (substitute, wrong)
    for player in players:
        assert not same(found, substitute, player)
    if mistaken is not None:
        assert same(found, mistaken, players[near]), (mistaken, wrong)


# -- the command line and the shared corpus ------------------------------------------


def test_the_command_line_tells_the_join(tmp_path: Path) -> None:
    games = misspelled(berger(list(EIGHT[:6])), "Milshin,V", "Milshin,A", 3)
    rng = random.Random(48)
    variant = variant_by_name("international")
    text = "".join(
        random_game_pdn(
            variant,
            rng,
            16,
            {
                "Event": "Kampioenschap",
                "Site": "Utrecht",
                "Date": f"2024.03.{number:02d}",
                "Round": str(number),
                "White": white,
                "Black": black,
                "Result": "*",
                "GameType": "20",
            },
        )
        for number, white, black in games
    )
    path = tmp_path / "kampioenschap.pdn"
    path.write_text(text, encoding="utf-8")
    done = run("events", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    (event,) = json.loads(done.stdout)["events"]
    assert event["players"] == 6 and event["format"]["guess"] == "round robin"
    assert event["completeness"] == 1.0
    done = run("validate", str(path), "--format", "jsonl", "--jobs", "1")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    (w56,) = [r for r in records if r.get("code") == "W56"]
    assert "'Milshin,A' (1, joined by the rounds: other initials; game" in w56["message"]
    assert "in round 3, where the player has no other game)" in w56["message"]
    done = run("events", str(path), "--format", "json", "--rule", "player-variants=no")
    (event,) = json.loads(done.stdout)["events"]
    assert event["players"] == 7 and event["format"]["guess"] != "round robin"


@pytest.mark.corpus
def test_the_2003_world_championship_is_a_complete_round_robin(corpus: Path) -> None:
    path = corpus / WK2003
    done = run("events", str(path), "--format", "json", "--crosstable")
    assert done.returncode == 0, done.stderr
    (event,) = json.loads(done.stdout)["events"]
    assert event["event"] == "WK 2003" and event["games"] == 190
    assert event["players"] == 20 and event["rounds"] == list(range(1, 20))
    assert event["format"]["guess"] == "round robin" and event["completeness"] == 1.0
    assert all(line["games"] == 19 for line in event["standings"])
    joined = {
        s["spelling"]: s["joined"]
        for line in event["standings"]
        for s in line["spellings"]
        if s["joined"] is not None
    }
    assert joined == {
        "Milshin,A": "other initials",
        "Andall,K.": "other initials",
        "Buzhinksi,E.": "surname with two letters swapped",
        "Erdenebileg,A.": "other initials",
    }
    opponents = [{c["opponent"] for c in line["cells"]} for line in event["standings"]]
    assert all(len(met) == 19 for met in opponents)  # every pairing met once
    done = run("validate", str(path), "--format", "jsonl", "--jobs", "1")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    told = [r for r in records if r.get("code") == "W56" and "joined by the rounds" in r["message"]]
    messages = " ".join(r["message"] for r in records if r.get("code") == "W56")
    for spelling, how, number in (
        ("Milshin,A", "other initials", 2),
        ("Andall,K.", "other initials", 11),
        ("Buzhinksi,E.", "surname with two letters swapped", 18),
        ("Erdenebileg,A.", "other initials", 1),
    ):
        assert f"'{spelling}' (1, joined by the rounds: {how}; game" in messages
        assert f"in round {number}, where the player has no other game" in messages
    assert len(told) == 4
    assert not any(r.get("code") in ("W50", "W52", "E50") for r in records)
