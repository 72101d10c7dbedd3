"""Own-edit tracking: the words of an edit that are spellings nokta offered for the
document (a fix or a command the client applied) are nokta's, so their Turkish letters
never count as the writer's evidence."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from nokta_model.spans import word_spans

from ...analysis.documents import Codec, Document


def applied_spellings(document: Document, changes: list[tuple[Any, str]], offered: Set[str], codec: Codec) -> set[str]:
    """The offered spellings that single-line ``changes`` (not yet applied) complete."""
    applied: set[str] = set()
    edited: dict[int, str] = {}  # line -> its text after the changes so far
    for change_range, text in changes:
        if change_range is None or change_range.start.line != change_range.end.line or "\n" in text:
            continue
        row = change_range.start.line
        (_, start), (_, end) = document.clamp_range(change_range, codec)
        line = edited.get(row, document.lines[row] if row < len(document.lines) else "")
        edited[row] = line = line[:start] + text + line[end:]
        # an editor may send the whole word (VS Code) or only the letters that differ (Neovim)
        applied.update(
            word
            for span in word_spans(line)
            if span.start <= start + len(text) and start <= span.end
            for word in (line[span.start : span.end],)
            if word in offered
        )
    return applied


def note_own_edits(document: Document, changes: list[tuple[Any, str]], offered: Set[str], codec: Codec) -> None:
    """Add the spellings nokta offered that ``changes`` write to ``document.written``."""
    applied = applied_spellings(document, changes, offered, codec)
    if applied - document.written:
        document.written = document.written | applied
