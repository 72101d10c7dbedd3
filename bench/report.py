"""The one Markdown table writer of the bench reports."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]], caption: str = "", note: str = "") -> str:
    """A caption line, a table (first column left-aligned, the others right) and a note."""
    lines = [caption, ""] if caption else []
    lines += ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"
