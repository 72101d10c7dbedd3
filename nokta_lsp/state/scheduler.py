"""Per-document debounce, one worker thread for analysis, stale results dropped.

Everything but ``_start`` runs on the event loop. An edit re-arms the document's timer
(in its record's ``Slot``); when it fires, the scheduler takes a snapshot from the session
and hands it to the worker as a ``Job``: the snapshot, the document's analysis state
(``DocumentState``, held by its slot, changed by the worker alone), a flag the loop sets
once the document moves on from the snapshot's version, and the size the model's
suggestion cache is given (room for every checked open line), which the worker sets: the
caches are its own. The worker reads nothing else, and never the session. A document has
at most one job waiting for the worker: a newer job replaces the waiting one, which the
worker takes when it starts (a flood of edits would otherwise queue a stale snapshot per
edit, each with its own copy of the line list). Work whose document moved on before it
started is skipped, work whose document moves on stops after its batch, and a result
(partial or complete) goes back into the session, and to ``deliver`` (which publishes
it), only if the document is still open with the version it was computed for. Edits and
the worker's batches hand freed memory back to the system, at most once a second
(``memory``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ..analysis.worker import Analysis, DocumentState, Job, Run, Snapshot, ahead_rows, analyse
from ..analysis.worker_thread import WorkerThread, on_worker
from .memory import MemoryTrimmer
from .open_document import OpenDocument, Slot
from .session import Session

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Suggestions kept for lines no longer open (undo, moved text), beyond the open lines.
CACHE_HISTORY = 5_000


class Scheduler:
    def __init__(self, session: Session, deliver: Callable[[Snapshot, Analysis, bool], None]):
        self.session = session
        #: Runs on the loop with a result the session took, and whether it is a new
        #: result for a version already analysed (settings, dictionary or model changed).
        self.deliver = deliver
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nokta-check")
        self.worker_thread = WorkerThread()
        self._trimmer = MemoryTrimmer()
        self._lock = threading.Lock()  # guards the slots' waiting jobs, which the worker takes
        self._jobs_waiting = 0  # slots with a job waiting (read from the worker)
        self._running = 0  # analyses submitted and not finished, of documents open or closed
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
        record = self.session.documents.get(uri)
        if record is None:
            self.note_idle()
            return
        record.slot.supersede(record.version)
        record.slot.cancel_timer()
        if self.session.paused:
            self.note_idle()
            return
        delay = self.session.settings.debounceMs / 1000 if delay_s is None else delay_s
        record.slot.timer = self.loop.call_later(delay, self._submit, record)
        self.idle.clear()
        self.idle_changed()

    def schedule_all(self, delay_s: float = 0.0) -> None:
        for uri in self.session.uris():
            self.schedule(uri, delay_s)
        self.note_idle()

    def note_idle(self) -> None:
        """Set ``idle`` when no document's analysis is scheduled or running (after a close too)."""
        if not self._running and all(record.slot.timer is None for record in self.session.documents.values()):
            self.idle.set()
            self.idle_changed()

    def pause(self) -> None:
        """Checking paused: no analysis starts (one running finishes unpublished), no request waits."""
        for record in self.session.documents.values():
            record.slot.cancel_timer()
            record.slot.wake()
        self.note_idle()

    def _settled(self, record: OpenDocument) -> bool:
        """Analysed to the end, with nothing scheduled or running (after a settings or model change)."""
        slot = record.slot
        return self.session.is_analysed(record.uri) and slot.timer is None and not slot.in_flight

    async def analysed(self, uri: str, timeout_s: float = 30.0) -> None:
        """Wait until the document's current version has been analysed and no analysis of it
        is scheduled or running (or timeout, or checking is paused, or it is not open). A
        request waiting for it cuts the debounce short."""
        record = self.session.documents.get(uri)
        if record is None or self._settled(record) or self.session.paused:
            return
        waiter = self.loop.create_future()
        record.slot.waiters.append(waiter)
        if not record.slot.in_flight:
            self.schedule(uri, 0)
        try:
            await asyncio.wait_for(asyncio.shield(waiter), timeout_s)
        except TimeoutError:
            log.warning("analysis of %s did not finish within %.0f s", uri, timeout_s)

    def _is_current(self, record: OpenDocument, snapshot: Snapshot) -> bool:
        """Whether the document is still open, with the snapshot's version."""
        return self.session.documents.get(record.uri) is record and record.version == snapshot.version

    def _submit(self, record: OpenDocument) -> None:
        slot = record.slot
        slot.timer = None
        snapshot = self.session.snapshot(record.uri)
        if snapshot is None:
            self.note_idle()
            return
        job = self._job(record, snapshot)
        with self._lock:
            job_waiting = slot.waiting is not None
            slot.waiting = job
            self._jobs_waiting += not job_waiting
        if job_waiting:
            return  # the worker takes this job instead when it starts the waiting one
        slot.in_flight += 1
        self._running += 1
        future = self.loop.run_in_executor(self._executor, self._start, slot)
        future.add_done_callback(lambda done: self._finish(record, done))

    def _job(self, record: OpenDocument, snapshot: Snapshot) -> Job:
        """The snapshot with the state, superseded flag, callbacks and cache size the worker uses."""
        slot, loop = record.slot, self.loop
        if snapshot.masker is None:  # not checked: its state goes (``analyse`` does not use one)
            slot.state = None
        elif slot.state is None:
            slot.state = DocumentState()
        state = slot.state or DocumentState()
        slot.supersede(snapshot.version)
        if slot.analysed is None:
            slot.analysed = (snapshot.version, threading.Event())
        superseded = slot.analysed[1]

        def hand_back(partial: Analysis) -> None:
            loop.call_soon_threadsafe(self._partial, record, snapshot, partial)

        def stop() -> bool:  # asked between batches
            self._trimmer.maybe_trim()
            return superseded.is_set()

        return Job(snapshot, state, superseded, Run(stop, hand_back), self._cache_lines())

    def _cache_lines(self) -> int:
        """Room for every checked open line (a settings change re-checks them all) and some history."""
        checked = (record for record in self.session.documents.values() if record.slot.state is not None)
        return sum(len(record.document.lines) for record in checked) + CACHE_HISTORY

    @on_worker
    def _start(self, slot: Slot) -> tuple[Snapshot, Analysis | None]:
        """In the worker: analyse the document's newest job."""
        with self._lock:
            job, slot.waiting = slot.waiting, None
            self._jobs_waiting -= 1
        assert job is not None  # one job waits for each start submitted
        model = job.snapshot.model
        if model is not None:  # a batch asked is kept until found
            model.cache.max_lines = max(job.cache_lines, ahead_rows(model))
        if job.superseded.is_set():
            return job.snapshot, None  # superseded while queued
        try:
            return job.snapshot, analyse(job.snapshot, job.state, job.run)
        finally:
            self._trimmer.maybe_trim()

    def _partial(self, record: OpenDocument, snapshot: Snapshot, partial: Analysis) -> None:
        if self._is_current(record, snapshot):
            self.deliver(snapshot, partial, self.session.accept(snapshot, partial))

    def _finish(self, record: OpenDocument, done: asyncio.Future[tuple[Snapshot, Analysis | None]]) -> None:
        slot = record.slot
        slot.in_flight -= 1
        self._running -= 1
        self.note_idle()
        if done.cancelled():
            return
        if done.exception() is not None:
            log.error("analysis of %s failed", record.uri, exc_info=done.exception())
            return
        snapshot, result = done.result()
        if not self._is_current(record, snapshot):  # stale: never published
            if slot.waiters and not slot.in_flight and self.session.documents.get(record.uri) is record:
                self.schedule(record.uri, 0)  # a request waits for the newer version: no debounce
            return
        if result is None:
            return  # no model yet: its load analyses the document again
        self.deliver(snapshot, result, self.session.accept(snapshot, result))
        if self._settled(record):
            slot.wake()

    def documents_waiting(self) -> bool:
        """Whether a document's analysis waits for the worker (asked from any thread)."""
        return self._jobs_waiting > 0

    async def in_worker(self, step: Callable[[Callable[[], bool]], T]) -> T:
        """Run ``step`` in the worker after the document analyses waiting for it; ``step``
        gets ``documents_waiting`` to return when one comes (a workspace check's steps)."""
        return await self.loop.run_in_executor(self._executor, step, self.documents_waiting)

    def shutdown(self) -> None:
        for record in self.session.documents.values():
            record.slot.cancel_timer()
        self._executor.shutdown(wait=False, cancel_futures=True)
