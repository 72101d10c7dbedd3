"""A line's suggestions and findings packed into one flat tuple, made into objects when read.

A document typed without Turkish letters has a suggestion on nearly every word: tens of
thousands of ``Suggestion``s (each with its ``Span``, tuple of ``Alternative``s and
original word) in the suggestion cache and as many ``Finding``s in the lines' records,
about 38 MB for 10,000 lines (``bench.lsp_latency``'s; the same lines as written have a
few hundred). Here a line's suggestions are one tuple of their fields, shared by the
cache (``PackedSuggestionCache``) and the line's findings (``LineFindings``: which of the
suggestions are findings, and which of those are confident), about 10 MB for the same
lines; what reads them gets ``Suggestion``s and ``Finding``s equal to those the restorer
and ``line_findings`` made. Each suggestion is ``FIELDS`` values then its alternatives'
(text, score) pairs: start, end, the original word (None when it is ``text[start:end]``
of the text it was found in), replacement, confidence, count, typed count, and how many
alternatives follow.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, overload

from nokta_model.check.findings import Finding, SuggestionCache
from nokta_model.restorer import Alternative, Suggestion
from nokta_model.spans import Span

#: Values of a suggestion before its alternatives' (text, score) pairs.
FIELDS = 8

Packed = tuple[Any, ...]


def pack(text: str, suggestions: Iterable[Suggestion]) -> Packed:
    """The suggestions the restorer made for ``text`` as one flat tuple."""
    values: list[Any] = []
    for s in suggestions:
        start, end = s.span
        original = None if s.original == text[start:end] else s.original
        values += (start, end, original, s.replacement, s.confidence, s.count, s.typed_count, len(s.alternatives))
        for alternative in s.alternatives:
            values += alternative
    return tuple(values)


def unpack(text: str, packed: Packed) -> tuple[Suggestion, ...]:
    """The suggestions ``pack`` packed, as the restorer made them."""
    return tuple(
        Suggestion(
            span=Span(packed[at], packed[at + 1]),
            original=_original(text, packed, at),
            replacement=packed[at + 3],
            confidence=packed[at + 4],
            alternatives=_alternatives(packed, at),
            count=packed[at + 5],
            typed_count=packed[at + 6],
        )
        for at in _offsets(packed)
    )


def _offsets(packed: Packed) -> Iterator[int]:
    """Where each suggestion's values start in ``packed``."""
    at = 0
    while at < len(packed):
        yield at
        at += FIELDS + 2 * packed[at + 7]


def _alternatives(packed: Packed, at: int) -> tuple[Alternative, ...]:
    pairs = packed[at + FIELDS : at + FIELDS + 2 * packed[at + 7]]
    return tuple([Alternative(text, score) for text, score in zip(pairs[::2], pairs[1::2], strict=True)])


def _original(text: str, packed: Packed, at: int) -> str:
    original = packed[at + 2]
    return text[packed[at] : packed[at + 1]] if original is None else original


class PackedSuggestionCache(SuggestionCache):
    """``SuggestionCache`` (a bounded LRU keyed by the text the restorer saw) holding each
    text's suggestions packed; ``packed`` lends a text's tuple to its ``LineFindings``."""

    def __init__(self, max_lines: int = 100_000):
        super().__init__(max_lines)
        self._packed: OrderedDict[str, Packed] = OrderedDict()

    def __len__(self) -> int:
        return len(self._packed)

    def __contains__(self, text: str) -> bool:
        return text in self._packed

    def get(self, text: str) -> tuple[Suggestion, ...] | None:
        packed = self.packed(text)
        return None if packed is None else unpack(text, packed)

    def packed(self, text: str) -> Packed | None:
        packed = self._packed.get(text)
        if packed is not None:
            self._packed.move_to_end(text)
        return packed

    def put(self, text: str, suggestions: Iterable[Suggestion]) -> None:
        self._packed[text] = pack(text, suggestions)
        self._packed.move_to_end(text)
        while len(self._packed) > self.max_lines:
            self._packed.popitem(last=False)


