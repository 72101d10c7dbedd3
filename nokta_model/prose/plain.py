"""Plain text: every character is prose (mentions and hashtags aside, see ``base``)."""

from __future__ import annotations

from .base import Masker


def scan(state: None, line: str) -> tuple[str, None]:
    return line, None


MASKER = Masker(
    "plain", None, scan, extensions=(".txt", ".text"), language_ids=("plaintext", "text"), comments=(("", ""),)
)
