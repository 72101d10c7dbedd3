"""Where a document lives: the workspace folder holding it and its configuration file.

Every workspace folder is a root (``initialize``'s ``workspaceFolders``, else its
``rootUri``; ``workspace/didChangeWorkspaceFolders`` adds and removes them). A document
belongs to the innermost root holding it (none for a file outside every root, or one
that is not a file); its configuration is the nearest above it, wherever it is
(``nokta_model.config``, as ``nokta check`` finds it). A configuration that cannot be
read counts as none, with one warning per error for the user.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path

from pygls.uris import to_fs_path

from nokta_model.config import Config, ConfigCache, ConfigError

log = logging.getLogger(__name__)


def uri_path(uri: str) -> Path | None:
    """The file a ``file:`` URI names (None for ``untitled:`` and other schemes)."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return Path(path) if path else None


class Workspace:
    """The roots and the configurations of the documents under them (on the event loop)."""

    def __init__(self) -> None:
        self.roots: list[Path] = []
        self.configs = ConfigCache()
        self.warnings: list[str] = []  # configuration errors not shown yet (``take_warnings``)
        self._reported: set[str] = set()

    def set_roots(self, roots: Iterable[str]) -> None:
        """The workspace folders, as paths."""
        self.roots = list(dict.fromkeys(Path(os.path.abspath(root)) for root in roots))

    def root_of(self, uri: str) -> Path | None:
        """The innermost root holding the document, if any."""
        path = uri_path(uri)
        if path is None:
            return None
        holding = [root for root in self.roots if path.is_relative_to(root)]
        return max(holding, key=lambda root: len(root.parts), default=None)

    def config_of(self, uri: str) -> Config:
        """The document's configuration: the nearest file above it, ``Config()`` when there
        is none (or it is not a file); a broken one counts as none, its error reported once."""
        path = uri_path(uri)
        if path is None:
            return Config()
        try:
            return self.configs.config_for(path)
        except ConfigError as error:
            message = f"nokta: {error} (the file is not used until it is fixed)"
            if message not in self._reported:
                self._reported.add(message)
                self.warnings.append(message)
                log.warning("%s", message)
            return Config()

    def excludes(self, uri: str) -> bool:
        """Whether the document's configuration excludes it."""
        path = uri_path(uri)
        return path is not None and self.config_of(uri).excludes(path)

    def forget_configs(self) -> None:
        """Read the configuration files again (one changed): errors are reported anew."""
        self.configs.forget()
        self._reported.clear()

    def take_warnings(self) -> list[str]:
        warnings, self.warnings = self.warnings, []
        return warnings
