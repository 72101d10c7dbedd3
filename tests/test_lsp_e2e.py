"""End-to-end: the real server over stdio (with a fixed-lexicon restorer), as an editor drives it."""

from __future__ import annotations

import pytest
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
    wait_for_idle,
    wait_until,
    words,
)


async def fix_all_on_save(client: LanguageClient, uri: str) -> list:
    """The code actions an editor asks for on save (``source.fixAll``)."""
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=span(0, 0, 0),
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
        )
    )


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

    restore_all = [a for a in actions if a.title.startswith("Restore all")]
    assert len(restore_all) == 1 and restore_all[0].kind == types.CodeActionKind.QuickFix
    on_save = await fix_all_on_save(client, "file:///a.txt")
    assert [a.kind for a in on_save] == ["source.fixAll.nokta"]
    assert apply_edits(text, on_save[0].edit.changes["file:///a.txt"]) == "Bugün hava çok güzel.\nİkinci satır doğru."


async def test_fix_all_on_save_waits_for_the_word_just_typed(client: LanguageClient):
    """Saved before the debounce ran: the fix covers the edit, not the last analysis."""
    await initialize(client, {"debounceMs": 60_000})
    open_document(client, "file:///save.txt", "Bugun hava.")
    change_document(client, "file:///save.txt", 2, (None, "Bugun hava cok guzel."))
    on_save = await fix_all_on_save(client, "file:///save.txt")
    assert [a.kind for a in on_save] == ["source.fixAll.nokta"]
    assert apply_edits("Bugun hava cok guzel.", on_save[0].edit.changes["file:///save.txt"]) == "Bugün hava çok güzel."


async def test_code_actions_follow_the_cursor_not_the_line(client: LanguageClient):
    """Neovim sends every diagnostic of the line; only the word under the cursor gets fixes."""
    await initialize(client)
    open_document(client, "file:///cursor.txt", "Bugun hava cok guzel.")
    diagnostics = await diagnostics_for(client, "file:///cursor.txt", 1)
    cursor = types.Range(start=types.Position(line=0, character=2), end=types.Position(line=0, character=2))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri="file:///cursor.txt"),
            range=cursor,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    titles = [a.title for a in actions]
    assert len(titles) == len(set(titles))
    changes = [a for a in actions if isinstance(a, types.CodeAction) and a.title.startswith("Change")]
    assert [a.title for a in changes] == ["Change to 'Bugün'"] and changes[0].is_preferred
    assert sum(t.startswith("Restore all") for t in titles) == 1
    assert not any("selection" in t for t in titles)


async def test_incremental_edits_update_diagnostics(client: LanguageClient):
    await initialize(client, {"hideWhileTyping": False})  # the word an edit ends in is shown too
    open_document(client, "file:///b.txt", "hava guzel\nikinci satir\n")
    assert words(await diagnostics_for(client, "file:///b.txt", 1)) == ["guzel → güzel"]
    change_document(client, "file:///b.txt", 2, (span(1, 0, 6), "cok"))
    diagnostics = await diagnostics_for(client, "file:///b.txt", 2)
    assert words(diagnostics) == ["guzel → güzel", "cok → çok"]
    assert diagnostics[1].range == span(1, 0, 3)
    change_document(
        client,
        "file:///b.txt",
        3,
        (types.Range(start=types.Position(line=0, character=0), end=types.Position(line=1, character=0)), ""),
    )
    diagnostics = await diagnostics_for(client, "file:///b.txt", 3)
    assert words(diagnostics) == ["cok → çok"] and diagnostics[0].range == span(0, 0, 3)


