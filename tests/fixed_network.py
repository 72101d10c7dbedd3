"""A network stand-in for the default restorer's tests: no torch weights to train."""

from __future__ import annotations

import numpy as np

from nokta_model.alphabet import AMBIGUOUS_LOWER
from nokta_model.neural import NeuralRestorer
from nokta_model.neural.config import ModelConfig
from nokta_model.neural.model import CharTagger


class FixedNetwork(NeuralRestorer):
    """A network stand-in: every ambiguous letter is its twin with probability ``p``."""

    def __init__(self, p: float) -> None:
        super().__init__(CharTagger(ModelConfig(embed_dim=4, hidden=4)))
        self.p, self.calls = p, 0

    def line_probabilities(self, lines):
        self.calls += len(lines)
        return [np.array([self.p if ch in AMBIGUOUS_LOWER else 0.0 for ch in line], dtype=np.float32) for line in lines]
