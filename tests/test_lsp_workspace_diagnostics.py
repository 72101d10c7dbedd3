"""End to end, the real server over stdio (fixed-lexicon restorer): workspace diagnostics.
The files not open, without what git ignores, the configuration excludes or the limits
leave out; "unchanged" for a file that did not change; open documents from their live
analysis; the command that publishes them; edits first."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import FAKE_SERVER, initialize, open_document, raw_client, reconfigure, words
from tests.lsp.fake_restorer import SLOW_BATCH


def tree(root: Path) -> Path:
    files = {
        "a.md": "# Baslik\n\ncok guzel\n",
        "b.txt": "hava\n",
        "sub/c.md": "bugun\n",
        "sub/.gitignore": "secret.md\n",
        "sub/secret.md": "cok\n",
        ".gitignore": "build/\n*.tmp.md\n",
        "build/out.md": "cok\n",
        "notes.tmp.md": "cok\n",
        ".git/x.md": "cok\n",
        "drafts/d.md": "cok\n",
        ".nokta.toml": 'exclude = ["drafts/"]\nwords = ["bugun"]\n',
        "code.py": "# cok guzel\n",  # a code file: only with checkCodeComments
        "data.csv": "cok\n",  # a type nokta does not know
        "big.md": "cok " * 300,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


async def pull(
    client: LanguageClient, previous: dict[str, str] | None = None
) -> dict[str, types.WorkspaceDocumentDiagnosticReport]:
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(
            previous_result_ids=[
                types.PreviousResultId(uri=uri, value=value) for uri, value in (previous or {}).items()
            ]
        )
    )
    return {item.uri: item for item in report.items}


def names(root: Path, items: dict) -> dict[str, list[str] | str]:
    """File name -> its diagnostics' messages, or "unchanged"."""
    shown = {}
    for uri, item in items.items():
        name = Path(uri.removeprefix("file://")).relative_to(root).as_posix()
        shown[name] = "unchanged" if item.kind == "unchanged" else words(item.items)
    return shown


async def test_the_files_not_open_are_reported_and_unchanged_when_they_did_not_change(client: LanguageClient, tmp_path):
    root = tree(tmp_path)
    result = await initialize(client, {"workspaceMaxFileSize": 1000}, root=root, pull=True)
    assert result.capabilities.diagnostic_provider.workspace_diagnostics is True
    first = await pull(client)
    # not: ignored by git (build/, *.tmp.md, sub/secret.md, .git), excluded (drafts/), too big,
    # a code file, a type nokta does not know; "bugun" is a word of the configuration
    assert names(root, first) == {"a.md": ["cok → çok", "guzel → güzel"], "b.txt": [], "sub/c.md": []}
    ids = {uri: item.result_id for uri, item in first.items()}
    assert names(root, await pull(client, ids)) == {"a.md": "unchanged", "b.txt": "unchanged", "sub/c.md": "unchanged"}

    (root / "b.txt").write_text("cok\n", encoding="utf-8")
    os.utime(root / "b.txt", ns=(time.time_ns(), time.time_ns() + 10**9))  # a new modification time
    (root / "sub" / "c.md").unlink()
    again = await pull(client, ids)
    assert names(root, again) == {"a.md": "unchanged", "b.txt": ["cok → çok"], "sub/c.md": []}
    assert again[(root / "sub" / "c.md").as_uri()].kind == "full"  # deleted: its diagnostics go

    open_document(client, (root / "a.md").as_uri(), "cok\n", language_id="markdown", version=3)
    document = types.TextDocumentIdentifier(uri=(root / "a.md").as_uri())
    await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=document))
    live = (await pull(client))[(root / "a.md").as_uri()]
    assert live.version == 3 and words(live.items) == ["cok → çok"]  # the open document's live analysis


async def test_the_limits_and_checking_code_comments(client: LanguageClient, tmp_path):
    root = tree(tmp_path)
    await initialize(client, {"workspaceMaxFiles": 2}, root=root, pull=True)
    assert names(root, await pull(client)) == {"a.md": ["cok → çok", "guzel → güzel"], "b.txt": []}
    await reconfigure(client, {"debounceMs": 0, "workspaceMaxFiles": 10, "checkCodeComments": True})
    checked = names(root, await pull(client))  # the configuration file is a code file too
    assert checked.keys() == {".nokta.toml", "a.md", "b.txt", "big.md", "code.py", "sub/c.md"}
    assert checked["code.py"] == ["cok → çok", "guzel → güzel"]
    # over maxDiagnostics (100) and typed without Turkish letters: one diagnostic, as for an open document
    assert checked["big.md"] == ["This document looks typed without Turkish letters: 300 words to restore"]
    await reconfigure(client, {"debounceMs": 0, "workspaceDiagnostics": False})
    assert not await pull(client)


