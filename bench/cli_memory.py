"""Peak memory of `nokta restore FILE` against the file's size: it must not grow with it.

    python -m bench.cli_memory [--backend default] [--sizes 2 16]

Each input is the first N MB of the corpus (dev, tune, then train splits, ASCII-folded,
each line once: distinct text, not a repeated file). The figure is the peak resident
set size of the whole `nokta restore` process (ru_maxrss of the child), model included.
Writes bench/results/cli_memory.json and .md (cli_memory_<backend> for another backend).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.training.corpus import default_corpus_dir, split_lines

ROOT = Path(__file__).resolve().parent


def corpus_lines() -> Iterator[str]:
    corpus = default_corpus_dir()
    for split in ("dev", "tune", "train"):
        for _, line in split_lines(corpus, split):
            yield asciify(line) + "\n"


def write_input(path: Path, megabytes: float) -> int:
    """The first ``megabytes`` MB of the corpus into ``path``; its size in bytes."""
    size = 0
    with path.open("w", encoding="utf-8") as out:
        for line in corpus_lines():
            out.write(line)
            size += len(line.encode())
            if size >= megabytes * 1_000_000:
                break
    return size


def peak_rss(path: Path, backend: str) -> tuple[int, float]:
    """(peak RSS in kB, seconds) of one `nokta restore` run in a fresh probe process."""
    command = [sys.executable, "-m", "nokta_model", "restore", str(path), "--backend", backend, "--jobs", "1"]
    probe = (
        "import resource, subprocess, sys; "
        f"subprocess.run({command!r}, stdout=subprocess.DEVNULL, check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, check=True, text=True)
    return int(result.stdout), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--sizes", type=float, nargs="+", default=[2, 16], help="input sizes in MB")
    parser.add_argument("--out", type=Path, help="results path without suffix (default: per backend)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for megabytes in args.sizes:
            path = Path(folder) / "input.txt"
            size = write_input(path, megabytes)
            rss, seconds = peak_rss(path, args.backend)
            rows.append({"bytes": size, "peak_rss_kb": rss, "seconds": seconds})
            print(json.dumps(rows[-1]))
    report = {
        **run_facts(),
        "load_average": load,
        "backend": args.backend,
        "rows": rows,
    }
    write_report(args.out or results_path(args.backend), report, table(report))


def results_path(backend: str) -> Path:
    """bench/results/cli_memory for the default backend, cli_memory_<backend> for another."""
    name = "cli_memory" if backend == "default" else f"cli_memory_{Path(backend).stem}"
    return ROOT / "results" / name


def table(report: dict) -> str:
    smallest = report["rows"][0]["peak_rss_kb"]
    rows = [
        [
            f"{row['bytes'] / 1e6:.1f} MB",
            f"{row['peak_rss_kb'] / 1024:.1f} MB",
            f"{(row['peak_rss_kb'] - smallest) / 1024:+.1f} MB",
            f"{row['seconds']:.0f} s",
        ]
        for row in report["rows"]
    ]
    caption = (
        f"`nokta restore FILE --backend {report['backend']} --jobs 1`, peak RSS of the whole process; "
        f"{report['date']}, {report['machine']}, load average {report['load_average']:.1f} at the start"
    )
    return markdown_table(["input", "peak RSS", "vs. the smallest input", "time"], rows, caption)


if __name__ == "__main__":
    main()
