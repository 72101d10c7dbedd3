"""Per-word code-switching: which words of a line are foreign (English, acronyms) and stay as typed.

Technical Turkish mixes in English words (``Yeni bir Issue actim``); restoring them
gives ``İssue``, ``ınput``. Each word's evidence is the log ratio of its frequency in
English (``wordfreq``, taken into the count-based model at build time) to its frequency
in Turkish running text (the model's lexicon, every spelling of its ASCII key); a
two-state hidden Markov model over the words of each sentence (Turkish, foreign) adds that
a language rarely changes from one word to the next, so a word common in both languages
(``on``, ``is``, ``her``) takes the language of its neighbours; a sentence starts afresh
(``Tamam. Issue kapandi.``: the Turkish word before the full stop says nothing of ``Issue``). A word is foreign when its
posterior is above ``FOREIGN_POSTERIOR``. Rules first: an acronym (``capitals.is_acronym``)
on a line typed with Turkish letters stays as typed (``AGİT``, ``AGI``), a word typed with a
Turkish letter is Turkish, another acronym is foreign unless running text writes it with
Turkish letters or it is a Turkish word (``COK``). A longer word in capitals on a line not
typed in capitals (``LICENSE``, ``README``) is taken as an acronym. A capital inside a
sentence leans foreign (a name or a term), but not in a title-cased heading (``Öne Çıkan``).
After the model, a word with w, q or x is foreign unless typed with a Turkish letter
(``showların``), a single letter (``X-ışını``), or written by running text with Turkish
letters (``Wöhler``): it writes nearly all such words without one (wip, Twitter).

The backend supplies the frequencies (``WordEvidence``); this module only decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

#: Probability that the language changes between two neighbouring words of a line.
SWITCH = 0.1
FOREIGN_PRIOR = 0.2  # … that a sentence's first word is foreign
FOREIGN_POSTERIOR = 0.5
#: Letters no Turkish word has: a word with one is foreign (wip, Twitter).
FOREIGN_ONLY = frozenset("wqxWQX")
MAX_EVIDENCE = 8.0  # no single word's log ratio counts for more (a count of one is no certainty)
#: An acronym is Turkish by its counts only when Turkish text has it this much more often
#: (in log ratio) than English text (``COK`` is ÇOK shouted, ``API`` stays).
ACRONYM_TURKISH = -3.0
#: How much likelier (log ratio) a foreign word is than a Turkish one to be capitalised
#: inside a sentence (``Item listesi``, ``Index sayfası``); not in a title-cased heading
#: (``in_title``).
CAPITALISED_INSIDE = 2.0
#: A word English text lacks is taken as this rare there (Zipf scale: per billion words,
#: log10); one Turkish text lacks, as counted this often there.
ENGLISH_FLOOR_ZIPF = 1.0
TURKISH_FLOOR_COUNT = 0.5


def log_ratio(english_zipf: float | None, turkish_count: float, turkish_total: float) -> float:
    """log P(word | English) - log P(word | Turkish), from its English Zipf frequency (None:
    not among the English words kept) and its count in ``turkish_total`` counted words."""
    english = (ENGLISH_FLOOR_ZIPF if english_zipf is None else english_zipf) - 9.0
    turkish = math.log10(max(turkish_count, TURKISH_FLOOR_COUNT) / turkish_total)
    return (english - turkish) * math.log(10)


class WordEvidence(NamedTuple):
    """What decides one word: log P(word | English) - log P(word | Turkish), and rules."""

    log_ratio: float
    turkish_letter: bool = False  # typed with a letter only Turkish has
    foreign_letter: bool = False  # has w, q or x, which Turkish words lack, and running text writes it so
    acronym: bool = False  # all capitals (``capitals.all_capitals``), on a line not typed in capitals
    turkish_acronym: bool = False  # … that running text writes with Turkish letters
    single_letter: bool = False  # says nothing either way (a, I, o, the suffix ı written apart)
    capitalised_inside: bool = False  # Capitalised, not at the start of a sentence (a name or a term)


def emission(word: WordEvidence, turkish_line: bool = False) -> float:
    """The word's log ratio as the model reads it (foreign over Turkish); ``turkish_line``:
    another word of its line is typed with a Turkish letter."""
    if word.acronym and turkish_line:
        return MAX_EVIDENCE  # its writer types Turkish letters: the acronym is as meant (AGİT, AGI)
    if word.turkish_letter:
        return -MAX_EVIDENCE
    if word.single_letter:
        return 0.0
    if word.acronym and not word.turkish_acronym and word.log_ratio > ACRONYM_TURKISH:
        return MAX_EVIDENCE
    ratio = word.log_ratio + (CAPITALISED_INSIDE if word.capitalised_inside else 0.0)
    return max(-MAX_EVIDENCE, min(MAX_EVIDENCE, ratio))


def foreign_posteriors(words: list[WordEvidence], starts: Sequence[int] = (0,)) -> list[float]:
    """P(foreign) of each word of a line (forward-backward over the two languages, within
    each sentence: ``starts`` are the indices of the words that begin one)."""
    emissions = _emissions(words)
    return [p for begin, end in _sentences(starts, len(words)) for p in _posteriors(emissions[begin:end])]


def foreign_words(words: list[WordEvidence], starts: Sequence[int] = (0,)) -> list[bool]:
    """Which words of a line are foreign and stay as typed (``starts``: the indices of the
    words that begin a sentence). A line none of whose words leans foreign has none but
    those with a foreign letter (the common case, decided without the model). A foreign
    letter decides its own word only: a w in a Turkish sentence (a letter named, an
    identifier) says nothing of its neighbours."""
    forced = [word.foreign_letter and not (word.turkish_letter or word.single_letter) for word in words]
    emissions = _emissions(words)
    if all(foreign <= 0.0 for foreign in emissions):
        return forced
    posteriors = [p for begin, end in _sentences(starts, len(words)) for p in _posteriors(emissions[begin:end])]
    return [p > FOREIGN_POSTERIOR or by_letter for p, by_letter in zip(posteriors, forced)]


def _sentences(starts: Sequence[int], count: int) -> list[tuple[int, int]]:
    """(begin, end) word indices of each sentence of a line of ``count`` words."""
    bounds = [start for start in starts if 0 < start < count]
    return list(zip([0, *bounds], [*bounds, count]))


def _posteriors(emissions: list[float]) -> list[float]:
    """Forward-backward over (Turkish, foreign) given each word's foreign emission (the
    Turkish one is 0): ``_logaddexp`` written out inline, the hot loop of the backend."""
    if not emissions:
        return []
    log1p, exp = math.log1p, math.exp
    stay, switch = math.log(1 - SWITCH), math.log(SWITCH)
    t, f = math.log(1 - FOREIGN_PRIOR), math.log(FOREIGN_PRIOR) + emissions[0]
    forward = [(t, f)]
    for foreign in emissions[1:]:
        a, b = t + stay, f + switch
        c, d = t + switch, f + stay
        t = a + log1p(exp(b - a)) if a >= b else b + log1p(exp(a - b))
        f = (c + log1p(exp(d - c)) if c >= d else d + log1p(exp(c - d))) + foreign
        forward.append((t, f))
    t = f = 0.0
    backward = [(t, f)]
    for foreign in reversed(emissions[1:]):
        a, b = stay + t, switch + foreign + f
        c, d = switch + t, stay + foreign + f
        t = a + log1p(exp(b - a)) if a >= b else b + log1p(exp(a - b))
        f = c + log1p(exp(d - c)) if c >= d else d + log1p(exp(c - d))
        backward.append((t, f))
    backward.reverse()
    return [1 / (1 + exp(min(700.0, (ft + bt) - (ff + bf)))) for (ft, ff), (bt, bf) in zip(forward, backward)]


def _emissions(words: list[WordEvidence]) -> list[float]:
    turkish_line = any(word.turkish_letter for word in words)
    return [
        emission(word._replace(capitalised_inside=False) if in_title(words, index) else word, turkish_line)
        for index, word in enumerate(words)
    ]


def in_title(words: list[WordEvidence], index: int) -> bool:
    """Whether a word capitalised inside its sentence stands beside a capitalised Turkish-leaning
    word: a title-cased heading (Öne Çıkan Sporcular, Yeni İş Modelleri), where the capital
    marks no name or term. Beside a foreign-leaning one (Super Mario) it still does."""
    if not words[index].capitalised_inside:
        return False
    neighbours = words[max(index - 1, 0) : index] + words[index + 1 : index + 2]
    return any(word.capitalised_inside and word.log_ratio < 0 for word in neighbours)
