"""Checkpoints: weights as safetensors, everything else as JSON beside them.

``model.safetensors`` + ``model.json`` (format, config, alphabet, data mix, metrics).
Nothing is ever unpickled; a corrupt, truncated or incompatible file raises ValueError.
Writes go to a temporary file first and are renamed into place.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from .config import ModelConfig
from .model import CharTagger
from .vocab import CHARS

FORMAT = "nokta-neural"
FORMAT_VERSION = 1


def sidecar(weights: Path) -> Path:
    return Path(weights).with_suffix(".json")


def save_model(model: CharTagger, weights: Path, extra: dict[str, Any]) -> None:
    """Write ``weights`` and its JSON sidecar; ``extra`` adds data mix, metrics, ..."""
    meta = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "config": _config_dict(model.config),
        "alphabet": CHARS,
    } | extra
    state = {name: tensor.detach().cpu().contiguous() for name, tensor in model.state_dict().items()}
    save_tensors(state, weights)
    write_json(sidecar(weights), meta)


def load_model(weights: Path, device: str | torch.device = "cpu") -> tuple[CharTagger, dict[str, Any]]:
    """The model stored at ``weights`` (a .safetensors file) and its metadata."""
    weights = Path(weights)
    meta = read_json(sidecar(weights))
    if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
        raise ValueError(f"{sidecar(weights)} is not a {FORMAT} v{FORMAT_VERSION} model description")
    if meta.get("alphabet") != CHARS:
        raise ValueError(f"{weights} was trained with a different alphabet; retrain it with this version")
    try:
        model = CharTagger(ModelConfig.from_dict(meta["config"]))
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{sidecar(weights)} has an invalid model config: {error}") from error
    state = load_tensors(weights)
    try:
        model.load_state_dict(state)
    except RuntimeError as error:
        raise ValueError(f"{weights} does not match its config: {error}") from error
    return model.to(device).eval(), meta


def save_tensors(tensors: dict[str, torch.Tensor], path: Path) -> None:
    temporary = Path(f"{path}.tmp")
    save_file(tensors, str(temporary))
    os.replace(temporary, path)


def load_tensors(path: Path) -> dict[str, torch.Tensor]:
    if not Path(path).is_file():
        raise ValueError(f"model weights not found: {path}")
    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError, RuntimeError) as error:
        raise ValueError(f"{path} is not a readable safetensors file (corrupt or truncated?): {error}") from error


def write_json(path: Path, values: dict[str, Any]) -> None:
    temporary = Path(f"{path}.tmp")
    temporary.write_text(json.dumps(values, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temporary, path)


def read_json(path: Path) -> dict[str, Any]:
    try:
        values = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise ValueError(f"model description not found: {path}") from error
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not valid JSON (corrupt or truncated?): {error}") from error
    if not isinstance(values, dict):
        raise ValueError(f"{path} must hold a JSON object")
    return values


def _config_dict(config: ModelConfig) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(config)
