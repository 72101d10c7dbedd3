"""Choose the hybrid decoding settings on the corpus dev split (never on shared/bench).

    python bench/neural_hybrid_dev.py --neural runs/neural-main/best.safetensors [--ngram PATH] [--lines 3000]

Scores the count-based backend, the network alone and the hybrid over a grid of
settings on the same dev lines; prints one JSON line per setting and the chosen one:
the most accurate among the settings that restore at least 100,000 chars/s.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from nokta_model.backends import load_restorer
from nokta_model.corpus import default_corpus_dir
from nokta_model.default import HybridRestorer, HybridSettings
from nokta_model.evaluate import evaluate
from nokta_model.neural.data import dev_lines

SPEED_TARGET = 100_000  # chars/s the default backend must keep (issue 3)
GRID = [HybridSettings(weight, mix) for weight in (0.0, 0.1, 0.3) for mix in (0.3, 0.5, 0.7)]


def summary(name: str, metrics) -> dict:
    return {
        "setting": name,
        "word_acc": round(metrics.word_accuracy, 5),
        "ambiguous_word_acc": round(metrics.ambiguous_word_accuracy, 5),
        "letter_acc": round(metrics.letter_accuracy, 5),
        "chars_per_s": round(metrics.chars_per_second),
    }


def choose(results: list[dict]) -> dict:
    """The most accurate hybrid setting among those fast enough for the speed target."""
    hybrid = [r for r in results if r["setting"] == "hybrid"]
    fast = [r for r in hybrid if r["chars_per_s"] >= SPEED_TARGET] or hybrid
    return max(fast, key=lambda r: (r["word_acc"], r["letter_acc"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--neural", required=True)
    parser.add_argument("--ngram", default="ngram")
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--output", type=Path, help="also write the results here as JSON")
    args = parser.parse_args()
    gold = dev_lines(default_corpus_dir(), args.lines, seed=7)
    ngram, neural = load_restorer(args.ngram), load_restorer(args.neural, device="cpu")
    results = [summary("ngram", evaluate(ngram, gold)), summary("neural", evaluate(neural, gold))]
    for line in results:
        print(json.dumps(line), flush=True)
    for settings in GRID:
        result = summary("hybrid", evaluate(HybridRestorer(ngram, neural, settings), gold)) | asdict(settings)
        print(json.dumps(result), flush=True)
        results.append(result)
    best = choose(results)
    print(json.dumps({"best": best}))
    if args.output:
        args.output.write_text(json.dumps({"dev_lines": len(gold), "results": results, "best": best}, indent=1))


if __name__ == "__main__":
    main()
