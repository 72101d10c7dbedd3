"""Ignored words: how they are compared, and the dictionary files that hold them.

A dictionary file holds one word a line; ``#`` starts a comment. Words compare
case-insensitively under Turkish rules (I/ı, İ/i), and an ignored word covers its
inflected and apostrophe forms. ``nokta check`` and the language server read the same
files: ``.nokta-words.txt`` (the workspace's) and ``$XDG_CONFIG_HOME/nokta/words.txt``
(the user's).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from ..alphabet import fold_key

log = logging.getLogger(__name__)

WORKSPACE_FILE = ".nokta-words.txt"
MIN_STEM = 3  # an ignored word this long also covers the words it begins (its inflected forms)


def user_dictionary_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "nokta" / "words.txt"


def word_key(word: str) -> str:
    """How ignored words are compared: Turkish lower case folded to ASCII, one apostrophe
    (Istanbul, ISTANBUL and İstanbul are one word)."""
    return fold_key(word).replace("’", "'")


def is_ignored(word: str, ignored: frozenset[str]) -> bool:
    """Whether ``word`` is an ignored word or one of its forms: with an apostrophe suffix
    (Istanbul'da, ISTANBUL'DA) or inflected (kitaplar for kitap)."""
    key = word_key(word)
    return key in ignored or any(key[:end] in ignored for end in range(MIN_STEM, len(key)))


def read_words(path: Path | None) -> set[str]:
    """The words of a dictionary file as ``word_key``s; a missing or unreadable file is empty."""
    if path is None or not path.is_file():
        return set()
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        log.warning("cannot read dictionary %s: %s", path, error)
        return set()
    return {word_key(line.strip()) for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")}
