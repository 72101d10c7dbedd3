"""The server's threading rule: the session changes only on the event loop's thread; the
worker and the model loader hand their results back through the loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from nokta_lsp.analysis.worker_thread import CHECK_VARIABLE
from nokta_lsp.state.engine import Engine
from nokta_lsp.state.scheduler import Scheduler
from nokta_lsp.state.session import Session
from tests.lsp.fake_restorer import FakeRestorer

URI = "file:///rule.txt"


def test_the_tests_check_the_rule():
    assert Session().loop_thread.checked  # tests/conftest.py sets NOKTA_LSP_CHECK_THREADS


async def test_a_session_changed_off_its_loop_thread_fails_the_check():
    session = Session()
    session.open(URI, "plaintext", 1, "Bugun hava.")
    with pytest.raises(AssertionError, match=r"Session\.change ran on thread"):
        await asyncio.to_thread(session.change, URI, 2, [(None, "Bugun hava cok guzel.")])
    assert session.document(URI).version == 1  # the change from the other thread was refused


def test_the_check_is_off_unless_asked(monkeypatch):
    monkeypatch.delenv(CHECK_VARIABLE)
    session = Session()
    thread = threading.Thread(target=session.open, args=(URI, "plaintext", 1, "Bugun."))
    thread.start()
    thread.join()
    assert session.document(URI) is not None


async def test_a_loaded_model_is_taken_on_the_loop_thread():
    loop_thread, taken_on = threading.get_ident(), []
    loaded = asyncio.Event()
    engine = Engine(loader=lambda name, device="auto": FakeRestorer())

    def done(outcome):
        taken_on.append((threading.get_ident(), engine.model is outcome.model))
        loaded.set()

    engine.start_loading(("ngram", "", "cpu"), asyncio.get_running_loop(), done)
    await asyncio.wait_for(loaded.wait(), 10)
    assert taken_on == [(loop_thread, True)]


async def test_the_worker_analyses_a_document_without_touching_the_session():
    """A real analysis with the model loaded by the engine: every mutation of the session
    runs on the loop (else the check raises), the analysis in the worker thread."""
    session = Session(loader=lambda name, device="auto": FakeRestorer())
    loaded = asyncio.Event()
    session.engine.start_loading(("ngram", "", "cpu"), asyncio.get_running_loop(), lambda outcome: loaded.set())
    await asyncio.wait_for(loaded.wait(), 10)
    delivered = []
    scheduler = Scheduler(session, lambda snapshot, analysis, again: delivered.append((snapshot.version, analysis)))
    session.open(URI, "plaintext", 1, "Bugun hava cok guzel.\nİkinci satır doğru.")
    scheduler.schedule(URI, 0)
    await scheduler.analysed(URI, timeout_s=10)
    session.change(URI, 2, [(None, "Bugun hava.\nİkinci satır doğru.")])
    scheduler.schedule(URI, 0)
    await scheduler.analysed(URI, timeout_s=10)
    scheduler.shutdown()

    assert [version for version, _ in delivered] == [1, 2]
    assert [finding.replacement for finding in session.findings(URI)] == ["Bugün"]
    assert session.engine.model.cache.max_lines >= 2  # sized in the worker for the open lines


async def test_an_edit_flags_the_running_analysis_as_superseded():
    """The worker learns of a newer version from its flag, which the loop sets on the edit."""
    started, release, seen = threading.Event(), threading.Event(), []

    class Slow(FakeRestorer):
        def suggest(self, texts):
            started.set()
            release.wait(10)
            return super().suggest(texts)

    session = Session(loader=lambda name, device="auto": Slow())
    loaded = asyncio.Event()
    session.engine.start_loading(("ngram", "", "cpu"), asyncio.get_running_loop(), lambda outcome: loaded.set())
    await asyncio.wait_for(loaded.wait(), 10)
    scheduler = Scheduler(session, lambda snapshot, analysis, again: seen.append(snapshot.version))
    session.open(URI, "plaintext", 1, "Bugun hava cok guzel.")
    scheduler.schedule(URI, 0)
    assert await asyncio.to_thread(started.wait, 10)
    session.change(URI, 2, [(None, "Bugun hava.")])
    scheduler.schedule(URI, 0)  # sets the flag of version 1's job
    release.set()
    await scheduler.analysed(URI, timeout_s=10)
    scheduler.shutdown()

    assert seen == [2]
