"""Git commit messages: comments, trailers and the verbose diff blanked; inline code blanked."""

from __future__ import annotations

import enum
import re

from .base import Masker, blank, blank_matches

_INLINE_CODE_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_TRAILER_RE = re.compile(r"^[A-Za-z][A-Za-z-]*: .*<[^>]*@[^>]*>\s*$")


class State(enum.Enum):
    MESSAGE = enum.auto()
    DIFF = enum.auto()  # after ``diff --git`` or the scissors line: the rest is not prose


def scan(state: State, line: str) -> tuple[str, State]:
    if state is State.DIFF or line.startswith("diff --git ") or (">8" in line and line.startswith("#")):
        return blank(line), State.DIFF
    if line.startswith("#") or _TRAILER_RE.match(line):
        return blank(line), State.MESSAGE
    return blank_matches(_INLINE_CODE_RE, line), State.MESSAGE


MASKER = Masker(
    "gitcommit",
    State.MESSAGE,
    scan,
    filenames=("COMMIT_EDITMSG", "MERGE_MSG", "TAG_EDITMSG", "SQUASH_MSG"),
    language_ids=("gitcommit", "git-commit"),  # git-commit: VS Code's and Helix's name
    comments=(("#", ""),),
    literal=lambda state, line: state is State.DIFF,
)
