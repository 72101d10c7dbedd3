"""Org mode: source/example/export blocks, #+keywords, drawers, verbatim and link targets blanked.

Every block is code, whole; with ``code_comments`` (the server's ``checkCodeComments``
view) a source block that names a language (``#+begin_src python``) is masked as its code.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, replace
from functools import partial

from . import code
from .base import Masker, blank, blank_matches

_BEGIN_RE = re.compile(r"^\s*#\+begin_(src|example|export|latex|html)\b(?:[ \t]+(\S+))?", re.IGNORECASE)
_END_RE = re.compile(r"^\s*#\+end_", re.IGNORECASE)
_INLINE_RE = re.compile(r"(?<!\w)[=~][^\s=~][^=~]*?[=~](?!\w)|\[\[[^\]]*\]|(?<=\])\]")


@dataclass(frozen=True)
class State:
    block: bool = False  # inside #+begin_src … #+end_src (and example, export, …)
    language: str = ""  # a source block's language, if it names one (its code masker's format)
    inner: Hashable = None  # its state


TEXT = State()


def scan(state: State, line: str, code_comments: bool = False) -> tuple[str, State]:
    """``code_comments``: keep the comments and strings of code blocks (``code.block_line``)."""
    if state.block:
        if _END_RE.match(line):
            return blank(line), TEXT
        masked, inner = code.block_line(state.language, state.inner, line, code_comments)
        return masked, (state if inner == state.inner else replace(state, inner=inner))
    begin = _BEGIN_RE.match(line)
    if begin:
        language, inner = code.block_start(begin.group(2) if begin.group(1).lower() == "src" else None)
        return blank(line), State(True, language, inner)
    if line.lstrip().startswith(("#+", ":")):
        return blank(line), TEXT
    return blank_matches(_INLINE_RE, line), TEXT


MASKER = Masker(
    "org",
    TEXT,
    scan,
    extensions=(".org",),
    language_ids=("org",),
    comments=(("#", ""),),
    literal=lambda state, line: state.block,
    code_comments_scan=partial(scan, code_comments=True),
)
