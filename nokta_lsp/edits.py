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
from dataclasses import dataclass
from functools import lru_cache

from nokta_model.alphabet import asciify

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
