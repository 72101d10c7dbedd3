"""The candidate lattice of a line: its slots, Viterbi decoding and word rankings.

Positions are ``<s> <s> w1 … wn </s>``; each holds candidate spellings (word ids of
the count-based lexicon, ``UNK`` for spellings it lacks, and a bit mask over the
token's ASCII key) and an emission log score per candidate. Arcs are trigram windows:
their scores come from a language model (``arc_scores`` of the count-based backend)
as a dict keyed by ``(end, u, v, w)``. A state is the pair of choices at the last two
positions. Only windows that touch a position with more than one candidate are
scored: the rest add the same amount to every path. Max-marginals (forward + backward
best scores) give each candidate's share, which is the confidence reported for it.

Every backend that decodes a lattice (count-based, the default) shares this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from .restorer import Ranking
from .spans import Span
from .words import spell

BOS, EOS, UNK = 0, 1, 2  # word ids of the sentence padding and of spellings no lexicon has


@dataclass
class Position:
    """One lattice slot: candidate word ids, their spelling masks over ``key``."""

    ids: list[int]
    emissions: list[float] = field(default_factory=list)
    masks: list[int] = field(default_factory=lambda: [0])
    key: str = ""

    def emission(self, choice: int) -> float:
        return self.emissions[choice] if self.emissions else 0.0

    @property
    def unseen(self) -> bool:
        """No candidate is a spelling the lexicon has."""
        return self.ids.count(UNK) == len(self.ids)


def open_windows(positions: list[Position]) -> list[int]:
    """Ends of the trigram windows whose score can differ between paths: those that end at
    a competing position or one or two after it (the first window ends at position 2)."""
    last = len(positions) - 1
    ends: list[int] = []
    after = 2  # the first end not taken yet
    for index, position in enumerate(positions):
        if len(position.ids) > 1:
            stop = min(index + 2, last) + 1
            ends.extend(range(max(index, after), stop))
            after = max(after, stop)
    return ends


_BOS, _EOS = Position([BOS]), Position([EOS])  # shared by every sentence: never changed


def sentence_positions(words: Iterable[Position]) -> list[Position]:
    return [_BOS, _BOS, *words, _EOS]


class Decoding(NamedTuple):
    """Best choice index per position, and (optionally) the per-candidate max-marginals of
    the positions that compete (by position index)."""

    best: list[int]
    marginals: dict[int, list[float]]

    def best_share(self, index: int) -> float:
        """The share of the best candidate at position ``index`` (1.0 where nothing competes)."""
        values = self.marginals.get(index)
        return 1.0 if values is None else max(_softmax(values))


def decode(positions: list[Position], scores: dict, with_marginals: bool) -> Decoding:
    """The best path through ``positions`` under the arc ``scores``, with max-marginals if asked.

    Runs of windows that touch competing positions are decoded on their own: two runs
    share no window, so the best path is the best path of each run.
    """
    best = [0] * len(positions)
    marginals: dict[int, list[float]] = {}
    for first, last in _runs(open_windows(positions)):
        steps: dict[int, list] | None = {} if with_marginals else None
        forward, back = _forward(positions, scores, first, last, steps)
        state = max(forward[last], key=forward[last].__getitem__)
        for end in range(last, first - 1, -1):
            best[end - 1], best[end] = state
            state = back[end][state]
        if steps is not None:
            _marginals(positions, forward, steps, first, last, marginals)
    return Decoding(best, marginals)


#: A decoder state: the choices at the two last positions.
State = tuple[int, int]


def _runs(ends: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for end in ends:
        if runs and runs[-1][1] == end - 1:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((end, end))
    return runs


def _forward(
    positions: list[Position], scores: dict, first: int, last: int, steps: dict[int, list] | None
) -> tuple[dict[int, dict[State, float]], dict[int, dict[State, State]]]:
    """Best scores of states (choice at end-1, choice at end) for ends first..last; each
    transition (a, b, c, score) is kept in ``steps`` by its end, if given, for ``_marginals``."""
    forward: dict[int, dict[State, float]] = {first - 1: {(0, 0): 0.0}}
    back: dict[int, dict[State, State]] = {}
    for end in range(first, last + 1):
        layer: dict[State, float] = {}
        pointers: dict[State, State] = {}
        kept = [] if steps is None else steps.setdefault(end, [])
        us, vs, position = positions[end - 2].ids, positions[end - 1].ids, positions[end]
        emissions = position.emissions or [0.0] * len(position.ids)
        for (a, b), total in forward[end - 1].items():
            u, v = us[a], vs[b]
            for c, (w, emission) in enumerate(zip(position.ids, emissions, strict=True)):
                step = scores.get((end, u, v, w), 0.0) + emission
                if steps is not None:
                    kept.append((a, b, c, step))
                value = total + step
                state = (b, c)
                best = layer.get(state)
                if best is None or value > best:
                    layer[state], pointers[state] = value, (a, b)
        forward[end], back[end] = layer, pointers
    return forward, back


def _marginals(
    positions: list[Position],
    forward: dict[int, dict[State, float]],
    steps: dict[int, list],
    first: int,
    last: int,
    marginals: dict,
) -> None:
    """Fill in, for positions first..last, each candidate's best path score."""
    backward = {state: 0.0 for state in forward[last]}
    for end in range(last, first - 1, -1):
        best = marginals[end] = [-math.inf] * len(positions[end].ids)
        for (b, c), after in backward.items():
            best[c] = max(best[c], forward[end][(b, c)] + after)
        if end > first:  # the best scores after each state of the window before
            backward = _backward_step(steps[end], backward)


