"""The language server under a configuration file and in-file directives: the real server
process (with the fixed-lexicon restorer), driven as an editor drives it."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import (
    diagnostics_for,
    initialize,
    open_document,
    shown,
    span,
    wait_until,
    words,
    write,
)
from tests.lsp.fake_restorer import TEXT


async def autocorrected(client: LanguageClient, uri: str, line: int, column: int) -> list[types.TextEdit] | None:
    return await client.text_document_on_type_formatting_async(
        types.DocumentOnTypeFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=column),
            ch=" ",
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )


# --- the configuration file -------------------------------------------------------------------


async def test_the_documents_configuration_applies(client: LanguageClient, tmp_path: Path):
    write(
        tmp_path / ".nokta.toml",
        'words = ["bugun"]\nignore-regex = [\'SKU-\\w+\']\nconfidence-threshold = 0.995\nexclude = ["drafts/"]\n',
    )
    await initialize(client, root=tmp_path)
    uri = (tmp_path / "a.txt").as_uri()
    open_document(client, uri, TEXT + " SKU-guzel")
    assert words(await diagnostics_for(client, uri, 1)) == ["guzel → güzel"]  # cok: 0.99 < 0.995
    draft = (tmp_path / "drafts" / "d.txt").as_uri()
    open_document(client, draft, TEXT)
    assert await diagnostics_for(client, draft, 1) == []
    outside = "untitled:Untitled-1"  # no file, no configuration
    open_document(client, outside, TEXT)
    assert words(await diagnostics_for(client, outside, 1)) == ["bugun → bugün", "cok → çok", "guzel → güzel"]


async def test_a_setting_the_user_set_wins_until_it_is_unset(client: LanguageClient, tmp_path: Path):
    write(tmp_path / "pyproject.toml", "[tool.nokta]\nconfidence-threshold = 0.995\n")
    await initialize(client, {"confidenceThreshold": 0.99}, root=tmp_path)
    uri = (tmp_path / "a.txt").as_uri()
    open_document(client, uri, TEXT)
    assert words(await diagnostics_for(client, uri, 1)) == ["bugun → bugün", "cok → çok", "guzel → güzel"]
    client.set_configuration({"debounceMs": 0, "confidenceThreshold": None}, section="nokta")  # as VS Code unsets
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(client, lambda: shown(client, uri) == ["guzel → güzel"])


async def test_the_configurations_autocorrect_keys(client: LanguageClient, tmp_path: Path):
    write(tmp_path / "off" / "nokta.toml", "autocorrect = []\n")
    write(tmp_path / "sure" / "nokta.toml", "autocorrect-threshold = 0.992\n")
    write(tmp_path / "eager" / "nokta.toml", "autocorrect-threshold = 0.98\n")
    await initialize(client, {"backend": "ngram"}, root=tmp_path)
    found = {}
    for folder in ("off", "sure", "eager", "."):
        uri = (tmp_path / folder / "a.txt").as_uri()
        open_document(client, uri, "cok guzel ")
        await diagnostics_for(client, uri, 1)
        edits = await autocorrected(client, uri, 0, 10) or []
        found[folder] = [edit.new_text for edit in edits]
    # cok 0.99, guzel 0.995; the default autocorrectThreshold is 0.9
    assert found == {"off": [], "sure": ["güzel"], "eager": ["çok", "güzel"], ".": ["çok", "güzel"]}


async def test_an_invalid_configuration_is_shown_once_and_not_used(client: LanguageClient, tmp_path: Path):
    config = write(tmp_path / ".nokta.toml", 'words = ["cok"]\nignore-regexp = ["x"]\n')
    await initialize(client, root=tmp_path)
    for name in ("a.txt", "b.txt"):
        uri = (tmp_path / name).as_uri()
        open_document(client, uri, TEXT)
        assert words(await diagnostics_for(client, uri, 1)) == ["bugun → bugün", "cok → çok", "guzel → güzel"]
    warnings = [m.message for m in client.messages if "ignore-regexp" in m.message]
    assert warnings == [
        f"nokta: {config}:2: unknown key 'ignore-regexp'; did you mean 'ignore-regex'? "
        "(the file is not used until it is fixed)"
    ]


# --- directives -------------------------------------------------------------------------------

#: One document per comment form; in each, only row 0 and "Yasar cok"'s cok are left to flag.
DOCUMENTS = {
    "plaintext": (
        "a.txt",
        "cok guzel\nnokta: disable\ncok guzel\nnokta: enable\nnokta: disable-next-line\ncok guzel\n"
        "Yasar cok\nnokta: ignore Yasar guzel\n",
    ),
    "markdown": (
        "a.md",
        "cok guzel\n<!-- nokta: disable -->\ncok guzel\n<!-- nokta: enable -->\n<!-- nokta: disable-next-line -->\n"
        "cok guzel\nYasar cok\n<!-- nokta: ignore Yasar guzel -->\n",
    ),
    "python": (
        "a.py",
        "x = 1  # cok guzel\n# nokta: disable\ny = 2  # cok guzel\n# nokta: enable\n# nokta: disable-next-line\n"
        "z = 3  # cok guzel\nw = 4  # Yasar cok\n# nokta: ignore Yasar guzel\n",
    ),
}


async def test_directives_in_each_comment_form(client: LanguageClient, tmp_path: Path):
    await initialize(client, {"checkCodeComments": True}, root=tmp_path)
    for language, (name, text) in DOCUMENTS.items():
        uri = (tmp_path / name).as_uri()
        open_document(client, uri, text, language_id=language)
        diagnostics = await diagnostics_for(client, uri, 1)
        assert [(d.range.start.line, d.message) for d in diagnostics] == [(0, "cok → çok"), (6, "cok → çok")], name
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=span(0, 0, 0),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        (restore_all,) = [a for a in actions if a.title.startswith("Restore all")]
        assert restore_all.edit is not None and restore_all.edit.changes is not None
        assert [(e.range.start.line, e.new_text) for e in restore_all.edit.changes[uri]] == [(0, "çok"), (6, "çok")]
        before = len(client.applied_edits)
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="nokta.restoreDocument", arguments=[{"uri": uri}])
        )
        (edit,) = client.applied_edits[before:]
        assert [(e.range.start.line, e.new_text) for e in edit.changes[uri]] == [(0, "çok"), (6, "çok")]


async def test_a_directive_typed_in_takes_effect_and_autocorrect_honours_it(client: LanguageClient, tmp_path: Path):
    await initialize(client, {"backend": "ngram", "autocorrectThreshold": 0.98}, root=tmp_path)
    uri = (tmp_path / "a.md").as_uri()
    open_document(client, uri, "guzel\n\ncok guzel ", language_id="markdown")
    assert words(await diagnostics_for(client, uri, 1)) == ["guzel → güzel", "cok → çok", "guzel → güzel"]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(range=span(1, 0, 0), text="<!-- nokta: ignore guzel -->")
            ],
        )
    )
    assert words(await diagnostics_for(client, uri, 2)) == ["cok → çok"]  # the whole file, above the directive too
    edits = await autocorrected(client, uri, 2, 10)
    assert [edit.new_text for edit in edits or []] == ["çok"]  # not güzel
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[
                types.TextDocumentContentChangePartial(range=span(1, 0, 28), text="<!-- nokta: disable -->")
            ],
        )
    )
    # the ignore directive is gone: line 0 is flagged again; the rest is disabled, for autocorrect too
    assert words(await diagnostics_for(client, uri, 3)) == ["guzel → güzel"]
    assert not await autocorrected(client, uri, 2, 10)
