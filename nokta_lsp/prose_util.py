"""Small helpers shared by the prose maskers."""

from __future__ import annotations

import re

#: State of the first line of a document (front matter may start there).
START = "^"


def blank(text: str) -> str:
    """Spaces of the same length (tabs kept, so nothing shifts visually either)."""
    return "".join("\t" if ch == "\t" else " " for ch in text) if "\t" in text else " " * len(text)


def blank_matches(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with every match of ``pattern`` blanked."""
    return pattern.sub(lambda match: blank(match.group()), text)


def blank_range(text: str, start: int, end: int) -> str:
    return text[:start] + blank(text[start:end]) + text[end:]
