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
from nokta_model.prose import Masker, blank, turkish_line
from nokta_model.restorer import Restorer
from nokta_model.spans import word_spans

from .checker import CheckOptions, Finding, SuggestionCache, line_findings, suggestions_for
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


def changed_region(old: Sequence[str], new: Sequence[str]) -> tuple[int, int, int]:
    """(start, old end, new end): ``old[start:old end]`` became ``new[start:new end]``.

    Compares with C-level iterators (unchanged lines are even the same objects).
    """
    shortest = min(len(old), len(new))
    start = next(itertools.compress(itertools.count(), map(operator.ne, old, new)), shortest)
    same_end = next(itertools.compress(itertools.count(), map(operator.ne, reversed(old), reversed(new))), shortest)
    same_end = min(same_end, shortest - start)
    return start, len(old) - same_end, len(new) - same_end


class DocumentAnalysis:
    def __init__(self) -> None:
        self.lines: tuple[str, ...] = ()
        self.rows: list[Row] = []
        self.findings: list[tuple[Finding, ...]] = []  # per row
        self.json: list[str] = []  # per row: its findings as comma-separated LSP diagnostics
        self.context: Context | None = None
        self.first: bool | None = None
        self.result_id = "0"

    def update(self, lines: tuple[str, ...], context: Context) -> None:
        """Bring the findings up to date with ``lines``."""
        fresh = context != self.context  # settings, model or the words nokta wrote changed
        if fresh:
            self.lines, self.rows, self.findings, self.json = (), [], [], []
            self.context, self.first = context, None
        start, old_end, new_end = changed_region(self.lines, lines)
        delta = new_end - old_end
        derived, stop = self._derive(lines, start, new_end, delta)
        changed = any(self.findings[start : stop - delta])
        self.rows[start : stop - delta] = derived
        self.findings[start : stop - delta] = [()] * len(derived)
        self.json[start : stop - delta] = [""] * len(derived)
        self.lines = lines
        redo = list(range(start, stop))
        undecided, first = self._first_decision()
        if first != self.first:
            self.first = first
            redo = sorted(set(redo) | set(range(undecided)))
        changed = self._find(redo) or changed
        if delta:
            changed = self._renumber(stop) or changed
        if changed or fresh or self.result_id == "0":
            self.result_id = str(next(_generations))

    def _derive(self, lines: Sequence[str], start: int, new_end: int, delta: int) -> tuple[list[Row], int]:
        """Rows from ``start`` until one starts as its old row did (past the changed lines)."""
        assert self.context is not None
        state = self.rows[start - 1].state_out if start else (self.context.masker.start, None)
        derived: list[Row] = []
        row = start
        while row < len(lines):
            if row >= new_end and self.rows[row - delta].state_in == state:
                break
            derived.append(derive_row(lines[row], state, self.context))
            state = derived[-1].state_out
            row += 1
        return derived, row

    def _first_decision(self) -> tuple[int, bool | None]:
        """(number of leading undecided rows, the document's first decision)."""
        for index, row in enumerate(self.rows):
            if row.state_out[1] is not None:
                return index, row.first
        return len(self.rows), None

    def _seen_text(self, index: int) -> str:
        row = self.rows[index]
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
            if found != self.findings[index] or (found and not self.json[index]):
                self.findings[index], self.json[index] = found, self._json(found, index)
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
