"""Resumable training state: optimizer tensors as safetensors, counters as JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from .checkpoint import load_tensors, read_json, save_tensors, write_json


def save_optimizer(optimizer: torch.optim.Optimizer, path: Path, progress: dict[str, Any]) -> None:
    state = optimizer.state_dict()
    tensors = {
        f"state.{index}.{name}": value.detach().cpu().contiguous()
        for index, values in state["state"].items()
        for name, value in values.items()
        if isinstance(value, torch.Tensor)
    }
    save_tensors(tensors, path)
    write_json(path.with_suffix(".json"), {"param_groups": state["param_groups"], "progress": progress})


def load_optimizer(optimizer: torch.optim.Optimizer, path: Path) -> dict[str, Any]:
    """Restore ``optimizer`` from ``path``; returns the saved progress counters."""
    meta = read_json(path.with_suffix(".json"))
    tensors = load_tensors(path)
    state: dict[int, dict[str, torch.Tensor]] = {}
    for key, value in tensors.items():
        _, index, name = key.split(".", 2)
        state.setdefault(int(index), {})[name] = value
    try:
        optimizer.load_state_dict({"state": state, "param_groups": meta["param_groups"]})
    except (KeyError, ValueError) as error:
        raise ValueError(f"{path} does not match this model's optimizer: {error}") from error
    return meta["progress"]
