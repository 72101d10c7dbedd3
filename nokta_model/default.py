"""Hybrid decoding: the count-based lattice (lexicon candidates, trigram Viterbi) with
the network's letter probabilities as emission scores.

For a word the lexicon knows, each attested spelling scores its trigram log
probability plus ``weight`` × the network's log probability of that spelling. Words
the lexicon lacks are spelled letter by letter from a log-linear mix of the two
models' letter logits: ``unseen_mix`` × the count-based (known stem, then character
contexts) + (1 − ``unseen_mix``) × the network's. With ``weight`` 0 the network runs
only on lines that hold unseen words. Both settings are chosen on the corpus dev split
(bench/neural_hybrid_dev.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np

from .lattice import UNK, Position, line_rankings, sentence_positions
from .neural.candidates import free_positions
from .neural.restorer import NeuralRestorer, load_neural_restorer
from .ngram.model import NgramRestorer
from .restorer import Ranking, Restorer
from .spans import Span
from .words import MAX_MASK_BITS, spelling_mask, token_key, token_spans

UNSEEN_ALTERNATIVES = 4
UNSEEN_CONTEXT = 48  # letters of context the network sees either side of an unseen word


@dataclass(frozen=True)
class HybridSettings:
    weight: float = 0.0  # network log-probability weight for words the lexicon knows
    unseen_mix: float = 0.0  # share of the count-based letter logits for unseen words


class HybridRestorer(Restorer):
    name = "hybrid"

    def __init__(
        self, ngram: NgramRestorer, neural: NeuralRestorer, settings: HybridSettings = HybridSettings()
    ) -> None:
        self.ngram, self.neural, self.settings = ngram, neural, settings

    def attested(self, spellings: list[str]) -> list[bool]:
        """Attested by the count-based lexicon, which the hybrid decodes with."""
        return self.ngram.attested(spellings)

    def rank(self, lines: list[str], spans: list[list[Span]], with_scores: bool) -> list[list[Ranking]]:
        tokens = [token_spans(word_spans, line) for word_spans, line in zip(spans, lines)]
        texts = [line[t.start : t.end] for line, line_tokens in zip(lines, tokens) for t in line_tokens]
        found = iter(self.ngram.candidates(texts))
        lexicon = [list(islice(found, len(line_tokens))) for line_tokens in tokens]
        probabilities = self._probabilities(lines, tokens, lexicon)
        sentences = [
            sentence_positions([self._position(line, t, known, p) for t, known in zip(line_tokens, line_lexicon)])
            for line, line_tokens, line_lexicon, p in zip(lines, tokens, lexicon, probabilities)
        ]
        scores = self.ngram.arc_scores(sentences)
        return [line_rankings(*parts, with_scores) for parts in zip(lines, spans, tokens, sentences, scores)]

    def _probabilities(
        self, lines: list[str], tokens: list[list[Span]], lexicon: list[list[Position]]
    ) -> list[np.ndarray | None]:
        """Network probabilities where they are needed: whole lines when the network weighs
        every word, else only windows of ``UNSEEN_CONTEXT`` letters around unseen words."""
        if self.settings.weight > 0:
            windows = [[(0, len(line))] for line in lines]
        else:
            windows = [_windows(line, t, p) for line, t, p in zip(lines, tokens, lexicon)]
        snippets = [(i, a, b) for i, line_windows in enumerate(windows) for a, b in line_windows]
        result: list[np.ndarray | None] = [
            None if not w else np.full(len(lines[i]), 0.5) for i, w in enumerate(windows)
        ]
        for (index, start, end), p in zip(
            snippets, self.neural.line_probabilities([lines[i][a:b] for i, a, b in snippets])
        ):
            result[index][start:end] = p
        return result

    def _position(self, line: str, token: Span, lexicon: Position, p: np.ndarray | None) -> Position:
        text = line[token.start : token.end]
        free = np.flatnonzero(free_positions(text)[:MAX_MASK_BITS])
        unseen = lexicon.unseen
        if p is None or not len(free) or not (unseen or self.settings.weight > 0):
            return lexicon
        key = lexicon.key or token_key(text)
        logits = _logit(p[token.start + free])
        if unseen and self.settings.unseen_mix > 0:
            counted = self._counted_probabilities(key, text)
            counted_logits = _logit(np.array([counted.get(bit, 0.5) for bit in free.tolist()]))
            logits = (1 - self.settings.unseen_mix) * logits + self.settings.unseen_mix * counted_logits
        plain_total = -float(np.logaddexp(0.0, logits).sum())
        gains = dict(zip(free.tolist(), logits.tolist()))

        def log_probability(mask: int) -> float:
            return plain_total + sum(gain for bit, gain in gains.items() if mask >> bit & 1)

        if unseen:
            best = (spelling_mask(key, text) or 0) | sum(1 << bit for bit, gain in gains.items() if gain > 0)
            flips = sorted(gains, key=lambda bit: abs(gains[bit]))[:UNSEEN_ALTERNATIVES]
            masks = [best] + [best ^ (1 << bit) for bit in flips]
            return Position([UNK] * len(masks), [log_probability(m) for m in masks], masks=masks, key=key)
        weight = self.settings.weight
        emissions = [lexicon.emission(i) + weight * log_probability(m) for i, m in enumerate(lexicon.masks)]
        return Position(list(lexicon.ids), emissions, masks=list(lexicon.masks), key=key)

    def _counted_probabilities(self, key: str, text: str) -> dict[int, float]:
        """The count-based model's letter probabilities for an unseen word."""
        typed = spelling_mask(key, text) or 0
        fixed = self.ngram.stem_letters(key, typed)
        fixed.update((pos, True) for pos in range(len(key)) if typed >> pos & 1)
        return self.ngram.model.chars.twin_probabilities(key, fixed)


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p.astype(np.float64), 1e-3, 1 - 1e-3)
    return np.log(p) - np.log1p(-p)


def _windows(line: str, tokens: list[Span], positions: list[Position]) -> list[tuple[int, int]]:
    """Merged spans of ``UNSEEN_CONTEXT`` letters either side of each unseen word."""
    merged: list[tuple[int, int]] = []
    for token, position in zip(tokens, positions):
        if not position.unseen:
            continue
        start, end = max(0, token.start - UNSEEN_CONTEXT), min(len(line), token.end + UNSEEN_CONTEXT)
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def load_default_restorer(path: Path | None = None, device: str = "auto") -> Restorer:
    """The shipped default: the shipped network decoded with the shipped count-based
    model, with the hybrid settings recorded in the network's JSON (chosen on dev)."""
    neural = load_neural_restorer(path, device)
    settings = neural.meta.get("hybrid")
    if not isinstance(settings, dict):
        raise ValueError("the network's JSON records no hybrid settings")
    return HybridRestorer(NgramRestorer.load(None), neural, HybridSettings(**settings))
