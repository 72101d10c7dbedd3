"""`nokta train --backend ngram`: count the corpus and write the artifact."""

from __future__ import annotations

import datetime
import time
from pathlib import Path

from ..ngram.artifact import DEFAULT_ARTIFACT, save_model
from .corpus import LEXICON_FILES, train_files
from .english_words import wordfreq_version
from .ngram_counts import train_ngram


def build_artifact(corpus_dir: Path, output: Path | None = None, commercial_only: bool = True) -> Path:
    output = Path(output) if output else DEFAULT_ARTIFACT
    started = time.perf_counter()
    model = train_ngram(corpus_dir, commercial_only=commercial_only)
    info = {
        "built": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 1),
        "train_files": [
            {"name": f.name, "licence": f.licence, "weight": f.weight}
            for f, _ in train_files(corpus_dir, commercial_only)
        ],
        "lexicon_files": [{"name": f.name, "licence": f.licence} for f in LEXICON_FILES],
        "sizes": {
            "keys": len(model.lexicon.key_table),
            "spellings": len(model.lexicon.masks),
            "bigrams": len(model.bigrams),
            "trigrams": len(model.trigrams),
            "char_contexts": len(model.chars.table),
            "english_words": len(model.english),
            "capital_i_spellings": len(model.capitals),
            "turkish_acronyms": len(model.acronyms),
        },
        "english_frequencies": f"wordfreq {wordfreq_version()} (CC BY-SA 4.0)",
    }
    save_model(model, output, info)
    print(f"wrote {output} ({output.stat().st_size / 1e6:.1f} MB) in {info['seconds']:.0f} s")
    return output
