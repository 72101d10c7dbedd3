"""Resumable training state, in two forms.

The working checkpoint, written every few minutes, stays on the machine that trains
(git-ignored): ``last.safetensors`` (float32 weights) and ``optimizer.safetensors`` with
``optimizer.json`` (AdamW's moments; the counters). ``resume.safetensors`` is what a fresh
clone resumes from: one file, rewritten when a session ends and only when the run moved
on, packed from the working checkpoint. It holds the weights in float16, AdamW's second
moments in bfloat16 (they reach 1e-10, below float16's range) and its step counts; not the
first moments, a 10-step average that a resumed run rebuilds at once; the best weights
(float16) when they are not the last; the counters and descriptions in its header.
``python -m bench.resume_state`` measures a run resumed from it against one resumed from
the working checkpoint.

    python -m nokta_model.training.neural.train_state RUN   # pack a run trained before resume files
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import save_file

from ...neural.checkpoint import load_model, load_tensors, read_json, save_tensors, sidecar, write_json
from ...neural.vocab import CHARS

LAST, BEST, OPTIMIZER, RESUME = "last.safetensors", "best.safetensors", "optimizer.safetensors", "resume.safetensors"
RESUME_FORMAT, RESUME_VERSION = "nokta-train-state", 1
FLOAT16_MAX = 65504.0


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
    _load_optimizer_state(optimizer, load_tensors(path), meta["param_groups"], path)
    return meta["progress"]


def _load_optimizer_state(
    optimizer: torch.optim.Optimizer, tensors: dict[str, torch.Tensor], param_groups: list, path: Path
) -> None:
    state: dict[int, dict[str, torch.Tensor]] = {}
    for key, value in tensors.items():
        _, index, name = key.split(".", 2)
        state.setdefault(int(index), {})[name] = value
    try:
        optimizer.load_state_dict({"state": state, "param_groups": param_groups})
    except (KeyError, ValueError) as error:
        raise ValueError(f"{path} does not match this model's optimizer: {error}") from error


def resume(model: torch.nn.Module, optimizer: torch.optim.Optimizer, run_dir: Path) -> dict[str, Any] | None:
    """Load the run's latest state into ``model`` and ``optimizer``: the working checkpoint,
    or ``resume.safetensors`` where it is further on (or alone: a fresh clone). Returns the
    saved counters, or None for a run that has not started."""
    working, packed = working_step(run_dir), packed_step(run_dir)
    if working is None and packed is None:
        return None
    if packed is not None and (working is None or packed > working):
        return _unpack(model, optimizer, run_dir)
    saved, _ = load_model(run_dir / LAST)
    _load_weights(model, saved.state_dict(), run_dir / LAST)
    return load_optimizer(optimizer, run_dir / OPTIMIZER)


def working_step(run_dir: Path) -> int | None:
    """The step of the working checkpoint, or None without one."""
    if not (run_dir / LAST).exists() or not (run_dir / OPTIMIZER).exists():
        return None
    return int(read_json((run_dir / OPTIMIZER).with_suffix(".json"))["progress"]["step"])


def packed_step(run_dir: Path) -> int | None:
    """The step ``resume.safetensors`` was packed at, or None without one."""
    if not (run_dir / RESUME).exists():
        return None
    return int(_header(run_dir / RESUME)["progress"]["step"])


def pack(run_dir: Path) -> bool:
    """Write ``resume.safetensors`` from the working checkpoint if that is further on than
    the one there (so an unchanged run adds no new file to history); True if written."""
    run_dir = Path(run_dir)
    working = working_step(run_dir)
    if working is None or working <= (packed_step(run_dir) or -1):
        return False
    optimizer_meta = read_json((run_dir / OPTIMIZER).with_suffix(".json"))
    progress = optimizer_meta["progress"]
    tensors = {f"last.{name}": _half(value) for name, value in load_tensors(run_dir / LAST).items()}
    for key, value in load_tensors(run_dir / OPTIMIZER).items():
        if not key.endswith(".exp_avg"):
            tensors[f"optimizer.{key}"] = value.bfloat16() if key.endswith(".exp_avg_sq") else value
    header = {
        "format": RESUME_FORMAT,
        "version": RESUME_VERSION,
        "progress": progress,
        "param_groups": optimizer_meta["param_groups"],
        "last": read_json(sidecar(run_dir / LAST)),
    }
    if (run_dir / BEST).exists():
        header["best"] = read_json(sidecar(run_dir / BEST))
        if progress["best"].get("step") != working:  # else the best weights are the last
            tensors |= {f"best.{name}": _half(value) for name, value in load_tensors(run_dir / BEST).items()}
    temporary = run_dir / f"{RESUME}.tmp"
    save_file(tensors, str(temporary), metadata={"state": json.dumps(header, ensure_ascii=False)})
    temporary.replace(run_dir / RESUME)
    return True


def _unpack(model: torch.nn.Module, optimizer: torch.optim.Optimizer, run_dir: Path) -> dict[str, Any]:
    """Load ``resume.safetensors``; the first moments start at zero. Writes the best
    checkpoint it holds if the run folder has none."""
    path = run_dir / RESUME
    header, tensors = _header(path), load_tensors(path)
    parts: dict[str, dict[str, torch.Tensor]] = {"last": {}, "best": {}, "optimizer": {}}
    for key, value in tensors.items():
        part, name = key.split(".", 1)
        parts[part][name] = value
    if header["last"].get("alphabet") != CHARS:
        raise ValueError(f"{path} was trained with a different alphabet; start a new run")
    _load_weights(model, parts["last"], path)
    moments = {key: value.float() for key, value in parts["optimizer"].items()}
    for key in [key for key in moments if key.endswith(".exp_avg_sq")]:
        moments[key.removesuffix("_sq")] = torch.zeros_like(moments[key])
    _load_optimizer_state(optimizer, moments, header["param_groups"], path)
    if "best" in header and not (run_dir / BEST).exists():
        best = parts["best"] or parts["last"]
        save_tensors({name: value.float() for name, value in best.items()}, run_dir / BEST)
        write_json(sidecar(run_dir / BEST), header["best"])
    return header["progress"]


def _load_weights(model: torch.nn.Module, tensors: dict[str, torch.Tensor], path: Path) -> None:
    device = next(model.parameters()).device
    try:
        model.load_state_dict({name: value.float().to(device) for name, value in tensors.items()})
    except RuntimeError as error:
        raise ValueError(f"{path} does not match this run's model: {error}") from error


def _header(path: Path) -> dict[str, Any]:
    try:
        with safe_open(str(path), "pt") as packed:
            header = json.loads((packed.metadata() or {})["state"])
    except (SafetensorError, OSError, KeyError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not a readable training state (corrupt or truncated?): {error}") from error
    if header.get("format") != RESUME_FORMAT or header.get("version") != RESUME_VERSION:
        raise ValueError(f"{path} is not a {RESUME_FORMAT} v{RESUME_VERSION} file")
    return header


def _half(tensor: torch.Tensor) -> torch.Tensor:
    """float16 where it holds the values (weights do); else as it was."""
    if tensor.is_floating_point() and tensor.abs().max() < FLOAT16_MAX:
        return tensor.half()
    return tensor


def main() -> None:
    parser = argparse.ArgumentParser(description="Pack a training run's working checkpoint into resume.safetensors.")
    parser.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN")
    for run_dir in parser.parse_args().run_dirs:
        print(f"{run_dir / RESUME}: {'written' if pack(run_dir) else 'up to date (or no working checkpoint)'}")


if __name__ == "__main__":
    main()
