"""The neural backend: the character tagger's letter probabilities turned into ranked
word spellings for the ``Restorer`` API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..alphabet import asciify, fold_key
from ..restorer import Ranking, Restorer
from ..spans import Span
from .candidates import best_spelling, ranked_spellings
from .checkpoint import load_model
from .infer import keep_cast_weights, resolve_device, twin_probabilities
from .model import CharTagger

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "neural.safetensors"
MAX_CANDIDATES = 8


class NeuralRestorer(Restorer):
    name = "neural"
    concurrent_batches = 2

    def __init__(
        self, model: CharTagger, meta: dict[str, Any] | None = None, max_candidates: int = MAX_CANDIDATES
    ) -> None:
        self.model = model.eval()
        self.meta = meta or {}
        self.max_candidates = max_candidates

    @classmethod
    def load(cls, path: Path | None = None, device: str = "auto") -> NeuralRestorer:
        model, meta = load_model(_weights_path(path), resolve_device(device))
        return cls(keep_cast_weights(model), meta)

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
            for line, line_spans, p in zip(lines, spans, probabilities):
                best = best_spelling(line, p)
                rankings.append([[(best[s.start : s.end], 1.0)] for s in line_spans])
            return rankings
        return [
            [ranked_spellings(line[s.start : s.end], p[s.start : s.end], self.max_candidates) for s in line_spans]
            for line, line_spans, p in zip(lines, spans, probabilities)
        ]

    def line_probabilities(self, lines: list[str]) -> list[np.ndarray]:
        """P(Turkish twin) per position of each line, as typed or ``model_lower``-ed (0
        where no head applies). A network that reads case sees the capitals typed."""
        read = asciify if self.model.config.cased else fold_key
        return twin_probabilities(self.model, [read(line) for line in lines])


def _weights_path(path: Path | None) -> Path:
    if path is None:
        path = SHIPPED
    path = Path(path)
    if path.is_dir():
        for name in ("best.safetensors", "model.safetensors", "neural.safetensors"):
            if (path / name).exists():
                return path / name
        raise ValueError(f"no model weights (best/model/neural.safetensors) in {path}")
    return path


def load_neural_restorer(path: Path | str | None = None, device: str = "auto") -> NeuralRestorer:
    """The shipped neural restorer, or the checkpoint at ``path``."""
    return NeuralRestorer.load(None if path is None else Path(path), device)
