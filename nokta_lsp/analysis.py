"""Analysis in the worker: a ``Snapshot`` taken from the session in, an ``Analysis`` out.

A snapshot is immutable apart from ``state``, the document's incremental analysis,
which only the worker touches. No protocol types here.
"""

from __future__ import annotations

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


NOTHING = Analysis([], "", "empty")


def analyse(snapshot: Snapshot) -> Analysis | None:
    """The findings of the snapshot's lines; None when no model can analyse them yet."""
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
    state.update(snapshot.lines, context)
    return Analysis(state.line_findings(), state.diagnostics_json(), state.result_id)
