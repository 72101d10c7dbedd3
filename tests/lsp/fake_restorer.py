"""A restorer with a tiny fixed lexicon, so server tests need no trained model."""

from __future__ import annotations

import re
import sys
import time

from nokta_model.restorer import Restorer
from nokta_model.spans import Span

#: ASCII lower-case word -> (spelling, probability) best first.
LEXICON: dict[str, list[tuple[str, float]]] = {
    "bugun": [("bugün", 0.99), ("bugun", 0.01)],
    "cok": [("çok", 0.99), ("cok", 0.01)],
    "guzel": [("güzel", 0.995), ("guzel", 0.005)],
    "hava": [("hava", 1.0)],
    "yasa": [("yasa", 0.55), ("yaşa", 0.45)],
    "aci": [("acı", 0.5), ("açı", 0.4), ("aci", 0.1)],
    "is": [("iş", 0.97), ("is", 0.03)],
    "sure": [("süre", 0.97), ("sure", 0.03)],
    "ogrenci": [("öğrenci", 0.99), ("ogrenci", 0.01)],
    "istanbul": [("istanbul", 1.0)],
    "gozluk": [("gözlük", 1.0)],  # proposed, but not attested: a guess for an unknown word
    "gorusme": [("görüşme", 0.97), ("gorusme", 0.03)],  # typed so, a slip: the typed form is never written
    "guzel’i": [("güzel’i", 0.99), ("guzel’i", 0.01)],  # a typographic apostrophe is no Turkish letter
    "iyi": [("iyi", 1.0)],  # typed IYI on a keyboard with İ: ıyı, never written
    "ice": [("içe", 0.99), ("ice", 0.01)],  # typed ICE on a keyboard with İ: ıce, never written
}
#: A line of it: cok -> çok 0.99 (the default threshold), guzel -> güzel 0.995.
TEXT = "bugun cok guzel"
UNATTESTED = {"gözlük", "gorusme"}
#: The fake's English words: a sentence of three words or more, most of them here, is
#: English and keeps every word as typed (``foreign_words``, as the shipped guard does).
ENGLISH = frozenset(
    [
        "we",
        "would",
        "like",
        "the",
        "ice",
        "cream",
        "with",
        "cake",
        "thanks",
        "this",
        "is",
        "sure",
        "thing",
        "on",
        "table",
    ]
)
_SENTENCE_END = re.compile(r"[.!?]")


#: How long a batch with the word "yavas" (slow) keeps the restorer busy.
SLOW_SECONDS = 3.0
SLOW_BATCH = "fake restorer: a slow batch begins"


class FakeRestorer(Restorer):
    name = "fake"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def counts(self, spellings: list[str]) -> list[float]:
        known = {spelling for ranking in LEXICON.values() for spelling, _ in ranking} - UNATTESTED
        return [100.0 if spelling in known else 0.0 for spelling in spellings]

    def rank(
        self,
        lines: list[str],
        spans: list[list[Span]],
        with_scores: bool,
        typed: list[str] | None = None,
        cased: list[str] | None = None,
    ):
        self.calls.append(list(lines))
        if any("yavas" in line for line in lines):  # a slow model: holds the GIL like real work
            print(SLOW_BATCH, file=sys.stderr, flush=True)  # in the server's log: a test waits for it
            end = time.perf_counter() + SLOW_SECONDS
            while time.perf_counter() < end:
                pass
        return [
            [list(LEXICON.get(line[s.start : s.end], [])) for s in line_spans]
            for line, line_spans in zip(lines, spans, strict=True)
        ]

    def foreign_words(self, lines: list[str], spans: list[list[Span]]) -> list[list[bool]]:
        return [_in_english_sentence(line, line_spans) for line, line_spans in zip(lines, spans, strict=True)]


def _in_english_sentence(line: str, spans: list[Span]) -> list[bool]:
    sentence_of = [len(_SENTENCE_END.findall(line, 0, span.start)) for span in spans]
    english = {}
    for sentence in set(sentence_of):
        words = [
            line[span.start : span.end].lower() for span, of in zip(spans, sentence_of, strict=True) if of == sentence
        ]
        english[sentence] = len(words) >= 3 and 2 * sum(word in ENGLISH for word in words) > len(words)
    return [english[sentence] for sentence in sentence_of]
