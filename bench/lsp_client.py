"""A minimal LSP client for the benchmarks: drives ``nokta-lsp --stdio`` as an editor would."""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

SERVER = [sys.executable, "-m", "nokta_lsp", "--stdio"]


class BenchClient:
    """Starts the server, records when each (uri, version) got its diagnostics."""

    def __init__(self) -> None:
        self.client = LanguageClient("nokta-bench", "1")
        self.published: dict[tuple[str, int | None], tuple[float, list[types.Diagnostic]]] = {}
        self.started = 0.0
        self._arrived = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.published[(params.uri, params.version)] = (time.perf_counter(), list(params.diagnostics))
            self._arrived.set()

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def show(params: types.ShowMessageParams) -> None:
            print(f"server says: {params.message}", file=sys.stderr)

    async def start(self, options: dict[str, Any], command: list[str] | None = None) -> None:
        self.started = time.perf_counter()
        await self.client.start_io(*(command or SERVER))
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    text_document=types.TextDocumentClientCapabilities(
                        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)
                    )
                ),
                initialization_options=options,
            )
        )
        self.client.initialized(types.InitializedParams())

    def open(self, uri: str, text: str, language_id: str = "plaintext", version: int = 1) -> None:
        item = types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))

    def replace_line(self, uri: str, version: int, line: int, old_length: int, text: str) -> float:
        """Replace one line's text; returns the send time."""
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=old_length)), text=text
        )
        sent = time.perf_counter()
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=[change])
        )
        return sent

    async def diagnostics(self, uri: str, version: int, timeout: float = 600.0) -> tuple[float, list[types.Diagnostic]]:
        """(arrival time, diagnostics) of the publish for ``version``."""
        deadline = time.perf_counter() + timeout
        while (uri, version) not in self.published:
            self._arrived.clear()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no diagnostics for {uri} version {version}")
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except asyncio.TimeoutError:
                continue
        return self.published[(uri, version)]

    @property
    def pid(self) -> int:
        return self.client._server.pid  # the server subprocess

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()
