"""A repository's nokta configuration: ``.nokta.toml``, ``nokta.toml`` or ``[tool.nokta]``
in ``pyproject.toml``, the nearest one above a file (a ``pyproject.toml`` without
``[tool.nokta]`` does not count; the search stops at the filesystem root)::

    from nokta_model.config import ConfigCache

    configs = ConfigCache()
    config = configs.config_for(path)  # Config() when there is none; ConfigError for a broken one
    if not config.excludes(path):
        ...

``nokta check``, ``nokta restore`` (and so the pre-commit hooks) and the language server
read the same file; options given on the command line and editor settings the user set
win over it. The keys are described by ``schema.json`` (shipped in the package for
editors; ``validate`` reads it).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pathspec

from .validate import KEYS, SCHEMA, ConfigError, attribute, validate

__all__ = ["CONFIG_NAMES", "KEYS", "SCHEMA", "Config", "ConfigCache", "ConfigError", "config_for", "find_config"]

#: The names a configuration goes by, in the order they are looked for in each folder.
CONFIG_NAMES = (".nokta.toml", "nokta.toml", "pyproject.toml")
PYPROJECT = "pyproject.toml"
_PYPROJECT_TABLE = ("tool", "nokta")
_MENTIONS_TABLE_RE = re.compile(r"tool\s*\.\s*[\"']?nokta\b")
_TOML_POSITION_RE = re.compile(r"\s*\(at (?:line (\d+), column \d+|end of document)\)$")


@dataclass(frozen=True)
class Config:
    """One configuration file's values; None (or empty) where the file does not set a key."""

    path: Path | None = None  # the file read (absolute); None: no configuration applies
    words: tuple[str, ...] = ()
    ignore_regex: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    confidence_threshold: float | None = None
    strict_confidence_threshold: float | None = None
    autocorrect: tuple[str, ...] | None = None
    autocorrect_threshold: float | None = None

    def value(self, key: str) -> Any:
        """The value of a key as the file names it (``confidence-threshold``)."""
        return getattr(self, attribute(key))

    @cached_property
    def exclude_spec(self) -> pathspec.GitIgnoreSpec:
        return pathspec.GitIgnoreSpec.from_lines(self.exclude)

    def excludes(self, path: Path | str) -> bool:
        """Whether the file ``path`` matches ``exclude`` (patterns relative to the
        configuration's folder; a file outside that folder never does)."""
        if not self.exclude or self.path is None:
            return False
        relative = os.path.relpath(os.path.abspath(path), self.path.parent)
        if relative.startswith(os.pardir + os.sep) or relative == os.pardir:
            return False
        return self.exclude_spec.match_file(Path(relative).as_posix())


def find_config(folder: Path | str) -> Path | None:
    """The nearest configuration file in ``folder`` or a folder above it."""
    start = Path(os.path.abspath(folder))
    for directory in (start, *start.parents):
        for name in CONFIG_NAMES:
            candidate = directory / name
            if candidate.is_file() and (name != PYPROJECT or _configures_nokta(candidate)):
                return candidate
    return None


def _configures_nokta(pyproject: Path) -> bool:
    """Whether a pyproject.toml holds ``[tool.nokta]``; ConfigError when it names it and
    cannot be read (a broken file that does not name it is none of nokta's business)."""
    text = _read(pyproject)
    if not _MENTIONS_TABLE_RE.search(text):
        return False
    tool = _parse(pyproject, text).get("tool")
    return isinstance(tool, dict) and "nokta" in tool


def load_config(path: Path | str) -> Config:
    """The configuration in ``path`` (ConfigError naming file, key and line when it is not valid)."""
    path = Path(os.path.abspath(path))
    text = _read(path)
    data = _parse(path, text)
    table_path: tuple[str, ...] = _PYPROJECT_TABLE if path.name == PYPROJECT else ()
    for name in table_path:
        data = data.get(name, {})
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: {'.'.join(table_path)} must be a table")
    return Config(path, **validate(data, text, path, table_path))


def config_for(path: Path | str) -> Config:
    """The configuration of a file (or, for a folder, of the files in it): the nearest
    above it, or ``Config()`` when there is none."""
    folder = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    found = find_config(folder)
    return load_config(found) if found else Config()


class ConfigCache:
    """``config_for`` with the folders looked at and the files read remembered, for a
    process that asks for many files (``forget`` after a configuration file changes)."""

    def __init__(self) -> None:
        self._found: dict[Path, Path | None] = {}
        self._loaded: dict[Path, Config | ConfigError] = {}

    def config_for(self, path: Path | str) -> Config:
        folder = Path(os.path.abspath(path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))))
        if folder not in self._found:
            self._found[folder] = find_config(folder)
        found = self._found[folder]
        if found is None:
            return Config()
        if found not in self._loaded:
            try:
                self._loaded[found] = load_config(found)
            except ConfigError as error:
                self._loaded[found] = error
        loaded = self._loaded[found]
        if isinstance(loaded, ConfigError):
            raise loaded
        return loaded

    def forget(self) -> None:
        self._found.clear()
        self._loaded.clear()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise ConfigError(f"{path}: cannot read it: {reason or error}") from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        position = _TOML_POSITION_RE.search(message)
        line = (position.group(1) or max(text.count("\n"), 1)) if position else None
        where = f"{path}:{line}" if line else str(path)
        raise ConfigError(f"{where}: not valid TOML: {_TOML_POSITION_RE.sub('', message)}") from None
