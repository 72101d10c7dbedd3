"""Suggestions for many lines at once, asked of the restorer in a thread of its own.

The analysis worker finds an edit's rows in small batches, so that the next edit never
waits long; the default model costs about twice as much per line that way as in batches
of a thousand lines. The rest of a document (after it is opened, or after a settings or
model change) is asked for here in large batches: the worker waits for one while it
checks for a newer version, and an edit arriving meanwhile is found by the worker at
once, alongside (the network releases the GIL while it computes). A restorer whose
network leaves room for it (``Restorer.concurrent_batches``) has several batches asked at
once, one's Python work overlapping another's network. Each batch's results go into the
suggestion cache it was asked for (the open documents' or a workspace check's), on the
worker's thread, the only one that fills or sizes them (``@on_worker``), in the order the
batches were asked.
"""

from __future__ import annotations

import concurrent.futures
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor

from nokta_model.check.findings import SuggestionCache
from nokta_model.restorer import Restorer, Suggestion

from .worker_thread import WorkerThread, on_worker


class LookAhead:
    """Up to ``restorer.concurrent_batches`` batches of texts being suggested for at a time."""

    def __init__(self, restorer: Restorer) -> None:
        self.restorer = restorer
        self.worker_thread = WorkerThread()
        self._executor = ThreadPoolExecutor(restorer.concurrent_batches, thread_name_prefix="nokta-ahead")
        #: The batches being asked, oldest first: texts, the cache they go into, the answer.
        self._jobs: deque[tuple[list[str], SuggestionCache, Future[list[list[Suggestion]]]]] = deque()

    @property
    def busy(self) -> bool:
        return bool(self._jobs)

    def asking(self, cache: SuggestionCache) -> bool:
        """Whether a batch for ``cache`` is being asked."""
        return any(into is cache for _, into, _ in self._jobs)

    @property
    def free_slots(self) -> int:
        return self.restorer.concurrent_batches - len(self._jobs)

    @on_worker
    def start(self, texts: list[str], batch_lines: int, cache: SuggestionCache) -> None:
        """Ask for the ``texts`` not yet asked for ``cache``, in batches of ``batch_lines``,
        one per free slot."""
        asked = {text for batch, into, _ in self._jobs if into is cache for text in batch}
        texts = [text for text in texts if text not in asked]
        batches = [texts[first : first + batch_lines] for first in range(0, len(texts), batch_lines)]
        for batch in batches[: self.free_slots]:
            self._jobs.append((batch, cache, self._executor.submit(self.restorer.suggest, batch)))

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the oldest batch; True once it is done (or when there is none)."""
        return not self._jobs or bool(concurrent.futures.wait([self._jobs[0][2]], seconds).done)

    @on_worker
    def collect(self) -> None:
        """Put the finished batches' suggestions into their caches, oldest first, up to the
        first one still being asked (raises the restorer's error, if any)."""
        while self._jobs and self._jobs[0][2].done():
            texts, cache, job = self._jobs.popleft()
            for text, suggestions in zip(texts, job.result(), strict=True):
                cache.put(text, suggestions)
