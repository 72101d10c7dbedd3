"""`Restorer.suggest` (what the editor calls) against `Restorer.restore`, per backend.

    python -m bench.suggest_speed [--backends ngram default] [--runs 3]

Each run is a fresh process that loads the backend twice, one restorer per method, each
with its own caches, and goes through the corpus dev split (distinct lines, never counted
into a model: the caches start cold), ASCII-folded or as written (what an editor mostly
sees), in batches of 64 lines. Each batch is
restored by one restorer and suggested for by the other, in turn, the order swapped from
one batch to the next: a drift in the machine's speed (it is shared) falls on both methods
alike. Fresh processes, one method each, gave ratios from 0.84 to 1.49 on the afternoon
of 2026-11-26. As the CLI does once its model is loaded, the process keeps the loaded
objects out of the garbage collector's walks (``keep_for_life``; the language server
raises the collector's thresholds instead); torch runs as in both (``set_torch_defaults``).
Each figure is the median over the runs. The load average at the start and the end is
reported. Writes bench/results/suggest_speed.json and suggest_speed.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.backends import keep_for_life, load_restorer, set_torch_defaults
from nokta_model.training.corpus import default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent
BATCH = 64
METHODS = ("restore", "suggest")
TEXTS = {"ascii": "ASCII-folded", "written": "as written"}  # the dev split


def dev_lines(text: str = "ascii") -> list[str]:
    lines = [line for _, line in split_lines(default_corpus_dir(), "dev")]
    return [asciify(line) for line in lines] if text == "ascii" else lines


def time_run(backend: str, text: str) -> dict[str, float]:
    """Seconds one fresh process spends in each method over the dev lines (loading excluded)."""
    command = [sys.executable, "-m", "bench.suggest_speed", "--time-run", backend, text]
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT.parent)
    return json.loads(result.stdout)


def time_interleaved(backend: str, text: str) -> None:
    """Print each method's seconds, the two taking the batches in turn."""
    lines = dev_lines(text)
    restorers = {method: load_restorer(backend, device="cpu") for method in METHODS}
    keep_for_life()
    seconds = dict.fromkeys(METHODS, 0.0)
    for index, start in enumerate(range(0, len(lines), BATCH)):
        batch = lines[start : start + BATCH]
        for method in METHODS if index % 2 == 0 else reversed(METHODS):
            started = time.perf_counter()
            getattr(restorers[method], method)(batch)
            seconds[method] += time.perf_counter() - started
    print(json.dumps(seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--time-run", nargs=2, metavar=("BACKEND", "TEXT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    set_torch_defaults()  # the timed processes inherit the server's and the CLI's settings
    if args.time_run:
        time_interleaved(*args.time_run)
        return
    chars = sum(len(line) for line in dev_lines())
    load_at_start = os.getloadavg()[0]
    results = {}
    for backend in args.backends:
        for text in TEXTS:
            runs = [time_run(backend, text) for _ in range(args.runs)]
            results.setdefault(backend, {})[text] = figures = {
                **{method: statistics.median(run[method] for run in runs) for method in METHODS},
                "suggest_over_restore": statistics.median(run["suggest"] / run["restore"] for run in runs),
                "runs": runs,
            }
            print(backend, text, json.dumps(figures))
    report = {
        **run_facts(),
        "chars": chars,
        "load_average": [round(load_at_start, 2), round(os.getloadavg()[0], 2)],
        "runs": args.runs,
        "results": results,
    }
    out = ROOT / "results" / "suggest_speed"
    write_report(out, report, table(report))


def table(report: dict) -> str:
    rows = [
        [backend, TEXTS[text], f"{f['restore']:.2f} s", f"{f['suggest']:.2f} s", f"{f['suggest_over_restore']:.2f}"]
        for backend, texts in report["results"].items()
        for text, f in texts.items()
    ]
    caption = (
        f"{report['chars']:,} characters of corpus dev text (distinct lines), batches of {BATCH} lines taken in "
        f"turn by the two methods, median of {report['runs']} runs, {report['date']}, {report['machine']}; "
        f"load average {report['load_average'][0]} at the start, {report['load_average'][1]} at the end"
    )
    return markdown_table(["backend", "text", "restore", "suggest", "suggest ÷ restore"], rows, caption)


if __name__ == "__main__":
    main()