def _backward_step(steps: list, backward: dict) -> dict:
    """Best scores of what follows each state ending one position earlier, given ``backward``
    for the states ending at the end of ``steps`` (the transitions into them)."""
    earlier: dict[tuple[int, int], float] = {}
    for a, b, c, step in steps:
        value = backward[(b, c)] + step
        earlier[(a, b)] = max(earlier.get((a, b), -math.inf), value)
    return earlier


def line_rankings(
    line: str,
    word_spans: list[Span],
    tokens: list[Span],
    positions: list[Position],
    scores: dict,
    with_scores: bool,
    typed: str | None = None,
) -> list[Ranking]:
    """Decode a line's lattice and rank every word's spellings, best first."""
    decoding = decode(positions, scores, with_scores)
    return decoded_rankings(line, word_spans, tokens, positions, decoding, with_scores, typed)


def typed_per_line(typed: list[str] | None, count: int) -> list[str | None]:
    """``Restorer.rank``'s ``typed`` lines, or None for each of ``count`` lines when not given."""
    return list(typed) if typed is not None else [None] * count


def decoded_rankings(
    line: str,
    word_spans: list[Span],
    tokens: list[Span],
    positions: list[Position],
    decoding: Decoding,
    with_scores: bool,
    typed: str | None = None,
) -> list[Ranking]:
    """Rank every word's spellings, best first, from a decoding of the line's lattice (with
    its max-marginals when ``with_scores``). Given the line as ``typed`` (``Restorer.rank``),
    a word of one token whose best spelling is the typed one, with a share of at least 0.5,
    is left with an empty ranking."""
    if typed is None and not with_scores:  # the best spelling of each token (``_spelled``, inline)
        best = decoding.best[2:-1]
        rankings = [
            [(spell(position.key, mask) if (mask := position.masks[choice]) else position.key, 1.0)]
            for position, choice in zip(positions[2:-1], best, strict=True)
        ]
    else:
        rankings = _typed_rankings(tokens, set(word_spans), positions, decoding, with_scores, typed)
    if tokens == word_spans:  # every word is one token
        return rankings
    ranked = iter(zip(tokens, rankings, strict=True))  # each word's tokens, in order, from its start to its end
    words = []
    for span in word_spans:
        parts = [next(ranked)]
        while parts[-1][0].end < span.end:
            parts.append(next(ranked))
        words.append(parts[0][1] if len(parts) == 1 else _word_ranking(line, span, parts))
    return words


def _typed_rankings(
    tokens: list[Span],
    words: set[Span],
    positions: list[Position],
    decoding: Decoding,
    with_scores: bool,
    typed: str | None,
) -> list[Ranking]:
    """Each token's ranking, with its max-marginals when ``with_scores``: empty for a word
    of one token whose best spelling is the ``typed`` one."""
    best, marginals = decoding
    rankings = []
    for index, token in enumerate(tokens, start=2):
        position = positions[index]
        as_typed = typed[token.start : token.end] if typed is not None and token in words else None
        if with_scores and len(position.masks) > 1:
            ranked = _scored_ranking(position, marginals[index], as_typed)
        else:  # the best spelling only, or the one spelling there is
            spelled = _spelled(position, best[index])
            ranked = [] if spelled == as_typed else [(spelled, 1.0)]
        rankings.append(ranked)
    return rankings


def _spelled(position: Position, choice: int) -> str:
    mask = position.masks[choice]
    return spell(position.key, mask) if mask else position.key


def _scored_ranking(position: Position, marginals: list[float], typed: str | None) -> Ranking:
    """A competing token's spellings by their shares, best first; empty when its best one is
    ``typed`` with a share of at least 0.5 (only the best one is spelled to find out)."""
    shares = _softmax(marginals)
    top = max(shares)
    if typed is not None and top >= 0.5 and spell(position.key, position.masks[shares.index(top)]) == typed:
        return []
    ranked = sorted(zip(position.masks, shares, strict=True), key=lambda ms: -ms[1])
    return [(spell(position.key, mask), share) for mask, share in ranked]


def _word_ranking(line: str, span: Span, parts: list[tuple[Span, Ranking]]) -> Ranking:
    """Rank the spellings of a word of several tokens from its tokens' (``parts``): the best
    of each, then one change at a time."""
    base = list(line[span.start : span.end])
    for token, ranking in parts:
        base[token.start - span.start : token.end - span.start] = ranking[0][0]
    best_share = math.prod(ranking[0][1] for _, ranking in parts)
    result = [("".join(base), best_share)]
    for token, ranking in parts:
        for spelling, share in ranking[1:]:
            variant = list(base)
            variant[token.start - span.start : token.end - span.start] = spelling
            result.append(("".join(variant), best_share / max(ranking[0][1], 1e-12) * share))
    return sorted(result, key=lambda item: -item[1])


def _softmax(values: list[float]) -> list[float]:
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]
