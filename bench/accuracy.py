"""Accuracy of each backend on the evaluation text, by the protocol of shared/bench/README.md.

    python -m bench.accuracy [--backends ngram default ...] [--gold ../shared/bench/vikipedi_test.txt]

Scored as ``nokta eval`` scores it: restored as ``nokta restore --format plain`` restores
it (prose masking and the language guard), every word counted.

Writes bench/results/accuracy.json and accuracy.md (the table the README quotes).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.backends import load_restorer
from nokta_model.evaluate import evaluate

ROOT = Path(__file__).resolve().parent
DEFAULT_GOLD = ROOT.parent.parent / "shared" / "bench" / "vikipedi_test.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--gold", type=Path, default=DEFAULT_GOLD)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "accuracy")
    args = parser.parse_args()
    gold = args.gold.read_text(encoding="utf-8").splitlines()
    results = {}
    for backend in args.backends:
        summary = evaluate(load_restorer(backend), gold).summary(10)
        results[backend] = summary
        print(backend, json.dumps({k: v for k, v in summary.items() if k != "top_errors"}))
    report = {
        **run_facts(),
        "gold": args.gold.name,
        "results": results,
    }
    write_report(args.out, report, table(report))


def table(report: dict) -> str:
    header = ["backend", "word acc", "ambiguous-word acc", "letter acc (c g i o s u)", "recall", "chars/s"]
    rows = [
        [
            backend,
            f"{m['word_accuracy']:.4f}",
            f"{m['ambiguous_word_accuracy']:.4f}",
            f"{m['letter_accuracy']:.4f}",
            f"{m['recall']:.4f}",
            f"{m['chars_per_second']:,.0f}",
        ]
        for backend, m in report["results"].items()
    ]
    return markdown_table(header, rows, f"{report['gold']}, {report['date']}, {report['machine']}")


if __name__ == "__main__":
    main()
