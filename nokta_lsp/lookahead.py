"""Suggestions for many lines at once, asked of the restorer in a thread of its own.

The analysis worker finds an edit's rows in small batches, so that the next edit never
waits long; the default model costs about twice as much per line that way as in batches
of a thousand lines. The rest of a document (after it is opened, or after a settings or
model change) is asked for here in large batches: the worker waits for one while it
checks for a newer version, and an edit arriving meanwhile is found by the worker at
once, alongside (the network releases the GIL while it computes). Results go into the
suggestion cache on the worker's thread, the only one that touches the cache.
"""

from __future__ import annotations

import concurrent.futures
from concurrent.futures import Future, ThreadPoolExecutor

from nokta_model.restorer import Restorer, Suggestion

from .checker import SuggestionCache


class LookAhead:
    """At most one batch of texts being suggested for at a time."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nokta-ahead")
        self._texts: list[str] = []
        self._job: Future[list[list[Suggestion]]] | None = None

    @property
    def busy(self) -> bool:
        return self._job is not None

    def start(self, restorer: Restorer, texts: list[str]) -> None:
        assert self._job is None
        self._texts = texts
        self._job = self._executor.submit(restorer.suggest, texts)

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the batch; True once it is done (or when there is none)."""
        if self._job is None:
            return True
        return bool(concurrent.futures.wait([self._job], seconds).done)

    def collect(self, cache: SuggestionCache) -> None:
        """Put a finished batch's suggestions into ``cache`` (raises the restorer's error, if any)."""
        if self._job is None or not self._job.done():
            return
        job, texts, self._job, self._texts = self._job, self._texts, None, []
        for text, suggestions in zip(texts, job.result()):
            cache.put(text, suggestions)
