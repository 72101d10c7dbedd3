"""Analysis in the worker: a ``Snapshot`` taken from the session in, an ``Analysis`` out.

A snapshot is immutable apart from ``state``, the document's incremental analysis,
which only the worker touches. Rows are found in batches, the latest edit's and the top
of the document first; between batches the worker stops when a newer version is waiting
(the state keeps what was found) and hands back a partial analysis when the urgent rows
are done and then every second, so a long document is published top first. No protocol
types here.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from nokta_model.prose import Masker

from .checker import CheckOptions, Finding
from .documents import Codec
from .engine import Model
from .incremental import Context, DocumentAnalysis


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
    state: DocumentAnalysis
    written: frozenset[str] = frozenset()  # ``Document.written``
    cache_lines: int = 0  # suggestions the model's cache should hold


@dataclass(frozen=True)
class Analysis:
    line_findings: list[tuple[Finding, ...]]  # per line of the analysed version
    diagnostics_json: str  # every diagnostic, comma-separated JSON
    result_id: str
    complete: bool = True  # False: rows below still show older findings or none
    found_share: float = 1.0  # of the rows, those found for this version and context
    #: Spellings with a Turkish letter offered as fixes: an edit writing one is nokta's own
    #: (``features.own_edits``); an ASCII spelling would change nothing in the writer's view.
    offered: frozenset[str] = frozenset()


NOTHING = Analysis([], "", "empty")

#: Seconds of model work between checks for a newer version (an edit waits for the batch
#: in progress). About 16 lines of the default model; its network costs about twice per
#: line what it does in batches of 64, the price of edits that wait at most ~20 ms.
BATCH_S = 0.02
PARTIAL_EVERY_S = 1.0


@dataclass(frozen=True)
class Run:
    """What the worker asks the scheduler while it analyses one snapshot."""

    superseded: Callable[[], bool]  # a newer version of the document is waiting
    hand_back: Callable[[Analysis], None]  # a partial analysis, to publish


class BatchSize:
    """Rows per batch, adapted so that a batch takes about the time wanted."""

    def __init__(self, rows: int = 8):  # the first batch: the edit's rows and a few more
        self.rows = rows

    def adapt(self, seconds: float) -> None:
        rate = self.rows / max(seconds, 1e-4)
        self.rows = max(8, min(4_000, int(rate * BATCH_S)))


def analyse(snapshot: Snapshot, run: Run) -> Analysis | None:
    """The findings of the snapshot's lines; None when no model can analyse them yet or a
    newer version is waiting."""
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
    model.cache.max_lines = snapshot.cache_lines
    state = snapshot.state
    state.prepare(snapshot.lines, context)
    size, handed_back = BatchSize(), -PARTIAL_EVERY_S
    while True:
        started = time.perf_counter()
        if not state.find_next(size.rows):
            return result(state, complete=True)
        if run.superseded():
            return None
        now = time.perf_counter()
        size.adapt(now - started)
        if not state.urgent_left() and now - handed_back >= PARTIAL_EVERY_S:
            run.hand_back(result(state, complete=False))
            handed_back = now


def result(state: DocumentAnalysis, complete: bool) -> Analysis:
    share = 1.0 if complete else 1 - state.stale.count(True) / max(len(state.stale), 1)
    line_findings = state.line_findings()
    return Analysis(
        line_findings, state.diagnostics_json(), state.result_id, complete, share, offered_spellings(line_findings)
    )


def offered_spellings(line_findings: list[tuple[Finding, ...]]) -> frozenset[str]:
    return frozenset(
        spelling
        for row in itertools.compress(line_findings, line_findings)  # rows with findings
        for finding in row
        for spelling in (finding.replacement, *(text for text, _ in finding.alternatives))
        if not spelling.isascii()
    )
