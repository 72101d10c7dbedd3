"""Vowel harmony of suffixes after an apostrophe or a number, and inside a suffix.

A suffix takes the backness (front: e i ö ü; back: a ı o u) of the last vowel before it
as it is pronounced:

- after a number, as the number is read out (1990'lı: doksan, 6'şar: altı, 100'üncü: yüz);
- after a Roman numeral, as its number (XII'nin: on iki);
- after an acronym, by its Turkish letter names (PKK'yı: pe-ka-ka, ABD'nin: a-be-de),
  or as a word where it reads as one (NATO'nun, TÜBİTAK'ın), a byte unit as the word it
  stands for (GB'lık: gigabayt);
- after a word, by its last vowel where the spelling settles how it is said: Turkish
  letters, an i, o or u before the last consonants (Python'un, GitHub'ın), a final a,
  i, o or u, and English endings with one sound (Harry'nin, Google'ın, iPhone'un,
  Silverlight'ın). Where the spelling does not settle it (an e, English -er, a silent e:
  Flaubert, Shakespeare, React), writers disagree and the models decide.

Inside a suffix every vowel agrees with the one before it (ları, never lari), except in
the few suffixes that never change (-ki, -yor, -ken, -abil), which the vowels after them
follow (Ankara'dakiler). The rules are measured against what the training split's
writers write in ``bench/results/suffix_harmony.md`` (``python -m bench.suffix_harmony``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..alphabet import model_lower
from ..lattice import Position
from ..spans import Span
from ..words import MAX_MASK_BITS, spell

_BACK = frozenset("aıou")
_TURKISH_LETTERS = frozenset("çğıöşü")
_NUMBER_BEFORE_RE = re.compile(r"(\d+(?:[.,]\d+)*)['’]$")
_NUMBER_REACH = 24  # characters before a token searched for the number it follows
#: The last word of an identifier glued to a suffix: ProgressBar, parseHTML, os.path, snake_case.
_LAST_WORD_RE = re.compile(r"(?:[kKMGTP]i?B|[A-ZÇĞİÖŞÜ]+(?![a-zçğıöşü])|[A-ZÇĞİÖŞÜ]?[a-zçğıöşü]+)$")
#: Symbols read out as words before a suffix: 140 $'lık (dolar), 5 €'luk (avro), 3 £'lik (sterlin).
_SYMBOL_VOWELS = {"$": "a", "€": "o", "£": "i", "₺": "a", "¥": "e"}
_DISTRIBUTIVE_RE = re.compile(r"s[ae]r")  # 6'şar, 2'şer: after a number, no suffix starts sar/ser
_UNITS_LAST_VOWEL = "ıiiüöeıiiu"  # sıfır, bir, iki, üç, dört, beş, altı, yedi, sekiz, dokuz
_TENS_LAST_VOWEL = " oiuıiıiea"  # on, yirmi, otuz, kırk, elli, altmış, yetmiş, seksen, doksan
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
#: Suffixes whose vowel never changes: -ki after the locative or the genitive (Ankara'daki,
#: Ali'ninki), -yor, -ken, -abil/-ebil (Google'layabilir); the vowels after them follow them.
_INVARIANT_RE = re.compile(r"(?<=[dt][ae])ki|(?<=n)ki|(?<=[iu])yor|ken|(?<=[ae])bil")
#: What no Turkish suffix holds: an o (but in -yor), two vowels together, q, w, x (l'Europe, O'Brien).
_NO_SUFFIX_RE = re.compile(r"[oqwx]|[aeiou]{2}")
MIN_STEM = 3  # letters before an apostrophe that make a stem (not su'istimal, te'lif)


@dataclass(frozen=True)
class Suffix:
    """The part of a token that harmony spells: from ``start`` in the token's key, after
    ``stem`` (the token's text before its apostrophe, as typed), or, when the whole token is
    a suffix, after what no spelling of it changes (a number, an identifier: ``fixed_back``,
    whether that ends in a back vowel as it is read out; None if unsettled)."""

    start: int
    stem: str = ""
    fixed_back: bool | None = None
    distributive: bool = False  # after a number, -şar/-şer: its s is ş
    after_number: bool = False  # the number's reading settles the vowels: no other spelling is Turkish
    shouted: bool = False  # the suffix is typed in capitals: a stem in capitals may be a word (TÜRK'ÜN)


def token_suffix(line: str, token: Span, key: str) -> Suffix | None:
    """The suffix of the token at ``token`` (``key``: its key; ``line`` as typed) whose
    vowels harmony spells, if any: the whole token after a number and an apostrophe
    (1990'lı), or after an identifier and an apostrophe (GitHub'ın: ``spans`` makes only
    the suffix a word), or what follows the last apostrophe in it after a stem (Google'ın,
    PKK'yı)."""
    if token.start > 1 and line[token.start - 1] in "'’" and not line[token.start - 2].isspace():
        number = _NUMBER_BEFORE_RE.search(line, max(0, token.start - _NUMBER_REACH), token.start)
        if number:
            back = number_vowel(number.group(1)) in _BACK
            return Suffix(0, fixed_back=back, distributive=_is_distributive(key), after_number=True)
        symbol = _SYMBOL_VOWELS.get(line[token.start - 2])
        if symbol:
            return Suffix(0, fixed_back=symbol in _BACK)
        glued = _LAST_WORD_RE.search(line, 0, token.start - 1)
        if glued:
            stem = glued.group()
            return Suffix(0, stem, fixed_back=stem_back(stem, model_lower(stem)))
        return Suffix(0)
    cut = key.rfind("'")
    if cut < 0 or cut == len(key) - 1:
        return None
    stem = line[token.start : token.start + cut]
    if len(stem) < MIN_STEM and not stem.isupper() and len(stem) != 1:
        return None
    return Suffix(cut + 1, stem, shouted=line[token.start + cut + 1 : token.end].isupper())


def _is_distributive(key: str) -> bool:
    return _DISTRIBUTIVE_RE.match(key) is not None


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
        return "Roman numeral", number_vowel(str(_roman_value(typed))) in _BACK
    letters = _acronym_letters(typed)
    if letters:
        acronym, typed_acronym = spelled[-letters:], typed[-letters:]
        if len(acronym) >= 3 and _reads_as_word(acronym):
            decides = max(typed_acronym.rfind(vowel) for vowel in "AEIİOÖUÜ")
            back = None if typed_acronym[decides] == "I" else _word_back(acronym)
            return "acronym read as a word", back
        vowel = None if shouted or typed_acronym[-1] == "I" else _LETTER_VOWELS.get(acronym[-1])
        return "acronym by its letters", None if vowel is None else vowel in _BACK
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
    return sum(-v if v < after else v for v, after in zip(values, [*values[1:], 0]))


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
        return None if vowels[-1] == "e" else vowels[-1] in _BACK
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


@lru_cache(maxsize=4096)
def _segments(suffix: str) -> tuple[tuple[tuple[int, ...], bool | None], ...] | None:
    """The suffix's runs of vowels in harmony: (the positions of its i, o and u, the
    backness an a or e in the run, or the unchanging suffix that starts it, gives them;
    None if nothing does). None for what is no suffix: an a and an e of one run that
    disagree, or what ``_NO_SUFFIX_RE`` finds."""
    if _NO_SUFFIX_RE.search(suffix.replace("yor", "")):
        return None
    invariants = {found.start(): found.group() for found in _INVARIANT_RE.finditer(suffix)}
    segments: list[tuple[tuple[int, ...], bool | None]] = []
    positions: list[int] = []
    fixed: bool | None = None
    for pos, ch in enumerate(suffix):
        if pos in invariants:
            segments.append((tuple(positions), fixed))
            positions, fixed = [], invariants[pos] == "yor"
        if ch in "iou":
            positions.append(pos)
        elif ch in "ae":
            if fixed is not None and fixed != (ch == "a"):
                return None
            fixed = ch == "a"
    segments.append((tuple(positions), fixed))
    return tuple(segments)


def _with_backness(key: str, start: int, positions: tuple[int, ...], back: bool, mask: int) -> int:
    """``mask`` with the vowels of ``key`` at ``start`` + ``positions`` spelled back or front
    (an i is ı when back; an o or u is ö, ü when front)."""
    for pos in positions:
        bit = 1 << (start + pos)
        mask = mask | bit if (key[start + pos] == "i") == back else mask & ~bit
    return mask


def harmonious_masks(key: str, suffix: Suffix, mask: int, both: bool) -> list[int]:
    """``mask`` with the suffix's vowels in harmony: its first run spelled as its first
    vowel is in ``mask`` (and, with ``both``, also the other way, where nothing in the
    run fixes it); the runs after an unchanging suffix as it gives them. An s starting a
    distributive suffix after a number is ş."""
    segments = _segments(key[suffix.start :])
    if segments is None or len(key) > MAX_MASK_BITS:
        return [mask]
    if suffix.distributive:
        mask |= 1 << suffix.start
    for positions, fixed in segments[1:]:
        assert fixed is not None  # a later run starts at an unchanging suffix
        mask = _with_backness(key, suffix.start, positions, fixed, mask)
    positions, fixed = segments[0]
    if not positions:
        return [mask]
    if fixed is not None:
        return [_with_backness(key, suffix.start, positions, fixed, mask)]
    first = _spelled_back(key, suffix.start + positions[0], mask)
    choices = (first, not first) if both else (first,)
    return [_with_backness(key, suffix.start, positions, back, mask) for back in choices]


def _spelled_back(key: str, pos: int, mask: int) -> bool:
    """Whether the vowel at ``pos`` of ``key`` is back as ``mask`` spells it."""
    twin = bool(mask >> pos & 1)
    return twin if key[pos] == "i" else not twin


def harmonious_position(position: Position, suffix: Suffix, both: bool) -> Position:
    """``position`` with each spelling replaced by those of ``harmonious_masks`` (a new
    spelling takes the word id of the one it comes from, so the word model scores it as that one)."""
    own = dict(zip(position.masks, position.ids))
    found: dict[int, int] = {}
    for mask, word_id in zip(position.masks, position.ids):
        for variant in harmonious_masks(position.key, suffix, mask, both):
            found.setdefault(variant, own.get(variant, word_id))
    if list(found) == position.masks:
        return position
    return Position(list(found.values()), masks=list(found), key=position.key)


def disagreements(position: Position, suffix: Suffix) -> list[bool]:
    """For each spelling of ``position``, whether its suffix's first vowels disagree with
    what the suffix follows, where that is settled (``stem_back``, ``number_vowel``)."""
    segments = _segments(position.key[suffix.start :])
    if segments is None or not segments[0][0] or segments[0][1] is not None:
        return [False] * len(position.masks)
    first = suffix.start + segments[0][0][0]
    flags = []
    for mask in position.masks:
        wanted = suffix.fixed_back
        if wanted is None and suffix.start:
            wanted = stem_back(suffix.stem, spell(position.key, mask)[: suffix.start - 1], suffix.shouted)
        flags.append(wanted is not None and _spelled_back(position.key, first, mask) != wanted)
    return flags
