"""Player names: one key for the spellings of one name, never one for two people.

A hypothesis property checks the documented transformations (word order, letter
case, spaces, diacritics, Cyrillic written in Latin by the documented table, titles,
ratings, countries and notes in brackets, round numbers glued by exporters): every
spelling made from one name by them has the name's key, and with initials
(``T. Sijbrands``) every spelling joins the one player of an event.  A second property
checks the other side: people who share a surname but not their given names (or
initials) never share a key, and a spelling with initials that fits two of them joins
neither.  Then a table of real spellings of the shared corpus, with pairs that must
not merge; a corpus test checks that each of them does occur there.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pdn_tools.collection.events.roster import Roster
from pdn_tools.pdn.players import (
    CYRILLIC,
    NO_PLAYER,
    TITLES,
    compatible,
    fold_word,
    parse_name,
    player_key,
)

LATIN = "abcdefghijklmnoprstuvwz" + "éèêëáàäöüñçíóú"
CYRILLIC_LETTERS = "абвгдежзиклмнопрстуфхцчшыэюя"


def word(alphabet: str) -> st.SearchStrategy[str]:
    """A name word: three to nine letters, capitalised, that is no title or side."""
    return (
        st.text(alphabet, min_size=3, max_size=9)
        .map(str.capitalize)
        .filter(lambda w: w.upper() not in TITLES and w.casefold() not in NO_PLAYER)
    )


def latin_name() -> st.SearchStrategy[tuple[list[str], list[str]]]:
    return st.tuples(st.lists(word(LATIN), min_size=1, max_size=2),
                     st.lists(word(LATIN), min_size=1, max_size=2))  # fmt: skip


def cyrillic_name() -> st.SearchStrategy[tuple[list[str], list[str]]]:
    return st.tuples(st.lists(word(CYRILLIC_LETTERS), min_size=1, max_size=1),
                     st.lists(word(CYRILLIC_LETTERS), min_size=1, max_size=2))  # fmt: skip


def plain(text: str) -> str:
    """*text* without diacritics (the documented transformation)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def latin(text: str) -> str:
    """*text* in Latin letters by the documented Cyrillic table."""
    return "".join(
        CYRILLIC.get(c.lower(), c).capitalize() if c.isupper() else CYRILLIC.get(c, c) for c in text
    )


def spelling(draw: st.DrawFn, given_names: list[str], surname: list[str]) -> str:
    """One spelling of the name by the documented transformations, drawn."""
    words_given, words_surname = list(given_names), list(surname)
    script = draw(st.sampled_from(["as is", "plain", "latin"]))
    change = {"as is": str, "plain": plain, "latin": latin}[script]
    words_given = [change(w) for w in words_given]
    words_surname = [change(w) for w in words_surname]
    case = draw(st.sampled_from(["as is", "upper", "lower", "surname upper"]))
    if case == "upper":
        words_given = [w.upper() for w in words_given]
        words_surname = [w.upper() for w in words_surname]
    elif case == "lower":
        words_given = [w.lower() for w in words_given]
        words_surname = [w.lower() for w in words_surname]
    elif case == "surname upper":
        words_surname = [w.upper() for w in words_surname]
    given_text, surname_text = " ".join(words_given), " ".join(words_surname)
    order = draw(st.sampled_from(["comma", "comma tight", "first last", "last first"]))
    text = {
        "comma": f"{surname_text}, {given_text}",
        "comma tight": f"{surname_text},{given_text}",
        "first last": f"{given_text} {surname_text}",
        "last first": f"{surname_text} {given_text}",
    }[order]
    title = draw(st.sampled_from(["", "GMI ", "MI ", "MF ", "GM "]))
    text = title + text
    suffix = draw(st.sampled_from(["", " 2400", " (NED)", " [2351]", " - ronde 3", " (7)"]))
    spaces = draw(st.sampled_from(["", "  ", " "]))
    return spaces + text.replace(" ", " " + spaces) + suffix + spaces


