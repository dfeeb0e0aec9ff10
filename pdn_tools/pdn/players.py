"""Player names: one key for the spellings of one name, and what a spelling says.

Archives spell one player many ways: ``Sijbrands, Ton``, ``Ton Sijbrands``,
``SIJBRANDS Ton``, ``GMI Ton Sijbrands (NED) 2400``, ``Sijbrands,T.``,
``T. Sijbrands``; ``Чижов А.``, ``Tsjizjow,A.``, ``Alexei Chizhov``.  :func:`parse_name`
reads a spelling into a :class:`PlayerName` — its full words and its initials,
folded so that spellings of one name agree — and :attr:`PlayerName.key` is the key
of the name alone (the ``white_key`` and ``black_key`` of the exports).

What the key ignores (docs/collections.md, Player names, is the user's version):

* the order of the words: ``Last, First``, ``First Last``, ``LAST First``;
* letter case, spaces, apostrophes (``D'AMORE``, ``D' Amore``), hyphens between
  given names (``Jean-Pierre``, ``Jean Pierre``);
* diacritics (``Bertè``, ``Berte``) and the letters they stand for (``ø``, ``ß``, ``ł``);
* the alphabet and the transliteration: Cyrillic is written in Latin letters, and
  the spellings that Dutch, German, French and English transliterations give of one
  Cyrillic name are folded together (``sch``/``sh``, ``tsj``/``tch``/``ch``,
  ``zj``/``zh``, ``oe``/``ou``/``u``, ``w``/``v``, ``ts``/``tz``/``z``, ``j``/``y``/``i``,
  ``k``/``c``, ``x``/``ks``, doubled letters), so ``Tsjizjow``, ``Chizhov`` and
  ``Чижов`` give one word;
* titles before or after the name (``GMI``, ``MI``, ``MF``, ``GM``, …), kept when
  removing one would leave no given name (``MF Tinsley`` is Marion F. Tinsley);
* a rating after a name of two words or more (``2400``, ``(2400)``; ``Guest 1234``
  keeps its number), a country or anything else in brackets
  (``(NED)``, ``[FRA]``, ``(non disponibile)``), and a round number glued to the
  name by some exporters (``Almanza, Antoine - ronde 2``).

Initials are kept apart: ``T. Sijbrands`` has the key ``sibrands|t``, not that of
``Ton Sijbrands`` (``sibrands ton``), because the name alone cannot tell Ton from
Tjalling.  Within one event the context can (:func:`compatible`, used by
``pdn_tools.collection.events.roster``): a spelling with initials is the player whose
full name fits it when exactly one player of the event fits.

A bracket that spells out the initials before it (``Foucher,J.(Jean-Pierre)``) gives
the given names.  Words that only say which side played (``White``, ``Black``,
``Wit``, ``Zwart``, ``Red``, ``Bianco``, ``Nero``, …), ``?``, ``-`` and ``N.N.`` are
no player: :func:`parse_name` returns None.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from dataclasses import dataclass, field

#: Cyrillic letters in Latin, before the spelling folds (a plain scientific-style table).
CYRILLIC: dict[str, str] = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
    "з": "z", "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts",
    "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
    "я": "ya", "і": "i", "ї": "yi", "є": "ye", "ґ": "g", "ў": "u",
}  # fmt: skip
#: Latin letters that are no letter with a diacritic (so NFKD leaves them whole).
LETTERS: dict[str, str] = {
    "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
    "ı": "i", "ŀ": "l",
}  # fmt: skip
#: The spelling folds, in order: several transliterations of one sound become one.
FOLDS: tuple[tuple[str, str], ...] = (
    ("tsch", "ch"), ("tsj", "ch"), ("tch", "ch"), ("sch", "sh"), ("zj", "zh"),
    ("sj", "sh"), ("kh", "h"), ("ph", "f"), ("ck", "k"), ("x", "ks"), ("oe", "u"),
    ("ou", "u"), ("w", "v"), ("ts", "z"), ("tz", "z"), ("j", "i"), ("y", "i"),
    ("k", "c"),
)  # fmt: skip
#: Titles written before or after a name (upper case as written, a dot allowed).
TITLES = frozenset(
    {
        "GMI", "MI", "MF", "MN", "CMF", "GMIF", "MIF", "MFF", "MNF", "GM", "IM", "FM",
        "CM", "WGM", "WIM", "WFM", "WCM", "DR", "PROF", "MR", "MRS", "MS",
    }
)  # fmt: skip
#: Words that stand for a side, not a player, and other ways to say "unknown".
NO_PLAYER = frozenset(
    {
        "", "?", "??", "-", "--", "n.n.", "nn", "n.n", "unknown", "white", "black",
        "red", "wit", "zwart", "blanc", "blancs", "noir", "noirs", "bianco", "nero",
        "weiss", "weiß", "schwarz", "blancas", "negras", "белые", "черные", "чёрные",
    }
)  # fmt: skip

_ROUND_SUFFIX = re.compile(
    r"\s+-\s+(?:ronde|round|rd\.?|runde|turno|tour|ронда|тур)\s*\d+\s*\Z", re.IGNORECASE
)
_BRACKETS = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]|\{([^{}]*)\}")
_PARTICLE = re.compile(r"\b([^\W\d_]{1,3})['’`´]\s+")
"""A particle and its apostrophe before a space (``D' AMORE``): glued to the word after."""
_APOSTROPHES = re.compile(r"['’`´\\]+")
_RATING = re.compile(r"[123]\d{3}\Z")
"""A rating after a name (1000-3999); only taken off when two words or more remain."""
_INITIALS = re.compile(r"(?:[^\W\d_](?:\.\s*-?\s*|-\s*))*[^\W\d_]\.?\Z")
"""Letters each followed by a dot or a hyphen (``T.``, ``A.J.``, ``J.-P.``, ``J-P``)."""
_ABBREVIATION = re.compile(r"[^\W\d_]{2,}\.\Z")
_SPLIT = re.compile(r"[\s\-]+")


def fold_word(word: str) -> str:
    """One word as keys compare it: lower case, Latin letters without diacritics,
    the spelling folds applied, no doubled letters; digits kept, other signs dropped."""
    text = word.casefold()
    out: list[str] = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char):
            continue
        char = CYRILLIC.get(char, LETTERS.get(char, char))
        out.append(char)
    text = "".join(ch for ch in "".join(out) if ch.isalnum())
    if not text.isascii():
        return text
    for old, new in FOLDS:
        if old in text:
            text = text.replace(old, new)
    return _undouble(text)


