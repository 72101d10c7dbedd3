"""Word candidates from per-letter probabilities: the best spelling and the next most
probable ones, enumerated in order of probability (letters taken as independent)."""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator

import numpy as np

from ..alphabet import LOWER_TWIN
from .vocab import code_points

#: The letters a word's ranking decides: the six plain ones. Lines arrive ``model_lower``-ed
#: (an ASCII I as plain i), so a Turkish letter in them was typed so and stays.
_FREE = np.zeros(0x10000, dtype=bool)
_PLAIN = np.zeros(0x10000, dtype=np.uint32)
_TWIN = np.zeros(0x10000, dtype=np.uint32)
for _plain, _twin in LOWER_TWIN.items():
    _FREE[ord(_plain)] = True
    for _letter in (_plain, _twin):
        _PLAIN[ord(_letter)], _TWIN[ord(_letter)] = ord(_plain), ord(_twin)


def free_positions(line: str) -> np.ndarray:
    """Positions of ``line`` (lower-cased) whose letter the model decides."""
    return _FREE[np.minimum(code_points(line), 0xFFFF)]


def free_indices(word: str, limit: int) -> np.ndarray:
    """Indices of the letters ``free_positions`` marks among the first ``limit`` of a short
    ``word``, found in Python: for a word, the round trip through arrays costs more."""
    return np.array([pos for pos, letter in enumerate(word[:limit]) if letter in LOWER_TWIN], dtype=np.intp)


def best_spelling(line: str, twin_probability: np.ndarray) -> str:
    """``line`` with every free letter set to its more probable spelling."""
    points = code_points(line)
    clipped = np.minimum(points, 0xFFFF)
    choice = np.where(twin_probability >= 0.5, _TWIN[clipped], _PLAIN[clipped])
    return np.where(_FREE[clipped], choice, points).astype(np.uint32).tobytes().decode("utf-32-le")


def ranked_spellings(word: str, twin_probability: np.ndarray, limit: int) -> list[tuple[str, float]]:
    """Up to ``limit`` spellings of ``word`` (lower case) with their probabilities, best first."""
    positions = np.flatnonzero(free_positions(word))
    best = best_spelling(word, twin_probability)
    if not len(positions):
        return [(best, 1.0)]
    p = np.clip(twin_probability[positions].astype(np.float64), 1e-9, 1 - 1e-9)
    sure = np.maximum(p, 1 - p)
    best_probability = float(np.prod(sure))
    flip_cost = np.log(sure) - np.log1p(-sure)
    order = np.argsort(flip_cost, kind="stable")
    ranked = [(best, best_probability)]
    for cost, flipped in _cheapest_subsets(flip_cost[order], limit - 1):
        ranked.append((_flip(best, positions[order[list(flipped)]]), best_probability * math.exp(-cost)))
    return ranked


def _cheapest_subsets(costs: np.ndarray, limit: int) -> Iterator[tuple[float, tuple[int, ...]]]:
    """Non-empty index subsets of sorted ``costs`` in order of increasing total cost."""
    if limit <= 0 or not len(costs):
        return
    heap: list[tuple[float, tuple[int, ...]]] = [(float(costs[0]), (0,))]
    for _ in range(limit):
        if not heap:
            return
        cost, subset = heapq.heappop(heap)
        yield cost, subset
        last = subset[-1]
        if last + 1 < len(costs):
            heapq.heappush(heap, (cost + float(costs[last + 1]), (*subset, last + 1)))
            heapq.heappush(heap, (cost - float(costs[last]) + float(costs[last + 1]), (*subset[:-1], last + 1)))


def _flip(word: str, positions: np.ndarray) -> str:
    letters = list(word)
    for position in positions:
        letter = letters[position]
        plain = chr(_PLAIN[ord(letter)])
        letters[position] = LOWER_TWIN[plain] if letter == plain else plain
    return "".join(letters)
