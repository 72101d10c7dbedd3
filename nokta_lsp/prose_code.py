"""Comments and string literals of code files (the ``checkCodeComments`` option).

Languages are grouped into families by their comment syntax; within a family one
scanner keeps only comment and string contents (escape sequences blanked) and carries
block comments and multi-line strings to the next line in its state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .prose_util import START


@dataclass(frozen=True)
class Family:
    line_comments: tuple[str, ...]
    block: tuple[tuple[str, str], ...]  # (opener, closer) of block comments
    quotes: tuple[str, ...]  # string delimiters, longest first


FAMILIES = {
    "c": Family(("//",), (("/*", "*/"),), ('"', "'", "`")),
    "hash": Family(("#",), (), ('"""', "'''", '"', "'")),
    "dash": Family(("--",), (("--[[", "]]"), ("{-", "-}"), ("/*", "*/")), ('"', "'")),
    "semicolon": Family((";",), (), ('"',)),
    "percent": Family(("%",), (("%{", "%}"),), ('"', "'")),
}

_LANGUAGES = {
    "c": "c cpp objective-c objective-cpp csharp java javascript javascriptreact typescript "
    "typescriptreact go rust kotlin swift scala dart php groovy css scss less jsonc zig "
    "solidity cuda glsl hlsl proto verilog",
    "hash": "python shellscript bash sh zsh fish ruby perl r yaml toml makefile dockerfile "
    "powershell elixir julia nim coffeescript cmake properties ini crystal tcl awk",
    "dash": "lua sql haskell elm ada plsql",
    "semicolon": "clojure lisp scheme racket commonlisp fennel asm",
    "percent": "matlab erlang prolog octave",
}
_FAMILY_OF = {language: family for family, names in _LANGUAGES.items() for language in names.split()}

_ESCAPE_RE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[0-7]{1,3}|.)")
_PLACEHOLDER_RE = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[sdifxXeEgGcrpq%]|\{[^{}\s]*\}|\$\{[^{}]*\}")


def family_of(language_id: str) -> str | None:
    family = _FAMILY_OF.get(language_id)
    return f"code:{family}" if family else None


def masker(name: str):
    family = FAMILIES[name.split(":", 1)[1]]
    return lambda state, line: scan(family, state, line)


def _keep(text: str, is_string: bool) -> str:
    """Comment text as is; string text with escapes and format placeholders blanked."""
    if not is_string:
        return text
    for pattern in (_ESCAPE_RE, _PLACEHOLDER_RE):
        text = pattern.sub(lambda m: " " * len(m.group()), text)
    return text


def scan(family: Family, state: str, line: str) -> tuple[str, str]:
    """States: ``""`` code, ``block:CLOSER`` in a block comment, ``str:QUOTE`` in a string."""
    state = "" if state == START else state
    out = [" "] * len(line)
    pos = 0
    while pos < len(line):
        if state:
            kind, closer = state.split(":", 1)
            end = _find_closer(line, closer, pos, kind == "str")
            stop = len(line) if end < 0 else end
            out[pos:stop] = _keep(line[pos:stop], kind == "str")
            if end < 0:
                # A one-character quote never spans lines: the string ends with the line.
                return "".join(out), (state if kind == "block" or len(closer) == 3 or closer == "`" else "")
            state, pos = "", end + len(closer)
            continue
        pos, state, done = _next_opener(family, line, pos, out)
        if done:
            break
    return "".join(out), state


def _find_closer(line: str, closer: str, start: int, in_string: bool) -> int:
    pos = start
    while True:
        end = line.find(closer, pos)
        if end < 0 or not in_string or not _escaped(line, end):
            return end
        pos = end + 1


def _escaped(line: str, pos: int) -> bool:
    backslashes = 0
    while pos - backslashes - 1 >= 0 and line[pos - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _next_opener(family: Family, line: str, pos: int, out: list[str]) -> tuple[int, str, bool]:
    """Move to the next comment or string opener; returns (position, state, line done)."""
    best: tuple[int, str, str] | None = None
    for marker in family.line_comments:
        found = line.find(marker, pos)
        if found >= 0 and (best is None or found < best[0]):
            best = (found, "line", marker)
    for opener, closer in family.block:
        found = line.find(opener, pos)
        if found >= 0 and (best is None or found < best[0] or (found == best[0] and best[1] == "line")):
            best = (found, "block:" + closer, opener)
    for quote in family.quotes:
        found = line.find(quote, pos)
        if found >= 0 and (best is None or found < best[0]):
            best = (found, "str:" + quote, quote)
    if best is None:
        return len(line), "", True
    found, kind, marker = best
    start = found + len(marker)
    if kind == "line":
        out[start:] = line[start:]
        return len(line), "", True
    return start, kind, False
