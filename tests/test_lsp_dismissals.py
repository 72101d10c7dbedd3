"""Dismissals that last: a word ignored in a document stays ignored there when the
document is closed and opened again in the same session (the real server over stdio)."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import (
    diagnostics_for,
    initialize,
    open_document,
    wait_for_idle,
    words,
)


async def ignore_in_document(client: LanguageClient, uri: str, word: str) -> str:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="nokta.addToDictionary", arguments=[{"uri": uri, "word": word, "scope": "document"}]
        )
    )


async def test_a_word_ignored_in_a_document_stays_ignored_after_it_is_closed_and_reopened(client: LanguageClient):
    await initialize(client)
    note, other = "file:///note.txt", "file:///other.txt"
    open_document(client, note, "cok guzel")
    assert words(await diagnostics_for(client, note, 1)) == ["cok → çok", "guzel → güzel"]
    assert await ignore_in_document(client, note, "cok") == "this document"
    await wait_for_idle(client)
    assert words(client.published[note].diagnostics) == ["guzel → güzel"]

    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(note)))
    open_document(client, note, "cok guzel cok", version=7)
    assert words(await diagnostics_for(client, note, 7)) == ["guzel → güzel"]
    open_document(client, other, "cok guzel")  # another document: its own dismissals
    assert words(await diagnostics_for(client, other, 1)) == ["cok → çok", "guzel → güzel"]
