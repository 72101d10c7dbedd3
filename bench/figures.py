"""The docs' figures tables, generated from the latest bench results.

    python -m bench.figures [--check]

Reads bench/results/*.json (whatever the benches last wrote) and writes one table per
page between its markers: README.md (accuracy and speed), docs/benchmarks.md (speed,
and the other benches' headline figures), docs/language-server.md (the server's
latency, precision, soak and autocorrect), docs/model-card.md (accuracy per genre),
docs/ci.md and docs/editors/vscode.md (what an install weighs), docs/development.md (what
a clone downloads).
Each table names its text, machine and date. A result file that is missing leaves its
rows out. Figures appear in the docs only inside these tables (tests/test_doc_figures.py);
history is in bench/results/*.md.
With --check, writes nothing and exits 1 if a page differs from what it would write.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench import clone_size, genres, install_footprint, throughput
from bench.report import block, markdown_table, with_block

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
TABLE = throughput.TABLE


def result(name: str) -> dict | None:
    """bench/results/``name``.json, or None when that bench has not written one."""
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def facts(name: str, report: dict) -> str:
    """`bench.NAME`, date, and the load average when the bench recorded one."""
    load = report.get("load_average")
    if isinstance(load, list):
        load = load[0]
    return f"`bench.{name}` {report.get('date', '?')}" + (f", load {load:.2f}" if load is not None else "")


def machines(*reports: dict | None) -> str:
    """The distinct machines of ``reports`` (benches list the same facts in different orders)."""
    distinct = {frozenset(r["machine"].split(", ")): r["machine"] for r in reports if r and "machine" in r}
    return "; ".join(sorted(distinct.values()))


def sourced(rows: list[list[str]], source: str) -> list[list[str]]:
    """``rows`` with ``source`` as the last cell of the first row (the others blank)."""
    return [[*row, source if index == 0 else ""] for index, row in enumerate(rows)]


# --- accuracy and speed of `nokta restore` (README) ---------------------------------

HEADLINE_TEXTS = [  # (start of a bench.genres row's text, its path)
    ("vikipedi_test", genres.DIRECT),
    ("mixed_sample.md (", genres.CLI_MARKDOWN),
    ("mixed_sample.md outside code blocks", genres.CLI_MARKDOWN),
    ("dev: technical", genres.DIRECT),
    ("dev: all", genres.DIRECT),
]


def accuracy_cell(figures: dict) -> str:
    changed, misspelt = figures["changed_when_correct"], figures.get("changed_misspelt_when_correct")
    cell = f"{figures['word_acc']:.4f} / {figures['word_errors']:,}"
    if changed is None:
        return cell
    return f"{cell} / {changed:.2%}" + ("" if misspelt is None else f" ({changed - misspelt:.2%})")


def accuracy_rows(report: dict, systems: list[str]) -> list[list[str]]:
    rows = []
    for start, path in HEADLINE_TEXTS:
        for row in report["rows"]:
            if row["text"].startswith(start) and row["path"] == path:
                words = row["systems"][systems[0]]["words"]
                label = f"{row['text']}, {genres.PATH_LABELS[path]}, {words:,} words"
                rows.append(["accuracy", label, *(accuracy_cell(row["systems"][s]) for s in systems)])
                break
    return rows


def speed_rows(report: dict, systems: list[str]) -> list[list[str]]:
    rows = []
    for name, by_system in report["texts"].items():
        label = f"{name}, {report['characters'][name] / 1000:,.0f} k chars"
        cells = [speed_cell(by_system, system) for system in systems]
        rows.append(["time of `nokta restore`", label, *cells])
    starts = report["start_s"]
    rows.append(["start-up", "one line", *(f"{starts[s]:.2f} s" if s in starts else "" for s in systems)])
    return rows


def speed_cell(by_system: dict, system: str) -> str:
    if system not in by_system:
        return ""
    seconds = by_system[system]
    return f"{seconds:.2f} s" if system == TABLE else f"{seconds:.2f} s ({seconds / by_system[TABLE]:.2f}×)"


def readme_table() -> str:
    accuracy, speed = result("genres"), result("throughput")
    systems = accuracy["systems"] if accuracy else [TABLE, *(speed or {}).get("start_s", {})]
    rows = (accuracy_rows(accuracy, systems) if accuracy else []) + (speed_rows(speed, systems) if speed else [])
    sources = []
    if accuracy:
        sources.append(f"accuracy {facts('genres', accuracy)}, code {accuracy.get('code', '?')}")
    if speed:
        sources.append(f"time {facts('throughput', speed)}, median of {speed['runs']} rounds")
    caption = f"{'; '.join(sources)}; {machines(accuracy, speed)}"
    note = (
        "Accuracy: word accuracy / word errors on the ASCII-folded text restored / share of words changed when "
        "the correct text is fed as written, in brackets without the changes of its own misspellings "
        "(a word as written no word running text counts, restored to one). Time: whole processes on the "
        "ASCII-folded text, the rule table run as a separate process in the same rounds; (×) is the time over "
        "the rule table's. vikipedi_test and mixed_sample.md are test text, never trained or tuned on; the dev "
        "split is held out from training."
    )
    header = ["measure", "text", *(s if s == TABLE else f"nokta {s}" for s in systems)]
    return markdown_table(header, rows, caption, note)


def speed_table() -> str:
    speed = result("throughput")
    if speed is None:
        return "No `bench.throughput` result yet.\n"
    return throughput.table(speed, list(speed["start_s"]))


def model_card_table() -> str:
    report = result("genres")
    if report is None:
        return "No `bench.genres` result yet.\n"
    systems = report["systems"]
    rows = [
        [row["text"], genres.PATH_LABELS[row["path"]], f"{row['systems'][systems[0]]['words']:,}"]
        + [accuracy_cell(row["systems"][s]) for s in systems]
        for row in report["rows"]
        if not row["text"].startswith("dev file:")
    ]
    caption = f"{facts('genres', report)}, code {report.get('code', '?')}, {report['machine']}"
    caption += f"; dev split: {report['dev_files']}"
    note = (
        "Word accuracy / word errors of the ASCII-folded text restored / share of words changed when the correct "
        "text is fed as written (in brackets without its own misspellings). The definitions, ambiguous-word and "
        "letter accuracy, and each technical dev file: [genres.md](../bench/results/genres.md)."
    )
    header = ["text", "path", "words", *(s if s == TABLE else f"nokta {s}" for s in systems)]
    return markdown_table(header, rows, caption, note)


# --- the language server ----------------------------------------------------------


#: The files ``bench.lsp_latency`` runs were written to, the backend each ran named in its settings.
LATENCY_RESULTS = ("lsp_latency",)


def latency_rows(default: dict | None, ngram: dict | None) -> list[list[str]]:
    measures = [  # (measure, target, key, unit)
        ("first diagnostics, from process start", "≤ 2 s", "first_diagnostics_s", "s"),
        ("configured model ready", "", "model_ready_s", "s"),
        ("whole document checked, from process start", "≤ 5 s", "whole_document_s", "s"),
        ("one-line edit → diagnostics, p50", "", "edit_p50_ms", "ms"),
        ("one-line edit → diagnostics, p95", "≤ 50 ms", "edit_p95_ms", "ms"),
        ("server peak RSS", "≤ 600 MB", "peak_rss_mb", "MB"),
    ]
    reports = [r for r in (default, ngram) if r]
    lines = reports[0]["lines"] if reports else 0
    rows = [
        [measure, target, *(figure(r, key, unit) for r in (default, ngram))] for measure, target, key, unit in measures
    ]
    rows[0][0] += f" ({lines:,}-line document)"
    backends = [(name, r) for name, r in (("default", default), ("ngram", ngram)) if r]
    return sourced(rows, "; ".join(facts(f"lsp_latency --backend {name}", r) for name, r in backends))


def figure(report: dict | None, key: str, unit: str) -> str:
    if not report or key not in report:
        return ""
    digits = {"s": 2, "ms": 1, "MB": 0}[unit]
    return f"{report[key]:.{digits}f} {unit}"


def precision_rows(report: dict) -> list[list[str]]:
    """The dev split's human-written files together, then vikipedi_test (test only) when measured."""
    dev = [f for name, f in report["files"].items() if name != "vikipedi_test"]
    texts = [{"words": sum(f["words"] for f in dev), "false_alarms": sum(f["false_alarms"] for f in dev)}]
    for part in ("ascii", "slips"):
        hits, wholes = (sum(f[part][key] for f in dev) for key in ("flagged_needing", "need_change"))
        texts[0][part] = {"recall": hits / max(1, wholes)}
    texts += [report["files"]["vikipedi_test"]] if "vikipedi_test" in report["files"] else []
    alarms = "; ".join(f"{2000 * t['false_alarms'] / max(1, t['words']):.2f} ({t['false_alarms']})" for t in texts)
    which = "dev human-written files" + ("; vikipedi_test" if len(texts) > 1 else "")
    rows = [
        [f"false alarms per 2,000 correct words ({which})", "≤ 1", alarms, ""],
        ["recall on asciified text", "≥ 0.93", "; ".join(f"{t['ascii']['recall']:.3f}" for t in texts), ""],
        [
            "recall on slips (1 Turkish word in 5 typed in ASCII)",
            "≥ 0.85",
            "; ".join(f"{t['slips']['recall']:.3f}" for t in texts),
            "",
        ],
    ]
    if english := report.get("english"):
        label = f"diagnostics per 5,000 words of English ({english['words']:,} words)"
        rows.append([label, "≤ 1", f"{english['per_5000_words']:.2f} ({english['diagnostics']})", ""])
    return sourced(rows, facts("lsp_precision", report))


