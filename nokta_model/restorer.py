"""The restorer API every backend implements (backends are loaded by ``backends.load_restorer``).

A backend only ranks spellings for words: it sees each line NFC-normalised and
lower-cased by ``model_lower`` (ASCII I becomes i: it may stand for I or İ), with its
word spans, and returns for every word its candidate lower-case spellings (same length
as the word) with probabilities, best first. This
base class does the rest, the same way for every backend: Unicode normalisation,
case, keeping letters the user typed with diacritics, and the rule that only the
twelve letters c g i o s u C G I O S U change, each only into its Turkish pair.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .alphabet import AMBIGUOUS, TURKISH_ONLY, model_lower, nfc_with_offsets, restore_letters
from .calibration import Calibration
from .reading import kept_suffix
from .spans import Span, word_spans

_APOSTROPHE_RE = re.compile("['’]")
#: Ranked (lower-case spelling, probability) candidates for one word.
Ranking = list[tuple[str, float]]


class Alternative(NamedTuple):
    text: str
    score: float


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A word whose best spelling differs from what was typed. Offsets are code points."""

    span: Span
    original: str
    replacement: str
    confidence: float
    alternatives: tuple[Alternative, ...]  # every candidate spelling, best first
    # Counted only on a line typed with non-ASCII letters, where what the writer typed is
    # evidence (``suggest``); None on an ASCII line.
    count: float | None = None  # how often the backend's text has the replacement (``Restorer.counts``)
    typed_count: float | None = None  # … and the word as it was typed (a capital I there is ı)

    @property
    def attested(self) -> bool:
        """The replacement is a spelling the backend's lexicon has seen (known where counted)."""
        return self.count is not None and self.count > 0


@dataclass(frozen=True, slots=True)
class Choice:
    """A word with more than one spelling: what ``restore`` writes (which may be the word
    as typed) and the others. Offsets are code points."""

    span: Span
    original: str
    alternatives: tuple[Alternative, ...]  # every spelling, best (written) first; calibrated
    between_words: bool  # the best two are both spellings the backend's lexicon has

    @property
    def confidence(self) -> float:
        return self.alternatives[0].score


@dataclass
class _Line:
    original: str
    nfc: str
    lowered: str  # model_lower(nfc): what the backend sees
    starts: Sequence[int]
    spans: list[Span]