class LineFindings(Sequence[Finding]):
    """The findings of one line (``row``): those of its suggestions (``packed``, found in
    ``text``) whose bit is set in ``shown``, confident where set in ``confident``. Reads as
    the tuple of ``Finding``s it stands for, and equals it."""

    __slots__ = ("confident", "packed", "row", "shown", "text")

    def __init__(self, row: int, text: str, packed: Packed, shown: int, confident: int) -> None:
        self.row, self.text, self.packed, self.shown, self.confident = row, text, packed, shown, confident

    @classmethod
    def of(
        cls, found: Sequence[Finding], text: str, suggestions: Sequence[Suggestion], packed: Packed | None = None
    ) -> LineFindings | tuple[()]:
        """``found`` (``line_findings`` of ``suggestions`` for ``text``, in their order, some
        left out) over the suggestions packed (``packed``, when the cache has them)."""
        if not found:
            return ()
        shown = confident = 0
        findings = iter(found)
        finding: Finding | None = next(findings)
        for index, suggestion in enumerate(suggestions):
            if finding is not None and suggestion.span == (finding.start, finding.end):
                shown |= 1 << index
                confident |= finding.confident << index
                finding = next(findings, None)
        if finding is not None:
            raise ValueError(f"a finding at {finding.start}..{finding.end} of row {finding.line} has no suggestion")
        return cls(found[0].line, text, pack(text, suggestions) if packed is None else packed, shown, confident)

    def __len__(self) -> int:
        return self.shown.bit_count()

    def __iter__(self) -> Iterator[Finding]:
        row, text, packed, shown, confident = self.row, self.text, self.packed, self.shown, self.confident
        for index, at in enumerate(_offsets(packed)):
            if shown >> index & 1:
                yield Finding(
                    line=row,
                    start=packed[at],
                    end=packed[at + 1],
                    original=_original(text, packed, at),
                    replacement=packed[at + 3],
                    confidence=packed[at + 4],
                    alternatives=_alternatives(packed, at),
                    confident=bool(confident >> index & 1),
                )

    @overload
    def __getitem__(self, index: int) -> Finding: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Finding, ...]: ...

    def __getitem__(self, index: int | slice) -> Finding | tuple[Finding, ...]:
        return tuple(self)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LineFindings) and other.packed is self.packed and other.text is self.text:
            return (self.row, self.shown, self.confident) == (other.row, other.shown, other.confident)
        return isinstance(other, Sequence) and len(self) == len(other) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # equal to tuples, which hash otherwise

    def __repr__(self) -> str:
        return f"LineFindings{tuple(self)!r}"

    @property
    def confident_count(self) -> int:
        return self.confident.bit_count()

    def renumbered(self, row: int) -> LineFindings:
        """The same findings on ``row``."""
        return LineFindings(row, self.text, self.packed, self.shown, self.confident)

    def keeping(self, keep: Callable[[str], bool]) -> LineFindings | tuple[()]:
        """The findings whose original word ``keep`` keeps."""
        shown, text, packed = self.shown, self.text, self.packed
        for index, at in enumerate(_offsets(packed)):
            if shown >> index & 1 and not keep(_original(text, packed, at)):
                shown &= ~(1 << index)
        if shown == self.shown:
            return self
        return LineFindings(self.row, text, packed, shown, self.confident & shown) if shown else ()

    def spellings(self) -> Iterator[str]:
        """Each finding's replacement and its alternatives' texts, in order."""
        packed = self.packed
        for index, at in enumerate(_offsets(packed)):
            if self.shown >> index & 1:
                yield packed[at + 3]
                yield from packed[at + FIELDS : at + FIELDS + 2 * packed[at + 7] : 2]


#: A line's findings: none, or some.
Found = LineFindings | tuple[()]
