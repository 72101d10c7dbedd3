"""The worker's half of the server's threading rule (``state.loop_thread`` holds the event
loop's): the model's caches change only on the analysis worker's thread. With
``NOKTA_LSP_CHECK_THREADS=1`` (the tests set it) every method marked ``@on_worker``
asserts that it runs on the thread that first ran one of its object's (the worker's).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

CHECK_VARIABLE = "NOKTA_LSP_CHECK_THREADS"

P = ParamSpec("P")
R = TypeVar("R")


class WorkerThread:
    """The one thread that runs an object's ``@on_worker`` methods: the first that ran one."""

    def __init__(self) -> None:
        self.ident: int | None = None
        self.checked = os.environ.get(CHECK_VARIABLE) == "1"
        self._lock = threading.Lock()

    def check(self, what: str) -> None:
        if not self.checked:
            return
        with self._lock:
            if self.ident is None:
                self.ident = threading.get_ident()
        if threading.get_ident() != self.ident:
            raise AssertionError(f"{what} ran on thread {threading.current_thread().name!r}, not the worker's")


class OnWorker(Protocol):
    worker_thread: WorkerThread


Worker = TypeVar("Worker", bound=OnWorker)


def on_worker(method: Callable[Concatenate[Worker, P], R]) -> Callable[Concatenate[Worker, P], R]:
    """Mark a method that changes state owned by the analysis worker's thread (the model's caches)."""

    @functools.wraps(method)
    def checked(self: Worker, *args: P.args, **kwargs: P.kwargs) -> R:
        self.worker_thread.check(method.__qualname__)
        return method(self, *args, **kwargs)

    return checked
