"""The backend registry: names and model-file suffixes mapped to loaders.

The CLI, the language server's settings and the editor tests read ``BACKENDS`` from
here; ``load_restorer`` is the one way to get a restorer. Loaders import their
backend lazily, so asking for the count-based model never loads the network's runtime,
and none of them imports torch unless a torch checkpoint or device is asked for
(``neural.runtime``).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .restorer import Restorer


def _load_ngram(path: Path | None, device: str) -> Restorer:
    from .ngram.model import NgramRestorer

    return NgramRestorer.load(path)


def _load_neural(path: Path | None, device: str) -> Restorer:
    from .neural import load_neural_restorer

    return load_neural_restorer(path, device)


def _load_default(path: Path | None, device: str) -> Restorer:
    from .default import load_default_restorer

    return load_default_restorer(path, device)


@dataclass(frozen=True)
class Backend:
    name: str
    summary: str
    load: Callable[[Path | None, str], Restorer]  # (model file or None for the shipped one, device)
    suffixes: tuple[str, ...] = ()  # model files this backend reads
    loads_directories: bool = False  # a training run folder


REGISTRY: dict[str, Backend] = {
    backend.name: backend
    for backend in (
        Backend(
            "default",
            "count-based lattice scored by every model, with fitted weights",
            _load_default,
            (".json",),  # the weights file (data/default.json); the models are the shipped ones
        ),
        Backend("ngram", "count-based: lexicon, word trigrams, character contexts", _load_ngram, (".npz",)),
        Backend("neural", "character BiLSTM tagger", _load_neural, (".onnx", ".safetensors"), loads_directories=True),
    )
}
BACKENDS = tuple(REGISTRY)


def backend_for_path(path: Path) -> Backend:
    """The backend that reads the model file (or run folder) at ``path``."""
    for backend in REGISTRY.values():
        if any(path.name.endswith(suffix) for suffix in backend.suffixes) or (
            backend.loads_directories and path.is_dir()
        ):
            return backend
    suffixes = ", ".join(s for b in REGISTRY.values() for s in b.suffixes)
    raise ValueError(f"{path}: not a model file nokta knows (expected {suffixes} or a training run folder)")


def set_torch_defaults() -> None:
    """For a process that loads a neural model (call before it loads): torch on one thread
    unless ``OMP_NUM_THREADS`` says otherwise (more cores: more processes), and oneDNN's
    kernel cache off: it keeps a compiled kernel per input shape, and inference shapes
    change with every batch, so the cache only grew, and the network ran as fast without
    it (bench.cli_memory)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "0")


#: Collection thresholds for a process that keeps its model (``keep_for_life``).
LIFELONG_GC_THRESHOLDS = (50_000, 20, 20)


def keep_for_life() -> None:
    """For a process that keeps its model until it exits, once the model is loaded: the
    garbage collector stops walking the objects alive now (torch and the tables leave
    a great many), and collects less often. Restoring allocates containers by the
    million, nearly all freed at once by reference counting, and the restorers' caches
    of words grow into the older generations: the default thresholds walked those again
    and again for almost no garbage, a sizeable share of a count-based run (bench.throughput)."""
    gc.freeze()
    gc.set_threshold(*LIFELONG_GC_THRESHOLDS)


def load_restorer(name_or_path: str = "default", device: str = "auto") -> Restorer:
    """A restorer by backend name (see ``BACKENDS``) or by model file path."""
    if name_or_path in REGISTRY:
        return REGISTRY[name_or_path].load(None, device)
    path = Path(name_or_path)
    if not path.exists() and not path.suffix:
        raise ValueError(f"unknown backend {name_or_path!r}: choose one of {', '.join(BACKENDS)} or give a model path")
    return backend_for_path(path).load(path, device)
