"""What runs the network, chosen at load: ONNX Runtime on the exported graph
(``data/neural.onnx``), or torch on the checkpoint (``data/neural.safetensors``).

ONNX Runtime is the default everywhere on a CPU: it needs no torch (the install is
a fraction of the size, and the server and the CLI start without importing it), and on
the default's batches the shipped graph, its weights in int8, ran in about the time of
torch in bfloat16 and twice as fast as torch in float32 (bench/results/runtime.md).
torch runs the network when asked (``NOKTA_RUNTIME=torch``), for a device other than the
CPU (``--device cuda``/``mps``), and for a checkpoint that has no exported graph (a
training run); it is the ``nokta[torch]`` extra.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .config import ModelConfig

DATA = Path(__file__).resolve().parents[1] / "data"
SHIPPED_GRAPH = DATA / "neural.onnx"
SHIPPED_WEIGHTS = DATA / "neural.safetensors"
RUNTIMES = ("auto", "onnx", "torch")
_CPU_DEVICES = ("auto", "cpu")
_FLOAT32_ONLY: ContextVar[bool] = ContextVar("float32_only", default=False)


class Tagger(Protocol):
    """A loaded network."""

    config: ModelConfig
    description: dict[str, Any]  # what its checkpoint says of it: data mix, training, metrics

    @property
    def runtime(self) -> str:
        """What runs it, as reported: "onnx", "torch float32", "torch bfloat16"."""
        ...

    def probabilities(self, ids: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """P(twin) per position of a padded batch of id rows (batch, width) of ``lengths``."""
        ...


def load_tagger(path: Path | None = None, device: str = "auto", runtime: str | None = None) -> Tagger:
    """The network at ``path`` (an exported ``.onnx`` graph, a ``.safetensors``
    checkpoint, or a training run folder; None: the shipped one), run by ``runtime``
    (default ``$NOKTA_RUNTIME`` or auto). ValueError when it cannot be loaded."""
    chosen = choose_runtime(path, device, runtime)
    if chosen == "onnx":
        from .onnx_tagger import OnnxTagger

        return OnnxTagger.load(path or SHIPPED_GRAPH)
    try:
        from .torch_tagger import TorchTagger
    except ImportError as error:
        raise ValueError(f"this network needs torch ({error}); install it with: pip install 'nokta[torch]'") from error
    return TorchTagger.load(path or SHIPPED_WEIGHTS, device)


def choose_runtime(path: Path | None, device: str, runtime: str | None = None) -> str:
    runtime = runtime or os.environ.get("NOKTA_RUNTIME") or "auto"
    if runtime not in RUNTIMES:
        raise ValueError(f"unknown network runtime {runtime!r} (NOKTA_RUNTIME): choose one of {', '.join(RUNTIMES)}")
    graph = path is None or Path(path).suffix == ".onnx"
    if runtime == "onnx" and not graph:
        raise ValueError(f"{path}: ONNX Runtime reads an exported .onnx graph, not a torch checkpoint")
    if runtime == "onnx" and device not in _CPU_DEVICES:
        raise ValueError(f"ONNX Runtime runs the network on the CPU only, not on {device!r}")
    if runtime == "torch" and path is not None and graph:
        raise ValueError(f"{path}: torch reads a .safetensors checkpoint, not an exported graph")
    if runtime != "auto":
        return runtime
    return "onnx" if graph and device in _CPU_DEVICES else "torch"


@contextlib.contextmanager
def float32() -> Iterator[None]:
    """Inside the block, a torch network runs in float32 whatever the CPU (ONNX Runtime
    runs the same arithmetic on every CPU already)."""
    token = _FLOAT32_ONLY.set(True)
    try:
        yield
    finally:
        _FLOAT32_ONLY.reset(token)


def float32_asked() -> bool:
    """Whether float32 is asked for: inside ``float32()`` or with ``NOKTA_NETWORK_FLOAT32=1``."""
    return _FLOAT32_ONLY.get() or os.environ.get("NOKTA_NETWORK_FLOAT32", "") not in ("", "0")