async def test_a_file_not_open_reports_at_most_max_diagnostics_from_its_top(client: LanguageClient, tmp_path):
    turkish = "Çok güzel, şöyle böyle bir öğle ılık.\n" * 20  # typed with Turkish letters
    (tmp_path / "mixed.md").write_text(turkish + "cok guzel\nguzel cok\nbugun\n", encoding="utf-8")
    (tmp_path / "short.md").write_text("cok guzel\n", encoding="utf-8")
    await initialize(client, {"maxDiagnostics": 3}, root=tmp_path, pull=True)
    shown = names(tmp_path, await pull(client))
    assert shown == {
        "mixed.md": ["cok → çok", "guzel → güzel", "guzel → güzel"],
        "short.md": ["cok → çok", "guzel → güzel"],
    }


async def test_the_command_publishes_the_workspace_for_a_client_that_does_not_pull(client: LanguageClient, tmp_path):
    root = tree(tmp_path)
    await initialize(client, {"workspaceMaxFileSize": 1000}, root=root)
    counts = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="nokta.checkWorkspace", arguments=[])
    )
    assert counts == {"files": 3, "filesWithFindings": 1, "findings": 2}
    published = client.published[(root / "a.md").as_uri()]
    assert published.version is None and words(published.diagnostics) == ["cok → çok", "guzel → güzel"]
    assert (root / "b.txt").as_uri() not in client.published  # nothing to show, nothing sent
    (root / "a.md").write_text("hava\n", encoding="utf-8")
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="nokta.checkWorkspace"))
    assert not client.published[(root / "a.md").as_uri()].diagnostics  # fixed on disk: cleared
    (root / "b.txt").write_text("cok\n", encoding="utf-8")
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="nokta.checkWorkspace"))
    assert words(client.published[(root / "b.txt").as_uri()].diagnostics) == ["cok → çok"]
    (root / "b.txt").unlink()
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="nokta.checkWorkspace"))
    assert not client.published[(root / "b.txt").as_uri()].diagnostics  # deleted: cleared
    (root / "b.txt").write_text("cok\n", encoding="utf-8")
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="nokta.checkWorkspace"))
    assert words(client.published[(root / "b.txt").as_uri()].diagnostics) == ["cok → çok"]
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="nokta.pause"))
    assert not client.published[(root / "b.txt").as_uri()].diagnostics  # paused: cleared


async def test_an_edit_is_analysed_before_a_slow_workspace_check_ends_which_reports_in_parts(tmp_path):
    """The fixed-lexicon restorer spins seconds for a batch with "yavas" in it, holding the GIL."""
    (tmp_path / "slow.md").write_text("yavas cok\n", encoding="utf-8")
    (tmp_path / "fast.md").write_text("guzel\n", encoding="utf-8")
    server = raw_client(FAKE_SERVER, keep_log=True)
    await server.start({"debounceMs": 0, "backend": "ngram"}, root=tmp_path)
    try:
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": "file:///open.txt", "languageId": "plaintext", "version": 1, "text": "hava"}},
        )
        await server.shown("file:///open.txt", 1)  # the model is loaded
        workspace = server.send_request("workspace/diagnostic", {"previousResultIds": [], "partialResultToken": "ws"})
        await server.wait_for(lambda: SLOW_BATCH + "\n" in server.log)  # the check asks the model for slow.md
        change = {"range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 4}}, "text": " cok "}
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": "file:///open.txt", "version": 2}, "contentChanges": [change]},
        )
        assert [d["message"] for d in await server.shown("file:///open.txt", 2)] == ["cok → çok"]
        assert not workspace.done()  # the edit did not wait for the workspace
        assert await asyncio.wait_for(workspace, 30) == {"items": []}  # all sent as partial results
        parts = [value for value in server.notified["$/progress"] if isinstance(value, dict) and value["token"] == "ws"]
        reported = {
            Path(item["uri"]).name: [d["message"] for d in item["items"]]
            for part in parts
            for item in part["value"]["items"]
        }
        assert reported == {"fast.md": ["guzel → güzel"], "slow.md": ["cok → çok"]}
    finally:
        await server.stop()
