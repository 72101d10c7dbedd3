"""The language server: its state and what handlers call; handlers are in ``handlers``.

Mutations (documents, settings) happen on the event loop; analysis runs on snapshots
in the scheduler's worker thread and comes back as an ``Analysis`` that is published
only for the version it was computed for.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification
from pygls.protocol.language_server import lsp_method

from nokta_model import __version__
from nokta_model.spans import word_spans

from . import actions
from .checker import CheckOptions, Finding, document_masker
from .diagnostics import to_diagnostics
from .dictionary import SCOPES, Dictionary
from .documents import Document, DocumentStore
from .engine import Engine, LoadOutcome
from .incremental import Context, DocumentAnalysis
from .scheduler import Scheduler, Snapshot
from .settings import Settings, parse_settings

log = logging.getLogger(__name__)

VERSION = __version__


@dataclass(frozen=True)
class Analysis:
    line_findings: list[tuple[Finding, ...]]  # per line of the analysed version
    diagnostics_json: str  # every diagnostic, comma-separated JSON
    result_id: str


_NOTHING = Analysis([], "", "empty")
#: Suggestions kept for lines no longer open (undo, moved text), beyond the open lines.
CACHE_HISTORY = 5_000


class NoktaProtocol(LanguageServerProtocol):
    """pygls' protocol, with documents kept only by ``DocumentStore`` (once, not twice)
    and requests whose parameters cannot be read answered with an error."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._pending_writes: set[asyncio.Future] = set()  # held until written

    # Plain calls, not generators: pygls keeps the future of a generator handler of a
    # notification in ``_request_futures`` for ever (one per edit: a memory leak).
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params):
        self.fm.features[types.TEXT_DOCUMENT_DID_OPEN](params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params):
        self.fm.features[types.TEXT_DOCUMENT_DID_CHANGE](params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params):
        self.fm.features[types.TEXT_DOCUMENT_DID_CLOSE](params)

    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except Exception as error:
            if "id" in data and "method" in data:
                self._send_response(
                    data["id"],
                    error=types.ResponseError(code=-32602, message=f"invalid params: {error.__cause__ or error}"),
                )
            return JsonRPCNotification(method="", jsonrpc="invalid", params=None)  # dropped by handle_message

    def handle_message(self, message):
        if not hasattr(message, "jsonrpc"):  # valid JSON, but not a JSON-RPC message
            self.send_error(-32600, "Invalid Request: not a JSON-RPC message")
            return
        super().handle_message(message)

    def send_error(self, code: int, message: str) -> None:
        """An error response with id null (the request's id could not be read)."""
        self.send_text(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}))

    def send_text(self, body: str) -> None:
        """Send a message already serialised as ASCII JSON, framed as pygls frames its own."""
        if self.writer is None:
            return
        header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        written = self.writer.write(((header if self._include_headers else "") + body).encode("ascii"))
        if inspect.isawaitable(written):
            task = asyncio.ensure_future(written)
            self._pending_writes.add(task)
            task.add_done_callback(self._pending_writes.discard)


