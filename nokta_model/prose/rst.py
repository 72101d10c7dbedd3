"""reStructuredText: literal blocks, directives (prose admonitions kept), roles and inline literals blanked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Masker, blank, blank_matches

_EXPLICIT_RE = re.compile(r"^(\s*)\.\.(?:\s|$)")
_PROSE_DIRECTIVE_RE = re.compile(
    r"^\s*\.\.\s+(note|warning|tip|hint|important|caution|attention|danger|error|admonition|"
    r"seealso|topic|sidebar|rubric|epigraph|highlights|pull-quote|versionadded|versionchanged|deprecated)::"
)
_INLINE_RE = re.compile(
    r"``.+?``"
    r"|:(?:code|math|file|samp|kbd|command|envvar|option|program|func|class|meth|mod|attr|data|"
    r"const|exc|obj|ref|doc|download|numref|term|py:\w+|c:\w+|cpp:\w+|js:\w+)?:?`[^`]*`"
    r"|:[\w:+-]+:(?=`)|<[^<>\s]+>(?=`_)|\|[^|\s][^|]*\|_{0,2}|^\s*:[\w\s-]+:(?=\s|$)"
)


@dataclass(frozen=True)
class State:
    literal_indent: int | None = None  # inside a literal block indented deeper than this


PROSE = State()


def scan(state: State, line: str) -> tuple[str, State]:
    indent = len(line) - len(line.lstrip())
    if state.literal_indent is not None:
        if not line.strip() or indent > state.literal_indent:
            return blank(line), state
        state = PROSE
    if _EXPLICIT_RE.match(line):
        if _PROSE_DIRECTIVE_RE.match(line):
            head = line.index("::") + 2
            return blank(line[:head]) + _inline(line[head:]), PROSE
        return blank(line), State(indent)
    masked = _inline(line)
    if line.rstrip().endswith("::"):
        return masked, State(indent)
    return masked, PROSE


def _inline(text: str) -> str:
    return blank_matches(_INLINE_RE, text)


MASKER = Masker("rst", PROSE, scan, extensions=(".rst", ".rest"), language_ids=("restructuredtext", "rst"))