def initials(draw: st.DrawFn, given_names: list[str], surname: list[str]) -> str:
    """A spelling with the given names as initials (the event joins it)."""
    letters = [w[0].upper() for w in given_names]
    form = draw(st.sampled_from(["dotted", "comma", "comma spaced"]))
    surname_text = " ".join(surname)
    if form == "dotted":
        return " ".join(f"{c}." for c in letters) + " " + surname_text
    joined = "".join(f"{c}." for c in letters)
    return f"{surname_text},{joined}" if form == "comma" else f"{surname_text}, {joined}"


@settings(max_examples=300, deadline=None)
@given(name=st.one_of(latin_name(), cyrillic_name()), data=st.data())
def test_spellings_of_one_name_get_one_key(
    name: tuple[list[str], list[str]], data: st.DataObject
) -> None:
    given_names, surname = name
    reference = player_key(" ".join([*given_names, *surname]))
    assert reference is not None
    spellings = [spelling(data.draw, given_names, surname) for _ in range(4)]
    for text in spellings:
        assert player_key(text) == reference, (text, parse_name(text))
    short = initials(data.draw, given_names, surname)
    roster = Roster([(s, "Opponent Other") for s in [*spellings, short]])
    players = {roster.player(s) for s in [*spellings, short]}
    assert len(players) == 1 and -1 not in players, (spellings, short)


@settings(max_examples=300, deadline=None)
@given(
    surname=st.lists(word(LATIN), min_size=1, max_size=2),
    first=word(LATIN),
    second=word(LATIN),
    data=st.data(),
)
def test_different_given_names_never_merge(
    surname: list[str], first: str, second: str, data: st.DataObject
) -> None:
    assume(fold_word(first) != fold_word(second))
    one = spelling(data.draw, [first], surname)
    other = spelling(data.draw, [second], surname)
    assert player_key(one) != player_key(other), (one, other)
    short_one = initials(data.draw, [first], surname)
    short_other = initials(data.draw, [second], surname)
    spellings = [one, other, short_one, short_other]
    roster = Roster([(s, "Opponent Other") for s in spellings])
    assert roster.player(one) != roster.player(other)
    for short, mine, theirs in ((short_one, first, second), (short_other, second, first)):
        # an initial stands for a word whose folded first letter, or first letter as
        # written (folded), it is: Tsjizjow (chizhov) is T. and C.
        initial = fold_word(mine[0])
        if initial in {fold_word(theirs)[0], fold_word(theirs[0])}:  # fits both: neither
            assert roster.player(short) not in (roster.player(one), roster.player(other))
        else:
            own = roster.player(one if mine is first else other)
            assert roster.player(short) == own, (short, spellings)


#: Spellings of one name in the shared corpus: one key each.
ONE_KEY = [
    ("Sijbrands, Ton", "Ton Sijbrands"),
    ("Sijbrands,T.", "T. Sijbrands"),
    ("Alexander Schwarzman", "Alexander Shvartsman"),
    ("Alexei Chizhov", "Alexey Chizhov"),
    ("D' AMORE Raffaele", "D'AMORE RAFFAELE", "D'AMORE Raffaele", "D'Amore Raffaele"),
    ("Bertè Daniele", "Berté Daniele", "Daniele Bertè"),
    ("FOUCHER Jean-Pierre", "Foucher, Jean Pierre", "Foucher, Jean-Pierre",
     "Foucher,J.(Jean-Pierre)"),
    ("Milsjin,W.", "Milshin,V", "Milshin,V."),
    ("Veytsman,V", "Veytsman,V.", "Weitsman,V."),
    ("Boezjinski,E.", "Buzhinski,E", "Buzhinski,E."),
    ("Koifman,I.", "Koyfman,Y"),
    ("Kooij,van der,W. (Wim)", "Wim van der Kooij"),
    ("Almanza, Antoine - ronde 2", "Almanza, Antoine"),
    ("Bubbi Raoul (non disponibile)", "Bubbi Raoul"),
    ("W. F. Ryan", "W.F. Ryan", "WF Ryan", "Wm. F. Ryan"),
    ("Basset, Didier", "BASSET Didier", "Didier, Basset"),
    ("LO GALBO SANTO", "LO GALBO Santo", "Santo Lo Galbo"),
    ("Koops, Lambert Jan", "Koops, Lambert-Jan", "koops, Lambert Jan"),
    ("GUTTA'  Giuseppe", "Gutta Giuseppe", "Giuseppe Guttà"),
    ("KALFON Gilbert", "KALFON Gillbert"),
]  # fmt: skip

