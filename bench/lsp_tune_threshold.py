"""Tune the server's default confidence threshold on the corpus dev split (never on shared/bench).

For each threshold: flags per 2,000 words on the correct dev text, and recall and
exactness of the flags on the same text asciified. The dev text is web and corpus
text with real missing-diacritic errors, so its "false alarms" are an upper bound.
Picks the highest threshold (fewest alarms) whose dev recall stays at least 0.93 (a
margin over the issue's 0.90) with exactness at least 0.97. Runs the server's own
``check`` (same code path, no protocol), every suggestion kept, so one model pass
serves every threshold.

    python bench/lsp_tune_threshold.py [--model ngram] [--lines 3000] [--out bench/results/lsp_threshold.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_scoring import count_words, score_restoration  # noqa: E402

from nokta_lsp.checker import CheckOptions, SuggestionCache, check  # noqa: E402
from nokta_model.alphabet import asciify  # noqa: E402
from nokta_model.corpus import default_corpus_dir, split_lines  # noqa: E402
from nokta_model.restorer import load_restorer  # noqa: E402

THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
MIN_RECALL = 0.93
MIN_EXACTNESS = 0.97


def dev_lines(limit: int) -> list[str]:
    """Every k-th dev line so all corpus files are represented, up to ``limit`` lines."""
    lines = [line for _, line in split_lines(default_corpus_dir(), "dev")]
    step = max(1, len(lines) // limit)
    return lines[::step][:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="ngram", help="backend name or model path")
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--out", type=Path, default=Path("bench/results/lsp_threshold.json"))
    args = parser.parse_args()

    gold = dev_lines(args.lines)
    ascii_lines = [asciify(line) for line in gold]
    restorer = load_restorer(args.model)
    everything = CheckOptions(threshold=0.0, show_ambiguous=True)
    started = time.perf_counter()
    on_gold = check(gold, "plaintext", restorer, SuggestionCache(), everything)
    on_ascii = check(ascii_lines, "plaintext", restorer, SuggestionCache(), everything)
    seconds = time.perf_counter() - started
    words = count_words(gold)

    rows = []
    for threshold in THRESHOLDS:
        false_alarms = sum(1 for f in on_gold if f.confidence >= threshold)
        flags = [(f.line, f.start, f.end, f.replacement) for f in on_ascii if f.confidence >= threshold]
        score = score_restoration(ascii_lines, gold, flags)
        rows.append({"threshold": threshold, "false_alarms": false_alarms, "per_2000_words": round(2000 * false_alarms / words, 3), **score.as_dict()})
    good = [r for r in rows if r["recall"] >= MIN_RECALL and r["exactness"] >= MIN_EXACTNESS]
    chosen = max(good, key=lambda r: r["threshold"]) if good else min(rows, key=lambda r: r["threshold"])
    result = {"model": args.model, "dev_lines": len(gold), "words": words, "seconds": round(seconds, 1), "rows": rows, "chosen": chosen["threshold"]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(gold)} dev lines, {words} words, model {args.model}, {seconds:.0f} s")
    print("| threshold | false alarms / 2,000 words (correct text) | recall (asciified) | exactness |")
    print("|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['threshold']} | {r['per_2000_words']} | {r['recall']:.3f} | {r['exactness']:.3f} |")
    print(f"chosen: {chosen['threshold']}")


if __name__ == "__main__":
    main()
