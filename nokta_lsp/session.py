"""The server's state: documents, settings, resolved client capabilities, the model
engine, the dictionary and each document's last analysis.

Mutated only on the event loop (handlers; ``loop_thread`` checks the methods marked
``@on_loop`` when asked); the analysis worker gets an immutable ``Snapshot`` and its
``Analysis`` comes back through ``accept``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from nokta_model.backends import load_restorer
from nokta_model.check.findings import CheckOptions, Finding, document_masker
from nokta_model.prose import Masker

from .analysis import Analysis, Snapshot
from .autocorrect import Autocorrector
from .dictionary import Dictionary
from .documents import Codec, Document, DocumentStore
from .edits import carry_findings
from .engine import Engine, Loader
from .loop_thread import LoopThread, on_loop
from .settings import Settings, parse_settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClientCapabilities:
    """What the client said it supports, reduced to what the server asks."""

    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False
    work_done_progress: bool = False
    configuration: bool = False
    document_changes: bool = False  # takes versioned edits (``WorkspaceEdit.documentChanges``)
    status_notification: bool = False  # takes ``nokta/status`` (``experimental.noktaStatus``)

    @classmethod
    def resolve(cls, capabilities: types.ClientCapabilities) -> ClientCapabilities:
        text_document, workspace, window = capabilities.text_document, capabilities.workspace, capabilities.window
        experimental = capabilities.experimental if isinstance(capabilities.experimental, dict) else {}
        return cls(
            pull_diagnostics=bool(text_document and text_document.diagnostic),
            diagnostic_refresh=bool(workspace and workspace.diagnostics and workspace.diagnostics.refresh_support),
            work_done_progress=bool(window and window.work_done_progress),
            configuration=bool(workspace and workspace.configuration),
            document_changes=bool(workspace and workspace.workspace_edit and workspace.workspace_edit.document_changes),
            status_notification=experimental.get("noktaStatus") is True,
        )


@dataclass(frozen=True)
class SettingsChange:
    warnings: list[str]  # not shown for the settings in force before
    model_changed: bool
    changed: bool


class Session:
    def __init__(self, loader: Loader = load_restorer) -> None:
        self.loop_thread = LoopThread()  # the event loop's: the session is built there
        self.documents = DocumentStore()
        self.settings = Settings()
        self.capabilities = ClientCapabilities()
        self.engine = Engine(loader, self.loop_thread)
        self.dictionary = Dictionary()
        self.root: str | None = None
        #: The last analysis of each document, with the version and the lines it analysed.
        self._results: dict[str, tuple[int, tuple[str, ...], Analysis]] = {}
        self._completed: dict[str, tuple[int, str]] = {}  # the last complete one's version and result id
        self._skipped: set[str] = set()  # too big to check: warned once
        self._settings_warnings: set[str] = set()  # shown for the settings now in force
        #: Work-done progress tokens of documents whose analysis is published in parts.
        self.checking: dict[str, str] = {}
        #: Each document's autocorrect state (``features.autocorrect``), made on its first request.
        self.autocorrectors: dict[str, Autocorrector] = {}
        #: Checking and autocorrect paused by the user (``features.status``).
        self.paused = False

    @property
    def codec(self) -> Codec:
        return self.documents.codec

    @on_loop
    def initialize(self, capabilities: types.ClientCapabilities, position_encoding: str, root: str | None) -> None:
        self.capabilities = ClientCapabilities.resolve(capabilities)
        self.documents.codec = Codec(position_encoding)
        self.root = root

    # --- settings ---------------------------------------------------------------------

    @on_loop
    def apply_settings(self, raw: Any) -> SettingsChange:
        """Take new settings (never raises)."""
        settings, warnings = parse_settings(raw, self.settings)
        new_warnings = [w for w in warnings if w not in self._settings_warnings]  # several routes, one warning
        self._settings_warnings = set(warnings)
        change = SettingsChange(
            new_warnings, settings.model_key() != self.settings.model_key(), settings != self.settings
        )
        self.settings = settings
        self.dictionary.configure(settings.ignoreWords, settings.dictionaryPath, self.root)
        return change

    def options_for(self, uri: str) -> CheckOptions:
        s = self.settings
        return CheckOptions(
            s.confidenceThreshold,
            s.strictConfidenceThreshold,
            s.ambiguous == "hint",
            self.dictionary.words_for(uri),
            s.maxLineLength,
        )

    # --- documents --------------------------------------------------------------------

    def document(self, uri: str) -> Document | None:
        return self.documents.get(uri)

    @on_loop
    def open(self, uri: str, language_id: str, version: int, text: str) -> None:
        self.documents.open(uri, language_id, version, text)

    @on_loop
    def change(self, uri: str, version: int, changes: list[tuple[Any, str]]) -> None:
        self.documents.change(uri, version, changes)

    @on_loop
    def close(self, uri: str) -> None:
        self.documents.close(uri)
        self._results.pop(uri, None)
        self._completed.pop(uri, None)
        self._skipped.discard(uri)
        self.autocorrectors.pop(uri, None)

    def uris(self) -> list[str]:
        return [document.uri for document in self.documents.all()]

    # --- analysis ---------------------------------------------------------------------

    @on_loop
    def snapshot(self, uri: str) -> Snapshot | None:
        """What the worker needs to analyse the document's current version."""
        document = self.documents.get(uri)
        if document is None:
            return None
        return Snapshot(
            uri,
            document.version,
            tuple(document.lines),
            self._masker(document),
            self.options_for(uri),
            self.settings.severity,
            self.codec,
            self.engine.model,
            document.written,
            document.cursor if self.settings.hideWhileTyping else None,
        )

    def _masker(self, document: Document) -> Masker | None:
        settings = self.settings
        masker = document_masker(document.language_id, settings.fileTypes, settings.checkCodeComments)
        return None if masker is None or self._too_big(document) else masker

    def _too_big(self, document: Document) -> bool:
        limit = self.settings.maxFileSize
        if document.size <= limit:
            self._skipped.discard(document.uri)
            return False
        if document.uri not in self._skipped:
            self._skipped.add(document.uri)
            log.warning(
                "%s has %d characters, more than maxFileSize %d: not checked", document.uri, document.size, limit
            )
        return True

    def is_current(self, snapshot: Snapshot) -> bool:
        document = self.documents.get(snapshot.uri)
        return document is not None and document.version == snapshot.version

    def is_analysed(self, uri: str) -> bool:
        """Whether the document's current version has been analysed to the end (or it is not open)."""
        analysis = self.result(uri)
        return uri not in self.documents or (analysis is not None and analysis.complete)

    @on_loop
    def accept(self, snapshot: Snapshot, analysis: Analysis) -> bool:
        """Keep the analysis of the current version; True when it completes a version that
        had a complete result already, with another result (settings, dictionary or model changed)."""
        if snapshot.uri not in self.documents:
            return False
        self._results[snapshot.uri] = (snapshot.version, snapshot.lines, analysis)
        if not analysis.complete:
            return False
        last = self._completed.get(snapshot.uri)
        self._completed[snapshot.uri] = (snapshot.version, analysis.result_id)
        return last is not None and last[0] == snapshot.version and last[1] != analysis.result_id

    def result(self, uri: str) -> Analysis | None:
        """The analysis of the document's current version, complete or partial (None before one)."""
        document = self.documents.get(uri)
        version, _, analysis = self._results.get(uri, (None, None, None))
        return analysis if document is not None and version == document.version else None

    def offered(self, uri: str) -> frozenset[str]:
        """The spellings with Turkish letters offered by the last analysis, current or not."""
        _, _, analysis = self._results.get(uri, (None, None, None))
        return analysis.offered if analysis is not None else frozenset()

    def edit_version(self, uri: str) -> int | None:
        """The version an edit to the document is made for, when the client takes versioned edits."""
        document = self.documents.get(uri)
        return document.version if document is not None and self.capabilities.document_changes else None

    def line_findings(self, uri: str, row: int) -> tuple[Finding, ...] | None:
        """The findings of one line of the current version, None until they are all known."""
        analysis = self.result(uri)
        if analysis is None or not analysis.complete or row >= len(analysis.line_findings):
            return None
        return analysis.line_findings[row]

    def findings(self, uri: str, first: int = 0, last: int | None = None) -> list[Finding]:
        """Findings on lines ``first``..``last`` of the document's current text: its current
        analysis's or, while a newer one runs, the last one's whose words are still there
        (``edits.carry_findings``); [] before its first analysis and while checking is paused."""
        document = self.documents.get(uri)
        version, lines, analysis = self._results.get(uri, (None, None, None))
        if document is None or analysis is None or lines is None or self.paused:
            return []
        last = len(document.lines) - 1 if last is None else last
        if version == document.version:
            return [finding for row in analysis.line_findings[first : last + 1] for finding in row]
        return carry_findings(lines, analysis.line_findings, document.lines, first, last)
