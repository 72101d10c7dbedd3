"""Per-document debounce, one worker thread for analysis, stale results dropped.

Everything but ``analyse`` runs on the event loop. An edit re-arms the document's
timer; when it fires, the scheduler takes a snapshot from the session and hands it to
the worker as a ``Job``: the snapshot, the document's analysis state (``DocumentState``,
owned by the scheduler, changed by the worker alone) and a flag the loop sets once the
document moves on from the snapshot's version. The worker reads nothing else, and never
the session. A document has at most one job waiting for the worker: a newer job
replaces the waiting one, which the worker takes when it starts (a flood of edits would
otherwise queue a stale snapshot per edit, each with its own copy of the line list).
Work whose document moved on before it started is skipped, work whose
document moves on stops after its batch, and a result (partial or complete) goes back
into the session, and to ``deliver`` (which publishes it), only if the document still
has the version it was computed for. The model's suggestion cache is sized here, on the
loop, to hold every checked open line. Edits and the worker's batches hand freed memory
back to the system, at most once a second (``memory``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from .analysis import Analysis, DocumentState, Run, Snapshot, ahead_rows, analyse
from .memory import MemoryTrimmer
from .session import Session

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Suggestions kept for lines no longer open (undo, moved text), beyond the open lines.
CACHE_HISTORY = 5_000


@dataclass(frozen=True)
class Job:
    """One analysis for the worker: all it reads, and the state it alone changes."""

    snapshot: Snapshot
    state: DocumentState
    superseded: threading.Event  # set on the loop when the document moves on or closes
    run: Run


class Scheduler:
    def __init__(self, session: Session, deliver: Callable[[Snapshot, Analysis, bool], None]):
        self.session = session
        #: Runs on the loop with a result the session took, and whether it is a new
        #: result for a version already analysed (settings, dictionary or model changed).
        self.deliver = deliver
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nokta-check")
        self._trimmer = MemoryTrimmer()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._in_flight: dict[str, int] = {}  # analyses submitted and not finished, per document
        self._waiting: dict[str, Job] = {}  # each document's job not yet started
        self._states: dict[str, DocumentState] = {}  # each checked document's, lent to the worker
        self._versions: dict[str, tuple[int, threading.Event]] = {}  # the version analysed, its flag
        self._waiting_lock = threading.Lock()
        self.idle = threading.Event()  # set while nothing is scheduled or running
        self.idle.set()
        self.idle_changed: Callable[[], None] = lambda: None  # called on the loop when idle is set or cleared
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def schedule(self, uri: str, delay_s: float | None = None) -> None:
        """(Re)start the document's debounce timer (none while checking is paused)."""
        self._trimmer.maybe_trim()
        self._note_superseded(uri)
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if self.session.paused:
            self._note_idle()
            return
        delay = self.session.settings.debounceMs / 1000 if delay_s is None else delay_s
        self._timers[uri] = self.loop.call_later(delay, self._submit, uri)
        self.idle.clear()
        self.idle_changed()

    def schedule_all(self, delay_s: float = 0.0) -> None:
        for uri in self.session.uris():
            self.schedule(uri, delay_s)
        self._note_idle()

    def _note_idle(self) -> None:
        if not self._timers and not self._in_flight:
            self.idle.set()
            self.idle_changed()

    def pause(self) -> None:
        """Checking paused: no analysis starts (one running finishes unpublished), no request waits."""
        for uri in list(self._timers):
            self._timers.pop(uri).cancel()
        for uri in list(self._waiters):
            self._wake(uri)
        self._note_idle()

    def forget(self, uri: str) -> None:
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self._note_superseded(uri)
        self._states.pop(uri, None)
        self._wake(uri)
        self._note_idle()

    def _settled(self, uri: str) -> bool:
        """Analysed to the end, with nothing scheduled or running (after a settings or model change)."""
        return self.session.is_analysed(uri) and uri not in self._timers and not self._in_flight.get(uri)

    async def analysed(self, uri: str, timeout_s: float = 30.0) -> None:
        """Wait until the document's current version has been analysed and no analysis of it
        is scheduled or running (or timeout, or checking is paused). A request waiting for it
        cuts the debounce short."""
        if self._settled(uri) or self.session.paused:
            return
        waiter = self.loop.create_future()
        self._waiters.setdefault(uri, []).append(waiter)
        if not self._in_flight.get(uri):
            self.schedule(uri, 0)
        try:
            await asyncio.wait_for(asyncio.shield(waiter), timeout_s)
        except TimeoutError:
            log.warning("analysis of %s did not finish within %.0f s", uri, timeout_s)

    def _note_superseded(self, uri: str) -> None:
        """Flag the analysis of an older version (or of a closed document) to stop."""
        analysed = self._versions.get(uri)
        document = self.session.document(uri)
        if analysed is not None and (document is None or document.version != analysed[0]):
            analysed[1].set()
            del self._versions[uri]

    def _submit(self, uri: str) -> None:
        self._timers.pop(uri, None)
        snapshot = self.session.snapshot(uri)
        if snapshot is None:
            self._note_idle()
            return
        job = self._job(snapshot)
        with self._waiting_lock:
            job_waiting = uri in self._waiting
            self._waiting[uri] = job
        if job_waiting:
            return  # the worker takes this job instead when it starts the waiting one
        self._in_flight[uri] = self._in_flight.get(uri, 0) + 1
        future = self.loop.run_in_executor(self._executor, self._start, uri)
        future.add_done_callback(lambda done: self._finish(uri, done))

    def _job(self, snapshot: Snapshot) -> Job:
        """The snapshot with the state, superseded flag and callbacks the worker uses."""
        uri, loop = snapshot.uri, self.loop
        if snapshot.masker is None:  # not checked: its state goes (``analyse`` does not use one)
            self._states.pop(uri, None)
        state = self._states.setdefault(uri, DocumentState()) if snapshot.masker else DocumentState()
        self._note_superseded(uri)
        _, superseded = self._versions.setdefault(uri, (snapshot.version, threading.Event()))
        if snapshot.model is not None:  # a batch asked is kept until found
            snapshot.model.cache.max_lines = max(self._cache_lines(), ahead_rows(snapshot.model))

        def hand_back(partial: Analysis) -> None:
            loop.call_soon_threadsafe(self._partial, snapshot, partial)

        def stop() -> bool:  # asked between batches
            self._trimmer.maybe_trim()
            return superseded.is_set()

        return Job(snapshot, state, superseded, Run(stop, hand_back))

    def _cache_lines(self) -> int:
        """Room for every checked open line (a settings change re-checks them all) and some history."""
        documents = (self.session.document(uri) for uri in self._states)
        return sum(len(document.lines) for document in documents if document is not None) + CACHE_HISTORY

    def _start(self, uri: str) -> tuple[Snapshot, Analysis | None]:
        """In the worker: analyse the document's newest job."""
        with self._waiting_lock:
            job = self._waiting.pop(uri)
        if job.superseded.is_set():
            return job.snapshot, None  # superseded while queued
        try:
            return job.snapshot, analyse(job.snapshot, job.state, job.run)
        finally:
            self._trimmer.maybe_trim()

    def _partial(self, snapshot: Snapshot, partial: Analysis) -> None:
        if self.session.is_current(snapshot):
            self.deliver(snapshot, partial, self.session.accept(snapshot, partial))

    def _finish(self, uri: str, done: asyncio.Future[tuple[Snapshot, Analysis | None]]) -> None:
        self._in_flight[uri] -= 1
        if not self._in_flight[uri]:
            del self._in_flight[uri]
        self._note_idle()
        if done.cancelled():
            return
        if done.exception() is not None:
            log.error("analysis of %s failed", uri, exc_info=done.exception())
            return
        snapshot, result = done.result()
        if not self.session.is_current(snapshot):  # stale: never published
            if self._waiters.get(uri) and not self._in_flight.get(uri) and uri in self.session.documents:
                self.schedule(uri, 0)  # a request waits for the newer version: no debounce
            return
        if result is None:
            return  # no model yet: its load analyses the document again
        self.deliver(snapshot, result, self.session.accept(snapshot, result))
        if self._settled(uri):
            self._wake(uri)

    def documents_waiting(self) -> bool:
        """Whether a document's analysis waits for the worker (asked from any thread)."""
        return bool(self._waiting)

    async def in_worker(self, step: Callable[[Callable[[], bool]], T]) -> T:
        """Run ``step`` in the worker after the document analyses waiting for it; ``step``
        gets ``documents_waiting`` to return when one comes (a workspace check's steps)."""
        return await self.loop.run_in_executor(self._executor, step, self.documents_waiting)

    def _wake(self, uri: str) -> None:
        for waiter in self._waiters.pop(uri, []):
            if not waiter.done():
                waiter.set_result(None)

    def shutdown(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
