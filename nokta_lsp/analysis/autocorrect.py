"""Autocorrect as the writer types: the words just finished, restored when the model is sure.

Called when a trigger character (space, newline, sentence punctuation) was typed, with
the document's lines and the position after it. The word just finished and the one or
two before it (the new right context may have made the model sure of them), or every
word of a sentence a full stop ended or of a line a line break ended (each has all its
context now), are checked as the diagnostics check them (the prose masking, the
language guard, the writer's evidence, the dictionaries), against a threshold of their
own (``autocorrectThreshold``); on a line whose words so far are all ASCII after a line
typed with Turkish letters, the strict threshold holds, as on a line typed so. A word
the writer typed with a Turkish letter is never changed, and a correction the writer
undid is not made again for that word in the document (one the editor dropped, as VS Code
does when the writer types on before it arrives, is no undo). An acronym (two to four capitals:
CIA, SIM, AGI) keeps its letters as typed, its suffix aside, but on a finished line
mostly in capitals (a headline): many spell Turkish words too (AĞI), and the diagnostics
still show the few that running text writes with Turkish letters (ODTÜ). A trigger that
came while no model could correct (it was loading) is not lost: the next one covers
every word of the paragraph before the cursor. No protocol types here.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

from nokta_model.check.findings import (
    CheckOptions,
    Finding,
    SuggestionCache,
    is_acronym,
    line_findings,
    mostly_capitals,
    suggestions_for,
    typed_with_turkish_letters,
    within_length,
)
from nokta_model.spans import Span, word_spans

from .edits import WordChange, checked, still_reads
from .incremental import Context, changed_region, derive_row, writer_view

#: Characters after which the words before the cursor are checked.
TRIGGERS = (" ", "\n", ".", ",", ";", ":", "!", "?")
#: Triggers that end a sentence: every word of it is checked.
SENTENCE_ENDS = (".", "!", "?")
#: The words a trigger in a sentence checks: the one just finished and the two before it.
WORDS_BACK = 3
#: Corrections remembered to notice an undo (the latest ones).
REMEMBERED = 32
#: Lines of the paragraph a trigger covers after triggers missed while the model loaded.
CATCH_UP_LINES = 50


def words_checked(line: str, column: int, trigger: str) -> list[Span]:
    """The words before ``column`` a ``trigger`` checks: every word of the line a line
    break ended and of the sentence a full stop (``!``, ``?``) ended, each has all its
    context now; else the word just finished and the ones before it (``WORDS_BACK``)."""
    spans = word_spans(line[:column])
    if trigger == "\n":
        return spans
    if trigger in SENTENCE_ENDS:
        start = max(line.rfind(end, 0, column - 1) for end in SENTENCE_ENDS) + 1
        return [span for span in spans if span.start >= start]
    return spans[-WORDS_BACK:]


def keeps_acronym(finding: Finding, text: str, complete: bool) -> bool:
    """Whether ``finding`` would change the letters of an acronym (not only its suffix)
    that stays as typed: unless its line ``text`` is ``complete`` and mostly in capitals
    (a headline: COK -> ÇOK), a line typed so far cannot tell."""
    stem = finding.original.replace("’", "'").split("'")[0]
    changed = is_acronym(finding.original) and not finding.replacement.startswith(stem)
    return changed and not (complete and mostly_capitals(text))


def paragraph_rows(lines: Sequence[str], row: int) -> list[int]:
    """The rows of the paragraph up to ``row`` (lines without a blank one between them),
    at most ``CATCH_UP_LINES``."""
    first = row
    while first > 0 and row - first < CATCH_UP_LINES - 1 and lines[first - 1].strip():
        first -= 1
    return list(range(first, row + 1))


@dataclass
class LineStates:
    """The masker state at the start of each line, derived lazily from the top by the
    format's scan alone (cheap: no masking of links) and kept between requests: typing
    changes the lines at the cursor, so what was derived for the lines above it stays."""

    lines: tuple[str, ...] = ()
    maskers: list[Hashable] = field(default_factory=list)  # maskers[i]: the masker state at the start of line i
    #: What the states were derived with. Not the words nokta wrote, which grow with each
    #: correction: deriving the lines again for each would cost a long document's latency.
    key: object = None

    def before(self, lines: tuple[str, ...], row: int, context: Context) -> Hashable:
        key = (context.masker, context.options.max_line_length)
        if key != self.key:
            self.maskers, self.key = [], key
        self.forget_changed(lines)
        if not self.maskers:
            self.maskers.append(context.masker.start)
        scan, longest = context.masker.scan, context.options.max_line_length
        while len(self.maskers) <= row:
            line = within_length(self.lines[len(self.maskers) - 1], longest)
            self.maskers.append(scan(self.maskers[-1], line)[1])
        return self.maskers[row]

    def forget_changed(self, lines: tuple[str, ...]) -> None:
        """Forget what was derived from lines that changed: a line's start state depends
        on the lines above it only."""
        used = max(len(self.maskers) - 1, 0)  # the lines every kept state was derived from
        if lines[:used] != self.lines[:used]:  # unchanged lines are the same objects: cheap
            start, _, _ = changed_region(self.lines, lines)
            del self.maskers[start + 1 :]
        self.lines = lines


@dataclass
class Autocorrector:
    """One document's autocorrect state: line states, the corrections made, the words refused."""

    states: LineStates = field(default_factory=LineStates)
    answered: list[WordChange] = field(default_factory=list)  # the last trigger's, not yet seen applied
    made: list[WordChange] = field(default_factory=list)  # seen applied (the latest ones)
    refused: set[str] = field(default_factory=set)  # words whose correction the writer undid

    #: Triggers missed while no model could correct (it was loading): the next trigger
    #: then covers every word of the paragraph before the cursor.
    missed: bool = False

    def corrections(
        self,
        lines: tuple[str, ...],
        position: tuple[int, int],
        trigger: str,
        context: Context,
        threshold: float,
        cache: SuggestionCache,
    ) -> list[WordChange]:
        """The words to correct now, before ``position`` (row, code-point column after the
        ``trigger`` typed), or at the end of the line before it when the trigger was a newline;
        after missed triggers, every word of the paragraph before the cursor."""
        self.note_undone(lines)
        row, column = position
        if trigger == "\n":  # the line break ended the line above; the cursor may sit after an indent
            row -= 1
            column = len(lines[row]) + 1 if 0 <= row < len(lines) else 0
        if not 0 <= row < len(lines):
            return []
        rows = paragraph_rows(lines, row) if self.missed else [row]
        self.missed = False
        texts = [derive_row(lines[r], self.states.before(lines, r, context), context).text for r in rows]
        recent = {span.start for span in words_checked(lines[row], column, "\n" if len(rows) > 1 else trigger)}
        changes = checked(
            lines,
            [
                WordChange(r, f.start, f.end, f.original, f.replacement)
                for r, text, suggestions in zip(
                    rows, texts, suggestions_for(texts, context.restorer, cache), strict=True
                )
                for f in line_findings(r, text, suggestions, self.options(lines, r, context, threshold))
                if f.confident
                and (r < row or (f.start in recent and f.end < column))
                and f.original not in self.refused
                and not keeps_acronym(f, text, complete=r < row or trigger == "\n")
            ],
        )
        self.answered = changes
        return changes

    @staticmethod
    def options(lines: Sequence[str], row: int, context: Context, threshold: float) -> CheckOptions:
        """The diagnostics' options with the autocorrect threshold; the strict one throughout
        after a line the writer typed with Turkish letters."""
        options = context.options
        strict = max(options.strict_threshold, threshold)
        previous = writer_view(lines[row - 1], context.written) if row > 0 else ""
        return replace(
            options,
            threshold=strict if typed_with_turkish_letters(previous) else threshold,
            strict_threshold=strict,
            show_ambiguous=False,
        )

    def note_applied(self, lines: Sequence[str]) -> None:
        """Called with the document after each change it takes: the corrections answered
        that it shows were made. The others were dropped by the editor (or are on their way) and
        are forgotten at the next trigger."""
        if self.answered:
            self.made = (self.made + [c for c in self.answered if still_reads(lines, applied(c))])[-REMEMBERED:]
            self.answered = [c for c in self.answered if still_reads(lines, c)]

    def note_undone(self, lines: Sequence[str]) -> None:
        """Words of corrections made that read as typed again were undone: refused from now
        on. Corrections whose text moved are forgotten."""
        kept = []
        for change in self.made:
            if still_reads(lines, change):
                self.refused.add(change.old_text)
            elif still_reads(lines, applied(change)):
                kept.append(change)
        self.made = kept


def applied(change: WordChange) -> WordChange:
    """``change`` as it reads once applied: its new text in place of the old."""
    return replace(change, old_text=change.new_text)
