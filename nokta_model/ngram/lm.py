"""The lexicon (ASCII key -> attested spellings) and the word trigram language model.

Smoothing is stupid back-off (Brants et al., 2007): the relative frequency of the
trigram if it was seen, else 0.4 × that of the bigram, else 0.4² × the unigram's.
Scores only ever compare candidate spellings of the same sentence, which is what
stupid back-off is good at, and it needs no normalisation over the vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..lattice import BOS, EOS, UNK
from .charmodel import CharModel
from .collocations import confusable_words
from .tables import ID_BITS, SortedTable, hash_all, pack

FIRST_WORD_ID = 3
BACKOFF = 0.4
_LOG_BACKOFF = np.log(BACKOFF)
UNK_COUNT = 0.5
LIST_BONUS = 0.5  # pseudo-count of a spelling attested only in a word list


@dataclass
class Lexicon:
    key_table: SortedTable  # key hash -> (first candidate id, number of candidates)
    masks: np.ndarray  # candidate id -> spelling mask over its key
    counts: np.ndarray  # candidate id -> unigram count (weighted)

    def candidates(self, keys: list[str]) -> list[range]:
        """Candidate ids of each key, most frequent first (empty if unknown)."""
        rows = self.key_table.find(hash_all(keys))
        spans = self.key_table.values[np.maximum(rows, 0)]
        first = np.where(rows >= 0, spans[:, 0], 0)
        end = first + np.where(rows >= 0, spans[:, 1], 0)
        return list(map(range, first.tolist(), end.tolist()))

    def counted(self, word_id: int) -> bool:
        """Whether the spelling was counted in running text, not only found in a word list."""
        return word_id >= 0 and float(self.counts[word_id]) > LIST_BONUS

    def competing_words(self) -> np.ndarray:
        """True for the ids of spellings whose key has another spelling."""
        competing = np.zeros(len(self.masks), dtype=bool)
        first, size = self.key_table.values[:, 0], self.key_table.values[:, 1]
        for offset in range(1, int(size.max(initial=1))):
            members = first[size > offset]
            competing[members] = True
            competing[members + offset] = True
        return competing


@dataclass
class LanguageModel:
    lexicon: Lexicon
    bigrams: SortedTable  # packed (u, v) -> count
    trigrams: SortedTable  # packed (u, v, w) -> count
    chars: CharModel
    english: SortedTable  # ASCII key hash -> English Zipf frequency × 10 (``english.py``)
    capitals: SortedTable  # spelling hash -> times written under a capital İ, under a capital I (``capitals.py``)
    acronyms: SortedTable  # key hash -> times written in capitals with Turkish letters (``capitals.py``)
    #: (spelling, offset, neighbour stem) -> count (``collocations.py``); empty in a file without it
    collocations: SortedTable = field(default_factory=lambda: SortedTable(np.zeros(0, np.int64), np.zeros(0)))

    def __post_init__(self) -> None:
        self.total = float(self.lexicon.counts.sum())
        # <s> and </s> have no lexicon count: each is seen once a sentence, and training
        # counts each sentence start as the bigram <s> <s>.
        self.sentences = float(self.bigrams.get(np.array([pack(BOS, BOS)]), 0.0)[0])

    @cached_property
    def confusable(self) -> np.ndarray:
        """True for the spelling ids of confusable keys (``collocations.confusable_words``)."""
        return confusable_words(self.lexicon.counts, self.lexicon.key_table.values)

    def _unigram(self, ids: np.ndarray) -> np.ndarray:
        padding = (ids == BOS) | (ids == EOS)
        counts = np.where(padding, self.sentences, self.lexicon.counts[ids].astype(np.float64))
        return np.where(ids == UNK, UNK_COUNT, np.maximum(counts, UNK_COUNT))

    def log_scores(self, u: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
        """log S(w | u, v) for arrays of word ids."""
        uni_v, uni_w = self._unigram(v), self._unigram(w)
        tri = self.trigrams.get((u << 2 * ID_BITS) | (v << ID_BITS) | w, 0.0).astype(np.float64)
        context = self.bigrams.get((u << ID_BITS) | v, 0.0).astype(np.float64)
        bi = self.bigrams.get((v << ID_BITS) | w, 0.0).astype(np.float64)
        # A word the lexicon lacks is no word that training mapped to UNK (a token no key
        # spells): n-grams with UNK in them say nothing about it, so they back off.
        tri[(u == UNK) | (v == UNK) | (w == UNK)] = 0.0
        bi[(v == UNK) | (w == UNK)] = 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(
                (tri > 0) & (context > 0),
                np.log(tri / np.maximum(context, 1e-9)),
                np.where(bi > 0, _LOG_BACKOFF + np.log(bi / uni_v), 2 * _LOG_BACKOFF + np.log(uni_w / self.total)),
            )
        return score
