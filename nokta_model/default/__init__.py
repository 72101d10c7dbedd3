"""The shipped default restorer: the count-based lattice scored by every model, with
weights fitted on the corpus tune split (``fit.py``)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .restorer import DefaultRestorer, Network
from .weights import DEFAULT_WEIGHTS, Weights, read_weights

__all__ = ["DEFAULT_WEIGHTS", "DefaultRestorer", "LazyNetwork", "Weights", "load_default_restorer", "read_weights"]

#: Devices every machine has: the network on them loads on first use; any other device
#: named loads at once, so that one this machine lacks is refused before any work.
_LAZY_DEVICES = ("auto", "cpu")


class LazyNetwork:
    """The network, loaded (torch imported) the first time a line needs it: lines the
    count models settle, and a one-line input, never wait for torch."""

    def __init__(self, load: Callable[[], Network]) -> None:
        self._load = load
        self._network: Network | None = None
        self._lock = threading.Lock()  # the language server asks from two threads at once

    @property
    def loaded(self) -> bool:
        return self._network is not None

    def load(self) -> Network:
        if self._network is None:
            with self._lock:
                if self._network is None:
                    self._network = self._load()
                    if gc.get_freeze_count():  # the process keeps its models for life: torch's
                        gc.freeze()  # objects join them (``backends.keep_for_life``)
        return self._network

    def line_probabilities(self, lines: list[str]) -> list[np.ndarray]:
        return self.load().line_probabilities(lines)


def load_default_restorer(path: Path | None = None, device: str = "auto") -> DefaultRestorer:
    """The shipped default, or the shipped models with the weights file at ``path``; its
    confidences calibrated by the shipped calibration (fitted for the shipped weights)."""
    from ..calibration import read_calibration
    from ..charctx import load_context_model
    from ..ngram.model import NgramRestorer
    from ..ngram.wide_bigrams import WideBigrams

    weights, _ = read_weights(path or DEFAULT_WEIGHTS)
    neural = LazyNetwork(lambda: _load_network(device))
    if device not in _LAZY_DEVICES:
        neural.load()
    return DefaultRestorer(
        NgramRestorer.load(None),
        load_context_model(None),
        neural,
        weights,
        calibration=read_calibration(),
        wide=WideBigrams.load(),
    )


def _load_network(device: str) -> Network:
    from ..neural import load_neural_restorer

    return load_neural_restorer(None, device)
