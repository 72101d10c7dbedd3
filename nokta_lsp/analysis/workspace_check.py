"""A workspace check in the analysis worker: files read, their prose found as ``nokta check``
finds it (the format's masker reading directives and the configuration's
``ignore-regex``; ``nokta: ignore`` for the whole file), their suggestions asked of the
model's look-ahead in large batches into the run's own cache (the open documents' cache
keeps their lines), their findings serialised as diagnostics: as for an open document, at
most ``maxDiagnostics`` (the first from the top), or one for the whole file when most of it
is typed without Turkish letters. No protocol types here.

The run is lent to the worker one ``step`` at a time. A step returns as soon as a
document's analysis is waiting (so an edit waits at most for one file to be read and
masked, or one file's findings), and after ``STEP_S`` so the loop can report what is
done; the look-ahead's threads ask the model meanwhile.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from nokta_model.check.findings import (
    CheckOptions,
    Finding,
    SuggestionCache,
    line_findings,
    model_input,
    suggestions_for,
    uncached,
)
from nokta_model.check.words import word_key
from nokta_model.errors import NoktaError
from nokta_model.pipeline import document_lines
from nokta_model.prose import Masker
from nokta_model.prose.directives import document_ignores

from .diagnostics import diagnostics_json_text, document_diagnostic_json, typed_without
from .documents import Codec
from .incremental import turkish_words
from .lookahead import LookAhead
from .model import Model
from .worker import AHEAD_LINES, POLL_S, ahead_rows
from .workspace_files import WorkspaceFile

log = logging.getLogger(__name__)

#: The longest a step runs before the loop hears of the files it checked.
STEP_S = 0.5


@dataclass(frozen=True)
class FileCheck:
    """One file to check, and how (taken from the session on the loop)."""

    uri: str
    file: WorkspaceFile
    masker: Masker  # reading directives and the configuration's ignore-regex
    options: CheckOptions
    key: Hashable  # what its report depends on besides the file (settings, model)


@dataclass(frozen=True)
class FileReport:
    uri: str
    stamp: tuple[int, int]  # the file's size and modification time when it was read
    key: Hashable
    diagnostics_json: str  # comma-separated JSON objects, as ``PublishedDiagnostics`` makes them
    count: int
    result_id: str  # changes with the diagnostics only


def file_report(check: FileCheck, diagnostics_json: str, count: int) -> FileReport:
    digest = hashlib.blake2b(diagnostics_json.encode("ascii"), digest_size=8).hexdigest()
    return FileReport(check.uri, check.file.stamp, check.key, diagnostics_json, count, f"w{digest}")


@dataclass
class _Read:
    """A file read and masked, waiting for its suggestions."""

    check: FileCheck
    lines: list[str]
    texts: list[str]  # what the model sees of each line
    options: CheckOptions  # with the words its directives ignore


class WorkspaceRun:
    """The files of one workspace check, lent to the worker a step at a time; the loop
    takes the reports done between steps."""

    def __init__(self, checks: list[FileCheck], model: Model, codec: Codec, severity: str, limit: int) -> None:
        self.model, self.codec, self.severity = model, codec, severity
        self.limit = limit  # diagnostics a file's report holds at most (``maxDiagnostics``)
        self.todo = deque(checks)
        self.read: deque[_Read] = deque()
        self.done: list[FileReport] = []
        self.cancelled = threading.Event()  # set by the loop: the request was cancelled
        self._texts_read = 0
        self._unasked: list[str] = []  # texts read that the look-ahead has not been asked for
        self._ahead = ahead_rows(model)  # texts read ahead of the file being finished
        self.cache = SuggestionCache(2 * self._ahead)

    @property
    def finished(self) -> bool:
        return not self.todo and not self.read

    def take(self) -> list[FileReport]:
        """On the loop, between steps: the reports done since the last time."""
        done, self.done = self.done, []
        return done

    def step(self, yield_to: Callable[[], bool]) -> bool:
        """In the worker: check files until all are done (True), a document's analysis waits
        (``yield_to``), the run is cancelled or ``STEP_S`` passed (False)."""
        ahead, deadline = self.model.ahead, time.perf_counter() + STEP_S
        while not self.finished:
            if self.cancelled.is_set() or yield_to() or time.perf_counter() > deadline:
                return False
            ahead.collect()
            can_read = bool(self.todo) and self._texts_read < self._ahead
            if self.read and not uncached(self.read[0].texts, self.cache):
                self.done.append(self._finish(self.read.popleft()))
            elif self._may_ask(ahead) and (len(self._unasked) >= AHEAD_LINES or (self._unasked and not can_read)):
                texts = uncached(self._unasked, self.cache)
                ahead.start(texts[:AHEAD_LINES], AHEAD_LINES, self.cache)
                self._unasked = texts[AHEAD_LINES:]
            elif can_read:
                self._read(self.todo.popleft())
            else:
                ahead.wait(POLL_S)
        return True

    def _may_ask(self, ahead: LookAhead) -> bool:
        """One batch of the run's at a time: the edits analysed meanwhile share the CPU (and
        the GIL) with one look-ahead thread, not all of them."""
        return bool(ahead.free_slots) and not ahead.asking(self.cache)

    def _read(self, check: FileCheck) -> None:
        try:
            lines = document_lines(check.file.path.read_bytes(), str(check.file.path))
        except (OSError, NoktaError) as error:  # gone, unreadable or not UTF-8 text: nothing flagged
            log.info("workspace diagnostics: %s not checked: %s", check.file.path, error)
            self.done.append(file_report(check, "", 0))
            return
        options = check.options
        ignored = document_ignores(check.masker, lines)
        if ignored:
            options = replace(options, ignore=options.ignore | {word_key(word) for word in ignored})
        texts = model_input(lines, check.masker, options.max_line_length)
        self.read.append(_Read(check, lines, texts, options))
        self._texts_read += len(texts)
        self._unasked.extend(texts)

    def _finish(self, read: _Read) -> FileReport:
        self._texts_read -= len(read.texts)
        suggestions = suggestions_for(read.texts, self.model.restorer, self.cache)
        found = [
            findings
            for row, (text, suggested) in enumerate(zip(read.texts, suggestions, strict=True))
            if (findings := line_findings(row, text, suggested, read.options))
        ]
        return file_report(read.check, self._diagnostics(read, found), sum(map(len, found)))

    def _diagnostics(self, read: _Read, found: list[tuple[Finding, ...]]) -> str:
        """The diagnostics of a file's findings (per line with any): at most ``limit``."""
        confident = sum(finding.confident for findings in found for finding in findings)
        # the words typed with a Turkish letter are counted only for a file over the limit
        if confident > self.limit and typed_without(confident, sum(map(turkish_words, read.texts)), self.limit):
            return document_diagnostic_json(confident, read.lines[0] if read.lines else "", self.codec)
        parts, left = [], self.limit
        for findings in found:
            shown = findings[:left]
            if not shown:
                break
            parts.append(diagnostics_json_text(shown, read.lines[shown[0].line], self.codec, self.severity))
            left -= len(shown)
        return ",".join(parts)


class WorkspaceReports:
    """What the server keeps of its workspace checks, on the loop: each file's last report,
    the files the check command published diagnostics for, the model they were made with."""

    def __init__(self) -> None:
        self.reports: dict[str, FileReport] = {}
        self.published: set[str] = set()
        self.model: Model | None = None
        self.warned = False  # that the workspace has more files than are checked
        self.lock = asyncio.Lock()  # one check at a time: the next one starts from its reports

    def made_with(self, model: Model) -> None:
        """Forget the reports made with another model."""
        if model is not self.model:
            self.reports.clear()
            self.model = model
