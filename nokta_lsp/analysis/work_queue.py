"""The order in which a document's stale lines are found (``incremental.DocumentAnalysis``).

Three sources, in this order: the lines of the edits (the latest edit's first), the
urgent lines (the top of a document opened or checked in a new context), then every other
stale line from the top. The first two are stacks of row numbers, popped from their end;
a row on them may have been found since (the lines say which are stale), and an edit
renumbers them (``splice``).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator, Sequence
from typing import Protocol


class Line(Protocol):
    stale: bool


_STALE = operator.attrgetter("stale")


class WorkQueue:
    def __init__(self) -> None:
        self.edited: list[int] = []  # the edits' rows, the latest edit's on top
        self.urgent: list[int] = []
        self.scan = 0  # no stale line above this row

    def add_edited(self, rows: Sequence[int]) -> None:
        """Rows of an edit: found before every row queued so far, in the order given."""
        self.edited.extend(reversed(rows))

    def add_urgent(self, rows: Sequence[int]) -> None:
        """Rows found before the other urgent rows, after the edits', in the order given."""
        self.urgent.extend(reversed(rows))

    def reset_urgent(self, rows: Sequence[int]) -> None:
        """Start the urgent rows afresh (a new context: every line is stale)."""
        self.urgent = list(reversed(rows))
        self.scan = 0

    def note_stale(self, row: int) -> None:
        """A line became stale: the scan from the top starts at it at the latest."""
        self.scan = min(self.scan, row)

    def splice(self, start: int, old_end: int, delta: int) -> None:
        """Rows ``[start, old_end)`` were replaced and the document grew by ``delta`` rows:
        the rows replaced leave the stacks, the rows below are renumbered."""
        self.edited = _shifted(self.edited, start, old_end, delta)
        self.urgent = _shifted(self.urgent, start, old_end, delta)
        self.note_stale(start)

    def edited_left(self, lines: Sequence[Line]) -> int:
        """How many rows of the edits are still stale."""
        return sum(1 for row in self.edited if _is_stale(lines, row))

    def priority_left(self, lines: Sequence[Line]) -> int:
        """At most how many rows of the edits and urgent ones are still stale (0: none)."""
        return len(self._drop_found(self.edited, lines)) + len(self._drop_found(self.urgent, lines))

    def upcoming(self, limit: int, lines: Sequence[Line]) -> list[int]:
        """The next ``limit`` stale rows (edited, urgent, then from the top), sorted."""
        batch: dict[int, None] = {}
        for row in itertools.chain(reversed(self.edited), reversed(self.urgent)):
            if len(batch) >= limit:
                break
            if _is_stale(lines, row):
                batch[row] = None
        if len(batch) < limit:  # the rest from the top, looked for only now
            for row in self._from_top(lines):
                if len(batch) >= limit:
                    break
                batch[row] = None
        return sorted(batch)

    def take(self, limit: int, lines: Sequence[Line]) -> list[int]:
        """``upcoming(limit)``, taken off the stacks."""
        batch = self.upcoming(limit, lines)
        taken = set(batch)
        for stack in (self.edited, self.urgent):
            while self._drop_found(stack, lines) and stack[-1] in taken:
                stack.pop()
        return batch

    def first_stale(self, lines: Sequence[Line]) -> int:
        """The first stale row (``len(lines)``: none); the scan moves to it."""
        self.scan = next(_stale_from(self.scan, lines), len(lines))
        return self.scan

    def _from_top(self, lines: Sequence[Line]) -> Iterator[int]:
        return _stale_from(self.first_stale(lines), lines)

    @staticmethod
    def _drop_found(stack: list[int], lines: Sequence[Line]) -> list[int]:
        """``stack`` without the rows found on its top."""
        while stack and not _is_stale(lines, stack[-1]):
            stack.pop()
        return stack


def _stale_from(start: int, lines: Sequence[Line]) -> Iterator[int]:
    """The stale rows from ``start`` down."""
    return itertools.compress(itertools.count(start), map(_STALE, itertools.islice(lines, start, None)))


def _is_stale(lines: Sequence[Line], row: int) -> bool:
    return row < len(lines) and lines[row].stale


def _shifted(stack: list[int], start: int, old_end: int, delta: int) -> list[int]:
    return [row + delta if row >= old_end else row for row in stack if not start <= row < old_end]
