"""Multi-root workspaces and watched files in the real server process: each document takes
its own root's words file and its nearest configuration, and both are read again when
they change on disk."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.client import (
    diagnostics_for,
    initialize,
    open_document,
    shown,
    wait_until,
    words,
    write,
)
from tests.lsp.fake_restorer import TEXT

ALL = ["bugun → bugün", "cok → çok", "guzel → güzel"]


def changed(client: LanguageClient, *paths: Path, kind: types.FileChangeType = types.FileChangeType.Changed) -> None:
    """What the editor sends when files it watches for the server change."""
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=kind) for path in paths])
    )


def publishes(client: LanguageClient, uri: str) -> int:
    return sum(params.uri == uri for params in client.publish_log)


async def test_a_hand_edit_of_the_second_roots_words_file_takes_effect_without_a_restart(
    client: LanguageClient, tmp_path: Path
):
    first, second = tmp_path / "first", tmp_path / "second"
    write(first / ".nokta-words.txt", "cok\n")
    write(second / ".nokta-words.txt", "guzel\n")
    await initialize(client, folders=[first, second], watch_files=True)
    await wait_until(client, lambda: bool(client.registrations))
    (registration,) = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    patterns = {watcher["globPattern"] for watcher in registration.register_options["watchers"]}
    assert patterns == {"**/.nokta-words.txt", "**/.nokta.toml", "**/nokta.toml", "**/pyproject.toml"}
    a, b = (first / "a.txt").as_uri(), (second / "b.txt").as_uri()
    open_document(client, a, TEXT)
    open_document(client, b, TEXT)
    assert words(await diagnostics_for(client, a, 1)) == ["bugun → bugün", "guzel → güzel"]
    assert words(await diagnostics_for(client, b, 1)) == ["bugun → bugün", "cok → çok"]
    before = publishes(client, a)
    with open(second / ".nokta-words.txt", "a", encoding="utf-8") as words_file:
        words_file.write("bugun\n")
    changed(client, second / ".nokta-words.txt")
    await wait_until(client, lambda: shown(client, b) == ["cok → çok"])
    assert publishes(client, a) == before  # the first root's document is not affected


async def test_the_workspace_dictionary_command_writes_the_documents_own_root(client: LanguageClient, tmp_path: Path):
    first, second = tmp_path / "first", tmp_path / "second"
    await initialize(client, folders=[first, second])
    uri = (second / "docs" / "b.txt").as_uri()
    open_document(client, uri, TEXT)
    await diagnostics_for(client, uri, 1)
    where = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="nokta.addToDictionary", arguments=[{"uri": uri, "word": "cok", "scope": "workspace"}]
        )
    )
    assert where == str(second / ".nokta-words.txt") and not (first / ".nokta-words.txt").exists()
    await wait_until(client, lambda: shown(client, uri) == ["bugun → bugün", "guzel → güzel"])


async def test_configuration_files_are_watched_too(client: LanguageClient, tmp_path: Path):
    await initialize(client, root=tmp_path, watch_files=True)
    uri = (tmp_path / "docs" / "a.txt").as_uri()
    open_document(client, uri, TEXT)
    assert words(await diagnostics_for(client, uri, 1)) == ALL
    config = write(tmp_path / "docs" / "nokta.toml", 'words = ["bugun"]\n')
    changed(client, config, kind=types.FileChangeType.Created)
    await wait_until(client, lambda: shown(client, uri) == ["cok → çok", "guzel → güzel"])
    config.write_text('words = ["bugun", "cok"]\nexclude = 3\n', encoding="utf-8")
    changed(client, config)
    await wait_until(client, lambda: any("exclude: expected a list, got 3" in m.message for m in client.messages))
    await wait_until(client, lambda: shown(client, uri) == ALL)  # a broken file counts as none
    config.write_text('words = ["bugun", "cok"]\n', encoding="utf-8")
    changed(client, config)
    await wait_until(client, lambda: shown(client, uri) == ["guzel → güzel"])
    config.unlink()
    changed(client, config, kind=types.FileChangeType.Deleted)
    await wait_until(client, lambda: shown(client, uri) == ALL)


async def test_no_watcher_without_dynamic_registration(client: LanguageClient, tmp_path: Path):
    await initialize(client, root=tmp_path)
    uri = (tmp_path / "a.txt").as_uri()
    open_document(client, uri, TEXT)
    await diagnostics_for(client, uri, 1)
    assert client.registrations == []


async def test_a_folder_added_to_the_workspace_brings_its_words(client: LanguageClient, tmp_path: Path):
    first, second = tmp_path / "first", tmp_path / "second"
    write(second / ".nokta-words.txt", "cok\n")
    write(second / ".nokta.toml", 'words = ["bugun"]\n')
    await initialize(client, {"ignoreWords": ["guzel"]}, folders=[first])
    uri = (second / "b.txt").as_uri()
    open_document(client, uri, TEXT)
    # outside every root: the nearest configuration above it, then the user's settings; no words file
    assert words(await diagnostics_for(client, uri, 1)) == ["cok → çok"]
    added = types.WorkspaceFolder(uri=second.as_uri(), name="second")
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(event=types.WorkspaceFoldersChangeEvent(added=[added], removed=[]))
    )
    await wait_until(client, lambda: shown(client, uri) == [])
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(event=types.WorkspaceFoldersChangeEvent(added=[], removed=[added]))
    )
    await wait_until(client, lambda: shown(client, uri) == ["cok → çok"])
