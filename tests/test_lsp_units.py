"""Unit tests of the server's pure parts: settings, documents, checker, incremental analysis."""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from lsprotocol import types

from nokta_lsp.analysis.diagnostics import ALTERNATIVE_FLOOR, SEVERITY, PublishedDiagnostics, finding_data
from nokta_lsp.analysis.documents import Codec, Document, split_lines
from nokta_lsp.analysis.worker import DocumentState
from nokta_lsp.protocol.actions import quick_fixes
from nokta_lsp.state.settings import Settings, defaults_as_json, parse_settings, parse_user_settings
from nokta_model.check.findings import (
    CheckOptions,
    Finding,
    SuggestionCache,
    check,
    document_masker,
    is_slip,
    restored_text,
)
from nokta_model.prose import FORMATS, PLAIN
from nokta_model.restorer import Suggestion
from nokta_model.spans import Span
from tests.lsp.fake_restorer import FakeRestorer

SETTINGS_DOC = Path(__file__).resolve().parents[1] / "docs" / "settings.md"

# --- settings ---------------------------------------------------------------------------


def test_defaults_match_the_documented_table():
    documented = dict(
        re.findall(r"^\| \[`(\w+)`\]\(#\w+\) \| .*? \| `(.*)` \|$", SETTINGS_DOC.read_text(encoding="utf-8"), re.M)
    )
    assert documented.keys() == defaults_as_json().keys()
    for key, value in defaults_as_json().items():
        assert json.loads(documented[key]) == value, key
    assert defaults_as_json()["fileTypes"][:3] == ["plaintext", "markdown", "gitcommit"]
    assert set(defaults_as_json()) == {
        "fileTypes", "checkCodeComments", "severity", "confidenceThreshold", "strictConfidenceThreshold",
        "ambiguous", "debounceMs", "ignoreWords",
        "dictionaryPath", "backend", "modelPath", "device", "maxFileSize", "maxLineLength",
        "maxDiagnostics", "autocorrect", "autocorrectThreshold", "hideWhileTyping", "inlayHints",
        "workspaceDiagnostics", "workspaceMaxFiles", "workspaceMaxFileSize",
    }  # fmt: skip


def test_invalid_values_fall_back_with_warnings_and_valid_ones_are_kept():
    parsed, warnings = parse_settings(
        {
            "nokta": {
                "severity": "loud",
                "debounceMs": 1.5,
                "confidenceThreshold": 0.8,
                "ignoreWords": ["a", 3],
                "checkCodeComments": "yes",
                "x": 1,
            }
        }
    )
    assert parsed == Settings(confidenceThreshold=0.8)
    assert len(warnings) == 5 and any("nokta.x" in w for w in warnings)
    assert parse_settings("nonsense")[0] == Settings() and parse_settings(None) == (Settings(), [])


def test_the_keys_the_user_set_are_tracked_and_null_unsets_one():
    settings, user_set, _ = parse_user_settings({"confidenceThreshold": 0.8, "severity": "hint"})
    assert user_set == {"confidenceThreshold", "severity"}
    settings, user_set, warnings = parse_user_settings(
        {"confidenceThreshold": None, "debounceMs": -1}, settings, user_set
    )
    assert user_set == {"severity"}  # null unsets, an invalid value is no setting either
    assert (settings.confidenceThreshold, settings.severity, len(warnings)) == (
        Settings().confidenceThreshold,
        "hint",
        1,
    )


def test_client_only_keys_are_ignored_silently():
    assert parse_settings({"server": {"path": "/x"}, "trace": {"server": "off"}, "debounceMs": 10}) == (
        Settings(debounceMs=10),
        [],
    )


# --- documents --------------------------------------------------------------------------


def test_codec_units_round_trip_on_astral_and_combining_text():
    line = "a😀e\u0301 ğ\ud800x"
    for encoding, units in (
        ("utf-16", [0, 1, 3, 4, 5, 6, 7, 8, 9]),
        ("utf-8", [0, 1, 5, 6, 8, 9, 11, 14, 15]),
        ("utf-32", list(range(9))),
    ):
        codec = Codec(encoding)
        assert [codec.to_client(line, col) for col in range(len(line) + 1)] == units
        assert [codec.from_client(line, u) for u in units] == list(range(len(line) + 1))
    assert Codec("utf-16").from_client(line, 2) == 1  # inside the surrogate pair: rounds down
    assert Codec("utf-8").from_client(line, 3) == 1
    assert Codec("utf-16").from_client(line, 500) == len(line)


