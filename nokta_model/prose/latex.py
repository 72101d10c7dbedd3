"""LaTeX: commands, comments, math and verbatim environments blanked; prose arguments kept.

``\\textbf{cok guzel}`` keeps ``cok guzel``; arguments that are never prose (labels,
references, citations, URLs, package names, ``\\texttt``) are blanked with their command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Masker, blank_range

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
_TOKEN_RE = re.compile(
    r"(?P<comment>(?<!\\)%.*)"
    r"|(?P<env>\\begin\{(?P<name>(?:" + _MATH_ENVS + r")\*?)\})"
    r"|(?P<open>\$\$|\$|\\\(|\\\[)"
    # inline code: \verb|x|, \lstinline!x!, \mintinline{python}{x} (any delimiter, or braces)
    r"|\\(?:verb\*?|lstinline|mintinline\{[^{}]*\})(?:\[[^\]]*\])?(?:\{[^{}]*\}|(?P<delim>[^\w\s{\[])(?:(?!(?P=delim)).)*(?P=delim))"
    r"|(?P<skip>\\(?:" + _NO_PROSE_ARG + r")\*?(?:\[[^\]]*\])*(?:\{[^{}]*\})?)"
    r"|(?P<cmd>\\[A-Za-z@]+\*?(?:\[[^\]]*\])?|\\.)"
    r"|(?P<brace>[{}])"
)
_CLOSERS = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}


@dataclass(frozen=True)
class State:
    math_closer: str = ""  # what ends the math or verbatim text we are in ("" in prose)


PROSE = State()


def scan(state: State, line: str) -> tuple[str, State]:
    out, pos = line, 0
    while pos < len(line):
        if state.math_closer:
            closer = state.math_closer
            end = _find_unescaped(line, closer, pos)
            stop = len(line) if end < 0 else end + len(closer)
            out = blank_range(out, pos, stop)
            state, pos = (state, stop) if end < 0 else (PROSE, stop)
            continue
        token = _TOKEN_RE.search(line, pos)
        if token is None:
            break
        out = blank_range(out, token.start(), token.end())
        pos = token.end()
        if token.group("env"):
            state = State("\\end{" + token.group("name") + "}")
        elif token.group("open"):
            state = State(_CLOSERS[token.group("open")])
    return out, state


def _find_unescaped(line: str, needle: str, start: int) -> int:
    pos = line.find(needle, start)
    while pos > 0 and line[pos - 1] == "\\" and needle.startswith("$"):
        pos = line.find(needle, pos + 1)
    return pos


MASKER = Masker(
    "latex",
    PROSE,
    scan,
    extensions=(".tex", ".ltx", ".sty", ".cls", ".bib"),
    language_ids=("latex", "tex", "plaintex", "bibtex"),  # plaintex: Neovim's .tex without \documentclass
    comments=(("%", ""),),
    literal=lambda state, line: bool(state.math_closer),  # math, verbatim, lstlisting, …
)
