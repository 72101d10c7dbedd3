"""Throughput and cold start of `nokta restore`, per backend, as a user runs it.

    python -m bench.throughput [--backends ngram default] [--runs 3]

The input is the ASCII-folded corpus dev and tune splits (never shared/bench, never
counted into a model, so its share of unseen words is realistic), each line once: no
repeated text warms the caches. Each figure is the median of several whole-process runs. So that figures
compare across machines, the same run times a fixed reference workload (a pure-Python
word count over the same input) and reports restore time as a multiple of it.
The load average at the start and the end is reported (the machine is shared).
Writes bench/results/throughput.json and throughput.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.corpus import default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent


def make_input() -> str:
    """The dev and tune lines, ASCII-folded, each once."""
    return "".join(
        asciify(line) + "\n" for split in ("dev", "tune") for _, line in split_lines(default_corpus_dir(), split)
    )


def reference_seconds(text: str) -> float:
    started = time.perf_counter()
    counts = Counter()
    for line in text.splitlines():
        counts.update(word.lower() for word in line.split())
    return time.perf_counter() - started


def timed_run(command: list[str], stdin_path: Path) -> tuple[float, float]:
    """(seconds to the first output byte, seconds to the end) of one process."""
    started = time.perf_counter()
    with open(stdin_path, "rb") as stdin:
        process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE)
        process.stdout.read(1)
        first = time.perf_counter() - started
        process.stdout.read()
    if process.wait() != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return first, time.perf_counter() - started


def measure(backend: str, big: Path, small: Path, runs: int) -> dict:
    command = [sys.executable, "-m", "nokta_model", "restore", "--backend", backend]
    cold = [timed_run(command, small)[0] for _ in range(runs)]
    total = [timed_run(command, big)[1] for _ in range(runs)]
    return {"cold_start_s": statistics.median(cold), "restore_s": statistics.median(total)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    text = make_input()
    with tempfile.TemporaryDirectory() as folder:
        big, small = Path(folder) / "big.txt", Path(folder) / "small.txt"
        big.write_text(text, encoding="utf-8")
        small.write_text("Bugun hava cok guzel.\n", encoding="utf-8")
        reference = statistics.median(reference_seconds(text) for _ in range(args.runs))
        load_at_start = os.getloadavg()[0]
        results = {}
        for backend in args.backends:
            figures = measure(backend, big, small, args.runs)
            loading = figures["cold_start_s"]
            figures["chars_per_second"] = len(text) / max(figures["restore_s"] - loading, 1e-9)
            figures["restore_over_reference"] = (figures["restore_s"] - loading) / reference
            results[backend] = figures
            print(backend, json.dumps(figures))
    report = {
        **run_facts(),
        "input_chars": len(text),
        "reference_s": reference,
        "load_average": [round(load_at_start, 2), round(os.getloadavg()[0], 2)],
        "results": results,
    }
    out = ROOT / "results" / "throughput"
    write_report(out, report, table(report))


def table(report: dict) -> str:
    rows = [
        [
            backend,
            f"{f['cold_start_s']:.2f} s",
            f"{f['restore_s']:.1f} s",
            f"{f['chars_per_second']:,.0f}",
            f"{f['restore_over_reference']:.1f}",
        ]
        for backend, f in report["results"].items()
    ]
    caption = (
        f"{report['input_chars']:,} characters of ASCII-folded corpus dev and tune text (distinct lines), "
        f"{report['date']}, {report['machine']}; reference workload (pure-Python word count of the same text): "
        f"{report['reference_s']:.2f} s; load average {report['load_average'][0]} at the start, "
        f"{report['load_average'][1]} at the end"
    )
    header = ["backend", "cold start (process start → first output)", "restore time", "chars/s (after loading)"]
    return markdown_table([*header, "× reference"], rows, caption)


if __name__ == "__main__":
    main()
