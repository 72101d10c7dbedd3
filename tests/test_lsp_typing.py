"""End to end, the real server over stdio (fixed-lexicon restorer): while the writer types.
The word being typed is not flagged until a separator follows it; checking and
autocorrect pause and resume on command, and a client that asks is told the state."""

from __future__ import annotations

from pytest_lsp import LanguageClient

from bench.lsp_client import BenchClient
from tests.lsp.client import (
    FAKE_SERVER,
    change_document,
    diagnostics_for,
    initialize,
    open_document,
    raw_client,
    span,
    words,
)


async def type_at_end(client: LanguageClient, uri: str, text: str, typed: str, version: int) -> tuple[str, int]:
    """Type ``typed`` at the end of one-line ``text``, a character per version."""
    for char in typed:
        version += 1
        change_document(client, uri, version, (span(0, len(text), len(text)), char))
        text += char
    return text, version


async def test_the_word_being_typed_is_flagged_once_a_separator_follows_it(client: LanguageClient):
    await initialize(client)
    uri = "file:///typing.txt"
    open_document(client, uri, "")
    text, version = await type_at_end(client, uri, "", "bugun hava cok", 1)
    assert words(await diagnostics_for(client, uri, version)) == ["bugun → bugün"]  # not "cok" yet
    text, version = await type_at_end(client, uri, text, ",", version)
    assert words(await diagnostics_for(client, uri, version)) == ["bugun → bugün", "cok → çok"]
    change_document(client, uri, version + 1, (span(0, 0, 0), "guzel "))  # typed elsewhere: every word shown
    assert words(await diagnostics_for(client, uri, version + 1)) == ["guzel → güzel", "bugun → bugün", "cok → çok"]


async def test_typing_inside_a_word_hides_it_and_a_replacement_is_no_typing(client: LanguageClient):
    await initialize(client)
    uri = "file:///inside.txt"
    open_document(client, uri, "hava bugn cok.")
    change_document(client, uri, 2, (span(0, 8, 8), "u"))  # "bugn" -> "bugun", the cursor in it
    assert words(await diagnostics_for(client, uri, 2)) == ["cok → çok"]
    change_document(client, uri, 3, (span(0, 0, 4), "hava"))  # a word written over (an undo, a fix)
    assert words(await diagnostics_for(client, uri, 3)) == ["bugun → bugün", "cok → çok"]


async def test_with_hide_while_typing_off_the_word_being_typed_is_flagged(client: LanguageClient):
    await initialize(client, {"hideWhileTyping": False})
    uri = "file:///shown.txt"
    open_document(client, uri, "")
    _, version = await type_at_end(client, uri, "", "hava cok", 1)
    assert words(await diagnostics_for(client, uri, version)) == ["cok → çok"]


async def command(server: BenchClient, name: str) -> dict:
    return await server.request("workspace/executeCommand", {"command": name, "arguments": []})


async def test_checking_and_autocorrect_pause_and_resume_with_the_state_notified():
    server = raw_client(FAKE_SERVER)
    await server.start({"debounceMs": 0, "backend": "ngram", "autocorrectThreshold": 0.98})
    uri = "file:///paused.txt"

    def states() -> list[str]:
        return [status["state"] for status in server.statuses]

    try:
        await server.wait_for(lambda: "ready" in states())
        assert (await command(server, "nokta.status"))["state"] == "ready"
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": "cok guzel"}},
        )
        assert len(await server.shown(uri, 1)) == 2

        assert await command(server, "nokta.pause") == {"state": "paused", "model": "ngram", "idle": True}
        await server.wait_for(lambda: states()[-1] == "paused")  # notified once the command has answered
        await server.wait_for(lambda: server.publishes[uri][-1]["diagnostics"] == [])  # cleared
        edit = {"range": {"start": {"line": 0, "character": 9}, "end": {"line": 0, "character": 9}}, "text": " "}
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [edit]})
        corrected = await server.request(
            "textDocument/onTypeFormatting",
            {
                "textDocument": {"uri": uri},
                "position": {"line": 0, "character": 10},
                "ch": " ",
                "options": {"tabSize": 4, "insertSpaces": True},
            },
        )
        hover = await server.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}
        )
        await server.wait_for_idle()
        assert corrected is None and hover is None
        assert all(p.get("version") != 2 for p in server.publishes[uri])  # nothing checked while paused

        assert (await command(server, "nokta.resume"))["state"] == "ready"
        await server.wait_for(lambda: states()[-1] == "ready")  # notified
        assert len(await server.shown(uri, 2)) == 2
    finally:
        await server.stop()
