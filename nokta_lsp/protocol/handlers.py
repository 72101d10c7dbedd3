"""The server with every handler registered, in one place: this table is what the server
offers (each method, its options, its handler). The handlers are module-level functions
in ``features``, one module per feature."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from nokta_model.backends import load_restorer

from ..analysis.autocorrect import TRIGGERS
from ..state.engine import Loader
from . import actions
from .features import (
    autocorrect,
    code_actions,
    commands,
    configuration,
    diagnostics,
    documents,
    hover,
    inlay_hints,
    lifecycle,
    status,
    workspace,
    workspace_diagnostics,
)
from .server import NoktaServer

FEATURES: list[tuple[str, Any, Callable[..., Any]]] = [
    (types.INITIALIZE, None, lifecycle.initialize),
    (types.INITIALIZED, None, lifecycle.initialized),
    (types.SHUTDOWN, None, lifecycle.shutdown),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, None, configuration.did_change_configuration),
    (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, None, workspace.did_change_workspace_folders),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, workspace.did_change_watched_files),
    (types.TEXT_DOCUMENT_DID_OPEN, None, documents.did_open),
    (types.TEXT_DOCUMENT_DID_CHANGE, None, documents.did_change),
    (types.TEXT_DOCUMENT_DID_CLOSE, None, documents.did_close),
    (
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=True, identifier="nokta"),
        diagnostics.pull,
    ),
    (types.WORKSPACE_DIAGNOSTIC, None, workspace_diagnostics.workspace_diagnostic),
    (types.TEXT_DOCUMENT_HOVER, None, hover.hover),
    (types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False), inlay_hints.inlay_hints),
    (
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(actions.KINDS), resolve_provider=False),
        code_actions.code_actions,
    ),
    (
        types.TEXT_DOCUMENT_ON_TYPE_FORMATTING,
        types.DocumentOnTypeFormattingOptions(
            first_trigger_character=TRIGGERS[0], more_trigger_character=list(TRIGGERS[1:])
        ),
        autocorrect.on_type_formatting,
    ),
]

COMMANDS: list[tuple[str, Callable[..., Any]]] = [
    (actions.RESTORE_DOCUMENT, commands.restore_document),
    (actions.RESTORE_SELECTION, commands.restore_selection),
    (actions.ADD_TO_DICTIONARY, commands.add_to_dictionary),
    (status.PAUSE, status.pause),
    (status.RESUME, status.resume),
    (status.STATUS, status.current),
    (workspace_diagnostics.CHECK_WORKSPACE, workspace_diagnostics.check_workspace_command),
]


def build_server(loader: Loader = load_restorer) -> NoktaServer:
    server = NoktaServer(diagnostics.deliver, loader)
    for method, options, handler in FEATURES:
        server.feature(method, options)(handler)
    for name, command in COMMANDS:
        server.command(name)(command)
    server.scheduler.idle_changed = functools.partial(status.notify, server)  # ``nokta/status`` says idle
    return server
