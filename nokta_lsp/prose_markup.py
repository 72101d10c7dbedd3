"""Prose maskers for LaTeX, HTML and reStructuredText (see ``prose``)."""

from __future__ import annotations

import re

from .prose_util import START, blank, blank_matches, blank_range

# --- HTML ---------------------------------------------------------------------------

_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>|<![A-Za-z][^<>]*>")
_ENTITY_RE = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")
_RAW_TAGS = ("script", "style", "pre", "code", "textarea", "math", "svg")
_RAW_OPEN_RE = re.compile(r"<(" + "|".join(_RAW_TAGS) + r")\b[^>]*>", re.IGNORECASE)


def html_tags(line: str) -> str:
    """Inline tags and entities blanked (for Markdown's inline HTML)."""
    return blank_matches(_ENTITY_RE, blank_matches(_TAG_RE, line))


def html_comment_line(state: str, line: str) -> tuple[str, str]:
    """Blank ``<!-- … -->`` comments that may span lines; state ``comment`` inside one."""
    parts: list[str] = []
    pos = 0
    while True:
        if state == "comment":
            end = line.find("-->", pos)
            if end < 0:
                parts.append(blank(line[pos:]))
                return "".join(parts), "comment"
            parts.append(blank(line[pos : end + 3]))
            pos, state = end + 3, ""
        start = line.find("<!--", pos)
        if start < 0:
            parts.append(html_tags(line[pos:]))
            return "".join(parts), ""
        parts.append(html_tags(line[pos:start]))
        pos, state = start, "comment"


def html(state: str, line: str) -> tuple[str, str]:
    """States: ``""`` text, ``comment``, ``tag`` (inside a multi-line tag), ``raw:NAME``."""
    state = "" if state == START else state
    out, pos = line, 0
    while pos < len(line):
        if state.startswith("raw:"):
            end = line.lower().find("</" + state[4:], pos)
            stop = len(line) if end < 0 else end
            out = blank_range(out, pos, stop)
            state, pos = (state, stop) if end < 0 else ("", end)
            continue
        if state in ("comment", "tag"):
            closer = "-->" if state == "comment" else ">"
            end = line.find(closer, pos)
            stop = len(line) if end < 0 else end + len(closer)
            out = blank_range(out, pos, stop)
            state, pos = (state, stop) if end < 0 else (_after_tag(line, pos, stop), stop)
            continue
        start = line.find("<", pos)
        if start < 0:
            out = out[:pos] + blank_matches(_ENTITY_RE, out[pos:])
            break
        out = out[:pos] + blank_matches(_ENTITY_RE, out[pos:start]) + out[start:]
        state = "comment" if line.startswith("<!--", start) else "tag"
        pos = start
    return out, state


def _after_tag(line: str, start: int, stop: int) -> str:
    """State after a tag ending at ``stop``: raw text follows <script>, <pre>, …."""
    opening = _RAW_OPEN_RE.search(line, max(0, line.rfind("<", 0, stop - 1)), stop)
    return "raw:" + opening.group(1).lower() if opening else ""


# --- LaTeX --------------------------------------------------------------------------

_MATH_ENVS = (
    r"equation|align|alignat|gather|multline|flalign|eqnarray|math|displaymath"
    r"|verbatim|lstlisting|minted|comment|tikzpicture"
)
_NO_PROSE_ARG = (
    r"label|ref|eqref|pageref|autoref|cref|Cref|cite\w*|usepackage|documentclass|input|include|"
    r"includegraphics|url|href|bibliography\w*|bibliographystyle|newcommand|renewcommand|"
    r"providecommand|newenvironment|def|begin|end|setlength|addtolength|hspace|vspace|color|"
    r"textcolor|pagestyle|thispagestyle|geometry|hypersetup|lstinline|verb|texttt|nolinkurl"
)
_LATEX_TOKEN_RE = re.compile(
    r"(?P<comment>(?<!\\)%.*)"
    r"|(?P<env>\\begin\{(?P<name>(?:" + _MATH_ENVS + r")\*?)\})"
    r"|(?P<open>\$\$|\$|\\\(|\\\[)"
    r"|(?P<skip>\\(?:" + _NO_PROSE_ARG + r")\*?(?:\[[^\]]*\])*(?:\{[^{}]*\})?)"
    r"|(?P<cmd>\\[A-Za-z@]+\*?(?:\[[^\]]*\])?|\\.)"
    r"|(?P<brace>[{}])"
)
_CLOSERS = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}


def latex(state: str, line: str) -> tuple[str, str]:
    """States: ``""`` prose, ``math:CLOSER`` inside math or a verbatim environment."""
    state = "" if state == START else state
    out, pos = line, 0
    while pos < len(line):
        if state.startswith("math:"):
            closer = state[5:]
            end = _find_unescaped(line, closer, pos)
            stop = len(line) if end < 0 else end + len(closer)
            out = blank_range(out, pos, stop)
            state, pos = (state, stop) if end < 0 else ("", stop)
            continue
        token = _LATEX_TOKEN_RE.search(line, pos)
        if token is None:
            break
        out = blank_range(out, token.start(), token.end())
        pos = token.end()
        if token.group("env"):
            state = "math:\\end{" + token.group("name") + "}"
        elif token.group("open"):
            state = "math:" + _CLOSERS[token.group("open")]
    return out, state


def _find_unescaped(line: str, needle: str, start: int) -> int:
    pos = line.find(needle, start)
    while pos > 0 and line[pos - 1] == "\\" and needle.startswith("$"):
        pos = line.find(needle, pos + 1)
    return pos


# --- reStructuredText ---------------------------------------------------------------

_RST_EXPLICIT_RE = re.compile(r"^(\s*)\.\.(?:\s|$)")
_RST_PROSE_DIRECTIVE_RE = re.compile(
    r"^\s*\.\.\s+(note|warning|tip|hint|important|caution|attention|danger|error|admonition|"
    r"seealso|topic|sidebar|rubric|epigraph|highlights|pull-quote|versionadded|versionchanged|deprecated)::"
)
_RST_INLINE_RE = re.compile(
    r"``.+?``"
    r"|:(?:code|math|file|samp|kbd|command|envvar|option|program|func|class|meth|mod|attr|data|"
    r"const|exc|obj|ref|doc|download|numref|term|py:\w+|c:\w+|cpp:\w+|js:\w+)?:?`[^`]*`"
    r"|:[\w:+-]+:(?=`)|<[^<>\s]+>(?=`_)|\|[^|\s][^|]*\|_{0,2}|^\s*:[\w\s-]+:(?=\s|$)"
)


def rst(state: str, line: str) -> tuple[str, str]:
    """States: ``""`` prose, ``lit:N`` inside a literal block indented deeper than N."""
    state = "" if state == START else state
    indent = len(line) - len(line.lstrip())
    if state.startswith("lit:"):
        if not line.strip() or indent > int(state[4:]):
            return blank(line), state
        state = ""
    explicit = _RST_EXPLICIT_RE.match(line)
    if explicit:
        if _RST_PROSE_DIRECTIVE_RE.match(line):
            head = line.index("::") + 2
            return blank(line[:head]) + _rst_inline(line[head:]), ""
        return blank(line), f"lit:{indent}"
    masked = _rst_inline(line)
    if line.rstrip().endswith("::"):
        return masked, f"lit:{indent}"
    return masked, ""


def _rst_inline(text: str) -> str:
    return blank_matches(_RST_INLINE_RE, text)
