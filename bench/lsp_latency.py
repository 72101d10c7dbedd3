"""Language server latency and memory, measured as an editor client sees them.

Starts ``nokta-lsp --stdio``, opens a 10,000-line Turkish document (corpus dev and tune
lines as written: never counted into a model, each line once, so no cache is warm), then
makes 200 single-line edits one after the other, each replacing a line by another unseen
line typed without Turkish letters (so the model has real work), with ``debounceMs`` 0.

Reports, from process start: the first diagnostics (the top of the document); the whole
document (the end of the server's "Checking" progress, which follows the last publish of
an analysis published in parts); when the configured model is ready, and the whole
document analysed with it (a stand-in count-based model serves until then; the server
answers a textDocument/diagnostic request only once nothing is left to analyse, and the
time is that of the last publish before the answer). Then p50/p95 of didChange ->
publishDiagnostics for that version, and the server's peak RSS (VmHWM) and resident
memory once the edits are analysed (VmRSS), with the load
average at the start (the machine is shared) and p95 as a multiple of a fixed reference
workload timed in the same run. With ``--edit-at-once`` the edits start right after the
first diagnostics, while the rest of the document and the configured model are still on
their way. Writes bench/results/lsp_latency.json and .md.

    python -m bench.lsp_latency [--backend ngram] [--model-path FILE] [--edits 200] [--edit-at-once]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from pathlib import Path

from bench.lsp_client import BenchClient, percentile, reference_ms, rss_mb
from bench.report import markdown_table, run_facts, write_report
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


async def measure(options: dict, edits: int, edit_at_once: bool) -> dict:
    lines, pool = corpus_sample(LINES)
    reference = reference_ms(lines)
    bench = BenchClient()
    await bench.start(options)
    bench.open(URI, "\n".join(lines))
    first_at, first = await bench.diagnostics(URI, 1)
    result = {"first_diagnostics_s": round(first_at - bench.started, 3), "first_diagnostics_count": len(first)}
    if not edit_at_once:
        await asyncio.wait_for(bench.model_loaded.wait(), 600)
        configured_at, configured = await bench.final_diagnostics(URI, 1)
        whole_at = bench.checked[0] if bench.checked else first_at  # in parts, or at once
        result.update(
            whole_document_s=round(whole_at - bench.started, 3),
            model_ready_s=round(bench.model_loaded_at - bench.started, 3),
            configured_whole_document_s=round(max(configured_at, bench.model_loaded_at) - bench.started, 3),
            configured_whole_document_count=len(configured),
        )
    latencies = []
    for version in range(2, edits + 2):
        row = (version * 7919) % LINES
        new = asciify(pool[version % len(pool)])
        sent = bench.replace_line(URI, version, row, len(lines[row]), new)
        lines[row] = new
        arrived, _ = await bench.diagnostics(URI, version)
        latencies.append((arrived - sent) * 1000)
    rss, resident = rss_mb(bench.pid, "VmHWM"), rss_mb(bench.pid, "VmRSS")
    await bench.stop()
    return {
        "lines": LINES,
        "characters": sum(len(line) + 1 for line in lines),
        **result,
        "edits": edits,
        "edits_start": "after the first diagnostics" if edit_at_once else "after the configured model's whole document",
        "edit_p50_ms": round(statistics.median(latencies), 1),
        "edit_p95_ms": round(percentile(latencies, 0.95), 1),
        "edit_max_ms": round(max(latencies), 1),
        "peak_rss_mb": round(rss, 1),
        "rss_after_mb": round(resident, 1),
        "reference_ms": round(reference, 1),
        "edit_p95_over_reference": round(percentile(latencies, 0.95) / reference, 3),
    }


def markdown(r: dict) -> str:
    first = f"first diagnostics (top of {r['lines']:,} lines), from process start"
    rows = [[first, "≤ 2 s", f"{r['first_diagnostics_s']} s"]]
    if "whole_document_s" in r:
        rows += [
            ["whole document, from process start", "≤ 5 s", f"{r['whole_document_s']} s"],
            ["configured model ready", "", f"{r['model_ready_s']} s"],
            ["whole document with the configured model", "", f"{r['configured_whole_document_s']} s"],
        ]
    rows += [
        [f"one-line edit → diagnostics, p50 ({r['edits']} edits {r['edits_start']})", "", f"{r['edit_p50_ms']} ms"],
        ["one-line edit → diagnostics, p95", "≤ 50 ms", f"{r['edit_p95_ms']} ms"],
        ["server peak RSS", "≤ 600 MB", f"{r['peak_rss_mb']} MB"],
    ]
    if "rss_after_mb" in r:
        rows.append(["server resident after the edits", "≤ 300 MB", f"{r['rss_after_mb']} MB"])
    caption = (
        f"Language server latency ({r['settings']}, {r['date']}, {r['machine']}; "
        f"load average at start {r['load_average']})"
    )
    note = (
        f"Reference workload (pure-Python word count of the document): {r['reference_ms']} ms; "
        f"p95 edit latency = {r['edit_p95_over_reference']} × reference; slowest edit {r['edit_max_ms']} ms."
    )
    return markdown_table(["measure", "target", "result"], rows, caption, note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--model-path", default="")
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--edit-at-once", action="store_true", help="edit right after the first diagnostics")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "lsp_latency")
    args = parser.parse_args()
    options = {"backend": args.backend, "modelPath": args.model_path, "debounceMs": 0}
    load = os.getloadavg()[0]
    started = time.time()
    result = asyncio.run(measure(options, args.edits, args.edit_at_once))
    result.update(
        settings=", ".join(f"{k}={v}" for k, v in options.items() if v != ""),
        **run_facts(),
        load_average=round(load, 2),
        wall_s=round(time.time() - started, 1),
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
