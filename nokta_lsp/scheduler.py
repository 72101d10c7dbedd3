"""Per-document debounce, one worker thread for analysis, stale results dropped.

Everything but ``analyse`` runs on the event loop. An edit re-arms the document's
timer; when it fires, a snapshot (version + a copy of the line list) goes to the
worker. Work whose document moved on before it started is skipped, and a result is
delivered only if the document still has the version it was computed for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from .documents import DocumentStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    uri: str
    version: int
    language_id: str
    lines: tuple[str, ...]
    size: int
    written: frozenset[str] = frozenset()  # ``Document.written``


class Scheduler:
    def __init__(
        self,
        store: DocumentStore,
        analyse: Callable[[Snapshot], Any],
        deliver: Callable[[Snapshot, Any], None],
    ):
        self.store = store
        self.analyse = analyse  # runs in the worker; returns None when it cannot analyse now
        self.deliver = deliver  # runs on the loop with a result for the current version
        self.delay_s = 0.2
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nokta-check")
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def schedule(self, uri: str, delay_s: float | None = None) -> None:
        """(Re)start the document's debounce timer."""
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        delay = self.delay_s if delay_s is None else delay_s
        self._timers[uri] = self.loop.call_later(delay, self._submit, uri)

    def schedule_all(self, delay_s: float = 0.0) -> None:
        for document in self.store.all():
            self.schedule(document.uri, delay_s)

    def forget(self, uri: str) -> None:
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        for waiter in self._waiters.pop(uri, []):
            if not waiter.done():
                waiter.set_result(None)

    def in_worker(self, work: Callable[[], Any]) -> None:
        """Run ``work`` in the analysis worker, after the analyses queued before it."""
        self._executor.submit(work)

    async def analysed(self, uri: str, timeout_s: float = 30.0) -> None:
        """Wait until the document's current version has been analysed (or timeout)."""
        document = self.store.get(uri)
        if document is None or document.analysed_version == document.version:
            return
        waiter = self.loop.create_future()
        self._waiters.setdefault(uri, []).append(waiter)
        if uri not in self._timers:
            self.schedule(uri, 0)
        try:
            await asyncio.wait_for(asyncio.shield(waiter), timeout_s)
        except TimeoutError:
            log.warning("analysis of %s did not finish within %.0f s", uri, timeout_s)

    def _submit(self, uri: str) -> None:
        self._timers.pop(uri, None)
        document = self.store.get(uri)
        if document is None:
            return
        snapshot = Snapshot(
            uri, document.version, document.language_id, tuple(document.lines), document.size, document.written
        )
        future = self.loop.run_in_executor(self._executor, self._run, snapshot)
        future.add_done_callback(lambda done: self._finish(snapshot, done))

    def _is_current(self, snapshot: Snapshot) -> bool:
        document = self.store.get(snapshot.uri)
        return document is not None and document.version == snapshot.version

    def _run(self, snapshot: Snapshot) -> Any:
        if not self._is_current(snapshot):
            return None  # superseded while queued
        return self.analyse(snapshot)

    def _finish(self, snapshot: Snapshot, done: asyncio.Future[Any]) -> None:
        if done.cancelled():
            return
        if done.exception() is not None:
            log.error("analysis of %s failed", snapshot.uri, exc_info=done.exception())
            return
        result = done.result()
        if result is None or not self._is_current(snapshot):
            return  # stale: never published
        self.deliver(snapshot, result)
        for waiter in self._waiters.pop(snapshot.uri, []):
            if not waiter.done():
                waiter.set_result(None)

    def shutdown(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
