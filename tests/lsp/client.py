"""Helpers for end-to-end tests: start the server, open documents, wait for a state the
server reports (diagnostics published, ``nokta/status`` idle), never for a fixed time."""

from __future__ import annotations

import asyncio
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from bench.lsp_client import STATUS, BenchClient

HERE = Path(__file__).resolve().parent
FAKE_SERVER = [sys.executable, "-m", "tests.lsp.fake_server", "--stdio"]
REAL_SERVER = [sys.executable, "-m", "nokta_lsp", "--stdio"]

T = TypeVar("T")


def raw_client(command: list[str], stderr: IO[bytes] | None = None, keep_log: bool = False) -> BenchClient:
    """The raw JSON-RPC client the benchmarks use too, with a test's timeouts."""
    return BenchClient(command, stderr, timeout_s=30.0, pause_gc=False, keep_log=keep_log)


def make_client() -> LanguageClient:
    """pytest-lsp's client that also keeps every publish (with version), applied edit,
    capability the server registered and ``nokta/status``, and wakes ``wait_until`` on each."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}
    client.publish_log = []
    client.applied_edits = []
    client.registrations = []
    client.inlay_hint_refreshes = 0
    client.statuses = []
    client.news = asyncio.Event()  # set on each message from the server

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

    def status(client: LanguageClient, params: Any) -> None:
        client.statuses.append({"state": params.state, "model": params.model, "idle": params.idle})

    features = {
        **DEFAULT_CLIENT_FEATURES,
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
        types.WORKSPACE_APPLY_EDIT: apply_edit,
        types.CLIENT_REGISTER_CAPABILITY: register,
        types.WORKSPACE_INLAY_HINT_REFRESH: refresh_inlay_hints,
        STATUS: status,
    }
    register_lsp_features(client, {method: with_news(handler) for method, handler in features.items()})
    return client


def with_news(handler: Callable[..., T]) -> Callable[..., T]:
    """``handler``, then the client's ``news`` set: what it recorded may be what a test waits for."""

    @functools.wraps(handler)
    def handle(client: LanguageClient, params: Any) -> T:
        try:
            return handler(client, params)
        finally:
            client.news.set()

    return handle


async def wait_until(client: LanguageClient, check: Callable[[], T], timeout: float = 20.0) -> T:
    """Wait until ``check()`` returns something truthy (asked after each message from the server); returns it."""

    async def until() -> T:
        while not (found := check()):
            client.news.clear()
            await client.news.wait()
        return found

    return await asyncio.wait_for(until(), timeout)


async def wait_for_idle(client: LanguageClient, timeout: float = 20.0) -> None:
    """Wait until the server has handled everything sent before and no analysis of an open
    document is scheduled or running (nor the model loading): ``nokta.status`` is answered
    after the messages sent before it; when it is not idle, a ``nokta/status`` notification
    says when it is."""
    now = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="nokta.status"))
    seen = len(client.statuses)
    if not now["idle"]:
        await wait_until(client, lambda: any(status["idle"] for status in client.statuses[seen:]), timeout)


async def reconfigure(client: LanguageClient, settings: dict[str, Any]) -> None:
    """Change the settings (ones that load no other model) as an editor does: the server
    pulls them on workspace/didChangeConfiguration. Waits until it has taken them (it asks
    for the inlay hints again) and analysed the open documents with them."""
    client.set_configuration(settings, section="nokta")
    refreshes = client.inlay_hint_refreshes
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await wait_until(client, lambda: client.inlay_hint_refreshes > refreshes)
    await wait_for_idle(client)


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
        experimental={"noktaStatus": True},
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
    """Wait for diagnostics published for ``version`` of ``uri``."""

    def published() -> types.PublishDiagnosticsParams | None:
        params = client.published.get(uri)
        return params if params is not None and params.version == version else None

    try:
        return list((await wait_until(client, published, timeout)).diagnostics)
    except TimeoutError:
        raise TimeoutError(f"no diagnostics for {uri} version {version}") from None


async def shown_once_analysed(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The diagnostics last pushed for ``uri`` once the server has analysed its current
    version: a textDocument/diagnostic request is answered only then, after any push (the
    server pushes only a set that changed, so a version may get none)."""
    await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return list(client.published[uri].diagnostics)


def shown(client: LanguageClient, uri: str) -> list[str]:
    """The messages of the diagnostics last pushed for ``uri``."""
    return words(list(client.published[uri].diagnostics)) if uri in client.published else []


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


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
