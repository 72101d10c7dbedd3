"""Typed server settings (section ``nokta``): the single source of truth for every key.

Clients send settings as ``initializationOptions`` and through
``workspace/configuration``. ``parse_settings`` never raises: a missing key takes its
default, and an invalid value takes its default with a warning the server shows once.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from nokta_model.backends import BACKENDS
from nokta_model.check.findings import DEFAULT_STRICT_THRESHOLD, DEFAULT_THRESHOLD

SECTION = "nokta"

SEVERITIES = ("error", "warning", "information", "hint")
AMBIGUOUS_MODES = ("hint", "off")
DEVICES = ("auto", "cpu", "cuda")

DEFAULT_FILE_TYPES = (
    "plaintext", "markdown", "gitcommit", "git-commit", "latex", "tex", "plaintex", "restructuredtext", "rst",
    "html", "asciidoc", "org", "text",
)  # fmt: skip

#: The confidence autocorrect needs (calibrated): its flags right as often as at 0.998 of the raw
#: shares, once chosen on the corpus dev split by ``bench/autocorrect.py --tune``; re-derived on the
#: tune split by ``bench/calibration.py``.
DEFAULT_AUTOCORRECT_THRESHOLD = 0.9

#: Keys under ``nokta`` that only the editor client reads (``nokta.server.path``, ``nokta.trace.server``).
CLIENT_ONLY_KEYS = ("server", "trace")


@dataclass(frozen=True)
class Settings:
    fileTypes: tuple[str, ...] = DEFAULT_FILE_TYPES
    checkCodeComments: bool = False
    severity: str = "information"
    confidenceThreshold: float = DEFAULT_THRESHOLD
    strictConfidenceThreshold: float = DEFAULT_STRICT_THRESHOLD
    ambiguous: str = "off"
    debounceMs: int = 200
    ignoreWords: tuple[str, ...] = ()
    dictionaryPath: str = ""
    backend: str = "default"
    modelPath: str = ""
    device: str = "auto"
    maxFileSize: int = 5_000_000
    maxLineLength: int = 20_000
    maxDiagnostics: int = 100
    autocorrect: tuple[str, ...] = DEFAULT_FILE_TYPES
    autocorrectThreshold: float = DEFAULT_AUTOCORRECT_THRESHOLD
    hideWhileTyping: bool = True
    inlayHints: bool = True
    workspaceDiagnostics: bool = True
    workspaceMaxFiles: int = 2_000
    workspaceMaxFileSize: int = 1_000_000

    def model_key(self) -> tuple[str, str, str]:
        return (self.backend, self.modelPath, self.device)


#: What each key does and an example value, for the settings page (docs/settings.md,
#: made by ``python -m nokta_lsp.state.settings_doc``).
DESCRIPTIONS: dict[str, tuple[str, Any]] = {
    "fileTypes": (
        "Language ids checked as prose (`plaintex` is Neovim's file type for a `.tex` file without `\\documentclass`).",
        ["markdown", "plaintext"],
    ),
    "checkCodeComments": (
        "Also check comments and string literals of code files (C-like, Python/shell-like, Lua/SQL/Haskell, "
        "Lisp, MATLAB/Erlang families) and of code blocks in documents (flagged only: no restore changes a code "
        "block).",
        True,
    ),
    "severity": ("Severity of confident findings.", "warning"),
    "confidenceThreshold": (
        "Findings below it are ambiguous. A calibrated confidence (of the words flagged at 0.9, about 9 in 10 "
        "are right); the default keeps the share of flags right of the one tuned on the corpus dev split, "
        "re-derived on the tune split by `bench/calibration.py`, never on `shared/bench`.",
        0.9,
    ),
    "strictConfidenceThreshold": (
        "The same, on lines the writer typed with Turkish letters (evidence from the writer; letters nokta "
        "wrote do not count); there capitalised words are flagged only as slips (a typed form almost never "
        "written, whose restored form is common: those need only confidenceThreshold). 1.0 flags only "
        "words the model knows no other spelling for.",
        0.99,
    ),
    "ambiguous": (
        "How findings below the threshold are shown: as a hint listing the options (`aci: acı or açı?`), "
        "or not at all.",
        "hint",
    ),
    "debounceMs": ("Delay after the last edit of a document before it is analysed.", 100),
    "ignoreWords": (
        "Words never flagged, with their inflected and apostrophe forms (`Istanbul` covers `Istanbul'da` "
        "and `ISTANBUL'DA`); case-insensitive under Turkish rules.",
        ["Istanbul", "commit"],
    ),
    "dictionaryPath": (
        "The workspace dictionary file (default: `.nokta-words.txt` in the workspace root); relative paths "
        "are taken from the workspace root.",
        "docs/words.txt",
    ),
    "backend": ("The restorer backend; changing it reloads the model without a restart.", "ngram"),
    "modelPath": (
        "A model file overriding `backend` (`.npz` count-based, `.safetensors` neural, `.json` default "
        "weights); read as data, never executed.",
        "/models/nokta.safetensors",
    ),
    "device": ("Where a neural model runs.", "cpu"),
    "maxFileSize": ("Larger documents (characters) are not checked; one log message says so.", 1_000_000),
    "maxLineLength": ("Longer lines (characters) are not checked.", 5_000),
    "maxDiagnostics": (
        "At most this many diagnostics are published per document (pushed or pulled): those of the lines "
        "shown (as the editor's inlay-hint requests name them) nearest the last edit, then the rest nearest "
        "it; of a workspace file not open, the first from its top. Past it, a document where most words "
        "that need a Turkish letter were typed without one gets a single diagnostic at its top instead, "
        "whose fix restores the whole document. Hover, code actions and the restore commands still see "
        "every finding.",
        500,
    ),
    "autocorrect": (
        "Language ids whose words are restored as you type (`textDocument/onTypeFormatting`, after a space, "
        "a line break or sentence punctuation), when the model is at least `autocorrectThreshold` sure; "
        "`[]` turns autocorrect off. The editor must ask: VS Code's `editor.formatOnType`, "
        "`require('nokta').autocorrect(true)` in Neovim.",
        ["markdown", "plaintext"],
    ),
    "autocorrectThreshold": (
        "The confidence a word needs to be restored as you type. Chosen on the corpus dev split by "
        "`bench/autocorrect.py --tune` for next to no wrong changes, re-derived for calibrated confidences "
        "on the tune split by `bench/calibration.py`; never on `shared/bench`.",
        0.9995,
    ),
    "hideWhileTyping": (
        "No diagnostic nor inlay hint for the word being typed (where the last change inserted letters "
        "or deleted some) until a space or punctuation follows it.",
        False,
    ),
    "inlayHints": (
        "Inlay hints `→ güzel` after each confidently flagged word (`textDocument/inlayHint`), applied when "
        "accepted (a double-click in VS Code). The editor's own switch turns them off too: "
        "`editor.inlayHints.enabled` in VS Code, `vim.lsp.inlay_hint.enable(false)` in Neovim.",
        False,
    ),
    "workspaceDiagnostics": (
        "Check the workspace's files that are not open, for a client that asks (`workspace/diagnostic`: "
        "VS Code's Problems view) or with the command `nokta.checkWorkspace`; files ignored by git or "
        "excluded by the configuration file are skipped.",
        False,
    ),
    "workspaceMaxFiles": ("At most this many files are checked in a workspace (the first in path order).", 500),
    "workspaceMaxFileSize": ("Larger files (bytes) are left out of workspace checks.", 200_000),
}

#: Allowed values of the enumerated keys.
ENUMS: dict[str, tuple[str, ...]] = {
    "severity": SEVERITIES,
    "ambiguous": AMBIGUOUS_MODES,
    "backend": BACKENDS,
    "device": DEVICES,
}
#: Inclusive (minimum, maximum) of the numeric keys; None means unbounded.
BOUNDS: dict[str, tuple[float, float | None]] = {
    "confidenceThreshold": (0.0, 1.0),
    "strictConfidenceThreshold": (0.0, 1.0),
    "debounceMs": (0, None),
    "maxFileSize": (0, None),
    "maxLineLength": (0, None),
    "maxDiagnostics": (1, None),
    "autocorrectThreshold": (0.0, 1.0),
    "workspaceMaxFiles": (0, None),
    "workspaceMaxFileSize": (0, None),
}


def setting_types() -> dict[str, type]:
    """Key -> Python type of its value (tuple for string lists)."""
    return {f.name: _TYPES[str(f.type)] for f in fields(Settings)}


_TYPES = {"tuple[str, ...]": tuple, "bool": bool, "str": str, "float": float, "int": int}


def _check(key: str, kind: type, value: Any) -> Any:
    """``value`` converted to the type of ``key``; raises ValueError when it is not valid."""
    if kind is tuple:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ValueError("expected a list of strings")
        return tuple(value)
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError("expected true or false")
        return value
    if kind in (int, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("expected a number")
        if kind is int and value != int(value):
            raise ValueError("expected a whole number")
        low, high = BOUNDS.get(key, (None, None))
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"expected a number in [{low}, {high if high is not None else '∞'}]")
        return kind(value)
    if not isinstance(value, str):
        raise ValueError("expected a string")
    if key in ENUMS and value not in ENUMS[key]:
        raise ValueError(f"expected one of {', '.join(ENUMS[key])}")
    return value


def parse_settings(raw: Any, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Settings from a client's JSON object, and warnings for every value not taken.

    Accepts the ``nokta`` object itself or an object holding it under ``nokta``.
    Keys missing from ``raw`` keep their value in ``base`` (defaults when None); a key
    given ``null`` takes its default.
    """
    settings, _, warnings = parse_user_settings(raw, base)
    return settings, warnings


