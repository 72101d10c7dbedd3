"""Collocations: which neighbours each spelling of a confusable key is written beside.

A confusable key has two or more spellings counted in running text (su/şu, gol/göl,
oldu/öldü). For each of their spellings the table counts the words one and two places
before and after it, each neighbour by the first ``STEM_LETTERS`` letters of its ASCII
key: its own spelling is as uncertain as the word's, and the first letters stand for its
stem (su kulesi, su kulesine). The counts come from the word bigrams and trigrams of the
train split, before the n-gram tables are pruned.

A spelling's score is, summed over its neighbours weighted by distance, the log of how
much more often it is written beside that neighbour than its share of the key, the count
backed off to that share (an m-estimate): a neighbour never seen beside the key says
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..lattice import BOS, EOS, UNK, Position
from .tables import SortedTable, hash_all

STEM_LETTERS = 5
#: Where a neighbour stands, and how much it counts: the next word most, the one after less.
DISTANCE_WEIGHTS = {-2: 0.5, -1: 1.0, 1: 1.0, 2: 0.5}
#: Each spelling of a confusable key is counted at least this often in running text
#: (weighted: a line of a ×2 file counts 2).
CONFUSABLE_COUNT = 4
MIN_PAIR_COUNT = 3  # rarer pairs are left out of the table (and score as unseen)
PRIOR_WEIGHT = 4.0  # the m of the m-estimate: pseudo-counts of the key's shares
MAX_LOG_RATIO = 3.0  # one neighbour's score is clipped to ± this
_STEM_BITS = 32
_EDGE_STEMS = {BOS: "<s>", EOS: "</s>"}


def stem_hashes(keys: Sequence[str]) -> np.ndarray:
    """The 32-bit hash of each ASCII key's first ``STEM_LETTERS`` letters."""
    return hash_all([key[:STEM_LETTERS] for key in keys]) & ((1 << _STEM_BITS) - 1)


def edge_stem(word_id: int) -> int:
    """The stem hash that stands for a sentence's start or end."""
    return int(hash_all([_EDGE_STEMS[word_id]])[0] & ((1 << _STEM_BITS) - 1))


def pair_keys(word_ids: np.ndarray, offsets: np.ndarray, stems: np.ndarray) -> np.ndarray:
    """Table keys of (spelling id, neighbour offset, neighbour stem hash)."""
    codes = offsets + 2 - (offsets > 0)  # -2, -1, 1, 2 -> 0, 1, 2, 3
    return (word_ids.astype(np.int64) << (_STEM_BITS + 2)) | (codes.astype(np.int64) << _STEM_BITS) | stems


def confusable_words(counts: np.ndarray, key_spans: np.ndarray) -> np.ndarray:
    """True for the spelling ids of confusable keys (two or more spellings counted
    ``CONFUSABLE_COUNT`` times)."""
    confusable = np.zeros(len(counts), dtype=bool)
    first, size = key_spans[:, 0], key_spans[:, 1]
    frequent = counts >= CONFUSABLE_COUNT
    several = np.zeros(len(first), dtype=np.int64)
    for offset in range(int(size.max(initial=1))):
        has = size > offset
        several[has] += frequent[first[has] + offset]
    for offset in range(int(size.max(initial=1))):
        members = first[(size > offset) & (several >= 2)] + offset
        confusable[members] = frequent[members]
    return confusable


def count_collocations(
    bigrams: list[np.ndarray],
    bigram_counts: np.ndarray,
    trigrams: list[np.ndarray],
    trigram_counts: np.ndarray,
    confusable: np.ndarray,
    stems: np.ndarray,
) -> SortedTable:
    """The table of (spelling, offset, neighbour stem) -> weighted count, from the
    renumbered word ids of every bigram and trigram (``stems``: each word id's stem hash)."""
    keys, counts = [], []
    for (left, right), offset, pair_counts in (
        (bigrams, 1, bigram_counts),
        ((trigrams[0], trigrams[2]), 2, trigram_counts),
    ):
        for word, neighbour, signed in ((right, left, -offset), (left, right, offset)):
            chosen = confusable[word] & (neighbour != UNK)
            keys.append(pair_keys(word[chosen], np.full(int(chosen.sum()), signed), stems[neighbour[chosen]]))
            counts.append(pair_counts[chosen])
    table = SortedTable.summed(np.concatenate(keys), np.concatenate(counts).astype(np.float32))
    kept = table.values >= MIN_PAIR_COUNT
    return SortedTable(table.keys[kept], table.values[kept])


