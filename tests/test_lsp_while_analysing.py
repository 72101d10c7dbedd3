"""End to end, the real server over stdio (fixed-lexicon restorer): what answers while an
analysis runs or the model loads. Hover and code actions answer from the last analysis,
carried over to the text as it is now; words typed while the model loads are corrected
by the first trigger once it is ready."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from nokta_lsp.analysis.edits import carry_findings
from nokta_model.check.findings import Finding
from tests.lsp.client import (
    FAKE_SERVER,
    apply_edits,
    change_document,
    diagnostics_for,
    initialize,
    open_document,
    raw_client,
    span,
)
from tests.lsp.editors import Typist


def finding(line: int, start: int, word: str) -> Finding:
    return Finding(line, start, start + len(word), word, word.upper(), 0.99, (), True)


def test_findings_are_carried_to_the_lines_an_edit_moved_and_the_words_it_left():
    old = ["cok guzel", "hava", "bugun"]
    found = [(finding(0, 0, "cok"), finding(0, 4, "guzel")), (), (finding(2, 0, "bugun"),)]
    new = ["yeni", "x cok guzelx", "hava", "bugun"]  # a line added above, "cok" moved, "guzel" edited
    carried = carry_findings(old, found, new, 0, 3)
    assert [(f.line, f.start, f.original) for f in carried] == [(1, 2, "cok"), (3, 0, "bugun")]
    assert carry_findings(old, found, new, 3, 3) == [finding(3, 0, "bugun")]
    broken = ["cok", " guzel", "hava", "bugun"]  # a line break typed after "cok"
    assert [(f.line, f.start) for f in carry_findings(old, found, broken, 0, 3)] == [(0, 0), (1, 1), (3, 0)]
    assert carry_findings(["cok cok"], [(finding(0, 0, "cok"), finding(0, 4, "cok"))], ["cok"], 0, 0) == [
        finding(0, 0, "cok")  # both words were "cok": one finding where one is left
    ]
    assert carry_findings(old, [], new, 0, 3) == []  # a document not checked has no findings


async def test_hover_and_code_actions_answer_from_the_last_analysis_while_a_new_one_runs(client: LanguageClient):
    await initialize(client)
    uri = "file:///busy.txt"
    open_document(client, uri, "cok guzel\nhava")
    assert len(await diagnostics_for(client, uri, 1)) == 2
    # a line above that keeps the restorer busy for seconds ("yavas"): every line moves down
    change_document(client, uri, 2, (span(0, 0, 0), "yavas\n"))
    text = "yavas\ncok guzel\nhava"
    document = types.TextDocumentIdentifier(uri=uri)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=document, position=types.Position(line=1, character=5))
    )
    assert hover is not None and hover.contents.value.startswith("**güzel**")
    on_cok = types.Range(start=types.Position(line=1, character=1), end=types.Position(line=1, character=1))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=document, range=on_cok, context=types.CodeActionContext(diagnostics=[]))
    )
    [restore_all] = [a for a in actions if a.title.startswith("Restore all")]
    assert apply_edits(text, restore_all.edit.changes[uri]) == "yavas\nçok güzel\nhava"
    assert client.published[uri].version == 1  # all answered before the new analysis was published
    assert len(await diagnostics_for(client, uri, 2, timeout=30)) == 2


async def test_words_typed_while_the_model_loads_are_corrected_by_the_next_trigger_once_it_is_ready():
    server = raw_client(FAKE_SERVER)
    options = {"debounceMs": 0, "autocorrectThreshold": 0.98, "modelPath": "slow"}  # seconds to load
    await server.start(options, experimental={"noktaStatus": True})

    def states() -> list[str]:
        return [status["state"] for status in server.notified.get("nokta/status", [])]

    try:
        editor = Typist(server, "file:///early.txt", "", "utf-16")
        await editor.type("Bugun hava cok\nguzel ")
        assert editor.text == "Bugun hava cok\nguzel " and states() == ["loading"]
        await server.wait_for(lambda: "ready" in states(), timeout=30)
        await editor.type("ogrenci ")  # every word of the paragraph before the cursor
        assert editor.text == "Bugün hava çok\ngüzel öğrenci "
        await editor.type("\n\ncok ")  # and then as usual: the words just finished
        assert editor.text.endswith("öğrenci \n\nçok ")
    finally:
        await server.stop()
