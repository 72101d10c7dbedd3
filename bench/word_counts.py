"""Which spellings are words: those running text counts (the count-based model), for error_classes and genres."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from nokta_model.alphabet import tr_lower
from nokta_model.restorer import Restorer

#: A spelling running text counts at least this often (weighted: a human-written file
#: counts twice) is a word; below it, one or two slips in the corpus (``karariyla``: 2).
WORD_COUNT = 3


@dataclass(frozen=True)
class Lexicon:
    """Running-text counts of spellings and the word-list entries among them (lower case)."""

    counts: Mapping[str, float]
    listed: frozenset[str] = frozenset()

    def count(self, word: str) -> float:
        return self.counts.get(tr_lower(word), 0.0)

    def is_word(self, word: str) -> bool:
        return self.count(word) >= WORD_COUNT

    def real_word(self, gold: str, output: str) -> bool:
        """Both spellings are words: only the context can choose between them (``su``/``şu``)."""
        return self.is_word(gold) and self.is_word(output)

    def misspelling_restored(self, gold: str, output: str) -> bool:
        """The correct text's spelling is no word and the output is one (``cok`` -> ``çok``)."""
        return self.is_word(output) and not self.is_word(gold)


def running_text_counts(counter: Restorer, words: Iterable[str]) -> dict[str, float]:
    """Each word's count (lower case) in ``counter``'s training text (``Restorer.counts``)."""
    spellings = sorted({tr_lower(word) for word in words})
    return dict(zip(spellings, counter.counts(spellings), strict=True))
