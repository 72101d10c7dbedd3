"""textDocument/codeAction: fixes for the diagnostics under the cursor (from their
``data``, never running the model), restore all, restore the selection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from .. import actions

if TYPE_CHECKING:
    from ..server import NoktaServer


def code_actions(ls: NoktaServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    session = ls.session
    document = session.document(params.text_document.uri)
    if document is None:
        return []
    kinds = params.context.only
    result: list[types.CodeAction] = []
    if actions.wanted(kinds, types.CodeActionKind.QuickFix):
        for diagnostic in actions.nokta_diagnostics(params.context.diagnostics):
            if actions.touches(diagnostic, params.range):
                result.extend(actions.quick_fixes(document.uri, diagnostic))
    start, end = document.clamp_range(params.range, session.codec)
    selection = actions.in_range(session.findings(document.uri, start[0], end[0]), start, end)
    fix_all = actions.asks_for_source_actions(kinds)
    extra = actions.document_actions(document, session.findings(document.uri), selection, session.codec, fix_all)
    return result + [action for action in extra if actions.wanted(kinds, str(action.kind))]


def register(server: NoktaServer) -> None:
    server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(actions.KINDS), resolve_provider=False),
    )(code_actions)
