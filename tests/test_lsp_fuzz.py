"""Hypothesis-driven edit sequences against the real server process.

Random ranges, inserts and deletes over text with CRLF, lone CR, emoji, combining marks
and tabs, and positions past the end of lines and of the document. After every
sequence: the server is alive; every diagnostic published for a version lies exactly
inside that version's text and covers the word it names; applying any offered fix
changes only the flagged letters, the rest byte-for-byte identical.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.lsp_client import BenchClient
from nokta_model.ngram.artifact import DEFAULT_ARTIFACT
from tests.lsp.client import FAKE_SERVER, REAL_SERVER, raw_client
from tests.lsp.textmodel import apply_change, apply_edits, exact_range, only_flagged_letters_changed

WORDS = ["cok", "guzel", "Bugun", "aci", "hava", "Istanbul", "ogrenci", "😀", "e\u0301", "çok", "is", "the", ""]
SEPARATORS = [" ", " ", "\t", "\r\n", "\n", "\r", " 😀 ", "e\u0301 ", ". ", ""]
TEXT = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=15).map(
    lambda pairs: "".join(w + s for w, s in pairs)
)
POSITION = st.fixed_dictionaries({"line": st.integers(0, 8), "character": st.integers(0, 40)})
CHANGE = st.one_of(
    st.fixed_dictionaries({"range": st.fixed_dictionaries({"start": POSITION, "end": POSITION}), "text": TEXT}),
    st.fixed_dictionaries({"text": TEXT}),  # the whole document
)
SEQUENCE = st.lists(st.lists(CHANGE, min_size=1, max_size=3), max_size=8)  # didChange notifications


def run_fuzz(command: list[str], encoding: str, examples: int, timeout: float, backend: str = "default") -> None:
    loop = asyncio.new_event_loop()
    server = raw_client(command)
    # every finding shown, also the word an edit ends in: the fixes offered are the diagnostics'
    options = {"debounceMs": 0, "backend": backend, "hideWhileTyping": False}
    result = loop.run_until_complete(server.start(options, encodings=[encoding]))
    assert result["capabilities"]["positionEncoding"] == encoding
    uris = (f"file:///fuzz{n}.txt" for n in itertools.count())

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=TEXT, sequence=SEQUENCE)
    def check(text: str, sequence: list[list[dict[str, Any]]]) -> None:
        loop.run_until_complete(edit_and_check(server, next(uris), text, sequence, encoding, timeout))

    try:
        check()
    finally:
        loop.run_until_complete(server.stop())
        loop.close()


async def edit_and_check(
    server: BenchClient, uri: str, text: str, sequence: list[list[dict[str, Any]]], encoding: str, timeout: float
) -> None:
    versions = {1: text}
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}}
    )
    for version, changes in enumerate(sequence, start=2):
        for change in changes:
            text = apply_change(text, change, encoding)
        versions[version] = text
        server.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}
        )
    last = len(versions)
    final = await server.shown(uri, last, timeout)
    assert server.alive
    for publish in server.publishes[uri]:
        version_text = versions[publish["version"]]
        for diagnostic in publish["diagnostics"]:
            span = exact_range(version_text, diagnostic["range"], encoding)
            assert span is not None, (version_text, diagnostic)
            assert version_text[span[0] : span[1]] == diagnostic["data"]["original"]
    await check_fixes(server, uri, text, final, encoding)
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


async def check_fixes(
    server: BenchClient, uri: str, text: str, diagnostics: list[dict[str, Any]], encoding: str
) -> None:
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 10**6, "character": 0}}
    actions = await server.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": diagnostics}},
    )
    flagged = [exact_range(text, d["range"], encoding) for d in diagnostics]
    edits = [action["edit"]["changes"][uri] for action in actions or [] if "edit" in action]
    assert len(edits) >= len(diagnostics)  # a fix per diagnostic (and restore-all when any)
    for edit in edits:
        assert only_flagged_letters_changed(text, apply_edits(text, edit, encoding), flagged)  # type: ignore[arg-type]


@pytest.fixture
def run_slow(request: pytest.FixtureRequest) -> bool:
    """Whether ``--run-slow`` asks for the long runs (more examples)."""
    return request.config.getoption("--run-slow")


def test_edit_sequences_keep_ranges_exact_and_fixes_local():
    run_fuzz(FAKE_SERVER, "utf-16", examples=150, timeout=20)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_edit_sequences_long_run(encoding: str, run_slow: bool):
    run_fuzz(FAKE_SERVER, encoding, examples=1500 if run_slow else 300, timeout=20)


@pytest.mark.skipif(not DEFAULT_ARTIFACT.exists(), reason="ngram artifact not built")
def test_edit_sequences_with_the_count_based_model(run_slow: bool):
    run_fuzz(REAL_SERVER, "utf-16", examples=300 if run_slow else 150, timeout=120, backend="ngram")
