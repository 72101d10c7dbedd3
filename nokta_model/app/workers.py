"""Restore batches in worker processes, each loading the model once; results in input order.

Workers are started with ``spawn`` (never ``fork``: torch's threads do not survive it),
and at most two batches per worker are in flight, so memory stays bounded however long
the input is.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from ..backends import keep_for_life, load_restorer
from ..pipeline import Piece, restore_pieces
from ..restorer import Restorer

IN_FLIGHT_PER_WORKER = 2
#: Signals the command stops on: held back while a worker is being started, so that the
#: parent never leaves a worker half-started (it would print a traceback of its own).
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}

_restorer: Restorer | None = None  # the model of this worker process


def _load(backend: str, device: str) -> None:
    global _restorer
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # held back while it started
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    os.environ["OMP_NUM_THREADS"] = "1"  # one core per worker: torch must not spread over the others
    _restorer = load_restorer(backend, device=device)
    keep_for_life()


def _restore(batch: list[tuple[Piece, str]]) -> str:
    assert _restorer is not None, "worker started without its model"
    return restore_pieces(_restorer, batch)


class WorkerPool:
    def __init__(self, backend: str, device: str, jobs: int) -> None:
        self.jobs = jobs
        self.executor = ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_load, initargs=(backend, device)
        )

    def restore(self, batches: Iterable[list[tuple[Piece, str]]]) -> Iterator[str]:
        """The restored text of each batch, in the order the batches came."""
        in_flight: deque[Future[str]] = deque()
        for batch in batches:
            in_flight.append(self._submit(batch))
            if len(in_flight) >= self.jobs * IN_FLIGHT_PER_WORKER:
                yield in_flight.popleft().result()
        while in_flight:
            yield in_flight.popleft().result()

    def _submit(self, batch: list[tuple[Piece, str]]) -> Future[str]:
        """``batch`` queued; a worker the pool starts for it is started whole."""
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            return self.executor.submit(_restore, batch)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def close(self, finished: bool) -> None:
        """Stop the workers: wait for them to exit when the work is done, so none outlives
        the command; after an error or Ctrl-C, drop what is queued and return at once."""
        self.executor.shutdown(wait=finished, cancel_futures=not finished)
