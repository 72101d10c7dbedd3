"""Words the user told nokta to leave alone: settings, dictionary files, this session.

Scopes: ``document`` (kept in memory for the session, so a document closed and opened
again keeps its words), ``workspace`` (the file in ``dictionaryPath``, else
``.nokta-words.txt``, in the root of the document's workspace folder: each folder of a
multi-root workspace has its own) and ``user`` (``$XDG_CONFIG_HOME/nokta/words.txt``).
Files hold one word a line; ``#`` starts a comment; they are read again when they change
(``reload``). How words match, and reading the files: ``nokta_model.check.words``.
"""

from __future__ import annotations

import os
from pathlib import Path

from nokta_model.check.words import WORKSPACE_FILE, read_words, user_dictionary_path, word_key

SCOPES = ("document", "workspace", "user")


def workspace_dictionary_path(dictionary_path: str, root: Path | str | None) -> Path | None:
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
    """Every ignored word: settings + the document's workspace file + user file + per-document words."""

    def __init__(self) -> None:
        self.from_settings: set[str] = set()
        self.dictionary_path = ""  # the setting: a path, or "" for each root's .nokta-words.txt
        self.user_words: set[str] = set()
        self.workspace_files: dict[Path, set[str]] = {}  # the words of each workspace file read
        self.per_document: dict[str, set[str]] = {}

    def configure(self, ignore_words: tuple[str, ...], dictionary_path: str) -> None:
        self.from_settings = {word_key(word) for word in ignore_words}
        self.dictionary_path = dictionary_path
        self.reload()

    def workspace_path(self, root: Path | None) -> Path | None:
        """The workspace dictionary of the documents under ``root`` (None: no root, no file)."""
        return workspace_dictionary_path(self.dictionary_path, root)

    def reload(self) -> None:
        """Read every dictionary file again (one may have changed)."""
        self.user_words = read_words(user_dictionary_path())
        self.workspace_files = {path: read_words(path) for path in self.workspace_files}

    def words_for(self, uri: str, root: Path | None) -> frozenset[str]:
        """The words ignored in the document ``uri``, whose workspace folder is ``root``."""
        path = self.workspace_path(root)
        if path is not None and path not in self.workspace_files:
            self.workspace_files[path] = read_words(path)
        workspace = self.workspace_files.get(path, set()) if path is not None else set()
        return frozenset(self.from_settings | self.user_words | workspace | self.per_document.get(uri, set()))

    def add(self, word: str, scope: str, uri: str, root: Path | None) -> str:
        """Ignore ``word`` in ``scope`` (for the document ``uri`` in the folder ``root``); returns where."""
        if scope == "document":
            self.per_document.setdefault(uri, set()).add(word_key(word))
            return "this document"
        path = user_dictionary_path() if scope == "user" else self.workspace_path(root)
        if path is None:
            raise ValueError("the document is in no workspace folder: cannot write a workspace dictionary")
        add_word(path, word)
        self.reload()
        return str(path)
