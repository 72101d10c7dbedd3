"""Every backend beside the rule-based table, on the evaluation text and on each corpus file's dev split.

    python -m bench.compare [--backends ngram default] [--dev-only] [--out bench/results/compare]

For each text: word accuracy, ambiguous-word accuracy, ambiguous-letter accuracy and word
errors of the restored ASCII input, and the share of words changed when the correct text
is fed as written. The rule-based table (../shared/anchors/rule_table) runs as a separate
process on the same input. Dev lines are never trained on (nokta_model.training.corpus).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.backends import load_restorer
from nokta_model.evaluate import Metrics, ascii_inputs, changed_words, restore_all, score
from nokta_model.training.corpus import TRAIN_FILES, default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent
SHARED = ROOT.parent.parent / "shared"
RULE_TABLE = SHARED / "anchors" / "rule_table" / "restore.py"
TABLE = "rule table"


def texts(dev_only: bool) -> dict[str, list[str]]:
    """Evaluation texts by name: vikipedi_test, then each corpus file's dev lines."""
    chosen: dict[str, list[str]] = {}
    if not dev_only:
        chosen["vikipedi_test"] = (SHARED / "bench" / "vikipedi_test.txt").read_text(encoding="utf-8").splitlines()
    for corpus_file, line in split_lines(default_corpus_dir(), "dev"):
        chosen.setdefault(corpus_file.name, []).append(line)
    return chosen


def run_rule_table(lines: list[str]) -> tuple[list[str], float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(RULE_TABLE)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    )
    return done.stdout.split("\n")[: len(lines)], time.perf_counter() - started


def measure(restore, gold: list[str]) -> tuple[Metrics, int, float]:
    """(metrics of the restored ASCII input, words changed when fed as written, seconds)."""
    outputs, seconds = restore(ascii_inputs(gold))
    fed_as_written, _ = restore(gold)
    changed, _ = changed_words(gold, fed_as_written)
    return score(gold, outputs, seconds), changed, seconds


def summary(metrics: Metrics, changed: int) -> dict:
    return {
        "word_acc": metrics.word_accuracy,
        "ambiguous_word_acc": metrics.ambiguous_word_accuracy,
        "letter_acc": metrics.letter_accuracy,
        "word_errors": metrics.words - metrics.words_correct,
        "words": metrics.words,
        "changed_when_correct": changed / metrics.words if metrics.words else 0.0,
        "chars_per_second": metrics.chars_per_second,
    }


def with_totals(measured: dict[str, dict[str, tuple[Metrics, int, float]]]) -> dict[str, dict[str, dict]]:
    """Per-text summaries, then the dev split's totals: all files, human-written files."""
    human = {f.name for f in TRAIN_FILES if f.human}
    groups = {"dev (all files)": lambda name: name != "vikipedi_test", "dev (human-written)": human.__contains__}
    results = {name: {s: summary(m, c) for s, (m, c, _) in by_system.items()} for name, by_system in measured.items()}
    systems = next(iter(measured.values())).keys()
    for group, member in groups.items():
        results[group] = {}
        for system in systems:
            total, changed = Metrics(), 0
            for name in filter(member, measured):
                metrics, words_changed, _ = measured[name][system]
                total.add(metrics)
                changed += words_changed
            results[group][system] = summary(total, changed)
    return results


def restorer_runner(backend: str):
    restorer = load_restorer(backend)

    def restore(lines: list[str]) -> tuple[list[str], float]:
        started = time.perf_counter()
        outputs = restore_all(restorer, lines)
        return outputs, time.perf_counter() - started

    return restore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--dev-only", action="store_true", help="skip vikipedi_test")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "compare")
    args = parser.parse_args()
    chosen = texts(args.dev_only)
    runners = {TABLE: run_rule_table} | {b: restorer_runner(b) for b in args.backends}
    measured = {name: {system: measure(run, gold) for system, run in runners.items()} for name, gold in chosen.items()}
    results = with_totals(measured)
    report = {
        **run_facts(),
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, report, markdown(report, list(runners)))
    print(markdown(report, list(runners)))


def markdown(report: dict, systems: list[str]) -> str:
    header = ["text", "words", *(f"{s}: word acc / amb-word acc / errors / changed" for s in systems)]
    rows = [
        [
            name,
            f"{by_system[systems[0]]['words']:,}",
            *(
                f"{m['word_acc']:.4f} / {m['ambiguous_word_acc']:.4f} / {m['word_errors']} / "
                f"{m['changed_when_correct']:.2%}"
                for m in (by_system[s] for s in systems)
            ),
        ]
        for name, by_system in report["results"].items()
    ]
    return markdown_table(header, rows, f"{report['date']}, {report['machine']}")


if __name__ == "__main__":
    main()
