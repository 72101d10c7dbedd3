"""The default model's weights: a small JSON file beside the shipped models."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "data" / "default.json"


@dataclass(frozen=True)
class Weights:
    context: float = 0.5  # context-model log probability, words the lexicon knows
    network: float = 0.0  # network log probability, words the lexicon knows (0: network off them)
    unseen_network: float = 0.5  # letter logit weights for words the lexicon lacks
    unseen_counted: float = 0.5
    unseen_context: float = 0.0
    particle_harmony: float = 0.0  # penalty of a question particle or a suffix written apart out of harmony
    suffix_harmony: float = 8.0  # … of a suffix after an apostrophe or a number out of harmony with what it follows
    typed_word: float = 0.0  # bonus of the as-typed spelling of a word typed with a Turkish letter
    typed_line: float = 0.0  # bonus of a counted as-typed spelling on a line typed with Turkish letters
    typed_unseen: float = 0.0  # … and of an unseen word as typed on such a line
    collocation: float = 0.0  # the neighbours written beside each spelling of a confusable word
    wide_bigram: float = 0.0  # the wide language model's log10 score of each spelling by its neighbours

    @classmethod
    def from_dict(cls, values: dict) -> Weights:
        names = {f.name for f in fields(cls)}
        unknown = set(values) - names
        if unknown:
            raise ValueError(f"unknown weights: {', '.join(sorted(unknown))}")
        return cls(**{k: float(v) for k, v in values.items()})


def read_weights(path: Path = DEFAULT_WEIGHTS) -> tuple[Weights, dict]:
    """(weights, the rest of the file: how they were fitted)."""
    try:
        values = json.loads(Path(path).read_text(encoding="utf-8"))
        return Weights.from_dict(values.pop("weights")), values
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"cannot read the default model's weights from {path}: {error}") from None


def write_weights(weights: Weights, path: Path, provenance: dict) -> None:
    text = json.dumps({"weights": asdict(weights), **provenance}, indent=1, ensure_ascii=False) + "\n"
    Path(path).write_text(text, encoding="utf-8")
