"""A minimal JSON-RPC client for the benchmarks: drives ``nokta-lsp --stdio`` as an editor would.

Messages are read with plain ``json`` (as an editor's native JSON parser would), not
structured into lsprotocol objects, so what is timed is the server, not the client's
Python deserialisation of large diagnostic lists. Diagnostics are plain dicts. The
client's cyclic garbage collector is off while the server runs: the client keeps every
publish (hundreds of thousands of dicts after 200 edits of a long document), and its
full collections, up to ~0.2 s, were being timed as the server's latency (parsed JSON
has no cycles: reference counting frees it).
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .lsp_framing import frame, read_messages

SERVER = [sys.executable, "-m", "nokta_lsp", "--stdio"]


class BenchClient:
    """Starts the server, records when each (uri, version) got its diagnostics."""

    def __init__(self) -> None:
        self.published: dict[tuple[str, int | None], tuple[float, list[dict[str, Any]]]] = {}  # the last
        self.first_arrival: dict[tuple[str, int | None], float] = {}
        self.result_ids: dict[str, str | None] = {}  # the last pulled, by uri
        self.started = 0.0
        self.messages: list[str] = []
        self._arrived = asyncio.Event()
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self.model_loaded = asyncio.Event()
        self.model_loaded_at = 0.0
        self.checked: list[float] = []  # when each "Checking" progress (a long analysis in parts) ended
        self.partial_results: dict[str, list[Any]] = {}  # the items of partial results, by token
        self._progress_titles: dict[str, str] = {}
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self, options: dict[str, Any], command: list[str] | None = None, root: Path | None = None) -> None:
        gc.disable()
        self.started = time.perf_counter()
        self._process = await asyncio.create_subprocess_exec(
            *(command or SERVER), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**26
        )
        self._reader = asyncio.create_task(self._read())
        capabilities = {
            "textDocument": {"publishDiagnostics": {"versionSupport": True}},
            "window": {"workDoneProgress": True},
        }
        await self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri() if root else None,
                "capabilities": capabilities,
                "initializationOptions": options,
            },
        )
        self.notify("initialized", {})

    def _send(self, message: dict[str, Any]) -> float:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(frame({"jsonrpc": "2.0", **message}))
        return time.perf_counter()

    def notify(self, method: str, params: Any) -> float:
        """Send a notification; returns the send time."""
        return self._send({"method": method, "params": params})

    async def request(self, method: str, params: Any, timeout: float = 600.0) -> Any:
        msg_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        self._send({"id": msg_id, "method": method, "params": params})
        return await asyncio.wait_for(future, timeout)

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for message in read_messages(self._process.stdout):
            self._dispatch(message, time.perf_counter())

    def _dispatch(self, message: dict[str, Any], arrived: float) -> None:
        method = message.get("method")
        if method == "textDocument/publishDiagnostics":
            params = message["params"]
            key = (params["uri"], params.get("version"))
            self.published[key] = (arrived, params["diagnostics"])
            self.first_arrival.setdefault(key, arrived)
            self._arrived.set()
        elif method == "$/progress" and isinstance(message["params"]["value"].get("items"), list):
            self.partial_results.setdefault(message["params"]["token"], []).extend(message["params"]["value"]["items"])
        elif method == "$/progress":
            self._progress(message["params"]["token"], message["params"]["value"], arrived)
        elif method == "window/showMessage":
            self.messages.append(message["params"]["message"])
            print(f"server says: {message['params']['message']}", file=sys.stderr)
        elif method is not None and "id" in message:  # a request from the server
            result = [None] * len(message["params"]["items"]) if method == "workspace/configuration" else None
            self._send({"id": message["id"], "result": result})
        elif "id" in message and message["id"] in self._pending:
            future = self._pending.pop(message["id"])
            if "error" in message:
                future.set_exception(RuntimeError(message["error"]))
            else:
                future.set_result(message.get("result"))

    def _progress(self, token: str, value: dict[str, Any], arrived: float) -> None:
        if value.get("kind") == "begin":
            self._progress_titles[token] = value.get("title", "")
        elif value.get("kind") == "end" and self._progress_titles.get(token, "").startswith("Checking"):
            self.checked.append(arrived)
        elif value.get("kind") == "end":
            self.model_loaded_at = arrived
            self.model_loaded.set()  # "Loading nokta model" ended: the configured model serves

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

    async def diagnostics(self, uri: str, version: int, timeout: float = 600.0) -> tuple[float, list[dict[str, Any]]]:
        """(arrival time of the first publish for ``version``, the diagnostics last published
        for it): a long document is published top first, the rest as it is analysed."""
        deadline = time.perf_counter() + timeout
        while (uri, version) not in self.published:
            self._arrived.clear()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no diagnostics for {uri} version {version}")
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except TimeoutError:
                continue
        return self.first_arrival[(uri, version)], self.published[(uri, version)][1]

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

    async def stop(self) -> None:
        await self.request("shutdown", None)
        self.notify("exit", None)
        assert self._process is not None
        await asyncio.wait_for(self._process.wait(), 10)
        if self._reader is not None:
            self._reader.cancel()
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
