"""workspace/executeCommand: restore the document or the selection, add a word to a dictionary."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types

from ...state.dictionary import SCOPES
from .. import actions
from ..server import NoktaServer

log = logging.getLogger(__name__)


async def apply_restore(ls: NoktaServer, arguments: tuple[Any, ...], selection: bool) -> bool:
    """Send a workspace/applyEdit restoring the document (or a range); False if nothing to do."""
    argument = actions.command_argument(arguments)
    await ls.scheduler.analysed(argument["uri"])  # an edit just made is restored too
    session = ls.session
    document = session.document(argument["uri"])
    if document is None:
        raise ValueError(f"document not open: {argument['uri']}")
    findings = session.restorable(document)
    if selection:
        range_ = ls.protocol.structure(argument.get("range"), types.Range)
        findings = actions.in_range(findings, *document.clamp_range(range_, session.codec))
    edit = actions.restore_edit(document, findings, session.codec, session.edit_version(document.uri))
    if edit is None:
        return False
    ls.workspace_apply_edit(types.ApplyWorkspaceEditParams(edit=edit, label="Restore Turkish diacritics"))
    return True


async def restore_document(ls: NoktaServer, *arguments: Any) -> bool:
    return await apply_restore(ls, arguments, selection=False)


async def restore_selection(ls: NoktaServer, *arguments: Any) -> bool:
    return await apply_restore(ls, arguments, selection=True)


def add_to_dictionary(ls: NoktaServer, *arguments: Any) -> str:
    """Record the word in its scope's dictionary and analyse again; returns where."""
    argument = actions.command_argument(arguments)
    word, scope = argument.get("word"), argument.get("scope", "workspace")
    if not isinstance(word, str) or not word.strip() or scope not in SCOPES:
        raise ValueError(f"expected a word and a scope in {', '.join(SCOPES)}")
    session, uri = ls.session, argument["uri"]
    where = session.dictionary.add(word.strip(), scope, uri, session.workspace.root_of(uri))
    log.info("ignoring %r (%s)", word, where)
    ls.refresh()
    return where
