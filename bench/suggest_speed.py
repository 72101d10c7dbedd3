"""`Restorer.suggest` (what the editor calls) against `Restorer.restore`, per backend.

    python -m bench.suggest_speed [--backends ngram default] [--runs 3]

Each figure is the median of several fresh processes, each loading the backend and
then running one method over the ASCII-folded corpus dev split in batches of 64 lines
(distinct lines, never counted into a model; no text is repeated, so caches start
cold). Torch runs as in the language server and the CLI (``set_torch_defaults``: one
thread, no oneDNN kernel cache, unless the environment says otherwise). The two methods
run in turn, restore then suggest, and the ratio is the median of each pair's, so a
drift in the machine's speed moves both sides. The load average at the start and the
end is reported (the machine is shared). Writes
bench/results/suggest_speed.json and suggest_speed.md.
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
from nokta_model.backends import load_restorer, set_torch_defaults
from nokta_model.corpus import default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent
BATCH = 64


def dev_lines() -> list[str]:
    return [asciify(line) for _, line in split_lines(default_corpus_dir(), "dev")]


def time_method(backend: str, method: str) -> float:
    """Seconds one fresh process spends in ``method`` over the dev lines (loading excluded)."""
    command = [sys.executable, "-m", "bench.suggest_speed", "--time-one", backend, method]
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT.parent)
    return float(result.stdout.strip())


def time_one(backend: str, method: str) -> None:
    lines = dev_lines()
    restorer = load_restorer(backend, device="cpu")
    run = getattr(restorer, method)
    started = time.perf_counter()
    for start in range(0, len(lines), BATCH):
        run(lines[start : start + BATCH])
    print(time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--time-one", nargs=2, metavar=("BACKEND", "METHOD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time_one:
        time_one(*args.time_one)
        return
    set_torch_defaults()  # the timed processes inherit the server's and the CLI's settings
    chars = sum(len(line) for line in dev_lines())
    load_at_start = os.getloadavg()[0]
    results = {}
    for backend in args.backends:
        runs = [(time_method(backend, "restore"), time_method(backend, "suggest")) for _ in range(args.runs)]
        results[backend] = {
            "restore": statistics.median(restore for restore, _ in runs),
            "suggest": statistics.median(suggest for _, suggest in runs),
            "suggest_over_restore": statistics.median(suggest / restore for restore, suggest in runs),
        }
        print(backend, json.dumps(results[backend]))
    report = {
        **run_facts(),
        "chars": chars,
        "load_average": [round(load_at_start, 2), round(os.getloadavg()[0], 2)],
        "results": results,
    }
    out = ROOT / "results" / "suggest_speed"
    write_report(out, report, table(report))


def table(report: dict) -> str:
    rows = [
        [backend, f"{f['restore']:.2f} s", f"{f['suggest']:.2f} s", f"{f['suggest_over_restore']:.2f}"]
        for backend, f in report["results"].items()
    ]
    caption = (
        f"{report['chars']:,} characters of ASCII-folded corpus dev text (distinct lines), batches of {BATCH} "
        f"lines, {report['date']}, {report['machine']}; load average {report['load_average'][0]} at the start, "
        f"{report['load_average'][1]} at the end"
    )
    return markdown_table(["backend", "restore", "suggest", "suggest ÷ restore"], rows, caption)


if __name__ == "__main__":
    main()