def _undouble(text: str) -> str:
    out: list[str] = []
    for char in text:
        if not out or out[-1] != char or char.isdigit():
            out.append(char)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class PlayerName:
    """What one spelling says about a player.

    ``words``: the full words of the name (surname and given names), folded
    (:func:`fold_word`), in the order written; ``initials``: the initials (and the
    first letters of abbreviations such as ``Aleks.``), folded, in the order written;
    ``surname``: the words known to be the surname (written before a comma, or in
    capitals beside words that are not), empty when the order cannot be told;
    ``starts``: the first letter of each word as written, folded (``Tsjizjow`` is
    ``chizhov`` but starts with ``t``: either may stand for it as an initial).
    """

    spelling: str
    words: tuple[str, ...]
    initials: str
    surname: tuple[str, ...] = ()
    starts: str = ""
    key: str = field(init=False, compare=False)
    """The key of the name alone: its words sorted, then ``|`` and the initials when
    it has any (``sibrands ton``, ``sibrands|t``)."""

    def __post_init__(self) -> None:
        text = " ".join(sorted(self.words))
        object.__setattr__(self, "key", f"{text}|{self.initials}" if self.initials else text)

    @property
    def detail(self) -> tuple[int, int]:
        """How much the spelling says: full words, then initials (the more, the
        better a spelling serves as the canonical one)."""
        return len(self.words), len(self.initials)


def clean_spelling(text: str) -> str:
    """A spelling as shown: spaces collapsed, a glued round number removed."""
    text = " ".join(text.split())
    return _ROUND_SUFFIX.sub("", text)


def parse_name(text: str | None) -> PlayerName | None:
    """Read a White or Black tag value; None when it names no player.  The readings
    of the latest few thousand spellings are kept (spellings repeat from game to game
    and from event to event)."""
    if text is None:
        return None
    return _parse(text)


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> PlayerName | None:
    spelling = clean_spelling(text)
    if spelling.casefold() in NO_PLAYER:
        return None
    main, expansion = _brackets(spelling)
    main = _APOSTROPHES.sub("", _PARTICLE.sub(r"\1", main))
    parts = [part.strip() for part in main.split(",")]
    parts = [part for part in parts if part]
    if not parts:
        return None
    if len(parts) in (2, 3):
        surname_text = parts[0] if len(parts) == 2 else f"{parts[1]} {parts[0]}"
        surname = _words(_strip_titles(surname_text.split(), True))
        given_tokens = _strip_titles(parts[-1].split(), bool(surname))
        words, initials = _given(given_tokens)
        if expansion and not words and initials:
            spelled = _words(expansion.split())
            if spelled and initials[0] in (spelled[0][0][0], spelled[0][1]):
                words, initials = spelled, ""
        if not surname and not words and not initials:
            return None
        every = surname + words
        return PlayerName(
            spelling,
            tuple(w for w, _ in every),
            initials,
            tuple(w for w, _ in surname),
            "".join(start for _, start in every),
        )
    return _plain(spelling, " ".join(parts).split())


def _brackets(spelling: str) -> tuple[str, str]:
    """The spelling without its bracketed parts, and the text of the first one."""
    found = [next(g for g in m.groups() if g is not None) for m in _BRACKETS.finditer(spelling)]
    main = _BRACKETS.sub(" ", spelling)
    return main, (found[0].strip() if found else "")


