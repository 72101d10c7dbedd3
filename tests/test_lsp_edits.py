"""End to end: an edit the server sends never changes a letter it does not mean to.

The real server process (with the fixed-lexicon restorer) in UTF-8, UTF-16 and UTF-32.
The client here is an editor that asks for a fix with the diagnostic it still shows,
after earlier fixes moved the text (in UTF-8, every Turkish letter before a word moves
its range by a byte): the server must resolve the fix against the current text.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.lsp_client import BenchClient
from tests.lsp.client import FAKE_SERVER, raw_client
from tests.lsp.editors import Editor

ENCODINGS = ["utf-8", "utf-16", "utf-32"]
OPTIONS = {"debounceMs": 0, "confidenceThreshold": 0.9}
#: A client that takes versioned edits (TextDocumentEdit) and rejects one for another version.
VERSIONED = {"workspaceEdit": {"documentChanges": True}}
PAIRS = set(zip("cgiosuCGIOSU", "çğıöşüÇĞİÖŞÜ", strict=True))


async def started(encoding: str, workspace: dict[str, Any] | None = None) -> BenchClient:
    server = raw_client(FAKE_SERVER)
    result = await server.start(OPTIONS, encodings=[encoding], workspace=workspace)
    assert result["capabilities"]["positionEncoding"] == encoding
    return server


def changed_only_letters_of(before: str, after: str, word: str) -> bool:
    """Same length; every change an ASCII letter into its Turkish pair, all inside one
    whole-word occurrence of ``word`` in ``before``."""
    if len(before) != len(after):
        return False
    changed = [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    if any((before[i], after[i]) not in PAIRS for i in changed):
        return False
    starts = [s for s in range(len(before)) if before.startswith(word, s) and is_whole_word(before, s, len(word))]
    return not changed or any(s <= changed[0] and changed[-1] < s + len(word) for s in starts)


def is_whole_word(text: str, start: int, length: int) -> bool:
    end = start + length
    return (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum())


@pytest.mark.parametrize("workspace", [None, VERSIONED], ids=["changes", "documentChanges"])
@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_second_fix_with_the_diagnostic_still_shown_fixes_its_own_word(encoding: str, workspace: Any):
    """The Neovim case: Bugun fixed, then cok with the diagnostic published before (its
    UTF-8 range one byte short of the word now): the line must read right, not 'havaçokk'."""
    server = await started(encoding, workspace)
    try:
        editor = Editor(server, "file:///neovim.txt", "Bugun hava cok guzel", encoding)
        bugun, cok, guzel = await editor.diagnostics()
        assert await editor.fix(bugun, 0) == "Change to 'Bugün'"
        assert await editor.fix(cok, editor.text.index("cok") + 1) == "Change to 'çok'"
        assert editor.text == "Bugün hava çok guzel"
        assert await editor.fix(guzel, editor.text.index("guzel")) == "Change to 'güzel'"
        assert editor.text == "Bugün hava çok güzel"
    finally:
        await server.stop()


PROBE = "Bugun hava cok guzel, ogrenci is sure guzel ogrenci cok; bugun guzel"
PROBE_FIXED = "Bugün hava çok güzel, öğrenci iş süre güzel öğrenci çok; bugün güzel"


@pytest.mark.parametrize("workspace", [None, VERSIONED], ids=["changes", "documentChanges"])
@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_rapid_fixes_of_a_line_with_stale_diagnostics(encoding: str, workspace: Any):
    """Every quick fix of a line in a row, each asked with the diagnostic of the first
    analysis and the cursor on its word, without waiting for the server to analyse again."""
    server = await started(encoding, workspace)
    try:
        editor = Editor(server, "file:///probe.txt", PROBE, encoding)
        diagnostics = await editor.diagnostics()
        assert len(diagnostics) == 11
        columns = [start for start in range(len(PROBE)) if PROBE[start].isalpha() and is_whole_word_start(PROBE, start)]
        for diagnostic in diagnostics:
            word = diagnostic["data"]["original"]
            at = next(c for c in columns if PROBE.startswith(word, c) and editor.text.startswith(word, c))
            before = editor.text
            assert await editor.fix(diagnostic, at) is not None, (word, editor.text)
            assert changed_only_letters_of(before, editor.text, word), (before, editor.text)
        assert editor.text == PROBE_FIXED
    finally:
        await server.stop()


def is_whole_word_start(text: str, start: int) -> bool:
    return start == 0 or not text[start - 1].isalnum()


def test_a_versioned_fix_names_the_version_it_was_computed_for():
    """With documentChanges the client can refuse a fix the text has moved past."""

    async def run() -> None:
        server = await started("utf-8", VERSIONED)
        try:
            editor = Editor(server, "file:///versioned.txt", "cok guzel", "utf-8")
            cok, _ = await editor.diagnostics()
            (fix,) = [a for a in await editor.actions([cok], 0, 0) if a.get("isPreferred")]
            assert fix["edit"]["documentChanges"][0]["textDocument"] == {"uri": editor.uri, "version": 1}
            editor.change([{"range": {"start": editor.position(0), "end": editor.position(0)}, "newText": "ve "}])
            assert not editor.apply(fix["edit"]) and editor.text == "ve cok guzel"
        finally:
            await server.stop()

    asyncio.run(run())


# --- random edits interleaved with stale requests -------------------------------------

WORDS = ["cok", "guzel", "Bugun", "bugun", "ogrenci", "is", "sure", "hava", "çok", "güzel", "😀", "aci", "e\u0301"]
SEPARATORS = [" ", " ", ", ", "\n", ". ", "\r\n"]
PIECE = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), min_size=1, max_size=4).map(
    lambda pairs: "".join(w + s for w, s in pairs)
)
FRACTION = st.floats(0, 1)
STEP = st.one_of(
    st.tuples(st.just("edit"), FRACTION, FRACTION, st.one_of(st.just(""), PIECE)),
    st.tuples(st.just("fix"), st.integers(0, 10**6), st.integers(0, 3)),  # a diagnostic once published, a spelling
    st.tuples(st.just("wait")),  # for the current version's diagnostics
    st.tuples(st.just("restore")),
)
START = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=10).map(
    lambda pairs: "".join(w + s for w, s in pairs)
)


class Session:
    """One document edited at random; every diagnostic ever published is kept to be sent back stale."""

    def __init__(self, editor: Editor):
        self.editor, self.shown = editor, []

    def seen(self) -> list[dict]:
        return [d for publish in self.editor.server.publishes.get(self.editor.uri, []) for d in publish["diagnostics"]]

    def edit(self, start: float, end: float, text: str) -> None:
        size = len(self.editor.text)
        first, last = sorted((round(start * size), round(end * size)))
        if self.editor.text[first - 1 : first + 1] == "\r\n" or self.editor.text[last - 1 : last + 1] == "\r\n":
            return  # a position inside a line break is no position
        range_ = {"start": self.editor.position(first), "end": self.editor.position(last)}
        self.editor.change([{"range": range_, "newText": text}])

    async def fix(self, which: int, choice: int) -> None:
        seen = self.seen()
        if not seen:
            return
        diagnostic = seen[which % len(seen)]
        row = diagnostic["range"]["start"]["line"]
        whole_line = {"start": {"line": row, "character": 0}, "end": {"line": row, "character": 10**4}}
        actions = await self.editor.server.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": self.editor.uri}, "range": whole_line, "context": {"diagnostics": [diagnostic]}},
        )
        fixes = [a for a in actions if a["title"].startswith("Change to")]
        if fixes:
            before = self.editor.text
            assert self.editor.apply(fixes[choice % len(fixes)]["edit"])
            assert changed_only_letters_of(before, self.editor.text, diagnostic["data"]["original"]), (
                before,
                self.editor.text,
                diagnostic,
            )

    async def restore(self) -> None:
        server, before = self.editor.server, self.editor.text
        applied = len(server.applied)
        done = await server.request(
            "workspace/executeCommand", {"command": "nokta.restoreDocument", "arguments": [{"uri": self.editor.uri}]}
        )
        if done:
            assert self.editor.apply(server.applied[applied])
            changed = [(a, b) for a, b in zip(before, self.editor.text, strict=True) if a != b]
            assert len(before) == len(self.editor.text) and changed and set(changed) <= PAIRS


async def play(server: BenchClient, uri: str, encoding: str, text: str, steps: list[tuple]) -> None:
    session = Session(Editor(server, uri, text, encoding))
    for step in steps:
        if step[0] == "edit":
            session.edit(*step[1:])
        elif step[0] == "fix":
            await session.fix(*step[1:])
        elif step[0] == "wait":
            await session.editor.diagnostics()
        else:
            await session.restore()
    assert server.alive
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


@pytest.mark.parametrize("workspace", [None, VERSIONED], ids=["changes", "documentChanges"])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_random_edits_and_stale_requests_change_only_the_intended_letters(encoding: str, workspace: Any):
    loop = asyncio.new_event_loop()
    server = raw_client(FAKE_SERVER)
    loop.run_until_complete(server.start(OPTIONS, encodings=[encoding], workspace=workspace))
    uris = (f"file:///random{n}.txt" for n in itertools.count())

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=START, steps=st.lists(STEP, max_size=14))
    def check(text: str, steps: list[tuple]) -> None:
        loop.run_until_complete(play(server, next(uris), encoding, text, steps))

    try:
        check()
    finally:
        loop.run_until_complete(server.stop())
        loop.close()
