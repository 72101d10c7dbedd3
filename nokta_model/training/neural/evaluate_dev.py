"""Dev-split measurements used while training (letters and words of asciified lines)."""

from __future__ import annotations

import numpy as np

from ...alphabet import asciify, fold_key
from ...neural.batching import twin_probabilities
from ...neural.model import CharTagger
from ...neural.torch_tagger import TorchTagger
from ...neural.vocab import encode_with_labels
from ...spans import word_spans


def dev_metrics(model: CharTagger, lines: list[str]) -> dict[str, float]:
    """Ambiguous-letter accuracy, word accuracy and mean log-loss on asciified ``lines``
    (with their capitals, for a cased model)."""
    was_training = model.training
    model.eval()
    read = asciify if model.config.cased else fold_key
    probabilities = twin_probabilities(TorchTagger(model), [read(line) for line in lines])
    model.train(was_training)
    letters_right = letters = words_right = words = 0
    log_loss = 0.0
    for line, p in zip(lines, probabilities, strict=True):
        _, labels = encode_with_labels(line)
        scored = labels >= 0
        correct = (p >= 0.5) == (labels == 1)
        letters += int(scored.sum())
        letters_right += int((correct & scored).sum())
        truth = np.clip(np.where(labels[scored] == 1, p[scored], 1 - p[scored]), 1e-7, 1.0)
        log_loss -= float(np.log(truth).sum())
        for span in word_spans(asciify(line)):
            words += 1
            part = slice(span.start, span.end)
            words_right += bool((correct[part] | ~scored[part]).all())
    return {
        "letter_acc": letters_right / max(letters, 1),
        "word_acc": words_right / max(words, 1),
        "log_loss": log_loss / max(letters, 1),
    }
