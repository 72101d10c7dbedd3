"""Comments and string literals of code files.

Languages are grouped into families by their comment syntax; within a family one
scanner keeps only comment and string contents (escape sequences and format
placeholders blanked) and carries block comments and multi-line strings to the next
line in its state. Each family is a format of its own: ``code-c``, ``code-hash``, ….
"""

from __future__ import annotations

import enum
import re
from collections.abc import Hashable
from dataclasses import dataclass
from functools import partial

from .base import Masker, blank


@dataclass(frozen=True)
class Family:
    line_comments: tuple[str, ...]
    block: tuple[tuple[str, str], ...]  # (opener, closer) of block comments
    quotes: tuple[str, ...]  # string delimiters, longest first
    language_ids: str
    extensions: str


FAMILIES = {
    "c": Family(
        ("//",),
        (("/*", "*/"),),
        ('"', "'", "`"),
        "c cpp objective-c objective-cpp csharp java javascript javascriptreact typescript typescriptreact go rust "
        "kotlin swift scala dart php groovy css scss less jsonc zig solidity cuda glsl hlsl proto verilog",
        ".c .h .cc .cpp .cxx .hpp .hh .cs .java .js .mjs .cjs .jsx .ts .tsx .go .rs .kt .kts .swift .scala .dart "
        ".php .groovy .css .scss .less .jsonc .zig .sol .cu .glsl .hlsl .proto .sv",
    ),
    "hash": Family(
        ("#",),
        (),
        ('"""', "'''", '"', "'"),
        "python shellscript bash sh zsh fish ruby perl r yaml toml makefile dockerfile powershell elixir julia nim "
        "coffeescript cmake properties ini crystal tcl awk",
        ".py .pyi .sh .bash .zsh .fish .rb .pl .pm .r .yaml .yml .toml .mk .ps1 .ex .exs .jl .nim .coffee .cmake "
        ".properties .ini .cfg .cr .tcl .awk",
    ),
    "dash": Family(
        ("--",),
        (("--[[", "]]"), ("{-", "-}"), ("/*", "*/")),
        ('"', "'"),
        "lua sql haskell elm ada plsql",
        ".lua .sql .hs .elm .adb .ads",
    ),
    "semicolon": Family(
        (";",), (), ('"',), "clojure lisp scheme racket commonlisp fennel asm", ".clj .cljs .lisp .scm .rkt .fnl .asm"
    ),
    "percent": Family(("%",), (("%{", "%}"),), ('"', "'"), "matlab erlang prolog octave", ".erl .hrl"),
    "xml": Family((), (("<!--", "-->"),), (), "xml xsl xslt svg xaml", ".xml .xsl .xslt .svg .xaml"),
}

_ESCAPE_RE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[0-7]{1,3}|.)")
#: A string literal holding one word and nothing else.
_ONE_WORD_RE = re.compile(r"\s*[^\W\d_][\w'’.-]*\s*")
#: Serialised data inside a string: a quoted key and a colon (JSON, a Python dict's repr).
_DATA_RE = re.compile(r"[\"'][\w-]+[\"']\s*:")
_PLACEHOLDER_RE = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[sdifxXeEgGcrpq%]|\{[^{}\s]*\}|\$\{[^{}]*\}|\$\w+")


class Mode(enum.Enum):
    CODE = enum.auto()
    BLOCK = enum.auto()  # inside a block comment
    STRING = enum.auto()  # inside a string literal


@dataclass(frozen=True)
class State:
    mode: Mode = Mode.CODE
    closer: str = ""  # what ends the block comment or string


CODE = State()


def _keep(text: str, is_string: bool) -> str:
    """Comment text as is; string text with escapes and format placeholders blanked."""
    if not is_string:
        return text
    for pattern in (_ESCAPE_RE, _PLACEHOLDER_RE):
        text = pattern.sub(lambda m: " " * len(m.group()), text)
    return text


def scan(family: Family, state: State, line: str) -> tuple[str, State]:
    out = [" "] * len(line)
    strings: list[tuple[int, int]] = []  # (start, end) of the string literals opened and closed on this line
    pos = 0
    opened_here = False
    while pos < len(line):
        if state.mode is not Mode.CODE:
            in_string = state.mode is Mode.STRING
            end = _find_closer(line, state.closer, pos, in_string)
            stop = len(line) if end < 0 else end
            out[pos:stop] = _keep(line[pos:stop], in_string)
            if end < 0:
                return _without_data_strings(line, out, strings), (state if _spans_lines(state) else CODE)
            if in_string and opened_here and len(state.closer) == 1:
                strings.append((pos, end))
            state, pos = CODE, end + len(state.closer)
            continue
        pos, state, done = _next_opener(family, line, pos, out)
        opened_here = True
        if done:
            break
    return _without_data_strings(line, out, strings), state


