"""Speed of `nokta restore` per backend beside the rule-based table, as a user runs them.

    python -m bench.throughput [--backends ngram default] [--runs 3]

Whole processes on text no model was built from: vikipedi_test and bench/data/mixed_sample.md
(technical Turkish mixed with English: Markdown, code, URLs), each folded to ASCII. The
corpus dev split (same sources as the training text, so fewer words the count models
lack) is timed beside them and labelled so. The rule-based table
(../shared/anchors/rule_table) runs as a separate process on the same input in the same
rounds: each round runs every system on every text in turn, so a change in the shared
machine's speed falls on all of them; figures are medians over the rounds. Start-up is
a whole `nokta restore` of a one-line input. Writes bench/results/throughput.json and .md;
`python -m bench.figures` then puts the table into the docs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.corpus import default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent
SHARED = ROOT.parent.parent / "shared"
RULE_TABLE = SHARED / "anchors" / "rule_table" / "restore.py"
TABLE = "rule table"
ONE_LINE = "Bugun hava cok guzel.\n"


def texts() -> dict[str, tuple[str, str]]:
    """Name -> (file suffix, ASCII-folded text): the unseen texts first, then the dev split."""
    viki = (SHARED / "bench" / "vikipedi_test.txt").read_text(encoding="utf-8")
    mixed = (ROOT / "data" / "mixed_sample.md").read_text(encoding="utf-8")
    dev = "".join(line + "\n" for _, line in split_lines(default_corpus_dir(), "dev"))
    return {
        "vikipedi_test": (".txt", asciify(viki)),
        "mixed_sample.md": (".md", asciify(mixed)),
        "corpus dev split": (".txt", asciify(dev)),
    }


def command(system: str, path: Path) -> tuple[list[str], Path | None]:
    """(argv, standard input): the table reads standard input; nokta reads the file, so
    its format (Markdown: only prose restored) comes from the extension as for a user."""
    if system == TABLE:
        return [sys.executable, str(RULE_TABLE)], path
    return [sys.executable, "-m", "nokta_model", "restore", "--backend", system, str(path)], None


def seconds(argv: list[str], stdin_path: Path | None) -> float:
    started = time.perf_counter()
    with open(stdin_path or os.devnull, "rb") as stdin:
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def measure(systems: list[str], files: dict[str, Path], small: Path, runs: int) -> dict:
    times: dict[str, dict[str, list[float]]] = {name: {system: [] for system in systems} for name in files}
    starts: dict[str, list[float]] = {system: [] for system in systems if system != TABLE}
    for _ in range(runs):
        for system in starts:
            starts[system].append(seconds(*command(system, small)))
        for name, path in files.items():
            for system in systems:
                times[name][system].append(seconds(*command(system, path)))
    return {
        "start_s": {system: statistics.median(values) for system, values in starts.items()},
        "texts": {
            name: {system: statistics.median(values) for system, values in by_system.items()}
            for name, by_system in times.items()
        },
        "each_run": {"start_s": starts, "texts": times},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    systems = [TABLE, *args.backends]
    load_at_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        files, sizes = {}, {}
        for index, (name, (suffix, text)) in enumerate(texts().items()):
            files[name] = Path(folder) / f"text{index}{suffix}"
            files[name].write_text(text, encoding="utf-8")
            sizes[name] = len(text)
        small = Path(folder) / "one_line.txt"
        small.write_text(ONE_LINE, encoding="utf-8")
        figures = measure(systems, files, small, args.runs)
    report = {
        **run_facts(),
        "runs": args.runs,
        "load_average": [round(load_at_start, 2), round(os.getloadavg()[0], 2)],
        "characters": sizes,
        **figures,
    }
    markdown = table(report, args.backends)
    write_report(ROOT / "results" / "throughput", report, markdown)
    print(markdown)


def table(report: dict, backends: list[str]) -> str:
    rows = []
    for name, by_system in report["texts"].items():
        chars = report["characters"][name]
        row = [f"{name} ({chars / 1000:,.0f} k chars)", f"{by_system[TABLE]:.2f} s"]
        for backend in backends:
            row.append(f"{by_system[backend]:.2f} s ({by_system[backend] / by_system[TABLE]:.2f}×)")
        rows.append(row)
    rows.append(["start-up: one line", "", *(f"{report['start_s'][backend]:.2f} s" for backend in backends)])
    caption = (
        f"`python -m bench.throughput`: whole processes, `nokta restore` beside the rule-based table on the same "
        f"ASCII-folded text, median of {report['runs']} rounds that run every system in turn; "
        f"{report['date']}, {report['machine']}, load average {report['load_average'][0]} at the start, "
        f"{report['load_average'][1]} at the end"
    )
    note = (
        "vikipedi_test and mixed_sample.md are text no model was built from; the corpus dev split comes from "
        "the training sources (held out by line), so it flatters the default, whose network is asked less there. "
        "(×): time over the rule table's on the same text."
    )
    header = ["text", TABLE, *(f"nokta {backend}" for backend in backends)]
    return markdown_table(header, rows, caption, note)


if __name__ == "__main__":
    main()
