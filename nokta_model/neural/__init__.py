"""The neural restorer: a character-level tagger (BiLSTM by default) that labels whole
lines, six binary heads for c/ç g/ğ i/ı o/ö s/ş u/ü. Its restorer imports torch, on
first use: ``neural.candidates`` and ``neural.vocab``, which the default reads on every
line, need none, and the rest of ``nokta_model`` does not import it."""

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
