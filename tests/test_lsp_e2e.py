"""End-to-end: the real server over stdio (with a fixed-lexicon restorer), as an editor drives it."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import FAKE_SERVER, apply_edits, change_document, config, diagnostics_for, initialize, open_document, span, words


@pytest_lsp.fixture(config=config(FAKE_SERVER))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_open_flags_words_and_quick_fix_gives_exact_text(client: LanguageClient):
    await initialize(client)
    text = "Bugun hava cok guzel.\nİkinci satır doğru."
    open_document(client, "file:///a.txt", text)
    diagnostics = await diagnostics_for(client, "file:///a.txt", 1)
    assert words(diagnostics) == ["Bugun → Bugün", "cok → çok", "guzel → güzel"]
    assert diagnostics[1].range == span(0, 11, 14)
    assert diagnostics[1].source == "nokta" and diagnostics[1].code == "missing-diacritics"
    assert diagnostics[1].severity == types.DiagnosticSeverity.Information

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri="file:///a.txt"),
            range=diagnostics[1].range,
            context=types.CodeActionContext(diagnostics=[diagnostics[1]]),
        )
    )
    # lsprotocol reads a CodeAction that carries a command back as a Command: skip those
    actions = [a for a in actions if isinstance(a, types.CodeAction)]
    fixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and a.edit and a.title.startswith("Change")]
    assert [a.title for a in fixes] == ["Change to 'çok'"] and fixes[0].is_preferred
    edits = fixes[0].edit.changes["file:///a.txt"]
    assert apply_edits(text, edits) == "Bugun hava çok güzel.\nİkinci satır doğru.".replace("güzel", "guzel")

    fix_all = [a for a in actions if a.kind == "source.fixAll.nokta"]
    assert apply_edits(text, fix_all[0].edit.changes["file:///a.txt"]) == "Bugün hava çok güzel.\nİkinci satır doğru."