class Restorer(ABC):
    """Restores Turkish diacritics in lines of text."""

    name: str = "restorer"
    #: How many ``suggest`` calls on different texts are worth running at once: more than
    #: one only for a backend that spends much of a call outside the GIL (a torch network),
    #: where one call's Python work overlaps another's network.
    concurrent_batches: int = 1
    #: Whether the words ``foreign_words`` finds stay as typed; off only to see what the
    #: backend alone writes (the foreign-word guard's fit, ``codeswitch_fit``).
    keep_foreign: bool = True
    #: What turns a word's shares into the confidences reported (``calibration``): the
    #: shares as they are unless a backend's calibration was fitted.
    calibration: Calibration = Calibration()

    @abstractmethod
    def rank(
        self,
        lines: list[str],
        spans: list[list[Span]],
        with_scores: bool,
        typed: list[str] | None = None,
        cased: list[str] | None = None,
    ) -> list[list[Ranking]]:
        """Candidate spellings of every word span of every (``model_lower``-ed, NFC) line.

        With ``with_scores`` false only the best spelling is needed; its probability
        may then be left at 1.0. ``suggest`` gives ``typed``: each line in lower case as
        typed (``lines`` with ı wherever a capital I was typed). A word whose best spelling
        is the typed one, with a probability of at least 0.5, may then have an empty
        ranking: no other spelling can outweigh it, so there is nothing to suggest.
        ``cased`` holds each line as typed (NFC, capitals kept: same offsets), for a
        model that reads case.
        """

    def counts(self, spellings: list[str]) -> list[float]:
        """How often each lower-case spelling is written in the backend's training text
        (a pseudo-count below 1 when only a word list has it; 0 when it is unknown).

        Backends without a lexicon know none; a spelling they propose is a guess.
        """
        return [0.0] * len(spellings)

    def restore(self, lines: Sequence[str]) -> list[str]:
        """Each line with diacritics restored; lengths and all other characters kept."""
        prepared = [self._prepare(line) for line in lines]
        rankings = self._rank(prepared, with_scores=False)
        return [self._restore_line(line, ranks) for line, ranks in zip(prepared, rankings, strict=True)]

    def suggest(self, lines: Sequence[str]) -> list[list[Suggestion]]:
        """For each line, the words whose best spelling differs from the typed one, with
        calibrated confidences; on a line typed with non-ASCII letters, with the counts of
        both spellings."""
        prepared = [self._prepare(line) for line in lines]
        changes = self._changes(prepared)
        counted = [_beyond_ascii(line) for line in prepared]
        asked = [
            (line, words) for line, words, line_counted in zip(prepared, changes, counted, strict=True) if line_counted
        ]
        best = [model_lower(spelled[0].text) for _, words in asked for _, spelled in words]
        typed = [spelling for line, words in asked for spelling in _as_typed(line, words)]
        counts = self.counts(best + typed)
        pairs = iter(zip(counts[: len(best)], counts[len(best) :], strict=True))
        calibrated = iter(self._calibrated([spelled for words in changes for _, spelled in words]))
        return [
            [_suggestion(line, span, next(calibrated)[0], next(pairs) if line_counted else None) for span, _ in words]
            for line, words, line_counted in zip(prepared, changes, counted, strict=True)
        ]

    def choices(self, lines: Sequence[str]) -> list[list[Choice]]:
        """For each line, every word with more than one spelling, with the calibrated
        confidence of each: what ``restore`` writes first."""
        prepared = [self._prepare(line) for line in lines]
        rankings = self._rank(prepared, with_scores=True)
        found = [
            [
                (span, spelled)
                for span, ranking in zip(line.spans, ranks, strict=True)
                if ranking and len(spelled := _spellings(line, span, ranking)) > 1
            ]
            for line, ranks in zip(prepared, rankings, strict=True)
        ]
        calibrated = iter(self._calibrated([spelled for words in found for _, spelled in words]))
        return [
            [_choice(line, span, *next(calibrated)) for span, _ in words]
            for line, words in zip(prepared, found, strict=True)
        ]

    def _calibrated(self, words: list[tuple[Alternative, ...]]) -> list[tuple[tuple[Alternative, ...], bool]]:
        """Each word's spellings with calibrated confidences (``calibration``), and whether
        its best two are both spellings the backend's lexicon has (the kind of choice)."""
        contested = [spelled for spelled in words if len(spelled) > 1]
        counts = iter(self.counts([_lower_as_typed(alt.text) for spelled in contested for alt in spelled[:2]]))
        kinds = [len(spelled) > 1 and min(next(counts), next(counts)) > 0 for spelled in words]
        return [
            (_with_scores(spelled, self.calibration.shares([alt.score for alt in spelled], kind)), kind)
            for spelled, kind in zip(words, kinds, strict=True)
        ]

    def _changes(self, prepared: list[_Line]) -> list[list[tuple[Span, tuple[Alternative, ...]]]]:
        """The changed words of each line (``_changed_words``). The rankings are let go on
        return, before the suggestions are built: fewer objects alive, fewer collections."""
        rankings = self._rank(prepared, with_scores=True, typed=[_typed_lower(line) for line in prepared])
        return [_changed_words(line, ranks) for line, ranks in zip(prepared, rankings, strict=True)]

    def dotted_capitals(self, dotted: list[str], undotted: list[str], ascii_lines: list[bool]) -> list[bool]:
        """Whether each word typed with a capital I may be spelled ``dotted`` (İ there)
        rather than ``undotted`` (I kept); ``ascii_lines`` says whether its line was typed
        without Turkish letters (where a capital I says nothing of the dot). Backends with a
        lexicon say yes only when the dotted spelling is the commoner one, so a foreign name
        stays as typed (Intel, not İntel) while Istanbul'da becomes İstanbul'da."""
        return [True] * len(dotted)

    def foreign_words(self, lines: list[str], spans: list[list[Span]]) -> list[list[bool]]:
        """For each word span of each (NFC, as typed) line, whether the word is foreign
        (English, an acronym) and stays as typed but for Turkish suffixes after an
        apostrophe (``codeswitch``). Backends without a lexicon find none."""
        return [[False] * len(line_spans) for line_spans in spans]

    def _rank(self, prepared: list[_Line], with_scores: bool, typed: list[str] | None = None) -> list[list[Ranking]]:
        rankings = self.rank(
            [line.lowered for line in prepared],
            [line.spans for line in prepared],
            with_scores,
            typed,
            cased=[line.nfc for line in prepared],
        )
        rankings = self._keep_undotted_capitals(prepared, rankings)
        return self._keep_foreign_words(prepared, rankings) if self.keep_foreign else rankings

    def _keep_foreign_words(self, prepared: list[_Line], rankings: list[list[Ranking]]) -> list[list[Ranking]]:
        """Each foreign word (``foreign_words``) spelled as typed: its only candidate."""
        foreign = self.foreign_words([line.nfc for line in prepared], [line.spans for line in prepared])
        for line, line_rankings, flags in zip(prepared, rankings, foreign, strict=True):
            if not any(flags):
                continue
            for index, (span, is_foreign) in enumerate(zip(line.spans, flags, strict=True)):
                if is_foreign and line_rankings[index]:
                    line_rankings[index] = [(_foreign_spelling(line, span, line_rankings[index][0][0]), 1.0)]
        return rankings

    def _keep_undotted_capitals(self, prepared: list[_Line], rankings: list[list[Ranking]]) -> list[list[Ranking]]:
        """Spell i as ı under a typed capital I wherever ``dotted_capitals`` says no."""
        asked = [
            (li, wi, ci, _undotted(spelling, line.nfc[span.start : span.end]))
            for li, line in enumerate(prepared)
            if "I" in line.nfc
            for wi, span in enumerate(line.spans)
            if "I" in line.nfc[span.start : span.end]
            for ci, (spelling, _) in enumerate(rankings[li][wi])
        ]
        dotted = [rankings[li][wi][ci][0] for li, wi, ci, _ in asked]
        without_turkish = {li: TURKISH_ONLY.isdisjoint(prepared[li].nfc) for li in {li for li, *_ in asked}}
        ascii_lines = [without_turkish[li] for li, *_ in asked]
        allowed = self.dotted_capitals(dotted, [undotted for *_, undotted in asked], ascii_lines)
        for (li, wi, ci, undotted), ok in zip(asked, allowed, strict=True):
            if not ok:
                rankings[li][wi][ci] = (undotted, rankings[li][wi][ci][1])
        return rankings

    @staticmethod
    def _prepare(line: str) -> _Line:
        if not isinstance(line, str):
            raise TypeError(f"expected str, got {type(line).__name__}")
        nfc, starts = nfc_with_offsets(line)
        return _Line(line, nfc, model_lower(nfc), starts, word_spans(nfc))

    @staticmethod
    def _restore_line(line: _Line, rankings: list[Ranking]) -> str:
        nfc, lowered = line.nfc, line.lowered
        pieces: list[str] = []
        done = 0  # nfc[:done] is in pieces
        for (start, end), ranking in zip(line.spans, rankings, strict=True):
            if not ranking:
                continue
            typed, best = nfc[start:end], ranking[0][0]
            if not _same_spelling(typed, lowered[start:end], best):
                pieces += (nfc[done:start], restore_letters(typed, best))
                done = end
        if not pieces:
            return _map_back(line, nfc)
        pieces.append(nfc[done:])
        return _map_back(line, "".join(pieces))


