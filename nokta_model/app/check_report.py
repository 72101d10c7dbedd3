"""Findings of ``nokta check`` as text for people, JSON, GitHub annotations or SARIF.

Lines and columns are 1-based; a column counts code points (characters) of its line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..check.findings import Finding

OUTPUT_FORMATS = ("text", "json", "github", "sarif")
RULE_ID = "missing-diacritics"
_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class FileFinding:
    path: str
    finding: Finding

    @property
    def line(self) -> int:
        return self.finding.line + 1

    @property
    def column(self) -> int:
        return self.finding.start + 1

    @property
    def end_column(self) -> int:
        return self.finding.end + 1

    @property
    def message(self) -> str:
        return f"{self.finding.original} -> {self.finding.replacement}"


def render(findings: Sequence[FileFinding], output_format: str, version: str) -> str:
    """The report of ``findings`` in ``output_format`` (one of ``OUTPUT_FORMATS``); empty for text
    and github output without findings."""
    if output_format == "json":
        return json.dumps([_as_json(found) for found in findings], ensure_ascii=False, indent=2) + "\n"
    if output_format == "sarif":
        return sarif_log(findings, version) + "\n"
    line = _github_line if output_format == "github" else _text_line
    return "".join(line(found) + "\n" for found in findings)


def _text_line(found: FileFinding) -> str:
    return f"{found.path}:{found.line}:{found.column}: {found.message} ({found.finding.confidence:.2f})"


def _github_line(found: FileFinding) -> str:
    """A workflow command: GitHub shows it as an annotation on the line of the pull request."""
    properties = (
        f"file={_escape_property(found.path)},line={found.line},endLine={found.line},"
        f"col={found.column},endColumn={found.end_column},title=nokta"
    )
    return f"::warning {properties}::{_escape_data(found.message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _as_json(found: FileFinding) -> dict:
    return {
        "path": found.path,
        "line": found.line,
        "column": found.column,
        "end_column": found.end_column,
        "word": found.finding.original,
        "suggestion": found.finding.replacement,
        "confidence": round(found.finding.confidence, 4),
        "alternatives": [{"word": text, "probability": round(p, 4)} for text, p in found.finding.alternatives],
    }


def sarif_log(findings: Sequence[FileFinding], version: str) -> str:
    """A SARIF 2.1.0 log of one run (for code scanning), built with sarif-pydantic's model."""
    from sarif_pydantic import (  # type: ignore[import-untyped]  # here: only SARIF needs pydantic
        ArtifactLocation,
        Level,
        Location,
        Message,
        PhysicalLocation,
        Region,
        ReportingDescriptor,
        Result,
        Run,
        Sarif,
        Tool,
        ToolDriver,
    )

    rule = ReportingDescriptor(
        id=RULE_ID,
        name="MissingDiacritics",
        short_description=Message(text="A Turkish word typed without its diacritics (ç ğ ı ö ş ü İ)."),
    )
    driver = ToolDriver(name="nokta", version=version, rules=[rule])
    results = [
        Result(
            rule_id=RULE_ID,
            rule_index=0,
            level=Level.WARNING,
            message=Message(text=found.message),
            locations=[
                Location(
                    physical_location=PhysicalLocation(
                        artifact_location=ArtifactLocation(uri=quote(Path(found.path).as_posix())),
                        region=Region(start_line=found.line, start_column=found.column, end_column=found.end_column),
                    )
                )
            ],
            properties={"confidence": round(found.finding.confidence, 4), "suggestion": found.finding.replacement},
        )
        for found in findings
    ]
    # columnKind is not a field of sarif-pydantic's Run; its models keep extra keys as given.
    run = Run(tool=Tool(driver=driver), results=results, columnKind="unicodeCodePoints")
    log = Sarif(schema_uri=_SARIF_SCHEMA, runs=[run])
    return log.model_dump_json(by_alias=True, exclude_none=True, indent=2)
