"""Speed of `nokta restore` per backend beside the rule-based table, as a user runs them.

    python -m bench.throughput [--backends ngram default] [--runtimes] [--runs 3]

Whole processes on text no model was built from: vikipedi_test and bench/data/mixed_sample.md
(technical Turkish mixed with English: Markdown, code, URLs), each folded to ASCII. The
corpus dev split (same sources as the training text, so fewer words the count models
lack) is timed beside them and labelled so. The rule-based table
(../shared/anchors/rule_table) runs as a separate process on the same input in the same
rounds: each round runs every system on every text in turn, so a change in the shared
machine's speed falls on all of them; figures are medians over the rounds of the wall
time, with the CPU time (user + system) beside it, since the default reads the network
on a second thread. A warm-up round first, with bytecode written as on a user's machine.
Start-up is a whole `nokta restore` of a one-line input, and of one with a word only the
network decides (its runtime loaded). The default runs its network on ONNX Runtime, as
installed; `--runtimes` also times it on torch (the `nokta[torch]` extra), in bfloat16
where the CPU has it and in float32. Writes bench/results/throughput.json and .md;
`python -m bench.figures` then puts the table into the docs.
"""

from __future__ import annotations

import argparse
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
SHARED = ROOT.parent.parent / "shared"
RULE_TABLE = SHARED / "anchors" / "rule_table" / "restore.py"
TABLE = "rule table"
ONE_LINE = "Bugun hava cok guzel.\n"
ONE_LINE_NETWORK = "Bu yasa meclisten gecti.\n"  # an unseen word: the default loads its network
#: Each process writes and reads bytecode, as an installed package does.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
#: The default with its network on torch: (backend, environment) of each such system.
TORCH_RUNTIMES = {
    "default, torch": ("default", {"NOKTA_RUNTIME": "torch"}),
    "default, torch float32": ("default", {"NOKTA_RUNTIME": "torch", "NOKTA_NETWORK_FLOAT32": "1"}),
}


def texts() -> dict[str, tuple[str, str]]:
    """Name -> (file suffix, ASCII-folded text): the unseen texts first, then the dev split."""
    viki = (SHARED / "bench" / "vikipedi_test.txt").read_text(encoding="utf-8")
    mixed = (ROOT / "data" / "mixed_sample.md").read_text(encoding="utf-8")
    dev = "".join(line + "\n" for _, line in split_lines(default_corpus_dir(), "dev"))
    return {
        "vikipedi_test": (".txt", asciify(viki)),
        "mixed_sample.md": (".md", asciify(mixed)),
        "corpus dev split": (".txt", asciify(dev)),
    }


def command(system: str, path: Path) -> tuple[list[str], Path | None, dict[str, str]]:
    """(argv, standard input, environment): the table reads standard input; nokta reads
    the file, so its format (Markdown: only prose restored) comes from the extension as
    for a user."""
    if system == TABLE:
        return [sys.executable, str(RULE_TABLE)], path, ENVIRONMENT
    backend, runtime = TORCH_RUNTIMES.get(system, (system, {}))
    argv = [sys.executable, "-m", "nokta_model", "restore", "--backend", backend, str(path)]
    return argv, None, ENVIRONMENT | runtime


