"""One open document and everything the server keeps about it, in one record
(``Session.documents``), changed on the event loop: its text and version, its last
analysis and the last complete one's result id, what was shown for it (the diagnostics
pushed, the findings its inlay hints were refreshed for, the "Checking" progress), its
autocorrect state and its place in the scheduler (``Slot``). Closing the document is
``close``: its timer is cancelled, its running analysis told to stop, requests waiting
for it answered; nothing of it is kept anywhere else.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field

from ..analysis.autocorrect import Autocorrector
from ..analysis.documents import Document
from ..analysis.worker import Analysis, DocumentState, Job


@dataclass(frozen=True)
class LastResult:
    """An analysis with the version and the lines it analysed."""

    version: int
    lines: tuple[str, ...]
    analysis: Analysis


@dataclass(eq=False)
class Slot:
    """A document's place in the scheduler (``scheduler.Scheduler``)."""

    timer: asyncio.TimerHandle | None = None  # the debounce
    waiters: list[asyncio.Future[None]] = field(default_factory=list)  # requests waiting for its analysis
    in_flight: int = 0  # analyses submitted to the worker and not finished
    #: The job not yet started: replaced by a newer one, taken by the worker (under the
    #: scheduler's lock, the only field the worker touches).
    waiting: Job | None = None
    state: DocumentState | None = None  # kept between analyses, lent to the worker with each job
    #: The version analysed and its superseded flag (set when the document moves on).
    analysed: tuple[int, threading.Event] | None = None

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def supersede(self, version: int | None) -> None:
        """Flag the analysis of another version than ``version`` (None: closed) to stop."""
        if self.analysed is not None and self.analysed[0] != version:
            self.analysed[1].set()
            self.analysed = None

    def wake(self) -> None:
        """Answer the requests waiting for the analysis."""
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def close(self) -> None:
        self.cancel_timer()
        self.supersede(None)
        self.state = None
        self.wake()


@dataclass(eq=False)
class OpenDocument:
    document: Document
    last: LastResult | None = None  # the last analysis, current or not
    completed: tuple[int, str] | None = None  # the last complete analysis's version and result id
    too_big_warned: bool = False  # larger than ``maxFileSize``: warned once
    pushed: str | None = None  # the result id of the diagnostics last pushed
    hinted: str | None = None  # the findings id the inlay hints were last refreshed for
    progress: str | None = None  # the work-done progress token while it is published in parts
    autocorrector: Autocorrector = field(default_factory=Autocorrector)
    slot: Slot = field(default_factory=Slot)

    @property
    def uri(self) -> str:
        return self.document.uri

    @property
    def version(self) -> int:
        return self.document.version

    def close(self) -> None:
        self.slot.close()
