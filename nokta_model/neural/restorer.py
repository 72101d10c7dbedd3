"""The neural backend: the character tagger's letter probabilities turned into ranked
word spellings for the ``Restorer`` API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..alphabet import asciify, fold_key
from ..restorer import Ranking, Restorer
from ..spans import Span
from .batching import twin_probabilities
from .candidates import best_spelling, ranked_spellings
from .runtime import Tagger, load_tagger

MAX_CANDIDATES = 8


class NeuralRestorer(Restorer):
    name = "neural"
    concurrent_batches = 2

    def __init__(self, tagger: Tagger, max_candidates: int = MAX_CANDIDATES) -> None:
        self.tagger = tagger
        self.max_candidates = max_candidates

    @classmethod
    def load(cls, path: Path | None = None, device: str = "auto") -> NeuralRestorer:
        """The network at ``path`` (None: the shipped one), run as ``runtime.load_tagger`` chooses."""
        return cls(load_tagger(path, device))

    @property
    def meta(self) -> dict[str, Any]:
        """What the network's checkpoint says of it: data mix, training, metrics."""
        return self.tagger.description

    def rank(
        self,
        lines: list[str],
        spans: list[list[Span]],
        with_scores: bool,
        typed: list[str] | None = None,
        cased: list[str] | None = None,
    ) -> list[list[Ranking]]:
        probabilities = self.line_probabilities(cased or lines)
        if not with_scores:
            rankings = []
            for line, line_spans, p in zip(lines, spans, probabilities, strict=True):
                best = best_spelling(line, p)
                rankings.append([[(best[s.start : s.end], 1.0)] for s in line_spans])
            return rankings
        return [
            [ranked_spellings(line[s.start : s.end], p[s.start : s.end], self.max_candidates) for s in line_spans]
            for line, line_spans, p in zip(lines, spans, probabilities, strict=True)
        ]

    def line_probabilities(self, lines: list[str]) -> list[np.ndarray]:
        """P(Turkish twin) per position of each line, as typed or ``model_lower``-ed (0
        where no head applies). A network that reads case sees the capitals typed."""
        read = asciify if self.tagger.config.cased else fold_key
        return twin_probabilities(self.tagger, [read(line) for line in lines])


def load_neural_restorer(path: Path | str | None = None, device: str = "auto") -> NeuralRestorer:
    """The shipped neural restorer, or the checkpoint at ``path``."""
    return NeuralRestorer.load(None if path is None else Path(path), device)