def soak_rows(report: dict) -> list[list[str]]:
    label = f"soak: {report['documents']} documents, {report['edits']:,} edits: requests unanswered / RSS growth"
    return [[label, "0 / ≤ 10%", f"{report['unanswered']} / {report['rss_growth']:.1%}", "", facts("lsp_soak", report)]]


def autocorrect_rows(report: dict) -> list[list[str]]:
    typed = [
        f"{name} {text['ascii']['recall']:.4f} / {text['ascii']['wrong_per_2000']:.2f}"
        for name, text in report.items()
        if isinstance(text, dict) and "ascii" in text
    ]
    rows = [["autocorrect, text typed in ASCII: recall / wrong changes per 2,000 words", "", "; ".join(typed), ""]]
    if latency := report.get("latency_ms"):
        label = f"autocorrect request, median / p95 ({latency['document_lines']:,}-line document)"
        rows.append([label, "", f"{latency['median']:.1f} / {latency['p95']:.1f} ms", ""])
    return sourced(rows, facts("autocorrect", report))


def workspace_rows(report: dict) -> list[list[str]]:
    label = (
        f"workspace/diagnostic, {report['files']:,}-file Markdown tree: answered / edit → diagnostics p95 while it runs"
    )
    partial = report["partial"]  # asked as VS Code asks: the files' reports in parts
    figures = f"{partial['answer_s']:.1f} s / {partial['edit_p95_ms']:.1f} ms"
    cells = [figures, ""] if "backend=default" in report["settings"] else ["", figures]
    return [[label, "≤ 30 s / ≤ 50 ms", *cells, facts("workspace_diagnostics", report)]]


