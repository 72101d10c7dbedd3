"""A corpus folder of a few lines, laid out like ../shared/corpus, for training in tests."""

import gzip
from pathlib import Path

from nokta_model.training.corpus import LEXICON_FILES, TRAIN_FILES


def write_tiny_corpus(root: Path, train_lines: list[str], lexicon_words: list[str]) -> Path:
    """Every training file holds ``train_lines``, every word list ``lexicon_words``."""
    (root / "train").mkdir()
    (root / "lexicon").mkdir()
    for corpus_file in TRAIN_FILES:
        (root / "train" / corpus_file.name).write_text("\n".join(train_lines) + "\n", encoding="utf-8")
    for corpus_file in LEXICON_FILES:
        text = ("\n".join(lexicon_words) + "\n").encode("utf-8")
        path = root / "lexicon" / corpus_file.name
        path.write_bytes(gzip.compress(text) if path.suffix == ".gz" else text)
    return root
