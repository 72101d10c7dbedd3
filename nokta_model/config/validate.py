"""A configuration table checked against ``schema.json``, each error naming file, key and line.

The schema is the one description of the keys: this module reads their types and bounds
from it (the few JSON Schema keywords it uses: ``type`` array, string or number,
``items``, ``minLength``, ``minimum``, ``maximum``, ``format: regex``), and editors read
the same file to complete and check what is typed. tomllib gives no positions, so a
key's line is found in the text (``key_line``).
"""

from __future__ import annotations

import difflib
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import NoktaError

SCHEMA: dict[str, Any] = json.loads(resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8"))
KEYS: dict[str, dict[str, Any]] = SCHEMA["properties"]


class ConfigError(NoktaError, ValueError):
    """A configuration file that cannot be used: ``PATH:LINE: KEY: what is wrong``."""


def attribute(key: str) -> str:
    """The ``Config`` attribute of a key (``ignore-regex`` -> ``ignore_regex``)."""
    return key.replace("-", "_")


def validate(table: dict[str, Any], text: str, path: Path, table_path: tuple[str, ...]) -> dict[str, Any]:
    """The table's values as ``Config`` attributes (lists as tuples); ConfigError for the
    first unknown key or invalid value. ``table_path``: where the table is in the file
    (``()`` for the top level, ``("tool", "nokta")`` in pyproject.toml)."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        line = key_line(text, (*table_path, key))
        where = f"{path}:{line}" if line else str(path)
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}{_did_you_mean(key)}")
        try:
            values[attribute(key)] = checked(KEYS[key], value)
        except ValueError as error:
            raise ConfigError(f"{where}: {key}: {error}") from None
    return values


def _did_you_mean(key: str) -> str:
    close = difflib.get_close_matches(key, KEYS, n=1)
    return f"; did you mean {close[0]!r}?" if close else f"; expected one of {', '.join(KEYS)}"


def checked(spec: dict[str, Any], value: Any) -> Any:
    """``value`` as the schema ``spec`` describes it; ValueError saying what is wrong."""
    kind = spec["type"]
    if kind == "array":
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {_shown(value)}")
        items = []
        for index, item in enumerate(value, 1):
            try:
                items.append(checked(spec["items"], item))
            except ValueError as error:
                raise ValueError(f"item {index}: {error}") from None
        return tuple(items)
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"expected a number, got {_shown(value)}")
        if not spec.get("minimum", value) <= value <= spec.get("maximum", value):
            raise ValueError(f"expected a number from {spec['minimum']} to {spec['maximum']}, got {value}")
        return float(value)
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {_shown(value)}")
    if len(value) < spec.get("minLength", 0):
        raise ValueError("expected a non-empty string")
    if spec.get("format") == "regex":
        try:
            re.compile(value)
        except re.error as error:
            raise ValueError(f"not a regular expression ({error}): {value!r}") from None
    return value


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


_HEADER_RE = re.compile(r"\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY_RE = re.compile(r"\s*((?:(?:\"[^\"]*\"|'[^']*'|[\w-]+)\s*\.\s*)*(?:\"[^\"]*\"|'[^']*'|[\w-]+))\s*=")


def key_line(text: str, dotted: tuple[str, ...]) -> int | None:
    """The line (1-based) where the key at ``dotted`` (its tables, then its name) is set:
    under a ``[table]`` header, possibly with dotted keys (``nokta.words = …`` under
    ``[tool]``). None when it is not found so simply (an inline table, say)."""
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER_RE.match(line)
        if header:
            table = _parts(header.group(1))
            continue
        key = _KEY_RE.match(line)
        if key and (*table, *_parts(key.group(1))) == dotted:
            return number
    return None


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in re.findall(r"\"[^\"]*\"|'[^']*'|[^.]+", dotted))