def _strip_titles(tokens: list[str], other_words: bool) -> list[str]:
    """*tokens* without a title before or after them, unless removing it would leave
    no name (*other_words*: words outside *tokens* remain)."""
    out = list(tokens)
    while len(out) > 1 or (out and other_words):
        if _is_title(out[0]) and (len(out) > 2 or other_words or len(out[0].rstrip(".")) >= 3):
            out.pop(0)
        elif _is_title(out[-1]) and (len(out) > 2 or other_words):
            out.pop()
        else:
            break
    while (len(out) > 2 or (len(out) > 1 and other_words)) and _RATING.match(out[-1]):
        out.pop()  # a rating; "Guest 1234", one word and a number, is a name
    return out


def _is_title(token: str) -> bool:
    bare = token.rstrip(".")
    return bare.upper() in TITLES and (bare.isupper() or token.endswith(".") or len(bare) > 3)


def _is_initials(token: str, caps_are_initials: bool) -> bool:
    if _INITIALS.match(token) or _ABBREVIATION.match(token):
        return True
    return caps_are_initials and token.isalpha() and token.isupper() and len(token) <= 2


def _initials_of(token: str) -> str:
    if _ABBREVIATION.match(token):
        return fold_word(token)[:1]
    return "".join(fold_word(ch)[:1] for ch in token if ch.isalpha())


def _words(tokens: list[str]) -> list[tuple[str, str]]:
    """The words of *tokens* (hyphens part them), folded, each with its first letter
    as written, folded."""
    out: list[tuple[str, str]] = []
    for token in tokens:
        for piece in _SPLIT.split(token):
            folded = fold_word(piece)
            if folded:
                start = next((fold_word(ch)[:1] for ch in piece if fold_word(ch)), folded[0])
                out.append((folded, start))
    return out


def _given(tokens: list[str]) -> tuple[list[tuple[str, str]], str]:
    """The full words and the initials of the given-name part of a comma form."""
    words: list[tuple[str, str]] = []
    initials = ""
    for token in tokens:
        if _is_initials(token, True):
            initials += _initials_of(token)
        else:
            words.extend(_words([token]))
    return words, initials


def _plain(spelling: str, tokens: list[str]) -> PlayerName | None:
    """A name without a comma: ``Ton Sijbrands``, ``T. Sijbrands``, ``CORTESE Gerardo``."""
    tokens = _strip_titles(tokens, False)
    long_caps = any(t.isupper() and sum(c.isalpha() for c in t) >= 3 for t in tokens)
    mixed = any(not t.isupper() for t in tokens if any(c.isalpha() for c in t))
    words: list[tuple[str, str]] = []
    surname: list[str] = []
    initials = ""
    for token in tokens:
        if _is_initials(token, mixed and not long_caps):
            initials += _initials_of(token)
            continue
        folded = _words([token])
        words.extend(folded)
        if long_caps and mixed and token.isupper():
            surname.extend(w for w, _ in folded)
    if not words and not initials:
        return None
    if not words:  # initials alone ("AB"): a word after all
        return PlayerName(spelling, (initials,), "", (), initials[:1])
    return PlayerName(
        spelling,
        tuple(w for w, _ in words),
        initials,
        tuple(surname),
        "".join(start for _, start in words),
    )


def player_key(text: str | None) -> str | None:
    """The key of a White or Black tag value (:attr:`PlayerName.key`); None when it
    names no player."""
    name = parse_name(text)
    return name.key if name is not None else None


def compatible(short: PlayerName, full: PlayerName) -> bool:
    """Whether *full* may be the player *short* names with less detail: every full
    word of *short* is one of *full*'s, and the initials of *short* begin the initials
    of *full*'s other words (then its own initials), in order, or the other way round
    (a word's initial: its folded first letter, or its first letter as written folded,
    so ``A. Tsjizjow`` fits ``Alexei Chizhov``).  ``T. Sijbrands`` fits
    ``Ton Sijbrands``, ``Romanov V.`` fits ``Romanov V.A.``; ``Romanov V.A.`` does not
    fit ``Romanov V.N.``, nor ``A. Georgiev`` ``Boris Georgiev``."""
    if short.key == full.key:
        return False
    starts = full.starts or "".join(w[:1] for w in full.words)
    places = [[n for n, w in enumerate(full.words) if w == word] for word in short.words]
    for chosen in itertools.product(*places):  # a word written twice: try each
        if len(set(chosen)) < len(chosen):
            continue
        rest = [n for n in range(len(full.words)) if n not in chosen]
        spelled = [{full.words[n][:1], starts[n]} for n in rest] + [{c} for c in full.initials]
        shared = zip(short.initials, spelled, strict=False)  # the shorter one decides
        if all(letter in letters for letter, letters in shared):
            return True
    return False


__all__ = [
    "CYRILLIC",
    "FOLDS",
    "NO_PLAYER",
    "TITLES",
    "PlayerName",
    "clean_spelling",
    "compatible",
    "fold_word",
    "parse_name",
    "player_key",
]
