"""Language server latency and memory, measured as an editor client sees them.

Starts ``nokta-lsp --stdio``, opens a 10,000-line Turkish document (corpus dev and tune
lines as written: never counted into a model, each line once, so no cache is warm), then
makes 200 single-line edits one after the other, each replacing a line by another unseen
line typed without Turkish letters (so the model has real work),
with ``debounceMs`` 0. Reports time from process start to the first diagnostics, p50/p95
of didChange -> publishDiagnostics for that version, and the server's peak RSS (VmHWM),
with the load average at the start (the machine is shared) and p95 as a multiple of
a fixed reference workload timed in the same run.
Writes bench/results/lsp_latency.json and .md.

    python -m bench.lsp_latency [--backend ngram] [--model-path FILE] [--edits 200]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import platform
import statistics
import time
from pathlib import Path

from bench.lsp_client import BenchClient, percentile, reference_ms, rss_mb
from bench.report import markdown_table, write_report
from nokta_model.alphabet import asciify
from nokta_model.corpus import default_corpus_dir, split_lines

HERE = Path(__file__).resolve().parent

LINES = 10_000
URI = "file:///latency.txt"


def corpus_sample(count: int) -> tuple[list[str], list[str]]:
    """``count`` document lines and a separate pool of edit lines: distinct held-out lines."""
    held_out = [line for split in ("dev", "tune") for _, line in split_lines(default_corpus_dir(), split)]
    if len(held_out) < count + 200:
        raise SystemExit(f"only {len(held_out)} held-out lines: need {count + 200}")
    return held_out[:count], held_out[count:]


async def measure(options: dict, edits: int) -> dict:
    lines, pool = corpus_sample(LINES)
    reference = reference_ms(lines)
    bench = BenchClient()
    await bench.start(options)
    bench.open(URI, "\n".join(lines))
    first_at, first = await bench.diagnostics(URI, 1)
    latencies = []
    for version in range(2, edits + 2):
        row = (version * 7919) % LINES
        new = asciify(pool[version % len(pool)])
        sent = bench.replace_line(URI, version, row, len(lines[row]), new)
        lines[row] = new
        arrived, _ = await bench.diagnostics(URI, version)
        latencies.append((arrived - sent) * 1000)
    rss = rss_mb(bench.pid, "VmHWM")
    await bench.stop()
    return {
        "lines": LINES,
        "characters": sum(len(line) + 1 for line in lines),
        "first_diagnostics_s": round(first_at - bench.started, 3),
        "first_diagnostics_count": len(first),
        "edits": edits,
        "edit_p50_ms": round(statistics.median(latencies), 1),
        "edit_p95_ms": round(percentile(latencies, 0.95), 1),
        "edit_max_ms": round(max(latencies), 1),
        "peak_rss_mb": round(rss, 1),
        "reference_ms": round(reference, 1),
        "edit_p95_over_reference": round(percentile(latencies, 0.95) / reference, 3),
    }


def markdown(r: dict) -> str:
    rows = [
        [f"first diagnostics for {r['lines']:,} lines, from process start", "≤ 5 s", f"{r['first_diagnostics_s']} s"],
        [f"one-line edit → diagnostics, p50 ({r['edits']} edits, debounce 0)", "", f"{r['edit_p50_ms']} ms"],
        ["one-line edit → diagnostics, p95", "≤ 50 ms", f"{r['edit_p95_ms']} ms"],
        ["server peak RSS", "≤ 600 MB", f"{r['peak_rss_mb']} MB"],
    ]
    caption = (
        f"Language server latency ({r['settings']}, {r['date']}, {r['machine']}; "
        f"load average at start {r['load_average']})"
    )
    note = (
        f"Reference workload (pure-Python word count of the document): {r['reference_ms']} ms; "
        f"p95 edit latency = {r['edit_p95_over_reference']} × reference."
    )
    return markdown_table(["measure", "target", "result"], rows, caption, note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--model-path", default="")
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "lsp_latency")
    args = parser.parse_args()
    options = {"backend": args.backend, "modelPath": args.model_path, "debounceMs": 0}
    load = os.getloadavg()[0]
    started = time.time()
    result = asyncio.run(measure(options, args.edits))
    result.update(
        settings=", ".join(f"{k}={v}" for k, v in options.items() if v != ""),
        date=datetime.date.today().isoformat(),
        machine=f"{os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}",
        load_average=round(load, 2),
        wall_s=round(time.time() - started, 1),
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
