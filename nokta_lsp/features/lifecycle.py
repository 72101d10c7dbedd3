"""initialize, initialized and shutdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import to_fs_path

from .configuration import apply_settings, load_model, pull_configuration

if TYPE_CHECKING:
    from ..server import NoktaServer


def initialize(ls: NoktaServer, params: types.InitializeParams) -> None:
    root = to_fs_path(ls.workspace.root_uri) if ls.workspace.root_uri else None
    ls.session.initialize(params.capabilities, str(ls.workspace.position_encoding or "utf-16"), root)
    apply_settings(ls, params.initialization_options)


async def initialized(ls: NoktaServer, params: types.InitializedParams) -> None:
    load_model(ls)
    await pull_configuration(ls)


def shutdown(ls: NoktaServer, params: None) -> None:
    ls.scheduler.shutdown()
