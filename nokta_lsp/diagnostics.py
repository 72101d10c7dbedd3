"""Findings -> LSP diagnostics, hovers and edits, in the client's position units."""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

from lsprotocol import types

from .checker import Finding
from .documents import Codec

SOURCE = "nokta"
CODE = "missing-diacritics"
CODE_AMBIGUOUS = "ambiguous-diacritics"

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def finding_range(finding: Finding, lines: Sequence[str], codec: Codec) -> types.Range:
    line = lines[finding.line]
    return types.Range(
        start=types.Position(line=finding.line, character=codec.to_client(line, finding.start)),
        end=types.Position(line=finding.line, character=codec.to_client(line, finding.end)),
    )


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
        "alternatives": [text for text, _ in finding.alternatives if text != finding.original],
        "confidence": round(finding.confidence, 4),
    }


def to_diagnostic(finding: Finding, lines: Sequence[str], codec: Codec, severity: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=finding_range(finding, lines, codec),
        message=message(finding),
        severity=SEVERITY[severity] if finding.confident else types.DiagnosticSeverity.Hint,
        code=CODE if finding.confident else CODE_AMBIGUOUS,
        source=SOURCE,
        data=finding_data(finding),
    )


def to_diagnostics(findings: Sequence[Finding], lines: Sequence[str], codec: Codec, severity: str) -> list[types.Diagnostic]:
    return [to_diagnostic(finding, lines, codec, severity) for finding in findings]


def result_id(findings: Sequence[Finding], severity: str) -> str:
    """A pull-diagnostics result id that changes exactly when the report would."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(severity.encode())
    for f in findings:
        digest.update(f"{f.line}:{f.start}:{f.end}:{f.replacement}:{f.confident}|".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def hover_text(finding: Finding) -> str:
    rows = [f"**{finding.replacement}** — nokta, confidence {finding.confidence:.0%}"]
    if len(finding.alternatives) > 1:
        rows.append("")
        rows.extend(f"- {text} ({score:.0%})" for text, score in finding.alternatives)
    return "\n".join(rows)


def text_edits(findings: Sequence[Finding], lines: Sequence[str], codec: Codec) -> list[types.TextEdit]:
    return [types.TextEdit(range=finding_range(f, lines, codec), new_text=f.replacement) for f in findings]