def test_split_lines_knows_only_lsp_line_breaks():
    assert split_lines("a\r\nb\rc\nd\u2028e\x0c") == (["a", "b", "c", "d\u2028e\x0c"], ["\r\n", "\r", "\n", ""])
    assert split_lines("") == ([""], [""]) and split_lines("x\n") == (["x", ""], ["\n", ""])


_TEXT = st.text(alphabet=st.sampled_from(list("ab \r\n😀ç\u0301")), max_size=30)


@hsettings(max_examples=300, deadline=None)
@given(_TEXT, st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), _TEXT), max_size=6))
def test_incremental_edits_match_editing_the_whole_text(text, edits):
    document = Document.create("u", "plaintext", 1, text)
    for start, end, new in edits:
        start, end = sorted((start, end))
        current = document.text()
        document.apply_edit(_position(current, start), _position(current, end), new)
        text = current[: min(start, len(current))] + new + current[min(end, len(current)) :]
        # a position inside "\r\n" cannot be expressed in LSP: compare with the clamped edit
        assert document.text() == _reference(current, start, end, new)
        assert (document.lines, document.ends) == split_lines(document.text())
        assert document.size == len(document.text())


def _position(text: str, offset: int) -> tuple[int, int]:
    lines, ends = split_lines(text)
    for row, (line, end) in enumerate(zip(lines, ends, strict=True)):
        if offset <= len(line) or row == len(lines) - 1:
            return row, min(offset, len(line))
        offset -= len(line) + len(end)
        if offset < 0:
            return row, len(line)
    raise AssertionError


def _reference(text: str, start: int, end: int, new: str) -> str:
    def offset(position: tuple[int, int]) -> int:
        lines, ends = split_lines(text)
        return sum(len(line) + len(end) for line, end in zip(lines[: position[0]], ends, strict=False)) + position[1]

    return text[: offset(_position(text, start))] + new + text[offset(_position(text, end)) :]


# --- which documents are checked ---------------------------------------------------------


def test_document_masker_by_language_id_file_types_and_code_setting():
    file_types = Settings().fileTypes
    assert document_masker("markdown", file_types, False) is FORMATS["markdown"]
    assert document_masker("plaintex", file_types, False) is FORMATS["latex"]
    assert document_masker("python", file_types, False) is None
    assert document_masker("python", file_types, True) is FORMATS["code-hash"]
    assert document_masker("mail", (*file_types, "mail"), False) is PLAIN
    assert document_masker("unknownlang", (), True) is None


# --- checker ----------------------------------------------------------------------------


def test_check_filters_ascii_threshold_ignore_and_caches_by_line_text():
    restorer, cache = FakeRestorer(), SuggestionCache()
    lines = ["cok guzel", "aci", "çok guzel", "cok guzel"]
    findings = check(lines, PLAIN, restorer, cache, CheckOptions(threshold=0.9))
    # line 2 has a Turkish letter: its ASCII words need the strict threshold (1.0 by default)
    assert [(f.line, f.original, f.replacement) for f in findings] == [
        (0, "cok", "çok"),
        (0, "guzel", "güzel"),
        (3, "cok", "çok"),
        (3, "guzel", "güzel"),
    ]
    assert len(restorer.calls) == 1 and len(restorer.calls[0]) == 3  # one batch, each distinct line once
    lines[1] = "cok guzel"  # a line that moved or repeats costs nothing
    check(lines, PLAIN, restorer, cache, CheckOptions())
    assert len(restorer.calls) == 1
    ambiguous = check(["aci"], PLAIN, restorer, cache, CheckOptions(show_ambiguous=True))
    assert [(f.replacement, f.confident) for f in ambiguous] == [("acı", False)]
    ignored = check(["COK guzel"], PLAIN, restorer, cache, CheckOptions(ignore=frozenset({"cok"})))
    assert [f.original for f in ignored] == ["guzel"]
    assert restored_text("cok guzel", findings[:2]) == "çok güzel"


