"""Handing memory that Python freed back to the system.

glibc's malloc keeps freed blocks in its arenas for reuse, and the analysis worker's
arena fragments: under ``bench.lsp_soak``'s flood of edits the server's RSS grew while
the memory Python held stayed flat (tracemalloc). ``malloc_trim(0)`` returns the free
pages of every arena; it takes milliseconds, so it runs at most once a second, asked by
edits on the event loop (whose parsing fragments the main arena) and by the worker
between batches. Elsewhere (macOS, Windows, musl) there is nothing to call.

glibc also raises its threshold for serving a large block from ``mmap`` each time such a
block is freed, so after the first few numpy arrays of a batch were freed, the next ones
came from the arenas and fragmented them: ``bench.lsp_latency`` measured 382 MB resident
after a 10,000-line document with the threshold moving, 335 MB with it held at glibc's
starting 128 KiB (``hold_mmap_threshold``). Trimming alone does not give those pages back.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time
from collections.abc import Callable

#: Seconds between two trims at least.
TRIM_INTERVAL_S = 1.0
#: glibc's ``mallopt`` parameter for the mmap threshold, and the threshold held: its default start.
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 128 * 1024


def _libc_function(name: str) -> Callable[..., int] | None:
    library = ctypes.util.find_library("c")
    if library is None:
        return None
    try:
        return getattr(ctypes.CDLL(library), name)
    except (OSError, AttributeError):  # no C library to load, or one without the function (not glibc)
        return None


def hold_mmap_threshold() -> bool:
    """Serve every block of MMAP_THRESHOLD_BYTES or more from ``mmap``, from now on, so
    that freeing it gives it back; True where glibc took the setting."""
    mallopt = _libc_function("mallopt")
    return mallopt is not None and mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1


class MemoryTrimmer:
    """Calls ``malloc_trim`` when asked (from any thread), at most once every ``interval_s``."""

    def __init__(self, interval_s: float = TRIM_INTERVAL_S) -> None:
        self.interval_s = interval_s
        self._trim = _libc_function("malloc_trim")
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
