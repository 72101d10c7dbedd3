"""textDocument/onTypeFormatting: autocorrect as the writer types (``nokta_lsp.analysis.autocorrect``).

The edits are the request's result, so the editor applies them as one step the writer
can undo; the words written are nokta's own (``Document.written``), never evidence of
how the writer types. The model runs here, on the event loop (a few words a request), with
its own cache for it (``Model.typing_cache``: the worker's is not shared across threads).
"""

from __future__ import annotations

from dataclasses import replace

from lsprotocol import types

from nokta_model.prose import Masker

from ...analysis.documents import Document
from ...analysis.incremental import Context
from .. import actions
from ..server import NoktaServer


def on_type_formatting(ls: NoktaServer, params: types.DocumentOnTypeFormattingParams) -> list[types.TextEdit] | None:
    session, uri = ls.session, params.text_document.uri
    record = session.documents.get(uri)
    masker = _masker(ls, record.document) if record is not None else None
    if record is None or masker is None or session.paused:
        return None
    document, corrector, model = record.document, record.autocorrector, session.engine.model
    if model is None or model.stand_in:  # loading: the next trigger once it is ready covers this one's words
        corrector.missed = True
        return None
    options = session.options_for(uri)
    ignored = session.file_ignores(uri)  # the document's ``nokta: ignore`` directives
    if ignored:
        options = replace(options, ignore=options.ignore | ignored)
    settings = session.settings_for(uri)
    cache = model.typing_cache
    context = Context(masker, options, settings.severity, session.codec, model.restorer, cache, document.written)
    position = document.clamp(params.position.line, params.position.character, session.codec)
    changes = corrector.corrections(
        tuple(document.lines), position, params.ch, context, settings.autocorrectThreshold, cache
    )
    if not changes:
        return None
    document.written = document.written | {change.new_text for change in changes}
    return [actions.text_edit(document.lines, change, session.codec) for change in changes]


def _masker(ls: NoktaServer, document: Document) -> Masker | None:
    """The masker autocorrect checks the document with (its directives and configuration's
    ignore patterns too), or None when it is not to be corrected."""
    session = ls.session
    settings = session.settings_for(document.uri)
    if document.language_id not in settings.autocorrect or document.size > settings.maxFileSize:
        return None
    return session.masker_for(document, restoring=True)  # code blocks are never corrected