def test_a_slip_on_a_typed_line_needs_only_the_ascii_threshold():
    lines = ["Yarın gorusme var, çok guzel.", "Yarın Gorusme var."]
    findings = check(lines, PLAIN, FakeRestorer(), SuggestionCache(), CheckOptions(threshold=0.9, strict_threshold=1.0))
    # gorusme is never written, görüşme is: a missed letter, capitalised or not;
    # guzel and güzel are both written: strict
    assert [(f.line, f.original, f.replacement) for f in findings] == [
        (0, "gorusme", "görüşme"),
        (1, "Gorusme", "Görüşme"),
    ]


def test_a_word_with_a_typographic_apostrophe_is_checked_like_an_ascii_one():
    findings = check(["Bu guzel’i", "Bu güzel’i"], PLAIN, FakeRestorer(), SuggestionCache(), CheckOptions())
    assert [(f.line, f.original, f.replacement) for f in findings] == [(0, "guzel’i", "güzel’i")]


def test_a_slip_is_a_typed_form_at_most_three_hundredths_as_common_as_its_replacement():
    def counted(typed: str, replacement: str, typed_count: float, count: float) -> Suggestion:
        span = Span(0, len(typed))
        return Suggestion(span, typed, replacement, 1.0, (), count=count, typed_count=typed_count)

    # corpus counts: üç 2,011 / uc 39 (1.9%) is a slip; adlı 2,115 / adli (judicial) 74 (3.5%)
    # is a choice between two real words; a replacement seen under five times is too rare to tell
    assert is_slip(counted("uc", "üç", 39, 2011), CheckOptions())
    assert not is_slip(counted("adli", "adlı", 74, 2115), CheckOptions())
    assert is_slip(counted("sadra", "şadra", 0, 5), CheckOptions())  # şadra 5, sadra never
    assert not is_slip(counted("sadra", "şadra", 0, 4), CheckOptions())


def test_a_capital_i_on_a_typed_line_is_a_slip_when_read_dotless_it_is_never_written():
    lines = ["ÇOK IYI OLDU, cok guzel.", "Çok Iyi."]
    findings = check(lines, PLAIN, FakeRestorer(), SuggestionCache(), CheckOptions(threshold=0.9, strict_threshold=1.0))
    # a keyboard with İ types I for ı: IYI is ıyı, never written, so İYİ was meant (on a
    # line mostly in capitals; among lower-case words it would be an acronym, see below);
    # cok and guzel are written as typed too (real words): strict, not flagged
    assert [(f.line, f.original, f.replacement) for f in findings] == [(0, "IYI", "İYİ"), (1, "Iyi", "İyi")]


def test_an_acronym_among_words_not_in_capitals_is_typed_as_meant():
    lines = ["Almanya'daki ICE çok hızlı.", "ICE'de çok yer var.", "ÇOK HIZLI ICE DEDİ.", "Yarın GORUSME var."]
    findings = check(lines, PLAIN, FakeRestorer(), SuggestionCache(), CheckOptions(threshold=0.9, strict_threshold=1.0))
    # ICE would be a slip (ıce is never written) but two to four capitals among lower-case
    # words are an acronym; on a line in capitals, or with five letters or more, still a slip
    assert [(f.line, f.original, f.replacement) for f in findings] == [(2, "ICE", "İÇE"), (3, "GORUSME", "GÖRÜŞME")]


def test_a_word_glued_to_a_number_by_a_colon_is_never_flagged():
    lines = ['bunlar "cok:123" gibi guzel', "cok: 123", "çok gorusme:1"]
    findings = check(lines, PLAIN, FakeRestorer(), SuggestionCache(), CheckOptions(threshold=0.9))
    assert [(f.line, f.original) for f in findings] == [(0, "guzel"), (1, "cok")]


def test_a_url_slug_on_a_typed_line_is_never_flagged(monkeypatch):
    from tests.lsp import fake_restorer

    slug = "depresyon-nedir-belirtileri-nasil"
    monkeypatch.setitem(fake_restorer.LEXICON, slug, [("depresyon-nedir-belirtileri-nasıl", 0.99), (slug, 0.01)])
    lines = [f"Yazı burada: {slug} ve cok", f"yazi burada: {slug}"]  # typed with Turkish letters; ASCII
    findings = check(lines, PLAIN, FakeRestorer(), SuggestionCache(), CheckOptions(threshold=0.9, strict_threshold=0.9))
    assert [(f.line, f.original) for f in findings] == [(0, "cok"), (1, slug)]


