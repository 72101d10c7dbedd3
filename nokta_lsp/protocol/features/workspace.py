"""The workspace's folders and the files nokta reads from them: workspace/didChangeWorkspaceFolders,
and workspace/didChangeWatchedFiles for the words files and configuration files, watched
once the client takes a dynamic registration (``register_watchers``, on ``initialized``).

A change re-reads the files and analyses again the open documents it affects (their
configuration or their words changed), so editing ``.nokta-words.txt`` or
``.nokta.toml`` by hand takes effect without a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from nokta_model.check.words import WORKSPACE_FILE
from nokta_model.config import CONFIG_NAMES

from ..server import NoktaServer

log = logging.getLogger(__name__)

WATCHER_ID = "nokta-watched-files"


def roots(folders: Sequence[types.WorkspaceFolder] | None, root_uri: str | None) -> list[str]:
    """The workspace folders as paths: every folder, else the root (older clients)."""
    uris = [folder.uri for folder in folders or []] or ([root_uri] if root_uri else [])
    return [path for path in map(to_fs_path, uris) if path]


def watched_names(dictionary_path: str) -> list[str]:
    """The file names watched: words files (the ``dictionaryPath`` setting's too) and configurations."""
    custom = dictionary_path.replace("\\", "/").rsplit("/", 1)[-1] if dictionary_path else ""
    return list(dict.fromkeys([WORKSPACE_FILE, *([custom] if custom else []), *CONFIG_NAMES]))


async def register_watchers(ls: NoktaServer) -> None:
    """Ask the client to report changes of the files nokta reads (when it can register dynamically)."""
    session = ls.session
    if not session.capabilities.watch_files:
        return
    watchers = [
        types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in watched_names(session.settings.dictionaryPath)
    ]
    registration = types.Registration(
        id=WATCHER_ID,
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
    except Exception as error:  # a client that refuses keeps the files read at start
        log.warning("client/registerCapability for watched files failed: %s", error)


def did_change_watched_files(ls: NoktaServer, params: types.DidChangeWatchedFilesParams) -> None:
    names = {change.uri.rsplit("/", 1)[-1] for change in params.changes}
    configs = bool(names & set(CONFIG_NAMES))
    words = bool(names - set(CONFIG_NAMES))
    log.info("watched files changed: %s", ", ".join(sorted(names)))
    reanalyse_affected(ls, lambda: ls.session.files_changed(configs=configs, words=words))


def did_change_workspace_folders(ls: NoktaServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    """pygls has updated its folders; each document takes its root's words anew."""
    folders = list(ls.workspace.folders.values())
    reanalyse_affected(ls, lambda: ls.session.workspace.set_roots(roots(folders, None)))


def reanalyse_affected(ls: NoktaServer, change: Callable[[], Any]) -> None:
    """Make ``change``, then show the configuration errors it brought to light and analyse
    again the open documents whose configuration, words or masking it changed."""
    session = ls.session
    before = {uri: session.checking_key(uri) for uri in session.uris()}
    change()
    affected = [uri for uri, key in before.items() if session.checking_key(uri) != key]
    show_config_warnings(ls)
    for uri in affected:
        ls.scheduler.schedule(uri, 0)


def show_config_warnings(ls: NoktaServer) -> None:
    for warning in ls.session.workspace.take_warnings():
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=warning))
