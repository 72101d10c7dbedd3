"""textDocument/onTypeFormatting: autocorrect as the writer types (``nokta_lsp.autocorrect``).

The edits are the request's result, so the editor applies them as one step the writer
can undo; the words written are nokta's own (``Document.written``), never evidence of
how the writer types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from nokta_model.check.findings import SuggestionCache, document_masker

from .. import actions
from ..autocorrect import Autocorrector
from ..documents import Document
from ..incremental import Context

if TYPE_CHECKING:
    from ..server import NoktaServer

#: Lines whose suggestions autocorrect keeps (its own cache: the analysis worker's is not
#: shared across threads).
CACHE_LINES = 2_000
_cache = SuggestionCache(CACHE_LINES)


def on_type_formatting(ls: NoktaServer, params: types.DocumentOnTypeFormattingParams) -> list[types.TextEdit] | None:
    session, uri = ls.session, params.text_document.uri
    document = session.document(uri)
    context = _context(ls, document) if document is not None else None
    if document is None or context is None:
        return None
    position = document.clamp(params.position.line, params.position.character, session.codec)
    corrector = session.autocorrectors.setdefault(uri, Autocorrector())
    changes = corrector.corrections(
        tuple(document.lines), position, params.ch, context, session.settings.autocorrectThreshold, _cache
    )
    if not changes:
        return None
    document.written = document.written | {change.new_text for change in changes}
    return [actions.text_edit(document.lines, change, session.codec) for change in changes]


def _context(ls: NoktaServer, document: Document) -> Context | None:
    """What autocorrect checks the document with, or None when it is not to be corrected."""
    session, settings = ls.session, ls.session.settings
    model = session.engine.model
    if document.language_id not in settings.autocorrect or model is None or model.stand_in:
        return None
    masker = document_masker(document.language_id, settings.fileTypes, settings.checkCodeComments)
    if masker is None or document.size > settings.maxFileSize:
        return None
    options = session.options_for(document.uri)
    return Context(masker, options, settings.severity, session.codec, model.restorer, _cache, document.written)
