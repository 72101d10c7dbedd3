"""Batched inference: per position of each folded line, the probability that the
letter there is its Turkish twin. Lines longer than the model's window are cut into
overlapping windows. Pieces are sorted by length and cut into the batches that cost
least (``_batches``): every row of a batch runs as many steps as its longest, so mixing
short pieces with long ones computes padding, while each batch's every step also costs
a fixed share (``STEP_COST_ROWS``), so many small batches cost more than a few full ones.

On a CPU with native bfloat16 arithmetic (AMX or AVX512-BF16), the network runs under
bfloat16 autocast: on this project's CPU (AVX512-BF16) the network ran about twice as
fast as in float32, and the default made the same word errors on the tune and dev splits
(bench/results/default_speed.md). Set
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

#: Characters per network batch: bounds the activations held at once (larger batches
#: raised the peak memory for no gain in speed).
BATCH_TOKENS = 4_000
MAX_BATCH = 512
#: Batch widths are padded to a multiple of this: oneDNN keeps what it builds for each
#: sequence length it meets, and with bfloat16 that grew the CLI's and the server's peak
#: memory with the size of their input. Not larger: the default's windows around words
#: are a few dozen letters, and rounding them up further computes mostly padding.
WIDTH_STEP = 8
#: What a batch's step costs besides its rows' letters, in rows' worth (measured for the
#: shipped LSTM in bfloat16 on this project's CPU: bench/results/default_speed.md).
STEP_COST_ROWS = 6
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
    width = _width(max(len(piece.ids) for piece in batch))
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


def _batches(pieces: list[_Piece]) -> list[list[_Piece]]:
    """``pieces`` (sorted by length) cut into batches of consecutive pieces at the least
    cost: a batch of n rows padded to width w costs w * (n + ``STEP_COST_ROWS``). Pieces of
    one padded width go to consecutive batches of at most ``_rows_of`` rows; which widths
    share batches is chosen by dynamic programming over the (few) widths."""
    groups: dict[int, list[_Piece]] = {}
    for piece in pieces:
        groups.setdefault(_width(len(piece.ids)), []).append(piece)
    widths = list(groups)
    least = [0.0] + [math.inf] * len(widths)  # least[j]: cost of the first j widths
    first = [0] * (len(widths) + 1)  # first[j]: index of the first width of the last run
    for end in range(1, len(widths) + 1):
        width, rows, count = widths[end - 1], _rows_of(widths[end - 1]), 0
        for start in range(end, 0, -1):
            count += len(groups[widths[start - 1]])
            cost = least[start - 1] + width * (count + STEP_COST_ROWS * math.ceil(count / rows))
            if cost < least[end]:
                least[end], first[end] = cost, start - 1
    batches: list[list[_Piece]] = []
    end = len(widths)
    while end:
        start = first[end]
        run = [piece for width in widths[start:end] for piece in groups[width]]
        rows = _rows_of(widths[end - 1])
        batches[:0] = [run[i : i + rows] for i in range(0, len(run), rows)]
        end = start
    return batches


def _width(length: int) -> int:
    return WIDTH_STEP * math.ceil(length / WIDTH_STEP)


def _rows_of(width: int) -> int:
    """Rows of a batch of ``width``: at most ``MAX_BATCH`` and ``BATCH_TOKENS`` characters."""
    return max(1, min(MAX_BATCH, BATCH_TOKENS // width))
