"""Helpers for end-to-end tests: start the server, open documents, wait for diagnostics."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

HERE = Path(__file__).resolve().parent
FAKE_SERVER = [sys.executable, "-m", "tests.lsp.fake_server", "--stdio"]
REAL_SERVER = [sys.executable, "-m", "nokta_lsp", "--stdio"]


def make_client() -> LanguageClient:
    """pytest-lsp's client that also keeps every publish (with version), applied edit and
    capability the server registered."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}
    client.publish_log = []
    client.applied_edits = []
    client.registrations = []
    client.inlay_hint_refreshes = 0

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.published[params.uri] = params
        client.publish_log.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    def apply_edit(client: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied_edits.append(params.edit)
        return types.ApplyWorkspaceEditResult(applied=True)

    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    def refresh_inlay_hints(client: LanguageClient, params: None) -> None:
        client.inlay_hint_refreshes += 1

    features = {
        **DEFAULT_CLIENT_FEATURES,
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
        types.WORKSPACE_APPLY_EDIT: apply_edit,
        types.CLIENT_REGISTER_CAPABILITY: register,
        types.WORKSPACE_INLAY_HINT_REFRESH: refresh_inlay_hints,
    }
    register_lsp_features(client, features)
    return client


def config(command: list[str]) -> ClientServerConfig:
    return ClientServerConfig(server_command=command, client_factory=make_client)


def client_fixture(server: list[str]) -> Any:
    """A ``client`` fixture: pytest-lsp's client of the server started by ``server``, shut down after each test."""

    @pytest_lsp.fixture(config=config(server))
    async def client(lsp_client: LanguageClient):
        yield
        await lsp_client.shutdown_session()

    return client


def capabilities(
    encodings: list[str] | None = None, pull: bool = False, configuration: bool = True, watch_files: bool = False
) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
        window=types.WindowClientCapabilities(
            work_done_progress=True, show_message=types.ShowMessageRequestClientCapabilities()
        ),
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            apply_edit=True,
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
            if watch_files
            else None,
            workspace_folders=True,
            inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True),
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False) if pull else None,
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=[k for k in types.CodeActionKind])
                )
            ),
        ),
    )


async def initialize(
    client: LanguageClient,
    options: dict[str, Any] | None = None,
    root: Path | None = None,
    folders: list[Path] | None = None,
    **caps: Any,
) -> types.InitializeResult:
    """Initialize the session; ``folders`` are the workspace folders of a multi-root workspace."""
    settings = {"debounceMs": 0, **(options or {})}
    client.set_configuration(settings, section="nokta")
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(**caps),
            initialization_options=settings,
            root_uri=root.as_uri() if root else None,
            workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders or []] or None,
        )
    )


def open_document(
    client: LanguageClient, uri: str, text: str, language_id: str = "plaintext", version: int = 1
) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)
        )
    )


def change_document(client: LanguageClient, uri: str, version: int, *changes: tuple[types.Range | None, str]) -> None:
    events = [
        types.TextDocumentContentChangeWholeDocument(text=text)
        if rng is None
        else types.TextDocumentContentChangePartial(range=rng, text=text)
        for rng, text in changes
    ]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=events
        )
    )


def span(line: int, start: int, end: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end))


async def diagnostics_for(
    client: LanguageClient, uri: str, version: int, timeout: float = 20.0
) -> list[types.Diagnostic]:
    """Wait for diagnostics published for ``version`` of ``uri``; fail on any other version."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        params = client.published.get(uri)
        if params is not None and params.version == version:
            return list(params.diagnostics)
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise TimeoutError(f"no diagnostics for {uri} version {version}")
        await asyncio.sleep(0.01)


async def shown_once_analysed(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The diagnostics last pushed for ``uri`` once the server has analysed its current
    version: a textDocument/diagnostic request is answered only then, after any push (the
    server pushes only a set that changed, so a version may get none)."""
    await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return list(client.published[uri].diagnostics)


def words(diagnostics: list[types.Diagnostic]) -> list[str]:
    return [d.message for d in diagnostics]


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (UTF-16 positions) to ``text`` the way an editor does."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: position.line])
        units = lines[position.line].encode("utf-16-le", "surrogatepass")[: 2 * position.character]
        return before + len(units.decode("utf-16-le", "surrogatepass"))

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text
