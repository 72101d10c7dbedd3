"""The client's view of a document, written independently of the server's ``documents``.

Positions are in UTF-16, UTF-8 or UTF-32 units; out-of-range positions are clamped the way the
server promises (a line past the end: the end of the document; a column past the end
of its line: the line's end; inside a character: rounded down).
"""

from __future__ import annotations

import re
from typing import Any

_LINE_RE = re.compile(r"[^\r\n]*(\r\n|\r|\n|$)")
_PAIRS = {(a, b) for a, b in zip("cgiosuCGIOSU", "çğıöşüÇĞİÖŞÜ", strict=True)}


def lines_of(text: str) -> list[tuple[int, str]]:
    """(offset, content without terminator) of every line."""
    found: list[tuple[int, str]] = []
    for match in _LINE_RE.finditer(text):
        found.append((match.start(), match.group()[: len(match.group()) - len(match.group(1))]))
        if not match.group(1):
            break
    return found


def units(text: str, encoding: str) -> int:
    if encoding == "utf-32":
        return len(text)
    codec = "utf-16-le" if encoding == "utf-16" else "utf-8"
    return len(text.encode(codec, "surrogatepass")) // (2 if encoding == "utf-16" else 1)


def column(line: str, count: int, encoding: str) -> int | None:
    """Code-point column at ``count`` units, or None when it falls inside a character."""
    total = 0
    for index, char in enumerate(line):
        if total == count:
            return index
        total += units(char, encoding)
        if total > count:
            return None
    return len(line) if total == count else None


def offset(text: str, position: dict[str, int], encoding: str) -> int:
    """Offset of a client position, clamped as the server clamps it."""
    rows = lines_of(text)
    if position["line"] >= len(rows):
        return len(text)
    start, line = rows[position["line"]]
    count = min(position["character"], units(line, encoding))
    while (col := column(line, count, encoding)) is None:
        count -= 1  # inside a character: round down
    return start + col


def apply_change(text: str, change: dict[str, Any], encoding: str) -> str:
    if "range" not in change:
        return change["text"]
    start, end = sorted(
        (offset(text, change["range"]["start"], encoding), offset(text, change["range"]["end"], encoding))
    )
    return text[:start] + change["text"] + text[end:]


def exact_range(text: str, range_: dict[str, Any], encoding: str) -> tuple[int, int] | None:
    """Offsets of a range that lies exactly inside ``text`` (None if any end does not)."""
    rows = lines_of(text)
    ends = []
    for position in (range_["start"], range_["end"]):
        if position["line"] >= len(rows):
            return None
        start, line = rows[position["line"]]
        col = column(line, position["character"], encoding)
        if col is None:
            return None
        ends.append(start + col)
    return (ends[0], ends[1]) if ends[0] <= ends[1] else None


def apply_edits(text: str, edits: list[dict[str, Any]], encoding: str) -> str:
    spans = [(exact_range(text, edit["range"], encoding), edit["newText"]) for edit in edits]
    assert all(span is not None for span, _ in spans), "an edit range outside the document"
    for (start, end), new in sorted(spans, reverse=True):  # type: ignore[misc]
        text = text[:start] + new + text[end:]
    return text


def only_flagged_letters_changed(before: str, after: str, flagged: list[tuple[int, int]]) -> bool:
    """Same length; every change a Turkish pair of an ASCII letter inside a flagged range."""
    if len(before) != len(after):
        return False
    for index, (old, new) in enumerate(zip(before, after, strict=True)):
        if old != new and ((old, new) not in _PAIRS or not any(s <= index < e for s, e in flagged)):
            return False
    return True
