"""The one writer of the bench reports: Markdown tables, and the .json/.md pair of each result."""

from __future__ import annotations

import datetime
import json
import os
import platform
from collections.abc import Iterable, Sequence
from pathlib import Path


def run_facts() -> dict[str, str]:
    """The date and the machine every report records beside its figures."""
    return {
        "date": datetime.date.today().isoformat(),
        "machine": f"{os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}",
    }


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]], caption: str = "", note: str = "") -> str:
    """A caption line, a table (first column left-aligned, the others right) and a note."""
    lines = [caption, ""] if caption else []
    lines += ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def write_report(out: Path, result: dict, markdown: str) -> None:
    """``out``.json (the figures) and ``out``.md (the table the docs quote)."""
    out.with_suffix(".json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(markdown, encoding="utf-8")


def with_block(page: str, begin: str, end: str, markdown: str) -> str:
    """``page`` with ``markdown`` in place of what stands between the lines ``begin`` and ``end``."""
    before, found, rest = page.partition(begin)
    if not found or end not in rest:
        raise SystemExit(f"the markers {begin} and {end} are missing")
    return before + begin + "\n" + markdown + rest[rest.index(end) :]


def block(page: str, begin: str, end: str) -> str | None:
    """What stands between the lines ``begin`` and ``end`` of ``page`` (None without the markers)."""
    _, found, rest = page.partition(begin + "\n")
    return rest.partition(end)[0] if found and end in rest else None
