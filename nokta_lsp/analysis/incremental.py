"""Incremental analysis of one document: an edit re-derives only the lines it changed.

A document is its lines and a list of ``LineRecord``s, one per line: what was derived
from it (``Row``: the state it leaves for the next line, the text the restorer sees), its
findings and whether they are stale. ``prepare`` takes a new version: it compares the
new lines with the old, replaces the records of the lines that changed, derives
them and the lines after them until one starts from the same state as before, and
queues the stale lines (``work_queue``). ``find_next`` finds a batch of queued lines,
asking the restorer once for the texts not in the suggestion cache. A line's findings
are its suggestions packed (``packed``: the tuple the model's cache holds) and which of
them are findings, so a document with a finding on nearly every word holds each word's
spellings once. What changed in the findings is handed on as ``FindingsChanges``
(``take_changes``), so the published diagnostics (``diagnostics.PublishedDiagnostics``)
follow at the cost of the change, not of the document. Runs in the analysis worker only; no protocol types here.

Directives (``nokta_model.prose.directives``) are part of the masker and its state: a
disabled line's row has no text. The words ``nokta: ignore`` names hold for the whole
document (``ignore_directives``): each record keeps what was found (``found``) and shows
the rest, so a directive added or removed costs a pass over the lines with findings, not
over the document. A directive below the lines derived so far counts once it is derived.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace

from nokta_model.alphabet import asciify
from nokta_model.check.findings import (
    CheckOptions,
    SuggestionCache,
    line_findings,
    suggestions_for,
    within_length,
)
from nokta_model.prose import Masker
from nokta_model.restorer import Restorer
from nokta_model.spans import word_spans

from .documents import Codec
from .ignore_directives import IgnoreDirectives
from .packed import Found, LineFindings, PackedSuggestionCache
from .work_queue import WorkQueue


@dataclass(frozen=True)
class Context:
    """Everything findings depend on besides the lines; a new context starts afresh."""

    masker: Masker
    options: CheckOptions
    severity: str  # with the codec, what the diagnostics are published with (``diagnostics``)
    codec: Codec
    restorer: Restorer
    cache: SuggestionCache
    written: frozenset[str] = frozenset()  # words nokta wrote: the restorer sees them as typed before


@dataclass(frozen=True)
class Row:
    state_in: Hashable  # the masker's state at the start of the line
    state_out: Hashable  # and at its end
    text: str  # what the restorer sees: the line with all that is no prose masked
    turkish_words: int = 0  # words of ``text`` the writer typed with a Turkish letter


_TURKISH_WORD = re.compile(r"\b\w*[çğıöşüÇĞİÖŞÜ]\w*")


def turkish_words(text: str) -> int:
    """How many words of ``text`` have a letter of the Turkish alphabet that ASCII lacks."""
    return 0 if text.isascii() else len(_TURKISH_WORD.findall(text))


def derive_row(line: str, state: Hashable, context: Context) -> Row:
    """``line`` derived from the masker ``state`` the line above left."""
    line = within_length(line, context.options.max_line_length)
    masked, state_out = context.masker.mask_line(state, writer_view(line, context.written))
    return Row(state, state_out, masked, turkish_words(masked))


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


@dataclass(slots=True)
class LineRecord:
    """What was derived and found from one line of the document."""

    row: Row | None = None  # None: not derived yet (every line from ``DocumentAnalysis.derived`` on)
    findings: Found = ()  # shown: ``found`` but the document's ignored words
    stale: bool = True  # not found for its line and the current context yet: shows its last findings
    found: Found = ()  # numbered with the line's current row


_FOUND = operator.attrgetter("found")


@dataclass(frozen=True)
class FindingsChanges:
    """What changed in a document's findings since the changes were last taken."""

    #: (start, old end, new end), in order: lines ``[start, old end)`` became lines
    #: ``[start, new end)``, with no findings until found.
    splices: tuple[tuple[int, int, int], ...]
    rows: dict[int, Found]  # after the splices: the rows whose findings changed, their findings