#: Spellings of the corpus that one event takes for one player (initials, fewer
#: initials, a surname alone), though their keys differ.
ONE_PLAYER_IN_AN_EVENT = [
    ("Ton Sijbrands", "T. Sijbrands", "Sijbrands,T."),
    ("MF Tinsley", "M Tinsley", "Tinsley"),
    ("Andall,A.K.", "Andall,A."),
    ("Jean Marc Ndjofang", "Ndjofang, J.M.", "Ndjofang,J."),
    ("Alexander Schwarzman", "A. Schwarzman", "Aleks. Schwarzman", "Schwarzman,A."),
    ("Alexey Chizhov", "Tsjizjow,A."),
    ("Rob Clerc", "Clerc,R."),
    ("Alexander Georgiev", "A. Georgiev", "Georgiev,A."),
]

#: Spellings of the corpus that share a surname and that the name alone never makes
#: one key or one player: different people, or a name mis-written in one game that
#: only the rounds of its event join (Milshin,A, Erdenebileg,A., Andall,K.:
#: tests/collection/test_event_variants.py).
NEVER_MERGED = [
    ("Романов В.А.", "Романов В.Н."),
    ("Блиндер Б.", "Блиндер С."),
    ("Milshin,A", "Milshin,V"),
    ("Estebe, Gabriel", "Estebe, Rene"),
    ("Kopp, Patrick", "Kopp, Vincent"),
    ("Erdenebileg,A.", "Erdenebileg,D."),
    ("Vejvodova,K.", "Vejvodova,M."),
    ("Katny, Samuel", "Katny, Tymoteusz"),
    ("CORTESE Gerardo", "CORTESE Gianni"),
    ("SCIUTO CARMELO", "SCIUTO DAMIANO"),
    ("MAIJNELLI Antonino", "MAIJNELLI MICHELE"),
    ("Andall,A.", "Andall,K."),
    ("Padzik, Lukasz", "Padzik, Mateusz"),
    ("Jansen,G.", "Jansen,H."),
    ("Gangaram-Panday, Keshopersad", "Gangaram-Panday, Ramanand"),
    ("NEGRONE FRANCESCO", "NEGRONE LUCIANO"),
    ("Bankowska, Marta", "Bankowski, Bogdan"),
    ("Estebe, Gabriel", "Estebe, René"),
]


@pytest.mark.parametrize("spellings", ONE_KEY, ids=lambda s: s[0])
def test_real_spellings_of_one_name_get_one_key(spellings: tuple[str, ...]) -> None:
    keys = {player_key(text) for text in spellings}
    assert len(keys) == 1 and None not in keys, {t: player_key(t) for t in spellings}


@pytest.mark.parametrize("spellings", ONE_PLAYER_IN_AN_EVENT, ids=lambda s: s[0])
def test_real_spellings_join_in_an_event(spellings: tuple[str, ...]) -> None:
    full = parse_name(spellings[0])
    assert full is not None
    roster = Roster([(s, "Somebody Else") for s in spellings])
    assert {roster.player(s) for s in spellings} == {roster.player(spellings[0])}
    assert roster.players[roster.player(spellings[0])].name == spellings[0]
    for text in spellings[1:]:
        short = parse_name(text)
        assert short is not None and compatible(short, full)