def _changed_words(line: _Line, rankings: list[Ranking]) -> list[tuple[Span, tuple[Alternative, ...]]]:
    """The words whose best spelling differs from the typed one, with every spelling as
    the user would see it (NFC), best first."""
    changed = []
    nfc, lowered = line.nfc, line.lowered
    for span, ranking in zip(line.spans, rankings, strict=True):
        if not ranking:
            continue
        typed = nfc[span.start : span.end]
        if AMBIGUOUS.isdisjoint(typed):
            continue
        best, share = ranking[0]
        # No other spelling can outweigh a best one of probability >= 0.5 that keeps the word as typed.
        if share >= 0.5 and _same_spelling(typed, lowered[span.start : span.end], best):
            continue
        written = restore_letters(typed, best)
        if share >= 0.5 and written == typed:
            continue
        spelled = (Alternative(written, share),) if len(ranking) == 1 else _spell_all(typed, written, ranking)
        if spelled[0].text != typed:
            changed.append((span, spelled))
    return changed


def _same_spelling(typed: str, lowered: str, best: str) -> bool:
    """Whether ``best`` is the typed word's own spelling, so restoring it changes nothing
    without the letters being compared; ``lowered`` is its ``model_lower`` form. An ASCII
    capital I changes even when the lower-case spelling does not (I -> İ)."""
    return best == lowered and "I" not in typed


def _beyond_ascii(line: _Line) -> bool:
    """Whether the line was typed with a letter outside ASCII (its typed words are evidence)."""
    return not line.nfc.isascii()


def _suggestion(
    line: _Line, span: Span, spelled: tuple[Alternative, ...], counts: tuple[float, float] | None
) -> Suggestion:
    """``counts``: of the best spelling and of the typed one, where counted."""
    span, spelled = _mapped_back(line, span, spelled)
    best = spelled[0]
    return Suggestion(
        span=span,
        original=line.original[span.start : span.end],
        replacement=best.text,
        confidence=best.score,
        alternatives=spelled,
        count=counts[0] if counts else None,
        typed_count=counts[1] if counts else None,
    )


