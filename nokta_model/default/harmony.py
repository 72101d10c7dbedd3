"""Vowel harmony of suffixes after an apostrophe or a number, and inside a suffix.

A suffix takes the backness (front: e i ö ü; back: a ı o u) of the last vowel before it
as it is pronounced: after a number as it is read out, after an acronym by its letter
names, after a word where its spelling settles how it is said (``nokta_model.reading``);
where it does not (Flaubert, Shakespeare, React), writers disagree and the models decide.

Inside a suffix every vowel agrees with the one before it (ları, never lari), except in
the few suffixes that never change (-ki, -yor, -ken, -abil), which the vowels after them
follow (Ankara'dakiler). The rules are measured against what the training split's
writers write in ``bench/results/suffix_harmony.md`` (``python -m bench.suffix_harmony``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..alphabet import model_lower
from ..lattice import Position
from ..reading import BACK_VOWELS, IDENTIFIER_LAST_WORD_RE, number_back, stem_back
from ..spans import BACK_STEM, FRONT_STEM, Span
from ..words import MAX_MASK_BITS, spell

_NUMBER_BEFORE_RE = re.compile(r"(\d+(?:[.,]\d+)*)['’]$")
_NUMBER_REACH = 24  # characters before a token searched for the number it follows
#: Symbols read out as words before a suffix: 140 $'lık (dolar), 5 €'luk (avro), 3 £'lik (sterlin);
#: the stand-ins of a masked token as it is read (`Django`'nun).
_SYMBOL_VOWELS = {"$": "a", "€": "o", "£": "i", "₺": "a", "¥": "e", BACK_STEM: "a", FRONT_STEM: "e"}
_DISTRIBUTIVE_RE = re.compile(r"s[ae]r")  # 6'şar, 2'şer: after a number, no suffix starts sar/ser
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
            back = number_back(number.group(1), key)
            return Suffix(0, fixed_back=back, distributive=_is_distributive(key), after_number=True)
        symbol = _SYMBOL_VOWELS.get(line[token.start - 2])
        if symbol:
            return Suffix(0, fixed_back=symbol in BACK_VOWELS)
        glued = IDENTIFIER_LAST_WORD_RE.search(line, 0, token.start - 1)
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
    own = dict(zip(position.masks, position.ids, strict=True))
    found: dict[int, int] = {}
    for mask, word_id in zip(position.masks, position.ids, strict=True):
        for variant in harmonious_masks(position.key, suffix, mask, both):
            found.setdefault(variant, own.get(variant, word_id))
    if list(found) == position.masks:
        return position
    return Position(list(found.values()), masks=list(found), key=position.key)


def disagreements(position: Position, suffix: Suffix) -> list[bool]:
    """For each spelling of ``position``, whether its suffix's first vowels disagree with
    what the suffix follows, where that is settled (``stem_back``, ``number_back``)."""
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
