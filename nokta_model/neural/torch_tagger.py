"""The network run by torch (the ``nokta[torch]`` extra): a checkpoint on the CPU, CUDA
or MPS, and the model being trained.

On a CPU with native bfloat16 arithmetic (AMX or AVX512-BF16), the network runs under
bfloat16 autocast: on this project's CPU (AVX512-BF16) it ran about twice as fast as in
float32, and the default made the same word errors on the tune and dev splits
(bench/results/default_speed.md). ``NOKTA_NETWORK_FLOAT32=1`` or ``runtime.float32()``
keeps float32 everywhere."""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .checkpoint import load_model
from .config import ModelConfig
from .model import CharTagger
from .runtime import float32_asked

_BFLOAT16_CPU_FLAGS = frozenset({"amx_bf16", "avx512_bf16"})


class TorchTagger:
    """``model`` as a ``runtime.Tagger`` (put in eval mode): batches run under no-grad,
    in bfloat16 where the CPU has it natively unless ``bfloat16`` is False."""

    def __init__(self, model: CharTagger, description: dict[str, Any] | None = None, bfloat16: bool = True) -> None:
        self.model = model.eval()
        self.allow_bfloat16 = bfloat16
        self.config: ModelConfig = model.config
        self.description = description or {}
        self.device = model_device(model)

    @classmethod
    def load(cls, path: Path, device: str = "auto") -> TorchTagger:
        """The checkpoint at ``path`` (a run folder: its best), for inference only."""
        model, meta = load_model(checkpoint_in(Path(path)), resolve_device(device))
        if bfloat16_native_on(model_device(model)):
            model.keep_cast_weights(torch.bfloat16)
        return cls(model, meta)

    @property
    def runtime(self) -> str:
        return "torch bfloat16" if self._bfloat16() else "torch float32"

    def probabilities(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        ids_tensor = torch.from_numpy(ids).to(self.device)
        precision = torch.autocast("cpu", dtype=torch.bfloat16) if self._bfloat16() else contextlib.nullcontext()
        with torch.inference_mode(), precision:
            logits, _ = self.model(ids_tensor, torch.from_numpy(lengths))
            return torch.sigmoid(self.model.calibrated(logits, ids_tensor)).float().cpu().numpy()

    def _bfloat16(self) -> bool:
        return self.allow_bfloat16 and bfloat16_native_on(self.device) and not float32_asked()


def checkpoint_in(path: Path) -> Path:
    """``path``, or for a run folder its best checkpoint."""
    if not path.is_dir():
        return path
    for name in ("best.safetensors", "model.safetensors", "neural.safetensors"):
        if (path / name).exists():
            return path / name
    raise ValueError(f"no model weights (best/model/neural.safetensors) in {path}")


def model_device(model: CharTagger) -> torch.device:
    return next(model.parameters()).device


def resolve_device(device: str = "auto") -> torch.device:
    """The torch device for ``device`` (auto: CUDA, then MPS, then CPU); ValueError when
    the device named cannot be used on this machine."""
    if device != "auto":
        try:
            chosen = torch.device(device)
        except RuntimeError as error:
            raise ValueError(f"unknown device {device!r}: {error}") from error
        if not _usable(chosen):
            raise ValueError(f"device {device!r} is not available on this machine; use --device cpu or auto")
        return chosen
    if torch.cuda.is_available():
        return torch.device("cuda")
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def _usable(device: torch.device) -> bool:
    if device.type == "cuda":
        return torch.cuda.is_available() and (device.index or 0) < torch.cuda.device_count()
    if device.type == "mps":
        return getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available()
    return device.type == "cpu"


def bfloat16_native_on(device: torch.device) -> bool:
    """Whether ``device`` is a CPU with native bfloat16 arithmetic: there the network runs
    (unless float32 is asked) and trains under bfloat16 autocast."""
    return device.type == "cpu" and native_bfloat16()


@functools.cache
def native_bfloat16(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether this CPU does bfloat16 arithmetic natively (Linux: its flags say so)."""
    try:
        text = cpuinfo.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    flags = {flag for line in text.splitlines() if line.startswith("flags") for flag in line.split()}
    return bool(flags & _BFLOAT16_CPU_FLAGS)
