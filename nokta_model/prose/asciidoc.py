"""AsciiDoc: delimited blocks (listing, literal, passthrough, comment), attributes and inline code blanked.

Every delimited block is code, whole; with ``code_comments`` (the server's
``checkCodeComments`` view) a listing block under ``[source,python]`` is masked as its
language's code.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, replace
from functools import partial

from . import code
from .base import Masker, blank, blank_matches

_DELIMITERS = ("----", "....", "++++", "////")
_INLINE_RE = re.compile(r"`[^`]+`|\+[^+\s][^+]*\+|(?:https?|ftp|mailto|link|image|xref|include)[:][^\s\[]*")
_SOURCE_RE = re.compile(r"^\[source,\s*([^\s,\]]+)")
_META_RE = re.compile(r"^(?::[\w-]+!?:.*|\[[^\]]*\]|include::.*)$")


@dataclass(frozen=True)
class State:
    delimiter: str = ""  # the delimiter line of the open block ("" outside blocks)
    language: str = ""  # the language a [source,…] line named, for the block it opens (its code masker's format)
    inner: Hashable = None  # the code's state


TEXT = State()


def scan(state: State, line: str, code_comments: bool = False) -> tuple[str, State]:
    """``code_comments``: keep the comments and strings of code blocks (``code.block_line``)."""
    stripped = line.strip()
    if len(stripped) >= 4 and stripped[:4] in _DELIMITERS and not stripped.strip(stripped[0]):
        if state.delimiter == stripped:
            return blank(line), TEXT  # the block closes
        opened = replace(state, delimiter=stripped) if not state.delimiter else state
        return blank(line), (opened if stripped == "----" else replace(opened, language=""))
    if state.delimiter:
        masked, inner = code.block_line(state.language, state.inner, line, code_comments)
        return masked, (state if inner == state.inner else replace(state, inner=inner))
    source = _SOURCE_RE.match(stripped)
    if source:
        language, inner = code.block_start(source.group(1))
        return blank(line), State(language=language, inner=inner)
    if _META_RE.match(stripped):
        return blank(line), TEXT
    return blank_matches(_INLINE_RE, line), TEXT


MASKER = Masker(
    "asciidoc",
    TEXT,
    scan,
    extensions=(".adoc", ".asciidoc", ".asc"),
    language_ids=("asciidoc",),
    comments=(("//", ""),),
    literal=lambda state, line: bool(state.delimiter),
    code_comments_scan=partial(scan, code_comments=True),
)
