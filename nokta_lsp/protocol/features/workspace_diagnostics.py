"""workspace/diagnostic and the command ``nokta.checkWorkspace``: the workspace's files
checked (``nokta_lsp.state.workspace`` lists them, ``nokta_lsp.analysis.workspace_check`` checks them in
the worker, after any document analysis waiting), each reported with a result id that
changes with its diagnostics only, so a client pulling again gets "unchanged" for a file
that did not change. A file is checked again only when it changed on disk or what it is
checked with did (settings, dictionary, model). Open documents answer from their live
analysis. The command publishes the diagnostics instead, for clients that do not pull.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from nokta_model.prose import with_rules

from ...analysis.model import Model
from ...analysis.workspace_check import FileCheck, FileReport, WorkspaceRun
from ...analysis.workspace_files import Excluded, Listing, file_masker, list_files
from ..server import NoktaServer
from ..transport import JsonText

log = logging.getLogger(__name__)

CHECK_WORKSPACE = "nokta.checkWorkspace"
#: How long a workspace check waits for the configured model to load.
MODEL_WAIT_S = 120.0
#: Files whose settings are taken before the loop takes other messages.
FILES_AT_ONCE = 50
_progress_tokens = itertools.count(1)


async def workspace_diagnostic(ls: NoktaServer, params: types.WorkspaceDiagnosticParams) -> JsonText:
    session = ls.session
    previous = {item.uri: item.value for item in params.previous_result_ids}
    token = params.partial_result_token
    items: list[str] = []  # each a report as JSON text: thousands of diagnostics are never parsed

    def reported(reports: list[str]) -> None:
        if token is None:
            items.extend(reports)
        elif reports:
            value = f'{{"token":{json.dumps(token)},"value":{{"items":[{",".join(reports)}]}}}}'
            ls.protocol.notify_json(types.PROGRESS, value)

    listed: set[str] = set()
    if not session.paused and session.settings.workspaceDiagnostics:
        checked = await check_workspace(ls, lambda done: reported([_item(r, previous) for r in done]))
        reported(_open_items(ls, checked.open_uris, previous))
        listed.update(checked.open_uris, (report.uri for report in checked.reports))
    # files reported before and no longer checked (deleted, ignored, paused): their diagnostics go
    reported([_report(uri, None, None, "") for uri in previous if uri not in listed and uri not in session.documents])
    return JsonText(f'{{"items":[{",".join(items)}]}}')


async def check_workspace_command(ls: NoktaServer, *arguments: Any) -> dict[str, Any]:
    """Check the workspace and publish the diagnostics of the files not open; returns counts."""
    workspace = ls.session.workspace_reports
    reports = (await check_workspace(ls, lambda done: None)).reports if not ls.session.paused else []
    for report in reports:
        if report.count or report.uri in workspace.published:
            ls.protocol.publish_diagnostics_json(report.uri, None, report.diagnostics_json)
    checked = {report.uri for report in reports}
    for uri in workspace.published - checked:  # deleted, ignored or excluded since
        if uri not in ls.session.documents:
            ls.protocol.publish_diagnostics_json(uri, None, "")
    workspace.published = {report.uri for report in reports if report.count}
    return {
        "files": len(reports),
        "filesWithFindings": len(workspace.published),
        "findings": sum(report.count for report in reports),
    }


def clear_published(ls: NoktaServer) -> None:
    """Take back the diagnostics ``nokta.checkWorkspace`` published (checking is paused)."""
    for uri in ls.session.workspace_reports.published:
        ls.protocol.publish_diagnostics_json(uri, None, "")
    ls.session.workspace_reports.published = set()


@dataclass(frozen=True)
class Checked:
    reports: list[FileReport]  # of the workspace's files not open
    open_uris: list[str]  # the workspace's files that are open


async def check_workspace(ls: NoktaServer, reported: Callable[[list[FileReport]], None]) -> Checked:
    """The reports of the workspace's files not open, each handed to ``reported`` once done."""
    session = ls.session
    model = await _configured_model(ls)
    roots = session.workspace.roots
    if model is None or not roots:
        return Checked([], [])
    async with session.workspace_reports.lock:
        session.workspace_reports.made_with(model)
        listing = await asyncio.to_thread(_listing, ls, roots)
        if listing.too_many and not session.workspace_reports.warned:
            session.workspace_reports.warned = True
            log.warning("the workspace has more than %d files to check: the first are checked", len(listing.files))
        checks, known, open_uris = await _checks(ls, listing)
        reported(known)
        done = list(known)
        run = WorkspaceRun(checks, model, session.codec, session.settings.severity, session.settings.maxDiagnostics)
        progress = _Progress(ls, len(checks))
        try:
            while True:
                finished = await ls.scheduler.in_worker(run.step)
                reports = run.take()
                session.workspace_reports.reports.update((report.uri, report) for report in reports)
                reported(reports)
                done.extend(reports)
                progress.report(len(done) - len(known))
                if finished:
                    return Checked(done, open_uris)
        finally:
            run.cancelled.set()  # a cancelled request stops its run
            progress.end()


