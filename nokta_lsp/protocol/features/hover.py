"""textDocument/hover: the finding under the cursor, with its alternatives."""

from __future__ import annotations

from lsprotocol import types

from ...analysis.diagnostics import hover_text
from ..server import NoktaServer


def hover(ls: NoktaServer, params: types.HoverParams) -> types.Hover | None:
    session = ls.session
    document = session.document(params.text_document.uri)
    if document is None:
        return None
    line, column = document.clamp(params.position.line, params.position.character, session.codec)
    for finding in session.findings(document.uri, line, line):
        if finding.start <= column <= finding.end:
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=hover_text(finding)))
    return None
