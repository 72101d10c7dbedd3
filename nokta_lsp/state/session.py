"""The server's state: the open documents (one ``OpenDocument`` record each), settings,
resolved client capabilities, the model engine, the workspace (its folders and
configuration files) and the dictionary.

A document is checked with the settings the user set in the editor, then its
configuration file's values (``settings_for``), then the defaults.

Mutated only on the event loop (handlers; ``loop_thread`` checks the methods marked
``@on_loop`` when asked); the analysis worker gets an immutable ``Snapshot`` and its
``Analysis`` comes back through ``accept``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from lsprotocol import types

from nokta_model.backends import load_restorer
from nokta_model.check.findings import CheckOptions, Finding, document_masker
from nokta_model.check.words import word_key
from nokta_model.prose import Masker, with_code_comments, with_rules

from ..analysis.diagnostics import Focus
from ..analysis.documents import Codec, Document
from ..analysis.edits import carry_findings
from ..analysis.worker import Analysis, Snapshot
from ..analysis.workspace_check import WorkspaceReports
from .dictionary import Dictionary
from .engine import Engine, Loader
from .loop_thread import LoopThread, on_loop
from .open_document import LastResult, OpenDocument
from .settings import CONFIG_SETTINGS, Settings, parse_user_settings
from .workspace import Workspace

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
    watch_files: bool = False  # registers workspace/didChangeWatchedFiles when the server asks
    inlay_hint_refresh: bool = False

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
            watch_files=bool(
                workspace
                and workspace.did_change_watched_files
                and workspace.did_change_watched_files.dynamic_registration
            ),
            inlay_hint_refresh=bool(workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support),
        )


@dataclass(frozen=True)
class SettingsChange:
    warnings: list[str]  # not shown for the settings in force before
    model_changed: bool
    changed: bool


class Session:
    def __init__(self, loader: Loader = load_restorer) -> None:
        self.loop_thread = LoopThread()  # the event loop's: the session is built there
        self.documents: dict[str, OpenDocument] = {}
        self.codec = Codec()
        self.settings = Settings()
        self.user_set: frozenset[str] = frozenset()  # the settings the user set (they win over a configuration)
        self.capabilities = ClientCapabilities()
        self.engine = Engine(loader, self.loop_thread)
        self.dictionary = Dictionary()
        self.workspace = Workspace()
        self._settings_warnings: set[str] = set()  # shown for the settings now in force
        #: Checking and autocorrect paused by the user (``features.status``).
        self.paused = False
        #: The reports of workspace checks (``features.workspace_diagnostics``).
        self.workspace_reports = WorkspaceReports()

    @on_loop
    def initialize(self, capabilities: types.ClientCapabilities, position_encoding: str, roots: list[str]) -> None:
        self.capabilities = ClientCapabilities.resolve(capabilities)
        self.codec = Codec(position_encoding)
        self.workspace.set_roots(roots)

    # --- settings ---------------------------------------------------------------------

    @on_loop
    def apply_settings(self, raw: Any) -> SettingsChange:
        """Take new settings (never raises)."""
        settings, user_set, warnings = parse_user_settings(raw, self.settings, self.user_set)
        new_warnings = [w for w in warnings if w not in self._settings_warnings]  # several routes, one warning
        self._settings_warnings = set(warnings)
        changed = settings != self.settings or user_set != self.user_set
        change = SettingsChange(new_warnings, settings.model_key() != self.settings.model_key(), changed)
        self.settings, self.user_set = settings, user_set
        self.dictionary.configure(settings.ignoreWords, settings.dictionaryPath)
        return change

    @on_loop
    def files_changed(self, configs: bool, words: bool) -> None:
        """Configuration files or dictionary files changed on disk: read them again."""
        if configs:
            self.workspace.forget_configs()
        if words:
            self.dictionary.reload()

    def checking_key(self, uri: str) -> tuple[Any, ...]:
        """What a document's analysis depends on besides its text and the model (compared
        before and after a file changes, to analyse again only the documents it affects)."""
        document = self.document(uri)
        masker = self.masker_for(document) if document is not None else None
        return masker, self.options_for(uri), self.settings_for(uri)

    def settings_for(self, uri: str) -> Settings:
        """The settings a document is checked with: its configuration file's values for the
        settings the user did not set."""
        config = self.workspace.config_of(uri)
        given = {setting: config.value(key) for key, setting in CONFIG_SETTINGS.items()}
        taken = {name: value for name, value in given.items() if value is not None and name not in self.user_set}
        return replace(self.settings, **taken) if taken else self.settings

    def options_for(self, uri: str) -> CheckOptions:
        s = self.settings_for(uri)
        words = self.dictionary.words_for(uri, self.workspace.root_of(uri))
        configured = self.workspace.config_of(uri).words
        return CheckOptions(
            s.confidenceThreshold,
            s.strictConfidenceThreshold,
            s.ambiguous == "hint",
            words | {word_key(word) for word in configured} if configured else words,
            s.maxLineLength,
        )

    def masker_for(self, document: Document, restoring: bool = False) -> Masker | None:
        """What the document is checked as (with its directives and the configuration's
        ignore patterns; with ``checkCodeComments``, the comments and strings of its code
        blocks too, unless ``restoring``: a restore never changes a code block), or None
        when it is not checked: not a checked file type, or excluded."""
        settings = self.settings
        masker = document_masker(document.language_id, settings.fileTypes, settings.checkCodeComments)
        if masker is None or self.workspace.excludes(document.uri):
            return None
        if settings.checkCodeComments and not restoring:
            masker = with_code_comments(masker)
        return with_rules(masker, self.workspace.config_of(document.uri).ignore_regex)

    # --- documents --------------------------------------------------------------------

    def document(self, uri: str) -> Document | None:
        """The open document's text, None when it is not open."""
        record = self.documents.get(uri)
        return record.document if record is not None else None

    @on_loop
    def open(self, uri: str, language_id: str, version: int, text: str) -> None:
        self.close(uri)  # opened again: nothing of the text before is kept
        self.documents[uri] = OpenDocument(Document.create(uri, language_id, version, text))

    @on_loop
    def change(self, uri: str, version: int, changes: list[tuple[Any, str]]) -> None:
        record = self.documents.get(uri)
        if record is not None:
            record.document.change(version, changes, self.codec, record.autocorrector.note_applied)

    @on_loop
    def close(self, uri: str) -> OpenDocument | None:
        """Forget the document (its timer cancelled, its analysis stopped); the record closed, if it was open."""
        record = self.documents.pop(uri, None)
        if record is not None:
            record.close()
        return record

    @on_loop
    def show(self, uri: str, first: int, last: int) -> bool:
        """The editor shows lines ``first``..``last`` of the document; True when it shows
        others than before and the document has more findings than are published, so
        that other ones may be published now."""
        record = self.documents.get(uri)
        if record is None or record.document.visible == (first, last):
            return False
        record.document.visible = (first, last)
        return record.last is not None and record.last.analysis.flagged > self.settings.maxDiagnostics

    def uris(self) -> list[str]:
        return list(self.documents)

    # --- analysis ---------------------------------------------------------------------

    @on_loop
    def snapshot(self, uri: str) -> Snapshot | None:
        """What the worker needs to analyse the document's current version."""
        record = self.documents.get(uri)
        if record is None:
            return None
        document = record.document
        return Snapshot(
            uri,
            document.version,
            tuple(document.lines),
            self._masker(record),
            self.options_for(uri),
            self.settings.severity,
            self.codec,
            self.engine.model,
            document.written,
            document.cursor if self.settings.hideWhileTyping else None,
            self.settings.maxDiagnostics,
            Focus(document.edited_line, document.visible),
        )

    def _masker(self, record: OpenDocument) -> Masker | None:
        masker = self.masker_for(record.document)
        return None if masker is None or self._too_big(record) else masker

    def _too_big(self, record: OpenDocument) -> bool:
        limit, document = self.settings.maxFileSize, record.document
        if document.size <= limit:
            record.too_big_warned = False
            return False
        if not record.too_big_warned:
            record.too_big_warned = True
            log.warning(
                "%s has %d characters, more than maxFileSize %d: not checked", document.uri, document.size, limit
            )
        return True

    def is_analysed(self, uri: str) -> bool:
        """Whether the document's current version has been analysed to the end (or it is not open)."""
        analysis = self.result(uri)
        return uri not in self.documents or (analysis is not None and analysis.complete)

    @on_loop
    def accept(self, snapshot: Snapshot, analysis: Analysis) -> bool:
        """Keep the analysis of the current version; True when it completes a version that
        had a complete result already, with another result (settings, dictionary or model changed)."""
        record = self.documents.get(snapshot.uri)
        if record is None:
            return False
        record.last = LastResult(snapshot.version, snapshot.lines, analysis)
        if not analysis.complete:
            return False
        last, record.completed = record.completed, (snapshot.version, analysis.result_id)
        return last is not None and last[0] == snapshot.version and last[1] != analysis.result_id

    def result(self, uri: str) -> Analysis | None:
        """The analysis of the document's current version, complete or partial (None before one)."""
        last = self._last(uri)
        return last.analysis if last is not None and last.version == self.documents[uri].version else None

    def _last(self, uri: str) -> LastResult | None:
        """The open document's last analysis, current or not."""
        record = self.documents.get(uri)
        return record.last if record is not None else None

    def file_ignores(self, uri: str) -> frozenset[str]:
        """The words the document's ``nokta: ignore`` directives name, as the last analysis found them."""
        last = self._last(uri)
        return last.analysis.file_ignores if last is not None else frozenset()

    def offered(self, uri: str) -> frozenset[str]:
        """The spellings with Turkish letters offered by the last analysis, current or not."""
        last = self._last(uri)
        return last.analysis.offered if last is not None else frozenset()

    def edit_version(self, uri: str) -> int | None:
        """The version an edit to the document is made for, when the client takes versioned edits."""
        document = self.document(uri)
        return document.version if document is not None and self.capabilities.document_changes else None

    def line_findings(self, uri: str, row: int) -> Sequence[Finding] | None:
        """The findings of one line of the current version, None until they are all known."""
        analysis = self.result(uri)
        if analysis is None or not analysis.complete or row >= len(analysis.line_findings):
            return None
        return analysis.line_findings[row]

    def restorable(self, document: Document, first: int = 0, last: int | None = None) -> list[Finding]:
        """``findings`` a restore applies: none inside a code block, where ``checkCodeComments``
        flags comments and strings that a restore leaves as written."""
        findings = self.findings(document.uri, first, last)
        masker = self.masker_for(document, restoring=True)
        if not findings or masker is None or masker == self.masker_for(document):
            return findings
        prose = masker.mask_lines(document.lines)
        return [f for f in findings if f.line < len(prose) and prose[f.line][f.start : f.end].strip()]

    def findings(self, uri: str, first: int = 0, last: int | None = None) -> list[Finding]:
        """Findings on lines ``first``..``last`` of the document's current text: its current
        analysis's or, while a newer one runs, the last one's whose words are still there
        (``edits.carry_findings``); [] before its first analysis and while checking is paused."""
        document, result = self.document(uri), self._last(uri)
        if document is None or result is None or self.paused:
            return []
        last = len(document.lines) - 1 if last is None else last
        if result.version == document.version:
            return [finding for row in result.analysis.line_findings[first : last + 1] for finding in row]
        return carry_findings(result.lines, result.analysis.line_findings, document.lines, first, last)
