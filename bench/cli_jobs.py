"""`nokta restore --jobs N` against `--jobs 1`: wall time and byte-identical output.

    python -m bench.cli_jobs [--backend default] [--jobs 2] [--runs 3]

Two inputs, each ASCII-folded, each line once: the corpus dev and tune splits (never
counted into a model), and the first 6 MB of the train split (a multi-megabyte file;
its lines were counted into the models, which flatters absolute speed but not the
ratio between job counts). Each figure is the median of several whole-process runs.
Writes bench/results/cli_jobs.json and cli_jobs.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.training.corpus import default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent
TRAIN_CHARS = 6_000_000


def inputs() -> dict[str, str]:
    corpus = default_corpus_dir()
    held_out = "".join(asciify(line) + "\n" for split in ("dev", "tune") for _, line in split_lines(corpus, split))
    train, size = [], 0
    for _, line in split_lines(corpus, "train"):
        train.append(asciify(line) + "\n")
        size += len(train[-1])
        if size >= TRAIN_CHARS:
            break
    return {"dev+tune (held out)": held_out, "train, first 6 MB": "".join(train)}


def timed(path: Path, backend: str, jobs: int) -> tuple[float, str]:
    command = [sys.executable, "-m", "nokta_model", "restore", str(path), "--backend", backend, "--jobs", str(jobs)]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - started, hashlib.sha256(result.stdout).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, text in inputs().items():
            path = Path(folder) / "input.txt"
            path.write_text(text, encoding="utf-8")
            one = [timed(path, args.backend, 1) for _ in range(args.runs)]
            many = [timed(path, args.backend, args.jobs) for _ in range(args.runs)]
            identical = len({digest for _, digest in one + many}) == 1
            seconds_one = statistics.median(s for s, _ in one)
            seconds_many = statistics.median(s for s, _ in many)
            rows.append(
                {
                    "input": name,
                    "bytes": path.stat().st_size,
                    "jobs_1_s": seconds_one,
                    f"jobs_{args.jobs}_s": seconds_many,
                    "speedup": seconds_one / seconds_many,
                    "identical": identical,
                }
            )
            print(json.dumps(rows[-1]))
    report = {
        **run_facts(),
        "load_average": os.getloadavg()[0],
        "backend": args.backend,
        "jobs": args.jobs,
        "rows": rows,
    }
    out = ROOT / "results" / "cli_jobs"
    write_report(out, report, table(report))


def table(report: dict) -> str:
    jobs = report["jobs"]
    rows = [
        [
            row["input"],
            f"{row['bytes'] / 1e6:.1f} MB",
            f"{row['jobs_1_s']:.1f} s",
            f"{row[f'jobs_{jobs}_s']:.1f} s",
            f"{row['speedup']:.2f}×",
            "yes" if row["identical"] else "NO",
        ]
        for row in report["rows"]
    ]
    caption = (
        f"`nokta restore --backend {report['backend']}`, whole process (model loading included), median of runs; "
        f"{report['date']}, {report['machine']}, load average {report['load_average']:.1f} at the start"
    )
    header = ["input", "size", "--jobs 1", f"--jobs {jobs}", "speed-up", "same bytes"]
    return markdown_table(header, rows, caption)


if __name__ == "__main__":
    main()