def _listing(ls: NoktaServer, roots: list[Path]) -> Listing:
    """In a thread: the files to check (reads only the settings and the file system; the
    configurations' ``exclude`` with a cache of its own)."""
    settings = ls.session.settings
    masked = (settings.fileTypes, settings.checkCodeComments)
    return list_files(
        roots,
        lambda path: file_masker(path, *masked) is not None,
        settings.workspaceMaxFiles,
        settings.workspaceMaxFileSize,
        Excluded(),
    )


async def _checks(ls: NoktaServer, listing: Listing) -> tuple[list[FileCheck], list[FileReport], list[str]]:
    """The files to check again, the reports of those checked already as they are now, and
    the open documents among the files. Lets the loop take other messages every
    ``FILES_AT_ONCE`` files (each file's settings cost about 0.06 ms)."""
    session, settings = ls.session, ls.session.settings
    open_paths = {to_fs_path(uri): uri for uri in session.uris()}
    checks, known, open_uris = [], [], []
    for index, file in enumerate(listing.files):
        if index % FILES_AT_ONCE == FILES_AT_ONCE - 1:
            await asyncio.sleep(0)
        masker = file_masker(file.path, settings.fileTypes, settings.checkCodeComments)
        if str(file.path) in open_paths:
            open_uris.append(open_paths[str(file.path)])
            continue
        if masker is None:
            continue
        uri = from_fs_path(str(file.path)) or file.path.as_uri()
        ignore_regex = session.workspace.config_of(uri).ignore_regex
        options = session.options_for(uri)  # the configuration's thresholds and words with the settings'
        key = (masker, ignore_regex, options, settings.severity, settings.maxDiagnostics, session.codec.encoding)
        report = session.workspace_reports.reports.get(uri)
        if report is not None and report.stamp == file.stamp and report.key == key:
            known.append(report)
        else:
            checks.append(FileCheck(uri, file, with_rules(masker, ignore_regex), options, key))
    return checks, known, open_uris


async def _configured_model(ls: NoktaServer) -> Model | None:
    """The configured model, once it is loaded (a stand-in serves only the tops of open documents)."""
    engine = ls.session.engine
    for _ in range(int(MODEL_WAIT_S / 0.1)):
        if not engine.loading.is_set():
            return engine.model
        await asyncio.sleep(0.1)
    return None


def _report(uri: str, version: int | None, result_id: str | None, diagnostics_json: str | None) -> str:
    """A workspace document diagnostic report as JSON text: full, or unchanged when
    ``diagnostics_json`` is None."""
    fields = f'"uri":{json.dumps(uri)},"version":{json.dumps(version)}'
    fields += f',"resultId":{json.dumps(result_id)}' if result_id is not None else ""
    if diagnostics_json is None:
        return f'{{"kind":"unchanged",{fields}}}'
    return f'{{"kind":"full",{fields},"items":[{diagnostics_json}]}}'


def _item(report: FileReport, previous: dict[str, str]) -> str:
    """The report of a file not open."""
    unchanged = previous.get(report.uri) == report.result_id
    return _report(report.uri, None, report.result_id, None if unchanged else report.diagnostics_json)


def _open_items(ls: NoktaServer, uris: list[str], previous: dict[str, str]) -> list[str]:
    """The reports of the open documents among ``uris`` analysed to the end, from their live analysis."""
    items = []
    for uri in uris:
        analysis, document = ls.session.result(uri), ls.session.document(uri)
        if analysis is not None and analysis.complete and document is not None:
            unchanged = previous.get(uri) == analysis.result_id
            items.append(
                _report(uri, document.version, analysis.result_id, None if unchanged else analysis.diagnostics_json)
            )
    return items


class _Progress:
    """ "Checking the workspace with nokta" and a percentage, when the client shows progress."""

    def __init__(self, ls: NoktaServer, total: int) -> None:
        self.ls, self.total, self.token = ls, total, None
        if total and ls.session.capabilities.work_done_progress:
            self.token = f"nokta-workspace-{next(_progress_tokens)}"
            ls.work_done_progress.create(self.token)
            begin = types.WorkDoneProgressBegin(title="Checking the workspace with nokta", percentage=0)
            ls.work_done_progress.begin(self.token, begin)

    def report(self, done: int) -> None:
        if self.token is not None:
            percentage = int(100 * done / self.total)
            self.ls.work_done_progress.report(self.token, types.WorkDoneProgressReport(percentage=percentage))

    def end(self) -> None:
        if self.token is not None:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd())
            self.token = None
