"""Incremental analysis of one document: an edit re-derives only the lines it changed.

Each row keeps what was derived from its line: the state the line leaves for the next
(prose masker state, language so far), the text the restorer sees, the findings, and
their diagnostics as JSON text. An update compares the new lines with the old ones,
re-derives the changed rows and the rows after them until a row starts from the same
state as before, asks the restorer once for the texts not in the suggestion cache, and
renumbers the findings of rows that moved. Runs in the analysis worker only.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from nokta_model.alphabet import asciify
from nokta_model.check.findings import CheckOptions, Finding, SuggestionCache, line_findings, suggestions_for
from nokta_model.prose import Masker, blank, turkish_line
from nokta_model.restorer import Restorer
from nokta_model.spans import word_spans

from .diagnostics import diagnostics_json_text
from .documents import Codec

#: (masker state, language so far: True Turkish, False not, None no evidence yet).
State = tuple[Hashable, "bool | None"]
_generations = itertools.count(1)


@dataclass(frozen=True)
class Context:
    """Everything findings depend on besides the lines; a new context starts afresh."""

    masker: Masker
    options: CheckOptions
    severity: str
    codec: Codec
    restorer: Restorer
    cache: SuggestionCache
    written: frozenset[str] = frozenset()  # words nokta wrote: the restorer sees them as typed before


@dataclass(frozen=True)
class Row:
    state_in: State
    state_out: State
    text: str  # what the restorer sees: prose of Turkish (or still undecided) sentences
    first: bool | None  # the document's first language decision, when made on this line


def derive_row(line: str, state: State, context: Context) -> Row:
    masker_state, turkish = state
    if len(line) > context.options.max_line_length:
        line = blank(line)
    masked, masker_after = context.masker.mask_line(masker_state, writer_view(line, context.written))
    text, turkish_after, first = turkish_line(masked, turkish)
    return Row(state, (masker_after, turkish_after), text, first)


def writer_view(line: str, written: frozenset[str]) -> str:
    """``line`` as the writer typed it: words nokta wrote folded back to ASCII (same length),
    so a fix never turns on the model's and the checker's evidence from the writer."""
    if not written or line.isascii():
        return line
    view = line
    for span in word_spans(line):
        word = line[span.start : span.end]
        if word in written:
            view = view[: span.start] + asciify(word) + view[span.end :]
    return view


def derivation_key(context: Context) -> tuple[Hashable, ...]:
    """What rows depend on besides their lines (not the model, thresholds or severity)."""
    return (context.masker, context.written, context.options.max_line_length)


def changed_region(old: Sequence[str], new: Sequence[str]) -> tuple[int, int, int]:
    """(start, old end, new end): ``old[start:old end]`` became ``new[start:new end]``.

    Compares with C-level iterators (unchanged lines are even the same objects).
    """
    shortest = min(len(old), len(new))
    start = next(itertools.compress(itertools.count(), map(operator.ne, old, new)), shortest)
    same_end = next(itertools.compress(itertools.count(), map(operator.ne, reversed(old), reversed(new))), shortest)
    same_end = min(same_end, shortest - start)
    return start, len(old) - same_end, len(new) - same_end


#: Rows found first after an edit or a new context (so the top of a document opened is
#: published first); the rest follow from the top.
URGENT_ROWS = 1_000
#: Rows of an edit found before any other, with the rows after them derived again (in
#: small batches: see ``analysis``); the rest of a larger edit is urgent.
EDIT_ROWS = 32


class DocumentAnalysis:
    """A document's rows, derived and found lazily.

    ``prepare`` takes new lines (cheap: re-derives the rows an edit changed and marks
    them stale), ``find_next`` finds a batch of stale rows: the latest edits' first,
    then the top of the document after a new context, then from the top, deriving rows
    not derived yet on the way. A stale row shows its last findings until it is found
    again (after a context change, the old context's).
    """

    def __init__(self) -> None:
        self.lines: tuple[str, ...] = ()
        self.rows: list[Row | None] = []  # None: not derived yet (every row from ``derived`` on)
        self.findings: list[tuple[Finding, ...]] = []  # per row
        self.json: list[str] = []  # per row: its findings as comma-separated LSP diagnostics
        self.stale: list[bool] = []  # per row: not found for its text and the context yet
        self.edited: list[int] = []  # stale rows of the edits, to find first; the first last (a stack)
        self.urgent: list[int] = []  # stale rows to find next (the top after a new context), a stack too
        self.derived = 0
        self.scan = 0  # no stale row above this one
        self.context: Context | None = None
        self.first: bool | None = None
        self.result_id = "0"

    @property
    def complete(self) -> bool:
        return self._advance() == len(self.stale)

    def urgent_left(self) -> bool:
        """Whether edited or urgent rows are still to be found."""
        return bool(self._drop_found(self.edited) or self._drop_found(self.urgent))

    def first_rows_left(self) -> int:
        """At most how many rows are still to be found before the edited and urgent ones are."""
        return len(self._drop_found(self.edited)) + len(self._drop_found(self.urgent))

    def edited_left(self) -> int:
        """How many rows of the edits are still to be found."""
        return sum(1 for row in self.edited if row < len(self.stale) and self.stale[row])

    def _drop_found(self, stack: list[int]) -> list[int]:
        """``stack`` without the rows found on its top."""
        while stack and not (stack[-1] < len(self.stale) and self.stale[stack[-1]]):
            stack.pop()
        return stack

    def update(self, lines: tuple[str, ...], context: Context) -> None:
        """Bring every finding up to date with ``lines``."""
        self.prepare(lines, context)
        while self.find_next(max(len(lines), 1)):
            pass

    def prepare(self, lines: tuple[str, ...], context: Context) -> None:
        """Take new lines and context; what they change is found by ``find_next``."""
        if self.context is not None and context == replace(self.context, written=context.written):
            if context.written != self.context.written:
                self._rewritten(context)
        elif context != self.context:  # settings or model changed
            self._restart(context)
        start, old_end, new_end = changed_region(self.lines, lines)
        delta, width = new_end - old_end, new_end - start
        changed, edits = range(start, min(new_end, start + URGENT_ROWS)), EDIT_ROWS if self.lines else 0
        if any(self.findings[start:old_end]):
            self._bump()
        self.rows[start:old_end] = [None] * width
        self.findings[start:old_end] = [()] * width
        self.json[start:old_end] = [""] * width
        self.stale[start:old_end] = [True] * width
        self.lines = lines
        self.scan = min(self.scan, start)
        self.urgent = _shifted(self.urgent, start, old_end, delta)
        self.edited = _shifted(self.edited, start, old_end, delta)
        self.urgent += reversed(changed[edits:])  # a document opened is no edit
        self.edited += reversed(changed[:edits])
        if start < self.derived and old_end <= self.derived:
            self.derived += delta
            self._rederive(start, new_end)
        else:
            self.derived = min(self.derived, start)
        if delta and self._renumber(new_end):
            self._bump()
        self._check_first()

    def upcoming_texts(self, limit: int) -> list[str]:
        """What the restorer will see for the next ``limit`` rows ``find_next`` takes."""
        rows = self._upcoming(limit)
        if rows:
            self._derive_until(rows[-1])
        return [self._seen_text(row) for row in rows]

    def find_next(self, limit: int) -> bool:
        """Find up to ``limit`` stale rows; True while stale rows remain."""
        batch = self._take(limit)
        if batch:
            self._derive_until(batch[-1])
            if self._find(batch):
                self._bump()
        return not self.complete

    def _rewritten(self, context: Context) -> None:
        """The words nokta wrote changed: derive again the rows that have one (the writer's view)."""
        assert self.context is not None
        words, self.context = context.written ^ self.context.written, context
        for row in range(self.derived):
            line = self.lines[row]
            if not line.isascii() and any(word in line for word in words):
                self.stale[row] = True
                self.edited.append(row)
                self.scan = min(self.scan, row)
                self._rederive(row, row + 1)

    def _restart(self, context: Context) -> None:
        old, self.context, self.first = self.context, context, None
        if old is None or derivation_key(old) != derivation_key(context):
            self.rows, self.derived = [None] * len(self.lines), 0
        self.stale, self.scan = [True] * len(self.lines), 0
        self.urgent = list(reversed(range(min(len(self.lines), URGENT_ROWS))))
        if old is None:
            self._bump()  # a new result id for a document's first analysis; later ones change with the findings

    def _bump(self) -> None:
        self.result_id = str(next(_generations))

    def _state_before(self, row: int) -> State:
        assert self.context is not None
        previous = self.rows[row - 1] if row else None
        return previous.state_out if previous is not None else (self.context.masker.start, None)

    def _rederive(self, start: int, new_end: int) -> None:
        """Derive the changed rows and the rows after them until one starts as it did."""
        assert self.context is not None
        state, row, redone = self._state_before(start), start, []
        while row < self.derived:
            old = self.rows[row]
            if row >= new_end and old is not None and old.state_in == state:
                break
            self.rows[row] = derived = derive_row(self.lines[row], state, self.context)
            state = derived.state_out
            if row >= new_end:
                self.stale[row] = True
                redone.append(row)
            row += 1
        self.edited.extend(reversed(redone))

    def _derive_until(self, last: int) -> None:
        """Derive every row up to ``last``."""
        assert self.context is not None
        if last < self.derived:
            return
        state = self._state_before(self.derived)
        for row in range(self.derived, last + 1):
            self.rows[row] = derived = derive_row(self.lines[row], state, self.context)
            state = derived.state_out
        self.derived = last + 1
        self._check_first()

    def _take(self, limit: int) -> list[int]:
        """The next ``limit`` stale rows (``_upcoming``), taken off the stacks."""
        batch = self._upcoming(limit)
        taken = set(batch)
        for stack in (self.edited, self.urgent):
            while self._drop_found(stack) and stack[-1] in taken:
                stack.pop()
        return batch

    def _upcoming(self, limit: int) -> list[int]:
        """Up to ``limit`` stale rows, the edited ones first, then the urgent ones, then
        from the top; sorted."""
        batch: dict[int, None] = {}
        start = self._advance()
        from_top = itertools.compress(itertools.count(start), itertools.islice(self.stale, start, None))
        for row in itertools.chain(reversed(self.edited), reversed(self.urgent), from_top):
            if len(batch) >= limit:
                break
            if row < len(self.stale) and self.stale[row]:
                batch[row] = None
        return sorted(batch)

    def _advance(self) -> int:
        """Move ``scan`` to the first stale row (or the end); returns it."""
        stale_rows = itertools.compress(itertools.count(self.scan), itertools.islice(self.stale, self.scan, None))
        self.scan = next(stale_rows, len(self.stale))
        return self.scan

    def _check_first(self) -> None:
        """When the document's first language decision changed, find its undecided rows again."""
        undecided, first = self._first_decision()
        if first != self.first:
            self.first = first
            self.stale[:undecided] = [True] * undecided
            self.urgent.extend(reversed(range(undecided)))
            self.scan = 0

    def _first_decision(self) -> tuple[int, bool | None]:
        """(number of leading undecided rows, the document's first decision; None while unknown)."""
        for index, row in enumerate(self.rows):
            if row is None:
                return index, None
            if row.state_out[1] is not None:
                return index, row.first
        return len(self.rows), None

    def _seen_text(self, index: int) -> str:
        row = self.rows[index]
        assert row is not None
        return blank(row.text) if row.state_out[1] is None and self.first is False else row.text

    def _find(self, indexes: list[int]) -> bool:
        """Findings of these rows, the restorer asked once; True when any changed."""
        context = self.context
        assert context is not None
        texts = [self._seen_text(i) for i in indexes]
        changed = False
        for index, text, suggestions in zip(indexes, texts, suggestions_for(texts, context.restorer, context.cache)):
            line = self.lines[index]
            found = tuple(
                f
                for f in line_findings(index, text, suggestions, context.options)
                if line[f.start : f.end] != f.replacement  # a word nokta already wrote
            )
            self.stale[index] = False
            found_json = self._json(found, index)
            if found != self.findings[index] or found_json != self.json[index]:
                self.findings[index], self.json[index] = found, found_json
                changed = True
        return changed

    def _renumber(self, start: int) -> bool:
        """Give the findings of rows that moved their new line number."""
        moved = False
        for index in itertools.compress(range(start, len(self.rows)), self.findings[start:]):
            if self.findings[index][0].line != index:
                self.findings[index] = tuple(replace(f, line=index) for f in self.findings[index])
                self.json[index] = self._json(self.findings[index], index)
                moved = True
        return moved

    def _json(self, findings: tuple[Finding, ...], index: int) -> str:
        assert self.context is not None
        return (
            diagnostics_json_text(findings, self.lines[index], self.context.codec, self.context.severity)
            if findings
            else ""
        )

    def diagnostics_json(self) -> str:
        """Every diagnostic of the document, comma-separated, in document order."""
        return ",".join(filter(None, self.json))

    def line_findings(self) -> list[tuple[Finding, ...]]:
        return list(self.findings)


def _shifted(stack: list[int], start: int, old_end: int, delta: int) -> list[int]:
    """A stack of rows after ``[start, old_end)`` became ``delta`` rows longer: the rows
    replaced left out, the rows below renumbered."""
    return [row + delta if row >= old_end else row for row in stack if not start <= row < old_end]
