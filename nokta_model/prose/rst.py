"""reStructuredText: literal blocks, directives (prose admonitions kept), roles and inline literals blanked.

Literal and code blocks are code, whole; with ``code_comments`` (the server's
``checkCodeComments`` view) a code directive that names a language (``.. code-block::
python``) is masked as its code.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, replace
from functools import partial

from . import code
from .base import Masker, blank, blank_matches

_EXPLICIT_RE = re.compile(r"^(\s*)\.\.(?:\s|$)")
_PROSE_DIRECTIVE_RE = re.compile(
    r"^\s*\.\.\s+(note|warning|tip|hint|important|caution|attention|danger|error|admonition|"
    r"seealso|topic|sidebar|rubric|epigraph|highlights|pull-quote|versionadded|versionchanged|deprecated)::"
)
_CODE_DIRECTIVE_RE = re.compile(r"^\s*\.\.\s+(?:code-block|code|sourcecode)::\s*(\S+)")
_INLINE_RE = re.compile(
    r"``.+?``"
    r"|:(?:code|math|file|samp|kbd|command|envvar|option|program|func|class|meth|mod|attr|data|"
    r"const|exc|obj|ref|doc|download|numref|term|py:\w+|c:\w+|cpp:\w+|js:\w+)?:?`[^`]*`"
    r"|:[\w:+-]+:(?=`)|<[^<>\s]+>(?=`_)|\|[^|\s][^|]*\|_{0,2}|^\s*:[\w\s-]+:(?=\s|$)"
)


@dataclass(frozen=True)
class State:
    literal_indent: int | None = None  # inside a literal block indented deeper than this
    language: str = ""  # the language of a code directive's block, if it names one (its code masker's format)
    inner: Hashable = None  # its state


PROSE = State()


def scan(state: State, line: str, code_comments: bool = False) -> tuple[str, State]:
    """``code_comments``: keep the comments and strings of code blocks (``code.block_line``)."""
    indent = len(line) - len(line.lstrip())
    if state.literal_indent is not None:
        if not line.strip() or indent > state.literal_indent:
            masked, inner = code.block_line(state.language, state.inner, line, code_comments)
            return masked, (state if inner == state.inner else replace(state, inner=inner))
        state = PROSE
    if _EXPLICIT_RE.match(line):
        if _PROSE_DIRECTIVE_RE.match(line):
            head = line.index("::") + 2
            return blank(line[:head]) + _inline(line[head:]), PROSE
        directive = _CODE_DIRECTIVE_RE.match(line)
        language, inner = code.block_start(directive.group(1) if directive else None)
        return blank(line), State(indent, language, inner)
    masked = _inline(line)
    if line.rstrip().endswith("::"):
        return masked, State(indent)
    return masked, PROSE


def _inline(text: str) -> str:
    return blank_matches(_INLINE_RE, text)


def _literal(state: State, line: str) -> bool:
    """Inside a literal or code block: a line indented deeper than the block's start (or blank)."""
    return state.literal_indent is not None and (not line.strip() or _indent(line) > state.literal_indent)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


MASKER = Masker(
    "rst",
    PROSE,
    scan,
    extensions=(".rst", ".rest"),
    language_ids=("restructuredtext", "rst"),
    comments=(("..", ""),),
    literal=_literal,
    code_comments_scan=partial(scan, code_comments=True),
)
