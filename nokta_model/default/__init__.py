"""The shipped default restorer: the count-based lattice scored by every model, with
weights fitted on the corpus tune split (``fit.py``)."""

from __future__ import annotations

from pathlib import Path

from .restorer import DefaultRestorer
from .weights import DEFAULT_WEIGHTS, Weights, read_weights

__all__ = ["DEFAULT_WEIGHTS", "DefaultRestorer", "Weights", "load_default_restorer", "read_weights"]


def load_default_restorer(path: Path | None = None, device: str = "auto") -> DefaultRestorer:
    """The shipped default, or the shipped models with the weights file at ``path``."""
    from ..charctx import load_context_model
    from ..neural.restorer import load_neural_restorer
    from ..ngram.model import NgramRestorer

    weights, _ = read_weights(path or DEFAULT_WEIGHTS)
    neural = load_neural_restorer(None, device)
    return DefaultRestorer(NgramRestorer.load(None), load_context_model(None), neural, weights)
