"""Analysis in the worker: a ``Snapshot`` taken from the session in, an ``Analysis`` out.

The snapshot is immutable; the document's ``DocumentState`` (its incremental analysis
and its published diagnostics) comes beside it in a ``Job``, lent by the document's record
(``open_document``) to the worker alone, and ``Run`` tells the worker when a newer version
is waiting. Lines are found in batches in the work queue's order (the latest edit's and the
top of the document first); between batches the worker stops when a newer version is
waiting (the state keeps what was found) and hands back a partial analysis when the
edit's lines (or, with no edit, the top of the document) are found and then every
second, so a long document is published top first. An edit's lines are found in small
batches; the others' suggestions are asked for in large ones by the model's look-ahead
(``lookahead``), which the worker waits for while it watches for a newer version. A
stand-in model (``Model.stand_in``, serving while the configured one loads) finds only
the lines shown first and hands them back as a partial analysis. No protocol types here:
the diagnostics' JSON is built by ``diagnostics.PublishedDiagnostics``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nokta_model.check.findings import CheckOptions, uncached
from nokta_model.prose import Masker

from .diagnostics import Focus, PublishedDiagnostics
from .documents import Codec
from .incremental import Context, DocumentAnalysis
from .model import Model
from .packed import Found


@dataclass(frozen=True)
class Snapshot:
    uri: str
    version: int
    lines: tuple[str, ...]
    masker: Masker | None  # None: the document is not checked (file type or size)
    options: CheckOptions
    severity: str
    codec: Codec
    model: Model | None  # None while no model is loaded
    written: frozenset[str] = frozenset()  # ``Document.written``
    #: The writer's cursor (``Document.cursor``) when the word there is not shown yet
    #: (``hideWhileTyping``): still being typed.
    typing: tuple[int, int] | None = None
    max_diagnostics: int | None = None  # None: every one is published
    focus: Focus = field(default_factory=Focus)  # the diagnostics published, when not all, are those nearest it


@dataclass(frozen=True)
class Analysis:
    line_findings: list[Found]  # per line of the analysed version
    diagnostics_json: str  # every diagnostic, comma-separated JSON
    result_id: str
    complete: bool = True  # False: rows below still show older findings or none
    found_share: float = 1.0  # of the rows, those found for this version and context
    #: Spellings with a Turkish letter offered as fixes: an edit writing one is nokta's own
    #: (``features.own_edits``); an ASCII spelling would change nothing in the writer's view.
    offered: frozenset[str] = frozenset()
    #: The words the document's ``nokta: ignore`` directives name (``word_key``s), as found so far.
    file_ignores: frozenset[str] = frozenset()
    flagged: int = 0  # findings, published or not
    findings_id: str = ""  # changes with the findings (``result_id`` with what is published)


NOTHING = Analysis([], "", "empty")

#: Seconds of work between checks for a newer version when the worker asks the model
#: itself (an edit's lines; an edit waits for the batch in progress).
BATCH_S = 0.02
PARTIAL_EVERY_S = 1.0
#: Lines per look-ahead batch: large batches cost the model less per line than small ones.
AHEAD_LINES = 1_000
#: How often the worker checks for a newer version while it waits for the look-ahead.
POLL_S = 0.002


@dataclass
class DocumentState:
    """What is kept of a document between its analyses: held by its record
    (``OpenDocument``), changed by the worker alone."""

    lines: DocumentAnalysis = field(default_factory=DocumentAnalysis)
    published: PublishedDiagnostics = field(default_factory=PublishedDiagnostics)


@dataclass(frozen=True)
class Run:
    """What the worker asks the scheduler while it analyses one snapshot (never the session)."""

    superseded: Callable[[], bool]  # the document has moved on from the snapshot's version
    hand_back: Callable[[Analysis], None]  # a partial analysis, to publish


@dataclass(frozen=True)
class Job:
    """One analysis for the worker: all it reads, and the state it alone changes."""

    snapshot: Snapshot
    state: DocumentState
    superseded: threading.Event  # set on the loop when the document moves on or closes
    run: Run
    cache_lines: int  # the lines the model's suggestion cache holds (the worker sizes it)


class BatchSize:
    """Rows per batch, adapted so that a batch takes about the time wanted."""

    def __init__(self, rows: int = 8):  # the first batch: the edit's lines and a few more
        self.rows = rows

    def adapt(self, rows: int, seconds: float) -> None:
        rate = rows / max(seconds, 1e-4)
        self.rows = max(8, min(4_000, int(rate * BATCH_S)))


def analyse(snapshot: Snapshot, state: DocumentState, run: Run) -> Analysis | None:
    """The findings of the snapshot's lines, found with and kept in ``state``; None when no
    model can analyse them yet or a newer version is waiting."""
    if snapshot.masker is None:
        return NOTHING
    model = snapshot.model
    if model is None:
        return None  # analysed again once the model is loaded
    context = Context(
        snapshot.masker,
        snapshot.options,
        snapshot.severity,
        snapshot.codec,
        model.restorer,
        model.cache,
        snapshot.written,
    )
    lines = state.lines
    lines.prepare(snapshot.lines, context)
    size, handed_back = BatchSize(), -PARTIAL_EVERY_S
    after_edit = lines.edited_left() > 0  # published once the edit's lines are found, else the urgent ones
    while True:
        model.ahead.collect()
        edited = lines.edited_left()
        rows = min(size.rows, edited) if edited else min(size.rows, AHEAD_LINES)
        if model.stand_in:  # the lines shown first, no more
            rows = min(rows, max(lines.priority_left(), 1))
        if not edited and _look_ahead(lines, model, rows):
            if not _wait(model, run):
                return None
            continue
        started = time.perf_counter()
        if not lines.find_next(rows):
            return result(snapshot, state, complete=True)
        if run.superseded():
            return None
        now = time.perf_counter()
        size.adapt(rows, now - started)
        priority_found = not (lines.edited_left() if after_edit else lines.priority_left())
        if priority_found and model.stand_in:  # the configured model, loading, finds the rest
            return result(snapshot, state, complete=False)
        if priority_found and now - handed_back >= PARTIAL_EVERY_S:
            run.hand_back(result(snapshot, state, complete=False))
            handed_back = now


def ahead_rows(model: Model) -> int:
    """How far ahead of the rows found the look-ahead looks: the batch being found, those
    being asked and one more."""
    return (model.restorer.concurrent_batches + 2) * AHEAD_LINES


def _look_ahead(lines: DocumentAnalysis, model: Model, rows: int) -> bool:
    """Keep the look-ahead's slots busy with the lines coming; True when the next ``rows`` wait for it."""
    if model.ahead.free_slots:
        wanted = lines.priority_left() if model.stand_in else ahead_rows(model)
        model.ahead.start(uncached(lines.upcoming_texts(wanted), model.cache), AHEAD_LINES, model.cache)
    return model.ahead.asking(model.cache) and bool(uncached(lines.upcoming_texts(rows), model.cache))


def _wait(model: Model, run: Run) -> bool:
    """Wait for the look-ahead; False when a newer version is waiting first."""
    while not model.ahead.wait(POLL_S):
        if run.superseded():
            return False
    return True


def result(snapshot: Snapshot, state: DocumentState, complete: bool) -> Analysis:
    published = state.published
    changes = state.lines.take_changes()
    text = published.update(
        snapshot.lines,
        changes,
        snapshot.codec,
        snapshot.severity,
        snapshot.typing,
        snapshot.max_diagnostics,
        snapshot.focus,
        state.lines.turkish_words,
    )
    share = 1.0 if complete else state.lines.found_share
    offered, ignored = published.offered.spellings, state.lines.ignores.words
    return Analysis(
        published.findings,
        text,
        published.result_id,
        complete,
        share,
        offered,
        ignored,
        published.count,
        published.findings_id,
    )
