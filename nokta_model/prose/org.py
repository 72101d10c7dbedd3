"""Org mode: source/example/export blocks, #+keywords, drawers, verbatim and link targets blanked."""

from __future__ import annotations

import enum
import re

from .base import Masker, blank, blank_matches

_BEGIN_RE = re.compile(r"^\s*#\+begin_(src|example|export|latex|html)\b", re.IGNORECASE)
_END_RE = re.compile(r"^\s*#\+end_", re.IGNORECASE)
_INLINE_RE = re.compile(r"(?<!\w)[=~][^\s=~][^=~]*?[=~](?!\w)|\[\[[^\]]*\]|(?<=\])\]")


class State(enum.Enum):
    TEXT = enum.auto()
    BLOCK = enum.auto()  # inside #+begin_src … #+end_src (and example, export, …)


def scan(state: State, line: str) -> tuple[str, State]:
    if state is State.BLOCK:
        return blank(line), (State.TEXT if _END_RE.match(line) else State.BLOCK)
    if _BEGIN_RE.match(line):
        return blank(line), State.BLOCK
    if line.lstrip().startswith(("#+", ":")):
        return blank(line), State.TEXT
    return blank_matches(_INLINE_RE, line), State.TEXT


MASKER = Masker("org", State.TEXT, scan, extensions=(".org",), language_ids=("org",))
