"""bench.throughput writes the docs' one speed table; the README quotes it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.throughput import DOCS, DOCS_MARKERS, TABLE, table, with_table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def test_the_table_goes_between_the_markers_and_replaces_the_old_one():
    start, end = DOCS_MARKERS
    page = f"# Benchmarks\n\n{start}old table\n{end}\n\nafter\n"
    assert with_table(page, "new table\n") == f"# Benchmarks\n\n{start}new table\n{end}\n\nafter\n"
    with pytest.raises(SystemExit, match="markers"):
        with_table("# Benchmarks\n", "new table\n")


def test_each_backend_is_timed_against_the_rule_table_on_the_same_text():
    report = {
        "runs": 3,
        "date": "2026-11-27",
        "machine": "2 CPUs",
        "load_average": [1.0, 1.1],
        "characters": {"vikipedi_test": 690_000},
        "texts": {"vikipedi_test": {TABLE: 4.0, "default": 6.0}},
        "start_s": {"default": 0.9},
    }
    markdown = table(report, ["default"])
    assert "| vikipedi_test (690 k chars) | 4.00 s | 6.00 s (1.50×) |" in markdown
    assert "| start-up: one line |  | 0.90 s |" in markdown


def test_the_docs_carry_the_bench_s_latest_table():
    docs = DOCS.read_text(encoding="utf-8")
    assert (RESULTS / "throughput.md").read_text(encoding="utf-8") in docs


def test_the_readme_quotes_the_latest_unseen_text_figures():
    report = json.loads((RESULTS / "throughput.json").read_text(encoding="utf-8"))
    viki = report["texts"]["vikipedi_test"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    speed = re.search(r"^Speed: .*?(?=\n\n)", readme, re.MULTILINE | re.DOTALL)
    assert speed is not None
    for backend in ("default", "ngram"):
        assert f"{viki[backend] / viki[TABLE]:.2f}×" in speed.group()
    assert f"{report['start_s']['default']:.2f} s" in speed.group()
