"""The only module that reaches into pygls' internals (pygls is pinned to the minor release
they were written against; tests/test_pygls_internals.py fails by name if one moves).

pygls' protocol, with documents kept only by the session (once, not twice), requests
whose parameters cannot be read answered with an error, and messages and results
already serialised as JSON text (diagnostics, ``JsonText``) written as they are.

Serving over stdin/stdout reads the pipe on the event loop: pygls' own stdio reader
reads every header line and body in a thread pool, several thread hand-offs per
message, each of which can wait for the analysis thread to let go of the GIL. pygls'
reader is the fallback when stdin is not a pipe (a file or a terminal).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import sys
import threading
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from cattrs import transform_error
from cattrs.errors import ClassValidationError
from lsprotocol import types
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification
from pygls.protocol.language_server import lsp_method

T = TypeVar("T")
log = logging.getLogger(__name__)
#: What reading a body that is not JSON (or not UTF-8) raises: the client's fault.
MALFORMED_JSON = (json.JSONDecodeError, UnicodeDecodeError)


class _OneLineForMalformedJson(logging.Filter):
    """pygls' message loop logs every message it cannot handle with a traceback; for a
    body that is not JSON, answered with a parse error, one line says it all."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, MALFORMED_JSON):
            record.msg, record.args, record.exc_info = f"{record.getMessage()}: malformed JSON ({error})", (), None
        return True


message_log = log.getChild("messages")
message_log.addFilter(_OneLineForMalformedJson())


class _NoTracebackForInvalidParams(logging.Filter):
    """pygls logs a message whose parameters it cannot read with a 40 to 60 line traceback;
    ``NoktaProtocol.structure_message`` logs it in one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Unable to deserialize message")


logging.getLogger("pygls.protocol.json_rpc").addFilter(_NoTracebackForInvalidParams())
#: What ``structure_message`` makes of a message it cannot read: ``handle_message`` drops it.
_UNREADABLE = JsonRPCNotification(method="", jsonrpc="invalid", params=None)


@dataclass(frozen=True)
class JsonText:
    """A request's result serialised already, as ASCII JSON text: sent as it is (a
    workspace diagnostic report of thousands of diagnostics is never parsed again)."""

    text: str


class NoktaProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending_writes: set[asyncio.Future] = set()  # held until written

    # Plain calls, not generators: pygls keeps the future of a generator handler of a
    # notification in ``_request_futures`` for ever (one per edit: a memory leak).
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self.fm.features[types.TEXT_DOCUMENT_DID_OPEN](params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self.fm.features[types.TEXT_DOCUMENT_DID_CHANGE](params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self.fm.features[types.TEXT_DOCUMENT_DID_CLOSE](params)

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, Any]:
        """As pygls, but the server's own requests still unanswered (work-done progress
        "create") are settled with no result rather than cancelled: pygls chains a callback
        to them that reads the result, and a cancelled one raised CancelledError into the log."""
        for msg_id in list(self._result_types):  # the ids of requests the server sent
            future = self._request_futures.get(msg_id)
            if future is not None and not future.done():
                future.set_result(None)
        return (yield from super().lsp_shutdown(*args))

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except Exception as error:
            reason = _what_is_wrong(error.__cause__ or error)
            log.warning("%s: invalid params, ignored: %s", data.get("method") or "a response", reason)
            if "id" in data and "method" in data:
                invalid = types.ResponseError(code=-32602, message=f"invalid params: {reason}")
                self._send_response(data["id"], error=invalid)
            return _UNREADABLE

    def handle_message(self, message: Any) -> None:
        if message is _UNREADABLE:  # logged and answered by structure_message
            return
        if not hasattr(message, "jsonrpc"):  # valid JSON, but not a JSON-RPC message
            self.send_error(-32600, "Invalid Request: not a JSON-RPC message")
            return
        super().handle_message(message)

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if error is None and isinstance(result, JsonText):
            self._result_types.pop(msg_id, None)
            self.send_text(f'{{"jsonrpc":"2.0","id":{json.dumps(msg_id)},"result":{result.text}}}')
            return
        super()._send_response(msg_id, result, error)

    def notify_json(self, method: str, params: str) -> None:
        """A notification whose parameters are serialised already (ASCII JSON text)."""
        self.send_text(f'{{"jsonrpc":"2.0","method":{json.dumps(method)},"params":{params}}}')

    def structure(self, value: Any, cls: type[T]) -> T:
        """``value`` (JSON data from a client) as an lsprotocol object."""
        return self._converter.structure(value, cls)

    def send_error(self, code: int, message: str) -> None:
        """An error response with id null (the request's id could not be read)."""
        self.send_text(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}))

    def publish_diagnostics_json(self, uri: str, version: int | None, diagnostics_json: str) -> None:
        """textDocument/publishDiagnostics from diagnostics kept as JSON text (no re-serialising);
        no version for a file that is not open."""
        versioned = f',"version":{int(version)}' if version is not None else ""
        params = f'{{"uri":{json.dumps(uri)}{versioned},"diagnostics":[{diagnostics_json}]}}'
        self.send_text(f'{{"jsonrpc":"2.0","method":"{types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}","params":{params}}}')

    def send_text(self, body: str) -> None:
        """Send a message already serialised as ASCII JSON, framed as pygls frames its own."""
        if self.writer is None:
            return
        header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        written = self.writer.write(((header if self._include_headers else "") + body).encode("ascii"))
        if inspect.isawaitable(written):
            task = asyncio.ensure_future(written)
            self._pending_writes.add(task)
            task.add_done_callback(self._pending_writes.discard)


def _what_is_wrong(error: BaseException) -> str:
    """A message's unreadable fields in one line, each with its path (cattrs' own wording)."""
    if isinstance(error, ClassValidationError):
        return "; ".join(transform_error(error, path="$"))
    return str(error) or type(error).__name__


class PipeReader:
    """``readline``/``readexactly`` as pygls' message loop wants them; EOF reads as b""."""

    def __init__(self, stream: asyncio.StreamReader):
        self.stream = stream

    async def readline(self) -> bytes:
        try:
            return await self.stream.readline()
        except ValueError:  # a line longer than the stream's limit: skipped, not a header
            return b"(skipped)\n"

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self.stream.readexactly(n)
        except asyncio.IncompleteReadError as error:
            return error.partial


async def _serve(server: LanguageServer) -> bool:
    """Serve until exit or end of input; False when stdin cannot be read as a pipe."""
    loop = asyncio.get_running_loop()
    stream = asyncio.StreamReader(limit=2**20)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), sys.stdin.buffer)
    except (ValueError, OSError) as error:
        log.info("stdin is not a pipe (%s): using pygls' reader", error)
        return False
    server._stop_event = stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    await run_async(
        stop_event=stop_event,
        reader=PipeReader(stream),
        protocol=server.protocol,
        logger=message_log,
        error_handler=server.report_server_error,
    )
    return True


def serve_stdio(server: LanguageServer) -> None:
    try:
        served = asyncio.run(_serve(server))
    except BrokenPipeError:
        log.error("the client closed the connection")
        served = True
    except (KeyboardInterrupt, SystemExit):
        served = True
    if served:
        server.shutdown()
    else:
        server.start_io()


def shutdown_requested(server: LanguageServer) -> bool:
    """Whether the client sent ``shutdown`` before ``exit`` (LSP: exit code 0, else 1)."""
    return bool(server.protocol._shutdown)