class DocumentAnalysis:
    """A document's lines, derived and found lazily: ``prepare`` takes a new version (cheap),
    ``find_next`` finds a batch of stale lines in the queue's order."""

    def __init__(self) -> None:
        self.lines: tuple[str, ...] = ()  # the version prepared
        self.records: list[LineRecord] = []  # one per line
        self.queue = WorkQueue()
        self.derived = 0  # records[:derived] are derived, the rest not yet
        self.stale_lines = 0  # how many records are stale
        self._splices: list[tuple[int, int, int]] = []  # since the changes were last taken
        self._changed_rows: set[int] = set()  # rows whose findings changed since (current row numbers)
        self.context: Context | None = None
        self.ignores = IgnoreDirectives()  # of the derived rows
        #: Words the writer typed with a Turkish letter in the derived rows (``Row.turkish_words``).
        self.turkish_words = 0

    # --- what the worker asks -------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return not self.stale_lines

    @property
    def found_share(self) -> float:
        return 1 - self.stale_lines / max(len(self.records), 1)

    def edited_left(self) -> int:
        """How many lines of the edits are still to be found."""
        return self.queue.edited_left(self.records)

    def priority_left(self) -> int:
        """At most how many lines of the edits and urgent ones are still to be found (0: none)."""
        return self.queue.priority_left(self.records)

    def take_changes(self) -> FindingsChanges:
        """What changed in the findings since the last call (since the start, the first time)."""
        rows = {row: self.records[row].findings for row in self._changed_rows}
        changes = FindingsChanges(tuple(self._splices), rows)
        self._splices, self._changed_rows = [], set()
        return changes

    def prepare(self, lines: tuple[str, ...], context: Context) -> None:
        """Take new lines and context; what they change is found by ``find_next``."""
        self._take_context(context)
        start, old_end, new_end = changed_region(self.lines, lines)
        delta, edit_rows = new_end - old_end, EDIT_ROWS if self.lines else 0  # a document opened is no edit
        self._replace(start, old_end, lines, new_end)
        changed = range(start, min(new_end, start + URGENT_ROWS))
        self.queue.add_urgent(changed[edit_rows:])
        self.queue.add_edited(changed[:edit_rows])
        if start < self.derived and old_end <= self.derived:
            self.derived += delta
            self._rederive(start, new_end)
        else:
            self.derived = min(self.derived, start)
        if delta:
            self._renumber(new_end)

    def upcoming_texts(self, limit: int) -> list[str]:
        """What the restorer will see for the next ``limit`` lines ``find_next`` takes."""
        rows = self.queue.upcoming(limit, self.records)
        if rows:
            self._derive_until(rows[-1])
        return [self._text(row) for row in rows]

    def find_next(self, limit: int) -> bool:
        """Find up to ``limit`` stale lines; True while stale lines remain."""
        batch = self.queue.take(limit, self.records)
        if batch:
            self._derive_until(batch[-1])
            self._find(batch)
        return not self.complete

    # --- staleness --------------------------------------------------------------------------

    def _replace(self, start: int, old_end: int, lines: tuple[str, ...], new_end: int) -> None:
        """Take ``lines``, where ``lines[start:new_end]`` replaced the old ``[start:old_end]``:
        new records for them (stale, not derived)."""
        width = new_end - start
        self.stale_lines += width - sum(record.stale for record in self.records[start:old_end])
        for record in self.records[start:old_end]:
            if record.row is not None:
                self.ignores.remove(record.row.state_out)
                self.turkish_words -= record.row.turkish_words
        self.records[start:old_end] = [LineRecord() for _ in range(width)]
        self.lines = lines
        self.queue.splice(start, old_end, new_end - old_end)
        self._splices.append((start, old_end, new_end))
        delta = new_end - old_end
        self._changed_rows = {
            row + delta if row >= old_end else row for row in self._changed_rows if not start <= row < old_end
        }

    def _mark_stale(self, rows: Iterable[int]) -> None:
        for row in rows:
            record = self.records[row]
            if not record.stale:
                record.stale = True
                self.stale_lines += 1
            self.queue.note_stale(row)

    def _mark_found(self, record: LineRecord) -> None:
        if record.stale:
            record.stale = False
            self.stale_lines -= 1

    # --- context ----------------------------------------------------------------------------

    def _take_context(self, context: Context) -> None:
        if self.context is not None and context == replace(self.context, written=context.written):
            if context.written != self.context.written:
                self._rewritten(context)
        elif context != self.context:  # settings or model changed
            self._restart(context)

    def _rewritten(self, context: Context) -> None:
        """The words nokta wrote changed: derive again the lines that have one (the writer's view)."""
        assert self.context is not None
        words, self.context = context.written ^ self.context.written, context
        for row in range(self.derived):
            line = self.lines[row]
            if not line.isascii() and any(word in line for word in words):
                self._mark_stale([row])
                self.queue.add_edited([row])
                self._rederive(row, row + 1)

    def _restart(self, context: Context) -> None:
        old, self.context = self.context, context
        if old is None or derivation_key(old) != derivation_key(context):
            for record in self.records:
                record.row = None
            self.derived = 0
            self.ignores.clear()
            self.turkish_words = 0
        self._mark_stale(range(len(self.records)))
        self.queue.reset_urgent(range(min(len(self.records), URGENT_ROWS)))

    # --- deriving ---------------------------------------------------------------------------

    def _state_before(self, row: int) -> Hashable:
        assert self.context is not None
        previous = self.records[row - 1].row if row else None
        return previous.state_out if previous is not None else self.context.masker.start

    def _rederive(self, start: int, new_end: int) -> None:
        """Derive the changed lines and the lines after them until one starts as it did."""
        assert self.context is not None
        state, row, redone = self._state_before(start), start, []
        while row < self.derived:
            record = self.records[row]
            if row >= new_end and record.row is not None and record.row.state_in == state:
                break
            state = self._set_row(record, derive_row(self.lines[row], state, self.context)).state_out
            if row >= new_end:
                redone.append(row)
            row += 1
        self._mark_stale(redone)
        self.queue.add_edited(redone)
        self._check_ignores()

    def _derive_until(self, last: int) -> None:
        """Derive every line up to ``last``."""
        assert self.context is not None
        if last < self.derived:
            return
        state = self._state_before(self.derived)
        for row in range(self.derived, last + 1):
            state = self._set_row(self.records[row], derive_row(self.lines[row], state, self.context)).state_out
        self.derived = last + 1
        self._check_ignores()

    def _set_row(self, record: LineRecord, row: Row) -> Row:
        """Give ``record`` its derived ``row`` (its ``nokta: ignore`` counted); returns the row."""
        if record.row is not None:
            self.ignores.remove(record.row.state_out)
            self.turkish_words -= record.row.turkish_words
        self.ignores.add(row.state_out)
        self.turkish_words += row.turkish_words
        record.row = row
        return row

    def _check_ignores(self) -> None:
        """When the document's ignored words changed, show the findings anew."""
        if not self.ignores.settle():
            return
        records = self.records
        for row in itertools.compress(itertools.count(), map(_FOUND, records)):
            shown = self.ignores.shown(records[row].found)
            if shown != records[row].findings:
                records[row].findings = shown
                self._changed_rows.add(row)

    # --- finding ----------------------------------------------------------------------------

    def _text(self, index: int) -> str:
        row = self.records[index].row
        assert row is not None
        return row.text

    def _find(self, rows: list[int]) -> None:
        """Findings of these lines, the restorer asked once."""
        context = self.context
        assert context is not None
        texts = [self._text(row) for row in rows]
        cache = context.cache
        for row, text, suggestions in zip(rows, texts, suggestions_for(texts, context.restorer, cache), strict=True):
            record, line = self.records[row], self.lines[row]
            findings = [
                f
                for f in line_findings(row, text, suggestions, context.options)
                if line[f.start : f.end] != f.replacement  # a word nokta already wrote
            ]
            packed = cache.packed(text) if findings and isinstance(cache, PackedSuggestionCache) else None
            found = LineFindings.of(findings, text, suggestions, packed)
            self._mark_found(record)
            record.found = found
            shown = self.ignores.shown(found)
            if shown != record.findings:
                record.findings = shown
                self._changed_rows.add(row)

    def _renumber(self, start: int) -> None:
        """Give the findings of lines that moved their new row."""
        records = self.records
        for row in itertools.compress(itertools.count(start), map(_FOUND, itertools.islice(records, start, None))):
            record = records[row]
            assert isinstance(record.found, LineFindings)  # compressed: found something
            if record.found.row != row:
                record.found = record.found.renumbered(row)
                record.findings = record.findings and record.findings.renumbered(row)
                self._changed_rows.add(row)
