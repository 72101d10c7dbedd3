"""Lines -> findings: what ``nokta check`` and the language server flag. Pure apart from
the suggestion cache.

The prose of each line (``prose``) in Turkish sentences (``language``) goes to the
restorer in one batch; suggestions are cached by the text the restorer saw, so a line
that only moved, or came back after an undo, costs nothing. Settings (thresholds,
ignored words, ambiguity) are applied after the cache, so changing them needs no
model work.

Evidence from the writer: a line that already has a word typed with a Turkish letter
(ç ğ ı ö ş ü İ, or â î û) was written on a keyboard that has them, so its fully ASCII
words are most likely meant as typed. There, a word is flagged only when it starts
with a lower-case letter (capitalised words are names and abbreviations typed as
intended: "Boyle", "MGK'nin", "Immanuel"), its replacement is a spelling the restorer's
lexicon has seen (not a guess for an unknown word such as a foreign term), and it
reaches ``strict_threshold`` (by default 1.0: the model knows no other spelling).
Except for slips: a word whose typed form is (almost) never written while its restored
form is (gorusme -> görüşme, Konusma -> Konuşma, COK -> ÇOK; a capital I there is the
capital of ı, as the keyboard has İ: IYI is ıyı -> İYİ) was meant with its letters, and
is held to ``threshold`` like the words of a fully ASCII line. A choice between two real
words (oldu/öldü, adli/adlı) is not a slip. Nor is an acronym: a word of two to four
capitals (its suffixes aside) among words not in capitals is typed as meant (Almanya'daki
ICE, not İÇE), however rarely the lexicon has its letters; on a line mostly in capitals
it is a word like the others (ÇOK IYI OLDU).

Never flagged, on any line: a word glued to a number by a colon (``pci:123``, ``tcp:80``,
``Hata:518``), an address or a reference rather than prose; nor, on a line typed with
Turkish letters, four or more lower-case ASCII words joined by hyphens (a URL slug).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..alphabet import AMBIGUOUS
from ..prose import PLAIN, Masker, blank, mask_lines, masker_for_language_id
from ..restorer import Restorer, Suggestion
from ..spans import SCORED_WORD_RE
from .words import is_ignored

#: The confidence a finding needs on a fully ASCII line, and on a line typed with Turkish
#: letters, on calibrated confidences (``nokta_model.calibration``): re-derived on the corpus tune
#: split by bench/calibration.py so that their flags are right as often as those of the raw-share
#: defaults (0.99, 1.0), first tuned on the dev split by bench/lsp_tune_threshold.py.
DEFAULT_THRESHOLD = 0.85
DEFAULT_STRICT_THRESHOLD = 1.0


@dataclass(frozen=True, slots=True)
class Finding:
    """A word to change. Columns are code points in the line."""

    line: int
    start: int
    end: int
    original: str
    replacement: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]  # (spelling, probability), best first
    confident: bool


@dataclass(frozen=True)
class CheckOptions:
    threshold: float = DEFAULT_THRESHOLD
    strict_threshold: float = DEFAULT_STRICT_THRESHOLD  # on lines with words typed with Turkish letters
    show_ambiguous: bool = False
    ignore: frozenset[str] = frozenset()  # ignored words (``words.word_key``)
    max_line_length: int = 20_000
    slip_ratio: float = 0.03  # a slip's typed form is at most this share of its replacement's count …
    slip_min_count: float = 5.0  # … which is at least this (both chosen by bench/lsp_tune_threshold.py)


class SuggestionCache:
    """A bounded LRU of restorer suggestions keyed by the text the restorer saw.

    Used from one thread at a time (the server's single analysis worker).
    """

    def __init__(self, max_lines: int = 100_000):
        self.max_lines = max_lines
        self._items: OrderedDict[str, tuple[Suggestion, ...]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, text: str) -> bool:
        return text in self._items

    def get(self, text: str) -> tuple[Suggestion, ...] | None:
        found = self._items.get(text)
        if found is not None:
            self._items.move_to_end(text)
        return found

    def put(self, text: str, suggestions: Iterable[Suggestion]) -> None:
        self._items[text] = tuple(suggestions)
        self._items.move_to_end(text)
        while len(self._items) > self.max_lines:
            self._items.popitem(last=False)


def document_masker(language_id: str, file_types: Sequence[str], check_code: bool) -> Masker | None:
    """The masker for a document, or None when it is not checked at all.

    A language id in ``file_types`` is checked as its format (plain text when nokta
    knows no format for it); with ``check_code``, programming languages' comments and
    strings are checked too.
    """
    masker = masker_for_language_id(language_id)
    if language_id in file_types:
        return masker or PLAIN
    return masker if check_code and masker is not None and masker.code else None


def model_input(lines: Sequence[str], masker: Masker, max_line_length: int) -> list[str]:
    """What the restorer sees: prose; over-long lines blanked."""
    return mask_lines(masker, [within_length(line, max_line_length) for line in lines])


def within_length(line: str, max_line_length: int) -> str:
    """``line`` as it is checked: blanked (never read) when longer than ``max_line_length``."""
    return blank(line) if len(line) > max_line_length else line


_AMBIGUOUS_RE = re.compile("[" + "".join(sorted(AMBIGUOUS)) + "]")


def _worth_asking(text: str) -> bool:
    return _AMBIGUOUS_RE.search(text) is not None


def suggestions_for(texts: Sequence[str], restorer: Restorer, cache: SuggestionCache) -> list[tuple[Suggestion, ...]]:
    """Suggestions for every text, asking the restorer once for all texts not cached."""
    found: dict[str, tuple[Suggestion, ...]] = {}
    missing: list[str] = []
    for text in texts:
        if text in found:
            continue
        cached = cache.get(text) if _worth_asking(text) else ()
        if cached is None:
            missing.append(text)
            found[text] = ()
        else:
            found[text] = cached
    if missing:
        for text, suggestions in zip(missing, restorer.suggest(missing), strict=True):
            cache.put(text, suggestions)
            found[text] = tuple(suggestions)
    return [found[text] for text in texts]


def uncached(texts: Iterable[str], cache: SuggestionCache) -> list[str]:
    """The distinct texts ``suggestions_for`` would ask the restorer for."""
    return list(dict.fromkeys(text for text in texts if text not in cache and _worth_asking(text)))


def check(
    lines: Sequence[str], masker: Masker, restorer: Restorer, cache: SuggestionCache, options: CheckOptions
) -> list[Finding]:
    """Findings for a document's lines, in document order."""
    texts = model_input(lines, masker, options.max_line_length)
    findings: list[Finding] = []
    for row, (text, suggestions) in enumerate(zip(texts, suggestions_for(texts, restorer, cache), strict=True)):
        findings.extend(line_findings(row, text, suggestions, options))
    return findings


_TYPED_RE = re.compile("[çğıöşüÇĞİÖŞÜâîûÂÎÛ]")


def typed_with_turkish_letters(text: str) -> bool:
    """Whether ``text`` has a letter only a Turkish (or circumflex) keyboard types."""
    return not text.isascii() and _TYPED_RE.search(text) is not None


#: Acronyms have two to four letters (ICE, TBMM); longer words in capitals among
#: lower-case ones are mostly words set in capitals for emphasis (DIZIN, ARSIV). Chosen
#: on the corpus dev split: no slip in a word of up to four capitals was missed there.
ACRONYM_LETTERS = range(2, 5)
_REFERENCE_RE = re.compile(r":\d")
#: Four or more lower-case ASCII words of three letters or more joined by hyphens: on a
#: line typed with Turkish letters, a URL slug (depresyon-nedir-belirtileri-nasil), not
#: words whose letters the writer forgot; grammar-book cuts (gel-e-cek-siniz) have short parts.
_SLUG_RE = re.compile(r"[a-z]{3,}(?:-[a-z]{3,}){3,}")


def line_findings(row: int, text: str, suggestions: Sequence[Suggestion], options: CheckOptions) -> tuple[Finding, ...]:
    """The findings of one line from the restorer's suggestions for ``text`` (what it saw)."""
    if not suggestions:
        return ()
    typed_line = typed_with_turkish_letters(text)
    acronyms_stand_out = typed_line and not mostly_capitals(text)
    found = (
        to_finding(row, suggestion, options, threshold)
        for suggestion in suggestions
        if not _glued_to_number(text, suggestion)
        and (threshold := _threshold(suggestion, typed_line, acronyms_stand_out, options)) is not None
    )
    return tuple(finding for finding in found if finding is not None)


def _threshold(
    suggestion: Suggestion, typed_line: bool, acronyms_stand_out: bool, options: CheckOptions
) -> float | None:
    """The confidence ``suggestion`` must reach, or None when it is never flagged."""
    if not typed_line:
        return options.threshold
    if _SLUG_RE.fullmatch(suggestion.original):
        return None
    if is_slip(suggestion, options) and not (acronyms_stand_out and is_acronym(suggestion.original)):
        return options.threshold
    if suggestion.original[:1].islower() and suggestion.attested:
        return options.strict_threshold
    return None


def is_acronym(word: str) -> bool:
    """Whether ``word`` is two to four capitals, with or without apostrophe suffixes (ICE, TBMM'de)."""
    stem = word.replace("’", "'").split("'")[0]
    return len(stem) in ACRONYM_LETTERS and stem.isupper()


def mostly_capitals(text: str) -> bool:
    """Whether at least half of the words of two or more letters are in capitals."""
    words = [word for word in SCORED_WORD_RE.findall(text) if len(word) > 1]
    return 2 * sum(word.isupper() for word in words) >= len(words)


def _glued_to_number(text: str, suggestion: Suggestion) -> bool:
    """Whether the word is followed by a colon and a digit (pci:123): an address or a reference."""
    return _REFERENCE_RE.match(text, suggestion.span.end) is not None


def is_slip(suggestion: Suggestion, options: CheckOptions) -> bool:
    """Whether the word, typed as it is, is (almost) never written while its restored
    form is common: a Turkish letter the writer missed, not a word meant as typed."""
    count, typed_count = suggestion.count, suggestion.typed_count
    if count is None or typed_count is None:  # not counted: an ASCII line, where nothing is a slip
        return False
    return count >= options.slip_min_count and typed_count <= options.slip_ratio * count


def to_finding(row: int, suggestion: Suggestion, options: CheckOptions, threshold: float) -> Finding | None:
    """The finding for one suggestion, or None when it is filtered out."""
    if not suggestion.original.replace("’", "'").isascii():  # a Turkish letter typed in it: trusted as written
        return None
    if is_ignored(suggestion.original, options.ignore):
        return None
    confident = suggestion.confidence >= threshold
    if not confident and not options.show_ambiguous:
        return None
    return Finding(
        line=row,
        start=suggestion.span.start,
        end=suggestion.span.end,
        original=suggestion.original,
        replacement=suggestion.replacement,
        confidence=suggestion.confidence,
        alternatives=suggestion.alternatives,  # (text, score) pairs, shared with the suggestion
        confident=confident,
    )


def restored_text(line: str, findings: Iterable[Finding]) -> str:
    """``line`` with the replacements of ``findings`` (all on this line) put in."""
    out = line
    for finding in sorted(findings, key=lambda f: -f.start):
        out = out[: finding.start] + finding.replacement + out[finding.end :]
    return out
