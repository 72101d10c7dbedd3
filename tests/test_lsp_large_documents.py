"""End-to-end, the real server over stdio (with the fixed-lexicon restorer): documents with
more findings than ``maxDiagnostics`` publish that many, nearest the writer; a document typed
without Turkish letters gets one diagnostic whose fix restores it; nothing is sent again
when what is published did not change."""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import (
    FAKE_SERVER,
    apply_edits,
    change_document,
    diagnostics_for,
    initialize,
    open_document,
    raw_client,
    shown_once_analysed,
    span,
    wait_until,
)

#: 30 lines: the even ones typed in ASCII (2 findings each), the odd ones with Turkish
#: letters (4 words typed with one): 30 findings of 90 words that need a Turkish letter.
MIXED = "\n".join("cok guzel" if row % 2 == 0 else "Bugün hava çok güzel ve güzel" for row in range(30))
#: 60 lines typed in ASCII: 180 findings, no word typed with a Turkish letter.
ASCII = "\n".join(["Bugun hava cok guzel."] * 60)


def places(diagnostics: list[types.Diagnostic]) -> list[tuple[int, int]]:
    return [(d.range.start.line, d.range.start.character) for d in diagnostics]


async def pushed_when(
    client: LanguageClient, uri: str, wanted: Callable[[list[types.Diagnostic]], bool], timeout: float = 20.0
) -> list[types.Diagnostic]:
    """Wait until the diagnostics last pushed for ``uri`` are ``wanted``."""
    await wait_until(
        client, lambda: uri in client.published and wanted(list(client.published[uri].diagnostics)), timeout
    )
    return list(client.published[uri].diagnostics)


async def show(client: LanguageClient, uri: str, first: int, last: int) -> None:
    """What an editor does as it scrolls: ask for the inlay hints of the lines it shows."""
    lines = types.Range(start=types.Position(line=first, character=0), end=types.Position(line=last, character=0))
    await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=lines)
    )


async def pull(client: LanguageClient, uri: str, previous: str | None = None) -> types.DocumentDiagnosticReport:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)
    )


async def test_a_document_over_the_cap_publishes_the_cap_nearest_the_last_edit_then_the_lines_shown(
    client: LanguageClient,
):
    await initialize(client, {"maxDiagnostics": 3})
    uri = "file:///mixed.txt"
    open_document(client, uri, MIXED)
    assert places(await diagnostics_for(client, uri, 1)) == [(0, 0), (0, 4), (2, 0)]  # the top first
    change_document(client, uri, 2, (span(20, 0, 9), "guzel cok"))
    # line 20's two, then the nearest: lines 18 and 22 are as near, the one above first
    assert places(await diagnostics_for(client, uri, 2)) == [(18, 0), (20, 0), (20, 6)]
    await show(client, uri, 4, 8)  # scrolled away from the edit: the lines shown, from their middle
    assert places(await pushed_when(client, uri, lambda shown: shown[0].range.start.line != 18)) == [
        (4, 0),
        (6, 0),
        (6, 4),
    ]


async def test_a_document_typed_without_turkish_letters_gets_one_diagnostic_whose_fix_restores_it():
    server = raw_client(FAKE_SERVER)  # the code action as JSON: lsprotocol reads one with a command as a Command
    try:
        await server.start({"debounceMs": 0})  # maxDiagnostics 100 by default
        uri = "file:///ascii.txt"
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": ASCII}},
        )
        (diagnostic,) = await server.shown(uri, 1)
        assert diagnostic["message"] == "This document looks typed without Turkish letters: 180 words to restore"
        assert diagnostic["code"] == "typed-without-turkish-letters" and diagnostic["source"] == "nokta"
        assert diagnostic["severity"] == types.DiagnosticSeverity.Information
        assert diagnostic["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 21}}

        cursor = {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 3}}
        actions = await server.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": cursor, "context": {"diagnostics": [diagnostic]}},
        )
        (fix,) = [action for action in actions if action.get("diagnostics") == [diagnostic]]
        assert fix["isPreferred"] and fix["kind"] == "quickfix" and "edit" not in fix
        assert fix["command"]["command"] == "nokta.restoreDocument" and fix["command"]["arguments"] == [{"uri": uri}]

        command = {key: fix["command"][key] for key in ("command", "arguments")}
        assert await server.request("workspace/executeCommand", command) is True
        (edit,) = server.applied
        assert apply_edits(ASCII, text_edits(edit["changes"][uri])) == "\n".join(["Bugün hava çok güzel."] * 60)
    finally:
        await server.stop()


def text_edits(edits: list[dict]) -> list[types.TextEdit]:
    """JSON text edits (each on one line) as ``types.TextEdit``s."""
    return [
        types.TextEdit(
            range=span(e["range"]["start"]["line"], e["range"]["start"]["character"], e["range"]["end"]["character"]),
            new_text=e["newText"],
        )
        for e in edits
    ]


async def test_a_pull_answers_unchanged_and_nothing_is_pushed_when_what_is_published_did_not_change(
    client: LanguageClient,
):
    await initialize(client, pull=True)
    uri = "file:///pulled.txt"
    open_document(client, uri, ASCII)
    first = await pull(client, uri)
    assert first.kind == "full" and [d.code for d in first.items] == ["typed-without-turkish-letters"]
    change_document(client, uri, 2, (span(59, 21, 21), "\nhava"))  # a word with nothing to restore
    again = await pull(client, uri, first.result_id)
    assert again.kind == "unchanged" and again.result_id == first.result_id
    change_document(client, uri, 3, (span(59, 21, 21), "\ncok"))
    changed = await pull(client, uri, first.result_id)
    assert changed.kind == "full" and "181 words" in changed.items[0].message


async def test_a_push_is_not_sent_again_for_the_same_diagnostics(client: LanguageClient):
    await initialize(client)
    uri = "file:///pushed.txt"
    open_document(client, uri, ASCII)
    await diagnostics_for(client, uri, 1)
    pushes = len(client.publish_log)
    change_document(client, uri, 2, (span(59, 21, 21), "\nhava"))
    assert (await shown_once_analysed(client, uri))[0].message.endswith(": 180 words to restore")
    assert len(client.publish_log) == pushes and client.published[uri].version == 1


async def test_max_diagnostics_changed_by_did_change_configuration_takes_effect(client: LanguageClient):
    await initialize(client, {"maxDiagnostics": 3})
    uri = "file:///setting.txt"
    open_document(client, uri, MIXED)
    assert len(await diagnostics_for(client, uri, 1)) == 3
    client.set_configuration({"debounceMs": 0, "maxDiagnostics": 10}, section="nokta")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert len(await pushed_when(client, uri, lambda shown: len(shown) != 3)) == 10

    open_document(client, "file:///ascii.txt", ASCII)
    assert len(await diagnostics_for(client, "file:///ascii.txt", 1)) == 1  # 180 findings, over the cap
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"nokta": {"debounceMs": 0, "maxDiagnostics": 500}})
    )
    assert len(await pushed_when(client, "file:///ascii.txt", lambda shown: len(shown) != 1)) == 180
