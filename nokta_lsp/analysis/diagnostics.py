"""Findings -> LSP diagnostics and hovers, in the client's position units.

Diagnostics are built as JSON text, once, in the analysis worker (plain data in the LSP's
shape, no protocol types; the protocol layer sends the text as it is): ``PublishedDiagnostics``
takes the changes of a document's findings from its analysis (``incremental.FindingsChanges``),
keeps the diagnostics per line so that only the lines changed are serialised again, and gives
the text a result id that changes with it. Pushed and pulled reports send that text. The
spellings the findings offer (``OfferedSpellings``) follow the same changes.
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from nokta_model.check.findings import Finding

from .documents import Codec
from .incremental import FindingsChanges
from .packed import Found

SOURCE = "nokta"
#: Spellings less likely than this are not offered as fixes (the hover still lists them).
ALTERNATIVE_FLOOR = 0.05
CODE = "missing-diacritics"
CODE_AMBIGUOUS = "ambiguous-diacritics"
CODE_DOCUMENT = "typed-without-turkish-letters"

#: The LSP's ``DiagnosticSeverity`` numbers (a test holds them to lsprotocol's).
SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def message(finding: Finding) -> str:
    if finding.confident:
        return f"{finding.original} → {finding.replacement}"
    options = " or ".join([text for text, _ in finding.alternatives if text != finding.original][:3])
    return f"{finding.original}: {options}?"


def finding_data(finding: Finding) -> dict[str, Any]:
    """What code actions need, so they never run the model again."""
    return {
        "original": finding.original,
        "replacement": finding.replacement,
        "alternatives": [
            text for text, p in finding.alternatives if text != finding.original and p >= ALTERNATIVE_FLOOR
        ],
        "confidence": round(finding.confidence, 4),
    }


def diagnostic_json(finding: Finding, line: str, codec: Codec, severity: str) -> dict[str, Any]:
    """The LSP Diagnostic of a finding on ``line``, as JSON-ready data."""
    start, end = codec.to_client(line, finding.start), codec.to_client(line, finding.end)
    return {
        "range": {"start": {"line": finding.line, "character": start}, "end": {"line": finding.line, "character": end}},
        "message": message(finding),
        "severity": SEVERITY[severity] if finding.confident else SEVERITY["hint"],
        "code": CODE if finding.confident else CODE_AMBIGUOUS,
        "source": SOURCE,
        "data": finding_data(finding),
    }


def diagnostics_json_text(findings: Sequence[Finding], line: str, codec: Codec, severity: str) -> str:
    """The diagnostics of one line's findings as comma-separated JSON objects (ASCII)."""
    return json.dumps([diagnostic_json(f, line, codec, severity) for f in findings], separators=(",", ":"))[1:-1]


def offered_spellings(lines: Iterable[Found]) -> Iterator[str]:
    """The spellings with a Turkish letter that the lines' findings offer as fixes: an edit
    writing one is nokta's own (``features.own_edits``); an ASCII spelling would change
    nothing in the writer's view."""
    for found in lines:
        if found:
            yield from itertools.filterfalse(str.isascii, found.spellings())


class OfferedSpellings:
    """The spellings the published findings offer, counted, so that a change of some lines'
    findings costs those lines; ``spellings`` is a new frozenset only when one appears or goes."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self.spellings: frozenset[str] = frozenset()

    def replace(self, old: Iterable[Found], new: Iterable[Found]) -> None:
        """Lines' findings ``old`` became ``new`` (counted first, so a spelling kept never goes)."""
        counts, changed = self._counts, False
        for spelling in offered_spellings(new):
            changed |= not counts[spelling]
            counts[spelling] += 1
        for spelling in offered_spellings(old):
            counts[spelling] -= 1
            if not counts[spelling]:
                del counts[spelling]
                changed = True
        if changed:
            self.spellings = frozenset(counts)


_result_ids = itertools.count(1)

