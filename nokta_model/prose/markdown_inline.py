"""Markdown inline content by CommonMark's rules: what of a paragraph or heading is not prose.

Scanned left to right as CommonMark's inline parser does: a backslash escape is text
(``\\<!--`` opens no comment), a code span takes its backticks before anything else,
then autolinks, raw HTML (tags, comments, processing instructions, declarations,
CDATA) and entities are blanked. Link targets, titles and reference labels are blanked
after; link texts and image descriptions stay prose.
"""

from __future__ import annotations

import re

from .base import blank, blank_matches

_SPECIAL_RE = re.compile(r"[\\`<&]")
_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_BACKTICKS_RE = re.compile(r"`+")
_AUTOLINK_RE = re.compile(
    r"<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>"
    r"|<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>"
)
_ATTRIBUTE = r"""(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)"""
OPEN_TAG = rf"<[A-Za-z][A-Za-z0-9-]*{_ATTRIBUTE}*\s*/?>"
CLOSING_TAG = r"</[A-Za-z][A-Za-z0-9-]*\s*>"
_RAW_HTML_RE = re.compile(
    rf"{OPEN_TAG}|{CLOSING_TAG}|<!-->|<!--->|<!--.*?-->|<\?.*?\?>|<![A-Za-z][^>]*>|<!\[CDATA\[.*?\]\]>", re.DOTALL
)
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_PARENS = r"\((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*\)"  # balanced, two deep
_DESTINATION = rf"<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\]|\\.|{_PARENS})*"
_TITLE = r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|\((?:[^()\\]|\\.)*\)'
_LINK_TARGET_RE = re.compile(rf"(?<=\])\(\s*(?:{_DESTINATION})(?:\s+(?:{_TITLE}))?\s*\)")
_REF_LABEL_RE = re.compile(r"(?<=\])\[[^\]]*\]")


def mask_inline(line: str, in_comment: bool = False, may_continue: bool = True) -> tuple[str, bool]:
    """``line`` with its non-prose inline parts blanked, and whether an HTML comment is open
    at its end. ``in_comment``: a comment opened on an earlier line of the paragraph.
    ``may_continue``: the paragraph may go on (a heading may not), so a comment left open
    on this line may close on a later one; otherwise an unclosed ``<!--`` is text."""
    out, pos = line, 0
    if in_comment:
        end = line.find("-->")
        if end < 0:
            return blank(line), True
        out, pos = blank(line[: end + 3]) + line[end + 3 :], end + 3
    while (special := _SPECIAL_RE.search(line, pos)) is not None:
        start, char = special.start(), special.group()
        if char == "\\":
            pos = start + (2 if line[start + 1 : start + 2] in _ESCAPABLE and start + 1 < len(line) else 1)
            continue
        skip = 1
        if char == "`":
            end, skip = _code_span(line, start)
        elif char == "&":
            entity = _ENTITY_RE.match(line, start)
            end = entity.end() if entity else -1
        else:
            html = _AUTOLINK_RE.match(line, start) or _RAW_HTML_RE.match(line, start)
            end = html.end() if html else -1
            if end < 0 and may_continue and line.startswith("<!--", start):
                return out[:start] + blank(out[start:]), True
        if end < 0:
            pos = start + skip
            continue
        out, pos = out[:start] + blank(out[start:end]) + out[end:], end
    if "](" in out:
        out = blank_matches(_LINK_TARGET_RE, out)
    return (blank_matches(_REF_LABEL_RE, out) if "][" in out else out), False


def _code_span(line: str, start: int) -> tuple[int, int]:
    """(the end of the code span opened by the backtick run at ``start`` or -1 if none closes
    it, the run's length): a run is closed only by a run of the same length."""
    opener = _BACKTICKS_RE.match(line, start)
    width = opener.end() - start if opener else 1
    for closer in _BACKTICKS_RE.finditer(line, start + width):
        if len(closer.group()) == width:
            return closer.end(), width
    return -1, width