def test_lines_typed_with_turkish_letters_need_the_strict_threshold():
    restorer, cache = FakeRestorer(), SuggestionCache()
    lines = ["çok guzel gozluk", "hâlâ guzel", "guzel gozluk", "İyi Guzel", "Istanbul Guzel"]
    strict = check(lines, PLAIN, restorer, cache, CheckOptions(threshold=0.9, strict_threshold=0.999))
    assert [(f.line, f.original) for f in strict] == [(2, "guzel"), (2, "gozluk"), (4, "Istanbul"), (4, "Guzel")]
    loose = check(lines, PLAIN, restorer, cache, CheckOptions(threshold=0.9, strict_threshold=0.99))
    # on a typed line capitalised words are names typed as intended (a capital I aside:
    # see above), and guesses for words the lexicon has never seen are not offered:
    # neither is flagged
    assert [(f.line, f.original) for f in loose] == [
        (0, "guzel"),
        (1, "guzel"),
        (2, "guzel"),
        (2, "gozluk"),
        (4, "Istanbul"),
        (4, "Guzel"),
    ]


def test_cache_is_bounded():
    cache = SuggestionCache(max_lines=2)
    for text in ("a", "b", "c"):
        cache.put(text, ())
    assert len(cache) == 2 and cache.get("a") is None and cache.get("c") == ()


def test_overlong_lines_are_not_checked():
    findings = check(["cok " * 10, "cok"], PLAIN, FakeRestorer(), SuggestionCache(), CheckOptions(max_line_length=20))
    assert [f.line for f in findings] == [1]


def test_code_action_kinds_filter():
    from nokta_lsp.protocol.actions import wanted

    assert wanted(None, "source.fixAll.nokta") and wanted(["source.fixAll"], "source.fixAll.nokta")
    assert wanted(["source"], "source.fixAll.nokta") and not wanted(
        [types.CodeActionKind.QuickFix], "source.fixAll.nokta"
    )


# --- incremental analysis ---------------------------------------------------------------

_LINES = st.lists(
    st.sampled_from(
        ["cok guzel", "```", "the sure thing.", "Bugun hava.", "", "çok guzel", "`cok` aci", "This is it. Bugun cok"]
    ),
    max_size=12,
)


def _update(analysis, lines: tuple[str, ...], context) -> None:
    """Bring every finding up to date with ``lines``."""
    analysis.prepare(lines, context)
    while analysis.find_next(max(len(lines), 1)):
        pass


def _findings(analysis) -> list[tuple[Finding, ...]]:
    return [record.findings for record in analysis.records]


def _offered_from_scratch(line_findings: list[tuple[Finding, ...]]) -> frozenset[str]:
    """Every spelling with a Turkish letter that the findings offer, gathered afresh."""
    return frozenset(
        spelling
        for row in line_findings
        for finding in row
        for spelling in (finding.replacement, *(text for text, _ in finding.alternatives))
        if not spelling.isascii()
    )


def _fresh_diagnostics(lines, context) -> str:
    from nokta_lsp.analysis.incremental import DocumentAnalysis

    fresh = DocumentAnalysis()
    _update(fresh, tuple(lines), context)
    return PublishedDiagnostics().update(lines, fresh.take_changes(), context.codec, context.severity)


@hsettings(max_examples=200, deadline=None)
@given(
    _LINES,
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), _LINES), max_size=6),
    st.sampled_from([PLAIN, FORMATS["markdown"]]),
)
def test_incremental_analysis_matches_a_fresh_check(lines, edits, masker):
    from nokta_lsp.analysis.documents import Codec
    from nokta_lsp.analysis.incremental import Context, DocumentAnalysis

    restorer, cache, options = FakeRestorer(), SuggestionCache(), CheckOptions(threshold=0.9, strict_threshold=0.99)
    context = Context(masker, options, "information", Codec(), restorer, cache)
    analysis, published = DocumentAnalysis(), PublishedDiagnostics()
    _update(analysis, tuple(lines), context)
    for start, end, new in edits:
        start, end = sorted((min(start, len(lines)), min(end, len(lines))))
        lines = lines[:start] + new + lines[end:]
        _update(analysis, tuple(lines), context)
        expected = check(lines, masker, FakeRestorer(), SuggestionCache(), options)
        assert [f for row in _findings(analysis) for f in row] == expected
        text = published.update(lines, analysis.take_changes(), context.codec, context.severity)
        assert published.findings == _findings(analysis) and text.count('"range"') == len(expected)
        assert text == _fresh_diagnostics(lines, context)
        assert published.offered.spellings == _offered_from_scratch(published.findings)


