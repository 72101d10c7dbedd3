"""Arc scores of a lattice under the word trigram model: one batched lookup per batch of lines."""

from __future__ import annotations

from itertools import chain, product

import numpy as np

from ..lattice import Position, open_windows
from .lm import LanguageModel


def window_queries(positions: list[Position]) -> list[tuple[int, int, int, int]]:
    """(window end, u, v, w) for every trigram a decode of these positions scores."""
    queries: list[tuple[int, int, int, int]] = []
    for end in open_windows(positions):
        queries.extend(product((end,), positions[end - 2].ids, positions[end - 1].ids, positions[end].ids))
    return queries


def score_windows(lm: LanguageModel, sentences: list[list[Position]]) -> list[dict]:
    """Trigram log scores for each sentence, keyed by (end, u, v, w); one batched lookup."""
    per_sentence = [window_queries(p) for p in sentences]
    flat = [q for queries in per_sentence for q in queries]
    if not flat:
        return [{} for _ in sentences]
    ids = np.fromiter(chain.from_iterable(flat), dtype=np.int64, count=4 * len(flat)).reshape(-1, 4)
    scores = lm.log_scores(ids[:, 1], ids[:, 2], ids[:, 3]).tolist()
    result, start = [], 0
    for queries in per_sentence:
        result.append(dict(zip(queries, scores[start : start + len(queries)], strict=True)))
        start += len(queries)
    return result