#: A document with more confident findings than ``maxDiagnostics`` gets one diagnostic at
#: its top instead when at least this share of its words that need a Turkish letter (the
#: confident findings and the words typed with one) were typed without (``bench.lsp_latency``:
#: 1.0 on the corpus lines asciified, 0.0 as written).
TYPED_WITHOUT_SHARE = 0.5


@dataclass(frozen=True)
class Focus:
    """Where the writer works: the line of the last edit, and the lines the editor shows
    (None when unknown). When a document has more diagnostics than are published, those
    published are the nearest to it (``order``)."""

    edited_line: int | None = None
    visible: tuple[int, int] | None = None

    def anchor(self) -> int:
        """The last edit's line if it is shown (or nothing is known of what is), else the
        middle of the lines shown; the top of the document when neither is known."""
        edited, visible = self.edited_line, self.visible
        if visible is None or (edited is not None and visible[0] <= edited <= visible[1]):
            return edited or 0
        return (visible[0] + visible[1]) // 2

    def order(self, rows: list[int]) -> Iterator[int]:
        """``rows`` (ascending), the shown ones first, each part nearest the anchor first."""
        anchor = self.anchor()
        if self.visible is None:
            yield from outward(rows, anchor)
            return
        first, last = bisect.bisect_left(rows, self.visible[0]), bisect.bisect_right(rows, self.visible[1])
        yield from outward(rows[first:last], anchor)
        yield from outward(rows[:first] + rows[last:], anchor)


def outward(rows: Sequence[int], anchor: int) -> Iterator[int]:
    """``rows`` (ascending) by their distance from ``anchor``, the one above first on a tie."""
    below = bisect.bisect_left(rows, anchor)
    above = below - 1
    while above >= 0 or below < len(rows):
        if below == len(rows) or (above >= 0 and anchor - rows[above] <= rows[below] - anchor):
            yield rows[above]
            above -= 1
        else:
            yield rows[below]
            below += 1


