"""Character n-gram model for words the lexicon has not seen.

Each ambiguous letter of a word is decided from the letters around it: counts of
"plain vs. Turkish twin" for every context window (left letters, the letter, right
letters, with ^ and $ marking the word's ends), looked up from the longest window to
the shortest until one has been seen often enough. Counted over word types (each
distinct spelling once), since unseen words behave like rare words, not frequent ones.
"""

from __future__ import annotations

from array import array
from typing import Iterable

import numpy as np

from .tables import SortedTable, string_hash
from .words import ambiguous_positions

#: (left, right) window sizes, longest first.
WINDOWS = ((5, 5), (4, 4), (3, 4), (4, 3), (3, 3), (2, 3), (3, 2), (2, 2), (1, 2), (2, 1), (1, 1), (0, 1), (1, 0), (0, 0))
MIN_EVIDENCE = 2  # a window seen fewer times defers to a shorter one


def _context_hashes(key: str, pos: int) -> list[int]:
    padded = f"^{key}$"
    centre = pos + 1
    return [
        string_hash(f"{left}{right}{padded[max(0, centre - left):centre]}[{key[pos]}]{padded[centre + 1:centre + 1 + right]}")
        for left, right in WINDOWS
    ]


class CharModel:
    def __init__(self, table: SortedTable):
        self.table = table  # context hash -> (times plain, times twin) as uint32 pairs

    @classmethod
    def count(cls, spellings: Iterable[tuple[str, int]]) -> "CharModel":
        """Count contexts over ``(key, mask)`` word types."""
        hashes, labels = array("q"), array("b")
        for key, mask in spellings:
            for pos in ambiguous_positions(key):
                context = _context_hashes(key, pos)
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

    def twin_probabilities(self, key: str) -> dict[int, float]:
        """P(Turkish twin) for every ambiguous position of ``key``."""
        positions = ambiguous_positions(key)
        if not positions:
            return {}
        queries = np.array([h for pos in positions for h in _context_hashes(key, pos)], dtype=np.int64)
        counts = self.table.get(queries, default=0).reshape(len(positions), len(WINDOWS), 2)
        seen = counts.sum(axis=2) >= MIN_EVIDENCE
        first_seen = np.where(seen.any(axis=1), seen.argmax(axis=1), len(WINDOWS) - 1)
        chosen = counts[np.arange(len(positions)), first_seen].astype(np.float64)
        probabilities = (chosen[:, 1] + 0.5) / (chosen.sum(axis=1) + 1.0)
        return dict(zip(positions, probabilities.tolist()))
