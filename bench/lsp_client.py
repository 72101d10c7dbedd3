"""The one raw JSON-RPC client of ``nokta-lsp --stdio``, for the benchmarks and the tests:
drives the server as an editor would, records what it sends, and can send any bytes
(malformed messages too, for robustness tests).

Messages are read with plain ``json`` (as an editor's native JSON parser would), not
structured into lsprotocol objects, so what is timed is the server, not the client's
Python deserialisation of large diagnostic lists. Diagnostics are plain dicts. For the
benchmarks the client's cyclic garbage collector is off while the server runs: the client
keeps every publish (hundreds of thousands of dicts after 200 edits of a long document),
and its full collections, up to ~0.2 s, were being timed as the server's latency (parsed
JSON has no cycles: reference counting frees it).

The client takes the server's ``nokta/status`` notification: ``wait_for_idle`` waits
until no analysis is scheduled or running, instead of sleeping.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from .lsp_framing import frame_body, read_messages

SERVER = [sys.executable, "-m", "nokta_lsp", "--stdio"]
STATUS = "nokta/status"

T = TypeVar("T")


class BenchClient:
    """Starts the server and keeps what it sends: each (uri, version)'s diagnostics and when
    they came, every publish by uri, messages shown, edits applied, error responses with
    id null, every other notification by method, and (``keep_log``) its log lines."""

    def __init__(
        self,
        command: list[str] | None = None,
        stderr: IO[bytes] | None = None,
        timeout_s: float = 600.0,
        pause_gc: bool = True,
        keep_log: bool = False,
    ) -> None:
        self.command = command or SERVER
        self.stderr = stderr  # where the server's log goes (inherited when None)
        self.keep_log = keep_log  # read the server's stderr into ``log`` instead
        self.log: list[str] = []
        self.timeout_s = timeout_s  # the default for requests and waits
        self.pause_gc = pause_gc
        self.published: dict[tuple[str, int | None], tuple[float, list[dict[str, Any]]]] = {}  # the last
        self.first_arrival: dict[tuple[str, int | None], float] = {}
        self.publishes: dict[str, list[dict[str, Any]]] = {}  # every publish's params, by uri in order
        self.result_ids: dict[str, str | None] = {}  # the last pulled, by uri
        self.started = 0.0
        self.messages: list[str] = []  # window/showMessage texts
        self.applied: list[dict[str, Any]] = []  # workspace/applyEdit edits, each answered as applied
        self.errors: list[dict[str, Any]] = []  # error responses with id null
        self.notified: dict[str, list[Any]] = {}  # every other notification's params, by method
        self.model_loaded = asyncio.Event()
        self.model_loaded_at = 0.0
        self.checked: list[float] = []  # when each "Checking" progress (a long analysis in parts) ended
        self.partial_results: dict[str, list[Any]] = {}  # the items of partial results, by token
        self._progress_titles: dict[str, str] = {}
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._news = asyncio.Condition()
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._log_reader: asyncio.Task[None] | None = None

    async def start(
        self,
        options: dict[str, Any],
        root: Path | None = None,
        encodings: list[str] | None = None,
        workspace: dict[str, Any] | None = None,
        experimental: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Start the server and initialize it; returns its InitializeResult."""
        if self.pause_gc:
            gc.disable()
        self.started = time.perf_counter()
        self._process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE if self.keep_log else self.stderr,
            limit=2**26,
        )
        self._reader = asyncio.create_task(self._read())
        if self.keep_log:
            self._log_reader = asyncio.create_task(self._read_log())
        capabilities = {
            "general": {"positionEncodings": encodings or ["utf-16"]},
            "textDocument": {"publishDiagnostics": {"versionSupport": True}},
            "window": {"workDoneProgress": True},
            "workspace": workspace or {},
            "experimental": {"noktaStatus": True, **(experimental or {})},
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

    def write(self, body: bytes) -> float:
        """Send any body with its header; returns the send time."""
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(frame_body(body))
        return time.perf_counter()

    def _send(self, message: dict[str, Any]) -> float:
        return self.write(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    def notify(self, method: str, params: Any) -> float:
        """Send a notification; returns the send time."""
        return self._send({"method": method, "params": params})

    def send_request(self, method: str, params: Any) -> asyncio.Future[Any]:
        """Send a request; the future is its result (an error response raises RuntimeError)."""
        msg_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        self._send({"id": msg_id, "method": method, "params": params})
        return future

    async def request(self, method: str, params: Any, timeout: float | None = None) -> Any:
        return await asyncio.wait_for(self.send_request(method, params), timeout or self.timeout_s)

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for message in read_messages(self._process.stdout):
            self._dispatch(message, time.perf_counter())
            async with self._news:
                self._news.notify_all()

    async def _read_log(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        async for line in self._process.stderr:
            self.log.append(line.decode("utf-8", "replace"))
            async with self._news:
                self._news.notify_all()

    def _dispatch(self, message: dict[str, Any], arrived: float) -> None:
        method = message.get("method")
        if method is not None and "id" in message:
            self._answer(method, message)
        elif method == "textDocument/publishDiagnostics":
            self._published(message["params"], arrived)
        elif method is not None:
            self._notified(method, message.get("params"), arrived)
        elif message.get("id") is None and "error" in message:
            self.errors.append(message["error"])
        elif message["id"] in self._pending:
            future = self._pending.pop(message["id"])
            if future.done():
                return  # timed out
            if "error" in message:
                future.set_exception(RuntimeError(message["error"]))
            else:
                future.set_result(message.get("result"))

    def _answer(self, method: str, message: dict[str, Any]) -> None:
        """A request from the server: edits are applied, settings left to the initialization options."""
        result: Any = None
        if method == "workspace/applyEdit":
            self.applied.append(message["params"]["edit"])
            result = {"applied": True}
        elif method == "workspace/configuration":
            result = [None] * len(message["params"]["items"])
        self._send({"id": message["id"], "result": result})

    def _published(self, params: dict[str, Any], arrived: float) -> None:
        key = (params["uri"], params.get("version"))
        self.published[key] = (arrived, params["diagnostics"])
        self.first_arrival.setdefault(key, arrived)
        self.publishes.setdefault(params["uri"], []).append(params)

    def _notified(self, method: str, params: Any, arrived: float) -> None:
        self.notified.setdefault(method, []).append(params)
        if method == "$/progress" and isinstance(params["value"].get("items"), list):
            self.partial_results.setdefault(params["token"], []).extend(params["value"]["items"])
        elif method == "$/progress":
            self._progress(params["token"], params["value"], arrived)
        elif method == "window/showMessage":
            self.messages.append(params["message"])
            print(f"server says: {params['message']}", file=sys.stderr)

    def _progress(self, token: str, value: dict[str, Any], arrived: float) -> None:
        if value.get("kind") == "begin":
            self._progress_titles[token] = value.get("title", "")
        elif value.get("kind") == "end" and self._progress_titles.get(token, "").startswith("Checking"):
            self.checked.append(arrived)
        elif value.get("kind") == "end":
            self.model_loaded_at = arrived
            self.model_loaded.set()  # "Loading nokta model" ended: the configured model serves

    async def wait_for(self, check: Callable[[], T], timeout: float | None = None) -> T:
        """Wait until ``check()`` returns something truthy (asked after each message); returns it."""

        async def until() -> T:
            async with self._news:
                while not (found := check()):
                    await self._news.wait()
                return found

        return await asyncio.wait_for(until(), timeout or self.timeout_s)

    @property
    def statuses(self) -> list[dict[str, Any]]:
        """Every ``nokta/status`` notification's params, in order."""
        return self.notified.get(STATUS, [])

    async def wait_for_idle(self, timeout: float | None = None) -> None:
        """Wait until the server has handled everything sent before and no analysis of an
        open document is scheduled or running (nor the model loading): asks ``nokta.status``,
        which is answered after the messages sent before it, then, when it is not idle, waits
        for a ``nokta/status`` notification that says so."""
        now = await self.request("workspace/executeCommand", {"command": "nokta.status"}, timeout)
        seen = len(self.statuses)
        if not now["idle"]:
            await self.wait_for(lambda: any(status["idle"] for status in self.statuses[seen:]), timeout)

    def open(self, uri: str, text: str, language_id: str = "plaintext", version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language_id, "version": version, "text": text}},
        )

    def replace_line(self, uri: str, version: int, line: int, old_length: int, text: str) -> float:
        """Replace one line's text; returns the send time."""
        change = {
            "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": old_length}},
            "text": text,
        }
        return self.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
        )

    async def diagnostics(
        self, uri: str, version: int, timeout: float | None = None
    ) -> tuple[float, list[dict[str, Any]]]:
        """(arrival time of the first publish for ``version``, the diagnostics last published
        for it): a long document is published top first, the rest as it is analysed."""
        try:
            await self.wait_for(lambda: (uri, version) in self.published, timeout)
        except TimeoutError:
            raise TimeoutError(f"no diagnostics for {uri} version {version}") from None
        return self.first_arrival[(uri, version)], self.published[(uri, version)][1]

    async def shown(self, uri: str, version: int, timeout: float | None = None) -> list[dict[str, Any]]:
        """The diagnostics shown for ``version`` (the current one) of ``uri`` once the server
        has analysed all of it (a textDocument/diagnostic request is answered then, after
        any publish of it): the last ones published for it or, as the server publishes only
        a set that changed, the last ones published before."""
        pull = self.send_request("textDocument/diagnostic", {"textDocument": {"uri": uri}})

        def shown_now() -> dict[str, Any] | None:
            publishes = self.publishes.get(uri, [])
            if not pull.done() or not publishes:
                return None
            return next((p for p in reversed(publishes) if p.get("version") == version), publishes[-1])

        publish = await self.wait_for(shown_now, timeout)
        assert publish is not None
        return publish["diagnostics"]

    async def analysed(self, uri: str, version: int) -> float:
        """When ``version``'s diagnostics were out: its first publish, or, when the server
        published nothing for it (what it publishes did not change), the answer to a
        textDocument/diagnostic request (answered once the version is analysed, after any
        publish of it), which names the last result id it got, so that an unchanged report is short."""
        report = await self.request(
            "textDocument/diagnostic", {"textDocument": {"uri": uri}, "previousResultId": self.result_ids.get(uri)}
        )
        answered = time.perf_counter()
        self.result_ids[uri] = report.get("resultId", self.result_ids.get(uri))
        return self.first_arrival.get((uri, version), answered)

    async def final_diagnostics(self, uri: str, version: int) -> tuple[float, list[dict[str, Any]]]:
        """(arrival time, diagnostics) of the last publish for ``version`` once the server has
        analysed all of it: it answers textDocument/diagnostic only then, after that publish."""
        await self.diagnostics(uri, version)
        await self.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        return self.published[(uri, version)]

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def exited(self, timeout: float = 10.0) -> int:
        """The server's exit code, once it has exited."""
        assert self._process is not None
        return await asyncio.wait_for(self._process.wait(), timeout)

    async def stop(self) -> None:
        """Shut the server down (killed if it does not exit within 10 s)."""
        try:
            if self.alive:
                await self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
                await self.exited()
        finally:
            if self.alive:
                assert self._process is not None
                self._process.kill()
                await self._process.wait()
            for reader in (self._reader, self._log_reader):
                if reader is not None:
                    reader.cancel()
            if self.pause_gc:
                gc.enable()


def reference_ms(lines: list[str], runs: int = 3) -> float:
    """A fixed pure-Python workload (word count of ``lines``), median of ``runs``, in ms.

    Machine-dependent figures are also reported as multiples of it, so that they compare
    across machines (as bench/throughput.py does).
    """
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        counts: Counter[str] = Counter()
        for line in lines:
            counts.update(word.lower() for word in line.split())
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)[len(times) // 2]


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """A memory figure of a process from /proc (VmRSS now, VmHWM peak), in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]
