"""A document's text: version and lines, with incremental edits and position units.

Lines are kept without their terminators (LSP line breaks are ``\\n``, ``\\r\\n`` and
``\\r`` only), so a line's text is what the checker sees and what its cache is keyed
by. Positions arrive in the client's units (UTF-16 by default, UTF-8 or UTF-32 when
negotiated); ``Codec`` converts them to code points and back, clamping anything out of
range instead of failing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

_BREAK_RE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> tuple[list[str], list[str]]:
    """Line contents and their terminators; the last terminator is always ``""``."""
    lines: list[str] = []
    ends: list[str] = []
    start = 0
    for match in _BREAK_RE.finditer(text):
        lines.append(text[start : match.start()])
        ends.append(match.group())
        start = match.end()
    lines.append(text[start:])
    ends.append("")
    return lines, ends


class Codec:
    """Converts columns between code points and the client's position units."""

    def __init__(self, encoding: str = "utf-16"):
        self.encoding = encoding if encoding in ("utf-8", "utf-16", "utf-32") else "utf-16"

    def to_client(self, line: str, column: int) -> int:
        if self.encoding == "utf-32" or line.isascii():
            return column
        prefix = line[:column]
        if self.encoding == "utf-8":
            return len(prefix.encode("utf-8", "surrogatepass"))
        return len(prefix.encode("utf-16-le", "surrogatepass")) // 2

    def from_client(self, line: str, units: int) -> int:
        """Code-point column of ``units``; clamped to the line, rounded down inside a character."""
        units = max(units, 0)
        if self.encoding == "utf-32" or line.isascii():
            return min(units, len(line))
        if self.encoding == "utf-8":
            data = line.encode("utf-8", "surrogatepass")[:units]
            for cut in range(len(data), max(len(data) - 4, -1), -1):
                try:
                    return len(data[:cut].decode("utf-8", "surrogatepass"))
                except UnicodeDecodeError:
                    continue
            return 0
        data = line.encode("utf-16-le", "surrogatepass")[: 2 * units]
        prefix = data.decode("utf-16-le", "surrogatepass")
        if prefix and line[len(prefix) - 1] != prefix[-1]:  # cut inside a surrogate pair
            return len(prefix) - 1
        return len(prefix)


@dataclass
class Document:
    uri: str
    language_id: str
    version: int
    lines: list[str]
    ends: list[str]
    size: int  # characters, terminators included
    #: Words nokta wrote into the document (fixes and commands the client applied): their
    #: Turkish letters are nokta's, not the writer's, and say nothing of how the writer types.
    written: frozenset[str] = frozenset()
    #: Where the writer's cursor is, when the last change was typing (line, code-point
    #: column): an insertion without a space or line break, or a deletion. None after
    #: opening, a whole-text change, a replacement (an undo, a fix) or several changes at once.
    cursor: tuple[int, int] | None = None
    #: The line of the last change (its start), None after opening or a whole-text change;
    #: and the lines the editor shows, as its last inlay-hint request named them: the
    #: diagnostics published when there are too many are those nearest them (``diagnostics.Focus``).
    edited_line: int | None = None
    visible: tuple[int, int] | None = None

    @classmethod
    def create(cls, uri: str, language_id: str, version: int, text: str) -> Document:
        lines, ends = split_lines(text)
        return cls(uri, language_id, version, lines, ends, len(text))

    def text(self) -> str:
        return "".join(line + end for line, end in zip(self.lines, self.ends, strict=True))

    def clamp(self, line: int, units: int, codec: Codec) -> tuple[int, int]:
        """A client position as (line, code-point column) inside the document."""
        if line < 0:
            return 0, 0
        if line >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        return line, codec.from_client(self.lines[line], units)

    def clamp_range(self, range_: Any, codec: Codec) -> tuple[tuple[int, int], tuple[int, int]]:
        """A client range (anything with ``start``/``end`` positions) as two clamped positions."""
        start, end = range_.start, range_.end
        return self.clamp(start.line, start.character, codec), self.clamp(end.line, end.character, codec)

    def replace_all(self, text: str, version: int) -> None:
        self.lines, self.ends = split_lines(text)
        self.size = len(text)
        self.version = version

    def change(
        self,
        version: int,
        changes: list[tuple[Any, str]],
        codec: Codec,
        seen: Callable[[Sequence[str]], None] | None = None,
    ) -> None:
        """Apply ``(range | None, text)`` changes in order; a None range replaces everything.
        ``seen`` is shown the lines after each change (an editor may send an edit and its
        undo in one notification).

        A range is anything with ``start``/``end`` positions in client units.
        """
        self.cursor = None
        for change_range, text in changes:
            if change_range is None:
                self.replace_all(text, version)
                self.edited_line = None
            else:
                start, end = self.clamp_range(change_range, codec)
                self.apply_edit(start, end, text)
                self.edited_line = min(start, end)[0]
                if len(changes) == 1 and typed(start, end, text):
                    line, column = min(start, end)
                    self.cursor = (line, column + len(text))
            if seen is not None:
                seen(self.lines)
        self.version = version

    def apply_edit(self, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """Replace the code-point range ``start``..``end`` (already clamped) by ``text``."""
        if end < start:
            start, end = end, start
        (first, start_col), (last, end_col) = start, end
        head = self.lines[first][:start_col]
        if first > 0 and self.ends[first - 1] == "\r":  # a "\n" typed here joins the "\r"
            first -= 1
            head = self.lines[first] + "\r" + head
        joined = head + text + self.lines[last][end_col:] + self.ends[last]
        lines, ends = split_lines(joined)
        if ends[-1] == "" and lines[-1] == "" and last < len(self.lines) - 1:
            lines.pop()  # the joined text ended with the old terminator of ``last``
            ends.pop()
        removed = sum(len(self.lines[i]) + len(self.ends[i]) for i in range(first, last + 1))
        self.size += len(joined) - removed
        self.lines[first : last + 1] = lines
        self.ends[first : last + 1] = ends


def typed(start: tuple[int, int], end: tuple[int, int], text: str) -> bool:
    """Whether a change reads as typing in a word: letters inserted (no space or line
    break), or some deleted."""
    return (start == end and not any(char.isspace() for char in text)) or (start != end and not text)
