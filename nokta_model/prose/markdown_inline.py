"""Markdown inline content by CommonMark's rules: what of a paragraph or heading is not prose.

Scanned left to right as CommonMark's inline parser does: a backslash escape is text
(``\\<!--`` opens no comment), a backslash ending the line (a hard break) is blanked, a
code span takes its backticks before anything else, then autolinks, raw HTML (tags,
comments, processing instructions, declarations, CDATA) and entities are blanked, and so
is the content of a raw HTML element (``<code>…</code>``, ``<pre>``: ``html.RAW_TAGS``),
which may close on a later line of the paragraph. Link targets, titles and reference
labels are blanked after; link texts and image descriptions stay prose.
"""

from __future__ import annotations

import re

from .base import blank, blank_matches
from .html import RAW_TAGS, highlighted_code, opened_raw_element

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
_CLOSING_TAGS = {tag: re.compile(rf"</{tag}\s*>", re.IGNORECASE) for tag in RAW_TAGS}


#: ``mask_inline``'s open element: an HTML comment (else the name of a raw element).
COMMENT = "<!--"


def mask_inline(line: str, open_element: str = "", may_continue: bool = True) -> tuple[str, str]:
    """``line`` with its non-prose inline parts blanked, and what is open at its end: ""
    (nothing), ``COMMENT`` or the raw element (``code``, ``pre`` …) whose content goes on.
    ``open_element``: what an earlier line of the paragraph left open. ``may_continue``:
    the paragraph may go on (a heading may not), so what this line leaves open may close
    on a later one; otherwise an unclosed ``<!--`` is text and a raw element ends here."""
    out, pos = line, 0
    if open_element:
        end = _element_end(line, 0, open_element)
        if end < 0:
            return blank(line), open_element
        out, pos = blank(line[:end]) + line[end:], end
    while (special := _SPECIAL_RE.search(line, pos)) is not None:
        start, char = special.start(), special.group()
        if char == "\\":
            if line[start + 1 :].isspace() or start == len(line) - 1:  # a hard break: not the word's
                out = out[:start] + " " + out[start + 1 :]
            pos = start + (2 if line[start + 1 : start + 2] in _ESCAPABLE and start + 1 < len(line) else 1)
            continue
        skip = 1
        if char == "`":
            end, skip = _code_span(line, start)
        elif char == "&":
            entity = _ENTITY_RE.match(line, start)
            end = entity.end() if entity else -1
        else:
            autolink = _AUTOLINK_RE.match(line, start)
            tag = None if autolink else _RAW_HTML_RE.match(line, start)
            found = autolink or tag
            end = found.end() if found else -1
            if end < 0 and may_continue and line.startswith("<!--", start):
                return out[:start] + blank(out[start:]), COMMENT
            raw = opened_raw_element(line, start) if tag and not line.endswith("/>", 0, end) else ""
            if raw:  # its content is code: blanked to its closing tag
                end = _element_end(line, end, raw)
                if end < 0:
                    return out[:start] + blank(out[start:]), (raw if may_continue else "")
        if end < 0:
            pos = start + skip
            continue
        out, pos = out[:start] + blank(out[start:end]) + out[end:], end
    if highlighted_code(line):  # code copied from an editor, coloured span by span
        return blank(out), ""
    if "](" in out:
        out = blank_matches(_LINK_TARGET_RE, out)
    return (blank_matches(_REF_LABEL_RE, out) if "][" in out else out), ""


def _element_end(line: str, start: int, element: str) -> int:
    """Where what is open (``COMMENT`` or a raw element) ends, at or after ``start``: after
    its ``-->`` or closing tag; -1 if not on this line."""
    if element == COMMENT:
        end = line.find("-->", start)
        return end + 3 if end >= 0 else -1
    closing = _CLOSING_TAGS[element].search(line, start)
    return closing.end() if closing else -1


def _code_span(line: str, start: int) -> tuple[int, int]:
    """(the end of the code span opened by the backtick run at ``start`` or -1 if none closes
    it, the run's length): a run is closed only by a run of the same length."""
    opener = _BACKTICKS_RE.match(line, start)
    width = opener.end() - start if opener else 1
    for closer in _BACKTICKS_RE.finditer(line, start + width):
        if len(closer.group()) == width:
            return closer.end(), width
    return -1, width
