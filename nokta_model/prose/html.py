"""HTML: text between tags; comments, tags, entities and raw elements (script, pre, …) blanked."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .base import Masker, blank_matches, blank_range

_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>|<![A-Za-z][^<>]*>")
_ENTITY_RE = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")
_RAW_TAGS = ("script", "style", "pre", "code", "textarea", "math", "svg")
_RAW_OPEN_RE = re.compile(r"<(" + "|".join(_RAW_TAGS) + r")\b[^>]*>", re.IGNORECASE)


class Mode(enum.Enum):
    TEXT = enum.auto()
    COMMENT = enum.auto()  # inside <!-- … -->
    TAG = enum.auto()  # inside a tag that spans lines
    RAW = enum.auto()  # inside <script>, <pre>, … up to its closing tag


@dataclass(frozen=True)
class State:
    mode: Mode = Mode.TEXT
    raw_tag: str = ""  # the element a RAW state waits to close


TEXT = State()


def scan(state: State, line: str) -> tuple[str, State]:
    out, pos = line, 0
    while pos < len(line):
        if state.mode is Mode.RAW:
            end = line.lower().find("</" + state.raw_tag, pos)
            stop = len(line) if end < 0 else end
            out = blank_range(out, pos, stop)
            state, pos = (state, stop) if end < 0 else (TEXT, end)
            continue
        if state.mode in (Mode.COMMENT, Mode.TAG):
            closer = "-->" if state.mode is Mode.COMMENT else ">"
            end = line.find(closer, pos)
            stop = len(line) if end < 0 else end + len(closer)
            out = blank_range(out, pos, stop)
            state, pos = (state, stop) if end < 0 else (_after_tag(line, stop), stop)
            continue
        start = line.find("<", pos)
        if start < 0:
            out = out[:pos] + blank_matches(_ENTITY_RE, out[pos:])
            break
        out = out[:pos] + blank_matches(_ENTITY_RE, out[pos:start]) + out[start:]
        state = State(Mode.COMMENT if line.startswith("<!--", start) else Mode.TAG)
        pos = start
    return out, state


def _after_tag(line: str, stop: int) -> State:
    """State after a tag ending at ``stop``: raw text follows <script>, <pre>, …."""
    opening = _RAW_OPEN_RE.search(line, max(0, line.rfind("<", 0, stop - 1)), stop)
    return State(Mode.RAW, opening.group(1).lower()) if opening else TEXT


MASKER = Masker("html", TEXT, scan, extensions=(".html", ".htm", ".xhtml"), language_ids=("html",))
