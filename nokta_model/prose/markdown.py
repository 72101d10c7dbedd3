"""Markdown by CommonMark's block rules, one line at a time.

A line's state is the block it leaves open: front matter, a fenced code block (code,
whole; with ``code_comments``, the server's ``checkCodeComments`` view, masked as the
language its info string names: ```` ```python ```` keeps its comments and strings),
one of CommonMark's seven kinds of HTML block (each ends where the spec says: a
comment block at ``-->``, a ``<div>`` block at a blank line), or a
paragraph, with an inline HTML comment or raw element (``<code>``, ``<pre>``) that
may still be open in it. An HTML block opens only at the start of a line, so ``\\<!--`` or a ``<!--`` inside a sentence
never turns masking on past its paragraph. Blockquote markers are read on every
line; list items only for the column their content starts at, so that an indented
line in a list item is not taken for indented code. Inline content is masked by
``markdown_inline``.

CommonMark decides two things only after a paragraph has ended, which a line at a time
cannot: a comment opened inside a paragraph and never closed is text (masked here to
the paragraph's end), and a link reference definition's title may go on to the next
line (that line is prose here).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Hashable
from functools import partial
from typing import NamedTuple

from . import code, html
from .base import Masker, blank
from .markdown_inline import CLOSING_TAG, OPEN_TAG, mask_inline

_QUOTES_RE = re.compile(r"(?: {0,3}>[ \t]?)*")
_LIST_MARKER_RE = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])(?=[ \t]|$)")
_FENCE_RE = re.compile(r"(`{3,})[^`]*$|(~{3,})")
_INFO_RE = re.compile(r"\{?\.?([\w+#-]+)")
_HEADING_RE = re.compile(r"#{1,6}(?:[ \t]|$)")
_REF_DEF_RE = re.compile(r"\[(?!\^)(?:[^\]\\]|\\.)+\]:")  # [^1]: is a footnote: its text is prose
#: The end conditions of HTML block kinds 1 to 5 (6 and 7 end at a blank line).
_HTML_ENDS = {
    1: re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE),
    2: re.compile(r"-->"),
    3: re.compile(r"\?>"),
    4: re.compile(r">"),
    5: re.compile(r"\]\]>"),
}
_HTML_STARTS = (
    (1, re.compile(r"<(?:pre|script|style|textarea)(?:[ \t>]|$)", re.IGNORECASE)),
    (2, re.compile(r"<!--")),
    (3, re.compile(r"<\?")),
    (4, re.compile(r"<![A-Za-z]")),
    (5, re.compile(r"<!\[CDATA\[")),
    (
        6,
        re.compile(
            r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
            r"dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|"
            r"html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|"
            r"section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \t]|/?>|$)",
            re.IGNORECASE,
        ),
    ),
    (7, re.compile(rf"(?:{OPEN_TAG}|{CLOSING_TAG})[ \t]*$")),
)


class Block(enum.IntEnum):  # an IntEnum hashes in C: states are hashed for every line
    START = enum.auto()  # the first line: front matter may open here
    TEXT = enum.auto()  # between blocks
    PARAGRAPH = enum.auto()
    FRONT_MATTER = enum.auto()
    FENCE = enum.auto()
    HTML = enum.auto()


class State(NamedTuple):  # a tuple: built and hashed in C, once per line
    block: Block
    closer: str = ""  # FRONT_MATTER: --- or +++; FENCE: its run of backticks or tildes
    html_kind: int = 0  # HTML: CommonMark's kind, 1 to 7
    quotes: int = 0  # FENCE, HTML: the blockquote depth it opened in (fewer markers close it)
    list_indent: int = 0  # the column the innermost open list item's content starts at
    inline_open: str = ""  # PARAGRAPH: an HTML comment or raw element opened in it and still open (``mask_inline``)
    language: str = ""  # FENCE: the format its lines are masked as (``_fence_start``); "": all code
    inner: Hashable = None  # FENCE: that format's state
    html_state: html.State = html.TEXT  # HTML kinds 6 and 7: the HTML masker's state


START, TEXT = State(Block.START), State(Block.TEXT)
MARKDOWN = "markdown"  # State.language of a fence holding Markdown
_MARKDOWN_NAMES = frozenset(("markdown", "md", "commonmark", "gfm"))


def scan(state: State, line: str, code_comments: bool = False) -> tuple[str, State]:
    """``code_comments``: keep the comments and strings of fenced code (``code.block_line``)."""
    stripped = line.strip()
    if state.block is Block.START:
        if stripped in ("---", "+++"):
            return blank(line), State(Block.FRONT_MATTER, stripped)
        state = TEXT
    if state.block is Block.FRONT_MATTER:
        return blank(line), (TEXT if stripped in (state.closer, "...") else state)
    quotes = _QUOTES_RE.match(line)
    prefix_end = quotes.end() if quotes else 0
    depth = line.count(">", 0, prefix_end)
    if state.block in (Block.FENCE, Block.HTML):
        if depth >= state.quotes:
            return _inside(state, line, prefix_end if state.quotes else 0, code_comments)
        state = State(Block.TEXT, list_indent=state.list_indent)  # the blockquote it was in has ended
    return _block_line(state, line, prefix_end, depth)


def _inside(state: State, line: str, start: int, code_comments: bool) -> tuple[str, State]:
    """A line of an open fence or HTML block; ``start``: where its content starts."""
    head, content = blank(line[:start]), line[start:]
    after = State(Block.TEXT, list_indent=state.list_indent)
    if state.block is Block.FENCE:
        text = content.strip()
        if text.startswith(state.closer) and not text.strip(state.closer[0]):
            return blank(line), after
        if not state.language or not code_comments:
            return blank(line), state
        masked, inner = _fence_line(state.language, state.inner, content)
        return head + masked, (state if inner == state.inner else state._replace(inner=inner))
    if state.html_kind <= 5:
        ended = _HTML_ENDS[state.html_kind].search(content)
        return (_raw_html_until(line, start + ended.end()), after) if ended else (blank(line), state)
    if not content.strip():  # ends kinds 6 and 7, but not a raw element (<pre>) open in them:
        return line, (state if state.html_state.in_raw_element else after)  # a browser shows what follows inside it
    masked, inner = html.scan(state.html_state, content)
    return head + masked, (state if inner == state.html_state else state._replace(html_state=inner))


def _fence_line(language: str, inner: Hashable, line: str) -> tuple[str, Hashable]:
    """A line of a fenced block masked as ``language`` (``_fence_start``) keeping its
    comments and strings (its prose in a Markdown fence), and its next inner state."""
    if language == MARKDOWN and isinstance(inner, State):
        return scan(inner, line, code_comments=True)
    return code.block_line(language, inner, line, code_comments=True)


def _block_line(state: State, line: str, start: int, depth: int) -> tuple[str, State]:
    """A line outside fences and HTML blocks, its blockquote markers ending at ``start``."""
    in_paragraph = state.block is Block.PARAGRAPH
    list_indent, column, first = state.list_indent, 0, True  # column: where ``start`` is
    while True:
        content = line[start:]
        text = content.lstrip(" \t")
        if not text:
            return line, State(Block.TEXT, list_indent=list_indent)
        indent = column + _columns(content)
        if first and indent < list_indent and not in_paragraph:
            list_indent = 0  # the list item has ended
        relative = indent - (list_indent if indent >= list_indent else column)
        if relative >= 4:
            if not in_paragraph:
                return blank(line), State(Block.TEXT, list_indent=list_indent)  # indented code
            break
        start += len(content) - len(text)
        marker = _LIST_MARKER_RE.match(text)
        if marker is not None:  # a list item: its content starts 1 to 4 spaces after the marker
            after = text[marker.end() :]
            spaces = len(after) - len(after.lstrip(" "))
            list_indent = indent + marker.end() + (spaces if 1 <= spaces <= 4 else 1)
            start, column = start + marker.end(), indent + marker.end()
        elif text.startswith(">"):  # a blockquote inside a list item
            step = 2 if text[1:2] == " " else 1
            start, column = start + step, indent + step
        else:
            break
        in_paragraph, first = False, False
    head, text = line[:start], line[start:]
    opened = _leaf_start(text, in_paragraph, depth, list_indent)
    if opened is not None:
        return head + opened[0], opened[1]
    if not in_paragraph and _REF_DEF_RE.match(text):
        return blank(line), State(Block.TEXT, list_indent=list_indent)
    heading = _HEADING_RE.match(text) is not None
    masked, inline_open = mask_inline(text, state.inline_open if in_paragraph else "", may_continue=not heading)
    block = Block.TEXT if heading else Block.PARAGRAPH
    return head + masked, State(block, list_indent=list_indent, inline_open=inline_open)


def _leaf_start(text: str, in_paragraph: bool, depth: int, list_indent: int) -> tuple[str, State] | None:
    """The masked text and state if ``text`` opens a fence or an HTML block, else None."""
    fence = _FENCE_RE.match(text)
    if fence is not None:
        run = fence.group(1) or fence.group(2)
        info = _INFO_RE.match(text[len(run) :].strip())
        language, inner = _fence_start(info.group(1) if info else None)
        opened = State(Block.FENCE, run, quotes=depth, list_indent=list_indent, language=language, inner=inner)
        return blank(text), opened
    if not text.startswith("<"):
        return None
    for kind, pattern in _HTML_STARTS:
        opener = pattern.match(text)
        if opener is None or (kind == 7 and in_paragraph):
            continue
        opened = State(Block.HTML, html_kind=kind, quotes=depth, list_indent=list_indent)
        if kind <= 5:
            ended = _HTML_ENDS[kind].search(text, 2 if kind == 2 else opener.end())  # <!--> is a whole comment
            if ended is None:
                return blank(text), opened
            return _raw_html_until(text, ended.end()), State(Block.TEXT, list_indent=list_indent)
        masked, inner = html.scan(html.TEXT, text)
        return masked, opened._replace(html_state=inner)
    return None


def _fence_start(language: str | None) -> tuple[str, Hashable]:
    """(the format a fenced block's lines are masked as, its first state): Markdown itself
    for ```` ```markdown ```` (an example of a document: its prose is prose), comments only
    for a fence that names no language, else its language's code (``code.block_start``)."""
    if language is None:
        return code.UNTAGGED, None
    if language.lower() in _MARKDOWN_NAMES:
        return MARKDOWN, START
    return code.block_start(language)


def _raw_html_until(line: str, end: int) -> str:
    """``line`` blanked up to the end of a raw HTML block at ``end``; the HTML after it on the
    line is passed through to the page as it is, so its text is prose."""
    return blank(line[:end]) + html.scan(html.TEXT, line[end:])[0]


def _columns(text: str) -> int:
    """The columns of ``text``'s leading spaces and tabs (a tab to the next multiple of 4)."""
    column = 0
    for char in text:
        if char == " ":
            column += 1
        elif char == "\t":
            column += 4 - column % 4
        else:
            break
    return column


MASKER = Masker(
    "markdown",
    START,
    scan,
    extensions=(".md", ".markdown", ".mdown", ".mkd", ".mdx"),
    language_ids=("markdown",),
    comments=(("<!--", "-->"),),
    literal=lambda state, line: state.block is Block.FENCE,
    code_comments_scan=partial(scan, code_comments=True),
)
