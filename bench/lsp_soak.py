"""Soak: 20 open documents, 20,000 edits as fast as the server takes them (issue 6).

About half an hour of a fast typist (11 edits a second) compressed into one run. Opens
20 documents of 500 corpus dev lines, half of them asciified, and edits them
round-robin: each edit replaces, inserts or deletes a line or retypes a word, with
lines from the same pool, so the text's make-up stays the same through the run.
After every round (one edit per document) it asks a hover and a code action of the
document just edited and waits for both answers (that is the back-pressure: the client
never runs ahead of the server by more than a round). Reports:

- p50/p95/max of request latency (hover, code action) and of didChange -> diagnostics
  for the versions that got diagnostics (newer edits supersede older ones);
- requests not answered within 10 s (must be 0), and that every document got the
  diagnostics of its final version;
- server RSS after warm-up (the first 10% of edits), peak after warm-up, and at the
  end (growth must stay within 10%). The edits start once the configured model has
  loaded and checked every document, so its load does not count as growth.

Writes bench/results/lsp_soak.json and .md.

    python -m bench.lsp_soak [--backend ngram] [--edits 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path

from bench.lsp_client import BenchClient, percentile, reference_ms, rss_mb
from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.training.corpus import default_corpus_dir, split_lines

HERE = Path(__file__).resolve().parent

DOCUMENTS, LINES = 20, 500


def documents_and_pool(rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """Documents and edit lines drawn from one pool (half of it asciified), so the text's
    make-up, and with it the number of diagnostics the server holds, stays the same."""
    dev = [line for _, line in split_lines(default_corpus_dir(), "dev") if 20 <= len(line) <= 300][:2000]
    pool = [asciify(line) if n % 2 else line for n, line in enumerate(dev)]
    return [[rng.choice(pool) for _ in range(LINES)] for _ in range(DOCUMENTS)], pool


def make_edit(lines: list[str], pool: list[str], rng: random.Random) -> dict:
    """One content change (and the same change applied to ``lines``)."""
    row, new = rng.randrange(len(lines)), rng.choice(pool)
    kind = rng.random()
    if kind < 0.6:  # replace a line
        return _replace(lines, row, 0, len(lines[row]), new)
    if kind < 0.7 and len(lines) > LINES // 2:  # delete a line
        del lines[row]
        return {"range": {"start": {"line": row, "character": 0}, "end": {"line": row + 1, "character": 0}}, "text": ""}
    if kind < 0.8 and len(lines) < 2 * LINES:  # insert a line
        lines.insert(row, new)
        return {
            "range": {"start": {"line": row, "character": 0}, "end": {"line": row, "character": 0}},
            "text": new + "\n",
        }
    old_word, new_word = (lines[row].split() or [""])[0], new.split()[0]
    return _replace(lines, row, lines[row].find(old_word), len(old_word), new_word)  # retype the first word


def _replace(lines: list[str], row: int, start: int, length: int, text: str) -> dict:
    """Replace ``length`` characters at ``start`` of a line (positions in UTF-16 units)."""
    line = lines[row]
    units = lambda s: len(s.encode("utf-16-le")) // 2  # noqa: E731
    begin, end = units(line[:start]), units(line[: start + length])
    lines[row] = line[:start] + text + line[start + length :]
    return {"range": {"start": {"line": row, "character": begin}, "end": {"line": row, "character": end}}, "text": text}


async def timed_request(bench: BenchClient, method: str, params: dict, latencies: list[float]) -> bool:
    started = time.perf_counter()
    try:
        await bench.request(method, params, timeout=10)
    except TimeoutError:
        return False
    except RuntimeError as error:  # an error response is an answer too, but worth seeing
        print(f"{method}: {error}", file=sys.stderr)
    latencies.append((time.perf_counter() - started) * 1000)
    return True


async def final_diagnostics(bench: BenchClient, uri: str, version: int) -> bool:
    try:
        await bench.diagnostics(uri, version, timeout=60)
    except TimeoutError:
        return False
    return True


async def measure(options: dict, edits: int) -> dict:
    rng = random.Random(20)
    docs, pool = documents_and_pool(rng)
    bench = BenchClient()
    await bench.start(options)
    uris = [f"file:///soak{d}.txt" for d in range(DOCUMENTS)]
    for uri, lines in zip(uris, docs, strict=True):
        bench.open(uri, "\n".join(lines))
    await asyncio.wait_for(bench.model_loaded.wait(), 120)  # the configured model, not the stand-in
    for uri in uris:  # every document checked by it: its load is no growth of the soak
        await bench.final_diagnostics(uri, 1)
    versions, sent, requests, unanswered, rss = [1] * DOCUMENTS, {}, [], 0, {}
    step = max(1, edits // 20)
    warm_up = 2 * step  # the first 10% of edits
    for n in range(edits):
        d = n % DOCUMENTS
        versions[d] += 1
        change = make_edit(docs[d], pool, rng)
        sent[(uris[d], versions[d])] = bench.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uris[d], "version": versions[d]}, "contentChanges": [change]},
        )
        if d == DOCUMENTS - 1:
            row = change["range"]["start"]["line"]
            where = {"textDocument": {"uri": uris[d]}, "position": {"line": row, "character": 1}}
            unanswered += not await timed_request(bench, "textDocument/hover", where, requests)
            span = {"start": {"line": row, "character": 0}, "end": {"line": row + 1, "character": 0}}
            unanswered += not await timed_request(
                bench,
                "textDocument/codeAction",
                {"textDocument": {"uri": uris[d]}, "range": span, "context": {"diagnostics": []}},
                requests,
            )
        if (n + 1) % step == 0:
            rss[n + 1] = rss_mb(bench.pid)
    final_ok = all([await final_diagnostics(bench, uri, version) for uri, version in zip(uris, versions, strict=True)])
    rss["end"], peak = rss_mb(bench.pid), rss_mb(bench.pid, "VmHWM")
    await bench.stop()
    published = [(bench.first_arrival[key] - at) * 1000 for key, at in sent.items() if key in bench.first_arrival]
    after_warm_up = [value for key, value in rss.items() if key != "end" and key > warm_up]
    return {
        "documents": DOCUMENTS,
        "lines_each": LINES,
        "edits": edits,
        "requests": len(requests) + unanswered,
        "unanswered": unanswered,
        "final_versions_published": final_ok,
        "request_p50_ms": round(percentile(requests, 0.5), 1),
        "request_p95_ms": round(percentile(requests, 0.95), 1),
        "request_max_ms": round(max(requests), 1),
        "published_versions": len(published),
        "edit_p50_ms": round(percentile(published, 0.5), 1),
        "edit_p95_ms": round(percentile(published, 0.95), 1),
        "rss_after_warm_up_mb": round(rss[warm_up], 1),
        "rss_peak_after_warm_up_mb": round(max(after_warm_up), 1),
        "rss_final_mb": round(rss["end"], 1),
        "rss_growth": round(rss["end"] / rss[warm_up] - 1, 3),
        "peak_rss_mb": round(peak, 1),
        "reference_ms": round(reference_ms([line for doc in docs for line in doc]), 1),
        "rss_by_edits": {str(k): round(v, 1) for k, v in rss.items()},
    }


def markdown(r: dict) -> str:
    rss = f"{r['rss_after_warm_up_mb']} / {r['rss_peak_after_warm_up_mb']} / {r['rss_final_mb']} MB"
    rows = [
        [f"edits ({r['documents']} documents of {r['lines_each']} lines)", "20,000", f"{r['edits']:,}"],
        [
            f"requests not answered within 10 s (hover + code action, {r['requests']:,} sent)",
            "0",
            r["unanswered"],
        ],
        [
            "every document got diagnostics for its final version",
            "yes",
            "yes" if r["final_versions_published"] else "no",
        ],
        [
            "request latency p50 / p95 / max",
            "",
            f"{r['request_p50_ms']} / {r['request_p95_ms']} / {r['request_max_ms']} ms",
        ],
        [
            f"edit → diagnostics p50 / p95 ({r['published_versions']:,} versions published)",
            "",
            f"{r['edit_p50_ms']} / {r['edit_p95_ms']} ms",
        ],
        ["RSS after warm-up (first 10% of edits) / peak after / final", "", rss],
        ["RSS growth after warm-up", "≤ 10%", f"{r['rss_growth']:.1%}"],
    ]
    caption = (
        f"Language server soak ({r['settings']}, {r['date']}, {r['machine']}; load average "
        f"{r['load_average']} at start, {r['load_average_end']} at end; {r['wall_s']} s)"
    )
    note = (
        f"Reference workload (pure-Python word count of the documents): {r['reference_ms']} ms; "
        f"request p95 = {r['request_p95_ms'] / r['reference_ms']:.3f} × reference."
    )
    return markdown_table(["measure", "target", "result"], rows, caption, note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="ngram")
    parser.add_argument("--edits", type=int, default=20_000)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "lsp_soak")
    args = parser.parse_args()
    options = {"backend": args.backend, "debounceMs": 0}
    load, started = os.getloadavg()[0], time.time()
    result = asyncio.run(measure(options, args.edits))
    result.update(
        settings=", ".join(f"{k}={v}" for k, v in options.items()),
        **run_facts(),
        load_average=round(load, 2),
        load_average_end=round(os.getloadavg()[0], 2),
        wall_s=round(time.time() - started, 1),
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
