"""Word changes resolved against the text they will change. No protocol types here.

A fix travels with its diagnostic, and the client sends the diagnostic back as it still
shows it: computed for an older version, its range may be off by the letters an earlier
fix changed (in UTF-8 every ç ğ ı ö ş ü is one byte longer than its ASCII letter) or
by an edit. So an edit is never built from a client's range: the word is found again
in the current line, the whole-word occurrence of the diagnostic's word nearest where
the range points, and only a spelling that puts Turkish letters into that very word
(same length, the same letters once folded to ASCII) is written over it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from nokta_model.alphabet import asciify
from nokta_model.check.findings import Finding

from .incremental import changed_region

#: A letter, digit, underscore or combining mark: what may not touch a whole word.
_WORD_CHAR = r"[\w\u0300-\u036f]"


@dataclass(frozen=True)
class WordChange:
    """Write ``new_text`` over ``line[start:end]`` (code points), which reads ``old_text``."""

    line: int
    start: int
    end: int
    old_text: str
    new_text: str


def restores(original: str, spelling: str) -> bool:
    """Whether ``spelling`` is ``original`` with Turkish letters (or circumflexes) put in."""
    return spelling != original and len(spelling) == len(original) and asciify(spelling) == asciify(original)


@lru_cache(maxsize=256)
def _whole_word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!{_WORD_CHAR}){re.escape(word)}(?!{_WORD_CHAR})")


def occurrences(line: str, word: str) -> list[int]:
    """Start columns of ``word`` as a whole word in ``line``."""
    return [match.start() for match in _whole_word(word).finditer(line)] if word else []


def relocate(
    lines: Sequence[str], row: int, near: int, word: str, flagged: Collection[int] | None = None
) -> int | None:
    """The start column of ``word`` on ``lines[row]``: the whole-word occurrence nearest
    column ``near`` (among ``flagged``, the columns where the current findings have it,
    when known); None when the word is no longer there."""
    if not 0 <= row < len(lines):
        return None
    starts = occurrences(lines[row], word)
    if flagged is not None:
        starts = [start for start in starts if start in flagged]
    return min(starts, key=lambda start: (abs(start - near), start), default=None)


def still_reads(lines: Sequence[str], change: WordChange) -> bool:
    """Whether the current text still has ``change.old_text`` where the change would go."""
    return 0 <= change.line < len(lines) and lines[change.line][change.start : change.end] == change.old_text


def checked(lines: Sequence[str], changes: Sequence[WordChange]) -> list[WordChange]:
    """The changes that still read their word in ``lines`` and only restore its letters."""
    return [c for c in changes if still_reads(lines, c) and restores(c.old_text, c.new_text)]


def carry_findings(
    old_lines: Sequence[str],
    old_findings: Sequence[Sequence[Finding]],
    lines: Sequence[str],
    first: int,
    last: int,
) -> list[Finding]:
    """The findings of ``old_lines`` (an older version) on rows ``first``..``last`` of
    ``lines``, the text now: those of the lines an edit only moved, renumbered; on the
    lines it changed, those of the lines it changed whose word is still there nearby
    (``relocate``), at its column now."""
    start, old_end, new_end = changed_region(old_lines, lines)
    carried: dict[tuple[int, int], Finding] = {}
    for row in range(max(first, 0), min(last, len(lines) - 1) + 1):
        if not start <= row < new_end:
            old_row = row if row < start else row - new_end + old_end
            carried.update(((row, f.start), replace(f, line=row)) for f in _row(old_findings, old_row))
            continue
        for old_row in _rows_edited_into(row, start, old_end, new_end):
            for finding in _row(old_findings, old_row):
                column = relocate(lines, row, finding.start, finding.original)
                if column is not None:
                    carried[row, column] = replace(finding, line=row, start=column, end=column + len(finding.original))
    return list(carried.values())


def _rows_edited_into(row: int, start: int, old_end: int, new_end: int) -> range:
    """The rows of the older version whose text may be on ``row`` now, when its rows
    ``start``..``old_end`` became rows ``start``..``new_end``: a line break typed moves a
    line's end down one row, a line joined moves one up."""
    grown = new_end - old_end
    return range(max(start, row - max(grown, 0)), min(old_end, row + max(-grown, 0) + 1))


def _row(findings: Sequence[Sequence[Finding]], row: int) -> Sequence[Finding]:
    return findings[row] if row < len(findings) else ()  # none for a document not checked
