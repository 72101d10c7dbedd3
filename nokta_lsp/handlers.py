"""One short handler per LSP method; the work is in ``NoktaServer`` and the pure modules."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from . import actions
from .diagnostics import hover_text
from .server import NoktaServer
from .settings import SECTION

log = logging.getLogger(__name__)


def build_server() -> NoktaServer:
    server = NoktaServer()
    _register_lifecycle(server)
    _register_documents(server)
    _register_features(server)
    _register_commands(server)
    return server


def _register_lifecycle(server: NoktaServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: NoktaServer, params: types.InitializeParams) -> None:
        ls.store.codec = type(ls.store.codec)(str(ls.workspace.position_encoding or "utf-16"))
        ls.root = to_fs_path(ls.workspace.root_uri) if ls.workspace.root_uri else None
        text_document = params.capabilities.text_document
        ls.pull_diagnostics = bool(text_document and text_document.diagnostic)
        ls.apply_settings(params.initialization_options)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: NoktaServer, params: types.InitializedParams) -> None:
        ls.load_model()
        await _pull_configuration(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: NoktaServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get(SECTION), dict):
            ls.apply_settings(settings[SECTION])
        else:
            await _pull_configuration(ls)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: NoktaServer, params: None) -> None:
        ls.scheduler.shutdown()


async def _pull_configuration(ls: NoktaServer) -> None:
    workspace = ls.client_capabilities.workspace
    if not (workspace and workspace.configuration):
        return
    try:
        result = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        )
    except Exception as error:  # a client that fails the request keeps the current settings
        log.warning("workspace/configuration failed: %s", error)
        return
    if result and isinstance(result[0], dict):
        ls.apply_settings(result[0])


def _register_documents(server: NoktaServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: NoktaServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        ls.store.open(doc.uri, doc.language_id, doc.version, doc.text)
        ls.scheduler.schedule(doc.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: NoktaServer, params: types.DidChangeTextDocumentParams) -> None:
        changes = [(getattr(change, "range", None), change.text) for change in params.content_changes]
        ls.note_own_edits(params.text_document.uri, changes)
        if ls.store.change(params.text_document.uri, params.text_document.version, changes) is not None:
            ls.scheduler.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: NoktaServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.store.close(uri)
        ls.forget(uri)
        ls.dictionary.per_document.pop(uri, None)
        if not ls.pull_diagnostics:
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _register_features(server: NoktaServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=False, identifier="nokta"),
    )
    async def pull(ls: NoktaServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        await ls.scheduler.analysed(params.text_document.uri)
        document = ls.store.get(params.text_document.uri)
        if document is None or document.analysed_version != document.version:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if params.previous_result_id == document.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=document.result_id)
        return types.RelatedFullDocumentDiagnosticReport(
            items=ls.pulled_diagnostics(document), result_id=document.result_id
        )

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: NoktaServer, params: types.HoverParams) -> types.Hover | None:
        document = ls.store.get(params.text_document.uri)
        if document is None:
            return None
        line, column = document.clamp(params.position.line, params.position.character, ls.store.codec)
        for finding in ls.current_findings(document.uri, line, line):
            if finding.start <= column <= finding.end:
                return types.Hover(
                    contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=hover_text(finding))
                )
        return None

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(actions.KINDS), resolve_provider=False),
    )
    def code_action(ls: NoktaServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)


def _register_commands(server: NoktaServer) -> None:
    @server.command(actions.RESTORE_DOCUMENT)
    async def restore_document(ls: NoktaServer, *args: Any) -> bool:
        argument = actions.command_argument(args)
        await ls.scheduler.analysed(argument["uri"])  # an edit just made is restored too
        return ls.apply_restore(argument, selection=False)

    @server.command(actions.RESTORE_SELECTION)
    async def restore_selection(ls: NoktaServer, *args: Any) -> bool:
        argument = actions.command_argument(args)
        await ls.scheduler.analysed(argument["uri"])
        return ls.apply_restore(argument, selection=True)

    @server.command(actions.ADD_TO_DICTIONARY)
    def add_to_dictionary(ls: NoktaServer, *args: Any) -> str:
        return ls.ignore_word(actions.command_argument(args))
