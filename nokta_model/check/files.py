"""``nokta check``: the findings of files, with the language server's checker and defaults
(thresholds, prose and format handling, ignored words)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..pipeline import decode_text
from ..prose import format_for_path, masker_for
from ..restorer import Restorer
from .findings import CheckOptions, SuggestionCache, check
from .report import FileFinding
from .words import WORKSPACE_FILE, read_words, user_dictionary_path, word_key

#: Line ends as the language server splits a document (LF, CRLF, CR), so columns agree.
_LINE_END_RE = re.compile(r"\r\n|\r|\n")
STDIN_NAME = "-"


def ignored_words(dictionary: Path | None, words: Iterable[str]) -> frozenset[str]:
    """``words``, the dictionary file (default: ``.nokta-words.txt`` here, as a workspace's)
    and the user's dictionary, as the server's ignored words."""
    found = read_words(dictionary or Path(WORKSPACE_FILE)) | read_words(user_dictionary_path())
    return frozenset(found | {word_key(word) for word in words})


def document_lines(data: bytes, name: str) -> list[str]:
    """A file's lines as the server sees them; NoktaError for bytes that are not UTF-8 text."""
    return _LINE_END_RE.split(decode_text(data, name))


def file_findings(
    name: str, data: bytes, format_name: str, restorer: Restorer, options: CheckOptions
) -> Iterator[FileFinding]:
    """The findings of one file's bytes; ``format_name`` ``auto`` picks the format by its name."""
    chosen = format_for_path(name) if format_name == "auto" and name != STDIN_NAME else format_name
    masker = masker_for("plain" if chosen == "auto" else chosen)
    for finding in check(document_lines(data, name), masker, restorer, SuggestionCache(), options):
        yield FileFinding(name, finding)
