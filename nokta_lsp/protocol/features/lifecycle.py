"""initialize, initialized and shutdown."""

from __future__ import annotations

from lsprotocol import types

from ..server import NoktaServer
from .configuration import apply_settings, load_model, pull_configuration
from .workspace import register_watchers, roots


def initialize(ls: NoktaServer, params: types.InitializeParams) -> None:
    folders = roots(params.workspace_folders, ls.workspace.root_uri)
    ls.session.initialize(params.capabilities, str(ls.workspace.position_encoding or "utf-16"), folders)
    apply_settings(ls, params.initialization_options)


async def initialized(ls: NoktaServer, params: types.InitializedParams) -> None:
    load_model(ls)
    await pull_configuration(ls)
    await register_watchers(ls)


def shutdown(ls: NoktaServer, params: None) -> None:
    ls.scheduler.shutdown()
