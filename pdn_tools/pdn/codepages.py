"""Which legacy 8-bit code page a text that is not UTF-8 was written in.

Old PDN archives are Western (Windows-1252, Latin-1), Central European (Windows-1250,
ISO-8859-2: Polish, Czech, Slovak, Hungarian), or Cyrillic (Windows-1251, KOI8-R,
KOI8-U, DOS CP866: Russian, Ukrainian, Belarusian).  The bytes alone do not say
which: every byte decodes under each of them, only into different letters.  So the
bytes are decoded with every candidate and each reading is scored for how much it
looks like names and words of these languages:

* letters count for a reading, and the frequent ones more (Russian and Ukrainian
  letter frequencies; accented Latin letters that some European language uses);
* a symbol glued to letters (``£ukomska``, ``D¹browski``, box-drawing characters in
  a Cyrillic word) counts against it, and so do undefined bytes and C1 controls;
* so do words that no language writes: a lower-case letter followed by a capital
  (KOI8 read as Windows-1251 swaps the cases), Cyrillic and Latin letters in one
  word, accents that no single language combines (``Rùžièka``), and spellings a
  language never uses (Polish writes ``ni`` before a vowel, never ``ń``; Spanish
  ``ñ`` always stands before a vowel; a French ``è`` before a consonant).

Ties go to the first candidate in :data:`CANDIDATES` (Western first, then Central
European, then Cyrillic), which is also what an ASCII text would be read as.
Measured on samples made from common Polish, Czech, Russian, Ukrainian and Western
European names (``benchmarks/bench_encodings.py``), this picks the right reading for
practically every file of three games or more, and for a single game in all but a
few cases where one letter is all there is to go on (``Kučera`` vs ``Kuèera``); a
general-purpose detector (charset-normalizer) did much worse on such short texts.
The work is bounded: only :data:`MAX_SAMPLE` characters of the lines that are not
UTF-8 are looked at, once per file.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

#: Code pages considered, in order of preference on a tie.
CANDIDATES = ("cp1252", "cp1250", "iso-8859-2", "cp1251", "koi8-r", "koi8-u", "cp866")
#: Bytes of non-UTF-8 text scored at most.
MAX_SAMPLE = 1 << 14

#: Accented letters of the languages whose names fill PDN archives; a word's accents
#: must all come from one of them.
_LANGUAGES = tuple(
    frozenset(letters)
    for letters in (
        "ąćęłńóśźż",  # Polish
        "áčďéěíňóřšťúůýž",  # Czech
        "áäčďéíĺľňóôŕšťúýž",  # Slovak
        "áéíóöőúüű",  # Hungarian
        "äöüß",  # German
        "àâçéèêëîïôùûüÿœæ",  # French
        "áéíóúñü",  # Spanish
        "áâãàçéêíóôõú",  # Portuguese
        "àèéìíòóùú",  # Italian
        "éëïöüè",  # Dutch
        "åäöøæéü",  # Scandinavian
        "čćđšž",  # Croatian, Serbian, Slovenian
        "ăâîşţșț",  # Romanian
        "çğıöşü",  # Turkish
    )
)
_LATIN_ACCENTED = frozenset().union(*_LANGUAGES)
#: How much an accented letter counts (default 1): common ones more, rare ones less.
_LATIN_WEIGHT = {
    "é": 2.0,
    "ö": 1.5,
    "ü": 1.5,
    "ä": 1.5,
    "è": 1.3,
    "ø": 1.2,
    "ã": 1.2,
    "å": 1.1,
    "ï": 1.1,
    "ò": 1.1,
    "ê": 1.1,
    "ď": 0.6,
    "ť": 0.6,
    "ľ": 0.6,
    "ì": 0.5,
    "ù": 0.5,
    "ĺ": 0.3,
    "ŕ": 0.3,
    "ÿ": 0.3,
}
#: Russian letter frequencies (per cent), with the Ukrainian and Belarusian letters.
_CYRILLIC_WEIGHT = {
    letter: share / 4
    for letter, share in zip(
        "оеаинтсрвлкмдпуяызьбгчйхжюшцщэфъё",
        (
            11,
            8.5,
            8,
            7.4,
            6.7,
            6.3,
            5.5,
            4.7,
            4.5,
            4.4,
            3.5,
            3.2,
            3,
            2.8,
            2.6,
            2,
            1.9,
            1.7,
            1.7,
            1.6,
            1.7,
            1.4,
            1.2,
            1,
            0.9,
            0.6,
            0.7,
            0.5,
            0.4,
            0.3,
            0.3,
            0.1,
            0.3,
        ),
        strict=True,
    )
} | {"і": 1.25, "ї": 0.15, "є": 0.2, "ґ": 0.05, "ў": 0.12}
_VOWELS = frozenset("aeiouyáéíóúýàèìòùâêîôûäëïöüåæøąęó")


def _before_vowel(prev: str, nxt: str) -> bool:
    return nxt in _VOWELS


def _not_before_vowel(prev: str, nxt: str) -> bool:
    return nxt not in _VOWELS


def _not_after_vowel(prev: str, nxt: str) -> bool:
    return prev not in _VOWELS or prev == "i"  # Polish softens with i: Piątek, Więcek


def _ends_word(prev: str, nxt: str) -> bool:
    return not nxt.isalpha()


#: Spellings a letter's language allows, by what stands before and after it.
_CONTEXT: dict[str, Callable[[str, str], bool]] = {
    "ñ": _before_vowel,  # Spanish: ñ stands before a vowel
    "ń": _not_before_vowel,  # Polish writes ni, si, zi, ci before a vowel
    "ś": _not_before_vowel,
    "ź": _not_before_vowel,
    "ć": _not_before_vowel,
    "ą": _not_after_vowel,  # Polish: ą and ę follow a consonant (or a softening i)
    "ę": _not_after_vowel,
    "è": _not_before_vowel,  # French: è before a consonant (Hélène, Agnès)
    "ø": _not_before_vowel,
    "ì": _ends_word,  # Italian: ì and ò end a word
    "ò": _ends_word,
    "œ": lambda prev, nxt: nxt in "uie",  # French cœur, œil
    "ù": lambda prev, nxt: prev == "o",  # French où
}
#: Punctuation that may stand next to letters (quotes, dashes, the numero sign).
_PUNCTUATION = frozenset("«»“”„‘’‚–—…№€°·•±§™‹›\u00a0")
_APOSTROPHES = frozenset("’‘ʼ")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_WORD = re.compile(r"[^\W\d_]*[^\x00-\x7f\W\d_][^\W\d_]*")


def _is_cyrillic(ch: str) -> bool:
    return "\u0400" <= ch < "\u0530"


def _letter_score(text: str, i: int, ch: str) -> float:
    low = ch.lower()
    if _is_cyrillic(low):
        return _CYRILLIC_WEIGHT.get(low, -0.75)
    if low not in _LATIN_ACCENTED:
        return -1.0
    score = _LATIN_WEIGHT.get(low, 1.0)
    rule = _CONTEXT.get(low)
    if rule is not None:
        prev = text[i - 1].lower() if i else " "
        nxt = text[i + 1].lower() if i + 1 < len(text) else " "
        if not rule(prev, nxt):
            score -= 2.0
    return score


def _symbol_score(text: str, i: int, ch: str) -> float:
    before = i > 0 and text[i - 1].isalpha()
    after = i + 1 < len(text) and text[i + 1].isalpha()
    if ch in _PUNCTUATION:
        return -3.0 if before and after and ch not in _APOSTROPHES else 0.0
    return -4.0 if before or after else -1.0


def _word_score(word: str) -> float:
    score = 0.0
    for a, b in itertools.pairwise(word):
        if a.islower() and b.isupper():
            score -= 3.0
            break
    low = word.lower()
    cyrillic = [c for c in low if _is_cyrillic(c)]
    if cyrillic:
        return score - 5.0 if len(cyrillic) != len(low) else score
    accents = {c for c in low if not c.isascii()}
    if not any(accents <= language for language in _LANGUAGES):
        score -= 2.0
    return score


def score(text: str) -> float:
    """How much *text* looks like names and words of the languages above."""
    total = 0.0
    for match in _NON_ASCII.finditer(text):
        ch = match.group()
        i = match.start()
        if ch == "\ufffd" or "\x80" <= ch < "\xa0":
            total -= 10.0
        elif ch.isalpha():
            total += _letter_score(text, i, ch)
        else:
            total += _symbol_score(text, i, ch)
    for word in _WORD.finditer(text):
        total += _word_score(word.group())
    return total


def detect_codepage(data: bytes) -> str:
    """The code page of *data* (text that is not UTF-8) among :data:`CANDIDATES`."""
    sample = data[:MAX_SAMPLE]
    best = CANDIDATES[0]
    best_score = float("-inf")
    for codepage in CANDIDATES:
        value = score(sample.decode(codepage, errors="replace"))
        if value > best_score:
            best, best_score = codepage, value
    return best
