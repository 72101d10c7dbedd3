"""Findings -> LSP diagnostics and hovers, in the client's position units.

Diagnostics are built as JSON text, once: ``PublishedDiagnostics`` takes the changes of
a document's findings from its analysis (``incremental.FindingsChanges``), keeps the
diagnostics per line so that only the lines changed are serialised again, and gives the
text a result id that changes with it. Pushed and pulled reports send that text. The
spellings the findings offer (``OfferedSpellings``) follow the same changes.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from lsprotocol import types

from nokta_model.check.findings import Finding

from .documents import Codec
from .incremental import FindingsChanges

SOURCE = "nokta"
#: Spellings less likely than this are not offered as fixes (the hover still lists them).
ALTERNATIVE_FLOOR = 0.05
CODE = "missing-diacritics"
CODE_AMBIGUOUS = "ambiguous-diacritics"

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


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
        "severity": int(SEVERITY[severity] if finding.confident else types.DiagnosticSeverity.Hint),
        "code": CODE if finding.confident else CODE_AMBIGUOUS,
        "source": SOURCE,
        "data": finding_data(finding),
    }


def diagnostics_json_text(findings: Sequence[Finding], line: str, codec: Codec, severity: str) -> str:
    """The diagnostics of one line's findings as comma-separated JSON objects (ASCII)."""
    return json.dumps([diagnostic_json(f, line, codec, severity) for f in findings], separators=(",", ":"))[1:-1]


def offered_spellings(findings: Iterable[Finding]) -> Iterator[str]:
    """The spellings with a Turkish letter that ``findings`` offer as fixes: an edit writing
    one is nokta's own (``features.own_edits``); an ASCII spelling would change nothing in
    the writer's view."""
    for finding in findings:
        for spelling in (finding.replacement, *(text for text, _ in finding.alternatives)):
            if not spelling.isascii():
                yield spelling


class OfferedSpellings:
    """The spellings the published findings offer, counted, so that a change of some lines'
    findings costs those lines; ``spellings`` is a new frozenset only when one appears or goes."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self.spellings: frozenset[str] = frozenset()

    def replace(self, old: Iterable[tuple[Finding, ...]], new: Iterable[tuple[Finding, ...]]) -> None:
        """Lines' findings ``old`` became ``new`` (counted first, so a spelling kept never goes)."""
        counts, changed = self._counts, False
        for spelling in offered_spellings(itertools.chain.from_iterable(new)):
            changed |= not counts[spelling]
            counts[spelling] += 1
        for spelling in offered_spellings(itertools.chain.from_iterable(old)):
            counts[spelling] -= 1
            if not counts[spelling]:
                del counts[spelling]
                changed = True
        if changed:
            self.spellings = frozenset(counts)


_result_ids = itertools.count(1)


class PublishedDiagnostics:
    """One document's findings as published: per line, and as diagnostics in JSON text
    (comma-separated objects), kept per line so that a change re-serialises only the lines
    it changed (all of them when the position encoding or the severity changes), and the
    spellings they offer."""

    def __init__(self) -> None:
        self.findings: list[tuple[Finding, ...]] = []  # per line; a new list each update
        self.offered = OfferedSpellings()
        self._texts: list[str] = []  # per line: its diagnostics ("" for none)
        self._published_with: tuple[Codec, str] | None = None
        self.text: str | None = None
        self.result_id = "0"  # changes with the text
        self._typing_row: int | None = None  # the line whose text leaves out the word being typed

    def update(
        self,
        lines: Sequence[str],
        changes: FindingsChanges,
        codec: Codec,
        severity: str,
        typing: tuple[int, int] | None = None,
    ) -> str:
        """Take the changes of the findings of ``lines``; returns the diagnostics' text, without
        the word at ``typing`` (the cursor, when the word there is still being typed)."""
        findings, texts, offered, typing_row = list(self.findings), self._texts, self.offered, self._typing_row
        for start, old_end, new_end in changes.splices:
            offered.replace(findings[start:old_end], ())
            findings[start:old_end] = [()] * (new_end - start)
            texts[start:old_end] = [""] * (new_end - start)
            if typing_row is not None and typing_row >= start:  # serialised again below if still there
                typing_row = typing_row + new_end - old_end if typing_row >= old_end else None
        offered.replace((findings[row] for row in changes.rows), changes.rows.values())
        for row, found in changes.rows.items():
            findings[row] = found
        changed: Iterable[int] = changes.rows
        if self._published_with != (codec, severity):
            self._published_with = (codec, severity)
            texts[:] = [""] * len(findings)
            changed = itertools.compress(itertools.count(), findings)  # the lines with findings
        self._typing_row = typing[0] if typing is not None and typing[0] < len(findings) else None
        again = {row for row in (typing_row, self._typing_row) if row is not None}  # a word hidden or shown
        for row in again.union(changed):
            shown = [finding for finding in findings[row] if not being_typed(finding, typing)]
            texts[row] = diagnostics_json_text(shown, lines[row], codec, severity) if shown else ""
        self.findings = findings
        text = ",".join(filter(None, texts))
        if text != self.text:
            self.text, self.result_id = text, str(next(_result_ids))
        return text


def being_typed(finding: Finding, cursor: tuple[int, int] | None) -> bool:
    """Whether ``cursor`` is in the finding's word or at its end: the word is being typed."""
    return cursor is not None and cursor[0] == finding.line and finding.start < cursor[1] <= finding.end


def hover_text(finding: Finding) -> str:
    rows = [f"**{finding.replacement}** — nokta, confidence {finding.confidence:.0%}"]
    if len(finding.alternatives) > 1:
        rows.append("")
        rows.extend(f"- {text} ({score:.0%})" for text, score in finding.alternatives)
    return "\n".join(rows)
