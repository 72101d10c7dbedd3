"""Diagnostics, pushed (textDocument/publishDiagnostics) or pulled (textDocument/diagnostic).

Both send the JSON text the analysis built (``Analysis.diagnostics_json``): one
serialiser, and a pushed document is never re-serialised.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..analysis import Analysis, Snapshot

if TYPE_CHECKING:
    from ..server import NoktaServer


def deliver(ls: NoktaServer, snapshot: Snapshot, analysis: Analysis, reanalysed: bool) -> None:
    """Publish a new analysis, or ask a pulling client to pull again when the text did not change."""
    capabilities = ls.session.capabilities
    if not capabilities.pull_diagnostics:
        ls.protocol.publish_diagnostics_json(snapshot.uri, snapshot.version, analysis.diagnostics_json)
    elif reanalysed and capabilities.diagnostic_refresh:  # same text, new result: settings or model changed
        ls.workspace_diagnostic_refresh(None)


def clear(ls: NoktaServer, uri: str) -> None:
    """Remove a closed document's pushed diagnostics."""
    if not ls.session.capabilities.pull_diagnostics:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def report(analysis: Analysis | None, previous_result_id: str | None) -> dict[str, Any]:
    """A document diagnostic report, as JSON data."""
    if analysis is None:  # closed, or analysis did not finish in time
        return {"kind": types.DocumentDiagnosticReportKind.Full.value, "items": []}
    if previous_result_id == analysis.result_id:
        return {"kind": types.DocumentDiagnosticReportKind.Unchanged.value, "resultId": analysis.result_id}
    return {
        "kind": types.DocumentDiagnosticReportKind.Full.value,
        "resultId": analysis.result_id,
        "items": json.loads(f"[{analysis.diagnostics_json}]"),
    }


def register(server: NoktaServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=False, identifier="nokta"),
    )
    async def pull(ls: NoktaServer, params: types.DocumentDiagnosticParams) -> dict[str, Any]:
        await ls.scheduler.analysed(params.text_document.uri)
        return report(ls.session.result(params.text_document.uri), params.previous_result_id)