def seconds(argv: list[str], stdin_path: Path | None, environment: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole process."""
    started = time.perf_counter()
    with open(stdin_path or os.devnull, "rb") as stdin:
        process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), argv)
    return wall, usage.ru_utime + usage.ru_stime


def measure(systems: list[str], files: dict[str, Path], starts: dict[str, Path], runs: int) -> dict:
    """Wall and CPU medians of each system on each text, and nokta's start-up on each one-line input."""
    nokta = [system for system in systems if system != TABLE]
    for system in nokta:  # warm-up: bytecode written, files in the page cache
        seconds(*command(system, starts["start_s"]))
    wall: dict[str, dict[str, list[float]]] = {name: {system: [] for system in systems} for name in files}
    cpu: dict[str, dict[str, list[float]]] = {name: {system: [] for system in systems} for name in files}
    start: dict[str, dict[str, list[float]]] = {kind: {system: [] for system in nokta} for kind in starts}
    for _ in range(runs):
        for kind, path in starts.items():
            for system in nokta:
                start[kind][system].append(seconds(*command(system, path))[0])
        for name, path in files.items():
            for system in systems:
                took, used = seconds(*command(system, path))
                wall[name][system].append(took)
                cpu[name][system].append(used)
    return {
        **{kind: _medians(by_system) for kind, by_system in start.items()},
        "texts": {name: _medians(by_system) for name, by_system in wall.items()},
        "cpu_s": {name: _medians(by_system) for name, by_system in cpu.items()},
        "each_run": {**start, "texts": wall, "cpu_s": cpu},
    }


def _medians(by_system: dict[str, list[float]]) -> dict[str, float]:
    return {system: statistics.median(values) for system, values in by_system.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["ngram", "default"])
    parser.add_argument("--runtimes", action="store_true", help="also the default with its network on torch")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    backends = [*args.backends, *(TORCH_RUNTIMES if args.runtimes else ())]
    systems = [TABLE, *backends]
    load_at_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        files, sizes = {}, {}
        for index, (name, (suffix, text)) in enumerate(texts().items()):
            files[name] = Path(folder) / f"text{index}{suffix}"
            files[name].write_text(text, encoding="utf-8")
            sizes[name] = len(text)
        starts = {"start_s": Path(folder) / "one_line.txt", "start_network_s": Path(folder) / "network_line.txt"}
        starts["start_s"].write_text(ONE_LINE, encoding="utf-8")
        starts["start_network_s"].write_text(ONE_LINE_NETWORK, encoding="utf-8")
        figures = measure(systems, files, starts, args.runs)
    report = {
        **run_facts(),
        "runs": args.runs,
        "load_average": [round(load_at_start, 2), round(os.getloadavg()[0], 2)],
        "characters": sizes,
        **figures,
    }
    markdown = table(report, backends)
    write_report(ROOT / "results" / "throughput", report, markdown)
    print(markdown)


def table(report: dict, backends: list[str]) -> str:
    rows = []
    for name, by_system in report["texts"].items():
        chars = report["characters"][name]
        cpu = report.get("cpu_s", {}).get(name, {})
        row = [f"{name} ({chars / 1000:,.0f} k chars)", f"{by_system[TABLE]:.2f} s{_cpu(cpu, TABLE)}"]
        for backend in backends:
            ratio = by_system[backend] / by_system[TABLE]
            row.append(f"{by_system[backend]:.2f} s ({ratio:.2f}×){_cpu(cpu, backend)}")
        rows.append(row)
    rows.append(["start-up: one line", "", *(f"{report['start_s'][backend]:.2f} s" for backend in backends)])
    if "start_network_s" in report:
        network_starts = (f"{report['start_network_s'][backend]:.2f} s" for backend in backends)
        rows.append(["start-up: one line the network decides", "", *network_starts])
    caption = (
        f"`python -m bench.throughput`: whole processes, `nokta restore` beside the rule-based table on the same "
        f"ASCII-folded text, median of {report['runs']} rounds that run every system in turn; "
        f"{report['date']}, {report['machine']}, load average {report['load_average'][0]} at the start, "
        f"{report['load_average'][1]} at the end"
    )
    note = (
        "vikipedi_test and mixed_sample.md are text no model was built from; the corpus dev split comes from "
        "the training sources (held out by line), so it flatters the default, whose network is asked less there. "
        "(×): time over the rule table's on the same text. CPU: user + system seconds of the process, "
        "where given; the default reads the network on a second thread, so its CPU time exceeds its time."
    )
    header = ["text", TABLE, *(f"nokta {backend}" for backend in backends)]
    return markdown_table(header, rows, caption, note)


def _cpu(cpu: dict[str, float], system: str) -> str:
    return f", CPU {cpu[system]:.2f} s" if system in cpu else ""


if __name__ == "__main__":
    main()
