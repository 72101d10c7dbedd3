"""textDocument/codeAction: fixes for the diagnostics under the cursor (from their
``data``, never running the model; each found again in the current text, so a
diagnostic the client still shows after an edit fixes its own word), restore all,
restore the selection (the fix of the document's one diagnostic when it is typed without
Turkish letters). A request for source actions (fix all on save) first waits, up
to ``FIX_ON_SAVE_WAIT_S``, for the analysis of the document as it is now, so a word
typed just before saving is fixed too."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ...analysis.documents import Document
from .. import actions
from ..server import NoktaServer

FIX_ON_SAVE_WAIT_S = 10.0


async def code_actions(ls: NoktaServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    session, uri, kinds = ls.session, params.text_document.uri, params.context.only
    fix_all = actions.asks_for_source_actions(kinds)
    if fix_all and session.document(uri) is not None:
        await ls.scheduler.analysed(uri, FIX_ON_SAVE_WAIT_S)
    document = session.document(uri)
    if document is None:
        return []
    version = session.edit_version(uri)
    result: list[types.CodeAction] = []
    if actions.wanted(kinds, types.CodeActionKind.QuickFix):
        for diagnostic in current_diagnostics(ls, document, params.context.diagnostics):
            if actions.touches(diagnostic, params.range):
                result.extend(actions.quick_fixes(document.uri, diagnostic, version))
    start, end = document.clamp_range(params.range, session.codec)
    findings = session.restorable(document)  # restoring leaves code blocks as written
    selection = actions.in_range(findings, start, end)
    extra = actions.document_actions(
        document, findings, selection, session.codec, fix_all, version, session.settings.maxDiagnostics
    )
    actions.fixing(extra, actions.document_diagnostics(params.context.diagnostics, params.range))
    return result + [action for action in extra if actions.wanted(kinds, str(action.kind))]


def current_diagnostics(
    ls: NoktaServer, document: Document, diagnostics: Sequence[types.Diagnostic]
) -> list[types.Diagnostic]:
    """The client's nokta diagnostics with their words found again in the current text
    (those whose word is gone left out)."""
    session = ls.session
    resolved = (
        actions.resolve(document, d, session.codec, session.line_findings(document.uri, d.range.start.line))
        for d in actions.nokta_diagnostics(diagnostics)
    )
    return [diagnostic for diagnostic in resolved if diagnostic is not None]