@hsettings(max_examples=200, deadline=None)
@given(
    _LINES,
    st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 12), _LINES, st.integers(1, 4), st.sampled_from(range(4))),
        max_size=6,
    ),
    st.booleans(),
)
def test_analysis_found_in_batches_and_interrupted_matches_a_fresh_one(lines, edits, markdown):
    """Edits, settings changes and words nokta wrote arriving while stale rows wait, as the
    worker sees them, end where a fresh analysis of the last version does."""
    from dataclasses import replace

    from nokta_lsp.analysis.incremental import Context, DocumentAnalysis

    masker = FORMATS["markdown"] if markdown else PLAIN
    base = Context(
        masker,
        CheckOptions(threshold=0.9, strict_threshold=0.99),
        "information",
        Codec(),
        FakeRestorer(),
        SuggestionCache(),
    )
    contexts = [
        base,
        replace(base, options=CheckOptions(threshold=0.5, ignore=frozenset({"cok"}))),
        replace(base, written=frozenset({"çok"})),
        replace(base, written=frozenset({"çok", "güzel"})),
    ]
    context = base
    analysis, published = DocumentAnalysis(), PublishedDiagnostics()
    analysis.prepare(tuple(lines), context)
    for start, end, new, batches, which in edits:
        analysis.find_next(batches)  # one batch of a few rows, then the next version arrives
        published.update(lines, analysis.take_changes(), context.codec, context.severity)  # a partial result
        assert published.findings == _findings(analysis)
        assert published.offered.spellings == _offered_from_scratch(published.findings)
        assert analysis.stale_lines == sum(record.stale for record in analysis.records)
        start, end = sorted((min(start, len(lines)), min(end, len(lines))))
        lines = lines[:start] + new + lines[end:]
        context = contexts[which]
        analysis.prepare(tuple(lines), context)
    _update(analysis, tuple(lines), context)
    fresh = DocumentAnalysis()
    _update(fresh, tuple(lines), context)
    assert _findings(analysis) == _findings(fresh) and analysis.complete
    text = published.update(lines, analysis.take_changes(), context.codec, context.severity)
    assert published.findings == _findings(analysis) and text == _fresh_diagnostics(lines, context)
    assert published.offered.spellings == _offered_from_scratch(published.findings)
    if context.written == frozenset():
        assert [f for row in _findings(analysis) for f in row] == check(
            lines, masker, FakeRestorer(), SuggestionCache(), context.options
        )


def test_a_spelling_is_offered_while_a_line_offers_it_and_a_new_set_only_when_it_changes():
    from nokta_lsp.analysis.incremental import Context, DocumentAnalysis

    context = Context(PLAIN, CheckOptions(threshold=0.9), "information", Codec(), FakeRestorer(), SuggestionCache())
    analysis, published = DocumentAnalysis(), PublishedDiagnostics()

    def offered_after(lines: tuple[str, ...]) -> frozenset[str]:
        _update(analysis, lines, context)
        published.update(lines, analysis.take_changes(), context.codec, context.severity)
        return published.offered.spellings

    both = offered_after(("cok guzel", "cok iyi", "hava"))
    assert both == {"çok", "güzel"}
    assert offered_after(("cok guzel", "hava", "hava")) is both  # "çok" is still offered on line 0
    assert offered_after(("hava", "hava", "hava")) == frozenset()
    assert offered_after(("hava", "Bugun", "hava")) == {"Bugün"}


def test_an_opened_document_is_found_from_the_top_and_an_edit_before_the_rest():
    from nokta_lsp.analysis.incremental import URGENT_ROWS, Context, DocumentAnalysis

    context = Context(PLAIN, CheckOptions(), "information", Codec(), FakeRestorer(), SuggestionCache())
    lines = tuple(f"cok guzel {n}" for n in range(3 * URGENT_ROWS))
    analysis = DocumentAnalysis()
    analysis.prepare(lines, context)
    while analysis.priority_left():
        analysis.find_next(100)
    stale = [record.stale for record in analysis.records]
    assert not any(stale[:URGENT_ROWS]) and all(stale[URGENT_ROWS:])
    assert analysis.derived == URGENT_ROWS  # rows below are derived when they are found
    edited = (*lines[:2500], "bugun", *lines[2501:])
    analysis.prepare(edited, context)
    analysis.find_next(1)
    assert [f.replacement for f in _findings(analysis)[2500]] == ["bugün"]
    assert analysis.records[URGENT_ROWS].stale and not analysis.complete