def collocation_scores(
    table: SortedTable, counts: np.ndarray, confusable: np.ndarray, sentences: list[list[Position]]
) -> list[list[list[float] | None]]:
    """For each word of each sentence, its spellings' collocation scores (None where the
    word is not confusable); one batched lookup."""
    queries: list[tuple[int, int, int]] = []  # (sentence, word, candidate) of each row
    ids, offsets, neighbours = [], [], []
    for s, words in enumerate(sentences):
        for w, word in enumerate(words):
            if len(word.ids) < 2 or not any(confusable[i] for i in word.ids if i != UNK):
                continue
            for offset in DISTANCE_WEIGHTS:
                neighbour = _neighbour_stem_text(words, w + offset)
                if neighbour is None:
                    continue
                for c, word_id in enumerate(word.ids):
                    queries.append((s, w, c))
                    ids.append(max(word_id, 0))
                    offsets.append(offset)
                    neighbours.append(neighbour)
    scores: list[list[list[float] | None]] = [[None] * len(words) for words in sentences]
    if not queries:
        return scores
    found = table.get(pair_keys(np.array(ids), np.array(offsets), _distinct_stem_hashes(neighbours)), 0.0)
    _fill(scores, sentences, counts, queries, offsets, found.tolist())
    return scores


def _neighbour_stem_text(words: list[Position], index: int) -> str | None:
    """The text whose ``stem_hashes`` stands for the word at ``index`` of a sentence, with
    two slots of padding either side: <s>, <s> before (training pads each sentence so),
    </s> after, then nothing; nothing either for a word without a key."""
    if index < 0:
        return _EDGE_STEMS[BOS]
    if index < len(words):
        return words[index].key or None
    return _EDGE_STEMS[EOS] if index == len(words) else None


def _distinct_stem_hashes(texts: list[str]) -> np.ndarray:
    """``stem_hashes`` of each text, each distinct text hashed once (``edge_stem``'s
    texts are their own stems)."""
    index = {text: i for i, text in enumerate(dict.fromkeys(texts))}
    return stem_hashes(list(index))[[index[text] for text in texts]]


def _fill(
    scores: list[list[list[float] | None]],
    sentences: list[list[Position]],
    counts: np.ndarray,
    queries: list[tuple[int, int, int]],
    offsets: list[int],
    found: list[float],
) -> None:
    """Sum each word's neighbours' log ratios into ``scores``, the words with as many
    spellings as each other in one array: (word, offset, spelling), NaN at an offset
    without a neighbour."""
    beside: dict[tuple[int, int], list[float]] = {}  # (sentence, word) -> counts by offset, then spelling
    for (s, w, c), offset, count in zip(queries, offsets, found, strict=True):
        size = len(sentences[s][w].ids)
        row = beside.get((s, w))
        if row is None:
            row = beside[s, w] = [np.nan] * (len(DISTANCE_WEIGHTS) * size)
        row[_OFFSET_ROWS[offset] * size + c] = count
    by_size: dict[int, list[tuple[int, int]]] = {}
    for s, w in beside:
        by_size.setdefault(len(sentences[s][w].ids), []).append((s, w))
    for size, words in by_size.items():
        seen = np.array([beside[word] for word in words]).reshape(len(words), len(DISTANCE_WEIGHTS), size)
        prior = np.array([[float(counts[i]) if i != UNK else 0.0 for i in sentences[s][w].ids] for s, w in words])
        for (s, w), total in zip(words, _summed_log_ratios(seen, prior + 1e-3).tolist(), strict=True):
            scores[s][w] = total


_OFFSET_ROWS = {offset: row for row, offset in enumerate(DISTANCE_WEIGHTS)}
_WEIGHTS = np.array(list(DISTANCE_WEIGHTS.values()))


def _summed_log_ratios(seen: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """(word, spelling) sums over the offsets of ``seen`` (word, offset, spelling: NaN
    where no neighbour stands) of each clipped log ratio, weighted by distance, added
    offset after offset; ``prior``: (word, spelling) counts that give the key's shares."""
    shares = (prior / prior.sum(axis=1, keepdims=True))[:, None, :]
    ratio = np.log((seen + PRIOR_WEIGHT * shares) / ((seen.sum(axis=2, keepdims=True) + PRIOR_WEIGHT) * shares))
    weighted = _WEIGHTS[None, :, None] * np.clip(ratio, -MAX_LOG_RATIO, MAX_LOG_RATIO)
    present = ~np.isnan(seen)
    total = np.zeros(prior.shape)
    for row in range(len(DISTANCE_WEIGHTS)):
        total += np.where(present[:, row], weighted[:, row], 0.0)
    return total
