"""Which parts of a document are Turkish prose; everything else is left as it is.

One masker per format (``FORMATS``: plain, markdown, latex, html, rst, org, asciidoc,
gitcommit, and ``code-*`` for the comments and strings of programming languages)
blanks what is not prose, keeping every line's length (the language of each sentence is
the restorer's to decide: ``nokta_model.codeswitch``). @mentions and #hashtags are
blanked in every format. A document's code blocks (fences, source and literal blocks,
verbatim, ``<pre>``) are code, whole: ``with_code_comments`` gives the server's
``checkCodeComments`` view, where their comments and strings are prose to flag (never
to restore). What is left is the only text a restorer may change::

    from nokta_model import prose
    masker = prose.masker_for(prose.format_for_path("notes.md"))
    editable = prose.mask_lines(masker, lines)  # same lengths; non-prose blanked
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from . import asciidoc, code, gitcommit, html, latex, markdown, org, plain, rst
from .base import Masker, blank
from .directives import RuleScan, document_ignores, line_ignores, with_rules

__all__ = [
    "FORMATS",
    "PLAIN",
    "Masker",
    "blank",
    "document_ignores",
    "format_for_path",
    "line_ignores",
    "mask_lines",
    "masker_for",
    "masker_for_language_id",
    "with_code_comments",
    "with_rules",
]

#: Format name -> masker, document formats first.
FORMATS: dict[str, Masker] = {
    masker.name: masker
    for masker in (
        plain.MASKER,
        markdown.MASKER,
        latex.MASKER,
        html.MASKER,
        rst.MASKER,
        org.MASKER,
        asciidoc.MASKER,
        gitcommit.MASKER,
        *code.MASKERS.values(),
    )
}
PLAIN = plain.MASKER

_BY_FILENAME = {name: masker for masker in FORMATS.values() for name in masker.filenames}
_BY_EXTENSION = {ext: masker for masker in FORMATS.values() for ext in masker.extensions}
_BY_LANGUAGE_ID = {language: masker for masker in FORMATS.values() for language in masker.language_ids}


def masker_for(format_name: str) -> Masker:
    """The masker of a format name; ValueError naming the known formats when there is none."""
    try:
        return FORMATS[format_name]
    except KeyError:
        raise ValueError(f"unknown format {format_name!r}; expected one of {', '.join(FORMATS)}") from None


def format_for_path(path: str) -> str:
    """The format of a file by its name or extension (case-insensitive); ``plain`` when unknown."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if name in _BY_FILENAME:
        return _BY_FILENAME[name].name
    dot = name.rfind(".")
    masker = _BY_EXTENSION.get(name[dot:].lower()) if dot > 0 else None
    return masker.name if masker else PLAIN.name


def masker_for_language_id(language_id: str) -> Masker | None:
    """The masker of an editor's language id (``markdown``, ``plaintex``, ``python``…), if any."""
    return _BY_LANGUAGE_ID.get(language_id)


def mask_lines(masker: Masker | str, lines: Sequence[str]) -> list[str]:
    """Every line with its markup, code and other non-prose characters blanked (same lengths)."""
    return (masker_for(masker) if isinstance(masker, str) else masker).mask_lines(lines)


@lru_cache(maxsize=64)
def with_code_comments(masker: Masker) -> Masker:
    """``masker`` keeping the comments and strings of a document's code blocks as prose
    (the server flags them under ``checkCodeComments``; a restore never uses this masker);
    ``masker`` itself for a format without code blocks. Apply before ``with_rules``."""
    if isinstance(masker.scan, RuleScan):
        raise ValueError(f"{masker.name}: with_code_comments comes before with_rules")
    if masker.code_comments_scan is None:
        return masker
    return replace(masker, scan=masker.code_comments_scan, code_comments_scan=None)
