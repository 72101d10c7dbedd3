"""The packed suggestions and findings (``nokta_lsp.analysis.packed``): read back equal to the
objects they stand for, found the same by the incremental analysis, in less memory."""

from __future__ import annotations

import gc
import tracemalloc
from dataclasses import replace

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from nokta_lsp.analysis.diagnostics import PublishedDiagnostics
from nokta_lsp.analysis.documents import Codec
from nokta_lsp.analysis.ignore_directives import IgnoreDirectives
from nokta_lsp.analysis.incremental import Context, DocumentAnalysis
from nokta_lsp.analysis.packed import LineFindings, PackedSuggestionCache, pack, unpack
from nokta_model.check.findings import CheckOptions, SuggestionCache, check, line_findings
from nokta_model.prose import FORMATS, PLAIN
from nokta_model.restorer import Alternative, Suggestion
from nokta_model.spans import Span
from tests.lsp.fake_restorer import FakeRestorer

TEXT = "bugun cok guzel yasa aci"


def _suggestions(text: str = TEXT) -> list[Suggestion]:
    (suggestions,) = FakeRestorer().suggest([text])
    return suggestions


def test_suggestions_read_back_equal_to_those_packed():
    made = _suggestions()
    odd = Suggestion(
        Span(0, 5), "BUGUN", "bugün", 0.7, (Alternative("bugün", 0.7), Alternative("bugun", 0.3)), 3.0, 0.0
    )
    assert len(made) >= 4
    assert unpack(TEXT, pack(TEXT, made)) == tuple(made)
    assert unpack(TEXT, pack(TEXT, [odd])) == (odd,)  # an original that is not the text's own
    assert unpack("", pack("", [])) == ()


def test_line_findings_read_as_the_findings_they_stand_for():
    suggestions = _suggestions()
    options = CheckOptions(threshold=0.9, show_ambiguous=True)
    findings = line_findings(7, TEXT, suggestions, options)
    some = tuple(f for f in findings if f.original != "cok")
    packed = LineFindings.of(some, TEXT, suggestions)
    assert isinstance(packed, LineFindings)
    assert packed == some and some == packed and tuple(packed) == some
    assert len(packed) == len(some) and packed[0] == some[0] and packed[-1] == some[-1] and packed[1:] == some[1:]
    assert packed.confident_count == sum(f.confident for f in some) >= 1
    assert list(packed.spellings()) == [s for f in some for s in (f.replacement, *(t for t, _ in f.alternatives))]
    moved = packed.renumbered(9)
    assert moved == tuple(replace(f, line=9) for f in some) and moved != packed
    kept = packed.keeping(lambda word: word != "guzel")
    assert kept == tuple(f for f in some if f.original != "guzel")
    assert packed.keeping(lambda word: False) == () and packed.keeping(lambda word: True) is packed
    assert LineFindings.of((), TEXT, suggestions) == ()


def test_ignored_words_are_left_out_of_the_packed_findings():
    suggestions = _suggestions()
    findings = line_findings(0, TEXT, suggestions, CheckOptions(threshold=0.9))
    ignores = IgnoreDirectives()
    ignores.words = frozenset({"cok"})
    shown = ignores.shown(LineFindings.of(findings, TEXT, suggestions))
    assert shown == tuple(f for f in findings if f.original != "cok") and len(shown) == len(findings) - 1


def test_the_packed_cache_is_a_bounded_lru_lending_its_tuples():
    cache = PackedSuggestionCache(max_lines=2)
    for text in ("cok", "guzel", "aci"):
        cache.put(text, _suggestions(text))
    assert len(cache) == 2 and "cok" not in cache
    assert cache.get("guzel") == tuple(_suggestions("guzel"))  # guzel used last: aci goes next
    cache.put("bugun", _suggestions("bugun"))
    assert "aci" not in cache and cache.packed("guzel") is cache.packed("guzel") and cache.get("aci") is None


_LINES = st.lists(
    st.sampled_from(["cok guzel", "```", "the sure thing.", "Bugun hava.", "", "çok guzel", "`cok` aci", "yasa aci"]),
    max_size=12,
)


@hsettings(max_examples=150, deadline=None)
@given(_LINES, st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), _LINES), max_size=5), st.booleans())
def test_analysis_with_the_packed_cache_matches_a_fresh_check(lines, edits, markdown):
    masker = FORMATS["markdown"] if markdown else PLAIN
    options = CheckOptions(threshold=0.9, strict_threshold=0.99, show_ambiguous=True)
    context = Context(masker, options, "information", Codec(), FakeRestorer(), PackedSuggestionCache())
    analysis, published = DocumentAnalysis(), PublishedDiagnostics()
    for start, end, new in [(0, 0, []), *edits]:
        start, end = sorted((min(start, len(lines)), min(end, len(lines))))
        lines = lines[:start] + new + lines[end:]
        analysis.prepare(tuple(lines), context)
        while analysis.find_next(4):
            pass
        expected = check(lines, masker, FakeRestorer(), SuggestionCache(), options)
        assert [f for record in analysis.records for f in record.findings] == expected
        published.update(lines, analysis.take_changes(), context.codec, context.severity)
        assert [f for found in published.findings for f in found] == expected
        assert published.count == len(expected) and published.confident == sum(f.confident for f in expected)


def _traced(build):
    """(what ``build()`` made, the bytes it holds)."""
    gc.collect()
    tracemalloc.start()
    try:
        made = build()
        gc.collect()
        return made, tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def test_a_document_typed_without_turkish_letters_holds_under_half_as_much_packed():
    texts = [f"{TEXT} {row}" for row in range(2_000)]  # a distinct line each, as in a document
    options = CheckOptions(threshold=0.9)

    def held(cache):
        """The findings of ``texts`` with the suggestions in ``cache``, as the analysis keeps them."""
        lines = []
        for row, (text, suggestions) in enumerate(zip(texts, FakeRestorer().suggest(texts), strict=True)):
            cache.put(text, suggestions)
            found = line_findings(row, text, suggestions, options)
            if isinstance(cache, PackedSuggestionCache):
                found = LineFindings.of(found, text, suggestions, cache.packed(text))
            lines.append(found)
        return cache, lines

    (_, objects), object_bytes = _traced(lambda: held(SuggestionCache()))
    (_, packed), packed_bytes = _traced(lambda: held(PackedSuggestionCache()))
    assert [tuple(found) for found in packed] == objects and sum(map(len, objects)) >= 3 * len(texts)
    assert packed_bytes < object_bytes / 2
