"""End to end, the real server over stdio (fixed-lexicon restorer): inlay hints `→ güzel`
after flagged words, with the edit attached; asked for again when the diagnostics change;
off with the ``inlayHints`` setting."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import (
    apply_edits,
    change_document,
    diagnostics_for,
    initialize,
    open_document,
    reconfigure,
    shown_once_analysed,
    span,
    wait_until,
    words,
)

URI = "file:///hints.txt"


async def hints(client: LanguageClient, first: int = 0, last: int = 10) -> list[types.InlayHint]:
    lines = types.Range(start=types.Position(line=first, character=0), end=types.Position(line=last, character=0))
    return await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=URI), range=lines)
    )


async def test_a_hint_after_each_flagged_word_applies_its_fix(client: LanguageClient):
    result = await initialize(client, {"ambiguous": "hint"})
    assert result.capabilities.inlay_hint_provider is not None
    text = "😀 cok aci\nhava guzel"  # "aci" is ambiguous: a diagnostic, no hint
    open_document(client, URI, text)
    assert len(await diagnostics_for(client, URI, 1)) == 3
    found = await hints(client)
    assert [(h.label, h.position.line, h.position.character, h.padding_left) for h in found] == [
        ("→ çok", 0, 6, True),  # after the word, in UTF-16 units (the emoji is two)
        ("→ güzel", 1, 10, True),
    ]
    assert apply_edits(text, found[1].text_edits) == "😀 cok aci\nhava güzel"
    assert [h.label for h in await hints(client, 1, 1)] == ["→ güzel"]  # only the range asked


async def test_hints_are_asked_for_again_when_the_diagnostics_change_and_turn_off(client: LanguageClient):
    await initialize(client)
    open_document(client, URI, "cok")
    await diagnostics_for(client, URI, 1)
    refreshes = client.inlay_hint_refreshes
    change_document(client, URI, 2, (span(0, 3, 3), " guzel "))
    await diagnostics_for(client, URI, 2)
    await wait_until(client, lambda: client.inlay_hint_refreshes > refreshes)
    assert [h.label for h in await hints(client)] == ["→ çok", "→ güzel"]

    await reconfigure(client, {"debounceMs": 0, "inlayHints": False})
    assert not await hints(client)
    assert len(client.published[URI].diagnostics) == 2  # the diagnostics stay


async def test_the_word_being_typed_gets_no_hint(client: LanguageClient):
    await initialize(client)
    open_document(client, URI, "cok")
    await diagnostics_for(client, URI, 1)
    for version, char in enumerate(" guzel", start=2):
        change_document(client, URI, version, (span(0, version + 1, version + 1), char))
    assert words(await shown_once_analysed(client, URI)) == ["cok → çok"]  # as before: not pushed again
    assert [h.label for h in await hints(client)] == ["→ çok"]  # "guzel" is still being typed