def latest_latency(backend: str) -> dict | None:
    """The newest ``bench.lsp_latency`` run of ``backend``, as its settings name it, among
    the result files it has written (``--out``: lsp_latency by default)."""
    runs = [r for r in map(result, LATENCY_RESULTS) if r and f"backend={backend}," in r["settings"] + ","]
    return max(runs, key=lambda run: run["date"], default=None)


def server_table() -> str:
    default, ngram = latest_latency("default"), latest_latency("ngram")
    precision, soak, autocorrect = result("lsp_precision"), result("lsp_soak"), result("autocorrect")
    workspace = result("workspace_diagnostics")
    rows = latency_rows(default, ngram) if default or ngram else []
    rows += workspace_rows(workspace) if workspace else []
    rows += precision_rows(precision) if precision else []
    rows += soak_rows(soak) if soak else []
    rows += autocorrect_rows(autocorrect) if autocorrect else []
    reports = (default, ngram, precision, soak, autocorrect, workspace)
    caption = (
        "`nokta-lsp` over stdio as an editor drives it, debounce 0; text: held-out corpus dev and tune lines, "
        f"vikipedi_test (test only) and English docs; {machines(*reports)}"
    )
    header = ["measure", "target", "nokta default", "nokta ngram", "bench, date"]
    return markdown_table(header, rows, caption)


