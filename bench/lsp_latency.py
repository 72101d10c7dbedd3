"""Language server latency and memory, measured as an editor client sees them.

Starts ``nokta-lsp --stdio``, opens a 10,000-line Turkish document (corpus dev and tune
lines as written: never counted into a model, each line once, so no cache is warm), then
makes 200 single-line edits one after the other, each replacing a line by another unseen
line typed without Turkish letters (so the model has real work), with ``debounceMs`` 0.
Then the same in a new server with the same lines typed without Turkish letters (the
document asciified: tens of thousands of findings, of which ``maxDiagnostics`` at most
are published, or the one diagnostic of a document typed so).

Reports, from process start: the first diagnostics (the top of the document); the whole
document (the end of the server's "Checking" progress, which follows the last publish of
an analysis published in parts); when the configured model is ready, and the whole
document analysed with it (a stand-in count-based model serves until then; the server
answers a textDocument/diagnostic request only once nothing is left to analyse, and the
time is that of the last publish before the answer). Then p50/p95 of didChange ->
publishDiagnostics for that version (or, when what the server publishes did not change
and it sends nothing, the answer to a textDocument/diagnostic request sent after the
edit: it is answered once the version is analysed), the diagnostics last published, and
the server's peak RSS (VmHWM) and resident memory once the edits are analysed, with
their diagnostics published (VmRSS), with the load
average at the start (the machine is shared) and p95 as a multiple of a fixed reference
workload timed in the same run. With ``--edit-at-once`` the edits start right after the
first diagnostics, while the rest of the document and the configured model are still on
their way. Writes bench/results/lsp_latency.json (the ASCII document's figures under
``ascii``) and .md.

    python -m bench.lsp_latency [--backend ngram] [--model-path FILE] [--edits 200] [--edit-at-once]
        [--documents correct,ascii]
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
from nokta_model.training.corpus import default_corpus_dir, split_lines

HERE = Path(__file__).resolve().parent

LINES = 10_000
URI = "file:///latency.txt"


def corpus_sample(count: int) -> tuple[list[str], list[str]]:
    """``count`` document lines and a separate pool of edit lines: distinct held-out lines."""
    held_out = [line for split in ("dev", "tune") for _, line in split_lines(default_corpus_dir(), split)]
    if len(held_out) < count + 200:
        raise SystemExit(f"only {len(held_out)} held-out lines: need {count + 200}")
    return held_out[:count], held_out[count:]


DOCUMENTS = ("correct", "ascii")


async def measure(options: dict, edits: int, edit_at_once: bool, ascii: bool) -> dict:
    lines, pool = corpus_sample(LINES)
    lines = [asciify(line) for line in lines] if ascii else lines
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
        latencies.append((await bench.analysed(URI, version) - sent) * 1000)
    rss, resident = rss_mb(bench.pid, "VmHWM"), rss_mb(bench.pid, "VmRSS")
    anonymous, mapped = rss_mb(bench.pid, "RssAnon"), rss_mb(bench.pid, "RssFile")
    shown = max((key for key in bench.published if key[0] == URI), key=lambda key: key[1] or 0)
    await bench.stop()
    return {
        "document": "typed without Turkish letters" if ascii else "as written",
        "lines": LINES,
        "characters": sum(len(line) + 1 for line in lines),
        **result,
        "published_after_edits": len(bench.published[shown][1]),
        "edits": edits,
        "edits_start": "after the first diagnostics" if edit_at_once else "after the configured model's whole document",
        "edit_p50_ms": round(statistics.median(latencies), 1),
        "edit_p95_ms": round(percentile(latencies, 0.95), 1),
        "edit_max_ms": round(max(latencies), 1),
        "peak_rss_mb": round(rss, 1),
        "rss_after_mb": round(resident, 1),
        "rss_after_anonymous_mb": round(anonymous, 1),  # the heap: model, caches, documents
        "rss_after_files_mb": round(mapped, 1),  # pages of mapped files: the model's tables, libraries
        "reference_ms": round(reference, 1),
        "edit_p95_over_reference": round(percentile(latencies, 0.95) / reference, 3),
    }


def markdown(r: dict) -> str:
    runs = [run for run in (r if "lines" in r else None, r.get("ascii")) if run]
    first = f"first diagnostics (top of {runs[0]['lines']:,} lines), from process start"
    measures = [(first, "≤ 2 s", "first_diagnostics_s", "s")]
    if "whole_document_s" in runs[0]:
        measures += [
            ("whole document, from process start", "≤ 5 s", "whole_document_s", "s"),
            ("configured model ready", "", "model_ready_s", "s"),
            ("whole document with the configured model", "", "configured_whole_document_s", "s"),
            ("diagnostics published for the whole document", "", "configured_whole_document_count", ""),
        ]
    edits = runs[0]["edits"]
    measures += [
        (f"one-line edit → diagnostics, p50 ({edits} edits {runs[0]['edits_start']})", "", "edit_p50_ms", "ms"),
        ("one-line edit → diagnostics, p95", "≤ 50 ms", "edit_p95_ms", "ms"),
        ("slowest edit", "", "edit_max_ms", "ms"),
        ("diagnostics published after the edits", "", "published_after_edits", ""),
        ("server peak RSS", "≤ 600 MB", "peak_rss_mb", "MB"),
        ("server resident after the edits, their diagnostics published", "≤ 300 MB", "rss_after_mb", "MB"),
        ("… of it anonymous (the heap: model, caches, documents)", "", "rss_after_anonymous_mb", "MB"),
        ("… of it mapped files (the model's tables, libraries)", "", "rss_after_files_mb", "MB"),
    ]
    rows = [
        [measure, target, *(f"{run[key]:,} {unit}".strip() if key in run else "" for run in runs)]
        for measure, target, key, unit in measures
    ]
    caption = (
        f"Language server latency ({r['settings']}, {r['date']}, {r['machine']}; "
        f"load average at start {r['load_average']})"
    )
    note = "Reference workload (pure-Python word count of the document): " + "; ".join(
        f"{run['document']} {run['reference_ms']} ms, p95 edit latency = {run['edit_p95_over_reference']} × reference"
        for run in runs
    )
    header = ["measure", "target", *(f"document {run['document']}" for run in runs)]
    return markdown_table(header, rows, caption, note + ".")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--model-path", default="")
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--edit-at-once", action="store_true", help="edit right after the first diagnostics")
    parser.add_argument("--documents", default=",".join(DOCUMENTS), help="correct, ascii or both (comma-separated)")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "lsp_latency")
    args = parser.parse_args()
    options = {"backend": args.backend, "modelPath": args.model_path, "debounceMs": 0}
    load = os.getloadavg()[0]
    started = time.time()
    documents = args.documents.split(",")
    if not documents or set(documents) - set(DOCUMENTS):
        parser.error(f"--documents: expected {' or '.join(DOCUMENTS)}, got {args.documents!r}")
    result = asyncio.run(measure(options, args.edits, args.edit_at_once, False)) if "correct" in documents else {}
    if "ascii" in documents:
        result["ascii"] = asyncio.run(measure(options, args.edits, args.edit_at_once, True))
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
