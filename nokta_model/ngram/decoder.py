"""Viterbi decoding of a sentence's candidate lattice under the trigram model.

Positions are ``<s> <s> w1 … wn </s>``; each has candidate word ids and an emission
log score (zero for lexicon words, the character model's log probability for unseen
ones). A state is the pair of choices at the last two positions. Only windows that
touch a position with more than one candidate are scored: the rest add the same
amount to every path. Max-marginals (forward + backward best scores) give each
candidate's share, which is the confidence reported for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .lm import BOS, EOS, LanguageModel


@dataclass
class Position:
    """One lattice slot: candidate word ids, their spelling masks over ``key``."""

    ids: list[int]
    emissions: list[float] = field(default_factory=list)
    masks: list[int] = field(default_factory=lambda: [0])
    key: str = ""

    def emission(self, choice: int) -> float:
        return self.emissions[choice] if self.emissions else 0.0


def _windows(positions: list[Position]) -> list[int]:
    """Ends of the trigram windows whose score can differ between paths."""
    open_windows = set()
    for end, position in enumerate(positions):
        if len(position.ids) > 1:
            open_windows.update(e for e in (end, end + 1, end + 2) if 2 <= e < len(positions))
    return sorted(open_windows)


def window_queries(positions: list[Position]) -> list[tuple[int, int, int, int]]:
    """(window end, u, v, w) for every trigram a decode of these positions scores."""
    queries = []
    for end in _windows(positions):
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


def sentence_positions(words: list[Position]) -> list[Position]:
    return [Position([BOS]), Position([BOS]), *words, Position([EOS])]


def decode(positions: list[Position], scores: dict, with_marginals: bool) -> tuple[list[int], list[list[float]]]:
    """Best choice index per position, and (optionally) per-candidate max-marginals.

    Runs of windows that touch competing positions are decoded on their own: two runs
    share no window, so the best path is the best path of each run.
    """
    best = [0] * len(positions)
    marginals = [[0.0] * len(p.ids) for p in positions] if with_marginals else []
    for first, last in _runs(_windows(positions)):
        forward, back = _forward(positions, scores, first, last)
        state = max(forward[last], key=forward[last].get)
        for end in range(last, first - 1, -1):
            best[end - 1], best[end] = state
            state = back[end][state]
        if with_marginals:
            _marginals(positions, scores, forward, first, last, marginals)
    return best, marginals


def _runs(ends: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for end in ends:
        if runs and runs[-1][1] == end - 1:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((end, end))
    return runs


def _transition(positions, scores, end, a, b, c) -> float:
    window = (end, positions[end - 2].ids[a], positions[end - 1].ids[b], positions[end].ids[c])
    return scores.get(window, 0.0) + positions[end].emission(c)


def _forward(positions, scores, first: int, last: int):
    """Best scores of states (choice at end-1, choice at end) for ends first..last."""
    forward: dict[int, dict] = {first - 1: {(0, 0): 0.0}}
    back: dict[int, dict] = {}
    for end in range(first, last + 1):
        layer, pointers = {}, {}
        for (a, b), total in forward[end - 1].items():
            for c in range(len(positions[end].ids)):
                value = total + _transition(positions, scores, end, a, b, c)
                if (b, c) not in layer or value > layer[(b, c)]:
                    layer[(b, c)], pointers[(b, c)] = value, (a, b)
        forward[end], back[end] = layer, pointers
    return forward, back


def _marginals(positions, scores, forward, first: int, last: int, marginals: list[list[float]]) -> None:
    """Fill in, for positions first..last, each candidate's best path score."""
    backward = {state: 0.0 for state in forward[last]}
    for end in range(last, first - 1, -1):
        marginals[end] = [-np.inf] * len(positions[end].ids)
        for (b, c), after in backward.items():
            marginals[end][c] = max(marginals[end][c], forward[end][(b, c)] + after)
        earlier = {}
        for (b, c), after in backward.items():
            for a in range(len(positions[end - 2].ids)):
                if (a, b) in forward[end - 1]:
                    value = after + _transition(positions, scores, end, a, b, c)
                    earlier[(a, b)] = max(earlier.get((a, b), -np.inf), value)
        backward = earlier