# --- the other benches (docs/benchmarks.md) ----------------------------------------


def suggest_rows(report: dict) -> list[list[str]]:
    rows = []
    for backend, texts in report["results"].items():
        ratios = ", ".join(f"{text} {f['suggest_over_restore']:.2f}" for text, f in texts.items())
        rows.append(["`suggest` ÷ `restore` time", f"{backend}, dev split: {ratios}", facts("suggest_speed", report)])
    return rows


def memory_row(report: dict) -> list[str]:
    sizes = ", ".join(f"{r['bytes'] / 1e6:.0f} MB in: {r['peak_rss_kb'] / 1024:.0f} MiB" for r in report["rows"])
    return ["`nokta restore` peak RSS", f"{report['backend']}, {sizes}", facts("cli_memory", report)]


def jobs_row(report: dict) -> list[str]:
    speedups = ", ".join(f"{r['input']}: {r['speedup']:.2f}×" for r in report["rows"])
    label = f"`--jobs {report['jobs']}` speed-up over `--jobs 1`"
    return [label, f"{report['backend']}, {speedups}", facts("cli_jobs", report)]


def other_table() -> str:
    suggest, jobs = result("suggest_speed"), result("cli_jobs")
    memories = [m for m in (result("cli_memory"), result("cli_memory_ngram")) if m]
    rows = suggest_rows(suggest) if suggest else []
    rows += [memory_row(memory) for memory in memories]
    rows += [jobs_row(jobs)] if jobs else []
    caption = f"The other benches' headline figures; {machines(suggest, jobs, *memories)}"
    return markdown_table(["measure", "result", "bench, date"], rows, caption)


# --- what an install and a clone weigh (ci.md, editors/vscode.md, development.md) ----


def install_table() -> str:
    report = result("install_footprint")
    return install_footprint.table(report) if report else "No `bench.install_footprint` result yet.\n"


def clone_table() -> str:
    report = result("clone_size")
    return clone_size.table(report) if report else "No `bench.clone_size` result yet.\n"


# --- where each table goes ---------------------------------------------------------


@dataclass(frozen=True)
class Block:
    page: Path
    begin: str
    end: str
    make: Callable[[], str]

    def current(self) -> str | None:
        return block(self.page.read_text(encoding="utf-8"), self.begin, self.end)


def markers(name: str) -> tuple[str, str]:
    return f"<!-- bench.figures {name}: start -->", f"<!-- bench.figures {name}: end -->"


BLOCKS = [
    Block(ROOT / "README.md", *markers("readme"), readme_table),
    Block(ROOT / "docs" / "benchmarks.md", *markers("speed"), speed_table),
    Block(ROOT / "docs" / "benchmarks.md", *markers("other"), other_table),
    Block(ROOT / "docs" / "language-server.md", *markers("server"), server_table),
    Block(ROOT / "docs" / "model-card.md", *markers("model-card"), model_card_table),
    Block(ROOT / "docs" / "ci.md", *markers("install-ci"), install_table),
    Block(ROOT / "docs" / "editors" / "vscode.md", *markers("install-vscode"), install_table),
    Block(ROOT / "docs" / "development.md", *markers("clone"), clone_table),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is out of date")
    args = parser.parse_args()
    stale = []
    for each in BLOCKS:
        table = each.make()
        if each.current() == table:
            continue
        stale.append(f"{each.page.relative_to(ROOT)} ({each.begin})")
        if not args.check:
            page = each.page.read_text(encoding="utf-8")
            each.page.write_text(with_block(page, each.begin, each.end, table), encoding="utf-8")
    print(("out of date: " if args.check else "rewritten: ") + (", ".join(stale) or "nothing"))
    if args.check and stale:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
