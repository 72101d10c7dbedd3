"""Handing memory that Python freed back to the system.

glibc's malloc keeps freed blocks in its arenas for reuse, and the analysis worker's
arena fragments: under ``bench.lsp_soak``'s flood of edits the server's RSS grew while
the memory Python held stayed flat (tracemalloc). ``malloc_trim(0)`` returns the free
pages of every arena; it takes milliseconds, so it runs at most once a second, asked by
edits on the event loop (whose parsing fragments the main arena) and by the worker
between batches. Elsewhere (macOS, Windows, musl) there is nothing to call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time
from collections.abc import Callable

#: Seconds between two trims at least.
TRIM_INTERVAL_S = 1.0


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # no C library to load, or one without malloc_trim
        return None


class MemoryTrimmer:
    """Calls ``malloc_trim`` when asked (from any thread), at most once every ``interval_s``."""

    def __init__(self, interval_s: float = TRIM_INTERVAL_S) -> None:
        self.interval_s = interval_s
        self._trim = _malloc_trim()
        self._last = time.monotonic()
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        return self._trim is not None

    def maybe_trim(self) -> bool:
        """Trim if the interval has passed since the last trim; True when it trimmed."""
        if self._trim is None or time.monotonic() - self._last < self.interval_s:
            return False
        if not self._lock.acquire(blocking=False):
            return False  # the other thread is trimming
        try:
            self._trim(0)
            self._last = time.monotonic()
        finally:
            self._lock.release()
        return True
