"""HTML: text between tags; comments, tags, entities and raw elements (script, pre, code, …) blanked."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .base import Masker, blank, blank_matches, blank_range

_ENTITY_RE = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")
#: Elements whose content is code or markup, never prose (Markdown's inline HTML shares them).
RAW_TAGS = frozenset(("script", "style", "pre", "code", "textarea", "math", "svg"))
_TAG_NAME_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")
#: A tag that colours its text (an editor's syntax highlighting copied as HTML), and its content.
_COLOURED_RE = re.compile(
    r"""<(span|font)\b(?=[^>]*\b(?:style\s*=\s*(?:"[^"]*|'[^']*)\bcolou?r\s*:|color\s*=))[^>]*>.*?</\1\s*>""",
    re.IGNORECASE,
)
_ANY_TAG_RE = re.compile(r"<[^>]*>")
_PHRASE_RE = re.compile(r"[^\W\d_]+\s+[^\W\d_]+\s+[^\W\d_]+")


class Mode(enum.Enum):
    TEXT = enum.auto()
    COMMENT = enum.auto()  # inside <!-- … -->
    TAG = enum.auto()  # inside a tag that spans lines
    RAW = enum.auto()  # inside <script>, <pre>, … up to its closing tag


@dataclass(frozen=True)
class State:
    mode: Mode = Mode.TEXT
    raw_tag: str = ""  # RAW: the element it waits to close; TAG: the raw element the tag opens

    @property
    def in_raw_element(self) -> bool:
        return self.mode is Mode.RAW


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
            if end >= 0:
                state = _after_tag(state, line, stop)
            pos = stop
            continue
        start = line.find("<", pos)
        if start < 0:
            out = out[:pos] + blank_matches(_ENTITY_RE, out[pos:])
            break
        out = out[:pos] + blank_matches(_ENTITY_RE, out[pos:start]) + out[start:]
        comment = line.startswith("<!--", start)
        state = State(Mode.COMMENT) if comment else State(Mode.TAG, opened_raw_element(line, start))
        pos = start
    return (blank(out) if highlighted_code(line) else out), state


def highlighted_code(line: str) -> bool:
    """Whether ``line`` is code copied from an editor with its syntax highlighting: two or
    more coloured spans, and no three words in a row outside them (a sentence with a word or
    two in colour has them)."""
    if len(_COLOURED_RE.findall(line)) < 2:
        return False
    outside = _ANY_TAG_RE.sub(" ", _ENTITY_RE.sub(" ", _COLOURED_RE.sub(" ", line)))
    return _PHRASE_RE.search(outside) is None


def opened_raw_element(line: str, start: int) -> str:
    """The raw element (``RAW_TAGS``) a tag starting at ``start`` opens, lower-cased; "" if none."""
    tag = _TAG_NAME_RE.match(line, start)
    if tag is None or tag.group(1):
        return ""
    name = tag.group(2).lower()
    return name if name in RAW_TAGS else ""


def _after_tag(state: State, line: str, stop: int) -> State:
    """State after a comment or tag ending at ``stop``: raw text follows <script>, <pre>, …
    (not a self-closing <code/>)."""
    if state.mode is Mode.TAG and state.raw_tag and not line.endswith("/>", 0, stop):
        return State(Mode.RAW, state.raw_tag)
    return TEXT


MASKER = Masker(
    "html",
    TEXT,
    scan,
    extensions=(".html", ".htm", ".xhtml"),
    language_ids=("html",),
    comments=(("<!--", "-->"),),
    literal=lambda state, line: state.mode is Mode.RAW,  # <pre>, <script>, …
)
