"""Character n-gram model for words the lexicon has not seen.

Each ambiguous letter of a word is decided from the letters around it: counts of
"plain vs. Turkish twin" for every context window (left letters, the letter, right
letters, with ^ and $ marking the word's ends), looked up from the longest window to
the shortest until one has been seen often enough. Letters are decided left to right
and the left context is the restored spelling so far, so vowel harmony carries into
suffixes ("yapılandırılıyor", not "yapılandırıliyor"); the right context is ASCII.
Counted over word types (each distinct spelling once), since unseen words behave like
rare words, not frequent ones.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from functools import cached_property

import numpy as np

from ..alphabet import LOWER_TWIN
from ..words import ambiguous_positions, spell
from .tables import SortedTable, hash_all, string_hash

#: (left, right) window sizes, longest first.
WINDOWS = (
    (5, 5),
    (4, 4),
    (3, 4),
    (4, 3),
    (3, 3),
    (2, 3),
    (3, 2),
    (2, 2),
    (1, 2),
    (2, 1),
    (1, 1),
    (0, 1),
    (1, 0),
    (0, 0),
)
MIN_EVIDENCE = 2  # a window seen fewer times defers to a shorter one


def _context_hashes(key: str, spelled_left: str, pos: int) -> list[int]:
    """Hashes of every window around ``pos``; ``spelled_left`` is the spelling of key[:pos]."""
    return [string_hash(text) for text in _context_texts(key, spelled_left, pos)]


def _context_texts(key: str, spelled_left: str, pos: int) -> list[str]:
    """Every window around ``pos`` as the text that is hashed, longest first."""
    left_text, right_text = f"^{spelled_left}", f"{key[pos + 1 :]}$"
    return [
        f"{left}{right}{left_text[len(left_text) - left :] if left else ''}[{key[pos]}]{right_text[:right]}"
        for left, right in WINDOWS
    ]


class CharModel:
    def __init__(self, table: SortedTable):
        self.table = table  # context hash -> (times plain, times twin) as uint32 pairs

    @classmethod
    def deferred(cls, read_table: Callable[[], SortedTable]) -> CharModel:
        """A model whose table is read the first time a letter is asked about: only words
        the lexicon lacks need it."""
        return _DeferredCharModel(read_table)

    @classmethod
    def count(cls, spellings: Iterable[tuple[str, int]]) -> CharModel:
        """Count contexts over ``(key, mask)`` word types."""
        hashes, labels = array("q"), array("b")
        for key, mask in spellings:
            spelled = spell(key, mask)
            for pos in ambiguous_positions(key):
                context = _context_hashes(key, spelled[:pos], pos)
                hashes.extend(context)
                labels.extend([mask >> pos & 1] * len(context))
        keys = np.frombuffer(hashes, dtype=np.int64)
        twin = np.frombuffer(labels, dtype=np.int8).astype(np.int64)
        unique, inverse = np.unique(keys, return_inverse=True)
        totals = np.bincount(inverse, minlength=len(unique))
        twins = np.bincount(inverse, weights=twin, minlength=len(unique)).astype(np.int64)
        keep = totals >= MIN_EVIDENCE
        counts = np.stack([totals - twins, twins], axis=1)[keep].astype(np.uint32)
        return cls(SortedTable(unique[keep], counts))

    def all_twin_probabilities(self, words: list[tuple[str, dict[int, bool]]]) -> list[dict[int, float]]:
        """For each (key, fixed) word, P(Turkish twin) of every ambiguous position of its
        key, decided left to right; ``fixed`` positions (typed with a diacritic, or spelled
        by a known stem) are taken as given, with probability 1 or 0. The words' n-th
        letters are decided together, their windows looked up in one batch."""
        spelled = [list(key) for key, _ in words]
        positions = [ambiguous_positions(key) for key, _ in words]
        probabilities: list[dict[int, float]] = [{} for _ in words]
        for step in range(max(map(len, positions), default=0)):
            asked = []  # (word, position) of each letter no stem or typed letter fixes
            for word, ((_, fixed), word_positions) in enumerate(zip(words, positions, strict=True)):
                if step < len(word_positions):
                    pos = word_positions[step]
                    if pos in fixed:
                        probabilities[word][pos] = float(fixed[pos])
                    else:
                        asked.append((word, pos))
            texts = [
                text
                for word, pos in asked
                for text in _context_texts(words[word][0], "".join(spelled[word][:pos]), pos)
            ]
            found = self._window_probabilities(hash_all(texts)) if texts else []
            for (word, pos), probability in zip(asked, found, strict=True):
                probabilities[word][pos] = probability
            for word, word_positions in enumerate(positions):
                if step < len(word_positions):
                    pos = word_positions[step]
                    if probabilities[word][pos] > 0.5:
                        spelled[word][pos] = LOWER_TWIN[words[word][0][pos]]
        return probabilities

    def _window_probabilities(self, hashes: np.ndarray) -> list[float]:
        """For each letter's run of ``len(WINDOWS)`` window hashes: P(twin) from the longest
        window seen at least MIN_EVIDENCE times (else the shortest)."""
        counts = self.table.get(hashes, default=0).reshape(-1, len(WINDOWS), 2)
        seen = counts.sum(axis=2) >= MIN_EVIDENCE
        chosen = np.where(seen.any(axis=1), seen.argmax(axis=1), len(WINDOWS) - 1)
        plain_twin = counts[np.arange(len(counts)), chosen].tolist()
        return [(twin + 0.5) / (plain + twin + 1.0) for plain, twin in plain_twin]


class _DeferredCharModel(CharModel):
    def __init__(self, read_table: Callable[[], SortedTable]):
        self._read_table = read_table

    @cached_property
    def table(self) -> SortedTable:  # type: ignore[override]
        return self._read_table()
