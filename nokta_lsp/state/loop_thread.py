"""The server's threading rule, checked: its state changes only on the event loop's thread,
and the model's caches only on the analysis worker's (``analysis.worker_thread``).

The session (and its model engine) is built on the thread that runs the event loop, and
only handlers and callbacks on that loop change it; the analysis worker and the model
loader hand their results back through the loop. The worker alone fills and sizes the
suggestion caches it reads (the look-ahead's batches go in on its thread). With
``NOKTA_LSP_CHECK_THREADS=1`` (the tests set it) every method marked ``@on_loop`` asserts
that it runs on the thread its object was built on.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from ..analysis.worker_thread import CHECK_VARIABLE

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
