"""Markdown: front matter, code fences, inline code, link targets, HTML comments and tags blanked.

Link texts stay prose (``[belgelere bakin](…)`` is restored, its target is not).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from . import html
from .base import Masker, blank, blank_matches

_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
INLINE_CODE_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_LINK_TARGET_RE = re.compile(r"(?<=\])\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_REF_DEF_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:.*$")
_AUTOLINK_RE = re.compile(r"<[a-zA-Z][a-zA-Z0-9+.-]*:[^\s<>]*>|<[^\s<>@]+@[^\s<>]+>")
_REF_LINK_RE = re.compile(r"(?<=\])\[[^\]]*\]")


class Block(enum.Enum):
    START = enum.auto()  # the first line: front matter may open here
    TEXT = enum.auto()
    FRONT_MATTER = enum.auto()
    FENCE = enum.auto()
    COMMENT = enum.auto()  # inside an HTML comment


@dataclass(frozen=True)
class State:
    block: Block
    closer: str = ""  # what closes FRONT_MATTER (--- or +++) or FENCE (``` or ~~~…)


START, TEXT = State(Block.START), State(Block.TEXT)


def scan(state: State, line: str) -> tuple[str, State]:
    stripped = line.strip()
    if state.block is Block.START:
        if stripped in ("---", "+++"):
            return blank(line), State(Block.FRONT_MATTER, stripped)
        state = TEXT
    if state.block is Block.FRONT_MATTER:
        return blank(line), (TEXT if stripped in (state.closer, "...") else state)
    if state.block is Block.FENCE:
        closes = stripped.startswith(state.closer) and not stripped.strip(state.closer[0])
        return blank(line), (TEXT if closes else state)
    if state.block is Block.COMMENT or "<!--" in line:
        masked, in_comment = html.comment_line(state.block is Block.COMMENT, line)
        return masked, (State(Block.COMMENT) if in_comment else TEXT)
    fence = _FENCE_RE.match(line)
    if fence:
        return blank(line), State(Block.FENCE, fence.group(1))
    if _REF_DEF_RE.match(line):
        return blank(line), TEXT
    masked = blank_matches(INLINE_CODE_RE, line)
    for pattern in (_LINK_TARGET_RE, _REF_LINK_RE, _AUTOLINK_RE):
        masked = blank_matches(pattern, masked)
    return html.inline_tags(masked), TEXT


MASKER = Masker(
    "markdown",
    START,
    scan,
    extensions=(".md", ".markdown", ".mdown", ".mkd", ".mdx"),
    language_ids=("markdown",),
)
