"""One open document, one owner: everything the server keeps about a document lives in its
record (``nokta_lsp.state.open_document``), so closing it leaves nothing keyed by its URI in the
session, the scheduler or the engine."""

from __future__ import annotations

import asyncio
import json
import threading
import types as python_types
from collections.abc import Iterator

import pytest
from lsprotocol import types

from nokta_lsp.analysis.lookahead import LookAhead
from nokta_lsp.protocol.features import autocorrect, configuration, diagnostics, documents, hover, inlay_hints
from nokta_lsp.protocol.handlers import build_server
from nokta_lsp.protocol.server import NoktaServer
from tests.lsp.fake_restorer import FakeRestorer

URI = "file:///owned.txt"
DOCUMENT = types.TextDocumentIdentifier(uri=URI)
WALKED_MODULES = ("nokta_lsp", "nokta_model", "tests.lsp")


class Recorder:
    def __init__(self) -> None:
        self.messages: list[dict] = []

    def write(self, data: bytes) -> None:
        self.messages.append(json.loads(data.split(b"\r\n\r\n", 1)[-1]))

    def close(self) -> None:
        pass


async def _server() -> tuple[NoktaServer, Recorder]:
    server, output = build_server(lambda name, device="auto": FakeRestorer()), Recorder()
    server.protocol.set_writer(output)
    server.session.apply_settings({"debounceMs": 10})
    configuration.load_model(server)
    for _ in range(500):
        model = server.session.engine.model
        if model is not None and not model.stand_in:
            return server, output
        await asyncio.sleep(0.01)
    raise AssertionError("the model did not load")


def mentions(root: object, needle: str) -> Iterator[str]:
    """The paths from ``root`` to every ``needle`` string held in the server's own objects
    (their attributes, dicts' keys and values, collections, closures of callbacks)."""
    seen: set[int] = set()
    stack: list[tuple[str, object]] = [("root", root)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if value == needle:
                yield path
            continue
        if id(value) in seen:
            continue
        seen.add(id(value))
        stack.extend(_children(path, value))


def _children(path: str, value: object) -> list[tuple[str, object]]:
    if isinstance(value, dict):
        return [(f"{path}[key]", key) for key in value] + [(f"{path}[{key!r}]", v) for key, v in value.items()]
    if isinstance(value, (list, tuple, set, frozenset)) or type(value).__name__ == "deque":
        return [(f"{path}[]", item) for item in value]
    if isinstance(value, python_types.FunctionType):
        cells = value.__closure__ or ()
        return [(f"{path}.<closure>", cell.cell_contents) for cell in cells if cell.cell_contents is not None]
    if isinstance(value, python_types.MethodType):
        return [(f"{path}.__self__", value.__self__)]
    if type(value).__module__.startswith(WALKED_MODULES):
        attributes = dict(getattr(value, "__dict__", {}))
        for name in getattr(type(value), "__slots__", ()):
            attributes[name] = getattr(value, name, None)
        return [(f"{path}.{name}", attribute) for name, attribute in attributes.items()]
    return []


def _held(server: NoktaServer) -> list[str]:
    return [
        *mentions(server.session, URI),
        *(f"scheduler:{path}" for path in mentions(server.scheduler, URI)),
    ]


async def test_an_opened_edited_and_closed_document_leaves_nothing_keyed_by_its_uri():
    server, output = await _server()
    item = types.TextDocumentItem(uri=URI, language_id="plaintext", version=1, text="Bugun hava cok guzel.\n")
    documents.did_open(server, types.DidOpenTextDocumentParams(text_document=item))
    await server.scheduler.analysed(URI, 10)
    change = types.TextDocumentContentChangeWholeDocument(text="Bugun hava cok guzel.\nguzel ")
    documents.did_change(
        server,
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2), content_changes=[change]
        ),
    )
    corrected = autocorrect.on_type_formatting(
        server,
        types.DocumentOnTypeFormattingParams(
            text_document=DOCUMENT, position=types.Position(1, 6), ch=" ", options=types.FormattingOptions(2, True)
        ),
    )
    await server.scheduler.analysed(URI, 10)
    whole = types.Range(start=types.Position(0, 0), end=types.Position(2, 0))
    hints = inlay_hints.inlay_hints(server, types.InlayHintParams(text_document=DOCUMENT, range=whole))
    shown = hover.hover(server, types.HoverParams(text_document=DOCUMENT, position=types.Position(0, 12)))
    pulled = await diagnostics.pull(server, types.DocumentDiagnosticParams(text_document=DOCUMENT))
    assert [edit.new_text for edit in corrected or []] == ["güzel"]
    assert [hint.label for hint in hints] == ["→ Bugün", "→ çok", "→ güzel", "→ güzel"]  # the edit is not applied
    assert shown is not None and len(pulled["items"]) == 4
    assert _held(server)  # while it is open, its record holds it: the walk sees it

    documents.did_close(server, types.DidCloseTextDocumentParams(text_document=DOCUMENT))
    await asyncio.sleep(0.05)  # anything the loop still had to run for it

    assert _held(server) == []
    assert server.scheduler.idle.is_set()
    published = [m["params"] for m in output.messages if m.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    assert published[-1] == {"uri": URI, "diagnostics": []}
    server.scheduler.shutdown()


async def test_a_document_closed_during_its_debounce_is_never_analysed_and_the_server_is_idle():
    server, output = await _server()
    server.session.apply_settings({"debounceMs": 60_000})
    item = types.TextDocumentItem(uri=URI, language_id="plaintext", version=1, text="Bugun hava cok guzel.")
    documents.did_open(server, types.DidOpenTextDocumentParams(text_document=item))
    assert not server.scheduler.idle.is_set()  # its timer is armed

    documents.did_close(server, types.DidCloseTextDocumentParams(text_document=DOCUMENT))

    assert server.scheduler.idle.is_set()
    assert _held(server) == []
    published = [m["params"] for m in output.messages if m.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    assert published == [{"uri": URI, "diagnostics": []}]
    server.scheduler.shutdown()


def test_the_caches_the_worker_fills_are_filled_on_its_thread_alone():
    """``@on_worker``: the look-ahead that fills the model's cache runs on one thread (the
    analysis worker's, the first to use it); the loop's thread using it fails the check."""
    ahead, used_on = LookAhead(FakeRestorer()), []
    worker = threading.Thread(target=lambda: used_on.append(ahead.collect()), name="nokta-check_0")
    worker.start()
    worker.join()
    assert used_on == [None]
    with pytest.raises(AssertionError, match=r"LookAhead\.collect ran on thread 'MainThread', not the worker's"):
        ahead.collect()
