"""Diagnostics, pushed (textDocument/publishDiagnostics) or pulled (textDocument/diagnostic).

Both send the JSON text built with the analysis (``Analysis.diagnostics_json``, from
``nokta_lsp.analysis.diagnostics.PublishedDiagnostics``): one serialiser, and a pushed document is
never re-serialised. A long analysis published in parts shows as work-done progress
("Checking with nokta", with a percentage) until its complete result is published.
"""

from __future__ import annotations

import itertools
import json
from pathlib import PurePosixPath
from typing import Any

from lsprotocol import types

from ...analysis.worker import Analysis, Snapshot
from ...state.open_document import OpenDocument
from ..server import NoktaServer
from . import inlay_hints

_progress_tokens = itertools.count(1)


def deliver(ls: NoktaServer, snapshot: Snapshot, analysis: Analysis, reanalysed: bool) -> None:
    """Publish a new analysis when what is published changed, or ask a pulling client to pull
    again when the text did not change (nothing while checking is paused)."""
    session, capabilities = ls.session, ls.session.capabilities
    document = session.documents.get(snapshot.uri)
    if session.paused or document is None:
        return
    if not capabilities.pull_diagnostics:
        if document.pushed != analysis.result_id:
            document.pushed = analysis.result_id
            ls.protocol.publish_diagnostics_json(snapshot.uri, snapshot.version, analysis.diagnostics_json)
    elif reanalysed and capabilities.diagnostic_refresh:  # same text, new result: settings, model or focus changed
        ls.workspace_diagnostic_refresh(None)
    inlay_hints.refresh(ls, document, analysis.findings_id)
    if capabilities.work_done_progress:
        show_progress(ls, document, analysis)


def show_progress(ls: NoktaServer, document: OpenDocument, analysis: Analysis) -> None:
    """Begin, report or end the document's "Checking" progress."""
    token, percentage = document.progress, int(100 * analysis.found_share)
    if analysis.complete:
        end_progress(ls, document)
    elif token is None:
        token = document.progress = f"nokta-check-{next(_progress_tokens)}"
        ls.work_done_progress.create(token)
        name = PurePosixPath(document.uri).name
        begin = types.WorkDoneProgressBegin(title="Checking with nokta", message=name, percentage=percentage)
        ls.work_done_progress.begin(token, begin)
    else:
        ls.work_done_progress.report(token, types.WorkDoneProgressReport(percentage=percentage))


def end_progress(ls: NoktaServer, document: OpenDocument) -> None:
    token, document.progress = document.progress, None
    if token is not None:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd())


def clear(ls: NoktaServer, uri: str, document: OpenDocument | None) -> None:
    """Remove the pushed diagnostics and progress of a document closed (its record, if it
    was open) or paused."""
    if document is not None:
        end_progress(ls, document)
        document.pushed = None
    if not ls.session.capabilities.pull_diagnostics:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def report(analysis: Analysis | None, previous_result_id: str | None) -> dict[str, Any]:
    """A document diagnostic report, as JSON data."""
    if analysis is None:  # closed, paused, or analysis did not finish in time
        return {"kind": types.DocumentDiagnosticReportKind.Full.value, "items": []}
    if previous_result_id == analysis.result_id:
        return {"kind": types.DocumentDiagnosticReportKind.Unchanged.value, "resultId": analysis.result_id}
    return {
        "kind": types.DocumentDiagnosticReportKind.Full.value,
        "resultId": analysis.result_id,
        "items": json.loads(f"[{analysis.diagnostics_json}]"),
    }


async def pull(ls: NoktaServer, params: types.DocumentDiagnosticParams) -> dict[str, Any]:
    await ls.scheduler.analysed(params.text_document.uri)
    analysis = ls.session.result(params.text_document.uri) if not ls.session.paused else None
    return report(analysis, params.previous_result_id)
