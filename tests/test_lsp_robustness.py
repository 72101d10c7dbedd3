"""Bad input never crashes the server, and nothing is published for a stale version."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from bench.lsp_client import BenchClient
from tests.lsp.client import (
    FAKE_SERVER,
    change_document,
    diagnostics_for,
    initialize,
    open_document,
    raw_client,
    span,
    wait_for_idle,
    words,
)
from tests.lsp.fake_restorer import SLOW_BATCH


async def still_alive(client: LanguageClient, uri: str = "file:///alive.txt") -> None:
    """The server still analyses a fresh document correctly."""
    version = random.randint(1, 10**6)
    open_document(client, uri, "cok guzel", version=version)
    assert words(await diagnostics_for(client, uri, version)) == ["cok → çok", "guzel → güzel"]


def write_raw(client: LanguageClient, body: bytes) -> None:
    client.protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


async def raw_request(client: LanguageClient, method: str, params: object) -> object:
    """Send a request exactly as given (no client-side validation) and await the answer."""
    future: asyncio.Future = asyncio.get_running_loop().create_future()
    msg_id = f"raw-{random.random()}"
    client.protocol._request_futures[msg_id] = future
    write_raw(client, json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode())
    return await asyncio.wait_for(future, 10)


async def test_five_megabyte_document_is_skipped_and_server_keeps_serving(client: LanguageClient):
    await initialize(client)
    big = ("bugun cok guzel bir gun " * 40 + "\n") * 5300  # > 5,000,000 characters
    assert len(big) > 5_000_000
    open_document(client, "file:///big.txt", big)
    assert await diagnostics_for(client, "file:///big.txt", 1) == []
    await still_alive(client)


async def test_one_megabyte_line_is_skipped(client: LanguageClient):
    await initialize(client)
    open_document(client, "file:///line.txt", "cok " * 250_000 + "\nguzel")
    assert words(await diagnostics_for(client, "file:///line.txt", 1)) == ["guzel → güzel"]


async def test_binary_garbage_and_lone_surrogates(client: LanguageClient):
    await initialize(client)
    rng = random.Random(4)
    garbage = "".join(chr(rng.randrange(0, 0x3000)) for _ in range(50_000))
    open_document(client, "file:///bin.txt", garbage + "\n\ud800cok \udfff guzel\ud83d")
    diagnostics = await diagnostics_for(client, "file:///bin.txt", 1)
    last = [d for d in diagnostics if d.range.start.line == garbage.count("\n") + garbage.count("\r") + 1]
    assert [d.range for d in last] == [span(last[0].range.start.line, 1, 4), span(last[0].range.start.line, 7, 12)]
    await still_alive(client)


async def test_ranges_beyond_the_document_are_clamped(client: LanguageClient):
    await initialize(client, {"hideWhileTyping": False})  # the word an edit ends in is shown too
    open_document(client, "file:///r.txt", "hava\n")
    await diagnostics_for(client, "file:///r.txt", 1)
    far = types.Range(start=types.Position(line=99, character=5), end=types.Position(line=120, character=999))
    change_document(client, "file:///r.txt", 2, (far, " cok"))
    change_document(
        client,
        "file:///r.txt",
        3,
        (
            types.Range(start=types.Position(line=0, character=999), end=types.Position(line=0, character=2000)),
            " guzel",
        ),
    )
    assert words(await diagnostics_for(client, "file:///r.txt", 3)) == ["guzel → güzel", "cok → çok"]


async def test_thousand_rapid_edits_publish_only_the_last_version(client: LanguageClient):
    await initialize(client, {"debounceMs": 50, "maxDiagnostics": 1_000})  # every one of the 500 shown
    open_document(client, "file:///fast.txt", "hava\n")
    await diagnostics_for(client, "file:///fast.txt", 1)
    for version in range(2, 1002):
        change_document(client, "file:///fast.txt", version, (span(0, 0, 0), "cok " if version % 2 else "a "))
    diagnostics = await diagnostics_for(client, "file:///fast.txt", 1001)
    assert len(diagnostics) == 500
    await wait_for_idle(client)
    published = [p.version for p in client.publish_log if p.uri == "file:///fast.txt"]
    assert published[0] == 1 and published[-1] == 1001
    # a publish for version v was only sent while v was the newest: versions never go back
    assert published == sorted(published)


async def test_unknown_methods_and_bad_params_get_errors(client: LanguageClient):
    await initialize(client)
    with pytest.raises(Exception, match=r"[Mm]ethod"):
        await client.protocol.send_request_async("nokta/noSuchMethod", {"x": 1})
    client.protocol.notify("nokta/noSuchNotification", {"x": 1})
    bad_hover = {"textDocument": {"uri": "file:///x"}, "position": {"line": -1, "character": "a"}}
    with pytest.raises(Exception, match="invalid params"):
        await raw_request(client, types.TEXT_DOCUMENT_HOVER, bad_hover)
    with pytest.raises(JsonRpcException):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="nokta.restoreDocument", arguments=["nope"])
        )
    with pytest.raises(JsonRpcException):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="nokta.addToDictionary", arguments=[{"uri": "file:///x", "word": 3}])
        )
    await still_alive(client)


async def test_malformed_json_does_not_stop_the_server(client: LanguageClient):
    await initialize(client)
    write_raw(client, b'{"jsonrpc": "2.0", "id": 77, "method": ')
    write_raw(
        client, json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"bad": True}}).encode()
    )
    await still_alive(client)


async def test_malformed_json_rpc_gets_error_responses_and_the_server_keeps_running(tmp_path):
    with open(tmp_path / "stderr.log", "wb") as log:
        server = raw_client(FAKE_SERVER, stderr=log)
        await server.start({"debounceMs": 0})
        try:
            server.write(b'{"jsonrpc": "2.0", "id": 77, "method": ')  # cut short
            server.write(b"[1, 2]")  # JSON, but not a JSON-RPC message
            server.write(b"\xff\xfe not utf-8")
            errors = await server.wait_for(lambda: len(server.errors) >= 3 and server.errors)
            assert [error["code"] for error in errors] == [-32700, -32600, -32700]
            server.notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": "file:///ok.txt", "languageId": "plaintext", "version": 1, "text": "cok"}},
            )
            assert [d["message"] for d in await server.shown("file:///ok.txt", 1)] == ["cok → çok"]
        finally:
            await server.stop()
    assert server.messages == []  # the client's fault: answered, not shown to the user
    logged = (tmp_path / "stderr.log").read_text()
    assert logged.count("malformed JSON") == 2 and "Traceback" not in logged


async def test_hover_and_code_actions_answer_within_100_ms_while_a_slow_analysis_runs():
    server = raw_client(FAKE_SERVER, keep_log=True)
    await server.start({"debounceMs": 0})
    try:
        open_raw(server, "file:///quick.txt", "cok guzel")
        flagged = await server.shown("file:///quick.txt", 1)
        open_raw(server, "file:///slow.txt", "yavas cok")  # the restorer is busy for 3 s
        await server.wait_for(lambda: SLOW_BATCH + "\n" in server.log)
        document = {"uri": "file:///quick.txt"}
        for _ in range(5):
            started = time.perf_counter()
            hover = await server.request(
                "textDocument/hover", {"textDocument": document, "position": {"line": 0, "character": 1}}
            )
            actions = await server.request(
                "textDocument/codeAction",
                {"textDocument": document, "range": flagged[0]["range"], "context": {"diagnostics": flagged[:1]}},
            )
            assert time.perf_counter() - started < 0.2  # two requests: 100 ms each
            assert "**çok**" in hover["contents"]["value"] and any(a["title"] == "Change to 'çok'" for a in actions)
        assert "file:///slow.txt" not in server.publishes  # the slow analysis was still running
        assert [d["message"] for d in await server.shown("file:///slow.txt", 1, timeout=20)] == ["cok → çok"]
    finally:
        await server.stop()


def open_raw(server: BenchClient, uri: str, text: str, version: int = 1) -> None:
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "plaintext", "version": version, "text": text}},
    )


async def test_exit_is_prompt_while_an_analysis_runs():
    server = raw_client(FAKE_SERVER, keep_log=True)
    await server.start({"debounceMs": 0})
    open_raw(server, "file:///slow.txt", "yavas cok")  # the restorer is busy for 3 s
    await server.wait_for(lambda: SLOW_BATCH + "\n" in server.log)
    started = time.perf_counter()
    await server.request("shutdown", None, timeout=10)
    server.notify("exit", None)
    assert await server.exited() == 0
    assert time.perf_counter() - started < 1.5
    await server.stop()
