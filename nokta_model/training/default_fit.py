"""Fit the default's weights on the corpus tune split: ``nokta train --backend default``.

Coordinate ascent over a grid per weight. Two objectives, on the same tune lines:

The fit starts from ``Weights()`` with ``RULE_WEIGHTS`` set, so the same corpus and
shipped models give the same weights file.

- the letters' weights (context, network, unseen-word mixes) and the penalty of a
  suffix out of harmony with what it follows (``suffix_harmony``) minimise word errors
  on the tune text typed in ASCII;
- the writer-evidence weights (typed_word, typed_line, typed_unseen) minimise word errors on the tune
  text typed with slips (one word in five of those with a Turkish letter typed without
  it) plus words changed when the tune text is fed exactly as written.

The network runs in float32 during the fit (``neural.runtime.float32``), so the weights do
not depend on whether the CPU has bfloat16. The tune split is never counted into any
model (``corpus.line_split``), so its scores are those of unseen text. Nothing here
reads ``shared/bench``.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from ..alphabet import TURKISH_ONLY, asciify
from ..default.restorer import DefaultRestorer
from ..default.weights import DEFAULT_WEIGHTS, Weights, write_weights
from ..evaluate import ascii_inputs, changed_words, restore_all, score
from ..neural.runtime import float32
from ..spans import word_spans
from .corpus import default_corpus_dir, split_lines

LETTER_WEIGHTS = (
    "context",
    "network",
    "unseen_network",
    "unseen_counted",
    "unseen_context",
    "collocation",
    "wide_bigram",
    "suffix_harmony",
)
#: Set, not fitted: the particle's vowel harmony is a rule of the grammar, and the tune
#: text holds too few particles to tell weights apart, while 4.0 keeps `kötü mü` right
#: where the word trigrams favour `kötü mu`.
RULE_WEIGHTS = {"particle_harmony": 4.0}
EVIDENCE_WEIGHTS = ("typed_word", "typed_line", "typed_unseen")
GRID = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
#: The writer-evidence weights sat at the top of ``GRID`` (8.0), so their grid goes on.
EVIDENCE_GRID = (0.0, 0.5, 1.0, 2.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0)
SLIP_RATE = 0.2


def with_slips(lines: Sequence[str], rate: float = SLIP_RATE, seed: int = 7) -> list[str]:
    """Correct lines with ``rate`` of their words that hold a Turkish letter typed in ASCII."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        letters = list(line)
        for span in word_spans(line):
            word = line[span.start : span.end]
            if any(ch in TURKISH_ONLY for ch in word) and rng.random() < rate:
                letters[span.start : span.end] = asciify(word)
        out.append("".join(letters))
    return out


class _Memo:
    """A model's per-line outputs kept across the fit's many decodes of the same lines."""

    def __init__(self, model: Any, method: str) -> None:
        self.model, self.method = model, method
        self.cache: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)

    def outputs(self, lines: list[str]) -> list:
        missing = list(dict.fromkeys(line for line in lines if line not in self.cache))
        if missing:
            self.cache.update(zip(missing, getattr(self.model, self.method)(missing), strict=True))
        return [self.cache[line] for line in lines]


class _MemoNetwork(_Memo):
    def line_probabilities(self, lines: list[str]) -> list:
        return self.outputs(lines)


class _MemoContext(_Memo):
    def twin_probabilities(self, lines: list[str], spans: list | None = None) -> list:
        return self.outputs(lines)  # every position: the memo serves any spans


def letter_errors(restorer: DefaultRestorer, gold: Sequence[str], inputs: Sequence[str]) -> int:
    metrics = score(gold, restore_all(restorer, inputs))
    return metrics.words - metrics.words_correct


def evidence_errors(restorer: DefaultRestorer, gold: Sequence[str], slipped: Sequence[str]) -> int:
    slips = score(gold, restore_all(restorer, slipped))
    changed, _ = changed_words(gold, restore_all(restorer, gold))
    return slips.words - slips.words_correct + changed


def coordinate_ascent(
    weights: Weights,
    names: Sequence[str],
    grid: Sequence[float],
    errors: Callable[[Weights], int],
    log: Callable[[str], None],
    sweeps: int,
) -> tuple[Weights, int]:
    best = errors(weights)
    log(f"start {best} errors: {asdict(weights)}")
    for sweep in range(sweeps):
        improved = False
        for name in names:
            for value in grid:
                if value == getattr(weights, name):
                    continue
                candidate = replace(weights, **{name: value})
                found = errors(candidate)
                if found < best:
                    weights, best, improved = candidate, found, True
                    log(f"sweep {sweep + 1}: {name}={value} -> {best} errors")
        if not improved:
            break
    return weights, best


def fit_weights(
    restorer: DefaultRestorer,
    corpus_dir: Path | None = None,
    output: Path = DEFAULT_WEIGHTS,
    max_lines: int = 0,
    sweeps: int = 2,
    log: Callable[[str], None] = print,
) -> Weights:
    started = time.perf_counter()
    gold = [line for _, line in split_lines(Path(corpus_dir or default_corpus_dir()), "tune")]
    if max_lines:
        gold = random.Random(3).sample(gold, min(max_lines, len(gold)))
    inputs, slipped = ascii_inputs(gold), with_slips(gold)
    network = _MemoNetwork(restorer.neural, "line_probabilities")
    context = _MemoContext(restorer.context, "twin_probabilities")
    restorer = DefaultRestorer(restorer.ngram, context, network, Weights(**RULE_WEIGHTS), wide=restorer.wide)

    def letters(weights: Weights) -> int:
        return letter_errors(restorer.with_weights(weights), gold, inputs)

    def evidence(weights: Weights) -> int:
        return evidence_errors(restorer.with_weights(weights), gold, slipped)

    with float32():  # the same weights on every CPU
        weights, letter_best = coordinate_ascent(restorer.weights, LETTER_WEIGHTS, GRID, letters, log, sweeps)
        weights, evidence_best = coordinate_ascent(weights, EVIDENCE_WEIGHTS, EVIDENCE_GRID, evidence, log, sweeps)
    provenance = {
        "fitted": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started),
        "tune_lines": len(gold),
        "tune_word_errors_ascii": letter_best,
        "tune_errors_slips_plus_changed": evidence_best,
        "grid": list(GRID),
        "evidence_grid": list(EVIDENCE_GRID),
        "set_by_rule": RULE_WEIGHTS,
    }
    write_weights(weights, output, provenance)
    log(f"wrote {output}: {asdict(weights)}")
    return weights