def _snapshot(lines, restorer, version=1, stand_in=False):
    from nokta_lsp.analysis.model import Model
    from nokta_lsp.analysis.worker import Snapshot

    model = Model(restorer, SuggestionCache(), "fake", stand_in=stand_in)
    return Snapshot("file:///x.txt", version, lines, PLAIN, CheckOptions(), "information", Codec(), model)


def test_a_document_is_asked_for_in_large_batches_and_an_edit_alone():
    from dataclasses import replace

    from nokta_lsp.analysis.worker import AHEAD_LINES, Run, analyse

    restorer = FakeRestorer()
    lines = tuple(f"cok guzel {n}" for n in range(3 * AHEAD_LINES))
    snapshot, state = _snapshot(lines, restorer), DocumentState()
    never = Run(lambda: False, lambda partial: None)
    assert analyse(snapshot, state, never).complete
    assert [len(call) for call in restorer.calls] == [AHEAD_LINES] * 3
    restorer.calls.clear()
    edited = (*lines[:5], "bugun cok", *lines[6:])
    result = analyse(replace(snapshot, version=2, lines=edited), state, never)
    assert restorer.calls == [["bugun cok"]]
    assert [f.replacement for f in result.line_findings[5]] == ["bugün", "çok"]


def test_a_stand_in_finds_only_the_top_and_leaves_the_rest_to_the_configured_model():
    from nokta_lsp.analysis.incremental import URGENT_ROWS
    from nokta_lsp.analysis.worker import Run, analyse

    lines = tuple(f"cok guzel {n}" for n in range(3 * URGENT_ROWS))
    stand_in, configured = FakeRestorer(), FakeRestorer()
    snapshot = _snapshot(lines, stand_in, stand_in=True)
    never = Run(lambda: False, lambda partial: None)
    state = DocumentState()
    top = analyse(snapshot, state, never)
    assert not top.complete and sum(len(call) for call in stand_in.calls) == URGENT_ROWS
    assert all(top.line_findings[:URGENT_ROWS]) and not any(top.line_findings[URGENT_ROWS:])
    whole = analyse(_snapshot(lines, configured), state, never)
    assert whole.complete and all(len(row) == 2 for row in whole.line_findings)


def _a_moment() -> None:
    time.sleep(0.02)  # time for another batch to be asked meanwhile, which the test counts


class _Overlapping(FakeRestorer):
    """Notes the most batches ranked at once; each waits at ``meet`` (a barrier: for another
    batch) or a moment."""

    def __init__(self, concurrent_batches: int, meet: Callable[[], object] = _a_moment):
        super().__init__()
        self.concurrent_batches, self.meet = concurrent_batches, meet
        self.running = self.most_running = 0
        self.lock = threading.Lock()

    def rank(self, lines, spans, with_scores, typed=None, cased=None):
        with self.lock:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        self.meet()
        with self.lock:
            self.running -= 1
        return super().rank(lines, spans, with_scores, typed, cased)


def _analysed_in_batches(restorer: FakeRestorer, batches: int):
    from nokta_lsp.analysis.worker import AHEAD_LINES, Run, analyse

    lines = tuple(f"cok guzel {n}" for n in range(batches * AHEAD_LINES))
    result = analyse(_snapshot(lines, restorer), DocumentState(), Run(lambda: False, lambda partial: None))
    assert result.complete and all(len(row) == 2 for row in result.line_findings)
    assert [len(call) for call in restorer.calls] == [AHEAD_LINES] * batches


def test_a_restorer_worth_two_batches_at_once_has_two_asked_at_once():
    """Two batches meet at a barrier (the look-ahead asks the next one when the oldest is
    found): asked one after the other, the first would wait in vain and the analysis fail."""
    restorer = _Overlapping(2, threading.Barrier(2, timeout=10).wait)
    _analysed_in_batches(restorer, 4)
    assert restorer.most_running == 2


