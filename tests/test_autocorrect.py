"""End to end: autocorrect as you type (textDocument/onTypeFormatting) in the real server
process with the fixed-lexicon restorer, typed word by word as an editor sends it."""

from __future__ import annotations

from typing import Any

import pytest

from nokta_lsp.analysis.autocorrect import TRIGGERS
from tests.lsp.client import FAKE_SERVER, raw_client
from tests.lsp.editors import Typist

OPTIONS = {"debounceMs": 0, "autocorrectThreshold": 0.98, "backend": "ngram"}  # ngram: no stand-in model first


async def typist(encoding: str = "utf-16", options: dict[str, Any] | None = None, language: str = "plaintext"):
    server = raw_client(FAKE_SERVER)
    result = await server.start({**OPTIONS, **(options or {})}, encodings=[encoding])
    assert result["capabilities"]["documentOnTypeFormattingProvider"] == {
        "firstTriggerCharacter": " ",
        "moreTriggerCharacter": list(TRIGGERS[1:]),
    }
    editor = Typist(server, f"file:///typed.{'md' if language == 'markdown' else 'txt'}", "", encoding)
    editor.server.notify("textDocument/didClose", {"textDocument": {"uri": editor.uri}})
    editor.server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": editor.uri, "languageId": language, "version": 1, "text": ""}},
    )
    await editor.diagnostics()  # the model is loaded
    return server, editor


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
async def test_words_typed_in_ascii_are_restored_as_you_type(encoding: str):
    server, editor = await typist(encoding)
    try:
        await editor.type("Bugun hava cok guzel.\nogrenci is ")
        assert editor.text == "Bugün hava çok güzel.\nöğrenci is "  # "is" (0.97) is not sure enough
        await editor.type("cok\n")
        assert editor.text == "Bugün hava çok güzel.\nöğrenci is çok\n"
    finally:
        await server.stop()


async def test_words_typed_with_turkish_letters_code_and_off_are_left_alone():
    server, editor = await typist(language="markdown")
    try:
        english = "We would like the ice cream with the cake, thanks.\n"  # English: "ice" is no "içe"
        typed = "Çok güzel bir `cok` gun, https://cok.example/guzel ve @guzel.\n"
        await editor.type(english + typed)
        assert editor.text == english + typed
        # the previous line was typed with Turkish letters: "ogrenci" needs the strict threshold (1.0)
        await editor.type("ogrenci ")
        assert editor.text.endswith("\nogrenci ")
    finally:
        await server.stop()
    server, editor = await typist(options={"autocorrect": []})
    try:
        await editor.type("cok guzel ")
        assert editor.text == "cok guzel "
    finally:
        await server.stop()


async def test_a_full_stop_restores_every_word_of_its_sentence_and_no_other():
    server, editor = await typist()
    try:
        await editor.type("cok ")
        editor.change([{"range": {"start": editor.position(0), "end": editor.position(3)}, "newText": "cok"}])  # undone
        await editor.type("iyi. ")
        end = editor.position(len(editor.text))
        editor.change([{"range": {"start": end, "end": end}, "newText": "bugun hava cok guzel ogrenci"}])  # pasted
        await editor.type(".")
        assert editor.text == "cok iyi. bugün hava cok güzel öğrenci."  # "cok" stays as the writer wants it
    finally:
        await server.stop()


async def test_a_correction_the_writer_undoes_is_not_made_again():
    server, editor = await typist()
    try:
        await editor.type("cok ")
        assert editor.text == "çok "
        undo = {"start": editor.position(0), "end": editor.position(3)}
        editor.change([{"range": undo, "newText": "cok"}])  # the writer's undo
        await editor.type("guzel ")
        assert editor.text == "cok güzel "
        await editor.type("cok ")
        assert editor.text == "cok güzel cok "
    finally:
        await server.stop()


async def test_a_correction_the_editor_dropped_is_no_undo():
    server, editor = await typist()
    try:
        await editor.type("cok ", apply_edits=False)  # the writer typed on before the edit came: dropped
        assert editor.text == "cok "
        await editor.type("guzel ")
        assert editor.text == "çok güzel "  # made again with the next trigger's words
    finally:
        await server.stop()


async def test_a_correction_undone_in_the_same_notification_is_an_undo():
    server, editor = await typist()
    try:
        edits = await editor.type("cok ", apply_edits=False)
        undo = [{"range": {"start": editor.position(0), "end": editor.position(3)}, "newText": "cok"}]
        editor.change_in_steps([edits, undo])  # applied and undone at once: one notification (Neovim)
        await editor.type("guzel ")
        assert editor.text == "cok güzel "
    finally:
        await server.stop()


async def test_an_acronym_keeps_its_letters_as_you_type_but_in_a_headline():
    server, editor = await typist()
    try:
        await editor.type("Bugun COK guzel, COK'un hali. ")
        assert editor.text == "Bugün COK güzel, COK'un hali. "  # two to four capitals: an acronym
        await editor.type("\nBUGUN COK GUZEL\n")
        assert editor.text.endswith("\nBUGÜN ÇOK GÜZEL\n")  # a finished line mostly in capitals: a headline
    finally:
        await server.stop()
