"""Which parts of a document are prose: everything else is blanked out.

``mask_lines`` returns every line with the same length, its non-prose characters
(code fences, inline code, link targets, front matter, markup, math, …) replaced by
spaces, so word offsets in a masked line are offsets in the real line. A masker is a
pure function ``(state, line) -> (masked, state)``; the state carries multi-line
constructs (fences, comments, math) to the next line. The server keeps each line's
result (``incremental``); a small cache serves repeated lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from . import prose_code, prose_markup
from .prose_util import START, blank, blank_matches

Masker = Callable[[str, str], "tuple[str, str]"]

_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_MD_INLINE_CODE_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_MD_LINK_TARGET_RE = re.compile(r"(?<=\])\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_MD_REF_DEF_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:.*$")
_MD_AUTOLINK_RE = re.compile(r"<[a-zA-Z][a-zA-Z0-9+.-]*:[^\s<>]*>|<[^\s<>@]+@[^\s<>]+>")
_MD_REF_LINK_RE = re.compile(r"(?<=\])\[[^\]]*\]")


def plaintext(state: str, line: str) -> tuple[str, str]:
    return line, ""


def markdown(state: str, line: str) -> tuple[str, str]:
    stripped = line.strip()
    if state == START:
        if stripped in ("---", "+++"):
            return blank(line), "front" + stripped
        state = ""
    if state.startswith("front"):
        return blank(line), ("" if stripped in (state[5:], "...") else state)
    if state.startswith("fence"):
        fence = state[5:]
        closes = stripped.startswith(fence) and not stripped.strip(fence[0])
        return blank(line), ("" if closes else state)
    if state == "comment" or "<!--" in line:
        return prose_markup.html_comment_line(state, line)
    fence = _FENCE_RE.match(line)
    if fence:
        return blank(line), "fence" + fence.group(1)
    if _MD_REF_DEF_RE.match(line):
        return blank(line), ""
    masked = blank_matches(_MD_INLINE_CODE_RE, line)
    for pattern in (_MD_LINK_TARGET_RE, _MD_REF_LINK_RE, _MD_AUTOLINK_RE):
        masked = blank_matches(pattern, masked)
    return prose_markup.html_tags(masked), ""


_GIT_TRAILER_RE = re.compile(r"^[A-Za-z][A-Za-z-]*: .*<[^>]*@[^>]*>\s*$")


def gitcommit(state: str, line: str) -> tuple[str, str]:
    if state == "diff" or line.startswith("diff --git ") or (">8" in line and line.startswith("#")):
        return blank(line), "diff"
    if line.startswith("#") or _GIT_TRAILER_RE.match(line):
        return blank(line), ""
    return blank_matches(_MD_INLINE_CODE_RE, line), ""


_ADOC_DELIMITERS = ("----", "....", "++++", "////")
_ADOC_INLINE_RE = re.compile(r"`[^`]+`|\+[^+\s][^+]*\+|(?:https?|ftp|mailto|link|image|xref|include)[:][^\s\[]*")
_ADOC_META_RE = re.compile(r"^(?::[\w-]+!?:.*|\[[^\]]*\]|include::.*)$")


def asciidoc(state: str, line: str) -> tuple[str, str]:
    stripped = line.strip()
    if len(stripped) >= 4 and stripped[:4] in _ADOC_DELIMITERS and not stripped.strip(stripped[0]):
        if state == stripped:
            return blank(line), ""  # the block closes
        return blank(line), (stripped if state in ("", START) else state)
    if state not in ("", START):
        return blank(line), state
    if _ADOC_META_RE.match(stripped):
        return blank(line), ""
    return blank_matches(_ADOC_INLINE_RE, line), ""


_ORG_BEGIN_RE = re.compile(r"^\s*#\+begin_(src|example|export|latex|html)\b", re.IGNORECASE)
_ORG_END_RE = re.compile(r"^\s*#\+end_", re.IGNORECASE)
_ORG_INLINE_RE = re.compile(r"(?<!\w)[=~][^\s=~][^=~]*?[=~](?!\w)|\[\[[^\]]*\]|(?<=\])\]")


def org(state: str, line: str) -> tuple[str, str]:
    if state == "block":
        return blank(line), ("" if _ORG_END_RE.match(line) else "block")
    if _ORG_BEGIN_RE.match(line):
        return blank(line), "block"
    if line.lstrip().startswith("#+") or line.lstrip().startswith(":"):
        return blank(line), ""
    return blank_matches(_ORG_INLINE_RE, line), ""


#: Masker for each prose language id.
PROSE_MASKERS: dict[str, Masker] = {
    "plaintext": plaintext,
    "text": plaintext,
    "markdown": markdown,
    "gitcommit": gitcommit,
    "git-commit": gitcommit,  # VS Code's and Helix's name for it
    "latex": prose_markup.latex,
    "tex": prose_markup.latex,
    "bibtex": prose_markup.latex,
    "html": prose_markup.html,
    "restructuredtext": prose_markup.rst,
    "rst": prose_markup.rst,
    "asciidoc": asciidoc,
    "org": org,
}


def masker_for(language_id: str, file_types: Sequence[str], check_code: bool) -> str | None:
    """The masker name for a document, or None when it is not checked at all."""
    if language_id in file_types:
        return language_id if language_id in PROSE_MASKERS else "plaintext"
    if check_code:
        return prose_code.family_of(language_id)
    return None


def _masker(name: str) -> Masker:
    return PROSE_MASKERS.get(name) or prose_code.masker(name)


def mask_line(name: str, state: str, line: str) -> tuple[str, str]:
    """One line masked, given the state the line before left (``START`` for the first)."""
    if name == "plaintext":
        return line, ""
    return _mask_line(name, state, line)


@lru_cache(maxsize=4096)
def _mask_line(name: str, state: str, line: str) -> tuple[str, str]:
    return _masker(name)(state, line)


def mask_lines(name: str, lines: Sequence[str]) -> list[str]:
    """Every line with its non-prose characters blanked (same length per line)."""
    if name == "plaintext":
        return list(lines)
    state = START
    masked: list[str] = []
    for line in lines:
        out, state = mask_line(name, state, line)
        masked.append(out)
    return masked