def test_a_restorer_worth_one_batch_has_one_asked_at_a_time():
    restorer = _Overlapping(1)
    _analysed_in_batches(restorer, 3)
    assert restorer.most_running == 1


def test_the_look_ahead_fills_its_free_slots_and_caches_in_the_order_asked():
    from nokta_lsp.analysis.lookahead import LookAhead
    from nokta_model.check.findings import uncached

    second_ranked = threading.Event()

    class SecondFirst(FakeRestorer):
        concurrent_batches = 2

        def rank(self, lines, spans, with_scores, typed=None, cased=None):
            if "cok 0" in lines:  # the first batch ends after the second
                assert second_ranked.wait(10)
            rankings = super().rank(lines, spans, with_scores, typed, cased)
            second_ranked.set()
            return rankings

    class Recording(SuggestionCache):
        def __init__(self) -> None:
            super().__init__()
            self.order: list[str] = []

        def put(self, text, suggestions):
            self.order.append(text)
            super().put(text, suggestions)

    def collect_all() -> None:
        while ahead.busy:
            assert ahead.wait(10)
            ahead.collect()

    texts, restorer, cache = [f"cok {n}" for n in range(7)], SecondFirst(), Recording()
    ahead = LookAhead(restorer)
    ahead.start(texts, 3, cache)
    ahead.start(texts, 3, cache)  # no slot free
    collect_all()
    ahead.start(uncached(texts, cache), 3, cache)
    collect_all()
    assert restorer.calls == [texts[3:6], texts[:3], texts[6:]]
    assert cache.order == texts
    assert [cache.get(text) for text in texts] == [tuple(found) for found in FakeRestorer().suggest(texts)]


def test_an_edit_is_published_before_the_document_is_checked_again_with_a_new_model():
    from dataclasses import replace

    from nokta_lsp.analysis.model import Model
    from nokta_lsp.analysis.worker import Run, analyse

    lines = tuple(f"cok guzel {n}" for n in range(2_000))
    snapshot, state = _snapshot(lines, FakeRestorer()), DocumentState()
    analyse(snapshot, state, Run(lambda: False, lambda partial: None))
    edited = (*lines[:1500], "bugun cok", *lines[1501:])
    model = Model(FakeRestorer(), SuggestionCache(), "another")
    partials: list = []
    analyse(replace(snapshot, version=2, lines=edited, model=model), state, Run(lambda: False, partials.append))
    assert partials[0].found_share < 0.01  # the edit's row alone
    assert [f.replacement for f in partials[0].line_findings[1500]] == ["bugün", "çok"]


def test_the_worker_waits_for_no_large_batch_when_a_newer_version_is_waiting():
    import threading

    from nokta_lsp.analysis.worker import Run, analyse

    release = threading.Event()

    class Blocked(FakeRestorer):
        def rank(self, lines, spans, with_scores, typed=None, cased=None):
            release.wait(10)
            return super().rank(lines, spans, with_scores, typed, cased)

    snapshot, state = _snapshot(tuple(f"cok guzel {n}" for n in range(100)), Blocked()), DocumentState()
    newer = threading.Event()
    threading.Timer(0.05, newer.set).start()
    assert analyse(snapshot, state, Run(newer.is_set, lambda partial: None)) is None  # while the batch is still asked
    release.set()
    assert analyse(snapshot, state, Run(lambda: False, lambda partial: None)).complete


async def test_engine_serves_the_count_based_model_while_the_configured_one_loads():
    import asyncio

    from nokta_lsp.state import engine as engine_module

    release, settled, finished = threading.Event(), threading.Event(), asyncio.Event()
    stand_in, configured = FakeRestorer(), FakeRestorer()

    def loader(name, device="auto"):
        if name == "ngram":
            return stand_in
        release.wait(10)
        return configured

    engine = engine_module.Engine(loader=loader)
    outcomes, served_first = [], []
    engine.start_loading(
        ("default", "", "auto"),
        asyncio.get_running_loop(),
        lambda outcome: (outcomes.append(outcome), finished.set()),
        lambda: served_first.append(engine.model.restorer),
        settled.set,
    )
    assert await asyncio.to_thread(settled.wait, 10)  # after the loop took the stand-in
    assert served_first == [stand_in] and engine.model.restorer is stand_in and engine.loading.is_set()
    release.set()
    await asyncio.wait_for(finished.wait(), 10)
    assert engine.model.restorer is configured and outcomes[0].error is None and not engine.loading.is_set()