async def test_a_spelling_counts_as_noktas_own_while_a_finding_offers_it(client: LanguageClient):
    """A fix written is nokta's (its line still reads as typed in ASCII); once no finding
    offers a spelling any more, the writer typing it is the writer's evidence."""
    await initialize(client, {"confidenceThreshold": 0.9, "strictConfidenceThreshold": 0.999})
    uri = "file:///own.txt"
    open_document(client, uri, "cok guzel\nBugun hava")
    assert words(await diagnostics_for(client, uri, 1)) == ["cok → çok", "guzel → güzel", "Bugun → Bugün"]
    change_document(client, uri, 2, (span(0, 0, 3), "çok"))  # the fix offered
    assert words(await diagnostics_for(client, uri, 2)) == ["guzel → güzel", "Bugun → Bugün"]
    change_document(client, uri, 3, (span(1, 0, 10), "hava"))  # Bugün no longer offered
    assert words(await diagnostics_for(client, uri, 3)) == ["guzel → güzel"]
    change_document(client, uri, 4, (span(1, 0, 4), "Bugün guzel"))  # typed so: strict on that line
    shown = await shown_once_analysed(client, uri)  # as before: not pushed again
    assert words(shown) == ["guzel → güzel"] and [d.range.start.line for d in shown] == [0]


@pytest.mark.parametrize("encoding, start", [("utf-16", 5), ("utf-8", 7), ("utf-32", 4)])
async def test_position_encodings_give_exact_ranges_after_emoji(client: LanguageClient, encoding: str, start: int):
    result = await initialize(client, encodings=[encoding])
    assert result.capabilities.position_encoding == encoding
    open_document(client, "file:///e.txt", "a😀 b cok")
    # "a😀 b " is 5 code points: 6 UTF-16 units, 8 UTF-8 bytes; "cok" starts after it
    diagnostics = await diagnostics_for(client, "file:///e.txt", 1)
    assert [d.range for d in diagnostics] == [span(0, start + 1, start + 4)]


async def test_configuration_change_takes_effect(client: LanguageClient):
    await initialize(client)
    open_document(client, "file:///c.txt", "aci cok")
    assert words(await diagnostics_for(client, "file:///c.txt", 1)) == ["cok → çok"]
    await reconfigure(client, {"debounceMs": 0, "ambiguous": "hint", "severity": "warning"})
    diagnostics = list(client.published["file:///c.txt"].diagnostics)
    assert [(d.message, d.severity) for d in diagnostics] == [
        ("aci: acı or açı?", types.DiagnosticSeverity.Hint),
        ("cok → çok", types.DiagnosticSeverity.Warning),
    ]


async def test_ignore_word_command_writes_dictionary_and_diagnostic_disappears(client: LanguageClient, tmp_path):
    await initialize(client, root=tmp_path)
    uri = (tmp_path / "d.txt").as_uri()
    open_document(client, uri, "cok guzel")
    assert len(await diagnostics_for(client, uri, 1)) == 2
    where = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="nokta.addToDictionary", arguments=[{"uri": uri, "word": "cok", "scope": "workspace"}]
        )
    )
    assert (tmp_path / ".nokta-words.txt").read_text(encoding="utf-8") == "cok\n"
    assert where == str(tmp_path / ".nokta-words.txt")
    await wait_for_idle(client)
    assert words(client.published[uri].diagnostics) == ["guzel → güzel"]


async def test_restore_document_command_applies_edit(client: LanguageClient):
    await initialize(client)
    text = "Bugun cok guzel 😀 ve cok"
    open_document(client, "file:///r.txt", text)
    await diagnostics_for(client, "file:///r.txt", 1)
    applied = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="nokta.restoreDocument", arguments=[{"uri": "file:///r.txt"}])
    )
    assert applied is True
    edit = client.applied_edits[-1]
    assert apply_edits(text, edit.changes["file:///r.txt"]) == "Bugün çok güzel 😀 ve çok"


async def test_restore_right_after_an_edit_restores_the_edit_too(client: LanguageClient):
    await initialize(client, {"debounceMs": 200})
    open_document(client, "file:///q.txt", "cok guzel")
    await diagnostics_for(client, "file:///q.txt", 1)
    change_document(client, "file:///q.txt", 2, (span(0, 9, 9), " bugun"))
    applied = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="nokta.restoreDocument", arguments=[{"uri": "file:///q.txt"}])
    )
    assert applied is True
    assert apply_edits("cok guzel bugun", client.applied_edits[-1].changes["file:///q.txt"]) == "çok güzel bugün"


