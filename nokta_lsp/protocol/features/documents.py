"""textDocument/didOpen, didChange, didClose: into the session, then the debounce."""

from __future__ import annotations

from lsprotocol import types

from ..server import NoktaServer
from . import diagnostics
from .own_edits import note_own_edits
from .workspace import show_config_warnings


def did_open(ls: NoktaServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    ls.session.open(doc.uri, doc.language_id, doc.version, doc.text)
    ls.session.workspace.config_of(doc.uri)  # read now, so that an error in it is shown now
    show_config_warnings(ls)
    ls.scheduler.schedule(doc.uri)


def did_change(ls: NoktaServer, params: types.DidChangeTextDocumentParams) -> None:
    session, uri = ls.session, params.text_document.uri
    document = session.document(uri)
    if document is None:
        return
    changes = [(getattr(change, "range", None), change.text) for change in params.content_changes]
    note_own_edits(document, changes, session.offered(uri), session.codec)
    session.change(uri, params.text_document.version, changes)
    ls.scheduler.schedule(uri)


def did_close(ls: NoktaServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    closed = ls.session.close(uri)  # everything kept of it goes with its record
    ls.scheduler.note_idle()
    diagnostics.clear(ls, uri, closed)
