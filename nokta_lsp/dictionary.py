"""Words the user told nokta to leave alone: settings, dictionary files, this session.

Scopes: ``document`` (kept in memory for the session, so a document closed and opened
again keeps its words), ``workspace`` (the file
in ``dictionaryPath``, else ``.nokta-words.txt`` in the workspace root) and ``user``
(``$XDG_CONFIG_HOME/nokta/words.txt``). Files hold one word a line; ``#`` starts a
comment. How words match, and reading the files: ``nokta_model.check.words``.
"""

from __future__ import annotations

import os
from pathlib import Path

from nokta_model.check.words import WORKSPACE_FILE, read_words, user_dictionary_path, word_key

SCOPES = ("document", "workspace", "user")


def workspace_dictionary_path(dictionary_path: str, root: str | None) -> Path | None:
    if dictionary_path:
        path = Path(os.path.expanduser(dictionary_path))
        return path if path.is_absolute() or root is None else Path(root) / path
    return Path(root) / WORKSPACE_FILE if root else None


def add_word(path: Path, word: str) -> None:
    """Append ``word`` to a dictionary file, creating it (and its folder) when needed."""
    if word_key(word) in read_words(path):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    existing = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    separator = "" if not existing or existing.endswith("\n") else "\n"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"{separator}{word}\n")


class Dictionary:
    """Every ignored word: settings + workspace file + user file + per-document words."""

    def __init__(self) -> None:
        self.from_settings: set[str] = set()
        self.workspace_path: Path | None = None
        self.files: set[str] = set()
        self.per_document: dict[str, set[str]] = {}

    def configure(self, ignore_words: tuple[str, ...], dictionary_path: str, root: str | None) -> None:
        self.from_settings = {word_key(word) for word in ignore_words}
        self.workspace_path = workspace_dictionary_path(dictionary_path, root)
        self.reload()

    def reload(self) -> None:
        self.files = read_words(self.workspace_path) | read_words(user_dictionary_path())

    def words_for(self, uri: str) -> frozenset[str]:
        return frozenset(self.from_settings | self.files | self.per_document.get(uri, set()))

    def add(self, word: str, scope: str, uri: str) -> str:
        """Ignore ``word`` in ``scope``; returns where it was recorded."""
        if scope == "document":
            self.per_document.setdefault(uri, set()).add(word_key(word))
            return "this document"
        path = user_dictionary_path() if scope == "user" else self.workspace_path
        if path is None:
            raise ValueError("no workspace folder is open: cannot write a workspace dictionary")
        add_word(path, word)
        self.reload()
        return str(path)