async def test_pull_diagnostics_without_publishing(client: LanguageClient):
    result = await initialize(client, pull=True)
    assert result.capabilities.diagnostic_provider is not None
    open_document(client, "file:///p.txt", "cok guzel")
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri="file:///p.txt"))
    )
    assert [d.message for d in report.items] == ["cok → çok", "guzel → güzel"]
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri="file:///p.txt"), previous_result_id=report.result_id
        )
    )
    assert again.kind == "unchanged" and again.result_id == report.result_id
    change_document(client, "file:///p.txt", 2, (span(0, 0, 3), "hava"))
    changed = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri="file:///p.txt"), previous_result_id=report.result_id
        )
    )
    assert [d.message for d in changed.items] == ["guzel → güzel"]
    assert "file:///p.txt" not in client.published


async def test_hover_shows_suggestion_and_alternatives(client: LanguageClient):
    await initialize(client)
    open_document(client, "file:///h.txt", "cok")
    await diagnostics_for(client, "file:///h.txt", 1)
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri="file:///h.txt"),
            position=types.Position(line=0, character=1),
        )
    )
    assert "**çok**" in hover.contents.value and "99%" in hover.contents.value


async def test_markdown_code_and_english_are_not_flagged(client: LanguageClient):
    await initialize(client)
    text = "# Baslik\n\nBugun `cok` [link](http://x/cok).\n\n```\ncok\n```\n\nThis is the sure thing on the table.\n"
    open_document(client, "file:///m.md", text, language_id="markdown")
    assert words(await diagnostics_for(client, "file:///m.md", 1)) == ["Bugun → Bugün"]


async def test_code_files_only_with_check_code_comments(client: LanguageClient):
    await initialize(client)
    source = 'cok = 1  # cok guzel\nprint("cok")\n'
    open_document(client, "file:///x.py", source, language_id="python")
    assert await diagnostics_for(client, "file:///x.py", 1) == []
    await reconfigure(client, {"debounceMs": 0, "checkCodeComments": True})
    assert [(d.message, d.range.start.character) for d in client.published["file:///x.py"].diagnostics] == [
        ("cok → çok", 11),
        ("guzel → güzel", 15),
        ("cok → çok", 7),
    ]


async def test_model_that_fails_falls_back_with_a_message(client: LanguageClient):
    await initialize(client, {"modelPath": "broken"})
    open_document(client, "file:///f.txt", "cok")
    assert words(await diagnostics_for(client, "file:///f.txt", 1)) == ["cok → çok"]

    def warned() -> bool:
        return any("could not load" in m.message and "ngram" in m.message for m in client.messages)

    await wait_until(client, warned)  # the stand-in model may publish before the configured one has failed
    assert any(token.startswith("nokta-load") for token in client.progress_reports)


async def test_invalid_settings_fall_back_to_defaults_with_a_warning(client: LanguageClient):
    await initialize(client, {"severity": "loud", "debounceMs": -5})
    open_document(client, "file:///s.txt", "cok")
    diagnostics = await diagnostics_for(client, "file:///s.txt", 1)
    assert diagnostics[0].severity == types.DiagnosticSeverity.Information
    # initializationOptions, workspace/configuration and didChangeConfiguration carry the
    # same settings: each warning is shown once
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    open_document(client, "file:///t.txt", "cok")
    await diagnostics_for(client, "file:///t.txt", 1)
    shown = [m.message for m in client.messages if "nokta.severity" in m.message]
    assert len(shown) == 1


async def test_a_long_document_is_published_top_first_with_progress(client: LanguageClient):
    await initialize(client)
    uri = "file:///long.txt"
    open_document(client, uri, "\n".join("cok" if n % 1000 == 0 else "hava" for n in range(10_000)))

    def checking() -> list[list]:
        return [values for token, values in client.progress_reports.items() if str(token).startswith("nokta-check")]

    await wait_for_idle(client)  # analysed to the end: every part published
    published = [p for p in client.publish_log if p.uri == uri and p.version == 1]
    first, last = published[0].diagnostics, published[-1].diagnostics
    assert [d.range.start.line for d in last] == list(range(0, 10_000, 1000))
    assert 0 < len(first) < len(last)  # the top, before the rest
    assert checking()[0][0].title == "Checking with nokta" and checking()[0][-1].kind == "end"
