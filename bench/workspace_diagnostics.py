"""Workspace diagnostics on a 1,000-file Markdown tree, and edits in an open document meanwhile.

Builds the tree in a temporary folder: 1,000 Markdown files in 20 folders, each a heading
and six paragraphs, every paragraph a corpus dev line (held out from the models, each
line once) folded to ASCII, so the model has real work in every file. Starts
``nokta-lsp --stdio`` with that folder as the workspace root (``debounceMs`` 0), opens one
more file of the tree (50 tune lines, folded) and waits for the configured model. Then
asks ``workspace/diagnostic`` and, until it answers, edits the open document as a writer
would, one line at a time (a tune line folded to ASCII), each edit sent once the last
one's diagnostics are in, 50 ms apart, recording didChange -> publishDiagnostics for its
version. Last, asks again with the result ids it got: every file unchanged. Twice, each
time from a fresh server: asking with a partial-result token, as VS Code does (the files'
reports come as they are done), and without, as Neovim does (all in the answer).

Targets: the answer within 30 s; p95 edit latency while it runs at most 50 ms. Writes
bench/results/workspace_diagnostics.json and .md.

    python -m bench.workspace_diagnostics [--backend ngram] [--files 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from bench.lsp_client import BenchClient, percentile, reference_ms, rss_mb
from bench.report import markdown_table, run_facts, write_report
from nokta_model.alphabet import asciify
from nokta_model.training.corpus import default_corpus_dir, split_lines

HERE = Path(__file__).resolve().parent
FOLDERS = 20
PARAGRAPHS = 6
OPEN_LINES = 50
EDIT_PAUSE_S = 0.05


def build_tree(root: Path, files: int) -> tuple[int, list[str]]:
    """``files`` Markdown files of corpus dev lines folded to ASCII; returns their characters
    and the tune lines (folded) for the open document and its edits."""
    dev = [asciify(line) for _, line in split_lines(default_corpus_dir(), "dev")]
    tune = [asciify(line) for _, line in split_lines(default_corpus_dir(), "tune")]
    if len(dev) < files * PARAGRAPHS:
        raise SystemExit(f"only {len(dev)} dev lines: {files} files need {files * PARAGRAPHS}")
    characters = 0
    for n in range(files):
        paragraphs = dev[n * PARAGRAPHS : (n + 1) * PARAGRAPHS]
        heading = " ".join(paragraphs[0].split()[:4])
        path = root / f"part{n % FOLDERS:02d}" / f"note{n:04d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = f"# {heading}\n\n" + "\n\n".join(paragraphs) + "\n"
        path.write_text(text, encoding="utf-8")
        characters += len(text)
    return characters, tune


async def measure(options: dict, files: int) -> dict:
    """Both ways a client asks: as VS Code does (partial results as the files are done)
    and in one answer (as Neovim does), each from a fresh server."""
    with tempfile.TemporaryDirectory(prefix="nokta-workspace-") as folder:
        root = Path(folder)
        characters, tune = build_tree(root, files)
        runs = {"partial": await run(root, tune, options, "ws"), "whole": await run(root, tune, options, None)}
    return {"files": files, "characters": characters, **runs, "reference_ms": round(reference_ms(tune), 1)}


async def run(root: Path, tune: list[str], options: dict, token: str | None) -> dict:
    lines, pool = tune[:OPEN_LINES], tune[OPEN_LINES:]
    open_file = root / "open.md"
    open_file.write_text("\n".join(lines), encoding="utf-8")
    bench = BenchClient()
    await bench.start(options, root=root)
    uri = open_file.as_uri()
    bench.open(uri, "\n".join(lines), language_id="markdown")
    await asyncio.wait_for(bench.model_loaded.wait(), 600)
    await bench.final_diagnostics(uri, 1)

    asked = time.perf_counter()
    params = {"previousResultIds": [], **({"partialResultToken": token} if token else {})}
    workspace = asyncio.ensure_future(bench.request("workspace/diagnostic", params))
    latencies, version = [], 1
    while not workspace.done():
        version += 1
        row = (version * 7919) % OPEN_LINES
        new = pool[version % len(pool)]
        sent = bench.replace_line(uri, version, row, len(lines[row]), new)
        lines[row] = new
        arrived, _ = await bench.diagnostics(uri, version)
        latencies.append((arrived - sent) * 1000)
        await asyncio.sleep(EDIT_PAUSE_S)
    report = await workspace
    answered = time.perf_counter() - asked
    items = [item for item in bench.partial_results.get(token, []) + report["items"] if item["uri"] != uri]
    previous = [{"uri": item["uri"], "value": item["resultId"]} for item in items]
    asked_again = time.perf_counter()
    again = await bench.request("workspace/diagnostic", {"previousResultIds": previous})
    answered_again = time.perf_counter() - asked_again
    rss = rss_mb(bench.pid, "VmHWM")
    await bench.stop()
    return {
        "files_reported": len(items),
        "findings": sum(len(item.get("items", [])) for item in items),
        "answer_s": round(answered, 2),
        "second_answer_s": round(answered_again, 2),
        "second_unchanged": sum(item["kind"] == "unchanged" for item in again["items"] if item["uri"] != uri),
        "edits": len(latencies),
        "edit_p50_ms": round(statistics.median(latencies), 1),
        "edit_p95_ms": round(percentile(latencies, 0.95), 1),
        "edit_max_ms": round(max(latencies), 1),
        "peak_rss_mb": round(rss, 1),
    }


def markdown(r: dict) -> str:
    header = ["measure", "target", "asked as VS Code asks (in parts)", "in one answer (as Neovim asks)"]
    runs = (r["partial"], r["whole"])

    def row(measure: str, target: str, cell) -> list[str]:
        return [measure, target, *(cell(each) for each in runs)]

    rows = [
        row(f"workspace/diagnostic answered ({r['files']:,} files, {r['characters']:,} characters)", "≤ 30 s",
            lambda x: f"{x['answer_s']} s"),
        row("files reported / findings", "", lambda x: f"{x['files_reported']:,} / {x['findings']:,}"),
        row("asked again with the result ids: answered / files unchanged", "",
            lambda x: f"{x['second_answer_s']} s / {x['second_unchanged']:,}"),
        row("one-line edit → diagnostics while it runs: edits, p50", "",
            lambda x: f"{x['edits']}, {x['edit_p50_ms']} ms"),
        row("one-line edit → diagnostics while it runs, p95", "≤ 50 ms", lambda x: f"{x['edit_p95_ms']} ms"),
        row("slowest edit", "", lambda x: f"{x['edit_max_ms']} ms"),
        row("server peak RSS", "", lambda x: f"{x['peak_rss_mb']} MB"),
    ]  # fmt: skip
    caption = (
        f"Workspace diagnostics ({r['settings']}, {r['date']}, {r['machine']}; load average at start "
        f"{r['load_average']}); text: corpus dev lines folded to ASCII, edits: tune lines folded"
    )
    note = (
        f"Each edit is sent once the last one's diagnostics are in, {EDIT_PAUSE_S * 1000:.0f} ms apart; an edit's "
        "time includes the client reading the workspace's diagnostics sent before it (in one answer, the slowest "
        "edit is the one behind it). Reference workload (pure-Python word count of the tune lines): "
        f"{r['reference_ms']} ms."
    )
    return markdown_table(header, rows, caption, note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="default")
    parser.add_argument("--files", type=int, default=1_000)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "workspace_diagnostics")
    args = parser.parse_args()
    options = {"backend": args.backend, "debounceMs": 0}
    load = os.getloadavg()[0]
    started = time.time()
    result = asyncio.run(measure(options, args.files))
    result.update(
        settings=", ".join(f"{k}={v}" for k, v in options.items()),
        **run_facts(),
        load_average=round(load, 2),
        wall_s=round(time.time() - started, 1),
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.out, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
