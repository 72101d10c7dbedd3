"""AsciiDoc: delimited blocks (listing, literal, passthrough, comment), attributes and inline code blanked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Masker, blank, blank_matches

_DELIMITERS = ("----", "....", "++++", "////")
_INLINE_RE = re.compile(r"`[^`]+`|\+[^+\s][^+]*\+|(?:https?|ftp|mailto|link|image|xref|include)[:][^\s\[]*")
_META_RE = re.compile(r"^(?::[\w-]+!?:.*|\[[^\]]*\]|include::.*)$")


@dataclass(frozen=True)
class State:
    delimiter: str = ""  # the delimiter line of the open block ("" outside blocks)


TEXT = State()


def scan(state: State, line: str) -> tuple[str, State]:
    stripped = line.strip()
    if len(stripped) >= 4 and stripped[:4] in _DELIMITERS and not stripped.strip(stripped[0]):
        if state.delimiter == stripped:
            return blank(line), TEXT  # the block closes
        return blank(line), (State(stripped) if state == TEXT else state)
    if state != TEXT:
        return blank(line), state
    if _META_RE.match(stripped):
        return blank(line), TEXT
    return blank_matches(_INLINE_RE, line), TEXT


MASKER = Masker("asciidoc", TEXT, scan, extensions=(".adoc", ".asciidoc", ".asc"), language_ids=("asciidoc",))
