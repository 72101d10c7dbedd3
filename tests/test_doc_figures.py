"""The figures in README.md and docs/ are the latest bench results, each quoted once.

Every speed, accuracy, latency or memory figure stands inside a table `python -m bench.figures`
generates from bench/results/*.json; anywhere else on these pages it is an error (history
belongs in bench/results/*.md, the CHANGELOG and git).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from bench import figures
from bench.report import block, with_block

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FIGURE_RES = {
    "an accuracy": re.compile(r"\b0\.\d{4,}"),
    "a percentage with decimals": re.compile(r"\b\d+\.\d+ ?%"),
    "a speed": re.compile(r"\d[\d,.]*\s*[kM]?\s*(?:chars|characters|words|lines)\s*(?:/\s*s\b|per second)"),
    "a time ratio": re.compile(r"\b\d+\.\d+ ?[×x](?!\w)"),
    "a timing": re.compile(r"\b\d+\.\d+ ?m?s\b"),
    "a memory figure": re.compile(r"\bRSS,? (?:\w+ ){0,3}\d+(?:\.\d+)? ?Mi?B|\b\d+(?:\.\d+)? ?MiB"),
}
CODE_RE = re.compile(r"```.*?```|`[^`\n]*`|<!--.*?-->", re.DOTALL)


def prose(page: Path) -> str:
    """The page without its generated tables, code and comments."""
    text = page.read_text(encoding="utf-8")
    for each in figures.BLOCKS:
        if each.page == page:
            text = with_block(text, each.begin, each.end, "")
    return CODE_RE.sub("", text)


@pytest.mark.parametrize("each", figures.BLOCKS, ids=lambda b: f"{b.page.name}:{b.begin}")
def test_each_generated_table_is_what_bench_figures_writes_from_the_latest_results(each: figures.Block):
    assert each.current() is not None, f"{each.page.name}: the markers {each.begin} / {each.end} are missing"
    assert each.current() == each.make(), f"{each.page.name} is out of date: run python -m bench.figures"


@pytest.mark.parametrize("each", figures.BLOCKS, ids=lambda b: f"{b.page.name}:{b.begin}")
def test_each_generated_table_names_its_date_and_machine(each: figures.Block):
    table = each.make()
    assert re.search(r"\d{4}-\d{2}-\d{2}", table) and "Python" in table


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_figure_stands_outside_the_generated_tables(page: Path):
    found = [
        f"{page.name}: {kind} outside a generated table: …{match.group()}…"
        for kind, figure_re in FIGURE_RES.items()
        for match in figure_re.finditer(prose(page))
    ]
    assert not found, "\n".join(found)


def test_the_check_finds_a_figure_in_prose(tmp_path: Path):
    page = tmp_path / "page.md"
    page.write_text("Restores 107,390 chars/s at 0.9866 word accuracy, 2.50× the table.\n`0.9995` in code.\n")
    kinds = {kind for kind, figure_re in FIGURE_RES.items() if figure_re.search(prose(page))}
    assert kinds == {"a speed", "an accuracy", "a time ratio"}


def test_a_table_goes_between_its_markers_and_replaces_the_old_one():
    begin, end = figures.markers("speed")
    page = f"# Benchmarks\n\n{begin}\nold table\n{end}\n\nafter\n"
    new = with_block(page, begin, end, "new table\n")
    assert new == f"# Benchmarks\n\n{begin}\nnew table\n{end}\n\nafter\n"
    assert block(new, begin, end) == "new table\n"
    with pytest.raises(SystemExit, match="markers"):
        with_block("# Benchmarks\n", begin, end, "new table\n")


def test_a_bench_that_has_not_run_leaves_its_rows_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    shutil.copy(figures.RESULTS / "throughput.json", tmp_path)
    monkeypatch.setattr(figures, "RESULTS", tmp_path)
    table = figures.readme_table()
    speed = json.loads((tmp_path / "throughput.json").read_text(encoding="utf-8"))
    assert "accuracy" not in table.split("\n\n")[1]
    assert f"{speed['start_s']['default']:.2f} s" in table
    assert figures.server_table().count("\n|") == 2  # header and rule only