class PublishedDiagnostics:
    """One document's findings (per line) and the diagnostics published of them, as JSON
    text: all of them, or at most ``limit``, those nearest the writer's ``Focus``, or one
    for the whole document when most of it is typed without Turkish letters. Each line's
    diagnostics are serialised when first published and kept until its findings change
    (all of them when the position encoding or the severity changes); the result id
    changes with the text published, ``findings_id`` with the findings."""

    def __init__(self) -> None:
        self.findings: list[Found] = []  # per line; a new list each update
        self.offered = OfferedSpellings()
        self.count = 0  # findings
        self.confident = 0  # confident findings
        self._texts: list[str | None] = []  # per line: its diagnostics, once serialised ("" for none)
        self._published_with: tuple[Codec, str] | None = None
        self.text: str | None = None
        self.result_id = "0"  # changes with the text
        self.findings_id = "0"  # changes with the findings
        self._typing_row: int | None = None  # the line whose text leaves out the word being typed

    def update(
        self,
        lines: Sequence[str],
        changes: FindingsChanges,
        codec: Codec,
        severity: str,
        typing: tuple[int, int] | None = None,
        limit: int | None = None,
        focus: Focus | None = None,
        turkish_words: int = 0,
    ) -> str:
        """Take the changes of the findings of ``lines``; returns the diagnostics' text, without
        the word at ``typing`` (the cursor, when the word there is still being typed), of at
        most ``limit`` findings; ``turkish_words``: the words typed with a Turkish letter."""
        findings, texts, typing_row = list(self.findings), self._texts, self._typing_row
        for start, old_end, new_end in changes.splices:
            self._count(findings[start:old_end], ())
            findings[start:old_end] = [()] * (new_end - start)
            texts[start:old_end] = [""] * (new_end - start)
            if typing_row is not None and typing_row >= start:  # serialised again below if still there
                typing_row = typing_row + new_end - old_end if typing_row >= old_end else None
        self._count([findings[row] for row in changes.rows], changes.rows.values())
        for row, found in changes.rows.items():
            findings[row] = found
            texts[row] = None
        if changes.splices or changes.rows:
            self.findings_id = str(next(_result_ids))
        if self._published_with != (codec, severity):
            self._published_with = (codec, severity)
            texts[:] = [None] * len(findings)
        self._typing_row = typing[0] if typing is not None and typing[0] < len(findings) else None
        for shown_again in (typing_row, self._typing_row):  # a word hidden or shown
            if shown_again is not None:
                texts[shown_again] = None
        self.findings = findings
        text = self._text(lines, codec, severity, typing, limit, focus, turkish_words)
        if text != self.text:
            self.text, self.result_id = text, str(next(_result_ids))
        return text

    def _count(self, old: Sequence[Found], new: Iterable[Found]) -> None:
        new = list(new)
        self.offered.replace(old, new)
        for lines, sign in ((old, -1), (new, 1)):
            self.count += sign * sum(map(len, lines))
            self.confident += sign * sum(found.confident_count for found in lines if found)

    def _text(
        self,
        lines: Sequence[str],
        codec: Codec,
        severity: str,
        typing: tuple[int, int] | None,
        limit: int | None,
        focus: Focus | None,
        turkish_words: int,
    ) -> str:
        if typed_without(self.confident, turkish_words, limit):
            return document_diagnostic_json(self.confident, lines[0] if lines else "", codec)
        findings, texts = self.findings, self._texts
        rows = list(itertools.compress(itertools.count(), findings))
        taken, parts = 0, []
        for row in rows if limit is None or self.count <= limit else (focus or Focus()).order(rows):
            shown: Sequence[Finding] = findings[row]
            if typing is not None and row == typing[0]:
                shown = tuple(finding for finding in shown if not being_typed(finding, typing))
            if limit is not None and taken + len(shown) > limit:  # the last line published in part
                shown = shown[: limit - taken]
                parts.append((row, diagnostics_json_text(shown, lines[row], codec, severity) if shown else ""))
                break
            text = texts[row]
            if text is None:
                text = texts[row] = diagnostics_json_text(shown, lines[row], codec, severity) if shown else ""
            parts.append((row, text))
            taken += len(shown)
        return ",".join(filter(None, (text for _, text in sorted(parts))))


def typed_without(confident: int, turkish_words: int, limit: int | None) -> bool:
    """Whether a document with ``confident`` findings and ``turkish_words`` words typed with a
    Turkish letter gets one diagnostic for the whole of it (``TYPED_WITHOUT_SHARE``)."""
    if limit is None or confident <= limit:
        return False
    return confident >= TYPED_WITHOUT_SHARE * (confident + turkish_words)


def document_diagnostic_json(words: int, first_line: str, codec: Codec) -> str:
    """The one diagnostic of a document typed without Turkish letters: on its first line;
    its fix is ``nokta.restoreDocument`` (``actions.document_actions``)."""
    end = codec.to_client(first_line, len(first_line))
    diagnostic = {
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": end}},
        "message": f"This document looks typed without Turkish letters: {words:,} words to restore",
        "severity": SEVERITY["information"],
        "code": CODE_DOCUMENT,
        "source": SOURCE,
        "data": {"words": words},
    }
    return json.dumps(diagnostic, separators=(",", ":"))


def being_typed(finding: Finding, cursor: tuple[int, int] | None) -> bool:
    """Whether ``cursor`` is in the finding's word or at its end: the word is being typed."""
    return cursor is not None and cursor[0] == finding.line and finding.start < cursor[1] <= finding.end


def hover_text(finding: Finding) -> str:
    rows = [f"**{finding.replacement}** — nokta, confidence {finding.confidence:.0%}"]
    if len(finding.alternatives) > 1:
        rows.append("")
        rows.extend(f"- {text} ({score:.0%})" for text, score in finding.alternatives)
    return "\n".join(rows)
