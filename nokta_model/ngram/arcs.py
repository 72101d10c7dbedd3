"""Arc scores of a lattice under the word trigram model: one batched lookup per batch of lines."""

from __future__ import annotations

import numpy as np

from ..lattice import Position, open_windows
from .lm import LanguageModel


def window_queries(positions: list[Position]) -> list[tuple[int, int, int, int]]:
    """(window end, u, v, w) for every trigram a decode of these positions scores."""
    queries: list[tuple[int, int, int, int]] = []
    for end in open_windows(positions):
        for u in positions[end - 2].ids:
            for v in positions[end - 1].ids:
                queries.extend((end, u, v, w) for w in positions[end].ids)
    return queries


def score_windows(lm: LanguageModel, sentences: list[list[Position]]) -> list[dict]:
    """Trigram log scores for each sentence, keyed by (end, u, v, w); one batched lookup."""
    per_sentence = [window_queries(p) for p in sentences]
    flat = [q for queries in per_sentence for q in queries]
    if not flat:
        return [{} for _ in sentences]
    ids = np.array([q[1:] for q in flat], dtype=np.int64)
    scores = lm.log_scores(ids[:, 0], ids[:, 1], ids[:, 2]).tolist()
    result, start = [], 0
    for queries in per_sentence:
        result.append(dict(zip(queries, scores[start : start + len(queries)])))
        start += len(queries)
    return result
