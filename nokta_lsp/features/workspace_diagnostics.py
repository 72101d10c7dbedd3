"""workspace/diagnostic and the command ``nokta.checkWorkspace``: the workspace's files
checked (``nokta_lsp.workspace`` lists them, ``nokta_lsp.workspace_check`` checks them in
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

from ..analysis import Analysis
from ..engine import Model
from ..server import NoktaServer  # at run time: pygls reads the commands' type hints
from ..workspace_check import FileCheck, FileReport, WorkspaceRun
from ..workspace_files import Excluded, Listing, file_masker, list_files

log = logging.getLogger(__name__)

CHECK_WORKSPACE = "nokta.checkWorkspace"
#: How long a workspace check waits for the configured model to load.
MODEL_WAIT_S = 120.0
_progress_tokens = itertools.count(1)


async def workspace_diagnostic(ls: NoktaServer, params: types.WorkspaceDiagnosticParams) -> dict[str, Any]:
    session = ls.session
    previous = {item.uri: item.value for item in params.previous_result_ids}
    token = params.partial_result_token
    items: list[dict[str, Any]] = []

    def reported(reports: list[dict[str, Any]]) -> None:
        if token is None:
            items.extend(reports)
        elif reports:
            ls.protocol.notify(types.PROGRESS, types.ProgressParams(token=token, value={"items": reports}))

    listed: set[str] = set()
    if not session.paused and session.settings.workspaceDiagnostics:
        checked = await check_workspace(ls, lambda done: reported([_item(r, previous) for r in done]))
        reported(_open_items(ls, checked.open_uris, previous))
        listed.update(checked.open_uris, (report.uri for report in checked.reports))
    # files reported before and no longer checked (deleted, ignored, paused): their diagnostics go
    reported([_empty(uri) for uri in previous if uri not in listed and uri not in session.documents])
    return {"items": items}


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
        checks, known, open_uris = _checks(ls, listing)
        reported(known)
        done = list(known)
        run = WorkspaceRun(checks, model, session.codec, session.settings.severity)
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


def _checks(ls: NoktaServer, listing: Listing) -> tuple[list[FileCheck], list[FileReport], list[str]]:
    """The files to check again, the reports of those checked already as they are now, and
    the open documents among the files."""
    session, settings = ls.session, ls.session.settings
    open_paths = {to_fs_path(uri): uri for uri in session.uris()}
    checks, known, open_uris = [], [], []
    for file in listing.files:
        masker = file_masker(file.path, settings.fileTypes, settings.checkCodeComments)
        if str(file.path) in open_paths:
            open_uris.append(open_paths[str(file.path)])
            continue
        if masker is None:
            continue
        uri = from_fs_path(str(file.path)) or file.path.as_uri()
        ignore_regex = session.workspace.config_of(uri).ignore_regex
        options = session.options_for(uri)  # the configuration's thresholds and words with the settings'
        key = (masker.name, ignore_regex, options, settings.severity, session.codec.encoding)
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


def _item(report: FileReport, previous: dict[str, str]) -> dict[str, Any]:
    """A workspace diagnostic report of a file not open, as JSON data."""
    if previous.get(report.uri) == report.result_id:
        return {"kind": "unchanged", "uri": report.uri, "version": None, "resultId": report.result_id}
    items = json.loads(f"[{report.diagnostics_json}]")
    return {"kind": "full", "uri": report.uri, "version": None, "resultId": report.result_id, "items": items}


def _empty(uri: str) -> dict[str, Any]:
    return {"kind": "full", "uri": uri, "version": None, "items": []}


def _open_items(ls: NoktaServer, uris: list[str], previous: dict[str, str]) -> list[dict[str, Any]]:
    """The open documents among ``uris`` analysed to the end, from their live analysis."""
    items = []
    for uri in uris:
        analysis: Analysis | None = ls.session.result(uri)
        document = ls.session.document(uri)
        if analysis is None or not analysis.complete or document is None:
            continue
        item: dict[str, Any] = {"uri": uri, "version": document.version, "resultId": analysis.result_id}
        if previous.get(uri) == analysis.result_id:
            items.append({"kind": "unchanged", **item})
        else:
            items.append({"kind": "full", **item, "items": json.loads(f"[{analysis.diagnostics_json}]")})
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
