"""In-file directives and ignore patterns, as a layer over any format's masker.

A directive is a comment of the format on a line of its own (in plain text, the line
itself), as each ``Masker.comments`` lists them (``<!-- nokta: disable -->`` in
Markdown and HTML, ``% nokta: disable`` in LaTeX, ``.. nokta: disable`` in
reStructuredText, ``# nokta: disable`` or ``// nokta: disable`` in code…):

- ``nokta: disable`` … ``nokta: enable``: the lines between are left alone;
- ``nokta: disable-next-line``: the next line is left alone;
- ``nokta: ignore WORD…``: the words are accepted as typed in the whole file (the layer
  only reports them on their line, ``line_ignores``: the caller decides how far they reach).

A directive inside a code block of a document (a Markdown fence, a reStructuredText
literal block, ``Masker.literal``) is an example, not a directive. Text matching an
ignore pattern (a configuration's ``ignore-regex``) is left alone wherever it is. All
of it is masked line by line in a state carried to the next line, as the format's own:
``nokta restore`` streams, and the server re-derives only the lines an edit touched.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

from .base import Masker, blank

COMMANDS = ("disable-next-line", "disable", "enable", "ignore")  # the longest first: a regex alternation
_WORDS_RE = re.compile(r"[^\s,]+")


class Directive(NamedTuple):
    command: str
    words: tuple[str, ...] = ()  # ``ignore``'s


class RuleState(NamedTuple):  # a tuple: built and hashed in C, once per line
    inner: Hashable  # the format's state
    disabled: bool = False  # between ``nokta: disable`` and ``nokta: enable``
    skip: bool = False  # the line after ``nokta: disable-next-line``
    ignores: tuple[str, ...] = ()  # the words the line before named in ``nokta: ignore``


def directive_pattern(opener: str, closer: str) -> str:
    """A directive in a comment from ``opener`` to ``closer`` ("" to the end of the line;
    both "": the line itself), alone on its line."""
    prefix = f"(?:{re.escape(opener)})+" if opener and not closer else re.escape(opener)
    return (
        rf"[ \t]*{prefix}[ \t]*nokta:[ \t]*(?P<command>{'|'.join(COMMANDS)})(?P<words>(?:[ \t]+[^ \t]+?)*?)"
        rf"[ \t]*{re.escape(closer)}[ \t]*"
    )


@dataclass(frozen=True)
class RuleScan:
    """A format's scan with the directives and the ignore patterns applied (a ``Scan``:
    compared and hashed by value, so a masker built twice is the same masker)."""

    masker: Masker  # the format's: its scan, comments and code blocks
    ignore_regex: tuple[str, ...] = ()
    _directives: tuple[re.Pattern[str], ...] = field(init=False, compare=False, repr=False)
    _ignored: tuple[re.Pattern[str], ...] = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        patterns = tuple(re.compile(directive_pattern(*comment)) for comment in self.masker.comments)
        object.__setattr__(self, "_directives", patterns)
        object.__setattr__(self, "_ignored", tuple(re.compile(pattern) for pattern in self.ignore_regex))
        object.__setattr__(self, "_hash", hash((self.masker, self.ignore_regex)))

    def __hash__(self) -> int:  # asked for every line masked (``Masker.mask_line``'s cache)
        return self._hash

    def __call__(self, state: RuleState, line: str) -> tuple[str, RuleState]:
        masked, inner = self.masker.scan(state.inner, line)
        if "nokta:" in line:
            found = self.directive(state.inner, line)
            if found is not None:
                disabled = {"disable": True, "enable": False}.get(found.command, state.disabled)
                return blank(line), RuleState(inner, disabled, found.command == "disable-next-line", found.words)
        if state.disabled or state.skip:
            masked = blank(line)
        elif self._ignored:
            for pattern in self._ignored:
                masked = _blank_matches_of(pattern, line, masked)
        if inner is state.inner and not state.skip and not state.ignores:
            return masked, state  # the usual line: no new state to build
        return masked, RuleState(inner, state.disabled)

    def directive(self, state: Hashable, line: str) -> Directive | None:
        """The directive ``line`` is, in the format's ``state`` before it, if any."""
        literal = self.masker.literal
        if literal is not None and literal(state, line):
            return None
        for pattern in self._directives:
            match = pattern.fullmatch(line)
            if match:
                return Directive(match.group("command"), tuple(_WORDS_RE.findall(match.group("words"))))
        return None


def _blank_matches_of(pattern: re.Pattern[str], line: str, masked: str) -> str:
    """``masked`` with the spans where ``pattern`` matches ``line`` blanked."""
    for match in pattern.finditer(line):
        start, end = match.span()
        masked = masked[:start] + blank(line[start:end]) + masked[end:]
    return masked


@lru_cache(maxsize=256)
def with_rules(masker: Masker, ignore_regex: tuple[str, ...] = ()) -> Masker:
    """``masker`` reading directives and leaving text that matches ``ignore_regex`` alone
    (regular expressions, checked by ``nokta_model.config``)."""
    if isinstance(masker.scan, RuleScan):
        raise ValueError(f"{masker.name}: the masker reads directives already")
    return replace(masker, start=RuleState(masker.start), scan=RuleScan(masker, ignore_regex))


def line_ignores(state: Hashable) -> tuple[str, ...]:
    """The words a ``nokta: ignore`` directive named on the line that left ``state``."""
    return state.ignores if isinstance(state, RuleState) else ()


def document_ignores(masker: Masker, lines: Iterable[str]) -> frozenset[str]:
    """Every word a ``nokta: ignore`` directive of the document names, in one pass over its
    lines (``masker`` from ``with_rules``: a directive is read in the format's state)."""
    words: set[str] = set()
    state = masker.start
    for line in lines:
        _, state = masker.mask_line(state, line)
        words.update(line_ignores(state))
    return frozenset(words)