class NoktaServer(LanguageServer):
    protocol: NoktaProtocol

    def __init__(self) -> None:
        super().__init__("nokta-lsp", VERSION, protocol_cls=NoktaProtocol, max_workers=2)
        self.store = DocumentStore()
        self.settings = Settings()
        self.engine = Engine()
        self.dictionary = Dictionary()
        self.scheduler = Scheduler(self.store, self.analyse, self.deliver)
        self.analyses: dict[str, DocumentAnalysis] = {}  # used by the analysis worker only
        self.pull_diagnostics = False
        self.root: str | None = None
        self._skipped: set[str] = set()
        self._settings_warnings: set[str] = set()  # shown for the settings now in force
        self._progress = 0

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Malformed JSON gets a JSON-RPC parse error (-32700); the server keeps reading."""
        if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)):
            self.protocol.send_error(-32700, f"Parse error: {error}")
        super().report_server_error(error, source)

    # --- settings and model -----------------------------------------------------------

    def apply_settings(self, raw: Any) -> None:
        """Take new settings (never raises); reload the model when its keys changed."""
        settings, warnings = parse_settings(raw, self.settings)
        for warning in warnings:
            if warning not in self._settings_warnings:  # the same settings come by several routes
                log.warning(warning)
                self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=warning))
        self._settings_warnings = set(warnings)
        model_changed = settings.model_key() != self.settings.model_key()
        changed = settings != self.settings
        self.settings = settings
        self.scheduler.delay_s = settings.debounceMs / 1000
        self.dictionary.configure(settings.ignoreWords, settings.dictionaryPath, self.root)
        if model_changed and self.engine.key is not None:
            self.load_model()
        elif changed:
            self.refresh()

    def load_model(self) -> None:
        self._progress += 1
        token = f"nokta-load-{self._progress}"
        capabilities = self.client_capabilities.window
        progress = bool(capabilities and capabilities.work_done_progress)
        if progress:
            self.work_done_progress.create(token)
            self.work_done_progress.begin(
                token, types.WorkDoneProgressBegin(title="Loading nokta model", message=self.settings.backend)
            )
        loop = self.scheduler.loop

        def done(outcome: LoadOutcome) -> None:
            loop.call_soon_threadsafe(self._model_loaded, outcome, token if progress else None)

        def interim() -> None:
            loop.call_soon_threadsafe(self.refresh)

        self.engine.start_loading(self.settings.model_key(), done, interim)

    def _model_loaded(self, outcome: LoadOutcome, token: str | None) -> None:
        if token is not None:
            message = outcome.model.description if outcome.model else "failed"
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
        if outcome.error:
            kind = types.MessageType.Warning if outcome.model else types.MessageType.Error
            self.window_show_message(types.ShowMessageParams(type=kind, message=outcome.error))
        log.info("model ready: %s", outcome.model.description if outcome.model else None)
        self.refresh()

    def refresh(self) -> None:
        """Analyse every open document again (settings, dictionary or model changed)."""
        self.scheduler.schedule_all(0)

    def _ask_client_to_pull(self) -> None:
        workspace = self.client_capabilities.workspace
        if workspace and workspace.diagnostics and workspace.diagnostics.refresh_support:
            self.workspace_diagnostic_refresh(None)

    # --- analysis (worker thread) -------------------------------------------------------

    def options_for(self, uri: str) -> CheckOptions:
        s = self.settings
        return CheckOptions(
            s.confidenceThreshold,
            s.strictConfidenceThreshold,
            s.ambiguous == "hint",
            self.dictionary.words_for(uri),
            s.maxLineLength,
        )

    def analyse(self, snapshot: Snapshot) -> Analysis | None:
        settings = self.settings
        masker = document_masker(snapshot.language_id, settings.fileTypes, settings.checkCodeComments)
        if masker is None or self._too_big(snapshot, settings):
            self.analyses.pop(snapshot.uri, None)
            return _NOTHING
        model = self.engine.model
        if model is None:
            return None  # analysed again once the model is loaded
        context = Context(
            masker,
            self.options_for(snapshot.uri),
            settings.severity,
            self.store.codec,
            model.restorer,
            model.cache,
            snapshot.written,
        )
        analysis = self.analyses.setdefault(snapshot.uri, DocumentAnalysis())
        analysis.update(snapshot.lines, context)
        # room for every open line (a settings change re-checks them all) and some history
        model.cache.max_lines = sum(len(a.rows) for a in self.analyses.values()) + CACHE_HISTORY
        return Analysis(analysis.line_findings(), analysis.diagnostics_json(), analysis.result_id)

    def forget(self, uri: str) -> None:
        self._skipped.discard(uri)
        self.scheduler.forget(uri)
        self.scheduler.in_worker(lambda: self.analyses.pop(uri, None))

    def _too_big(self, snapshot: Snapshot, settings: Settings) -> bool:
        if snapshot.size <= settings.maxFileSize:
            self._skipped.discard(snapshot.uri)
            return False
        if snapshot.uri not in self._skipped:
            self._skipped.add(snapshot.uri)
            log.warning(
                "%s has %d characters, more than maxFileSize %d: not checked",
                snapshot.uri,
                snapshot.size,
                settings.maxFileSize,
            )
        return True

    # --- results (event loop) -----------------------------------------------------------

    def deliver(self, snapshot: Snapshot, analysis: Analysis) -> None:
        document = self.store.get(snapshot.uri)
        if document is None:
            return
        reanalysed = document.analysed_version == snapshot.version and document.result_id != analysis.result_id
        document.line_findings = analysis.line_findings
        document.analysed_version = snapshot.version
        document.result_id = analysis.result_id
        if self.pull_diagnostics:
            if reanalysed:  # same text, new result: settings or model changed
                self._ask_client_to_pull()
        else:
            self.publish(snapshot.uri, snapshot.version, analysis.diagnostics_json)

    def publish(self, uri: str, version: int, diagnostics_json: str) -> None:
        """textDocument/publishDiagnostics from diagnostics kept as JSON text (no re-serialising)."""
        params = f'{{"uri":{json.dumps(uri)},"version":{int(version)},"diagnostics":[{diagnostics_json}]}}'
        self.protocol.send_text(
            f'{{"jsonrpc":"2.0","method":"{types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}","params":{params}}}'
        )

    def pulled_diagnostics(self, document: Document) -> list[types.Diagnostic]:
        return to_diagnostics(
            self.current_findings(document.uri), document.lines, self.store.codec, self.settings.severity
        )

    def note_own_edits(self, uri: str, changes: list[tuple[Any, str]]) -> None:
        """Remember the words of an edit that are spellings nokta offered for the document
        (a fix or a command the client applied), so their letters never count as the writer's."""
        document = self.store.get(uri)
        if document is None:
            return
        offered = {
            spelling
            for row in document.line_findings
            for finding in row
            for spelling in (finding.replacement, *(text for text, _ in finding.alternatives))
        }
        applied: set[str] = set()
        edited: dict[int, str] = {}  # line -> its text after the changes so far (single-line changes)
        for change_range, text in changes:
            if change_range is None or change_range.start.line != change_range.end.line or "\n" in text:
                continue
            row = change_range.start.line
            _, start = document.clamp(row, change_range.start.character, self.store.codec)
            _, end = document.clamp(row, change_range.end.character, self.store.codec)
            line = edited.get(row, document.lines[row] if row < len(document.lines) else "")
            edited[row] = line = line[:start] + text + line[end:]
            # an editor may send the whole word (VS Code) or only the letters that differ (Neovim)
            applied.update(
                word
                for span in word_spans(line)
                if span.start <= start + len(text) and start <= span.end
                for word in (line[span.start : span.end],)
                if word in offered
            )
        if applied - document.written:
            document.written = document.written | applied

    def current_findings(self, uri: str, first: int = 0, last: int | None = None) -> list[Finding]:
        """Findings on lines ``first``..``last`` of the document's current version ([] while it is being analysed)."""
        document = self.store.get(uri)
        if document is None or document.analysed_version != document.version:
            return []
        rows = document.line_findings[first : None if last is None else last + 1]
        return [finding for row in rows for finding in row]

    # --- code actions and commands --------------------------------------------------------

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        document = self.store.get(params.text_document.uri)
        if document is None:
            return []
        kinds = params.context.only
        result: list[types.CodeAction] = []
        if actions.wanted(kinds, types.CodeActionKind.QuickFix):
            for diagnostic in actions.nokta_diagnostics(params.context.diagnostics):
                if actions.touches(diagnostic, params.range):
                    result.extend(actions.quick_fixes(document.uri, diagnostic))
        findings = self.current_findings(document.uri)
        start, end = self._clamped_range(document, params.range)
        selection = actions.in_range(self.current_findings(document.uri, start[0], end[0]), start, end)
        fix_all = actions.asks_for_source_actions(kinds)
        extra = actions.document_actions(document, findings, selection, self.store.codec, fix_all)
        return result + [action for action in extra if actions.wanted(kinds, str(action.kind))]

    def _clamped_range(self, document: Document, range_: types.Range) -> tuple[tuple[int, int], tuple[int, int]]:
        codec = self.store.codec
        return document.clamp(range_.start.line, range_.start.character, codec), document.clamp(
            range_.end.line, range_.end.character, codec
        )

    def apply_restore(self, argument: dict[str, Any], selection: bool) -> bool:
        """Send a workspace/applyEdit restoring the document (or a range); False if nothing to do."""
        document = self.store.get(argument["uri"])
        if document is None:
            raise ValueError(f"document not open: {argument['uri']}")
        findings = self.current_findings(document.uri)
        if selection:
            range_ = self.protocol._converter.structure(argument.get("range"), types.Range)
            findings = actions.in_range(findings, *self._clamped_range(document, range_))
        edit = actions.restore_edit(document, findings, self.store.codec)
        if edit is None:
            return False
        self.workspace_apply_edit(types.ApplyWorkspaceEditParams(edit=edit, label="Restore Turkish diacritics"))
        return True

    def ignore_word(self, argument: dict[str, Any]) -> str:
        """Record the word in its scope's dictionary and analyse again; returns where."""
        word, scope = argument.get("word"), argument.get("scope", "workspace")
        if not isinstance(word, str) or not word.strip() or scope not in SCOPES:
            raise ValueError(f"expected a word and a scope in {', '.join(SCOPES)}")
        where = self.dictionary.add(word.strip(), scope, argument["uri"])
        log.info("ignoring %r (%s)", word, where)
        self.refresh()
        return where
