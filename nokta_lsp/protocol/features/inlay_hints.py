"""textDocument/inlayHint: ``→ güzel`` after each confidently flagged word, with the edit
that writes it (an editor applies a hint's ``textEdits`` when it is accepted: a
double-click in VS Code). From the findings of the last analysis, carried over to the
text as it is now (``Session.findings``); the word being typed gets none, as it gets no
diagnostic. When a document's diagnostics change, a client that supports it is asked to
ask again (``workspace/inlayHint/refresh``). Off with the ``inlayHints`` setting, or with
the editor's own switch. The range a request names is what the editor shows: the
diagnostics published, when there are more than ``maxDiagnostics``, follow it."""

from __future__ import annotations

from lsprotocol import types

from nokta_model.check.findings import Finding

from ...analysis.diagnostics import being_typed
from ...analysis.documents import Codec, Document
from ...analysis.edits import restores
from ...state.open_document import OpenDocument
from ..server import NoktaServer


def inlay_hints(ls: NoktaServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    session = ls.session
    document = session.document(params.text_document.uri)
    if document is None:
        return []
    (first, _), (last, _) = document.clamp_range(params.range, session.codec)
    if session.show(document.uri, first, last):  # the diagnostics published follow what is shown
        ls.scheduler.schedule(document.uri, 0)
    if not session.settings.inlayHints:
        return []
    typing = document.cursor if session.settings.hideWhileTyping else None
    return [
        hint(document, finding, session.codec)
        for finding in session.findings(document.uri, first, last)
        if finding.confident and restores(finding.original, finding.replacement) and not being_typed(finding, typing)
    ]


def hint(document: Document, finding: Finding, codec: Codec) -> types.InlayHint:
    line = document.lines[finding.line]
    word = types.Range(
        start=types.Position(line=finding.line, character=codec.to_client(line, finding.start)),
        end=types.Position(line=finding.line, character=codec.to_client(line, finding.end)),
    )
    return types.InlayHint(
        position=word.end,
        label=f"→ {finding.replacement}",
        text_edits=[types.TextEdit(range=word, new_text=finding.replacement)],
        tooltip=f"nokta: {finding.original} → {finding.replacement} ({finding.confidence:.0%} sure)",
        padding_left=True,
    )


def refresh(ls: NoktaServer, document: OpenDocument, findings_id: str) -> None:
    """Ask the client for the hints again when a document's findings changed."""
    if document.hinted != findings_id:
        document.hinted = findings_id
        refresh_all(ls)


def refresh_all(ls: NoktaServer) -> None:
    """Ask a client that supports it for every hint again (settings changed, checking paused)."""
    if ls.session.capabilities.inlay_hint_refresh:
        ls.workspace_inlay_hint_refresh(None)
