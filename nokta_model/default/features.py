"""Per-candidate scores the default adds to the lattice's emissions, besides the models'.

- Letter scorers: the log probability of a spelling mask under independent per-letter
  logits (the context model's, the network's).
- The question particle (mi, mı, mu, mü and its inflections: misin, mıydı, müymüş …)
  is written apart but follows the vowel harmony of the word before it; so does a suffix
  some writers put apart ("Kitabı" dır), cut off with a hyphen (yaz-dı) or put after a
  suffix in brackets (satır(lar)ın). One weight, ``particle_harmony``, scores them all.
  Suffixes after an apostrophe or a number have their own rules (``harmony``).
- A lone o that ends a sentence after a word is the pronoun (Bunu yapan o.), never the
  letter ö, whatever the counts say; not the ö. of "ölümü" (died) before a year
  (ö. 1682) or in the brackets of a life's dates ((d. 1795 İskoçya ö.).
- The writer's own Turkish letters: a word typed with one keeps its other letters as
  typed, and on a line typed with Turkish letters a word typed without any is more
  likely meant so, when its typed form is a spelling counted in running text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ..lattice import Position
from ..words import spell

MaskScorer = Callable[[int], float]

_PARTICLE_RE = re.compile(
    r"m[iu](?:"
    r"|s[iu]n|s[iu]n[iu]z|y[iu]m|y[iu]z|d[iu]r|d[iu]rl[ae]r|l[ae]r"
    r"|yd[iu](?:m|n|k|n[iu]z|l[ae]r)?|ym[iu]s(?:[iu]m|s[iu]n|[iu]z|s[iu]n[iu]z|l[ae]r)?|yken"
    r")"
)
#: Detached suffixes with ı/i (case, genitive, copula, person, -lı/-lık, possessive), not
#: the ones that would take a real word's place (dik, in, sin, tur) or a numeral (I).
_DETACHED_SUFFIX_RE = re.compile(r"[dt]i[rm]?|nin|lik?|si|yi")
#: Suffixes with ı/i or u/ü cut off by a hyphen, as grammar books write words out
#: (yaz-dı, gel-miş-siniz): after a hyphen they are never words of their own. Not the
#: Persian izafet (nokta-i nazar, Kanun-ı Esasi), whose -i/-ı does not follow the harmony.
_HYPHENATED_SUFFIX_RE = re.compile(r"[dt][iu][rmnk]?|[dt][iu]l?[ae]r|m[iu]s|[iu][mnz]|s[iu]n(?:[iu]z)?|n[iu]z|l[iu]k?")
#: A lone o after a word and a space, ending a sentence that no year or number follows.
_PRONOUN_O_RE = re.compile(r"(?<=[^\W\d_] )o(?=[.!?…]+(?:$|\s+(?!\d)))")
#: Brackets of a life's dates still open, "(d. 1795 İskoçya": their ö. is "ölümü" (died).
_OPEN_LIFE_DATES_RE = re.compile(r"\(d\.[^)]*$")
_VOWELS = "aeıioöuü"
_HIGH_VOWELS = "ıiuü"
#: The particle's vowel after each last vowel of the word before it.
_HARMONY = {"a": "ı", "ı": "ı", "e": "i", "i": "i", "o": "u", "u": "u", "ö": "ü", "ü": "ü"}


def letter_scorer(free: np.ndarray, logits: np.ndarray) -> MaskScorer:
    """Log probability of a spelling mask under independent letter logits at positions ``free``."""
    plain_total = -float(np.logaddexp(0.0, logits).sum())
    gains = dict(zip(free.tolist(), logits.tolist(), strict=True))

    def log_probability(mask: int) -> float:
        return plain_total + sum(gain for bit, gain in gains.items() if mask >> bit & 1)

    return log_probability


def is_particle(key: str) -> bool:
    """Whether an ASCII token key is a form of the question particle (mi, misin, miydi …)."""
    return _PARTICLE_RE.fullmatch(key) is not None


def is_detached_suffix(key: str) -> bool:
    """Whether an ASCII token key is a suffix with ı or i that writers sometimes put apart
    from its word (zorlanır dım, "Kitabı" dır, Club ı)."""
    return _DETACHED_SUFFIX_RE.fullmatch(key) is not None


def is_hyphenated_suffix(key: str) -> bool:
    """Whether an ASCII token key is a suffix with a high vowel that a grammar book cuts
    off its word with a hyphen (yaz-dı, gel-miş-siniz)."""
    return _HYPHENATED_SUFFIX_RE.fullmatch(key) is not None


def as_pronoun_o(position: Position, text: str, start: int) -> Position:
    """``position`` spelled o alone where the lone o at ``start`` of the lower-cased ``text``
    is the pronoun ending a sentence (``_PRONOUN_O_RE``); otherwise as it is."""
    if position.key != "o" or 0 not in position.masks or not _PRONOUN_O_RE.match(text, start):
        return position
    if _OPEN_LIFE_DATES_RE.search(text, 0, start):
        return position
    plain = position.masks.index(0)
    return Position([position.ids[plain]], [position.emission(plain)], [0], position.key)


def harmony_after_word(previous: Position) -> str | None:
    """The high vowel (ı, i, u, ü) a suffix takes after the word at ``previous``; None
    when its spellings disagree on their last vowel (or have none)."""
    last_vowels = {_last_vowel(spell(previous.key, mask)) for mask in previous.masks}
    last = last_vowels.pop() if len(last_vowels) == 1 else None
    return None if last is None else _HARMONY[last]


def disharmony(position: Position, wanted: str) -> list[float]:
    """For each spelling of a suffix (or the particle), 1.0 where its first vowel is a high
    one other than ``wanted``, else 0.0."""
    return [float(_first_vowel(spell(position.key, mask)) not in ("", wanted)) for mask in position.masks]


def _first_vowel(word: str) -> str:
    vowel = next((ch for ch in word if ch in _VOWELS), "")
    return vowel if vowel in _HIGH_VOWELS else ""


def _last_vowel(word: str) -> str | None:
    return next((ch for ch in reversed(word) if ch in _VOWELS), None)


def harmony_variants(position: Position) -> tuple[list[int], list[int]]:
    """(ids, masks): the spellings of ``position`` and, after them, those that differ from
    one only in having every high vowel of the key (i, u) spelled alike, all front (i, ü)
    or all back (ı, u). A new spelling takes the word id of the one it comes from, so the
    word model scores it as that one."""
    vowel_bits = sum(1 << pos for pos, ch in enumerate(position.key) if ch in "iu")
    found = dict(zip(position.masks, position.ids, strict=True))
    for mask, word_id in zip(position.masks, position.ids, strict=True):
        for variant in (mask & ~vowel_bits, mask | vowel_bits):
            found.setdefault(variant, word_id)
    return list(found.values()), list(found)


def in_harmony(position: Position, wanted: str) -> list[bool]:
    """For each spelling of ``position``, whether every high vowel of it is ``wanted``;
    all True when none can be (the key's high vowels are of the other pair: Kanun-i)."""
    pair = "ıi" if wanted in "ıi" else "uü"
    flags = [all(ch == wanted for ch in spell(position.key, mask) if ch in _HIGH_VOWELS) for mask in position.masks]
    if not any(ch in pair for ch in position.key) or not any(flags):
        return [True] * len(flags)
    return flags


def typed_spelling_flags(position: Position, typed_mask: int) -> list[float]:
    """1.0 for the candidate spelled exactly as typed, 0.0 for the others."""
    return [float(mask == typed_mask) for mask in position.masks]
