"""How a stem is read out, as far as the vowel harmony of a suffix after it needs.

A suffix takes the backness (front: e i ö ü; back: a ı o u) of the last vowel before it
as it is pronounced:

- after a number, as the number is read out (1990'lı: doksan, 6'şar: altı, 100'üncü: yüz);
  a half two ways, as the suffix typed says (1,5'u: bir buçuk; 3,5'i: üç virgül beş);
- after a Roman numeral, as its number (XII'nin: on iki);
- after an acronym, by its Turkish letter names (PKK'yı: pe-ka-ka, ABD'nin: a-be-de),
  or as a word where it reads as one (NATO'nun, TÜBİTAK'ın), a byte unit as the word it
  stands for (GB'lık: gigabayt);
- after a word, by its last vowel where the spelling settles how it is said: Turkish
  letters, an i, o or u before the last consonants (Python'un, GitHub'ın), a final a,
  i, o or u, and English endings with one sound (Harry'nin, Google'ın, iPhone'un,
  Silverlight'ın). Where the spelling does not settle it (an e, English -er, a silent e:
  Flaubert, Shakespeare, React), writers disagree: no answer.

Pure string rules, without the models: the restorer's suffix harmony
(``default.harmony``), the prose masking (a suffix after a masked token) and the suffix of
a word the foreign-word guard keeps as typed (``kept_suffix``) read them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .alphabet import fold_circumflex, model_lower

BACK_VOWELS = frozenset("aıou")
_TURKISH_LETTERS = frozenset("çğıöşü")
#: The last word of an identifier glued to a suffix: ProgressBar, parseHTML, os.path, snake_case.
IDENTIFIER_LAST_WORD_RE = re.compile(r"(?:[kKMGTP]i?B|[A-ZÇĞİÖŞÜ]+(?![a-zçğıöşü])|[A-ZÇĞİÖŞÜ]?[a-zçğıöşü]+)$")
_UNITS_LAST_VOWEL = "ıiiüöeıiiu"  # sıfır, bir, iki, üç, dört, beş, altı, yedi, sekiz, dokuz
_TENS_LAST_VOWEL = " oiuıiıiea"  # on, yirmi, otuz, kırk, elli, altmış, yetmiş, seksen, doksan
_HALF_RE = re.compile(r"\d[.,]5$")  # 1,5; 2.5: read "buçuk" or "virgül beş"
_POSSESSIVE_RE = re.compile(r"['’]s$")  # an English name with its possessive (Moody's, McDonald's)
_BYTES_RE = re.compile(r"[kKMGTP]i?B")  # read as the word: GB'lık, gigabayt
_ROMAN_RE = re.compile(r"(?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}
#: The last vowel of each letter's Turkish name (a, be, ce, ka, iks …); h, q and r are read two ways.
_LETTER_VOWELS = {**dict.fromkeys("bcçdefgğjlmnpsştvwyz", "e"), "a": "a", "k": "a", "x": "i"}
_LETTER_VOWELS |= {vowel: vowel for vowel in "ıioöuü"}
_VOWELS = "aeıioöuü"
_LAST_VOWELS_RE = re.compile(rf"([{_VOWELS}]+)([^{_VOWELS}]*)$")
#: English endings whose sound the spelling settles, and whether the suffix takes back vowels.
_ENDINGS = (
    (re.compile(r"(?<![aeiou])ys?$"), False),  # Harry, Symfony: i
    (re.compile(r"(?<!e)ights?$"), True),  # Silverlight, Knight: ay
    (re.compile(r"[bcdgpt]les?$"), True),  # Google, Apple, bundle: ıl
    (re.compile(r"o[^aeiouyr]es?$|oes?$|oys?$"), True),  # node, iPhone, Chrome; Poe; Tolstoy (not Kore)
    (re.compile(r"y[pt]es?$"), True),  # type, byte: ay
    (re.compile(r"(?:ee|ie|ey)s?$"), False),  # tree, Charlie, Disney
)
#: Codas after an a that writers read two ways: a front l in Arabic loans (Kemal, hal),
#: the a of cat (patch, hash, tag, map, callback).
_A_UNSETTLED_RE = re.compile(r"(?:l.*|b|c|ck|g|p|pp|sh|t|tch|nch|nd|ng|nk|y)s?")
_O_UNSETTLED_RE = re.compile(r"(?:rk|rld|ll)s?")  # framework, World, Roll


def identifier_back(text: str) -> bool | None:
    """Whether a suffix after ``text`` (an identifier or a name, as typed) takes back vowels,
    read on its last word (ProgressBar: bar, parseHTML: HTML); None where unsettled."""
    found = IDENTIFIER_LAST_WORD_RE.search(text)
    return None if found is None else stem_back(found.group(), model_lower(found.group()))


def number_vowel(number: str) -> str:
    """The last vowel of a number as it is read out (1990: doksan; 3,5: beş; 1.000: bin)."""
    groups = re.split(r"[.,]", number)
    digits = "".join(groups) if len(groups) > 1 and len(groups[-1]) == 3 else groups[-1]  # 1.000: bin
    significant = digits.rstrip("0")
    if not significant:
        return "ı"  # sıfır
    zeros = len(digits) - len(significant)
    if zeros == 0:
        return _UNITS_LAST_VOWEL[int(significant[-1])]
    if zeros == 1:
        return _TENS_LAST_VOWEL[int(significant[-1])]
    return "ü" if zeros == 2 else "i" if zeros < 6 else "o" if zeros < 9 else "a"  # yüz, bin, milyon, milyar


def number_back(number: str, suffix_key: str) -> bool:
    """Whether a suffix (``suffix_key``: its key, as typed) after ``number`` takes back
    vowels. A half (1,5; 2.5) is read "bir buçuk" or "bir virgül beş": a first vowel typed
    u says buçuk (1,5'u, 2,5'luk), anything else beş (3,5'i, 2,5'lik, 0,5'e)."""
    first_vowel = next((ch for ch in suffix_key if ch in _VOWELS), "")
    if first_vowel == "u" and _HALF_RE.search(number):
        return True
    return number_vowel(number) in BACK_VOWELS


def stem_back(typed: str, spelled: str, shouted: bool = False) -> bool | None:
    """Whether a suffix after the stem ``typed`` (``spelled``: a spelling of it, lower case)
    takes back vowels; None where its spelling does not settle it. ``shouted``: the suffix
    is typed in capitals, so a stem in capitals that does not read as a word may be an
    acronym or a word (ABD'NİN, TÜRK'ÜN): unsettled."""
    return stem_reading(typed, spelled, shouted)[1]


@lru_cache(maxsize=8192)
def stem_reading(typed: str, spelled: str, shouted: bool = False) -> tuple[str, bool | None]:
    """(the rule that reads the stem, ``stem_back``): a byte unit, a Roman numeral, an
    acronym by its letters or as a word, a Turkish word, an English ending, a last vowel."""
    if not spelled.isascii():
        spelled = _without_accents(spelled)
    spelled = _POSSESSIVE_RE.sub("", spelled)  # Moody's'in: Moody
    if _BYTES_RE.fullmatch(typed):
        return "byte unit", True
    if _ROMAN_RE.fullmatch(typed):
        return "Roman numeral", number_vowel(str(_roman_value(typed))) in BACK_VOWELS
    letters = _acronym_letters(typed)
    if letters:
        acronym, typed_acronym = spelled[-letters:], typed[-letters:]
        if len(acronym) >= 3 and _reads_as_word(acronym):
            decides = max(typed_acronym.rfind(vowel) for vowel in "AEIİOÖUÜ")
            back = None if typed_acronym[decides] == "I" else _word_back(acronym)
            return "acronym read as a word", back
        vowel = None if shouted or typed_acronym[-1] == "I" else _LETTER_VOWELS.get(acronym[-1])
        return "acronym by its letters", None if vowel is None else vowel in BACK_VOWELS
    if not _TURKISH_LETTERS.isdisjoint(spelled):  # a Turkish word: its every e is said (Türkiye'nin)
        return "word with Turkish letters", False if _last_vowel(spelled) == "e" else _word_back(spelled)
    for ending, back in _ENDINGS:
        if ending.search(spelled):
            return "English ending", back
    return "last vowel", _word_back(spelled)


def _without_accents(spelled: str) -> str:
    """``spelled`` with the accents of letters other than Turkish ones dropped (İslâm, Cortés)."""
    return "".join(
        ch if ch.isascii() or ch in _TURKISH_LETTERS else unicodedata.normalize("NFD", ch)[0] for ch in spelled
    )


def _roman_value(numeral: str) -> int:
    values = [_ROMAN_VALUES[ch] for ch in numeral]
    return sum(-v if v < after else v for v, after in zip(values, [*values[1:], 0], strict=True))


def _acronym_letters(typed: str) -> int:
    """How many letters at the end of ``typed`` are an acronym read by its letters' names
    (0: none): a single letter, a word in capitals, or three capitals or more after lower
    case letters (miRNA)."""
    if len(typed) == 1 and typed.isalpha():
        return 1
    if not typed.isalpha():
        return 0
    if typed.isupper():
        return len(typed)
    capitals = len(typed) - len(typed.rstrip("ABCÇDEFGĞHIİJKLMNOÖPQRSŞTUÜVWXYZ"))
    return capitals if capitals >= 3 and typed[:-capitals].islower() else 0


def _reads_as_word(letters: str) -> bool:
    """Every consonant stands next to a vowel (NATO, TÜBİTAK; not ABD, AKP, JSON)."""
    vowel = [ch in _VOWELS for ch in letters]
    return any(vowel) and all(
        vowel[i] or (i > 0 and vowel[i - 1]) or (i + 1 < len(letters) and vowel[i + 1]) for i in range(len(letters))
    )


def _last_vowel(spelled: str) -> str | None:
    return next((ch for ch in reversed(spelled) if ch in _VOWELS), None)


def _word_back(spelled: str) -> bool | None:
    """By the last vowels and the consonants after them, where writers read them one way
    (a Turkish ı, ö or ü always)."""
    found = _LAST_VOWELS_RE.search(spelled)
    if found is None:
        return False if "y" in spelled else None  # rsync
    vowels, coda = found.groups()
    if vowels[-1] in "ıöü":
        return vowels[-1] == "ı"
    if not coda:  # Kafka, Django, Wiki; a final e is silent or said (Shakespeare, Dante)
        return None if vowels[-1] == "e" else vowels[-1] in BACK_VOWELS
    if vowels == "i":
        return None if coda.startswith("ld") else False  # child
    if vowels in ("oo", "ou") or (vowels == "o" and not _O_UNSETTLED_RE.fullmatch(coda)):
        return True
    if vowels == "io":  # -tion: şın
        return True if coda in ("n", "ns") else None
    if vowels == "u":
        return None if coda[0] == "r" and len(coda) > 1 else True  # Hepburn, url: ö
    if vowels == "a":
        return None if _A_UNSETTLED_RE.fullmatch(coda) else True
    if vowels == "ai":
        return False  # blockchain: ey
    return None


_TO_BACK = str.maketrans("iü", "ıu")
_TO_FRONT = str.maketrans("ıu", "iü")


def kept_suffix(typed_stem: str, best_stem: str, best_suffix: str, typed_suffix: str) -> str:
    """The suffix of a word kept as typed up to its apostrophe: the restorer's (``best_suffix``,
    after ``best_stem``: its lower-case spelling of ``typed_stem``), where that spelled the
    stem otherwise with its leading vowels typed i or u in harmony with the stem as typed
    (Fagin'ın -> Fagin'in); not for a circumflex it does not write (sâ'yin) or a capital I
    it dots otherwise (Impacts'in)."""
    typed_lower = model_lower(typed_stem)
    if _same_stem(typed_stem, fold_circumflex(typed_lower), fold_circumflex(best_stem)):
        return best_suffix
    back = stem_back(typed_stem, typed_lower)
    return best_suffix if back is None else _harmonised(best_suffix, typed_suffix, back)


def _same_stem(typed: str, typed_lower: str, best_lower: str) -> bool:
    """Whether the restorer spelled the stem as typed, a capital I either way (Impacts)."""
    return len(typed_lower) == len(best_lower) and all(
        mine == theirs or (written == "I" and theirs in "ıi")
        for written, mine, theirs in zip(typed, typed_lower, best_lower, strict=True)
    )


def _harmonised(suffix: str, typed_suffix: str, back: bool) -> str:
    """``suffix`` (a spelling of ``typed_suffix``, lower case) with its leading vowels typed
    i or u taking ``back``'s backness, where the first vowel typed otherwise agrees with it."""
    letters = list(suffix)
    for at, (letter, typed) in enumerate(zip(suffix, typed_suffix, strict=True)):
        if letter not in _VOWELS:
            continue
        if typed not in "iuIU":
            return suffix if (letter in BACK_VOWELS) != back else "".join(letters)
        letters[at] = letter.translate(_TO_BACK if back else _TO_FRONT)
    return "".join(letters)
