"""Batched inference: per position of each folded line, the probability that the
letter there is its Turkish twin. Lines are sorted by length and run in batches;
lines longer than the model's window are cut into overlapping windows. A batch holds
pieces of similar lengths (the longest at most ``LENGTH_SPREAD`` times the shortest, plus
``LENGTH_SLACK``): every row runs as many steps as the longest, so mixing a few long
pieces with many short ones would mostly compute padding.

On a CPU with native bfloat16 arithmetic (AMX or AVX512-BF16), the network runs under
bfloat16 autocast: on this project's 2-core Xeon the default restorer ran 1.8x as fast
and made the same number of word errors on the tune and dev splits as in float32. Set
``NOKTA_NETWORK_FLOAT32=1`` to keep float32 everywhere; ``float32()`` does it for a block
of code (the default's weight fit, so that its result does not depend on the CPU)."""

from __future__ import annotations

import contextlib
import functools
import math
import os
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from .config import ModelConfig
from .model import CharTagger
from .vocab import BOUNDARY, PAD, encode_input, encode_key

#: Characters per network batch: bounds the activations held at once. For the 2 x 256
#: network, restoring the dev and tune splits peaked at 532 MB RSS with 24,000 and 439 MB
#: with 4,000, in as much time (bf16, 512-line calls).
BATCH_TOKENS = 4_000
MAX_BATCH = 512
#: Batch widths are padded to a multiple of this: oneDNN keeps what it builds for each
#: sequence length it meets, and with bfloat16 that grew the CLI's peak RSS with the size
#: of its input (452 MiB on 2 MB of text, 555 MiB on 16 MB; padded: 456 and 493) and the
#: server's to 564 MiB (433 padded). 8, not 16: the default's windows around words are a
#: few dozen letters, and rounding them up to 16 computed a quarter more than their letters.
WIDTH_STEP = 8
LENGTH_SPREAD = 2.0
LENGTH_SLACK = 8
_BFLOAT16_CPU_FLAGS = frozenset({"amx_bf16", "avx512_bf16"})
_FLOAT32_ONLY: ContextVar[bool] = ContextVar("float32_only", default=False)


@dataclass
class _Piece:
    line: int
    start: int  # offset of the piece in the line's id sequence (boundaries included)
    ids: np.ndarray
    keep_from: int  # positions [keep_from, keep_to) of the piece are kept
    keep_to: int


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


def twin_probabilities(model: CharTagger, keys: list[str]) -> list[np.ndarray]:
    """For each folded line (a cased model's: asciified, its capitals kept), float32
    P(twin) per code point (0 where no head applies)."""
    out = [np.zeros(len(key) + 2, dtype=np.float32) for key in keys]
    pieces = [piece for index, key in enumerate(keys) for piece in _pieces(index, key, model.config)]
    pieces.sort(key=lambda piece: len(piece.ids))
    device = next(model.parameters()).device
    with torch.inference_mode(), _precision(device):
        for batch in _batches(pieces):
            probabilities = _run(model, batch, device)
            for piece, row in zip(batch, probabilities):
                out[piece.line][piece.start + piece.keep_from : piece.start + piece.keep_to] = row[
                    piece.keep_from : piece.keep_to
                ]
    return [probabilities[1:-1] for probabilities in out]


@contextlib.contextmanager
def float32() -> Iterator[None]:
    """Inside the block, the network runs in float32 whatever the CPU."""
    token = _FLOAT32_ONLY.set(True)
    try:
        yield
    finally:
        _FLOAT32_ONLY.reset(token)


def keep_cast_weights(model: CharTagger) -> CharTagger:
    """``model``, which will only infer, with its weights kept cast to bfloat16 where it
    runs under bfloat16 autocast (see ``CharTagger.keep_cast_weights``)."""
    if bfloat16_native_on(next(model.parameters()).device):
        model.keep_cast_weights(torch.bfloat16)
    return model


def _precision(device: torch.device) -> contextlib.AbstractContextManager:
    float32_asked = _FLOAT32_ONLY.get() or os.environ.get("NOKTA_NETWORK_FLOAT32", "") not in ("", "0")
    if bfloat16_native_on(device) and not float32_asked:
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()


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


def _run(model: CharTagger, batch: list[_Piece], device: torch.device) -> np.ndarray:
    width = WIDTH_STEP * math.ceil(max(len(piece.ids) for piece in batch) / WIDTH_STEP)
    ids = np.full((len(batch), width), PAD, dtype=np.int64)
    for row, piece in enumerate(batch):
        ids[row, : len(piece.ids)] = piece.ids
    ids_tensor = torch.from_numpy(ids).to(device)
    lengths = torch.tensor([len(piece.ids) for piece in batch])
    logits, _ = model(ids_tensor, lengths)
    return torch.sigmoid(model.calibrated(logits, ids_tensor)).float().cpu().numpy()


def _pieces(index: int, key: str, config: ModelConfig) -> list[_Piece]:
    encoded = encode_input(key, cased=True) if config.cased else encode_key(key)
    ids = np.concatenate(([BOUNDARY], encoded, [BOUNDARY])).astype(np.int64)
    window, context = config.window, config.window_context
    if len(ids) <= window:
        return [_Piece(index, 0, ids, 0, len(ids))]
    pieces, start, step = [], 0, window - 2 * context
    while True:
        last = start + window >= len(ids)
        keep_from = 0 if start == 0 else context
        keep_to = len(ids) - start if last else window - context
        pieces.append(_Piece(index, start, ids[start : start + window], keep_from, keep_to))
        if last:
            return pieces
        start += step


def _batches(pieces: list[_Piece]) -> Iterator[list[_Piece]]:
    batch: list[_Piece] = []
    for piece in pieces:
        if batch and (
            len(batch) >= MAX_BATCH
            or len(piece.ids) * (len(batch) + 1) > BATCH_TOKENS
            or len(piece.ids) > LENGTH_SPREAD * len(batch[0].ids) + LENGTH_SLACK
        ):
            yield batch
            batch = []
        batch.append(piece)
    if batch:
        yield batch