async def test_the_configured_model_serves_once_its_network_is_loaded_the_stand_in_until_then():
    """The default loads its network (torch) on first use: the loading thread loads it
    before the configured model serves, so no analysis waits for it."""
    import asyncio

    import numpy as np

    from nokta_lsp.state import engine as engine_module
    from nokta_model.default import LazyNetwork

    network_asked, release, finished = threading.Event(), threading.Event(), asyncio.Event()
    loaded_on = []

    class Network:
        def line_probabilities(self, lines):
            return [np.full(len(line), 0.5) for line in lines]

    def load_network():
        loaded_on.append(threading.current_thread().name)
        network_asked.set()
        release.wait(10)
        return Network()

    class WithNetwork(FakeRestorer):
        neural = LazyNetwork(load_network)

    stand_in, configured = FakeRestorer(), WithNetwork()
    engine = engine_module.Engine(loader=lambda name, device="auto": stand_in if name == "ngram" else configured)
    engine.start_loading(("default", "", "auto"), asyncio.get_running_loop(), lambda outcome: finished.set())
    # the loop has run what the loader handed it before asking for the network: queued before this wake-up
    assert await asyncio.to_thread(network_asked.wait, 10)
    assert engine.model.restorer is stand_in and engine.model.stand_in  # while the network loads
    release.set()
    await asyncio.wait_for(finished.wait(), 10)
    assert engine.model.restorer is configured and configured.neural.loaded and loaded_on == ["nokta-model-loader"]


def test_fixes_leave_out_unlikely_spellings_and_prefer_the_best():
    finding = Finding(
        0, 0, 6, "ciktik", "çıktık", 0.9, (("çıktık", 0.9), ("cıktık", ALTERNATIVE_FLOOR / 2), ("çiktik", 0.08)), True
    )
    diagnostic = types.Diagnostic(range=types.Range(start=types.Position(0, 0), end=types.Position(0, 6)), message="")
    diagnostic.data = finding_data(finding)
    fixes = [a for a in quick_fixes("file:///x.txt", diagnostic) if a.title.startswith("Change")]
    assert [(a.title, a.is_preferred) for a in fixes] == [("Change to 'çıktık'", True), ("Change to 'çiktik'", False)]


def test_the_result_id_changes_with_the_diagnostics_and_only_with_them():
    """A pull after the settings change must not answer "unchanged" when the findings
    vanish or the severity changed, and may when nothing changed."""
    from dataclasses import replace

    from nokta_lsp.analysis.worker import Run, analyse

    never = Run(lambda: False, lambda partial: None)
    snapshot, state = _snapshot(("cok guzel",), FakeRestorer()), DocumentState()
    ids = [analyse(snapshot, state, never).result_id]
    ids.append(analyse(replace(snapshot, options=CheckOptions(ignore=frozenset({"yok"}))), state, never).result_id)
    ids.append(analyse(replace(snapshot, severity="error"), state, never).result_id)
    ignored = replace(snapshot, options=CheckOptions(ignore=frozenset({"cok", "guzel"})))
    last = analyse(ignored, state, never)
    assert last.line_findings == [()] and last.diagnostics_json == ""
    assert ids[0] == ids[1] != ids[2] != last.result_id


def test_shutdown_settles_the_servers_own_unanswered_requests_without_a_traceback(caplog):
    from nokta_lsp.protocol.handlers import build_server
    from nokta_lsp.protocol.transport import shutdown_requested

    class Sink:
        def write(self, data):
            pass

        def close(self):
            pass

    server = build_server()
    server.protocol.set_writer(Sink())
    created = []
    server.work_done_progress.create("nokta-check-1", callback=lambda *args: created.append(args))  # never answered
    shutdown = server.protocol.structure_message({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
    with caplog.at_level(logging.DEBUG):
        server.protocol.handle_message(shutdown)
    assert created == [(None,)] and shutdown_requested(server)
    assert not [record for record in caplog.records if record.exc_info]


def test_the_diagnostics_severities_are_the_lsps_numbers():
    """The worker writes diagnostics without protocol types: its numbers are lsprotocol's."""
    assert {name: int(types.DiagnosticSeverity[name.capitalize()]) for name in SEVERITY} == SEVERITY