def _without_data_strings(line: str, out: list[str], strings: list[tuple[int, int]]) -> str:
    """``out`` with the string literals that hold data rather than prose blanked: a one-word
    key (``"ad":``, ``x["ad"]``) or item of a list of one-word strings (``("tarih",
    "urun")``: names of fields, columns, options), and serialised data (``'{"ad": 1}'``).
    A lone one-word string stays prose (``Button("Iptal")``, a value: ``{"baslik": "Alisveris"}``)."""
    if not strings:
        return "".join(out)
    one_word = [_ONE_WORD_RE.fullmatch(line, start, end) is not None for start, end in strings]
    keys = [word and _is_key(line, start, end) for (start, end), word in zip(strings, one_word, strict=True)]
    listed = [False] * len(strings)
    for index in range(len(strings) - 1):
        between = line[strings[index][1] + 1 : strings[index + 1][0] - 1]
        if one_word[index] and one_word[index + 1] and not keys[index + 1] and between.strip() == ",":
            listed[index] = listed[index + 1] = True
    for (start, end), key, in_list in zip(strings, keys, listed, strict=True):
        if key or in_list or _DATA_RE.search(line, start, end):
            out[start:end] = blank(line[start:end])
    return "".join(out)


def _is_key(line: str, start: int, end: int) -> bool:
    """Whether the string at ``line[start:end]`` (its quotes around it) is a key or a subscript."""
    after = line[end + 1 :].lstrip()
    return after.startswith(":") or (line[: start - 1].rstrip().endswith("[") and after.startswith("]"))


def _spans_lines(state: State) -> bool:
    """Block comments, triple-quoted and template strings go on; a one-quote string ends with its line."""
    return state.mode is Mode.BLOCK or len(state.closer) == 3 or state.closer == "`"


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


def _next_opener(family: Family, line: str, pos: int, out: list[str]) -> tuple[int, State, bool]:
    """Move to the next comment or string opener; returns (position, state, line done)."""
    best: tuple[int, State | None, str] | None = None  # (where, state it opens or None for a line comment, marker)
    for marker in family.line_comments:
        found = line.find(marker, pos)
        if found >= 0 and (best is None or found < best[0]):
            best = (found, None, marker)
    for opener, closer in family.block:
        found = line.find(opener, pos)
        if found >= 0 and (best is None or found < best[0] or (found == best[0] and best[1] is None)):
            best = (found, State(Mode.BLOCK, closer), opener)
    for quote in family.quotes:
        found = line.find(quote, pos)
        if found >= 0 and (best is None or found < best[0]):
            best = (found, State(Mode.STRING, quote), quote)
    if best is None:
        return len(line), CODE, True
    found, opened, marker = best
    start = found + len(marker)
    if opened is None:
        out[start:] = line[start:]
        return len(line), CODE, True
    return start, opened, False


MASKERS = {
    f"code-{name}": Masker(
        f"code-{name}",
        CODE,
        partial(scan, family),
        extensions=tuple(family.extensions.split()),
        language_ids=tuple(family.language_ids.split()),
        code=True,
        comments=(*((marker, "") for marker in family.line_comments), *family.block),
        literal=lambda state, line: state.mode is Mode.STRING,  # a multi-line string
    )
    for name, family in FAMILIES.items()
}
#: Names a code block's language goes by besides its editor id and file extension.
_LANGUAGE_ALIASES = {
    "shell": "bash",
    "c++": "cpp",
    "c#": "csharp",
    "golang": "go",
    "python3": "python",
    "py3": "python",
}
_BY_LANGUAGE = {
    name: masker for masker in MASKERS.values() for name in (*masker.language_ids, *(e[1:] for e in masker.extensions))
}
_BY_LANGUAGE |= {alias: _BY_LANGUAGE[name] for alias, name in _LANGUAGE_ALIASES.items()}


def block_start(language: str | None) -> tuple[str, Hashable]:
    """(the format of the code masker of a code block's language as the block names it:
    ``python``, ``js``, ``c++``…; its first state), or ("", None) when no masker knows it."""
    masker = _BY_LANGUAGE.get(language.lower()) if language else None
    return (masker.name, masker.start) if masker else ("", None)


#: The format of a code block that names no language: a line that starts with ``#`` or
#: ``//`` and a space is a comment (shell, configuration files, most languages), the rest code.
UNTAGGED = "code-untagged"
_UNTAGGED_COMMENT_RE = re.compile(r"[ \t]*(?:#|//)[ \t]")


def block_line(language: str, inner: Hashable, line: str, code_comments: bool) -> tuple[str, Hashable]:
    """A line inside a document's code block, with the block's next inner state.

    The whole line is code (``restore`` never changes a code block) unless
    ``code_comments``: then it is masked as its language's code, keeping comments and
    strings (``language`` as ``block_start`` gave it, or ``UNTAGGED``; "" when no masker
    knows it: the whole line is code all the same)."""
    if not code_comments or not language:
        return blank(line), inner
    if language == UNTAGGED:
        comment = _UNTAGGED_COMMENT_RE.match(line)
        return (blank(line[: comment.end()]) + line[comment.end() :] if comment else blank(line)), inner
    return MASKERS[language].scan(inner, line)
