"""The scheduler under a flood of edits: one job waits per document, with the newest snapshot."""

from __future__ import annotations

import asyncio
import threading

import nokta_lsp.state.scheduler as scheduler_module
from nokta_lsp.analysis.worker import NOTHING
from nokta_lsp.state.scheduler import Scheduler
from nokta_lsp.state.session import Session

URI = "file:///flood.txt"


def _block_the_worker(monkeypatch) -> tuple[threading.Event, threading.Event, list[int]]:
    """Make each analysis record its version, say it started, and hold the worker until
    released; returns (release, started, the versions analysed)."""
    release, started = threading.Event(), threading.Event()
    analysed: list[int] = []

    def blocking_analyse(snapshot, state, run):
        analysed.append(snapshot.version)
        started.set()
        release.wait(10)
        return NOTHING

    monkeypatch.setattr(scheduler_module, "analyse", blocking_analyse)
    return release, started, analysed


async def test_edits_while_the_worker_is_busy_leave_one_job_with_the_newest_version(monkeypatch):
    release, started, analysed = _block_the_worker(monkeypatch)  # while the edits arrive
    session = Session()
    session.open(URI, "plaintext", 1, "Bugun hava cok guzel.")
    delivered: list[int] = []
    scheduler = Scheduler(session, lambda snapshot, analysis, again: delivered.append(snapshot.version))
    started_in_worker = []  # the versions of the jobs the worker took, stale ones included
    start = scheduler._start

    def counting_start(uri):
        snapshot, result = start(uri)
        started_in_worker.append(snapshot.version)
        return snapshot, result

    submitted = asyncio.Event()
    submit = scheduler._submit

    def noting_submit(uri):
        submit(uri)
        submitted.set()

    monkeypatch.setattr(scheduler, "_start", counting_start)
    monkeypatch.setattr(scheduler, "_submit", noting_submit)
    scheduler.schedule(URI, 0)
    await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
    for version in range(2, 202):  # 200 edits, each scheduled at once
        session.change(URI, version, [(None, f"Bugun hava cok guzel {version}.")])
        submitted.clear()
        scheduler.schedule(URI, 0)
        await submitted.wait()  # its timer fires: one submission per edit
    release.set()
    await scheduler.analysed(URI, timeout_s=10)
    scheduler.shutdown()

    assert analysed == [1, 201]  # the busy job, then one job for the newest version
    assert started_in_worker == [1, 201]  # no queue of the 199 versions in between
    assert delivered == [201]  # the first result was stale and never published


async def test_a_request_waiting_behind_a_stale_analysis_gets_the_new_version_without_the_debounce(monkeypatch):
    release, started, analysed = _block_the_worker(monkeypatch)  # version 1 runs while version 2 arrives
    session = Session()
    session.apply_settings({"debounceMs": 60_000})
    session.open(URI, "plaintext", 1, "Bugun hava.")
    scheduler = Scheduler(session, lambda snapshot, analysis, again: None)
    scheduler.schedule(URI, 0)
    await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
    session.change(URI, 2, [(None, "Bugun hava cok guzel.")])
    scheduler.schedule(URI)  # the edit's debounce: a minute
    waiting = asyncio.ensure_future(scheduler.analysed(URI, timeout_s=5))
    asyncio.get_running_loop().call_soon(release.set)  # after the request has started waiting: callbacks run in order
    await asyncio.wait_for(waiting, 2)  # not the minute, nor the request's own timeout
    scheduler.shutdown()

    assert analysed == [1, 2]
    assert session.is_analysed(URI)
