"""A raw JSON-RPC connection to the server process: send any bytes, read plain dicts.

For tests that need what a typed client cannot do (malformed messages, error responses
with id null) or that check published diagnostics against the exact document text.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import IO, Any

from bench.lsp_framing import frame_body, read_messages


class RawServer:
    def __init__(self, command: list[str], stderr: IO[bytes] | None = None):
        self.command, self.stderr = command, stderr  # stderr: where the server's log goes
        self.published: dict[str, list[dict[str, Any]]] = {}  # uri -> publishes in order
        self.errors: list[dict[str, Any]] = []  # error responses with id null
        self.shown: list[str] = []  # window/showMessage texts
        self.applied: list[dict[str, Any]] = []  # workspace/applyEdit edits, each answered as applied
        self.notified: dict[str, list[Any]] = {}  # other notifications' params, by method
        self._results: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._news = asyncio.Condition()

    async def start(
        self,
        options: dict[str, Any],
        encodings: list[str] | None = None,
        workspace: dict[str, Any] | None = None,
        experimental: dict[str, Any] | None = None,
        root: Path | None = None,
    ) -> dict[str, Any]:
        self._process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.stderr,
            limit=2**26,
        )
        self._reader = asyncio.create_task(self._read())
        capabilities = {
            "general": {"positionEncodings": encodings or ["utf-16"]},
            "textDocument": {"publishDiagnostics": {"versionSupport": True}},
            "workspace": workspace or {},
            "experimental": experimental or {},
        }
        result = await self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri() if root else None,
                "capabilities": capabilities,
                "initializationOptions": options,
            },
        )
        self.notify("initialized", {})
        return result

    def write(self, body: bytes) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(frame_body(body))

    def notify(self, method: str, params: Any) -> None:
        self.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())

    def send_request(self, method: str, params: Any) -> asyncio.Future[Any]:
        msg_id = next(self._ids)
        self._results[msg_id] = asyncio.get_running_loop().create_future()
        self.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode())
        return self._results[msg_id]

    async def request(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        return await asyncio.wait_for(self.send_request(method, params), timeout)

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for message in read_messages(self._process.stdout):
            await self._dispatch(message)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method == "textDocument/publishDiagnostics":
            self.published.setdefault(message["params"]["uri"], []).append(message["params"])
        elif method == "window/showMessage":
            self.shown.append(message["params"]["message"])
        elif method == "workspace/applyEdit":
            self.applied.append(message["params"]["edit"])
            self.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"applied": True}}).encode())
        elif method is not None and "id" in message:  # another request from the server
            result = [None] * len(message["params"]["items"]) if method == "workspace/configuration" else None
            self.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode())
        elif method is not None:
            self.notified.setdefault(method, []).append(message.get("params"))
        elif message.get("id") is None and "error" in message:
            self.errors.append(message["error"])
        elif message.get("id") in self._results:
            future = self._results.pop(message["id"])
            if not future.done():
                future.set_exception(RuntimeError(message["error"])) if "error" in message else future.set_result(
                    message.get("result")
                )
        async with self._news:
            self._news.notify_all()

    async def wait_for(self, check, timeout: float = 30.0) -> Any:
        """Wait until ``check()`` returns something truthy; returns it."""

        async def until() -> Any:
            async with self._news:
                while not (found := check()):
                    await self._news.wait()
                return found

        return await asyncio.wait_for(until(), timeout)

    async def diagnostics(self, uri: str, version: int, timeout: float = 30.0) -> list[dict[str, Any]]:
        """The diagnostics shown for ``version`` (the current one) of ``uri``: those published
        for it or, as the server publishes only a set that changed, the last ones published
        once it has analysed ``version`` (a textDocument/diagnostic request is answered then,
        after any publish of it)."""
        pull = self.send_request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        publish = await self.wait_for(
            lambda: (
                next((p for p in self.published.get(uri, []) if p.get("version") == version), None)
                or (pull.done() and self.published.get(uri, [None])[-1])
            ),
            timeout,
        )
        return publish["diagnostics"]

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def stop(self) -> None:
        if self.alive:
            try:
                await self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
                await asyncio.wait_for(self._process.wait(), 10)
            finally:
                if self.alive:
                    self._process.kill()
        if self._reader is not None:
            self._reader.cancel()
