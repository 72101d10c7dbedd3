"""The neural restorer: a character-level tagger (BiLSTM by default) that labels whole
lines, six binary heads for c/ç g/ğ i/ı o/ö s/ş u/ü. What runs it is chosen at load
(``runtime.py``): ONNX Runtime on the shipped graph (``onnx_tagger.py``), or torch
(``torch_tagger.py``, the ``nokta[torch]`` extra) for training, other devices and
checkpoints. Only ``model``, ``train``, ``checkpoint``, ``export``, ``distributed``,
``train_state``, ``evaluate_dev`` and ``torch_tagger`` import torch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .restorer import NeuralRestorer, load_neural_restorer

__all__ = ["NeuralRestorer", "load_neural_restorer"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import restorer

        return getattr(restorer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