@pytest.mark.parametrize("pair", NEVER_MERGED, ids=lambda p: f"{p[0]} / {p[1]}")
def test_real_different_people_are_never_merged(pair: tuple[str, str]) -> None:
    one, other = pair
    assert player_key(one) != player_key(other)
    roster = Roster([(one, "Somebody Else"), (other, "Somebody Else")])
    assert roster.player(one) != roster.player(other)


def test_a_spelling_that_fits_two_players_joins_neither() -> None:
    roster = Roster(
        [("Sijbrands, Ton", "X Y"), ("Sijbrands, Tjalling", "X Y"), ("T. Sijbrands", "X Y")]
    )
    assert (
        len({roster.player(s) for s in ("Sijbrands, Ton", "Sijbrands, Tjalling", "T. Sijbrands")})
        == 3
    )
    surname_only = Roster(
        [("Padzik, Lukasz", "X Y"), ("Padzik, Mateusz", "X Y"), ("Padzik", "X Y")]
    )
    assert surname_only.player("Padzik") not in (
        surname_only.player("Padzik, Lukasz"),
        surname_only.player("Padzik, Mateusz"),
    )
    one = Roster([("Katny, Samuel", "X Y"), ("Katny, Tymoteusz", "X Y"), ("Katny, S.", "X Y")])
    assert one.player("Katny, S.") == one.player("Katny, Samuel")


def test_opponents_are_never_one_player() -> None:
    """Two spellings that played each other are two people, whatever they fit."""
    roster = Roster([("T. Sijbrands", "Ton Sijbrands")])
    assert roster.player("T. Sijbrands") != roster.player("Ton Sijbrands")
    assert Roster([("Ton Sijbrands", "X Y"), ("T. Sijbrands", "Z W")]).player(
        "T. Sijbrands"
    ) == Roster([("Ton Sijbrands", "X Y"), ("T. Sijbrands", "Z W")]).player("Ton Sijbrands")


@pytest.mark.parametrize(
    "text", ["", "?", "-", "N.N.", "White", "black", "Wit", "Zwart", "Bianco", "Red", None]
)
def test_what_names_no_player(text: str | None) -> None:
    assert parse_name(text) is None and player_key(text) is None


def test_titles_that_are_initials_are_kept() -> None:
    """``MF Tinsley`` is Marion F. Tinsley: a two-letter title before a surname alone
    stays initials; before a full name it is a title."""
    assert player_key("MF Tinsley") == "tinslei|mf"
    assert player_key("MF Ton Sijbrands") == player_key("Ton Sijbrands")
    assert player_key("GMI Sijbrands") == player_key("Sijbrands")


@pytest.mark.corpus
@pytest.mark.corpus_wide
def test_the_table_spellings_occur_in_the_shared_corpus(corpus: Path) -> None:
    """Every spelling of the tables above is written in a White or Black tag of the
    shared corpus (in UTF-8 or the legacy code page of its file)."""
    wanted = {
        s
        for table in (ONE_KEY, ONE_PLAYER_IN_AN_EVENT, NEVER_MERGED)
        for group in table
        for s in group
    }
    found: set[str] = set()
    for path in sorted(corpus.rglob("*.pdn")):
        data = path.read_bytes()
        for text in wanted - found:
            for encoding in ("utf-8", "cp1252", "cp1251"):
                try:
                    raw = text.encode(encoding)
                except UnicodeEncodeError:
                    continue
                if b'"' + raw + b'"' in data:
                    found.add(text)
                    break
    assert wanted - found == set()


def test_many_spellings_that_share_a_word_stay_apart() -> None:
    """An online event of numbered guests: each spelling is compared only with the
    players holding all of its words, so thousands of them are settled at once."""
    pairings = [(f"Guest {n}", f"Guest {n + 1}") for n in range(0, 6000, 2)]
    roster = Roster(pairings)
    assert len(roster.players) == 6000
    assert roster.player("Guest 4") != roster.player("Guest 40")
