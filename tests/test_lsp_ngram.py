"""End-to-end with the real count-based backend (skipped when its artifact is not built)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from nokta_model.ngram.artifact import DEFAULT_ARTIFACT
from tests.lsp.client import (
    REAL_SERVER,
    apply_edits,
    change_document,
    client_fixture,
    diagnostics_for,
    initialize,
    open_document,
)

pytestmark = pytest.mark.skipif(
    not DEFAULT_ARTIFACT.exists(), reason="ngram artifact not built (nokta train --backend ngram)"
)


client = client_fixture(REAL_SERVER)


async def test_real_model_restores_turkish_and_leaves_english_alone(client: LanguageClient):
    await initialize(client, {"backend": "ngram"})
    text = "Bugun hava cok guzel, ogrenciler okula gitti.\nThis is the sure thing on the table, as you can see.\n"
    open_document(client, "file:///real.txt", text)
    diagnostics = await diagnostics_for(client, "file:///real.txt", 1, timeout=120)
    assert all(d.range.start.line == 0 for d in diagnostics)
    fixed = apply_edits(text, [types.TextEdit(range=d.range, new_text=d.data["replacement"]) for d in diagnostics])
    assert fixed.splitlines()[0] == "Bugün hava çok güzel, öğrenciler okula gitti."
    assert client.progress_reports and not any("could not load" in m.message for m in client.messages)


async def test_ignore_words_cover_every_form_and_mentions_are_never_flagged(client: LanguageClient):
    await initialize(client, {"backend": "ngram", "ignoreWords": ["Istanbul"]})
    text = "Istanbul'da ve ISTANBUL'DA cok guzel, istanbullular da oyle.\n@Ozlem ve #Istanbul bugun geldi.\n"
    open_document(client, "file:///ignore.txt", text)
    diagnostics = await diagnostics_for(client, "file:///ignore.txt", 1, timeout=120)
    flagged = [
        text.splitlines()[d.range.start.line][d.range.start.character : d.range.end.character] for d in diagnostics
    ]
    assert flagged == ["cok", "guzel", "oyle", "bugun"]


async def test_plaintex_documents_are_checked_as_latex(client: LanguageClient):
    await initialize(client, {"backend": "ngram"})
    open_document(client, "file:///a.tex", "\\textbf{cok guzel} \\cite{ozturk}\n", language_id="plaintex")
    diagnostics = await diagnostics_for(client, "file:///a.tex", 1, timeout=120)
    assert [d.data["replacement"] for d in diagnostics] == ["çok", "güzel"]


async def test_one_fix_leaves_the_other_findings_of_the_line(client: LanguageClient):
    """The fix's Turkish letter is nokta's, not the writer's: the line's evidence stays off."""
    await initialize(client, {"backend": "ngram"})
    uri, text = "file:///one-fix.txt", "Bugun hava cok guzel, Istanbul'da yuruyuse ciktik.\n"
    open_document(client, uri, text)
    before = await diagnostics_for(client, uri, 1, timeout=120)
    flagged = [text[d.range.start.character : d.range.end.character] for d in before]
    assert flagged == ["Bugun", "cok", "guzel", "Istanbul'da", "yuruyuse", "ciktik"]
    fix = before[0]
    change_document(client, uri, 2, (fix.range, fix.data["replacement"]))  # the client applies the fix
    after = await diagnostics_for(client, uri, 2)
    fixed = apply_edits(text, [types.TextEdit(range=fix.range, new_text=fix.data["replacement"])])
    assert [fixed[d.range.start.character : d.range.end.character] for d in after] == flagged[1:]
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="nokta.restoreDocument", arguments=[{"uri": uri}])
    )
    assert result is not False
    edit = client.applied_edits[-1].changes[uri]
    assert apply_edits(fixed, edit) == "Bugün hava çok güzel, İstanbul'da yürüyüşe çıktık.\n"


async def test_a_fix_sent_back_as_only_its_changed_letter_still_counts_as_nokta_s(client: LanguageClient):
    """Neovim reports an applied fix as the letters that differ (`u` -> `ü`), not the word."""
    await initialize(client, {"backend": "ngram"})
    uri, text = "file:///letter.txt", "Bugun hava cok guzel, Istanbul'da yuruyuse ciktik.\n"
    open_document(client, uri, text)
    before = await diagnostics_for(client, uri, 1, timeout=120)
    assert text[before[0].range.start.character : before[0].range.end.character] == "Bugun"
    letter = types.Range(start=types.Position(line=0, character=3), end=types.Position(line=0, character=4))
    change_document(client, uri, 2, (letter, "ü"))
    after = await diagnostics_for(client, uri, 2)
    assert len(after) == len(before) - 1  # only Bugün's finding went
