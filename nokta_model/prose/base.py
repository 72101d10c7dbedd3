"""The ``Masker`` type and the helpers every format shares.

A masker turns one line into the same-length line with its non-prose characters
(markup, code, link targets, math, …) replaced by spaces, so an offset in the masked
line is the same offset in the real line. Constructs that span lines (fences, block
comments, math) are carried to the next line in a typed, hashable state. A masked
token that a suffix follows after an apostrophe (`Django`'nun, @nzakas'ın) keeps a
stand-in for how it is read (``spans.BACK_STEM``, ``spans.FRONT_STEM``), so the
restorer spells the suffix in harmony with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from nokta_model.reading import identifier_back
from nokta_model.spans import BACK_STEM, FRONT_STEM

#: One line in a state -> (the masked line, the state the next line starts in).
Scan = Callable[[Any, str], "tuple[str, Any]"]

# @mentions and #hashtags are names, not words: never changed. A hashtag is an
# identifier on the platform it links to (#Istanbul and #İstanbul are different tags),
# so restoring one would break the link. E-mail addresses (a@b) and C# do not match.
_SOCIAL_RE = re.compile(r"(?<![\w@#&/])[@#]\w(?:[\w.-]*\w)?")
# URLs and e-mail addresses stay byte for byte in every format: blanked here, before the
# language guard can cut one into pieces that look like words (``com/guzel-bir-sayfa``).
_URL_END = r"[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]"  # a URL's closing bracket or full stop is the sentence's
_URL_RE = re.compile(rf"(?:\b[a-zA-Z][a-zA-Z0-9+.-]*://|\b[wW]{{3}}\.|\bmailto:){_URL_END}")
# A host name without a scheme, followed by a path: github.com/ali/guzel-proje.
_HOST_PATH_RE = re.compile(rf"(?<![\w@/.-])(?:[A-Za-z0-9-]+\.)+[A-Za-z]{{2,}}(?::\d+)?/(?:{_URL_END})?")
_EMAIL_RE = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]*\w")
#: An apostrophe glued to the letters of a suffix and to a word, number or closing mark
#: before it (not to an opening bracket or an operator: print('merhaba'), x='ad').
_SUFFIX_APOSTROPHE_RE = re.compile(r"(?<=[\w`)\]\"”»])['’](?=[^\W\d_])")
_TRAILING_MARKS_RE = re.compile(r"[^\w]+$")  # `Django` -> Django, (README) -> README


@dataclass(frozen=True)
class Masker:
    """How one format's prose is found. Hashable: the server keys caches by it."""

    name: str
    start: Hashable  # the state of a document's first line
    scan: Scan
    extensions: tuple[str, ...] = ()  # lower case, with the dot
    filenames: tuple[str, ...] = ()  # whole file names (COMMIT_EDITMSG)
    language_ids: tuple[str, ...] = ()  # LSP / editor language ids
    code: bool = False  # comments and strings of a programming language
    #: The comments directives are read in (``directives``): (opener, closer), closer ""
    #: for a comment to the end of the line, ("", "") for a line of its own as text.
    comments: tuple[tuple[str, str], ...] = ()
    #: Whether a line, in the state before it, is a code block's (a directive there is an example).
    literal: Callable[[Any, str], bool] | None = None
    #: A document format's scan that keeps the comments and strings of its code blocks
    #: (``with_code_comments``); None for a format without code blocks. ``scan`` leaves
    #: every code block whole: what ``restore`` changes never includes one.
    code_comments_scan: Scan | None = None

    def mask_line(self, state: Hashable, line: str) -> tuple[str, Hashable]:
        """One line masked, given the state the line before left (``start`` for the first)."""
        return _mask_line(self.scan, state, line, not self.code)

    def mask_lines(self, lines: Sequence[str]) -> list[str]:
        """Every line with its non-prose characters blanked (same length per line)."""
        state = self.start
        masked: list[str] = []
        for line in lines:
            out, state = self.mask_line(state, line)
            masked.append(out)
        return masked


@lru_cache(maxsize=4096)
def _mask_line(scan: Scan, state: Hashable, line: str, standins: bool) -> tuple[str, Hashable]:
    """``standins``: whether masked tokens get stand-ins; not in a programming language,
    where an apostrophe after code opens a string (f'kullanici adi')."""
    masked, after = scan(state, line)
    masked = mask_social(mask_links(masked))
    return (with_stem_standins(line, masked) if standins else masked), after


def with_stem_standins(line: str, masked: str) -> str:
    """``masked`` with the last character of each wholly masked token that a suffix
    follows replaced by the stand-in for how the token is read (back or front vowels:
    ``reading.identifier_back``); a token read no settled way stays blank."""
    if masked == line or ("'" not in line and "’" not in line):
        return masked
    for apostrophe in _SUFFIX_APOSTROPHE_RE.finditer(line):
        at = apostrophe.start()
        start = max(line.rfind(" ", 0, at), line.rfind("\t", 0, at)) + 1
        if masked[at] == line[at] and masked[start:at].isspace():
            back = identifier_back(_TRAILING_MARKS_RE.sub("", line[start:at]))
            if back is not None:
                masked = masked[: at - 1] + (BACK_STEM if back else FRONT_STEM) + masked[at:]
    return masked


def mask_links(line: str) -> str:
    """``line`` with URLs and e-mail addresses blanked."""
    if "://" in line or "mailto:" in line or "www." in line or "WWW." in line:
        line = blank_matches(_URL_RE, line)
    if "/" in line:
        line = blank_matches(_HOST_PATH_RE, line)
    return blank_matches(_EMAIL_RE, line) if "@" in line else line


def mask_social(line: str) -> str:
    """``line`` with @mentions and #hashtags blanked."""
    if "@" not in line and "#" not in line:
        return line
    return blank_matches(_SOCIAL_RE, line)


def blank(text: str) -> str:
    """Spaces of the same length (tabs kept, so nothing shifts visually either)."""
    return "".join("\t" if ch == "\t" else " " for ch in text) if "\t" in text else " " * len(text)


def blank_matches(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with every match of ``pattern`` blanked."""
    return pattern.sub(lambda match: blank(match.group()), text)


def blank_range(text: str, start: int, end: int) -> str:
    return text[:start] + blank(text[start:end]) + text[end:]
