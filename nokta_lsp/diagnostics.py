"""Findings -> LSP diagnostics and hovers, in the client's position units.

Diagnostics are built as JSON text, once: ``DiagnosticsText`` keeps a document's
diagnostics per line, so a new analysis serialises only the lines whose findings
changed, and gives the text a result id that changes with it. Pushed and pulled reports
send that text.
"""

from __future__ import annotations

import itertools
import json
import operator
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from nokta_model.check.findings import Finding

from .documents import Codec

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


_result_ids = itertools.count(1)


class DiagnosticsText:
    """One document's diagnostics as comma-separated JSON objects, kept per line.

    A line is serialised again when its findings are another object than last time (the
    analysis keeps a line's findings object while they stay the same for its text) or the
    codec or severity changed.
    """

    def __init__(self) -> None:
        self._findings: list[tuple[Finding, ...]] = []  # per line: what its text was built from
        self._texts: list[str] = []  # per line: its diagnostics ("" for none)
        self._published_with: tuple[Codec, str] | None = None
        self.text: str | None = None
        self.result_id = "0"  # changes with the text

    def update(
        self, lines: Sequence[str], line_findings: list[tuple[Finding, ...]], codec: Codec, severity: str
    ) -> str:
        """The diagnostics of ``line_findings`` (per line of ``lines``)."""
        if self._published_with != (codec, severity):
            self._findings, self._texts, self._published_with = [], [], (codec, severity)
        texts = self._texts[: len(line_findings)] + [""] * (len(line_findings) - len(self._texts))
        changed = itertools.compress(itertools.count(), map(operator.is_not, line_findings, self._findings))
        for row in itertools.chain(changed, range(len(self._findings), len(line_findings))):
            findings = line_findings[row]
            texts[row] = diagnostics_json_text(findings, lines[row], codec, severity) if findings else ""
        self._findings, self._texts = line_findings, texts
        text = ",".join(filter(None, texts))
        if text != self.text:
            self.text, self.result_id = text, str(next(_result_ids))
        return text


def hover_text(finding: Finding) -> str:
    rows = [f"**{finding.replacement}** — nokta, confidence {finding.confidence:.0%}"]
    if len(finding.alternatives) > 1:
        rows.append("")
        rows.extend(f"- {text} ({score:.0%})" for text, score in finding.alternatives)
    return "\n".join(rows)
