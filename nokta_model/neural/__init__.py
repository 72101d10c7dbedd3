"""The neural restorer: a character-level tagger (BiLSTM by default) that labels whole
lines, six binary heads for c/ç g/ğ i/ı o/ö s/ş u/ü. Imports torch; the rest of
``nokta_model`` does not."""

from .restorer import NeuralRestorer, load_neural_restorer

__all__ = ["NeuralRestorer", "load_neural_restorer"]
