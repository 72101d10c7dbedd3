"""Findings -> LSP diagnostics and hovers, in the client's position units.

A diagnostic is built once as JSON (``diagnostic_json``), kept per line as text so an
edit re-serialises only the lines it changed; pushed and pulled reports send that text.
"""

from __future__ import annotations

import json
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


def hover_text(finding: Finding) -> str:
    rows = [f"**{finding.replacement}** — nokta, confidence {finding.confidence:.0%}"]
    if len(finding.alternatives) > 1:
        rows.append("")
        rows.extend(f"- {text} ({score:.0%})" for text, score in finding.alternatives)
    return "\n".join(rows)