def parse_user_settings(
    raw: Any, base: Settings | None = None, base_set: frozenset[str] = frozenset()
) -> tuple[Settings, frozenset[str], list[str]]:
    """``parse_settings``, and the keys the user has set (``base_set`` before ``raw``): a
    key given a valid value is set, one given ``null`` or an invalid value is not (its
    default, or a configuration file's value, holds), one not given stays as it was."""
    base = base or Settings()
    if raw is None:
        return base, base_set, []
    if not isinstance(raw, dict):
        return base, base_set, [f"nokta settings must be an object, got {type(raw).__name__}; using defaults"]
    if isinstance(raw.get(SECTION), dict):
        raw = raw[SECTION]
    types = setting_types()
    changes: dict[str, Any] = {}
    user_set = set(base_set)
    warnings: list[str] = []
    for key, value in raw.items():
        if key in CLIENT_ONLY_KEYS:
            continue
        if key not in types:
            warnings.append(f"unknown setting nokta.{key} ignored")
            continue
        default = getattr(Settings(), key)
        user_set.discard(key)
        changes[key] = default
        if value is None:
            continue
        try:
            changes[key] = _check(key, types[key], value)
            user_set.add(key)
        except ValueError as error:
            warnings.append(f"nokta.{key}: {error}, got {value!r}; using the default {default!r}")
    return replace(base, **changes), frozenset(user_set), warnings


def defaults_as_json() -> dict[str, Any]:
    """Every key with its default, as a client would write it in JSON."""
    defaults = Settings()
    return {f.name: _to_json(getattr(defaults, f.name)) for f in fields(Settings)}


def _to_json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


#: Keys of the configuration file (``nokta_model.config``) -> the setting each gives its
#: value to, for the documents under it, unless the user set that setting in the editor.
#: The file's ``words`` join ``ignoreWords``; ``ignore-regex`` and ``exclude`` have no setting.
CONFIG_SETTINGS = {
    "confidence-threshold": "confidenceThreshold",
    "strict-confidence-threshold": "strictConfidenceThreshold",
    "autocorrect": "autocorrect",
    "autocorrect-threshold": "autocorrectThreshold",
}
