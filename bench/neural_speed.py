"""Speed of a restorer: batch characters per second and one-line latency.

    python -m bench.neural_speed [--backend neural|PATH] [--file TEXT] [--threads 2]

Times single 80-character lines (the last 80 characters of up to 200 lines, after 20 for
warm-up; median and 95th percentile in ms), then restores all the file's lines
(asciified) in batches of 512 lines and prints characters per second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from nokta_model.alphabet import asciify
from nokta_model.backends import load_restorer
from nokta_model.training.corpus import default_corpus_dir, split_lines

BATCH_LINES = 512


def batch_speed(restorer, lines: list[str]) -> float:
    restorer.restore(lines[:BATCH_LINES])  # warm-up
    started = time.perf_counter()
    for begin in range(0, len(lines), BATCH_LINES):
        restorer.restore(lines[begin : begin + BATCH_LINES])
    return sum(map(len, lines)) / (time.perf_counter() - started)


def one_line_ms(restorer, lines: list[str]) -> tuple[float, float]:
    """Median and 95th-percentile time of restoring one line, each line new to the restorer."""
    for line in lines[:20]:
        restorer.restore([line])
    times = []
    for line in lines[20:]:
        started = time.perf_counter()
        restorer.restore([line])
        times.append(1000 * (time.perf_counter() - started))
    times.sort()
    return statistics.median(times), times[int(0.95 * len(times))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="neural")
    parser.add_argument("--file", type=Path, help="text to restore (default: 2,000 corpus dev lines)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (default: torch's choice)")
    parser.add_argument("--device", default="auto")
    args = parser.parse_args()
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    if args.file:
        lines = [line for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        lines = [line for _, line in split_lines(default_corpus_dir(), "dev")][:2000]
    lines = [asciify(line) for line in lines]
    restorer = load_restorer(args.backend, device=args.device)
    lines80 = [line[-80:] for line in lines if len(line) >= 80][:220]
    median, p95 = one_line_ms(restorer, lines80)
    result = {
        "backend": args.backend,
        "lines": len(lines),
        "characters": sum(map(len, lines)),
        "batch_chars_per_s": round(batch_speed(restorer, lines)),
        "one_line_80_ms_median": round(median, 2),
        "one_line_80_ms_p95": round(p95, 2),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
