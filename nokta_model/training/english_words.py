"""English word frequencies, taken at build time from the ``wordfreq`` package into the artifact.

``wordfreq`` (its data: CC BY-SA 4.0, see data/LICENSES.md) is needed only to build the
count-based model; restoring reads the table from ``ngram.npz``. Words are kept by their
ASCII key with their Zipf frequency (log10 of the frequency per billion words) in tenths.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from ..ngram.tables import SortedTable, hash_all

MIN_ZIPF = 2.0  # rarer English words are left out
_ASCII_WORD_RE = re.compile(r"[a-z]+(?:'[a-z]+)?")


@cache
def english_table(min_zipf: float = MIN_ZIPF) -> SortedTable:
    """ASCII key hash -> Zipf frequency × 10 (uint8) of English words at least ``min_zipf``
    (made once a process: the tables are never written to)."""
    import wordfreq

    words, tenths = [], []
    for word in wordfreq.top_n_list("en", 1_000_000):
        zipf = wordfreq.zipf_frequency(word, "en")
        if zipf < min_zipf:
            break
        if _ASCII_WORD_RE.fullmatch(word):
            words.append(word)
            tenths.append(round(zipf * 10))
    return SortedTable.build(hash_all(words), np.array(tenths, dtype=np.uint8))


def wordfreq_version() -> str:
    from importlib.metadata import version

    return version("wordfreq")
