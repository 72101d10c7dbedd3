"""The handlers are module-level functions, registered in one table (``nokta_lsp.protocol.handlers``):
each can be imported and called alone, on a server built in process, with no client."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable

from lsprotocol import types

from nokta_lsp.protocol.features import configuration, diagnostics, documents, hover, status
from nokta_lsp.protocol.handlers import COMMANDS, FEATURES, build_server
from nokta_lsp.protocol.server import NoktaServer
from tests.lsp.fake_restorer import FakeRestorer

URI = "file:///note.txt"


class Recorder:
    """The server's output: every message it writes."""

    def __init__(self) -> None:
        self.messages: list[dict] = []
        self.news = asyncio.Event()  # set on each message

    def write(self, data: bytes) -> None:
        self.messages.append(json.loads(data.split(b"\r\n\r\n", 1)[-1]))
        self.news.set()

    def close(self) -> None:
        pass

    def published(self) -> list[dict]:
        return [m["params"] for m in self.messages if m.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    async def wait_for(self, check: Callable[[], bool], timeout: float = 10.0) -> None:
        async def until() -> None:
            while not check():
                self.news.clear()
                await self.news.wait()

        await asyncio.wait_for(until(), timeout)


async def _server_with_model() -> tuple[NoktaServer, Recorder]:
    server, output = build_server(lambda name, device="auto": FakeRestorer()), Recorder()
    server.protocol.set_writer(output)
    # the client takes ``nokta/status``, which says when the configured model is ready
    server.session.capabilities = dataclasses.replace(server.session.capabilities, status_notification=True)
    configuration.load_model(server)
    await output.wait_for(
        lambda: any(m.get("method") == status.NOTIFICATION and m["params"]["state"] == "ready" for m in output.messages)
    )
    return server, output


def test_every_method_and_command_is_registered_once_with_a_module_level_handler():
    methods, names = [method for method, _, _ in FEATURES], [name for name, _ in COMMANDS]
    assert len(set(methods)) == len(methods) and len(set(names)) == len(names)
    for _, _, handler in FEATURES:
        assert "<locals>" not in handler.__qualname__ and handler.__module__.startswith("nokta_lsp.protocol.features.")
    server = build_server()
    assert server.protocol.fm.features.keys() >= set(methods)
    assert server.protocol.fm.commands.keys() == set(names)


async def test_handlers_called_alone_open_publish_hover_and_report():
    server, output = await _server_with_model()
    item = types.TextDocumentItem(uri=URI, language_id="plaintext", version=1, text="Bugun hava cok guzel.")
    documents.did_open(server, types.DidOpenTextDocumentParams(text_document=item))
    await server.scheduler.analysed(URI, 10)
    published = output.published()[-1]["diagnostics"]
    assert [d["message"] for d in published] == ["Bugun → Bugün", "cok → çok", "guzel → güzel"]

    on_cok = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(0, 12))
    shown = hover.hover(server, on_cok)
    assert shown is not None and shown.contents.value.startswith("**çok**")

    document = types.TextDocumentIdentifier(uri=URI)
    pulled = await diagnostics.pull(server, types.DocumentDiagnosticParams(text_document=document))
    again = await diagnostics.pull(
        server, types.DocumentDiagnosticParams(text_document=document, previous_result_id=pulled["resultId"])
    )
    assert len(pulled["items"]) == 3 and again == {"kind": "unchanged", "resultId": pulled["resultId"]}

    documents.did_close(server, types.DidCloseTextDocumentParams(text_document=document))
    assert output.published()[-1] == {"uri": URI, "diagnostics": []}
    server.scheduler.shutdown()