def _choice(line: _Line, span: Span, spelled: tuple[Alternative, ...], between_words: bool) -> Choice:
    span, spelled = _mapped_back(line, span, spelled)
    return Choice(span, line.original[span.start : span.end], spelled, between_words)


def _mapped_back(line: _Line, span: Span, spelled: tuple[Alternative, ...]) -> tuple[Span, tuple[Alternative, ...]]:
    """A word's span and spellings in the original text (``span`` is in the NFC text)."""
    if line.nfc is line.original:
        return span, spelled
    spelled = tuple([Alternative(_map_word_back(line, span, text), p) for text, p in spelled])
    return Span(line.starts[span.start], line.starts[span.end]), spelled


def _spellings(line: _Line, span: Span, ranking: Ranking) -> tuple[Alternative, ...]:
    """Every spelling of a word as the user would see it (NFC), best first; none for a
    word without a letter that can change."""
    typed = line.nfc[span.start : span.end]
    if AMBIGUOUS.isdisjoint(typed):
        return ()
    return _spell_all(typed, restore_letters(typed, ranking[0][0]), ranking)


def _with_scores(spelled: tuple[Alternative, ...], scores: list[float]) -> tuple[Alternative, ...]:
    return tuple([Alternative(alt.text, score) for alt, score in zip(spelled, scores, strict=True)])


def _lower_as_typed(text: str) -> str:
    """A spelling in lower case, a capital I as ı (as the lexicon spells it)."""
    return _undotted(model_lower(text), text)


def _as_typed(line: _Line, words: list[tuple[Span, tuple[Alternative, ...]]]) -> list[str]:
    """The lower-case spelling the writer typed of each of ``words`` on a line with
    non-ASCII letters: the keyboard had İ, so a capital I there is the capital of ı (``IYI``
    is ıyı, never written: a slip for İYİ)."""
    return [_undotted(line.lowered[span.start : span.end], line.nfc[span.start : span.end]) for span, _ in words]


def _typed_lower(line: _Line) -> str:
    """The line in lower case as typed: ``lowered`` with ı wherever a capital I was typed."""
    return _undotted(line.lowered, line.nfc)


def _foreign_spelling(line: _Line, span: Span, best: str) -> str:
    """A foreign word's lower-case spelling: as typed (ı under a capital I, so it stays I)
    up to its first apostrophe, then ``best``'s suffix (Issue'yu: a Turkish suffix) in
    harmony with the stem as typed (``reading.kept_suffix``)."""
    written = line.nfc[span.start : span.end]
    typed = _undotted(line.lowered[span.start : span.end], written)
    apostrophe = _APOSTROPHE_RE.search(typed)
    if apostrophe is None:
        return typed
    at = apostrophe.start()
    return typed[:at] + kept_suffix(written[:at], best[:at], best[at:], written[at:])


def _undotted(spelling: str, typed: str) -> str:
    """``spelling`` with ı wherever ``typed`` has a capital I."""
    at = typed.find("I")
    if at < 0:
        return spelling
    letters = list(spelling)
    while at >= 0:
        if letters[at] == "i":
            letters[at] = "ı"
        at = typed.find("I", at + 1)
    return "".join(letters)


def _spell_all(typed: str, written: str, ranking: Ranking) -> tuple[Alternative, ...]:
    """Candidates written as the user would see them (``written``: the best one); duplicates
    merged, best first."""
    merged = {written: ranking[0][1]}
    for lower, probability in ranking[1:]:
        text = restore_letters(typed, lower)
        merged[text] = merged.get(text, 0.0) + probability
    return tuple([Alternative(*item) for item in sorted(merged.items(), key=lambda item: -item[1])])


def _map_back(line: _Line, restored_nfc: str) -> str:
    """Carry letter changes made on the NFC text back to the original text."""
    if line.nfc is line.original:
        return restored_nfc
    if restored_nfc == line.nfc:
        return line.original
    out = list(line.original)
    for pos, (before, after) in enumerate(zip(line.nfc, restored_nfc, strict=True)):
        if before != after:
            out[line.starts[pos]] = after
    return "".join(out)


def _map_word_back(line: _Line, span: Span, word_nfc: str) -> str:
    """The original text of ``span`` with the changed letters of ``word_nfc`` put in."""
    if line.nfc is line.original:
        return word_nfc
    start, end = line.starts[span.start], line.starts[span.end]
    out = list(line.original[start:end])
    for pos, (before, after) in enumerate(zip(line.nfc[span.start : span.end], word_nfc, strict=True)):
        if before != after:
            out[line.starts[span.start + pos] - start] = after
    return "".join(out)
