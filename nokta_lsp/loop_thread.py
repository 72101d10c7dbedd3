"""The server's threading rule, checked: its state changes only on the event loop's thread,
and the model's caches only on the analysis worker's.

The session (and its model engine) is built on the thread that runs the event loop, and
only handlers and callbacks on that loop change it; the analysis worker and the model
loader hand their results back through the loop. The worker alone fills and sizes the
suggestion caches it reads (the look-ahead's batches go in on its thread). With
``NOKTA_LSP_CHECK_THREADS=1`` (the tests set it) every method marked ``@on_loop`` asserts
that it runs on the thread its object was built on, and every method marked
``@on_worker`` that it runs on the thread that first ran one of its object's (the worker's).
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


class LoopThread:
    """The thread an object was built on (the event loop's), checked when the rule is checked."""

    def __init__(self) -> None:
        self.ident = threading.get_ident()
        self.checked = os.environ.get(CHECK_VARIABLE) == "1"

    def check(self, what: str) -> None:
        if self.checked and threading.get_ident() != self.ident:
            raise AssertionError(f"{what} ran on thread {threading.current_thread().name!r}, not the event loop's")


class OnLoop(Protocol):
    loop_thread: LoopThread


Owner = TypeVar("Owner", bound=OnLoop)


def on_loop(method: Callable[Concatenate[Owner, P], R]) -> Callable[Concatenate[Owner, P], R]:
    """Mark a method that changes state owned by the event loop's thread."""

    @functools.wraps(method)
    def checked(self: Owner, *args: P.args, **kwargs: P.kwargs) -> R:
        self.loop_thread.check(method.__qualname__)
        return method(self, *args, **kwargs)

    return checked


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
